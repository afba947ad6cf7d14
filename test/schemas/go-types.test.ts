// schemas/go-types.json (scripts/generate-go-types.ts): the Go types, defaulters and feature gates
// of every target release.
import * as fs from 'fs';
import * as path from 'path';
import { BuiltinSchemas } from '../../src/schemas/builtin-schemas';
import { GoTypes } from '../../src/schemas/go-types';

const DIR = path.join(__dirname, '..', '..', 'schemas');

describe('the Go types of every target release', () => {
  test('the schema files fit the package budget together (3 MB)', () => {
    const size = ['kubernetes.json', 'go-types.json'].reduce((sum, f) => sum + fs.statSync(path.join(DIR, f)).size, 0);
    expect(size).toBeLessThanOrEqual(3 * 1024 * 1024);
  });

  test('every built-in kind of a release has its Go struct, so that its objects can be decoded and encoded', () => {
    for (let minor = 28; minor <= 37; minor++) {
      const schemas = BuiltinSchemas.of(minor);
      const types = GoTypes.of(minor);
      const missing = schemas.resources().map((r) => schemas.kind(r.group ? `${r.group}/${r.version}` : r.version, r.kind)!.name)
        .filter((name) => !types.struct(name));
      expect(`1.${minor}: ${[...new Set(missing)].join(', ')}`).toBe(`1.${minor}: `);
    }
  });

  test('feature gates are read at the release\'s own minor', () => {
    expect(GoTypes.of(28).featureGate('MaxUnavailableStatefulSet')).toBe(false);
    expect(GoTypes.of(37).featureGate('MaxUnavailableStatefulSet')).toBe(true);
    expect(GoTypes.of(37).featureGate('NoSuchGate')).toBe(false);
  });
});
