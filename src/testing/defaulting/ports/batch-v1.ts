import { DefaultingFunctions } from '../defaulting-function';
import { GoObject, isNil, isZeroValue, len, objectAt } from '../go-values';

/** The hand-written defaulters of batch/v1 (k8s.io/kubernetes pkg/apis/batch/v1/defaults.go), ported. */
export const BATCH_V1: DefaultingFunctions = {
  'batch/v1.SetDefaults_Job': {
    // d35d (1.28) does not default manualSelector; d35d, 4502 (1.29-1.31) and 5bfb (1.32-1.33)
    // default the pod failure policy's condition statuses here (later: their own function);
    // before 1.37 (d67a) the pod replacement policy is defaulted under JobPodReplacementPolicy.
    go: { 'batch/v1.SetDefaults_Job': ['d35d', '4502', '5bfb', '80d1', 'd67aff61bf9d'], 'batch/v1.podReplacementPolicyPtr': ['-', 'bd8b'] },
    run(job: GoObject, context) {
      const spec = objectAt(job, 'spec');
      if (isNil(spec.completions) && isNil(spec.parallelism)) {
        spec.completions = 1;
        spec.parallelism = 1;
      }
      if (isNil(spec.parallelism)) spec.parallelism = 1;
      if (isNil(spec.backoffLimit)) spec.backoffLimit = isNil(spec.backoffLimitPerIndex) ? 6 : 2147483647;
      const labels = spec.template?.metadata?.labels;
      const metadata = objectAt(job, 'metadata');
      if (!isNil(labels) && len(metadata.labels) === 0) metadata.labels = { ...labels };
      if (isNil(spec.completionMode)) spec.completionMode = 'NonIndexed';
      if (isNil(spec.suspend)) spec.suspend = false;
      if (context.minor <= 33) {
        for (const rule of Array.isArray(spec.podFailurePolicy?.rules) ? spec.podFailurePolicy.rules : []) {
          for (const pattern of Array.isArray(rule?.onPodConditions) ? rule.onPodConditions : []) if (isZeroValue(pattern.status)) pattern.status = 'True';
        }
      }
      if ((context.minor >= 37 || context.gate('JobPodReplacementPolicy')) && isNil(spec.podReplacementPolicy)) {
        spec.podReplacementPolicy = isNil(spec.podFailurePolicy) ? 'TerminatingOrFailed' : 'Failed';
      }
      if (context.minor >= 29 && isNil(spec.manualSelector)) spec.manualSelector = false;
    },
  },
  'batch/v1.SetDefaults_CronJob': {
    go: { 'batch/v1.SetDefaults_CronJob': ['8f8e', 'c177cf1c4f1d'] },
    run(cronJob: GoObject) {
      const spec = objectAt(cronJob, 'spec');
      if (isZeroValue(spec.concurrencyPolicy)) spec.concurrencyPolicy = 'Allow';
      if (isNil(spec.suspend)) spec.suspend = false;
      if (isNil(spec.successfulJobsHistoryLimit)) spec.successfulJobsHistoryLimit = 3;
      if (isNil(spec.failedJobsHistoryLimit)) spec.failedJobsHistoryLimit = 1;
    },
  },
  'batch/v1.SetDefaults_PodFailurePolicyOnPodConditionsPattern': {
    go: { 'batch/v1.SetDefaults_PodFailurePolicyOnPodConditionsPattern': ['02cec9648b74'] },
    run(pattern: GoObject) {
      if (isZeroValue(pattern.status)) pattern.status = 'True';
    },
  },
};
