import { AdmissionKind, isAdmissionKind } from '../admission-kind';
import { Violation, ViolationSeverity } from './violation';

/** The partner kinds of the two binding kinds. */
const POLICY_OF_BINDING: { readonly [binding: string]: AdmissionKind } = {
  [AdmissionKind.VALIDATING_ADMISSION_POLICY_BINDING]: AdmissionKind.VALIDATING_ADMISSION_POLICY,
  [AdmissionKind.MUTATING_ADMISSION_POLICY_BINDING]: AdmissionKind.MUTATING_ADMISSION_POLICY,
};

interface Entry {
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
  const entries = manifests.map(readEntry).filter((e): e is Entry => e !== undefined);
  return [...duplicateNames(entries), ...bindingPolicies(entries)];
}

function readEntry(manifest: unknown, index: number): Entry | undefined {
  if (typeof manifest !== 'object' || manifest === null) return undefined;
  const m = manifest as { kind?: unknown; metadata?: { name?: unknown }; spec?: unknown };
  const name = typeof m.metadata === 'object' && m.metadata !== null ? m.metadata.name : undefined;
  if (!isAdmissionKind(m.kind) || typeof name !== 'string' || name === '') return undefined;
  const spec = typeof m.spec === 'object' && m.spec !== null && !Array.isArray(m.spec) ? (m.spec as Entry['spec']) : {};
  return { index, kind: m.kind, name, spec };
}

function violation(entry: Entry, path: string, message: string): Violation {
  return { path, message, severity: ViolationSeverity.ERROR, kind: entry.kind, name: entry.name, manifestIndex: entry.index };
}

function duplicateNames(entries: readonly Entry[]): Violation[] {
  const out: Violation[] = [];
  const first = new Map<string, Entry>();
  for (const e of entries) {
    const key = `${e.kind}/${e.name}`;
    const earlier = first.get(key);
    if (earlier) {
      out.push(violation(e, 'metadata.name',
        `Duplicate value: ${JSON.stringify(e.name)}: manifest ${earlier.index} is a ${e.kind} with the same name, and one would overwrite the other on apply; rename one`));
    } else {
      first.set(key, e);
    }
  }
  return out;
}

function bindingPolicies(entries: readonly Entry[]): Violation[] {
  const out: Violation[] = [];
  const byKindAndName = new Map(entries.map((e) => [`${e.kind}/${e.name}`, e]));
  for (const binding of entries) {
    const policyKind = POLICY_OF_BINDING[binding.kind];
    const policyName = binding.spec.policyName;
    if (!policyKind || typeof policyName !== 'string') continue;
    const policy = byKindAndName.get(`${policyKind}/${policyName}`);
    if (!policy) {
      const otherKind = policyKind === AdmissionKind.VALIDATING_ADMISSION_POLICY
        ? AdmissionKind.MUTATING_ADMISSION_POLICY : AdmissionKind.VALIDATING_ADMISSION_POLICY;
      if (byKindAndName.has(`${otherKind}/${policyName}`)) {
        out.push(violation(binding, 'spec.policyName',
          `Invalid value: ${JSON.stringify(policyName)}: names a ${otherKind}, but a ${binding.kind} binds a ${policyKind}; use a ${otherKind}Binding for it`));
      }
      continue;
    }
    out.push(...paramsMismatch(binding, policy));
  }
  return out;
}

function paramsMismatch(binding: Entry, policy: Entry): Violation[] {
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
