import { CelEnvironment } from '../engine';
import { CelLibrary, registerNamespace } from '../library';
import { OBJECT_TYPE_NAME } from '../struct-literals';

/**
 * What mutation expressions (MutatingAdmissionPolicy `applyConfiguration` and `jsonPatch`) have
 * besides the common variables: the `Object` types of the dynamic type resolver
 * (`Object{spec: Object.spec{...}}`), `JSONPatch{op, path, from, value}` and
 * `jsonpatch.escapeKey(s)` (library/jsonpatch.go).
 */
export const JSON_PATCH_TYPE = 'JSONPatch';

export class ApplyConfigurationObject {}

export const MUTATION_TYPES: CelLibrary = {
  name: 'mutation',
  install(env: CelEnvironment) {
    env.registerType(OBJECT_TYPE_NAME, { ctor: ApplyConfigurationObject, fields: {} });
    env.registerType(JSON_PATCH_TYPE, { fields: { op: 'string', path: 'string', from: 'string', value: 'dyn' } });
    const ns = registerNamespace(env, 'jsonpatch');
    env.registerFunction(`${ns}.escapeKey(string): string`, (_: unknown, key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1'));
  },
};
