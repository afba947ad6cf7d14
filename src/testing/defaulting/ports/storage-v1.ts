import { DefaultingFunctions } from '../defaulting-function';
import { GoObject, isNil, len, objectAt } from '../go-values';

/** The hand-written defaulters of storage/v1 (k8s.io/kubernetes pkg/apis/storage/v1/defaults.go), ported. */
export const STORAGE_V1: DefaultingFunctions = {
  'storage/v1.SetDefaults_StorageClass': {
    go: { 'storage/v1.SetDefaults_StorageClass': ['8307e5038466'] },
    run(storageClass: GoObject) {
      if (isNil(storageClass.reclaimPolicy)) storageClass.reclaimPolicy = 'Delete';
      if (isNil(storageClass.volumeBindingMode)) storageClass.volumeBindingMode = 'Immediate';
    },
  },
  'storage/v1.SetDefaults_CSIDriver': {
    go: { 'storage/v1.SetDefaults_CSIDriver': ['ac48', '44622fdca0eb'] },
    run(driver: GoObject, context) {
      const spec = objectAt(driver, 'spec');
      if (isNil(spec.attachRequired)) spec.attachRequired = true;
      if (isNil(spec.podInfoOnMount)) spec.podInfoOnMount = false;
      if (isNil(spec.storageCapacity)) spec.storageCapacity = false;
      if (isNil(spec.fsGroupPolicy)) spec.fsGroupPolicy = 'ReadWriteOnceWithFSType';
      if (len(spec.volumeLifecycleModes) === 0) spec.volumeLifecycleModes = ['Persistent'];
      if (isNil(spec.requiresRepublish)) spec.requiresRepublish = false;
      if (isNil(spec.seLinuxMount) && context.gate('SELinuxMountReadWriteOncePod')) spec.seLinuxMount = false;
      if (isNil(spec.preventPodSchedulingIfMissing) && context.gate('VolumeLimitScaling')) spec.preventPodSchedulingIfMissing = false;
    },
  },
};
