import { CelEnvironment, engine } from './engine';
import { MAX_RECURSION_DEPTH } from './errors';
import { installAdmissionTypes, NAMESPACE_TYPE, REQUEST_TYPE } from './libraries/admission-types';
import { AUTHORIZER_TYPE } from './libraries/authz';
import { MUTATION_TYPES } from './libraries/mutation-types';
import { installLogicalOperators } from './logical-operators';
import { installNullableTypes } from './nullable-types';
import { installOperandRules } from './operand-rules';
import { installOperatorChains } from './operator-chains';
import { installStructLiterals } from './struct-literals';
import { isAvailable, librariesFor } from './version-gates';
import { CelObjectTypes } from '../schemas/cel-object-types';
import { ExpressionField } from '../shared/expression-field';

/**
 * The CEL environment of each expression field, as the apiserver declares it
 * (k8s.io/apiserver/pkg/admission/plugin/cel compile.go and composition.go,
 * kubernetes pkg/apis/admissionregistration/validation):
 *
 * | field | object, oldObject, request, namespaceObject | params | authorizer | variables | result |
 * |---|---|---|---|---|---|
 * | webhook matchConditions | yes | no | yes | no | bool |
 * | policy matchConditions | yes | with paramKind | yes | no | bool |
 * | variables | yes | with paramKind | yes | the earlier ones | any |
 * | validations | yes | with paramKind | yes | if the policy has any | bool |
 * | messageExpression | yes | with paramKind | no | if the policy has any | string |
 * | auditAnnotations valueExpression | yes | with paramKind | yes | if the policy has any | string or null |
 * | applyConfiguration, jsonPatch | yes, plus Object, JSONPatch, jsonpatch.escapeKey | with paramKind | yes | always | Object, list(JSONPatch) |
 *
 * Environments are cached per (target version, field, params, variable names and types).
 */
export interface TypedVariable {
  readonly name: string;
  /** The engine's name of the variable's output type (`int`, `list<string>`, `dyn`, ...). */
  readonly type: string;
}

export interface EnvironmentSpec {
  readonly field: ExpressionField;
  readonly hasParams: boolean;
  readonly variables: readonly TypedVariable[];
  readonly minor: number;
  /** The type of `object` and `oldObject` (dyn when not given): for type checking against a resource's schema. */
  readonly objectType?: TypedResource;
  /** The type of `params` (dyn when not given). */
  readonly paramsType?: TypedResource;
}

/** A resource's CEL types, with a key that names them in caches (`37|io.k8s.api.apps.v1.Deployment`). */
export interface TypedResource {
  readonly key: string;
  readonly types: CelObjectTypes;
}

export const VARIABLES_TYPE = 'kubernetes.variables';

const versionEnvironments = new Map<number, CelEnvironment>();
const fieldEnvironments = new Map<string, CelEnvironment>();
const ENVIRONMENT_CACHE_LIMIT = 10_000;

export function environmentKey(spec: EnvironmentSpec): string {
  const vars = spec.variables.map((v) => `${v.name}:${v.type}`).join(',');
  const typed = spec.objectType || spec.paramsType ? `|t[${spec.objectType?.key ?? ''};${spec.paramsType?.key ?? ''}]` : '';
  return `${spec.minor}|${spec.field}|${spec.hasParams ? 'p' : ''}|${declaresVariables(spec) ? `v[${vars}]` : ''}${typed}`;
}

const UNLIMITED = Number.MAX_SAFE_INTEGER;

function versionEnvironment(minor: number): CelEnvironment {
  let env = versionEnvironments.get(minor);
  if (!env) {
    installStructLiterals();
    installOperatorChains();
    installLogicalOperators();
    installNullableTypes();
    installOperandRules();
    env = new engine.Environment({
      unlistedVariablesAreDyn: false,
      // Checked after type-checking instead (ast-validators.ts), as cel-go does, so that
      // `format()` arguments may mix types.
      homogeneousAggregateLiterals: false,
      enableOptionalTypes: isAvailable('optionalTypes', minor),
      // cel-go limits nesting (250) and size (100,000 code points, checked in checker.ts), not the
      // number of list or map entries, call arguments or nodes, which the engine limits by default.
      limits: {
        maxDepth: MAX_RECURSION_DEPTH,
        maxAstNodes: UNLIMITED,
        maxListElements: UNLIMITED,
        maxMapEntries: UNLIMITED,
        maxCallArguments: UNLIMITED,
      },
    });
    installAdmissionTypes(env);
    for (const library of librariesFor(minor)) library.install(env);
    versionEnvironments.set(minor, env);
  }
  return env;
}

