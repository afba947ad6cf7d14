import * as fc from 'fast-check';
import {
  isDns1035Label,
  isDns1123Label,
  isDns1123Subdomain,
  isPathSegmentName,
  isQualifiedName,
  isValidLabelValue,
} from '../../src/shared/name-formats';

const SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1035 = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const QUALIFIED = "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";
const NAME_PART = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

const a = (n: number): string => 'a'.repeat(n);

// Generators for the DNS grammars, built independently of the regexes under test.
const LOWER_ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789'.split('');
const alnumChar = fc.constantFrom(...LOWER_ALNUM);
const dns1123Label = fc.oneof(
  alnumChar,
  fc.tuple(alnumChar, fc.string({ unit: fc.constantFrom('-', ...LOWER_ALNUM), maxLength: 20 }), alnumChar)
    .map(([first, middle, last]) => first + middle + last),
);
const dns1123Subdomain = fc.array(dns1123Label, { minLength: 1, maxLength: 12 })
  .map((labels) => labels.join('.'))
  .filter((s) => s.length <= 253);

describe('isDns1123Subdomain', () => {
  test.each([
    'a',
    '0',
    'example.com',
    'a-b.c-d',
    '1.2.3',
    'a--b',
    a(253),
    `${a(63)}.${a(63)}`,
  ])('accepts %j', (value) => {
    expect(isDns1123Subdomain(value)).toEqual([]);
  });

  test.each([
    ['', [SUBDOMAIN]],
    ['A', [SUBDOMAIN]],
    ['Example.com', [SUBDOMAIN]],
    ['-a', [SUBDOMAIN]],
    ['a-', [SUBDOMAIN]],
    ['.a', [SUBDOMAIN]],
    ['a.', [SUBDOMAIN]],
    ['a..b', [SUBDOMAIN]],
    ['a_b', [SUBDOMAIN]],
    ['a b', [SUBDOMAIN]],
    ['ä', [SUBDOMAIN]],
    ['a\n', [SUBDOMAIN]],
    [a(254), ['must be no more than 253 bytes']],
    ['A'.repeat(254), ['must be no more than 253 bytes', SUBDOMAIN]],
  ])('rejects %j', (value, details) => {
    expect(isDns1123Subdomain(value)).toEqual(details);
  });

  test('accepts every string of the subdomain grammar up to 253 bytes', () => {
    fc.assert(fc.property(dns1123Subdomain, (value) => {
      expect(isDns1123Subdomain(value)).toEqual([]);
    }));
  });

  test('rejects every string with an uppercase letter', () => {
    const upper = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split(''));
    fc.assert(fc.property(fc.string(), upper, fc.string(), (before, letter, after) => {
      expect(isDns1123Subdomain(before + letter + after)).toContain(SUBDOMAIN);
    }));
  });

  test('reports the length error exactly when the UTF-8 length is over 253', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (value) => {
      const tooLong = Buffer.byteLength(value, 'utf8') > 253;
      expect(isDns1123Subdomain(value).includes('must be no more than 253 bytes')).toBe(tooLong);
    }));
  });
});

describe('isDns1123Label', () => {
  test.each(['a', '0', 'my-name', '123-abc', a(63)])('accepts %j', (value) => {
    expect(isDns1123Label(value)).toEqual([]);
  });

  test.each([
    ['', [LABEL]],
    ['A', [LABEL]],
    ['-a', [LABEL]],
    ['a-', [LABEL]],
    ['a_b', [LABEL]],
    ['a.b', ['must not contain dots']],
    ['.a', [LABEL]],
    [a(64), ['must be no more than 63 bytes']],
    [`${'a.'.repeat(40)}a`, ['must be no more than 63 bytes', 'must not contain dots']],
    ['-'.repeat(64), ['must be no more than 63 bytes', LABEL]],
  ])('rejects %j', (value, details) => {
    expect(isDns1123Label(value)).toEqual(details);
  });

  test('accepts every grammar label up to 63 bytes, and every label is a subdomain', () => {
    fc.assert(fc.property(dns1123Label.filter((s) => s.length <= 63), (value) => {
      expect(isDns1123Label(value)).toEqual([]);
      expect(isDns1123Subdomain(value)).toEqual([]);
    }));
  });
});

