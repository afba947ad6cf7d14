// Public exports only: everything else under src/ is internal.
export { AdmissionKind } from './admission-kind';
export { AdmissionPolicy } from './admission-policy';
export { AdmissionPolicyBinding, AdmissionPolicyBindingOptions } from './admission-policy-binding';
export { AdmissionWarnings } from './admission-warnings';
export * from './enums';
export { KubernetesVersion } from './kubernetes-version';
export { LabelSelector, LabelSelectorOperator, LabelSelectorRequirement } from './label-selector';
export { IMutatingPolicy, MutatingPolicy, MutatingPolicyProps } from './mutating-policy';
export { MutatingPolicyBinding, MutatingPolicyBindingOptions, MutatingPolicyBindingProps } from './mutating-policy-binding';
export { Mutation } from './mutation';
export { MatchCondition, MatchResources, ParamKind, ParamRef, Variable } from './policy-parts';
export { AdmissionPolicyProps } from './policy-props';
export { AdmissionResource, AdmissionResourceOptions, ResourceRule } from './resource-rule';
export { RolloutStage } from './rollout-stage';
export { AuditAnnotation, IValidatingPolicy, ValidatingPolicy, ValidatingPolicyProps, Validation } from './validating-policy';
export { ValidatingPolicyBinding, ValidatingPolicyBindingOptions, ValidatingPolicyBindingProps } from './validating-policy-binding';
export { ManifestValidator, ValidationOptions } from './validation/manifest-validator';
export { Violation, ViolationSeverity } from './validation/violation';
