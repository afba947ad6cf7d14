import { celError } from './values';

/**
 * The fields of a timestamp in a time zone, as cel-go's timestamp getters with a time zone
 * argument read them (common/types/timestamp.go, timeZone): a name without a colon is loaded as
 * Go's time.LoadLocation loads it (the empty name and `UTC` are UTC, `Local` is the apiserver's
 * zone, UTC in its container; names are case-sensitive; an unknown one fails with "unknown time
 * zone NAME"); a name with a colon is an offset `[+-]HH:MM`, each side read by strconv.Atoi, whose
 * error texts it keeps. The engine's getters use JavaScript's names and errors.
 */
export interface ZonedFields {
  readonly year: number;
  /** 1 to 12. */
  readonly month: number;
  /** 1 to 31. */
  readonly day: number;
  readonly hours: number;
  readonly minutes: number;
  readonly seconds: number;
  /** 0 (Sunday) to 6. */
  readonly weekday: number;
}

const MAX_INT64 = 2n ** 63n - 1n;
const formatters = new Map<string, Intl.DateTimeFormat | Error>();

/** strconv.Atoi, with its error texts. */
function atoi(text: string): number {
  if (!/^[+-]?[0-9]+$/.test(text)) throw celError(`strconv.Atoi: parsing ${JSON.stringify(text)}: invalid syntax`);
  const n = BigInt(text);
  if (n > MAX_INT64 || n < -MAX_INT64 - BigInt(1)) throw celError(`strconv.Atoi: parsing ${JSON.stringify(text)}: value out of range`);
  return Number(n);
}

/** A zone name as time.LoadLocation reads it, as a formatter; null for UTC. */
function zoneFormatter(name: string): Intl.DateTimeFormat | null {
  if (name === '' || name === 'UTC' || name === 'Local') return null;
  let formatter = formatters.get(name);
  if (formatter === undefined) {
    formatter = loadZone(name);
    formatters.set(name, formatter);
  }
  if (formatter instanceof Error) throw celError(formatter.message);
  return formatter;
}

function loadZone(name: string): Intl.DateTimeFormat | Error {
  // time.LoadLocation: errLocation for a name that climbs out of the zone directory.
  if (name.includes('..') || name.startsWith('/') || name.startsWith('\\')) return new Error('time: invalid location name');
  const unknown = new Error(`unknown time zone ${name}`);
  let formatter: Intl.DateTimeFormat;
  try {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: name,
      hourCycle: 'h23',
      weekday: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  } catch {
    return unknown;
  }
  // Go reads zone files by their exact names; JavaScript's names are case-insensitive. Zone names
  // begin each part with a capital letter (`America/New_York`, `Etc/GMT+5`, `EST5EDT`).
  const resolved = formatter.resolvedOptions().timeZone;
  const sameNameOtherCase = resolved.toLowerCase() === name.toLowerCase() && resolved !== name;
  if (sameNameOtherCase || !name.split('/').every((part) => /^[A-Z]/.test(part))) return unknown;
  return formatter;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** The fields of `instant` in the zone or offset `zone`. */
export function zonedFields(instant: Date, zone: string): ZonedFields {
  const colon = zone.indexOf(':');
  if (colon !== -1) {
    const hours = atoi(zone.slice(0, colon));
    const minutes = atoi(zone.slice(colon + 1));
    const offset = zone.startsWith('-') ? hours * 60 - minutes : hours * 60 + minutes;
    return utcFields(new Date(instant.getTime() + offset * 60_000));
  }
  const formatter = zoneFormatter(zone);
  if (!formatter) return utcFields(instant);
  const parts: { [type: string]: string } = {};
  for (const p of formatter.formatToParts(instant)) parts[p.type] = p.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hours: Number(parts.hour),
    minutes: Number(parts.minute),
    seconds: Number(parts.second),
    weekday: WEEKDAYS.indexOf(parts.weekday),
  };
}

function utcFields(d: Date): ZonedFields {
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hours: d.getUTCHours(),
    minutes: d.getUTCMinutes(),
    seconds: d.getUTCSeconds(),
    weekday: d.getUTCDay(),
  };
}

/** 0 for January 1st (Go's YearDay minus 1). */
export function dayOfYear(f: ZonedFields): number {
  return Math.round((Date.UTC(f.year, f.month - 1, f.day) - Date.UTC(f.year, 0, 1)) / 86_400_000);
}
