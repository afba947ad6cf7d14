import { AdmissionKind, isAdmissionKind } from '../admission-kind';
import { isComplete } from './match-reach';
import { ruleCovers, rulesMeet } from './rule-coverage';
import { Violation, ViolationSeverity } from './violation';

/** The partner kinds of the two binding kinds. */
const POLICY_OF_BINDING: { readonly [binding: string]: AdmissionKind } = {
  [AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING]: AdmissionKind.VALIDATING_ADMISSION_POLICY,
  [AdmissionKind.MUTATING_ADMISSION_POLICY_BINDING]: AdmissionKind.MUTATING_ADMISSION_POLICY,
};

/** An admissionregistration object as the cross-object checks read it. */
export interface ObjectEntry {
  readonly index: number;
  readonly kind: AdmissionKind;
  readonly name: string;
  readonly spec: { readonly [key: string]: unknown };
}

/**
 * The checks no single manifest can answer: duplicate names per kind, bindings whose policy is in
 * the set but of the other kind, and paramRef/paramKind mismatches between a binding and its policy.
 * A binding whose policy is not in the set is fine: the policy may be applied from elsewhere.
 */
export function validateCrossObject(manifests: readonly unknown[]): Violation[] {
  const entries = manifests.map(readEntry).filter((e): e is ObjectEntry => e !== undefined);
  return [...duplicateNames(entries), ...bindingPolicies(entries)];
}

export function readEntry(manifest: unknown, index: number): ObjectEntry | undefined {
  if (typeof manifest !== 'object' || manifest === null) return undefined;
  const m = manifest as { kind?: unknown; metadata?: { name?: unknown }; spec?: unknown };
  const name = typeof m.metadata === 'object' && m.metadata !== null ? m.metadata.name : undefined;
  if (!isAdmissionKind(m.kind) || typeof name !== 'string' || name === '') return undefined;
  const spec = typeof m.spec === 'object' && m.spec !== null && !Array.isArray(m.spec) ? (m.spec as ObjectEntry['spec']) : {};
  return { index, kind: m.kind, name, spec };
}

function violation(entry: ObjectEntry, path: string, message: string): Violation {
  return { path, message, severity: ViolationSeverity.ERROR, kind: entry.kind, name: entry.name, manifestIndex: entry.index };
}

function duplicateNames(entries: readonly ObjectEntry[]): Violation[] {
  const out: Violation[] = [];
  const first = new Map<string, ObjectEntry>();
  for (const e of entries) {
    const key = `${e.kind}/${e.name}`;
    const earlier = first.get(key);
    if (earlier) {
      out.push(violation(e, 'metadata.name',
        `Duplicate value: ${JSON.stringify(e.name)}: manifest ${earlier.index} is a ${e.kind} with the same name, and one would overwrite the other on apply; give one a different name`));
    } else {
      first.set(key, e);
    }
  }
  return out;
}

function bindingPolicies(entries: readonly ObjectEntry[]): Violation[] {
  const byKindAndName = new Map(entries.map((e) => [`${e.kind}/${e.name}`, e]));
  return entries.flatMap((binding) => checkBindingPolicyName(binding, (kind, name) => byKindAndName.get(`${kind}/${name}`)));
}

/**
 * What is wrong between a binding and the policy its `spec.policyName` names, when `find` knows
 * a policy of that name: a policy of the other kind, or a mismatch with the policy of its kind.
 */
export function checkBindingPolicyName(binding: ObjectEntry, find: (kind: AdmissionKind, name: string) => ObjectEntry | undefined): Violation[] {
  const policyKind = POLICY_OF_BINDING[binding.kind];
  const policyName = binding.spec.policyName;
  if (!policyKind || typeof policyName !== 'string') return [];
  const policy = find(policyKind, policyName);
  if (policy) return checkBindingAgainstPolicy(binding, policy);
  const otherKind = policyKind === AdmissionKind.VALIDATING_ADMISSION_POLICY
    ? AdmissionKind.MUTATING_ADMISSION_POLICY : AdmissionKind.VALIDATING_ADMISSION_POLICY;
  if (!find(otherKind, policyName)) return [];
  return [violation(binding, 'spec.policyName',
    `Invalid value: ${JSON.stringify(policyName)}: names a ${otherKind}, but a ${binding.kind} binds a ${policyKind}; use a ${otherKind}Binding for it`)];
}

/** What is wrong between a binding and the policy it binds (both read from their manifests). */
export function checkBindingAgainstPolicy(binding: ObjectEntry, policy: ObjectEntry): Violation[] {
  return [...paramsMismatch(binding, policy), ...clusterWideDeny(binding, policy), ...selectsNothingOfPolicy(binding, policy)];
}

