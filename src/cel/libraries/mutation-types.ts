import { CelEnvironment } from '../engine';
import { CelLibrary, registerNamespace } from '../library';
import { OBJECT_TYPE_NAME } from '../struct-literals';
import { celEquals } from './values';

/**
 * What mutation expressions (MutatingAdmissionPolicy `applyConfiguration` and `jsonPatch`) have
 * besides the common variables: the `Object` types of the dynamic type resolver
 * (`Object{spec: Object.spec{...}}`), `JSONPatch{op, path, from, value}` and
 * `jsonpatch.escapeKey(s)` (library/jsonpatch.go).
 */
export const JSON_PATCH_TYPE = 'JSONPatch';

export class ApplyConfigurationObject {}

interface JsonPatchValue {
  readonly op?: string;
  readonly path?: string;
  readonly from?: string;
  readonly value?: unknown;
}

export const MUTATION_TYPES: CelLibrary = {
  name: 'mutation',
  install(env: CelEnvironment) {
    env.registerType(OBJECT_TYPE_NAME, { ctor: ApplyConfigurationObject, fields: {} });
    env.registerType(JSON_PATCH_TYPE, { fields: { op: 'string', path: 'string', from: 'string', value: 'dyn' } });
    // Messages compare field by field, an unset field as its zero value (the apiserver compiles
    // `JSONPatch{...} == JSONPatch{...}`).
    env.registerOperator(`${JSON_PATCH_TYPE} == ${JSON_PATCH_TYPE}`, (a: JsonPatchValue, b: JsonPatchValue) =>
      (['op', 'path', 'from'] as const).every((f) => (a[f] ?? '') === (b[f] ?? '')) && celEquals(a.value ?? null, b.value ?? null));
    const ns = registerNamespace(env, 'jsonpatch');
    env.registerFunction(`${ns}.escapeKey(string): string`, (_: unknown, key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1'));
  },
};
