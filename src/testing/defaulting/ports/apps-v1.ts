import { DefaultingFunctions } from '../defaulting-function';
import { GoObject, isNil, isZeroValue, objectAt } from '../go-values';

/** The hand-written defaulters of apps/v1 (k8s.io/kubernetes pkg/apis/apps/v1/defaults.go), ported. */
export const APPS_V1: DefaultingFunctions = {
  'apps/v1.SetDefaults_Deployment': {
    go: { 'apps/v1.SetDefaults_Deployment': ['f256a4d728ca'] },
    run(deployment: GoObject) {
      const spec = objectAt(deployment, 'spec');
      if (isNil(spec.replicas)) spec.replicas = 1;
      const strategy = objectAt(spec, 'strategy');
      if (isZeroValue(strategy.type)) strategy.type = 'RollingUpdate';
      if (strategy.type === 'RollingUpdate') {
        const rollingUpdate = objectAt(strategy, 'rollingUpdate');
        if (isNil(rollingUpdate.maxUnavailable)) rollingUpdate.maxUnavailable = '25%';
        if (isNil(rollingUpdate.maxSurge)) rollingUpdate.maxSurge = '25%';
      }
      if (isNil(spec.revisionHistoryLimit)) spec.revisionHistoryLimit = 10;
      if (isNil(spec.progressDeadlineSeconds)) spec.progressDeadlineSeconds = 600;
    },
  },
  'apps/v1.SetDefaults_DaemonSet': {
    go: { 'apps/v1.SetDefaults_DaemonSet': ['a640', '1808c44ad50c'] },
    run(daemonSet: GoObject) {
      const spec = objectAt(daemonSet, 'spec');
      const updateStrategy = objectAt(spec, 'updateStrategy');
      if (isZeroValue(updateStrategy.type)) updateStrategy.type = 'RollingUpdate';
      if (updateStrategy.type === 'RollingUpdate') {
        const rollingUpdate = objectAt(updateStrategy, 'rollingUpdate');
        if (isNil(rollingUpdate.maxUnavailable)) rollingUpdate.maxUnavailable = 1;
        if (isNil(rollingUpdate.maxSurge)) rollingUpdate.maxSurge = 0;
      }
      if (isNil(spec.revisionHistoryLimit)) spec.revisionHistoryLimit = 10;
    },
  },
  'apps/v1.SetDefaults_StatefulSet': {
    // f7b9 (1.28) and 9331 (1.29-1.34) default the claim retention policy under StatefulSetAutoDeletePVC.
    go: { 'apps/v1.SetDefaults_StatefulSet': ['f7b9', '9331', '7136c363eecc'] },
    run(statefulSet: GoObject, context) {
      const spec = objectAt(statefulSet, 'spec');
      if (isZeroValue(spec.podManagementPolicy)) spec.podManagementPolicy = 'OrderedReady';
      const updateStrategy = objectAt(spec, 'updateStrategy');
      if (isZeroValue(updateStrategy.type)) {
        updateStrategy.type = 'RollingUpdate';
        if (isNil(updateStrategy.rollingUpdate)) updateStrategy.rollingUpdate = {};
      }
      if (updateStrategy.type === 'RollingUpdate' && !isNil(updateStrategy.rollingUpdate)) {
        if (isNil(updateStrategy.rollingUpdate.partition)) updateStrategy.rollingUpdate.partition = 0;
        if (context.gate('MaxUnavailableStatefulSet') && isNil(updateStrategy.rollingUpdate.maxUnavailable)) updateStrategy.rollingUpdate.maxUnavailable = 1;
      }
      if (context.minor >= 35 || context.gate('StatefulSetAutoDeletePVC')) {
        const retention = objectAt(spec, 'persistentVolumeClaimRetentionPolicy');
        if (isZeroValue(retention.whenDeleted)) retention.whenDeleted = 'Retain';
        if (isZeroValue(retention.whenScaled)) retention.whenScaled = 'Retain';
      }
      if (isNil(spec.replicas)) spec.replicas = 1;
      if (isNil(spec.revisionHistoryLimit)) spec.revisionHistoryLimit = 10;
    },
  },
  'apps/v1.SetDefaults_ReplicaSet': {
    go: { 'apps/v1.SetDefaults_ReplicaSet': ['a0e6e95247e8'] },
    run(replicaSet: GoObject) {
      const spec = objectAt(replicaSet, 'spec');
      if (isNil(spec.replicas)) spec.replicas = 1;
    },
  },
};