describe('isDns1035Label', () => {
  test.each(['a', 'my-name', 'abc-123', `a${'0'.repeat(62)}`])('accepts %j', (value) => {
    expect(isDns1035Label(value)).toEqual([]);
  });

  test.each([
    ['', [DNS1035]],
    ['1abc', [DNS1035]],
    ['123-abc', [DNS1035]],
    ['a-', [DNS1035]],
    ['A', [DNS1035]],
    ['a.b', [DNS1035]],
    [a(64), ['must be no more than 63 bytes']],
  ])('rejects %j', (value, details) => {
    expect(isDns1035Label(value)).toEqual(details);
  });
});

describe('isQualifiedName', () => {
  test.each([
    'MyName',
    'my.name',
    '123-abc',
    'A_b.c-D',
    'a',
    'example.com/MyName',
    'a/b',
    a(63),
    `${a(253)}/${a(63)}`,
  ])('accepts %j', (value) => {
    expect(isQualifiedName(value)).toEqual([]);
  });

  test.each([
    ['a/b/c', [QUALIFIED]],
    ['//', [QUALIFIED]],
    ['/a', ['prefix part must be non-empty']],
    ['Example.com/a', [`prefix part ${SUBDOMAIN}`]],
    [`${a(254)}/b`, ['prefix part must be no more than 253 bytes']],
    ['a/', ['name part must be non-empty', NAME_PART]],
    ['', ['name part must be non-empty', NAME_PART]],
    ['/', ['prefix part must be non-empty', 'name part must be non-empty', NAME_PART]],
    [a(64), ['name part must be no more than 63 characters']],
    ['-a', [NAME_PART]],
    ['a_', [NAME_PART]],
    ['a b', [NAME_PART]],
    ['Bad_/x!', [`prefix part ${SUBDOMAIN}`, NAME_PART]],
  ])('rejects %j', (value, details) => {
    expect(isQualifiedName(value)).toEqual(details);
  });

  test('accepts every valid prefix with a valid name', () => {
    const nameChar = fc.constantFrom(...'abcXYZ019'.split(''));
    const name = fc.tuple(nameChar, fc.string({ unit: fc.constantFrom(...'aZ9-_.'.split('')), maxLength: 20 }), nameChar)
      .map(([first, middle, last]) => first + middle + last);
    fc.assert(fc.property(fc.option(dns1123Subdomain), name, (prefix, n) => {
      expect(isQualifiedName(prefix === null ? n : `${prefix}/${n}`)).toEqual([]);
    }));
  });
});

describe('isValidLabelValue', () => {
  test.each(['', 'MyValue', 'my_value', '12345', 'a.b-c_D', a(63)])('accepts %j', (value) => {
    expect(isValidLabelValue(value)).toEqual([]);
  });

  test.each([
    ['-a', [LABEL_VALUE]],
    ['a.', [LABEL_VALUE]],
    ['a b', [LABEL_VALUE]],
    ['a/b', [LABEL_VALUE]],
    [a(64), ['must be no more than 63 characters']],
    // 32 'é' are 64 UTF-8 bytes, which Go's len() counts.
    ['é'.repeat(32), ['must be no more than 63 characters', LABEL_VALUE]],
    ['é'.repeat(31), [LABEL_VALUE]],
  ])('rejects %j', (value, details) => {
    expect(isValidLabelValue(value)).toEqual(details);
  });

  test('only ever reports the two label value details', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (value) => {
      for (const detail of isValidLabelValue(value)) {
        expect(['must be no more than 63 characters', LABEL_VALUE]).toContain(detail);
      }
    }));
  });
});

describe('isPathSegmentName', () => {
  test.each(['foo', '...', '.a', 'a..b', 'a b', 'ü'])('accepts %j', (value) => {
    expect(isPathSegmentName(value)).toEqual([]);
  });

  test.each([
    ['.', ["may not be '.'"]],
    ['..', ["may not be '..'"]],
    ['a/b', ["may not contain '/'"]],
    ['a%b', ["may not contain '%'"]],
    ['%/', ["may not contain '/'", "may not contain '%'"]],
    ['/', ["may not contain '/'"]],
  ])('rejects %j', (value, details) => {
    expect(isPathSegmentName(value)).toEqual(details);
  });
});
