import { children } from './ast-walk';
import { CelEnvironment, CelNode } from './engine';
import { kubernetesEnvironment } from './environment';

/** What every request for one resource has in common, whatever its object: what a guard can test. */
export interface KnownRequest {
  readonly group: string;
  readonly resource: string;
  readonly kind: string;
  /** `object` is the request's object (CREATE and UPDATE only: null on DELETE, options on CONNECT). */
  readonly objectIsTheResource: boolean;
  /**
   * The object's `apiVersion`, when one version is known: an expression type-checked against one
   * version of a kind (kind-narrowing.ts). Unknown for a request, whose object matchPolicy
   * Equivalent may convert.
   */
  readonly apiVersion?: string;
}

/** The value of a node the guards themselves do not decide (`has(object.spec.template)`), if known. */
export type GuardTest = (node: CelNode) => boolean | undefined;

/**
 * The value of `expression` for every request of `request`'s resource (or any request, when not
 * given), as far as its kind, group
 * and resource decide it: `object.kind == 'Pod'`, `request.resource.resource in ['pods']`,
 * `request.kind.group != 'apps'`, through `!`, `&&`, `||` and a known `?:` condition, and any sub-expression that
 * refers to no variable (`true`, `1 == 1`), evaluated. `&&` and `||` follow cel-go, where a known
 * false (or true) operand decides whatever the other, even an error. Undefined when the expression
 * does not parse, or its value depends on anything else. Known without a request, the value is
 * that of every request.
 */
export function guardValue(expression: string, minor: number, request?: KnownRequest): boolean | undefined {
  const env = environment(minor);
  let ast: CelNode;
  try {
    ast = env.parse(expression).ast;
  } catch {
    return undefined;
  }
  return valueOf(ast, env, request);
}

/** guardValue of a parsed node, with `test` deciding the nodes the guards do not know. */
export function guardValueOf(node: CelNode, minor: number, request: KnownRequest, test: GuardTest): boolean | undefined {
  return valueOf(node, environment(minor), request, test);
}

const environments = new Map<number, CelEnvironment>();

/** The environment guards parse and evaluate in, per target minor. */
export function environment(minor: number): CelEnvironment {
  let env = environments.get(minor);
  if (!env) {
    env = kubernetesEnvironment(minor);
    environments.set(minor, env);
  }
  return env;
}

function mentionsVariable(node: CelNode): boolean {
  return node.op === 'id' || children(node).some(mentionsVariable);
}

function valueOf(node: CelNode, env: CelEnvironment, request: KnownRequest | undefined, test?: GuardTest): boolean | undefined {
  if (!mentionsVariable(node)) return constantValue(node, env);
  const of = (n: CelNode) => valueOf(n, env, request, test);
  switch (node.op) {
    case '!_': {
      const v = of(node.args);
      return v === undefined ? undefined : !v;
    }
    case '&&':
    case '||': {
      const [a, b] = (node.args as CelNode[]).map(of);
      const decides = node.op === '||';
      if (a === decides || b === decides) return decides;
      return a === !decides && b === !decides ? !decides : undefined;
    }
    case '?:': {
      const [condition, whenTrue, whenFalse] = node.args as CelNode[];
      // An unknown condition may fail, and so fail the ternary, whatever its branches.
      const c = of(condition);
      return c === undefined ? undefined : of(c ? whenTrue : whenFalse);
    }
    case '==':
    case '!=': {
      const [left, right] = node.args as CelNode[];
      const equal = compared(left, right, request) ?? compared(right, left, request);
      return equal === undefined ? undefined : node.op === '==' ? equal : !equal;
    }
    case 'in': {
      const [left, right] = node.args as CelNode[];
      const actual = selected(left, request);
      const listed = right.op === 'list' && (right.args as CelNode[]).every(isString) ? (right.args as CelNode[]).map((n) => n.args as string) : undefined;
      return actual === undefined || listed === undefined ? undefined : listed.includes(actual);
    }
    default:
      return test?.(node);
  }
}

function constantValue(node: CelNode, env: CelEnvironment): boolean | undefined {
  try {
    const value = env.evaluate(node.input.slice(node.start, node.end));
    return typeof value === 'boolean' ? value : undefined;
  } catch {
    return undefined;
  }
}

const isString = (n: CelNode) => n.op === 'value' && typeof n.args === 'string';

/** `selection == 'literal'`: whether they are equal for the request, when the selection is one its resource decides. */
function compared(selection: CelNode, literal: CelNode, request: KnownRequest | undefined): boolean | undefined {
  if (!isString(literal)) return undefined;
  const actual = selected(selection, request);
  return actual === undefined ? undefined : actual === literal.args;
}

/**
 * The value of a selection that every request of the resource shares. The request's kind and
 * resource are those of the request, whose version matchPolicy Equivalent may change: names and
 * group only, never versions.
 */
function selected(node: CelNode, request: KnownRequest | undefined): string | undefined {
  if (!request) return undefined;
  switch (selectionPath(node)) {
    case 'object.kind': return request.objectIsTheResource ? request.kind : undefined;
    case 'object.apiVersion': return request.objectIsTheResource ? request.apiVersion : undefined;
    case 'request.kind.kind': return request.kind;
    case 'request.kind.group': return request.group;
    case 'request.resource.group': return request.group;
    case 'request.resource.resource': return request.resource;
    default: return undefined;
  }
}

/** `object.kind` as 'object.kind'; undefined for anything but plain selections from a variable. */
function selectionPath(node: CelNode): string | undefined {
  if (node.op === 'id' && typeof node.args === 'string') return node.args;
  if (node.op === '.' && typeof node.args[1] === 'string') {
    const parent = selectionPath(node.args[0]);
    return parent === undefined ? undefined : `${parent}.${node.args[1]}`;
  }
  return undefined;
}
