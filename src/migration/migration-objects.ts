import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { CCM_LEASE_NAME, ccmLeaderMigrationMount } from './cluster-migration';
import { MigrationControlPlane } from './control-plane';
import { MigrationInput } from './flags';
import { phasePlan } from './phase-plan';
import { LeaderMigrationConfigMap } from './leader-migration-config-map';
import { LeaderMigrationRbac } from './leader-migration-rbac';
import { ccmLeaderMigrationIn, isLeaderMigrationPhase } from './phases';
import { PlatformRole } from '../constructs/platform-role';
import { CCM_LEASE_NAMESPACE_RBAC_NAME, LEADER_MIGRATION_RBAC_NAME } from '../gitops/stages';

// The names decide the lease RBAC's stage (after the workloads), so they live with the stages.
export { CCM_LEASE_NAMESPACE_RBAC_NAME, LEADER_MIGRATION_RBAC_NAME } from '../gitops/stages';

/** Properties for `MigrationObjects`. */
export interface MigrationObjectsProps {
  /** The cluster's migration. */
  readonly migration: MigrationInput;
  /** Phase in-tree: render the lease RBAC ahead of the move. */
  readonly preStage: boolean;
  /** Whether the CCM Deployment is rendered here (gitops mode). */
  readonly ccmRendered: boolean;
  /**
   * Namespace of the CCM (where its LeaderMigrationConfiguration ConfigMap
   * goes): the distribution's `MigrationTarget.ccmNamespace`.
   */
  readonly ccmNamespace: string;
  /** The CCM's ServiceAccount name: the distribution's `MigrationTarget.ccmServiceAccount`. */
  readonly ccmServiceAccount: string;
  /**
   * How the distribution's control plane changes: its objects of the phase
   * are rendered after the protocol's (`MigrationTarget.controlPlane`).
   */
  readonly controlPlane: MigrationControlPlane;
}

/**
 * The objects a migration phase adds to a cluster's operands (the CCM
 * Deployment's own flags and mount are set by the platform construct):
 * - leader-migration phases: the CCM's LeaderMigrationConfiguration
 *   ConfigMap, the migration-lease Role/RoleBinding for both controller
 *   managers and the CCM's Role in the lease namespace;
 * - in-tree with pre-staging: the lease RBAC;
 * - then what the distribution's control plane needs in the phase
 *   (`MigrationControlPlane.renderObjects`; OpenShift: the MachineConfig
 *   writing the kube-controller-manager's file, the FeatureGate that makes
 *   the operators switch).
 */
export class MigrationObjects extends Construct {
  /** The objects rendered. */
  public readonly objects: ApiObject[] = [];

  constructor(scope: Construct, id: string, props: MigrationObjectsProps) {
    super(scope, id);
    const m = props.migration;
    const support = m.support;
    const ccmNamespace = props.ccmNamespace;
    const ccmSa = `${ccmNamespace}/${props.ccmServiceAccount}`;
    const ccmConfig = phasePlan(m).ccm.config;
    const lease = () => {
      const rbac = new LeaderMigrationRbac(this, 'LeaseRbac', {
        name: LEADER_MIGRATION_RBAC_NAME,
        leaseNamespace: m.leaseNamespace,
        leaderName: m.leaderName,
        ccmServiceAccount: ccmSa,
      });
      this.objects.push(rbac.role, rbac.binding);
    };
    const migrates = support !== undefined && !support.noLeaderMigration;

    if (ccmConfig && props.ccmRendered) {
      const mount = ccmLeaderMigrationMount(m)!;
      this.objects.push(
        new LeaderMigrationConfigMap(this, 'ConfigMap', { name: mount.configMapName, namespace: ccmNamespace, config: ccmConfig }).apiObject,
      );
    }
    if (ccmLeaderMigrationIn(m.phase) && migrates && props.ccmRendered && m.leaseNamespace !== ccmNamespace) {
      // the CCM's own lease and leader-election events in the KCM's lease namespace, where its usual role does not reach
      const rbac = new PlatformRole(this, 'CcmLeaseRbac', {
        name: CCM_LEASE_NAMESPACE_RBAC_NAME,
        namespace: m.leaseNamespace,
        bindingName: CCM_LEASE_NAMESPACE_RBAC_NAME,
        serviceAccounts: [ccmSa],
        rules: [
          // client-go leaselock.go: Get, Create, Update only; tools/record/event.go: events Create and Patch only
          { apiGroups: ['coordination.k8s.io'], resources: ['leases'], resourceNames: [CCM_LEASE_NAME], verbs: ['get', 'update'] },
          { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
          { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
        ],
      });
      this.objects.push(rbac.apiObject, rbac.binding.apiObject);
    }
    if (migrates && (isLeaderMigrationPhase(m.phase) || (m.phase === 'in-tree' && props.preStage))) {
      lease();
    }
    this.objects.push(...props.controlPlane.renderObjects(this, m));
  }
}
