import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { ExternalCloudProviderFeatureGate, ExternalCloudProviderFeatureSet } from './external-cloud-provider-feature-gate';
import { LeaderMigrationMachineConfig } from './leader-migration-machine-config';
import {
  customNoUpgradeAt,
  featureGatesOf,
  migrates,
  OPENSHIFT_KCM_HOST_PATH,
  OPENSHIFT_LEADER_MIGRATION_MACHINE_CONFIG,
  OPENSHIFT_MIGRATION_CONTROL_PLANE_FACTS,
  openshiftControlPlanePlan,
  openshiftPlanInput,
} from './migration-control-plane';
import { MigrationControlPlane } from '../../migration/control-plane';
import { MigrationInput } from '../../migration/flags';
import { phasePlan } from '../../migration/phase-plan';
import { isLeaderMigrationPhase } from '../../migration/phases';

/**
 * OpenShift's control plane in the migration.
 *
 * @param featureSet the feature set of the FeatureGate (`spec.migration.featureSet`)
 */
export function openshiftMigrationControlPlane(featureSet: ExternalCloudProviderFeatureSet): MigrationControlPlane {
  return {
    ...OPENSHIFT_MIGRATION_CONTROL_PLANE_FACTS,
    renderObjects: (scope: Construct, m: MigrationInput): ApiObject[] => {
      const objects: ApiObject[] = [];
      if (migrates(m) && isLeaderMigrationPhase(m.phase)) {
        // The KCM's own file. It outlives the override that points at it: it is rendered from
        // leader-migration-kcm through external-leader-migration, where the override is removed,
        // and pruned only in external (or, on rollback, after the override is gone).
        const kcmFile = phasePlan({ ...m, phase: 'leader-migration-kcm' }).kcm.file!;
        objects.push(
          new LeaderMigrationMachineConfig(scope, 'MachineConfig', {
            name: OPENSHIFT_LEADER_MIGRATION_MACHINE_CONFIG,
            path: OPENSHIFT_KCM_HOST_PATH,
            content: kcmFile,
          }).apiObject,
        );
      }
      const gates = featureGatesOf(m);
      if (gates) {
        // CustomNoUpgrade replaces the release's Default set: keep its lists and add the external gates.
        const props = featureSet === 'CustomNoUpgrade' ? customNoUpgradeAt(m.kubernetesMinor, gates) : { enabled: gates, disabled: [] };
        objects.push(
          new ExternalCloudProviderFeatureGate(scope, 'FeatureGate', { gates: props.enabled, disabled: props.disabled, featureSet }).apiObject,
        );
      }
      return objects;
    },
    plan: (m) => openshiftControlPlanePlan(m, openshiftPlanInput(m, featureSet)),
  };
}
