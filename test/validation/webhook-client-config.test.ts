import * as fc from 'fast-check';
import { isDns1123Subdomain } from '../../src/shared/name-formats';
import { validateWebhookServicePath } from '../../src/validation/webhook-client-config';

const SUBDOMAIN = isDns1123Subdomain('B')[0];
const a = (n: number): string => 'a'.repeat(n);
const label = fc.string({ unit: fc.constantFrom(...'abcxyz019-'.split('')), minLength: 1, maxLength: 10 })
  .filter((s) => !s.startsWith('-') && !s.endsWith('-'));
const dns1123Subdomain = fc.array(label, { minLength: 1, maxLength: 4 }).map((labels) => labels.join('.'));

describe('validateWebhookServicePath', () => {
  test.each(['', '/', '/validate', '/validate/', '/apis/foo.bar/v1alpha1', '/a/b/c/'])('accepts %j', (path) => {
    expect(validateWebhookServicePath(path)).toEqual([]);
  });

  test.each([
    ['//', ['segment[0] may not be empty']],
    ['///', ['segment[0] may not be empty', 'segment[1] may not be empty']],
    ['/a//b', ['segment[1] may not be empty']],
    ['/a//', ['segment[1] may not be empty']],
    ['/apis/foo.bar/v1alpha1/--bad', [`segment[3]: ${SUBDOMAIN}`]],
    ['/a/B/', [`segment[1]: ${SUBDOMAIN}`]],
    ['/a_b', [`segment[0]: ${SUBDOMAIN}`]],
    [`/${a(254)}`, ['segment[0]: must be no more than 253 bytes']],
    ['validate', ["must start with a '/'"]],
    // Like the API server, the first character is skipped even when it is not a '/'.
    ['xFoo/bar', ["must start with a '/'", `segment[0]: ${SUBDOMAIN}`]],
    ['x/Foo', ["must start with a '/'", 'segment[0] may not be empty', `segment[1]: ${SUBDOMAIN}`]],
  ])('rejects %j', (path, details) => {
    expect(validateWebhookServicePath(path)).toEqual(details);
  });

  test('accepts every path of valid segments, with or without a trailing slash', () => {
    fc.assert(fc.property(fc.array(dns1123Subdomain, { minLength: 1, maxLength: 5 }), fc.boolean(), (segments, trailing) => {
      const path = `/${segments.join('/')}${trailing ? '/' : ''}`;
      expect(validateWebhookServicePath(path)).toEqual([]);
    }));
  });
});
