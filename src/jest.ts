// Jest matchers for PolicyTester reviews, registered by loading this module once per test file,
// from jest's configuration: `setupFilesAfterEnv: ['cdk8s-admission/lib/jest']`.
//
//   expect(tester.review(request)).toBeDenied({ policy: 'replica-limit', message: 'at most 5' });
//
// A failing matcher prints the review's explanation (PolicyTester.explain). A review that no
// policy acted on fails toBeAllowed and every negated matcher (`.not.toBeDenied()`): a test can
// only pass that way by saying so, with toMatchNoPolicy. The assertions are the ones
// PolicyTester's assert* methods make (src/testing/assertions.ts).
import { AdmissionResult } from './testing/admission-result';
import {
  allowedFailure, auditedFailure, DenialExpectation, deniedFailure, matchedByFailure, mutatedFailure, noPolicyMatchedFailure,
  vacuousReview, warnedFailure,
} from './testing/assertions';
import { explanationOf } from './testing/explain/result-explanation';

/** What toBeDenied accepts: DenialExpectation, with a RegExp allowed for the message. */
export interface JestDenialExpectation extends Omit<DenialExpectation, 'message'> {
  readonly message?: string | RegExp;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace jest {
    interface Matchers<R> {
      /** Allowed, with at least one policy acting on it. */
      toBeAllowed(): R;
      /** Denied; with an expectation, by a denial like it (policy, binding, message text or RegExp, reason, code). */
      toBeDenied(expected?: JestDenialExpectation): R;
      /** A warning was returned; with a pattern, one matching it (a string is a substring). */
      toBeWarned(message?: string | RegExp): R;
      /** The audit annotation `key` was recorded; with a value, one matching it (a string is a substring). */
      toBeAudited(key: string, value?: string | RegExp): R;
      /** The mutating policies changed the object to contain `expected`: a partial object, or a JSON patch it satisfies. */
      toBeMutatedTo(expected: object): R;
      /** The policy (through the binding, when given) acted on the request. */
      toBeMatchedBy(policy: string, binding?: string): R;
      /** No policy acted on the request: what a test says when a policy is not meant to apply. */
      toMatchNoPolicy(): R;
    }
  }
}

type Failure = string | undefined;

/** A substring or a RegExp, as the pattern the assertions take. */
function pattern(value: string | RegExp | undefined): string | undefined {
  if (value === undefined) return undefined;
  return value instanceof RegExp ? value.source : value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function checkedResult(received: unknown, matcherName: string): AdmissionResult {
  const r = received as AdmissionResult;
  if (r === null || typeof r !== 'object' || typeof r.allowed !== 'boolean' || !Array.isArray(r.policies)) {
    throw new Error(`${matcherName}: expected the result of PolicyTester.review(...), got ${received === null ? 'null' : typeof received}`);
  }
  return r;
}

/**
 * A matcher from the failure of its assertion and of its negation (for `.not`), both of which
 * fail on a review no policy acted on unless the matcher is about which policies acted.
 */
function matcher(name: string, failures: (r: AdmissionResult, ...args: any[]) => { failure: Failure; negated: Failure }) {
  return function (this: jest.MatcherContext, received: unknown, ...args: any[]): jest.CustomMatcherResult {
    const result = checkedResult(received, name);
    const { failure, negated } = failures(result, ...args);
    const why = this.isNot ? negated : failure;
    const pass = this.isNot ? negated !== undefined : failure === undefined;
    return {
      pass,
      message: () => {
        const explanation = explanationOf(result);
        const head = `${this.utils.matcherHint(name, undefined, args.length === 0 ? '' : undefined, { isNot: this.isNot })}\n\n${why ?? ''}`;
        return explanation === undefined ? head : `${head}\n\nExplanation:\n${explanation}`;
      },
    };
  };
}

/** The negation of an assertion: it must not hold, and some policy must have acted. */
function unless(holds: boolean, text: string, result: AdmissionResult): Failure {
  const vacuous = vacuousReview(result);
  if (vacuous !== undefined) return `expected ${text}, and ${vacuous}`;
  return holds ? `expected ${text}, but it was` : undefined;
}

export const admissionMatchers = {
  toBeAllowed: matcher('toBeAllowed', (r) => ({ failure: allowedFailure(r), negated: deniedFailure(r) })),
  toBeDenied: matcher('toBeDenied', (r, expected?: JestDenialExpectation) => {
    const assertion = expected === undefined ? undefined : { ...expected, message: undefined, messagePattern: pattern(expected.message) };
    const failure = deniedFailure(r, assertion);
    return { failure, negated: assertion === undefined ? allowedFailure(r) : unless(failure === undefined, 'no such denial', r) };
  }),
  toBeWarned: matcher('toBeWarned', (r, message?: string | RegExp) => {
    const failure = warnedFailure(r, pattern(message));
    return { failure, negated: unless(failure === undefined, `no warning${message !== undefined ? ` matching ${String(message)}` : ''}`, r) };
  }),
  toBeAudited: matcher('toBeAudited', (r, key: string, value?: string | RegExp) => {
    const failure = auditedFailure(r, key, pattern(value));
    return { failure, negated: unless(failure === undefined, `no audit annotation ${JSON.stringify(key)}`, r) };
  }),
  toBeMutatedTo: matcher('toBeMutatedTo', (r, expected: object) => {
    const failure = mutatedFailure(r, expected);
    return { failure, negated: unless(failure === undefined, 'the object not to be mutated to contain what the test gives', r) };
  }),
  toBeMatchedBy: matcher('toBeMatchedBy', (r, policy: string, binding?: string) => {
    const failure = matchedByFailure(r, policy, binding);
    const unknown = failure !== undefined && r.policies.every((p) => p.policy !== policy);
    return { failure, negated: unknown ? failure : failure === undefined ? `expected policy '${policy}' not to match, but it did` : undefined };
  }),
  toMatchNoPolicy: matcher('toMatchNoPolicy', (r) => {
    const failure = noPolicyMatchedFailure(r);
    return { failure, negated: failure === undefined ? 'expected some policy to match the request, but none did' : undefined };
  }),
};

const jestExpect = (globalThis as { expect?: { extend?: (matchers: object) => void } }).expect;
if (typeof jestExpect?.extend !== 'function') {
  throw new Error('cdk8s-admission/lib/jest registers jest matchers: load it from jest (setupFilesAfterEnv), where `expect` is defined');
}
jestExpect.extend(admissionMatchers);
