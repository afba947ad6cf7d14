import { DefaultingFunctions } from '../defaulting-function';
import { GoObject, isNil, len, objectAt } from '../go-values';

/** The hand-written defaulters of networking/v1 (k8s.io/kubernetes pkg/apis/networking/v1/defaults.go), ported. */
export const NETWORKING_V1: DefaultingFunctions = {
  'networking/v1.SetDefaults_NetworkPolicyPort': {
    go: { 'networking/v1.SetDefaults_NetworkPolicyPort': ['6c4c46a9e120'] },
    run(port: GoObject) {
      if (isNil(port.protocol)) port.protocol = 'TCP';
    },
  },
  'networking/v1.SetDefaults_NetworkPolicy': {
    go: { 'networking/v1.SetDefaults_NetworkPolicy': ['01dfe33b2b73'] },
    run(policy: GoObject) {
      const spec = objectAt(policy, 'spec');
      // A policy without policyTypes is an Ingress policy, and an Egress one too when it has egress rules.
      if (len(spec.policyTypes) === 0) spec.policyTypes = len(spec.egress) !== 0 ? ['Ingress', 'Egress'] : ['Ingress'];
    },
  },
  'networking/v1.SetDefaults_IngressClass': {
    go: { 'networking/v1.SetDefaults_IngressClass': ['cd65', '2ad25bbf3042'] },
    run(ingressClass: GoObject) {
      const parameters = ingressClass.spec?.parameters;
      if (!isNil(parameters) && isNil(parameters.scope)) parameters.scope = 'Cluster';
    },
  },
};
