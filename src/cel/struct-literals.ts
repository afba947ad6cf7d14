import { setDataKey } from './data-keys';
import { CelChecker, CelEvaluator, CelNode, CelScope, CelType, engine } from './engine';
import { installOptionalEntries } from './optional-entries';

/**
 * Message construction (`JSONPatch{op: "add", path: "/x"}`, `Object{spec: Object.spec{...}}`),
 * which CEL has and the engine's parser lacks. The parser is extended at its public
 * `parsePrimary` step: an identifier path followed by `{` is a message literal. Which type names
 * exist is decided by the environment: `JSONPatch` is a registered object type, and every
 * `Object` / `Object.<field>...` name is accepted where the environment registers `Object`
 * (the apiserver's dynamic type resolver for mutations).
 */

// Token numbers of the engine's lexer (version pinned in .projenrc.ts).
const TOKEN = { IDENTIFIER: 5, RBRACE: 26, LBRACE: 25, DOT: 27, COMMA: 28, COLON: 29, QUESTION: 30 } as const;

/** The type every `Object...` path resolves to, when the environment has `Object`. */
export const OBJECT_TYPE_NAME = 'Object';

const OBJECT_LITERAL_TYPE = Symbol('celObjectLiteralType');

/** Keeps on `value` the type name an `Object.a.b{...}` literal was written with (not enumerable). */
export function withObjectLiteralTypeName<T extends object>(value: T, typeName: string): T {
  Object.defineProperty(value, OBJECT_LITERAL_TYPE, { value: typeName, enumerable: false });
  return value;
}

/** The type name an `Object.a.b{...}` literal was written with. */
export function objectLiteralTypeName(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null ? (value as { [OBJECT_LITERAL_TYPE]?: string })[OBJECT_LITERAL_TYPE] : undefined;
}

const STRUCT_AHEAD = /^(?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)*\s*\{/;

export interface StructField {
  readonly name: string;
  readonly optional: boolean;
  readonly value: CelNode;
  readonly pos: number;
}

export interface StructArgs {
  readonly typeName: string;
  readonly fields: readonly StructField[];
}

/**
 * The type of an `Object.<path>` literal, registered in the expression's environment on first
 * use, so that it can also be a list element (`[Object.spec.containers{...}]`).
 */
function dynamicObjectType(chk: CelChecker, name: string): CelType {
  const known = chk.registry.objectTypes.get(name);
  if (known) return known.type;
  const ctor = { [name]: class {} }[name];
  try {
    return (chk.registry as unknown as { registerType(n: string, d: object): { type: CelType } }).registerType(name, { ctor, fields: {} }).type;
  } catch {
    return new engine.TypeDeclaration({ kind: 'message', name, type: name });
  }
}

function isObjectPath(name: string): boolean {
  return name === OBJECT_TYPE_NAME || name.startsWith(`${OBJECT_TYPE_NAME}.`);
}

const STRUCT_OPERATOR = {
  name: 'struct',
  check(chk: CelChecker, ast: CelNode, ctx: CelScope): CelType {
    const { typeName, fields } = ast.args as StructArgs;
    const dynamic = isObjectPath(typeName) && chk.registry.objectTypes.has(OBJECT_TYPE_NAME);
    const registered = dynamic ? undefined : chk.registry.objectTypes.get(typeName);
    if (!dynamic && (!registered || !registered.fields || Object.keys(registered.fields).length === 0)) {
      throw chk.createError('unknown_variable', `undeclared reference to '${typeName}' (in container '')`, ast);
    }
    const seen = new Set<string>();
    for (const field of fields) {
      const valueType = chk.check(field.value, ctx);
      if (seen.has(field.name)) {
        throw chk.createError('duplicate_field', `duplicate field '${field.name}' in message literal`, field.value);
      }
      seen.add(field.name);
      if (dynamic) continue;
      const fieldType = registered!.fields![field.name];
      if (!fieldType) throw chk.createError('no_such_key', `undefined field '${field.name}'`, field.value);
      const provided = field.optional && valueType.kind === 'optional' ? valueType.valueType! : valueType;
      if (!fieldType.matches(provided)) {
        throw chk.createError('field_type_mismatch',
          `expected type of field '${field.name}' is '${chk.formatType(fieldType)}' but provided type is '${chk.formatType(valueType)}'`, field.value);
      }
    }
    return dynamic ? dynamicObjectType(chk, typeName) : registered!.type;
  },
  evaluate(ev: CelEvaluator, ast: CelNode, ctx: CelScope): unknown {
    const { typeName, fields } = ast.args as StructArgs;
    const value: Record<string, unknown> = {};
    for (const field of fields) {
      let v = ev.run(field.value, ctx);
      if (field.optional) {
        if (!v || typeof v.hasValue !== 'function' || !v.hasValue()) continue;
        v = v.value();
      }
      setDataKey(value, field.name, v);
    }
    if (isObjectPath(typeName)) return withObjectLiteralTypeName(value, typeName);
    const declaration = ev.registry.objectTypes.get(typeName);
    return declaration?.convert ? declaration.convert(value) : value;
  },
};

let installed = false;

/** Extends the engine's parser with message literals (once per process). */
export function installStructLiterals(): void {
  if (installed) return;
  installed = true;
  installOptionalEntries();
  const proto = engine.Parser.prototype;
  const parsePrimary = proto.parsePrimary;
  proto.parsePrimary = function parsePrimaryWithStructs(this: any): CelNode {
    if (this.type !== TOKEN.IDENTIFIER || !STRUCT_AHEAD.test(this.input.slice(this.lexer.pos))) {
      return parsePrimary.call(this);
    }
    return parseStruct(this);
  };
}

function parseStruct(p: any): CelNode {
  const start: number = p.pos;
  const parts: string[] = [p.value];
  p.consume(TOKEN.IDENTIFIER);
  while (p.match(TOKEN.DOT)) {
    p.consume(TOKEN.DOT);
    parts.push(p.value);
    p.consume(TOKEN.IDENTIFIER);
  }
  p.consume(TOKEN.LBRACE);
  const fields: StructField[] = [];
  while (!p.match(TOKEN.RBRACE)) {
    const optional = p.match(TOKEN.QUESTION) && p.registry.enableOptionalTypes;
    if (optional) p.consume(TOKEN.QUESTION);
    const pos: number = p.pos;
    const name: string = p.value;
    p.consume(TOKEN.IDENTIFIER);
    p.consume(TOKEN.COLON);
    fields.push({ name, optional, value: p.parseExpression(), pos });
    if (!p.match(TOKEN.COMMA)) break;
    p.consume(TOKEN.COMMA);
  }
  const end: number = p.lexer.pos;
  p.consume(TOKEN.RBRACE);
  if (p.astNodesRemaining-- <= 0) throw new engine.ParseError({ code: 'limit_exceeded', message: 'Exceeded maxAstNodes' });
  return new engine.ASTNode(p.input, start, start, end, STRUCT_OPERATOR, { typeName: parts.join('.'), fields });
}
