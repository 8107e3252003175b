import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { Kustomization, KustomizationSpecSourceRefKind } from '../../imports/kustomizations-kustomize.toolkit.fluxcd.io';

/** Properties for `FluxEntryKustomization`. */
export interface FluxEntryKustomizationProps {
  /** Name, e.g. `ccm-prod-1`. */
  readonly name: string;
  /** Namespace of the Flux controllers. */
  readonly namespace: string;
  /** An existing GitRepository in that namespace (usually the bootstrap `flux-system`). */
  readonly sourceRef: string;
  /** Repository path of the folder holding the cluster's stage chain (`dist/<cluster>/gitops`). */
  readonly path: string;
  /** Reconcile interval. */
  readonly interval: string;
}

/**
 * The one object a Flux-managed cluster registers: it applies the cluster's
 * stage chain (GitRepository and stage Kustomizations) from a source that
 * exists before ccm-gitops, prunes chain objects that leave git, and is Ready
 * only when every stage is.
 */
export class FluxEntryKustomization extends Construct {
  /** The Kustomization object. */
  public readonly apiObject: ApiObject;

  constructor(scope: Construct, id: string, props: FluxEntryKustomizationProps) {
    super(scope, id);
    this.apiObject = new Kustomization(this, 'Resource', {
      metadata: { name: props.name, namespace: props.namespace },
      spec: {
        interval: props.interval,
        path: `./${props.path.replace(/^\.\//, '').replace(/\/+$/, '')}`,
        prune: true,
        wait: true,
        timeout: '30m',
        sourceRef: { kind: KustomizationSpecSourceRefKind.GIT_REPOSITORY, name: props.sourceRef },
      },
    });
  }
}
