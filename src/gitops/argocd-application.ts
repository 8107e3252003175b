import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { Application } from '../../imports/applications-argoproj.io';

/** Properties for `ArgoCdApplication`. */
export interface ArgoCdApplicationProps {
  /** Application name. */
  readonly name: string;
  /** Namespace of the Argo CD instance. */
  readonly namespace: string;
  /** Argo CD project. */
  readonly project: string;
  /** Git repository holding the rendered tree. */
  readonly repoURL: string;
  /** Branch, tag or commit to follow. */
  readonly revision: string;
  /** Path of the cluster's rendered directory (its kustomization lists the stages). */
  readonly path: string;
  /**
   * API server URL of the target cluster as registered in Argo CD.
   *
   * @default - none: `destinationName` names it
   */
  readonly destinationServer?: string;
  /**
   * Name of the target cluster as registered in Argo CD.
   *
   * @default - none: `destinationServer` gives it
   */
  readonly destinationName?: string;
  /**
   * Namespace of the destination, for sources whose objects carry none.
   *
   * @default - none: every rendered object names its namespace
   */
  readonly destinationNamespace?: string;
  /**
   * Sync policy: `cluster` (server-side apply, prune last, retries) for a
   * cluster's objects; `fleet` (plain automated sync) for an app-of-apps root
   * that only applies Applications.
   *
   * @default "cluster"
   */
  readonly syncProfile?: 'cluster' | 'fleet';
}

/**
 * An Argo CD Application. For a cluster, Argo CD builds the cluster
 * directory's kustomization and applies the objects wave by wave (the
 * `argocd.argoproj.io/sync-wave` of each stage); server-side apply keeps
 * fields written by other controllers (the injected trust bundle, defaults);
 * pruning runs last; protected kinds carry `Prune=false`.
 *
 * As the root of an app-of-apps tree (`syncProfile: 'fleet'`) it applies every
 * cluster's Application from git and prunes those of clusters that leave the
 * fleet; the child Applications carry no resources finalizer, so that never
 * deletes a cluster's CCM.
 */
export class ArgoCdApplication extends Construct {
  /** The Application object. */
  public readonly apiObject: ApiObject;

  constructor(scope: Construct, id: string, props: ArgoCdApplicationProps) {
    super(scope, id);
    if ((props.destinationServer === undefined) === (props.destinationName === undefined)) {
      throw new Error("give exactly one of 'destinationServer' and 'destinationName'");
    }
    this.apiObject = new Application(this, 'Resource', {
      metadata: { name: props.name, namespace: props.namespace },
      spec: {
        project: props.project,
        source: { repoUrl: props.repoURL, targetRevision: props.revision, path: props.path },
        destination: { server: props.destinationServer, name: props.destinationName, namespace: props.destinationNamespace },
        syncPolicy:
          (props.syncProfile ?? 'cluster') === 'fleet'
            ? { automated: { prune: true, selfHeal: true } }
            : {
                automated: { prune: true, selfHeal: true },
                syncOptions: ['ServerSideApply=true', 'PruneLast=true'],
                retry: { limit: 5, backoff: { duration: '10s', factor: 2, maxDuration: '5m' } },
              },
      },
    });
  }
}
