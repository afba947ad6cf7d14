// The value of a match condition where the request's resource decides it: known values are the
// values evaluation gives for every request of that resource, whatever the object; anything the
// object or the user decides is not known.
import * as fc from 'fast-check';
import { kubernetesEnvironment } from '../../src/cel/environment';
import { guardValue, KnownRequest } from '../../src/cel/request-guards';

const DEPLOYMENTS: KnownRequest = { group: 'apps', resource: 'deployments', kind: 'Deployment', objectIsTheResource: true };
const PODS: KnownRequest = { group: '', resource: 'pods', kind: 'Pod', objectIsTheResource: true };
const MINOR = 37;

describe('known values', () => {
  test.each([
    ["object.kind == 'Pod'", DEPLOYMENTS, false],
    ["object.kind == 'Deployment'", DEPLOYMENTS, true],
    ["'Pod' == object.kind", PODS, true],
    ["object.kind != 'Pod'", PODS, false],
    ["request.kind.kind == 'Pod'", DEPLOYMENTS, false],
    ["request.kind.group == 'apps'", DEPLOYMENTS, true],
    ["request.resource.group == ''", PODS, true],
    ["request.resource.resource in ['pods', 'services']", PODS, true],
    ["request.resource.resource in ['pods', 'services']", DEPLOYMENTS, false],
    ["!(object.kind == 'Pod')", PODS, false],
    ["object.kind == 'Pod' && object.spec.replicas > 1", DEPLOYMENTS, false], // && decides on a false operand, whatever the other
    ["object.spec.replicas > 1 && object.kind == 'Pod'", DEPLOYMENTS, false],
    ["object.kind == 'Pod' || object.kind == 'Service'", DEPLOYMENTS, false],
    ["object.kind == 'Deployment' || object.spec.replicas > 1", DEPLOYMENTS, true],
    ["object.kind == 'Pod' ? object.spec.containers.size() > 0 : false", DEPLOYMENTS, false],
  ])('%s for %j: %s', (expression, request, value) => {
    expect(guardValue(expression, MINOR, request)).toBe(value);
  });

  test.each([
    ['true', true], ['false', false], ['1 == 1', true], ["'a'.startsWith('b')", false], ['!false', true], ['[1, 2].size() == 2', true],
    ["false && object.kind == 'Pod'", false], ["true || request.userInfo.username == 'x'", true],
  ])('%s is the same for every request: %s', (expression, value) => {
    expect(guardValue(expression, MINOR)).toBe(value);
  });

  test.each([
    ["object.kind == 'Pod'"], // the object's kind needs a request
    ['object.spec.replicas > 1'],
    ["request.userInfo.username == 'admin'"],
    ['object.spec.replicas > 1 ? true : true'], // the condition may fail
    ['1 / 0 == 1'], // fails when it runs
    ['1 + 1'], // not a bool
    ['[1].all(x, x > 0)'], // a comprehension's variable: not judged
    ["request.kind.version == 'v1'"], // versions differ under matchPolicy Equivalent
    ['object.kind ==='], // does not parse
  ])('%s: not known without the request', (expression) => {
    expect(guardValue(expression, MINOR)).toBeUndefined();
  });

  test('object.kind is not known where object is not the resource (DELETE, CONNECT)', () => {
    expect(guardValue("object.kind == 'Pod'", MINOR, { ...DEPLOYMENTS, objectIsTheResource: false })).toBeUndefined();
    expect(guardValue("request.kind.kind == 'Pod'", MINOR, { ...DEPLOYMENTS, objectIsTheResource: false })).toBe(false);
  });
});

describe('properties', () => {
  const REQUESTS: KnownRequest[] = [DEPLOYMENTS, PODS, { group: 'batch', resource: 'jobs', kind: 'Job', objectIsTheResource: true }];
  const names = fc.constantFrom('Pod', 'Deployment', 'Job', 'pods', 'deployments', 'jobs', 'apps', '', 'batch');
  const atom: fc.Arbitrary<string> = fc.oneof(
    names.map((n) => `object.kind == '${n}'`),
    names.map((n) => `request.kind.kind != '${n}'`),
    names.map((n) => `request.resource.resource == '${n}'`),
    names.map((n) => `request.kind.group == '${n}'`),
    fc.uniqueArray(names, { maxLength: 3 }).map((ns) => `request.resource.resource in [${ns.map((n) => `'${n}'`).join(', ')}]`),
    fc.constantFrom('true', 'false', '1 == 1', 'object.spec.replicas > 1', 'has(object.spec.paused)', "request.userInfo.username == 'a'", '1 / 0 == 1'),
  );
  const { expression } = fc.letrec<{ expression: string }>((tie) => ({
    expression: fc.oneof({ depthSize: 'small', withCrossShrink: true },
      atom,
      tie('expression').map((e) => `!(${e})`),
      fc.tuple(tie('expression'), tie('expression')).map(([a, b]) => `(${a}) && (${b})`),
      fc.tuple(tie('expression'), tie('expression')).map(([a, b]) => `(${a}) || (${b})`),
      fc.tuple(tie('expression'), tie('expression'), tie('expression')).map(([a, b, c]) => `(${a}) ? (${b}) : (${c})`)),
  }));
  const env = kubernetesEnvironment(MINOR).registerVariable('object', 'dyn').registerVariable('request', 'dyn');
  const spec = fc.record({ replicas: fc.integer({ min: 0, max: 3 }), paused: fc.boolean() }, { requiredKeys: [] });

  /** The value evaluation gives for a request of the resource, with this object's spec; an error as 'error'. */
  function evaluated(e: string, r: KnownRequest, objectSpec: object): unknown {
    const object = { apiVersion: r.group === '' ? 'v1' : `${r.group}/v1`, kind: r.kind, metadata: { name: 'x' }, spec: objectSpec };
    const request = { kind: { group: r.group, version: 'v1', kind: r.kind }, resource: { group: r.group, version: 'v1', resource: r.resource }, userInfo: { username: 'a' } };
    try {
      return env.evaluate(e, { object, request });
    } catch {
      return 'error';
    }
  }

  test('a known value is what every request of the resource evaluates to, whatever its object', () => {
    let known = 0;
    fc.assert(fc.property(expression, fc.constantFrom(...REQUESTS), fc.array(spec, { minLength: 1, maxLength: 3 }), (e, r, specs) => {
      const value = guardValue(e, MINOR, r);
      if (value === undefined) return;
      known++;
      for (const s of specs) expect({ e, value: evaluated(e, r, s) }).toEqual({ e, value });
    }), { numRuns: 600 });
    // Not vacuous: most drawn expressions are decided by the resource.
    expect(known).toBeGreaterThan(200);
  });

  test('a value known without a request is every resource\'s', () => {
    fc.assert(fc.property(expression, (e) => {
      const value = guardValue(e, MINOR);
      if (value !== undefined) for (const r of REQUESTS) expect(guardValue(e, MINOR, r)).toBe(value);
    }), { numRuns: 600 });
  });
});
