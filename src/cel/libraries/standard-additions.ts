import { CelEnvironment } from '../engine';
import { CelLibrary } from '../library';
import { celCompare, celError } from './values';

/**
 * Standard CEL conversions the engine lacks, which Kubernetes policies use:
 * `int(timestamp)` (seconds since the epoch), `string(timestamp)` (RFC 3339), `string(duration)`,
 * `int(uint)`, `int(duration)` (nanoseconds), the identities `duration(duration)`,
 * `timestamp(timestamp)`, and the ordering of bytes (`<`, `<=`, `>`, `>=`, unsigned lexicographic).
 */
const TS = 'google.protobuf.Timestamp';
const DUR = 'google.protobuf.Duration';
const MAX_INT64 = 2n ** 63n - 1n;

export const STANDARD_ADDITIONS: CelLibrary = {
  name: 'standardAdditions',
  install(env: CelEnvironment) {
    env.registerFunction(`int(${TS}): int`, (ts: Date) => BigInt(Math.floor(ts.getTime() / 1000)));
    env.registerFunction(`string(${TS}): string`, (ts: Date) => ts.toISOString().replace(/\.000Z$/, 'Z'));
    env.registerFunction(`string(${DUR}): string`, (d: { toString(): string }) => d.toString());
    env.registerFunction('int(uint): int', (u: { valueOf(): bigint }) => {
      const v = u.valueOf();
      if (v > MAX_INT64) throw celError('integer overflow');
      return v;
    });
    env.registerFunction(`int(${DUR}): int`, (d: { seconds: bigint; nanos: number }) => durationNanos(d));
    env.registerFunction(`duration(${DUR}): ${DUR}`, (d: unknown) => d);
    env.registerFunction(`timestamp(${TS}): ${TS}`, (t: unknown) => t);
    env.registerOperator('bytes < bytes', (a: Uint8Array, b: Uint8Array) => celCompare(a, b) < 0);
    env.registerOperator('bytes <= bytes', (a: Uint8Array, b: Uint8Array) => celCompare(a, b) <= 0);
    env.registerOperator('bytes > bytes', (a: Uint8Array, b: Uint8Array) => celCompare(a, b) > 0);
    env.registerOperator('bytes >= bytes', (a: Uint8Array, b: Uint8Array) => celCompare(a, b) >= 0);
  },
};

function durationNanos(d: { seconds: bigint; nanos: number }): bigint {
  return BigInt(d.seconds) * 1_000_000_000n + BigInt(d.nanos);
}
