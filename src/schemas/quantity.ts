/**
 * Whether the apiserver decodes `text` as a resource.Quantity (k8s.io/apimachinery
 * pkg/api/resource/quantity.go, ParseQuantity): an optional sign, digits with an optional
 * fraction, and a suffix: none, a decimal SI one (n u m k M G T P E), a binary one (Ki … Ei) or a
 * decimal exponent (e3, E-2). JSON numbers are decoded from their text the same way.
 */
export function isQuantity(text: string): boolean {
  // UnmarshalJSON reads the text between the quotes as sent, escapes included, trimming Go's spaces.
  const sent = JSON.stringify(text).slice(1, -1).replace(GO_SPACE_EDGES, '');
  const m = /^[+-]?[0-9]*(?:\.[0-9]*)?(.*)$/.exec(sent);
  if (!m || sent === '') return false;
  return isSuffix(m[1]);
}

/** Leading and trailing white space as Go's strings.TrimSpace sees it (unicode.IsSpace). */
const GO_SPACE_EDGES = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;

const SUFFIXES = new Set(['', 'n', 'u', 'm', 'k', 'M', 'G', 'T', 'P', 'E', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei']);

function isSuffix(suffix: string): boolean {
  if (SUFFIXES.has(suffix)) return true;
  // A decimal exponent: e or E and a signed integer (that fits in 64 bits, as strconv.ParseInt reads it).
  const exponent = /^[eE]([+-]?[0-9]+)$/.exec(suffix);
  return exponent !== null && BigInt(exponent[1]) <= 2n ** 63n - 1n && BigInt(exponent[1]) >= -(2n ** 63n);
}

/**
 * A resource.Quantity as the apiserver holds it after decoding: the value `mantissa × 10^exponent`,
 * the format its suffix chose, whether it is held as an int64 amount (the parser's fast path) and,
 * when the text sent was already canonical, that text (which encoding then writes back as sent).
 */
export interface GoQuantity {
  readonly mantissa: bigint;
  readonly exponent: number;
  readonly format: 'DecimalExponent' | 'DecimalSI' | 'BinarySI';
  readonly int64: boolean;
  readonly text?: string;
}

const MAX_INT64 = 2n ** 63n - 1n;
const DECIMAL_SUFFIXES: { readonly [suffix: string]: number } = { 'n': -9, 'u': -6, 'm': -3, '': 0, 'k': 3, 'M': 6, 'G': 9, 'T': 12, 'P': 15, 'E': 18 };
const BINARY_SUFFIXES: { readonly [suffix: string]: number } = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const NANO = -9;

/**
 * resource.ParseQuantity (k8s.io/apimachinery pkg/api/resource/quantity.go): the text's value,
 * rounded up (away from zero) to nano units, binary values capped at the int64 maximum; undefined
 * when the text is no quantity.
 */
export function parseGoQuantity(text: string): GoQuantity | undefined {
  if (text === '') return undefined;
  if (text === '0') return { mantissa: 0n, exponent: 0, format: 'DecimalSI', int64: true, text };
  const parts = /^([+-]?)0*([0-9]*)(?:\.([0-9]*))?(?:([eEinumkKMGTP]*[+-]?[0-9]*))?$/.exec(text);
  if (!parts) return undefined;
  const [, sign, digits, fraction = '', suffix = ''] = parts;
  const num = digits === '' ? '0' : digits;
  let base: 2 | 10;
  let exp: number;
  let format: GoQuantity['format'];
  if (suffix in DECIMAL_SUFFIXES) {[base, exp, format] = [10, DECIMAL_SUFFIXES[suffix], 'DecimalSI'];} else if (suffix in BINARY_SUFFIXES) {[base, exp, format] = [2, BINARY_SUFFIXES[suffix], 'BinarySI'];} else if (/^[eE][+-]?[0-9]+$/.test(suffix) && BigInt(suffix.slice(1)) <= MAX_INT64 && BigInt(suffix.slice(1)) >= -MAX_INT64 - 1n) {
    [base, exp, format] = [10, Number(suffix.slice(1)), 'DecimalExponent'];
  } else {
    return undefined;
  }
  const negative = sign === '-';
  const shifted = BigInt(num + fraction);
  // The fast path: the value as an int64 amount at its own scale, when it fits.
  let precision = -1;
  let scale = 0;
  let multiplier = 1n;
  if (format !== 'BinarySI') {
    scale = exp - fraction.length;
    precision = 18 - (num.length + fraction.length);
  } else if (exp >= 0 && fraction === '') {
    multiplier = 2n ** BigInt(exp);
    precision = 15 - num.length - Math.trunc(Math.fround(exp) * 3 / 10) - 1;
  }
  if (precision >= 0 && scale >= NANO && shifted <= MAX_INT64 && shifted * multiplier <= MAX_INT64) {
    const mantissa = negative ? -(shifted * multiplier) : shifted * multiplier;
    const numText = num + fraction;
    const canonical = format === 'BinarySI'
      ? exp % 10 === 0 && shifted % 8n !== 0n
      : scale % 3 === 0 && !numText.endsWith('000') && numText[0] !== '0';
    return { mantissa, exponent: scale, format, int64: true, ...(canonical ? { text } : {}) };
  }
  // The general path (inf.Dec): exact, then rounded up to nano units and capped.
  let mantissa = shifted;
  let exponent = -fraction.length;
  if (base === 10) exponent += exp;
  else mantissa *= 2n ** BigInt(exp);
  if (exponent < NANO && mantissa !== 0n) {
    // A value below one nano unit is one (and 10^shift need not be computed for a huge shift).
    const shift = NANO - exponent;
    mantissa = shift >= mantissa.toString().length ? 1n : divideRoundingUp(mantissa, 10n ** BigInt(shift));
    exponent = NANO;
  }
  if (format === 'BinarySI' && compare(mantissa, exponent, MAX_INT64, 0) > 0) [mantissa, exponent] = [MAX_INT64, 0];
  if (format === 'BinarySI' && mantissa !== 0n && compare(mantissa, exponent, 1n, 0) < 0) format = 'DecimalSI';
  return { mantissa: negative ? -mantissa : mantissa, exponent, format, int64: false };
}

/** Quantity.RoundUp(scale): rounded away from zero to units of 10^scale; an int64 amount already that coarse is kept as it is. */
export function roundUpGoQuantity(q: GoQuantity, scale: number): GoQuantity {
  if (q.int64 && q.exponent >= scale) return q;
  if (q.exponent >= scale) return { ...q, text: undefined };
  const magnitude = divideRoundingUp(q.mantissa < 0n ? -q.mantissa : q.mantissa, 10n ** BigInt(scale - q.exponent));
  return { mantissa: q.mantissa < 0n ? -magnitude : magnitude, exponent: scale, format: q.format, int64: q.int64 };
}

/** Quantity.String / MarshalJSON: the text sent when it was canonical, else CanonicalizeBytes. */
export function formatGoQuantity(q: GoQuantity): string {
  if (q.text !== undefined) return q.text;
  if (q.mantissa === 0n) return '0';
  let format = q.format;
  let integer: bigint | undefined;
  if (format === 'BinarySI') {
    if (compare(abs(q.mantissa), q.exponent, 1024n, 0) < 0) {
      format = 'DecimalSI';
    } else {
      // AsScale(0) rounds up; a value that is not whole is shown as DecimalSI.
      if (q.exponent >= 0) integer = q.mantissa * 10n ** BigInt(q.exponent);
      else if (q.mantissa % 10n ** BigInt(-q.exponent) === 0n) integer = q.mantissa / 10n ** BigInt(-q.exponent);
      else format = 'DecimalSI';
    }
  }
  if (format === 'BinarySI' && integer !== undefined) {
    let times = 0;
    let amount = abs(integer);
    while (amount >= 1024n && amount % 1024n === 0n) {
      amount /= 1024n;
      times++;
    }
    const suffix = Object.keys(BINARY_SUFFIXES).find((s) => BINARY_SUFFIXES[s] === times * 10) ?? '';
    return `${integer < 0n ? '-' : ''}${amount}${suffix}`;
  }
  // AsCanonicalBytes: factors of ten moved into the exponent, which is then lowered to a multiple of 3.
  let amount = q.mantissa;
  let exponent = q.exponent;
  while (amount % 10n === 0n) {
    amount /= 10n;
    exponent++;
  }
  while (exponent % 3 !== 0) {
    amount *= 10n;
    exponent--;
  }
  if (format === 'DecimalExponent') return `${amount}${exponent === 0 ? '' : `e${exponent}`}`;
  // A decimal exponent without an SI suffix gets none (constructBytes fails and its result is ignored).
  const suffix = Object.keys(DECIMAL_SUFFIXES).find((s) => DECIMAL_SUFFIXES[s] === exponent) ?? '';
  return `${amount}${suffix}`;
}

function abs(n: bigint): bigint {
  return n < 0n ? -n : n;
}

function divideRoundingUp(n: bigint, d: bigint): bigint {
  return n / d + (n % d === 0n ? 0n : 1n);
}

/** Compares a × 10^ae with b × 10^be (both non-negative). */
function compare(a: bigint, ae: number, b: bigint, be: number): number {
  const e = Math.min(ae, be);
  const x = a * 10n ** BigInt(ae - e);
  const y = b * 10n ** BigInt(be - e);
  return x < y ? -1 : x > y ? 1 : 0;
}
