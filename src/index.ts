export { AdmissionKind } from './admission-kind';
export * from './enums';
export * from './kubernetes-version';
export * from './validation/violation';
export * from './validation/manifest-validator';