/**
 * The Kubernetes libraries and options of a target version, with no variables declared: for
 * declaring other variables (the conformance benchmark) on a fresh copy.
 */
export function kubernetesEnvironment(minor: number): CelEnvironment {
  return versionEnvironment(minor).clone();
}

function isMutation(field: ExpressionField): boolean {
  return field === ExpressionField.APPLY_CONFIGURATION || field === ExpressionField.JSON_PATCH;
}

/** Whether `variables` is declared: the composited compiler is used for the field. */
export function declaresVariables(spec: Pick<EnvironmentSpec, 'field' | 'variables'>): boolean {
  switch (spec.field) {
    case ExpressionField.WEBHOOK_MATCH_CONDITION:
    case ExpressionField.MATCH_CONDITION:
      return false;
    case ExpressionField.VARIABLE:
    case ExpressionField.APPLY_CONFIGURATION:
    case ExpressionField.JSON_PATCH:
      return true;
    default:
      return spec.variables.length > 0;
  }
}

export function declaresParams(spec: Pick<EnvironmentSpec, 'field' | 'hasParams'>): boolean {
  return spec.hasParams && spec.field !== ExpressionField.WEBHOOK_MATCH_CONDITION;
}

export function declaresAuthorizer(spec: Pick<EnvironmentSpec, 'field'>): boolean {
  return spec.field !== ExpressionField.MESSAGE_EXPRESSION;
}

const typedEnvironments = new Map<string, CelEnvironment>();
const TYPED_ENVIRONMENT_CACHE_LIMIT = 200;

/** The version's environment with the message types of `object` and `params` declared, built once per pair of types. */
function typedEnvironment(spec: EnvironmentSpec): CelEnvironment {
  if (!spec.objectType && !spec.paramsType) return versionEnvironment(spec.minor);
  const key = `${spec.minor}|${spec.objectType?.key ?? ''};${spec.paramsType?.key ?? ''}`;
  let env = typedEnvironments.get(key);
  if (!env) {
    env = versionEnvironment(spec.minor).clone();
    if (spec.objectType) registerObjectTypes(env, spec.objectType.types);
    if (spec.paramsType) registerObjectTypes(env, spec.paramsType.types);
    if (typedEnvironments.size >= TYPED_ENVIRONMENT_CACHE_LIMIT) typedEnvironments.clear();
    typedEnvironments.set(key, env);
  }
  return env;
}

/**
 * Declares a resource's message types (once per environment: `object` and `params` may share
 * ObjectMeta), with the equality every CEL type has (the engine declares it for its own types only).
 */
function registerObjectTypes(env: CelEnvironment, types: CelObjectTypes): string {
  let registered = registeredTypes.get(env);
  if (!registered) {
    registered = new Set();
    registeredTypes.set(env, registered);
  }
  for (const [name, fields] of types.types) {
    if (registered.has(name)) continue;
    registered.add(name);
    // A constructor of its own skips the engine's value conversion, which needs every field's
    // message type registered first (impossible for recursive schemas); typed environments only check.
    env.registerType(name, { ctor: class {}, fields });
    env.registerOperator(`${name} == ${name}`, sameJson);
  }
  return types.root;
}

const registeredTypes = new WeakMap<CelEnvironment, Set<string>>();

/** Typed environments only type-check; equality of their messages is never evaluated, but is JSON equality if it were. */
function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The environment for an expression of the field, built once per key. */
export function environmentFor(spec: EnvironmentSpec): CelEnvironment {
  const key = environmentKey(spec);
  let env = fieldEnvironments.get(key);
  if (env) return env;
  env = typedEnvironment(spec).clone();
  const objectType = spec.objectType?.types.root ?? 'dyn';
  env.registerVariable('object', objectType);
  env.registerVariable('oldObject', objectType);
  env.registerVariable('request', REQUEST_TYPE);
  env.registerVariable('namespaceObject', NAMESPACE_TYPE);
  if (declaresParams(spec)) env.registerVariable('params', spec.paramsType?.types.root ?? 'dyn');
  if (declaresAuthorizer(spec)) env.registerVariable('authorizer', AUTHORIZER_TYPE);
  if (declaresVariables(spec)) {
    const fields: Record<string, string> = {};
    for (const v of spec.variables) fields[v.name] = v.type;
    env.registerType(VARIABLES_TYPE, { fields });
    env.registerVariable('variables', VARIABLES_TYPE);
  }
  if (isMutation(spec.field)) MUTATION_TYPES.install(env);
  // One per distinct set of typed variables: a policy of many variables makes many.
  if (fieldEnvironments.size >= ENVIRONMENT_CACHE_LIMIT) fieldEnvironments.clear();
  fieldEnvironments.set(key, env);
  return env;
}
