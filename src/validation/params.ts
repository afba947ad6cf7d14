import { FieldViolation, forbidden, invalid, invalidEach, notSupported, required } from './field-errors';
import { FieldPath } from './field-path';
import { validateLabelSelector } from './label-selector';
import { isDns1035Label, isDns1123Subdomain, isPathSegmentName } from '../shared/name-formats';
import type { ParamKind, ParamRef } from '../wire/admissionregistration';

/** In the apiserver's order (not sorted). */
const PARAMETER_NOT_FOUND_ACTIONS = ['Deny', 'Allow'];

/** The kind of a policy's parameter resources (k8s.io/kubernetes pkg/apis/admissionregistration/validation/validation.go: validateParamKind). */
export function validateParamKind(paramKind: ParamKind, path: FieldPath): FieldViolation[] {
  const out: FieldViolation[] = [];
  const apiVersionPath = path.child('apiVersion');
  const apiVersion = paramKind.apiVersion ?? '';
  if (apiVersion === '') {
    out.push(required(apiVersionPath));
  } else {
    const parts = apiVersion.split('/');
    if (parts.length > 2) {
      out.push(invalid(apiVersionPath, apiVersion, `unexpected GroupVersion string: ${apiVersion}`));
    } else {
      const [group, version] = parts.length === 2 ? parts : ['', parts[0]];
      // Each part is one error with its details joined by ',', as the apiserver reports it.
      if (group !== '') out.push(...invalidJoined(apiVersionPath, group, isDns1123Subdomain(group)));
      if (version === '') {
        out.push(invalid(apiVersionPath, apiVersion, 'version must be specified'));
      } else {
        out.push(...invalidJoined(apiVersionPath, version, isDns1035Label(version)));
      }
    }
  }
  const kind = paramKind.kind ?? '';
  if (kind === '') {
    out.push(required(path.child('kind')));
  } else {
    const details = isDns1035Label(kind.toLowerCase());
    if (details.length > 0) {
      out.push(invalid(path.child('kind'), kind, `may have mixed case, but should otherwise match: ${details.join(',')}`));
    }
  }
  return out;
}

function invalidJoined(path: FieldPath, value: string, details: readonly string[]): FieldViolation[] {
  return details.length > 0 ? [invalid(path, value, details.join(','))] : [];
}

/** A binding's reference to its parameter resources (pkg/apis/admissionregistration/validation/validation.go: validateParamRef). */
export function validateParamRef(paramRef: ParamRef, path: FieldPath, v1alpha1: boolean): FieldViolation[] {
  const out: FieldViolation[] = [];
  const hasName = paramRef.name !== undefined && paramRef.name !== '';
  const hasSelector = paramRef.selector !== undefined;
  if (hasName && hasSelector) {
    out.push(forbidden(path.child('name'), 'name and selector are mutually exclusive'));
    out.push(forbidden(path.child('selector'), 'name and selector are mutually exclusive'));
  }
  if (!hasName && !hasSelector) {
    out.push(required(path, 'one of name or selector must be specified'));
  }
  if (hasName) out.push(...invalidEach(path.child('name'), paramRef.name, isPathSegmentName(paramRef.name!)));
  if (hasSelector) out.push(...validateLabelSelector(paramRef.selector, path.child('selector')));
  const action = paramRef.parameterNotFoundAction;
  if (action === undefined || action === '') {
    // v1alpha1 (MutatingAdmissionPolicyBinding on 1.32-1.33) defaults it to Deny, but only when
    // absent: an explicit "" is not defaulted and is rejected.
    if (!v1alpha1 || action === '') out.push(required(path.child('parameterNotFoundAction')));
  } else if (!PARAMETER_NOT_FOUND_ACTIONS.includes(action)) {
    out.push(notSupported(path.child('parameterNotFoundAction'), action, PARAMETER_NOT_FOUND_ACTIONS));
  }
  return out;
}
