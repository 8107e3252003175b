import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { AppProject } from '../../imports/appprojects-argoproj.io';

/** Properties for `ArgoCdAppProject`. */
export interface ArgoCdAppProjectProps {
  /** Project name (the clusters' `spec.gitops.argocd.project`). */
  readonly name: string;
  /** Namespace of the hub Argo CD. */
  readonly namespace: string;
  /** The one repository the project's Applications read. */
  readonly repoURL: string;
  /** The registered clusters the project's Applications may target. */
  readonly destinations: readonly { readonly server?: string; readonly name?: string }[];
  /** Cluster-scoped kinds the Applications may apply. */
  readonly clusterKinds: readonly { readonly group: string; readonly kind: string }[];
  /** Namespaced kinds the Applications may apply. */
  readonly namespacedKinds: readonly { readonly group: string; readonly kind: string }[];
}

/**
 * The AppProject of a hub Argo CD's CCM Applications: only the fleet
 * repository as source, only the registered clusters of the fleet as
 * destinations, only the kinds ccm-gitops renders (an Application of this
 * project cannot apply anything else, anywhere else). Applied by the hub's
 * root before the Applications (sync wave -1).
 */
export class ArgoCdAppProject extends Construct {
  /** The AppProject object. */
  public readonly apiObject: ApiObject;

  constructor(scope: Construct, id: string, props: ArgoCdAppProjectProps) {
    super(scope, id);
    this.apiObject = new AppProject(this, 'Resource', {
      metadata: { name: props.name, namespace: props.namespace, annotations: { 'argocd.argoproj.io/sync-wave': '-1' } },
      spec: {
        description: 'Cloud controller managers rendered by ccm-gitops: the fleet repository, the registered clusters, the rendered kinds only.',
        sourceRepos: [props.repoURL],
        destinations: props.destinations.map((d) => ({ server: d.server, name: d.name, namespace: '*' })),
        clusterResourceWhitelist: props.clusterKinds.map((k) => ({ group: k.group, kind: k.kind })),
        namespaceResourceWhitelist: props.namespacedKinds.map((k) => ({ group: k.group, kind: k.kind })),
      },
    });
  }
}
