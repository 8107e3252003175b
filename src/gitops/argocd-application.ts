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
  /** API server URL of the target cluster. */
  readonly destinationServer: string;
}

/**
 * An Argo CD Application for one cluster. Argo CD builds the cluster
 * directory's kustomization and applies the objects wave by wave (the
 * `argocd.argoproj.io/sync-wave` of each stage). Server-side apply keeps
 * fields written by other controllers (the injected trust bundle, defaults);
 * pruning runs last; Namespaces carry `Prune=false`.
 */
export class ArgoCdApplication extends Construct {
  /** The Application object. */
  public readonly apiObject: ApiObject;

  constructor(scope: Construct, id: string, props: ArgoCdApplicationProps) {
    super(scope, id);
    this.apiObject = new Application(this, 'Resource', {
      metadata: { name: props.name, namespace: props.namespace },
      spec: {
        project: props.project,
        source: { repoUrl: props.repoURL, targetRevision: props.revision, path: props.path },
        destination: { server: props.destinationServer },
        syncPolicy: {
          automated: { prune: true, selfHeal: true },
          syncOptions: ['ServerSideApply=true', 'PruneLast=true'],
          retry: { limit: 5, backoff: { duration: '10s', factor: 2, maxDuration: '5m' } },
        },
      },
    });
  }
}
