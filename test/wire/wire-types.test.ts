import * as fs from 'fs';
import * as path from 'path';
import { parseCue, renderInterfaces, renderSchema } from '../../scripts/generate-wire-types';
import { ManifestValidator, ViolationSeverity } from '../../src';
import { ADMISSION_TYPES } from '../../src/wire/admissionregistration-schema';
import { META_TYPES } from '../../src/wire/meta';
import { mutatingBinding, mutatingPolicy, validatingBinding, validatingPolicy, webhook, webhookConfiguration } from '../validation/fixtures';

const SEED = path.join(__dirname, '..', '..', '..', 'shared', 'seeds', 'admissionregistration-v1.cue');
const seedTest = fs.existsSync(SEED) ? test : test.skip;

describe('wire types', () => {
  // The seed is the API reference the project was generated from; it sits beside the repository
  // in the project's workspace and CI, not in a user's clone.
  seedTest('the generated files are up to date with the API reference', () => {
    const types = parseCue(fs.readFileSync(SEED, 'utf-8'));
    const root = path.join(__dirname, '..', '..');
    expect(fs.readFileSync(path.join(root, 'src/wire/admissionregistration.ts'), 'utf-8')).toBe(renderInterfaces(types));
    expect(fs.readFileSync(path.join(root, 'src/wire/admissionregistration-schema.ts'), 'utf-8')).toBe(renderSchema(types));
  });

  test('the parser reads fields, requiredness, lists and references', () => {
    const [t] = parseCue([
      '// A doc.',
      '#Thing: {',
      ' // name doc',
      ' "name"!: string',
      ' "items"?: [...#Other]',
      ' "meta"?: v1.#ObjectMeta',
      ' "port"?: int32 & int',
      '}',
    ].join('\n'));
    expect(t).toEqual({
      name: 'Thing',
      docs: ['A doc.'],
      fields: [
        { name: 'name', required: true, type: 'string', docs: ['name doc'] },
        { name: 'items', required: false, type: '[...#Other]', docs: [] },
        { name: 'meta', required: false, type: 'v1.#ObjectMeta', docs: [] },
        { name: 'port', required: false, type: 'int32 & int', docs: [] },
      ],
    });
    expect(renderSchema([t])).toContain("items: { type: { kind: 'array', items: { kind: 'object', ref: 'Other' } }, required: false }");
    expect(() => parseCue('#T: {\n  weird line\n}')).toThrow('unexpected CUE line');
  });

  test('every referenced type is defined', () => {
    const all = { ...ADMISSION_TYPES, ...META_TYPES };
    const refs = (t: any): string[] => (t.kind === 'object' ? [t.ref] : t.kind === 'array' ? refs(t.items) : []);
    for (const schema of Object.values(all)) {
      for (const field of Object.values(schema)) {
        for (const ref of refs(field.type)) expect(Object.keys(all)).toContain(ref);
      }
    }
  });
});

describe('every required field of the API reference is enforced', () => {
  const paramRef = { name: 'p', parameterNotFoundAction: 'Deny' };
  const richWebhook = webhook({ matchConditions: [{ name: 'c', expression: 'true' }] });
  const manifests = [
    validatingPolicy({
      matchConditions: [{ name: 'c', expression: 'true' }],
      variables: [{ name: 'v', expression: '1' }],
      auditAnnotations: [{ key: 'k', valueExpression: "'v'" }],
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      validations: [{ expression: 'true' }],
    }),
    validatingBinding({ paramRef, matchResources: { namespaceSelector: { matchExpressions: [{ key: 'a', operator: 'Exists' }] } } }),
    mutatingPolicy({ mutations: [{ patchType: 'JSONPatch', jsonPatch: { expression: '[JSONPatch{op: "add", path: "/metadata/labels/a", value: "b"}]' } }] }),
    mutatingBinding({ paramRef }),
    webhookConfiguration('ValidatingWebhookConfiguration', [richWebhook]),
    webhookConfiguration('MutatingWebhookConfiguration', [{ ...richWebhook, clientConfig: { url: 'https://hooks.example.com/m' } }]),
  ];

  /** Every present field the schema marks required, as [path segments, rendered path]. */
  function requiredFields(value: any, typeName: string, prefix: Array<string | number>): Array<Array<string | number>> {
    const schema = { ...ADMISSION_TYPES, ...META_TYPES }[typeName];
    const out: Array<Array<string | number>> = [];
    for (const [name, field] of Object.entries(schema)) {
      if (!(name in value)) continue;
      if (field.required) out.push([...prefix, name]);
      const t = field.type;
      if (t.kind === 'object') out.push(...requiredFields(value[name], t.ref, [...prefix, name]));
      if (t.kind === 'array' && t.items.kind === 'object') {
        const ref = t.items.ref;
        (value[name] as any[]).forEach((item, i) => out.push(...requiredFields(item, ref, [...prefix, name, i])));
      }
    }
    return out;
  }

  const render = (segments: Array<string | number>) => segments.map((s) => (typeof s === 'number' ? `[${s}]` : `.${s}`)).join('').replace(/^\./, '').replace(/\.\[/g, '[');

  const cases = manifests.flatMap((m) => requiredFields(m, m.kind, []).map((segments) => [m.kind, render(segments), m, segments] as const));

  test('the manifests used are valid', () => {
    for (const m of manifests) {
      expect(ManifestValidator.validate(m).filter((v) => v.severity === ViolationSeverity.ERROR)).toEqual([]);
    }
  });

  test.each(cases)('%s without %s', (_kind, rendered, manifest, segments) => {
    const copy = JSON.parse(JSON.stringify(manifest));
    let parent = copy;
    for (const s of segments.slice(0, -1)) parent = parent[s];
    delete parent[segments[segments.length - 1]];
    const paths = ManifestValidator.validate(copy).filter((v) => v.severity === ViolationSeverity.ERROR).map((v) => v.path);
    expect(paths.some((p) => p === rendered || p.startsWith(`${rendered}.`))).toBe(true);
  });
});
