import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { Application } from '../../imports/applications-argoproj.io';

/** Properties for `ArgoCdFleetRoot`. */
export interface ArgoCdFleetRootProps {
  /** Application name. */
  readonly name: string;
  /** Namespace of the Argo CD instance (the child Applications live there too). */
  readonly namespace: string;
  /** Argo CD project of the root Application. */
  readonly project: string;
  /** Git repository holding the rendered tree. */
  readonly repoURL: string;
  /** Branch, tag or commit to follow. */
  readonly revision: string;
  /** Repository path of the folder whose kustomization lists every cluster's Application. */
  readonly path: string;
}

/**
 * The root of an app-of-apps tree: one Application that applies every
 * cluster's Application from git, so adding a cluster to the fleet is a
 * commit, not a click. It prunes Applications of clusters that leave the
 * fleet; the child Applications carry no resources finalizer, so that never
 * deletes a cluster's CCM.
 */
export class ArgoCdFleetRoot extends Construct {
  /** The Application object. */
  public readonly apiObject: ApiObject;

  constructor(scope: Construct, id: string, props: ArgoCdFleetRootProps) {
    super(scope, id);
    this.apiObject = new Application(this, 'Resource', {
      metadata: { name: props.name, namespace: props.namespace },
      spec: {
        project: props.project,
        source: { repoUrl: props.repoURL, targetRevision: props.revision, path: props.path },
        destination: { server: 'https://kubernetes.default.svc', namespace: props.namespace },
        syncPolicy: { automated: { prune: true, selfHeal: true } },
      },
    });
  }
}