function paramsMismatch(binding: ObjectEntry, policy: ObjectEntry): Violation[] {
  const paramKind = policy.spec.paramKind as { kind?: unknown } | undefined;
  const hasParamKind = typeof paramKind === 'object' && paramKind !== null;
  const hasParamRef = typeof binding.spec.paramRef === 'object' && binding.spec.paramRef !== null;
  if (hasParamRef && !hasParamKind) {
    return [violation(binding, 'spec.paramRef',
      `Forbidden: ${policy.kind} ${JSON.stringify(policy.name)} has no spec.paramKind, so this paramRef would be ignored; remove it, or give the policy a paramKind`)];
  }
  if (hasParamKind && !hasParamRef) {
    const kind = typeof paramKind.kind === 'string' ? ` (${paramKind.kind})` : '';
    return [violation(binding, 'spec.paramRef',
      `Required value: ${policy.kind} ${JSON.stringify(policy.name)} declares spec.paramKind${kind}, and without a paramRef every request it matches fails as a misconfiguration under its failurePolicy; set paramRef (name or selector, and parameterNotFoundAction)`)];
  }
  return [];
}

/**
 * A Deny binding of a policy that fails closed and matches every resource of every group:
 * one bug in an expression, or a policy that cannot be evaluated, blocks writes cluster-wide.
 */
function clusterWideDeny(binding: ObjectEntry, policy: ObjectEntry): Violation[] {
  const actions = binding.spec.validationActions;
  if (!Array.isArray(actions) || !actions.includes('Deny')) return [];
  if ((policy.spec.failurePolicy ?? 'Fail') !== 'Fail') return [];
  const constraints = policy.spec.matchConstraints as { resourceRules?: unknown } | undefined;
  const rules = Array.isArray(constraints?.resourceRules) ? constraints.resourceRules : [];
  const matchesEverything = rules.some((r) => {
    const { apiGroups, resources } = (r ?? {}) as { apiGroups?: unknown; resources?: unknown };
    return Array.isArray(apiGroups) && apiGroups.includes('*') && Array.isArray(resources) && (resources.includes('*') || resources.includes('*/*'));
  });
  const bindingMatch = binding.spec.matchResources as { namespaceSelector?: object; resourceRules?: unknown[] } | undefined;
  const narrowed = bindingMatch !== undefined
    && ((bindingMatch.namespaceSelector !== undefined && Object.keys(bindingMatch.namespaceSelector).length > 0)
      || (Array.isArray(bindingMatch.resourceRules) && bindingMatch.resourceRules.length > 0));
  if (!matchesEverything || narrowed) return [];
  return [{
    path: 'spec.validationActions',
    message: `${policy.kind} ${JSON.stringify(policy.name)} matches every resource of every API group ('*') with failurePolicy Fail, and this `
      + 'binding denies: an expression error or an unavailable parameter would block writes across the cluster, kube-system included. '
      + 'Roll out with [Warn, Audit] first, narrow the rules, or restrict the binding with matchResources.namespaceSelector',
    severity: ViolationSeverity.WARNING,
    kind: binding.kind,
    name: binding.name,
    manifestIndex: binding.index,
  }];
}

/**
 * A binding whose matchResources selects nothing its policy matches: what a binding matches is
 * intersected with its policy's matchConstraints (k8s.io/apiserver pkg/admission/plugin/policy/matching/matching.go:
 * a request must match both), so a binding whose rules meet none of the policy's, or whose
 * exclude rules cover all of them, never acts.
 */
function selectsNothingOfPolicy(binding: ObjectEntry, policy: ObjectEntry): Violation[] {
  const constraints = policy.spec.matchConstraints as { resourceRules?: unknown[] } | undefined;
  const policyRules = Array.isArray(constraints?.resourceRules) ? constraints.resourceRules : [];
  const match = binding.spec.matchResources as { resourceRules?: unknown[]; excludeResourceRules?: unknown[] } | undefined;
  if (policyRules.length === 0 || !policyRules.every(isComplete) || !match) return [];
  const includes = Array.isArray(match.resourceRules) ? match.resourceRules : [];
  const excludes = (Array.isArray(match.excludeResourceRules) ? match.excludeResourceRules : []).filter(isComplete);
  const warn = (path: string, message: string): Violation[] => [{
    path, message, severity: ViolationSeverity.WARNING, kind: binding.kind, name: binding.name, manifestIndex: binding.index,
  }];
  const subject = `${policy.kind} ${JSON.stringify(policy.name)}`;
  if (includes.length > 0) {
    if (!includes.every(isComplete) || includes.some((b) => policyRules.some((p) => rulesMeet(b, p)))) return [];
    return warn('spec.matchResources.resourceRules',
      `no rule here meets a rule of ${subject}'s matchConstraints, and a binding acts only on what its policy matches: `
      + 'this binding never acts; select among the policy\'s resources, or remove the resourceRules');
  }
  if (excludes.length === 0 || !policyRules.every((p) => excludes.some((e) => ruleCovers(e, p)))) return [];
  return warn('spec.matchResources.excludeResourceRules',
    `excludes every request ${subject} matches, so this binding never acts; narrow the exclude rules, or remove them`);
}
