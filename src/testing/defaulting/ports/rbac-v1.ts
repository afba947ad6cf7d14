import { DefaultingFunctions } from '../defaulting-function';
import { GoObject, len, objectAt } from '../go-values';

const GROUP = 'rbac.authorization.k8s.io';

/** The hand-written defaulters of rbac/v1 (k8s.io/kubernetes pkg/apis/rbac/v1/defaults.go), ported. */
export const RBAC_V1: DefaultingFunctions = {
  'rbac/v1.SetDefaults_ClusterRoleBinding': {
    go: { 'rbac/v1.SetDefaults_ClusterRoleBinding': ['9693820ec426'] },
    run: defaultRoleRef,
  },
  'rbac/v1.SetDefaults_RoleBinding': {
    go: { 'rbac/v1.SetDefaults_RoleBinding': ['d98242892245'] },
    run: defaultRoleRef,
  },
  'rbac/v1.SetDefaults_Subject': {
    go: { 'rbac/v1.SetDefaults_Subject': ['99b39fb5638c'] },
    run(subject: GoObject) {
      if (len(subject.apiGroup) !== 0) return;
      if (subject.kind === 'ServiceAccount') subject.apiGroup = '';
      else if (subject.kind === 'User' || subject.kind === 'Group') subject.apiGroup = GROUP;
    },
  },
};

function defaultRoleRef(binding: GoObject): void {
  const roleRef = objectAt(binding, 'roleRef');
  if (len(roleRef.apiGroup) === 0) roleRef.apiGroup = GROUP;
}
