// The review suite's match-verdict check: it reads the policies an apiserver answer names and
// fails when the tester says one of them did not act.
import { matchDisagreements, participants } from '../../../../conformance/src/suites/reviews/match-verdicts';
import { MatchMiss, PolicyMatch } from '../../../../src';
import { AdmissionKind } from '../../../../src/admission-kind';

const answer = {
  messages: ["ValidatingAdmissionPolicy 'p' with binding 'b' denied request: at most 5 replicas", "policy 'm' with binding 'mb' denied request: no"],
  warnings: ["Validation failed for ValidatingAdmissionPolicy 'w' with binding 'wb': a message naming policy 'x' with binding 'y' inside"],
  auditAnnotations: {
    'rv1/seen': 'yes',
    'validation.policy.admission.k8s.io/validation_failure': JSON.stringify([{ message: 'm', policy: 'a', binding: 'ab', expressionIndex: 0, validationActions: ['Audit'] }]),
  },
};

test('an answer names the policies of its denials, warnings and audit annotations', () => {
  expect(participants(answer)).toEqual([
    { policy: 'p', binding: 'b', seenIn: 'denial' },
    { policy: 'm', binding: 'mb', seenIn: 'denial' },
    { policy: 'w', binding: 'wb', seenIn: 'warning' },
    { policy: 'rv1', seenIn: 'audit annotation' },
    { policy: 'a', binding: 'ab', seenIn: 'audit annotation' },
  ]);
});

test('a named policy the tester says acted agrees; one it says did not, or does not know, disagrees', () => {
  const kind = AdmissionKind.VALIDATING_ADMISSION_POLICY;
  const verdicts: PolicyMatch[] = [
    { policyKind: kind, policy: 'p', binding: 'b', matched: true },
    { policyKind: kind, policy: 'rv1', binding: 'other', matched: false, miss: MatchMiss.OPERATION, reason: 'operation CREATE is not in ...' },
    { policyKind: kind, policy: 'rv1', binding: 'rb', matched: true },
    { policyKind: kind, policy: 'w', binding: 'wb', matched: false, miss: MatchMiss.MATCH_CONDITION, reason: 'spec.matchConditions[0] is false' },
  ];
  expect(matchDisagreements(verdicts, participants(answer))).toEqual([
    "the apiserver's denial names policy 'm' with binding 'mb', which the tester does not list",
    "the apiserver's warning names policy 'w' with binding 'wb', which the tester says did not act: spec.matchConditions[0] is false",
    "the apiserver's audit annotation names policy 'a' with binding 'ab', which the tester does not list",
  ]);
});
