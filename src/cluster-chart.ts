import { ApiObject, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { SYNC_WAVE_ANNOTATION, stageOf } from './gitops/stages';
import { CloudCredentialsRequest } from './openshift/cloud-credentials-request';
import { OpenShiftStaticSet } from './openshift/openshift-static-set';
import { platformFor } from './platforms';
import { PreparedCluster } from './platforms/platform';

/** Annotations that keep Argo CD and Flux from deleting an object when it leaves git. */
export const PRUNE_PROTECTION: Readonly<Record<string, string>> = {
  'argocd.argoproj.io/sync-options': 'Prune=false',
  'kustomize.toolkit.fluxcd.io/prune': 'disabled',
};

/**
 * Kinds never pruned: deleting a Namespace deletes all it holds; deleting a
 * CredentialsRequest makes the cloud-credential-operator delete the
 * credentials Secret the CCM runs with; the ClusterOperator belongs to the
 * cluster-version operator's bookkeeping.
 */
export const PRUNE_PROTECTED_KINDS: readonly string[] = ['Namespace', 'CredentialsRequest', 'ClusterOperator'];

/** Properties for `ClusterChart`. */
export interface ClusterChartProps {
  /** The validated cluster with its transformed cloud config. */
  readonly cluster: PreparedCluster;
}

/**
 * Every object one cluster needs on the cluster itself: the OpenShift static
 * set, the platform's CredentialsRequest and, in `gitops` mode, the platform
 * operands. Each object is annotated with the sync wave of its stage.
 */
export class ClusterChart extends Chart {
  constructor(scope: Construct, id: string, props: ClusterChartProps) {
    super(scope, id, { disableResourceNameHashes: true });
    const { spec } = props.cluster.spec;
    const platform = platformFor(spec.platform);
    if (!platform) {
      throw new Error(`'spec.platform' "${spec.platform}" is not rendered by this version`);
    }
    new OpenShiftStaticSet(this, 'StaticSet', {
      platformType: spec.platform,
      managementMode: spec.managementMode,
      images: spec.images,
      proxy: spec.proxy,
      cloudNodeManager: platform.cloudNodeManager,
    });
    if (platform.credentialsRequest) {
      new CloudCredentialsRequest(this, 'CredentialsRequest', platform.credentialsRequest);
    }
    if (spec.managementMode === 'gitops') {
      platform.renderOperands(this, props.cluster);
    }
  }

  /** Adds each object's sync wave (and prune protection) before rendering. */
  public override toJson(): any[] {
    for (const child of this.node.findAll()) {
      if (child instanceof ApiObject) {
        child.metadata.addAnnotation(SYNC_WAVE_ANNOTATION, String(stageOf(child.apiVersion, child.kind).order));
        if (PRUNE_PROTECTED_KINDS.includes(child.kind)) {
          for (const [key, value] of Object.entries(PRUNE_PROTECTION)) {
            child.metadata.addAnnotation(key, value);
          }
        }
      }
    }
    return super.toJson();
  }
}
