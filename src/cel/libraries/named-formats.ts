import { isDns1035Label, isDns1123Label, isDns1123Subdomain, isQualifiedName, isValidLabelValue } from '../../shared/name-formats';
import { CelEnvironment, engine } from '../engine';
import { CelLibrary, registerNamespace, registerOpaqueType } from '../library';

/**
 * The Kubernetes named-format library (library/format.go): `format.named(name)` and the
 * zero-argument constants `format.dns1123Label()` ..., each a `kubernetes.NamedFormat` whose
 * `validate(s)` is `optional.none()` for a valid value, else the list of problems.
 */
export const FORMAT_TYPE = 'kubernetes.NamedFormat';

export class NamedFormat {
  public constructor(public readonly name: string, private readonly validator: (s: string) => string[]) {}

  public validate(s: string): string[] {
    return this.validator(s);
  }
}

const prefix = (check: (s: string) => string[]) => (s: string) => check(s.endsWith('-') ? `${s}a` : s);
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

const FORMATS: Record<string, (s: string) => string[]> = {
  dns1123Label: isDns1123Label,
  dns1123Subdomain: isDns1123Subdomain,
  dns1035Label: isDns1035Label,
  qualifiedName: isQualifiedName,
  dns1123LabelPrefix: prefix(isDns1123Label),
  dns1123SubdomainPrefix: prefix(isDns1123Subdomain),
  dns1035LabelPrefix: prefix(isDns1035Label),
  labelValue: isValidLabelValue,
  uri: (s) => (/^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$/.test(s) || s.startsWith('/') ? [] : ['invalid URI']),
  uuid: (s) => (UUID.test(s) ? [] : ['does not match the UUID format']),
  byte: (s) => (/^[A-Za-z0-9+/]*={0,2}$/.test(s) && s.length % 4 === 0 ? [] : ['invalid base64']),
  date: (s) => (DATE.test(s) && !Number.isNaN(Date.parse(s)) ? [] : ['invalid date']),
  datetime: (s) => (DATETIME.test(s) && !Number.isNaN(Date.parse(s)) ? [] : ['invalid datetime']),
};

export const NAMED_FORMATS: CelLibrary = {
  name: 'format',
  install(env: CelEnvironment) {
    const F = FORMAT_TYPE;
    registerOpaqueType(env, F, NamedFormat);
    // format.go Equal: two formats are equal when they are the same format.
    env.registerOperator(`${F} == ${F}`, (a: NamedFormat, b: NamedFormat) => a.name === b.name);
    const ns = registerNamespace(env, 'format');
    for (const [name, validator] of Object.entries(FORMATS)) {
      const format = new NamedFormat(name, validator);
      env.registerFunction(`${ns}.${name}(): ${F}`, () => format);
    }
    env.registerFunction(`${ns}.named(string): optional<${F}>`, (_: unknown, name: string) =>
      (FORMATS[name] ? engine.Optional.of(new NamedFormat(name, FORMATS[name])) : engine.Optional.none()));
    env.registerFunction(`${F}.validate(string): optional<list<string>>`, (f: NamedFormat, s: string) => {
      const problems = f.validate(s);
      return problems.length === 0 ? engine.Optional.none() : engine.Optional.of(problems);
    });
  },
};
