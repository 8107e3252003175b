import { CCM_SERVICE_ACCOUNT, OPERAND_NAMESPACE } from './constants';
import { ExternalCloudProviderFeatureSet } from './migration/external-cloud-provider-feature-gate';
import { openshiftMigrationControlPlane } from './migration/migration-control-plane-objects';
import { CCM_PLATFORM_LABEL } from './pod-conventions';
import { MigrationTarget } from '../migration/target';

/**
 * The OpenShift side of a migration: the CCM Deployment of the platform in
 * openshift-cloud-controller-manager, labelled with the platform label; the
 * control plane changed through a MachineConfig, the KubeControllerManager
 * override and the FeatureGate (src/openshift/migration/).
 *
 * @param featureSet the feature set of the FeatureGate (`spec.migration.featureSet`)
 * @param platform the platform type: the CCM Deployment of every platform with a migration is `<platform>-cloud-controller-manager`
 */
export function openshiftMigrationTarget(featureSet: ExternalCloudProviderFeatureSet = 'CustomNoUpgrade', platform?: string): MigrationTarget {
  return {
    ccmNamespace: OPERAND_NAMESPACE,
    ccmServiceAccount: CCM_SERVICE_ACCOUNT,
    isCcmWorkload: (o) =>
      (o.kind === 'Deployment' || o.kind === 'DaemonSet') &&
      (o.metadata as { labels?: Record<string, string> }).labels?.[CCM_PLATFORM_LABEL] !== undefined,
    // named when the phase renders no CCM (in-tree, leader-migration-kcm): the Deployment the later phases render
    ccmWorkload: `deployment/${platform ? `${platform.toLowerCase()}-` : ''}cloud-controller-manager`,
    controlPlane: openshiftMigrationControlPlane(featureSet),
  };
}
