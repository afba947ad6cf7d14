import { AdmissionKind } from '../admission-kind';
import { duplicate, FieldViolation, invalid, invalidEach, notSupported, required, warning } from './field-errors';
import { FieldPath } from './field-path';
import { validateLabelSelector } from './label-selector';
import { validateMatchConditions } from './match-conditions';

import { validateObjectMeta } from './metadata';
import { FAILURE_POLICIES, MATCH_POLICIES, REINVOCATION_POLICIES, SIDE_EFFECTS_ON_CREATE } from './policy-enums';
import { validateRuleWithOperations } from './resource-rules';
import { RuleContext } from './rule-context';
import { lintRule } from './served-resources';
import { validateApiObjectName } from './static-suffix';
import { validateClientConfig } from './webhook-client-config';
import { lintWebhook } from './webhook-lints';
import { ExpressionField } from '../shared/expression-field';
import { isDns1035Label, isDns1123Subdomain } from '../shared/name-formats';
import type { MutatingWebhook, ValidatingWebhook } from '../wire/admissionregistration';
import type { ObjectMeta } from '../wire/meta';


const REVIEW_VERSIONS = ['v1', 'v1beta1'];

/** A webhook of either configuration kind, as read from the wire. */
type AnyWebhook = ValidatingWebhook & Pick<MutatingWebhook, 'reinvocationPolicy'>;

interface WebhookConfigurationLike {
  readonly metadata?: ObjectMeta;
  readonly webhooks?: readonly AnyWebhook[];
}

/**
 * A ValidatingWebhookConfiguration or MutatingWebhookConfiguration (k8s.io/kubernetes
 * pkg/apis/admissionregistration/validation/validation.go: validateValidatingWebhookConfiguration and validateValidatingWebhook, and their mutating twins).
 */
export function validateWebhookConfiguration(config: WebhookConfigurationLike, kind: AdmissionKind, ctx: RuleContext): FieldViolation[] {
  const out = [...validateObjectMeta(config.metadata), ...validateApiObjectName(config.metadata, ctx)];
  const seen = new Set<string>();
  const injected = Object.keys(config.metadata?.annotations ?? {}).find((k) => k.startsWith('cert-manager.io/inject-'));
  (config.webhooks ?? []).forEach((webhook, i) => {
    if (injected && webhook?.clientConfig?.caBundle !== undefined) {
      out.push(warning(FieldPath.root('webhooks').index(i).child('clientConfig').child('caBundle'),
        `the ${injected} annotation has cert-manager inject the CA here: a caBundle in the manifest gives the field two writers, and a `
        + 'self-healing GitOps controller and cainjector then overwrite each other; leave caBundle out'));
    }
    if (!webhook) return;
    const path = FieldPath.root('webhooks').index(i);
    out.push(...validateWebhook(webhook, path, ctx, kind === AdmissionKind.MUTATING_WEBHOOK_CONFIGURATION));
    if (webhook.name) {
      if (seen.has(webhook.name)) out.push(duplicate(path.child('name'), webhook.name));
      seen.add(webhook.name);
    }
  });
  return out;
}

function validateWebhook(webhook: AnyWebhook, path: FieldPath, ctx: RuleContext, mutating: boolean): FieldViolation[] {
  const out: FieldViolation[] = [];
  out.push(...validateWebhookName(webhook.name, path.child('name')));
  (webhook.rules ?? []).forEach((rule, j) => {
    if (rule) out.push(...validateRuleWithOperations(rule, path.child('rules').index(j)), ...lintRule(rule, path.child('rules').index(j), ctx));
  });
  if (webhook.failurePolicy !== undefined && !FAILURE_POLICIES.includes(webhook.failurePolicy)) {
    out.push(notSupported(path.child('failurePolicy'), webhook.failurePolicy, FAILURE_POLICIES));
  }
  if (webhook.matchPolicy !== undefined && !MATCH_POLICIES.includes(webhook.matchPolicy)) {
    out.push(notSupported(path.child('matchPolicy'), webhook.matchPolicy, MATCH_POLICIES));
  }
  // An explicit "" is a set value (the field is a pointer in Go): Unsupported, not Required.
  if (webhook.sideEffects === undefined) {
    out.push(required(path.child('sideEffects'), 'must specify one of None, NoneOnDryRun'));
  } else if (!SIDE_EFFECTS_ON_CREATE.includes(webhook.sideEffects)) {
    out.push(notSupported(path.child('sideEffects'), webhook.sideEffects, SIDE_EFFECTS_ON_CREATE));
  }
  if (webhook.timeoutSeconds !== undefined && (webhook.timeoutSeconds < 1 || webhook.timeoutSeconds > 30)) {
    out.push(invalid(path.child('timeoutSeconds'), webhook.timeoutSeconds, 'the timeout value must be between 1 and 30 seconds'));
  }
  out.push(...validateLabelSelector(webhook.namespaceSelector, path.child('namespaceSelector')));
  out.push(...validateLabelSelector(webhook.objectSelector, path.child('objectSelector')));
  out.push(...validateClientConfig(webhook.clientConfig, path.child('clientConfig')));
  out.push(...validateReviewVersions(webhook.admissionReviewVersions, path.child('admissionReviewVersions')));
  out.push(...validateMatchConditions(webhook.matchConditions ?? [], path.child('matchConditions'), ctx,
    { field: ExpressionField.WEBHOOK_MATCH_CONDITION, hasParams: false }, { rules: webhook.rules, what: 'webhook' }));
  out.push(...lintWebhook(webhook, path, ctx.kubernetesVersion));
  if (mutating && webhook.reinvocationPolicy !== undefined && !REINVOCATION_POLICIES.includes(webhook.reinvocationPolicy)) {
    out.push(notSupported(path.child('reinvocationPolicy'), webhook.reinvocationPolicy, REINVOCATION_POLICIES));
  }
  return out;
}

/** apimachinery `IsFullyQualifiedName`: a DNS subdomain with at least three segments. */
function validateWebhookName(name: string | undefined, path: FieldPath): FieldViolation[] {
  if (!name) return [required(path)];
  const errors = isDns1123Subdomain(name);
  if (errors.length > 0) return [invalid(path, name, errors.join(','))];
  if (name.split('.').length < 3) {
    return [invalid(path, name, 'should be a domain with at least three segments separated by dots')];
  }
  return [];
}

function validateReviewVersions(versions: readonly string[] | undefined, path: FieldPath): FieldViolation[] {
  if (!versions || versions.length === 0) return [required(path, 'must specify one of v1, v1beta1')];
  const out: FieldViolation[] = [];
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    if (typeof v !== 'string') return;
    // As the apiserver does, a repeated version is reported as a duplicate only.
    if (seen.has(v)) {
      out.push(invalid(path.index(i), v, 'duplicate version'));
      return;
    }
    seen.add(v);
    out.push(...invalidEach(path.index(i), v, isDns1035Label(v)));
  });
  if (!versions.some((v) => REVIEW_VERSIONS.includes(v))) {
    out.push(invalid(path, versions, 'must include at least one of v1, v1beta1'));
  }
  return out;
}
