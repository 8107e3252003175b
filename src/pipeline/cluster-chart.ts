import { ApiObject, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { distributionOf } from '../distributions';
import { MigrationObjects } from '../migration/migration-objects';
import { migrationTargetFor } from './migration-rendering';
import { ccmDeployedIn } from '../migration/phases';
import { annotateStages } from '../gitops/stage-annotations';
import { PreparedCluster } from '../cluster/prepared-cluster';

export { PRUNE_PROTECTED_KINDS, PRUNE_PROTECTION } from '../gitops/stage-annotations';

/** Kinds rendered ahead of the move in phase in-tree with `preStage`. */
export const PRE_STAGED_KINDS: readonly string[] = ['ServiceAccount', 'Role', 'RoleBinding', 'ClusterRole', 'ClusterRoleBinding'];

/** Properties for `ClusterChart`. */
export interface ClusterChartProps {
  /** The validated cluster with its transformed cloud config. */
  readonly cluster: PreparedCluster;
}

/**
 * Every object one cluster needs on the cluster itself: what its
 * distribution renders (`distributions.ts`; OpenShift: the static set, the
 * platform's CredentialsRequest and, in `gitops` mode, the platform operands;
 * Kubernetes: the upstream CCM), and the migration objects of the phase. Each object is annotated with
 * the sync wave of its stage.
 */
export class ClusterChart extends Chart {
  /** The migration objects, when the spec declares a migration. */
  public readonly migration?: MigrationObjects;

  constructor(scope: Construct, id: string, props: ClusterChartProps) {
    super(scope, id, { disableResourceNameHashes: true });
    const { spec } = props.cluster.spec;
    const renderOperands = distributionOf(props.cluster.spec).renderCluster(this, props.cluster);
    const migration = props.cluster.migration;
    const phase = migration?.phase ?? 'external';
    const preStage = spec.migration?.preStage ?? false;
    if (spec.managementMode === 'gitops' && ccmDeployedIn(phase)) {
      renderOperands(this);
    } else if (spec.managementMode === 'gitops' && (preStage || phase === 'leader-migration-kcm')) {
      // in-tree pre-staged, or leader-migration-kcm: the operands' RBAC only; the CCM does not run yet
      const staged = new Construct(this, 'PreStaged');
      renderOperands(staged);
      for (const child of staged.node.findAll().reverse()) {
        if (child instanceof ApiObject && !PRE_STAGED_KINDS.includes(child.kind)) {
          child.node.scope!.node.tryRemoveChild(child.node.id);
        }
      }
    }
    if (migration) {
      const target = migrationTargetFor(props.cluster.spec);
      this.migration = new MigrationObjects(this, 'Migration', {
        migration,
        preStage,
        ccmRendered: spec.managementMode === 'gitops',
        ccmNamespace: target.ccmNamespace,
        ccmServiceAccount: target.ccmServiceAccount,
        controlPlane: target.controlPlane,
      });
    }
  }

  /** Adds each object's sync wave (and prune protection) before rendering. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the signature of cdk8s's Chart.toJson
  public override toJson(): any[] {
    annotateStages(this);
    return super.toJson();
  }
}
