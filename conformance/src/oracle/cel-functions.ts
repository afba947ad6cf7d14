/**
 * The function overloads of the apiserver's base CEL environment for new expressions, as
 * `oracle --cel-functions 1.N` prints them (what a 1.(N+1) apiserver compiles new expressions
 * against): the CEL, declarations and eval suites generate from them or compare with them.
 */
import { execFileSync } from 'child_process';
import { ORACLE_BINARY } from './oracle';

export interface CelOverload {
  readonly function: string;
  readonly id: string;
  readonly member: boolean;
  readonly args: readonly string[];
  readonly result: string;
}

/** The apiserver's CEL function overloads for new expressions at a compatibility version (`1.N`). */
export function celFunctions(compatibility: string): CelOverload[] {
  const overloads: CelOverload[] = JSON.parse(execFileSync(ORACLE_BINARY, ['--cel-functions', compatibility], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }));
  // Some overload IDs belong to two functions (`@in` and `in`): a total order keeps the generated cases reproducible.
  const key = (o: CelOverload) => `${o.id}\u0000${o.function}\u0000${o.member}\u0000${o.args.join(',')}`;
  return overloads.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}
