import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { Stage } from './stages';
import { GitRepository, GitRepositorySpecRef } from '../../imports/gitrepositories-source.toolkit.fluxcd.io';
import {
  Kustomization,
  KustomizationSpecDeletionPolicy,
  KustomizationSpecHealthChecks,
  KustomizationSpecSourceRefKind,
} from '../../imports/kustomizations-kustomize.toolkit.fluxcd.io';

/** An object Flux waits for before the next stage starts. */
export interface FluxHealthCheck {
  /** apiVersion of the object. */
  readonly apiVersion: string;
  /** Kind of the object. */
  readonly kind: string;
  /** Name of the object. */
  readonly name: string;
  /** Namespace of the object. */
  readonly namespace?: string;
}

/** One stage as Flux applies it. */
export interface FluxStage {
  /** The stage. */
  readonly stage: Stage;
  /**
   * Objects to wait for once the stage is applied (e.g. the Secrets the
   * cloud-credential-operator creates, the CCM Deployments).
   *
   * @default - none: the stage is ready once applied
   */
  readonly healthChecks?: readonly FluxHealthCheck[];
  /**
   * Whether Flux deletes objects of this stage that leave git.
   *
   * @default true
   */
  readonly prune?: boolean;
}

/** Properties for `FluxStageChain`. */
export interface FluxStageChainProps {
  /** Prefix of every Flux object name, e.g. `ccm-prod-1`. */
  readonly name: string;
  /** Namespace of the Flux controllers. */
  readonly namespace: string;
  /** Git repository holding the rendered tree. */
  readonly repoURL: string;
  /** Branch (default), `refs/...` name or 40-hex commit to follow. */
  readonly revision: string;
  /** Path of the cluster's rendered directory in the repository. */
  readonly path: string;
  /** Reconcile interval. */
  readonly interval: string;
  /** The non-empty stages, in apply order. */
  readonly stages: readonly FluxStage[];
  /**
   * Secret with the git credentials, in the Flux namespace.
   *
   * @default - none (public repository)
   */
  readonly secretRef?: string;
}

/**
 * Flux objects for one cluster: a GitRepository and one Kustomization per
 * stage, each depending on the previous one, so a stage is applied only when
 * the previous one is ready. Deleting a stage Kustomization orphans its
 * objects (`deletionPolicy: Orphan`), so unregistering a cluster never
 * deletes its running CCM. Stages prune what leaves git unless told not to
 * (protected kinds also carry a prune-disabled annotation). A stage with health checks waits for those
 * objects (e.g. Secrets created by another controller); any other stage
 * waits for its own objects to become ready (`wait: true`).
 */
export class FluxStageChain extends Construct {
  /** The GitRepository. */
  public readonly source: ApiObject;
  /** The Kustomizations, in stage order. */
  public readonly kustomizations: readonly ApiObject[];

  constructor(scope: Construct, id: string, props: FluxStageChainProps) {
    super(scope, id);
    if (props.stages.length === 0) {
      throw new Error("'stages' must hold at least one stage, got none");
    }
    this.source = new GitRepository(this, 'Resource', {
      metadata: { name: props.name, namespace: props.namespace },
      spec: {
        url: props.repoURL,
        interval: props.interval,
        ref: gitRef(props.revision),
        secretRef: props.secretRef ? { name: props.secretRef } : undefined,
      },
    });
    const base = props.path.replace(/^\.\//, '').replace(/\/+$/, '');
    let previous: string | undefined;
    const kustomizations: ApiObject[] = [];
    for (const { stage, healthChecks, prune } of props.stages) {
      const name = `${props.name}-${stage.directory}`;
      // Flux ignores healthChecks when wait is on, so a stage waits either for its own objects or for the checks given.
      const checks = healthChecks ?? [];
      kustomizations.push(
        new Kustomization(this, stage.directory, {
          metadata: { name, namespace: props.namespace },
          spec: {
            interval: props.interval,
            path: `./${base}/${stage.directory}`,
            prune: prune ?? true,
            // Unregistering a cluster (deleting this Kustomization) leaves its running CCM in place, as Argo CD does
            // for an Application without the resources finalizer. Values: kustomize.toolkit.fluxcd.io v1 CRD
            // (fluxcd/kustomize-controller, spec.deletionPolicy: MirrorPrune, Delete, WaitForTermination, Orphan).
            deletionPolicy: KustomizationSpecDeletionPolicy.ORPHAN,
            wait: checks.length === 0,
            timeout: '10m',
            sourceRef: { kind: KustomizationSpecSourceRefKind.GIT_REPOSITORY, name: props.name },
            dependsOn: previous ? [{ name: previous }] : undefined,
            healthChecks:
              checks.length > 0
                ? checks.map((h): KustomizationSpecHealthChecks => ({ apiVersion: h.apiVersion, kind: h.kind, name: h.name, namespace: h.namespace }))
                : undefined,
          },
        }),
      );
      previous = name;
    }
    this.kustomizations = kustomizations;
  }
}

function gitRef(revision: string): GitRepositorySpecRef {
  if (/^[0-9a-f]{40}$/.test(revision)) {
    return { commit: revision };
  }
  if (revision.startsWith('refs/')) {
    return { name: revision };
  }
  return { branch: revision };
}
