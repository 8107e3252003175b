import { Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { ArgoCdApplication } from './argocd-application';
import { FluxStage, FluxStageChain } from './flux-stage-chain';
import { argoCdDestination } from './repo-path';
import { ClusterSpec } from '../cluster-spec/schema';

/** An Argo CD destination as Application props. */
export function destinationProps(d: { server?: string; name?: string }): { destinationServer?: string; destinationName?: string } {
  return d.name !== undefined ? { destinationName: d.name } : { destinationServer: d.server };
}

/** Properties for `ClusterGitOpsChart`. */
export interface ClusterGitOpsChartProps {
  /** The cluster's spec. */
  readonly spec: ClusterSpec;
  /** The cluster's non-empty stages with their health checks, in apply order. */
  readonly stages: readonly FluxStage[];
  /** Repository path of the cluster's rendered folder (derived from the output folder, e.g. `dist/<cluster>`). */
  readonly repoPath: string;
}

/**
 * The objects that tell a GitOps engine to apply one cluster's stages: an
 * Argo CD Application (`argocd`) or a Flux GitRepository plus one
 * Kustomization per stage (`flux`). Empty for `plain`, and for Flux when
 * the cluster has no stage (phase `in-tree`). They live in the
 * engine's namespace, usually on a management cluster, so they are written
 * apart from the stages.
 */
export class ClusterGitOpsChart extends Chart {
  constructor(scope: Construct, id: string, props: ClusterGitOpsChartProps) {
    super(scope, id, { disableResourceNameHashes: true });
    const name = props.spec.metadata.name;
    const gitops = props.spec.spec.gitops;
    const path = props.repoPath;
    if (gitops.engine === 'argocd') {
      new ArgoCdApplication(this, 'Application', {
        name: `ccm-${name}`,
        namespace: gitops.argocd.namespace,
        project: gitops.argocd.project,
        repoURL: gitops.repoURL!,
        revision: gitops.revision,
        path,
        ...destinationProps(argoCdDestination(props.spec)),
      });
    } else if (gitops.engine === 'flux' && props.stages.length > 0) {
      // A cluster with nothing to apply (phase in-tree) has no stage to chain: no Flux object at all.
      new FluxStageChain(this, 'Flux', {
        name: `ccm-${name}`,
        namespace: gitops.flux.namespace,
        repoURL: gitops.repoURL!,
        revision: gitops.revision,
        path,
        interval: gitops.flux.interval,
        secretRef: gitops.flux.secretRef,
        stages: props.stages,
      });
    }
  }
}
