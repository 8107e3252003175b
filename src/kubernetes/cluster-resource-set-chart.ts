import { ApiObject, Chart } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import {
  ClusterResourceSet,
  ClusterResourceSetSpecResourcesKind,
  ClusterResourceSetSpecStrategy,
  ClusterResourceSetV1Beta2,
  ClusterResourceSetV1Beta2SpecResourcesKind,
  ClusterResourceSetV1Beta2SpecStrategy,
} from '../../imports/clusterresourcesets-addons.cluster.x-k8s.io';
import { annotateStages } from '../gitops/stage-annotations';

/** The default label selecting the Cluster a cluster's ClusterResourceSet applies to. */
export const CLUSTER_SELECTOR_LABEL = 'ccm-gitops.io/cluster';

/** One stage of the workload cluster's objects, serialized. */
export interface WrappedStage {
  /** The stage directory name (`NN-name`): names the ConfigMap and its key. */
  readonly directory: string;
  /** The stage's objects as one multi-document YAML. */
  readonly yaml: string;
}

/** Properties for `ClusterResourceSetChart`. */
export interface ClusterResourceSetChartProps {
  /** The cluster name (metadata.name of the spec). */
  readonly clusterName: string;
  /** Namespace of the Cluster object on the management cluster. */
  readonly namespace: string;
  /** Labels of the Cluster(s) to apply to. */
  readonly clusterSelector: Readonly<Record<string, string>>;
  /** ApplyOnce or Reconcile. */
  readonly strategy: 'ApplyOnce' | 'Reconcile';
  /** The workload cluster's objects, by stage in apply order. */
  readonly stages: readonly WrappedStage[];
  /**
   * The API version of the ClusterResourceSet: `v1beta2` needs Cluster API
   * v1.11+ (kubernetes-sigs/cluster-api@v1.11.0 api/addons/v1beta2);
   * `v1beta1` is served by every Cluster API v1.x.
   *
   * @default 'v1beta1'
   */
  readonly apiVersion?: 'v1beta1' | 'v1beta2';
  /**
   * Secrets and ConfigMaps of the management cluster it carries too, after the stages (not
   * rendered). A Secret must have type addons.cluster.x-k8s.io/resource-set
   * (kubernetes-sigs/cluster-api@27902d476e48 api/addons/v1beta1/clusterresourceset_types.go ClusterResourceSetSecretType).
   */
  readonly resources?: readonly { readonly kind: 'Secret' | 'ConfigMap'; readonly name: string }[];
}

/**
 * Output mode `cluster-resource-set` (Cluster API): the objects
 * a workload cluster needs, one ConfigMap per stage on the management
 * cluster, and a ClusterResourceSet listing them in apply order for the
 * Clusters its selector matches. Objects carry their stage's sync wave.
 */
export class ClusterResourceSetChart extends Chart {
  /** The ClusterResourceSet. */
  public readonly clusterResourceSet: ApiObject;

  constructor(scope: Construct, id: string, props: ClusterResourceSetChartProps) {
    super(scope, id, { disableResourceNameHashes: true });
    if (props.stages.length === 0) {
      throw new Error(`'stages' of the ClusterResourceSet of ${props.clusterName} must hold at least one stage, got none`);
    }
    if (Object.keys(props.clusterSelector).length === 0) {
      throw new Error(
        `'clusterSelector' of the ClusterResourceSet of ${props.clusterName} must hold at least one label, got none (it would match every Cluster)`,
      );
    }
    const names: string[] = [];
    for (const stage of props.stages) {
      const name = `ccm-${props.clusterName}-${stage.directory}`;
      names.push(name);
      new k8s.KubeConfigMap(this, `Stage-${stage.directory}`, {
        metadata: { name, namespace: props.namespace },
        data: { [`${stage.directory}.yaml`]: stage.yaml },
      });
    }
    const carried = props.resources ?? [];
    const metadata = { name: `ccm-${props.clusterName}`, namespace: props.namespace };
    const clusterSelector = { matchLabels: { ...props.clusterSelector } };
    this.clusterResourceSet =
      props.apiVersion === 'v1beta2'
        ? new ClusterResourceSetV1Beta2(this, 'Resource', {
            metadata,
            spec: {
              clusterSelector,
              strategy:
                props.strategy === 'Reconcile' ? ClusterResourceSetV1Beta2SpecStrategy.RECONCILE : ClusterResourceSetV1Beta2SpecStrategy.APPLY_ONCE,
              resources: [
                ...names.map((name) => ({ kind: ClusterResourceSetV1Beta2SpecResourcesKind.CONFIG_MAP, name })),
                ...carried.map((r) => ({
                  kind: ClusterResourceSetV1Beta2SpecResourcesKind[r.kind === 'Secret' ? 'SECRET' : 'CONFIG_MAP'],
                  name: r.name,
                })),
              ],
            },
          })
        : new ClusterResourceSet(this, 'Resource', {
            metadata,
            spec: {
              clusterSelector,
              strategy: props.strategy === 'Reconcile' ? ClusterResourceSetSpecStrategy.RECONCILE : ClusterResourceSetSpecStrategy.APPLY_ONCE,
              resources: [
                ...names.map((name) => ({ kind: ClusterResourceSetSpecResourcesKind.CONFIG_MAP, name })),
                ...carried.map((r) => ({ kind: ClusterResourceSetSpecResourcesKind[r.kind === 'Secret' ? 'SECRET' : 'CONFIG_MAP'], name: r.name })),
              ],
            },
          });
  }

  /** Adds each object's sync wave before rendering. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the signature of cdk8s's Chart.toJson
  public override toJson(): any[] {
    annotateStages(this);
    return super.toJson();
  }
}
