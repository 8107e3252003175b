/**
 * The API calls every CCM built on k8s.io/cloud-provider's `app` package makes, whatever the
 * provider: leader election, events, shared informers, delegated authentication and
 * authorization on the secure port, the client builder of `--use-service-account-credentials`,
 * and the four generic controllers (cloud-node, cloud-node-lifecycle, service, route).
 *
 * Read at kubernetes/cloud-provider v0.33.2 .. v0.36.0 (the versions the pinned images vendor;
 * the calls below are identical across them: `git diff v0.35.0 v0.33.2 -- app controllers`
 * changes no client call), kubernetes/controller-manager and kubernetes/apiserver at the same
 * versions, kubernetes/client-go and kubernetes/component-helpers v0.35.0.
 *
 * Identities (see types.ts): the shared informers, leader election and the root event
 * recorder use the process's own kubeconfig (`c.Kubeconfig`, the CCM ServiceAccount): the
 * `shared-informers` client comes from a SimpleControllerClientBuilder even when
 * `--use-service-account-credentials=true` (cloud-provider options/options.go ApplyTo:
 * `c.VersionedClient = rootClientBuilder.ClientOrDie("shared-informers")`). Only the clients a
 * controller or provider asks `c.ClientBuilder.ClientOrDie(name)` for become
 * `kube-system/<name>`.
 *
 * Not inventoried: non-resource requests (WaitForAPIServer GET /healthz, the discovery client's
 * /api and /apis, AWS Initialize's GET /version), which the bootstrap `system:discovery` and
 * `system:public-info-viewer` ClusterRoleBindings allow every authenticated identity
 * (kubernetes/kubernetes plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go); and the
 * metadata-informers client, which no generic controller starts.
 */
import { ApiCall, LEADER_LEASE, LEADER_LEASE_NAMESPACE, LEADER_MIGRATION_LEASE, WhenKey } from './types';

/** Versions of the libraries a binary vendors (from its go.mod at the pinned tag). */
export interface LibraryVersions {
  /** e.g. 'v0.35.0' of k8s.io/cloud-provider. */
  readonly cloudProvider: string;
  /** k8s.io/controller-manager. */
  readonly controllerManager: string;
  /** k8s.io/apiserver. */
  readonly apiserver: string;
  /** k8s.io/client-go. */
  readonly clientGo: string;
}

/** The canonical controller names of kubernetes/cloud-provider names/controller_names.go. */
export const CLOUD_PROVIDER_CONTROLLERS = {
  cloudNode: 'cloud-node-controller',
  cloudNodeLifecycle: 'cloud-node-lifecycle-controller',
  service: 'service-lb-controller',
  route: 'node-route-controller',
} as const;

/** The aliases of names.CCMControllerAliases() (kubernetes/cloud-provider names/controller_names.go). */
export const CLOUD_PROVIDER_ALIASES: Readonly<Record<string, string>> = {
  'cloud-node': CLOUD_PROVIDER_CONTROLLERS.cloudNode,
  service: CLOUD_PROVIDER_CONTROLLERS.service,
  route: CLOUD_PROVIDER_CONTROLLERS.route,
  'cloud-node-lifecycle': CLOUD_PROVIDER_CONTROLLERS.cloudNodeLifecycle,
};

/**
 * The client names of app.DefaultInitFuncConstructors (kubernetes/cloud-provider
 * app/controllermanager.go): cloud-node and cloud-node-lifecycle share `node-controller`.
 */
export const CLOUD_PROVIDER_CLIENTS = {
  [CLOUD_PROVIDER_CONTROLLERS.cloudNode]: 'node-controller',
  [CLOUD_PROVIDER_CONTROLLERS.cloudNodeLifecycle]: 'node-controller',
  [CLOUD_PROVIDER_CONTROLLERS.service]: 'service-controller',
  [CLOUD_PROVIDER_CONTROLLERS.route]: 'route-controller',
} as const;

/** The minor of a `v0.MINOR.PATCH` library version. */
const minor = (version: string): number => Number(/^v0\.(\d+)\./.exec(version)?.[1] ?? NaN);

const and = (...keys: (WhenKey | readonly WhenKey[] | undefined)[]): WhenKey[] =>
  keys.flatMap((k) => (k === undefined ? [] : Array.isArray(k) ? k : [k as WhenKey]));

/**
 * Events through an EventBroadcaster sink: create, then patch for a repeated event (client-go
 * tools/record/event.go recordToSink). An event about a cluster-scoped object (a Node) is
 * written to namespace `default` (makeEvent): pass NODE_EVENTS for recorders that only report
 * on Nodes; no namespace = events about namespaced objects (Services), in any namespace.
 */
export const NODE_EVENTS = 'default';

export function eventCalls(client: string, source: string, when?: WhenKey | readonly WhenKey[], namespace?: string): ApiCall[] {
  return [
    { client, verbs: ['create', 'patch'], apiGroup: '', resource: 'events', ...(namespace ? { namespace } : {}), ...(when ? { when } : {}), source },
  ];
}

/**
 * What the dynamic client builder does, as the ROOT identity, the first time a client named
 * `name` is asked for under `--use-service-account-credentials=true`
 * (kubernetes/controller-manager pkg/clientbuilder/client_builder_dynamic.go Config and
 * tokenSourceImpl.Token): GET the ServiceAccount (getOrCreateServiceAccount), CREATE it when
 * missing (the Namespace GET before it tolerates errors and is not listed), then a
 * TokenRequest (`serviceaccounts/token` create) for it. A 403 on the GET is fatal for
 * ClientOrDie. `when` is the condition under which the client is asked for at all.
 */
export function clientBuilderCalls(name: string, v: LibraryVersions, when?: WhenKey | readonly WhenKey[]): ApiCall[] {
  const source = `kubernetes/controller-manager@${v.controllerManager} pkg/clientbuilder/client_builder_dynamic.go (getOrCreateServiceAccount, tokenSourceImpl.Token)`;
  const base = and('serviceAccountCredentials', when);
  return [
    { client: 'root', verbs: ['get'], apiGroup: '', resource: 'serviceaccounts', namespace: 'kube-system', name, when: base, subject: name, source },
    {
      client: 'root',
      verbs: ['create'],
      apiGroup: '',
      resource: 'serviceaccounts/token',
      namespace: 'kube-system',
      name,
      when: base,
      subject: name,
      source,
    },
    {
      client: 'root',
      verbs: ['create'],
      apiGroup: '',
      resource: 'serviceaccounts',
      namespace: 'kube-system',
      when: and('serviceAccountMissing', when),
      subject: name,
      source,
    },
  ];
}

/**
 * The calls of the k8s.io/cloud-provider app itself and of its four generic controllers.
 * `app` names the file that runs them when a provider forked the app (Azure); the controllers
 * are always k8s.io/cloud-provider's.
 */
export function cloudProviderAppCalls(v: LibraryVersions, app = `kubernetes/cloud-provider@${v.cloudProvider} app/controllermanager.go`): ApiCall[] {
  const cp = `kubernetes/cloud-provider@${v.cloudProvider}`;
  const cg = `kubernetes/client-go@${v.clientGo}`;
  const as = `kubernetes/apiserver@${v.apiserver}`;
  const C = CLOUD_PROVIDER_CONTROLLERS;
  const node = 'node-controller';
  const cloudNode: WhenKey = `controller:${C.cloudNode}`;
  const lifecycle: WhenKey = `controller:${C.cloudNodeLifecycle}`;
  const service: WhenKey = `controller:${C.service}`;
  return [
    // leader election, with the root kubeconfig
    {
      client: 'root',
      verbs: ['get', 'update'],
      apiGroup: 'coordination.k8s.io',
      resource: 'leases',
      namespace: LEADER_LEASE_NAMESPACE,
      name: LEADER_LEASE,
      when: 'leaderElect',
      source: `${app} (leaderElectAndRun: resourcelock.NewFromKubeconfig(..., c.Kubeconfig)); ${cg} tools/leaderelection/resourcelock/leaselock.go (Get, Update)`,
    },
    {
      client: 'root',
      verbs: ['create'],
      apiGroup: 'coordination.k8s.io',
      resource: 'leases',
      namespace: LEADER_LEASE_NAMESPACE,
      when: 'leaderElect',
      source: `${cg} tools/leaderelection/resourcelock/leaselock.go (Create when the Lease does not exist)`,
    },
    ...eventCalls(
      'root',
      `${app} (Run: EventBroadcaster.StartRecordingToSink(c.Client)); ${cg} tools/leaderelection/resourcelock/leaselock.go RecordEvent (LeaderElection event on the Lease)`,
      'leaderElect',
      LEADER_LEASE_NAMESPACE,
    ),
    // leader migration (--enable-leader-migration): a second lock, same client and namespace
    {
      client: 'root',
      verbs: ['get', 'update'],
      apiGroup: 'coordination.k8s.io',
      resource: 'leases',
      namespace: LEADER_LEASE_NAMESPACE,
      name: LEADER_MIGRATION_LEASE,
      when: ['leaderElect', 'leaderMigration'],
      source: `${app} (Run: leaderElectAndRun(..., c.ComponentConfig.Generic.LeaderMigration.LeaderName, ...)); kubernetes/controller-manager@${v.controllerManager} pkg/leadermigration/config/default.go`,
    },
    {
      client: 'root',
      verbs: ['create'],
      apiGroup: 'coordination.k8s.io',
      resource: 'leases',
      namespace: LEADER_LEASE_NAMESPACE,
      when: ['leaderElect', 'leaderMigration'],
      source: `${app} (leaderElectAndRun for the migration lock); ${cg} tools/leaderelection/resourcelock/leaselock.go (Create)`,
    },
    // shared informers, root client "shared-informers"
    {
      client: 'root',
      verbs: ['list', 'watch'],
      apiGroup: '',
      resource: 'nodes',
      source: `${cp} options/options.go (ApplyTo: rootClientBuilder.ClientOrDie("shared-informers")), app/core.go (SharedInformers.Core().V1().Nodes() for cloud-node, cloud-node-lifecycle, service, route)`,
    },
    // up to v0.31 servicecontroller.New takes the service informer before init() checks LoadBalancer(), so the
    // informer factory lists and watches Services even when the controller then stops; from v0.32 init() comes first
    {
      client: 'root',
      verbs: ['list', 'watch'],
      apiGroup: '',
      resource: 'services',
      when: minor(v.cloudProvider) <= 31 ? `client:${C.service}` : service,
      source: `${cp} app/core.go (startServiceController: SharedInformers.Core().V1().Services()), controllers/service/controller.go (New: serviceInformer.Informer() ${minor(v.cloudProvider) <= 31 ? 'before' : 'after'} s.init())`,
    },
    // delegated authentication and authorization of the secure port (in-cluster kubeconfig = root)
    {
      client: 'root',
      verbs: ['create'],
      apiGroup: 'authentication.k8s.io',
      resource: 'tokenreviews',
      when: 'secureServing',
      source: `${as} pkg/server/options/authentication.go (DelegatingAuthenticationOptions.ApplyTo: TokenAccessReviewClient)`,
    },
    {
      client: 'root',
      verbs: ['create'],
      apiGroup: 'authorization.k8s.io',
      resource: 'subjectaccessreviews',
      when: 'secureServing',
      source: `${as} pkg/server/options/authorization.go (DelegatingAuthorizationOptions: SubjectAccessReview for /metrics and other non-always-allowed paths)`,
    },
    {
      client: 'root',
      verbs: ['get', 'list', 'watch'],
      apiGroup: '',
      resource: 'configmaps',
      namespace: 'kube-system',
      name: 'extension-apiserver-authentication',
      when: 'authenticationLookup',
      source: `${as} pkg/server/options/authentication.go (authenticationConfigMapNamespace/Name), pkg/server/dynamiccertificates/configmap_cafile_content.go and pkg/authentication/request/headerrequest/requestheader_controller.go (informer with metadata.name field selector, Get)`,
    },
    // the client builder for each generic controller's client
    ...clientBuilderCalls(node, v, `client:${C.cloudNode}`),
    ...clientBuilderCalls(node, v, `client:${C.cloudNodeLifecycle}`),
    ...clientBuilderCalls('service-controller', v, `client:${C.service}`),
    ...clientBuilderCalls('route-controller', v, 'routes'),
    // cloud-node controller ("node-controller" client)
    {
      client: node,
      verbs: ['get', 'patch'],
      apiGroup: '',
      resource: 'nodes',
      when: cloudNode,
      source: `${cp} controllers/node/node_controller.go (AddOrUpdateLabelsOnNode), node/helpers/labels.go (Nodes().Get, Nodes().Patch)`,
    },
    {
      client: node,
      verbs: ['update'],
      apiGroup: '',
      resource: 'nodes',
      when: cloudNode,
      source: `${cp} controllers/node/node_controller.go (syncNode: Nodes().Update removes the uninitialized taint, sets providerID)`,
    },
    {
      client: node,
      verbs: ['patch'],
      apiGroup: '',
      resource: 'nodes/status',
      when: cloudNode,
      source: `${cp} controllers/node/node_controller.go (UpdateNodeAddress: nodeutil.PatchNodeStatus); kubernetes/component-helpers@${v.cloudProvider} node/util/status.go (Nodes().Patch(..., "status"))`,
    },
    ...eventCalls(
      node,
      `${cp} controllers/node/node_controller.go (broadcaster.StartRecordingToSink(kubeClient); events on Nodes)`,
      cloudNode,
      NODE_EVENTS,
    ),
    // up to v0.26 the cloud-node controller listed nodes through its own client (UpdateNodeStatus); gone from v0.27
    ...(minor(v.cloudProvider) <= 26
      ? [
          {
            client: node,
            verbs: ['list'],
            apiGroup: '',
            resource: 'nodes',
            when: cloudNode,
            source: `${cp} controllers/node/node_controller.go (UpdateNodeStatus: kubeClient.CoreV1().Nodes().List)`,
          },
        ]
      : []),
    // cloud-node-lifecycle controller ("node-controller" client)
    {
      client: node,
      verbs: ['get', 'patch', 'delete'],
      apiGroup: '',
      resource: 'nodes',
      when: lifecycle,
      source: `${cp} controllers/nodelifecycle/node_lifecycle_controller.go (Nodes().Delete; RemoveTaintOffNode / AddOrUpdateTaintOnNode), node/helpers/taints.go (Nodes().Get, Nodes().Patch)`,
    },
    ...eventCalls(
      node,
      `${cp} controllers/nodelifecycle/node_lifecycle_controller.go (broadcaster.StartRecordingToSink(kubeClient); events on Nodes)`,
      lifecycle,
      NODE_EVENTS,
    ),
    // service controller ("service-controller" client): finalizer and status both through the status subresource
    {
      client: 'service-controller',
      verbs: ['patch'],
      apiGroup: '',
      resource: 'services/status',
      when: service,
      source: `${cp} controllers/service/controller.go (addFinalizer, removeFinalizer, patchStatus: servicehelper.PatchService), service/helpers/helper.go (Services().Patch(..., "status"))`,
    },
    ...eventCalls('service-controller', `${cp} controllers/service/controller.go (eventBroadcaster.StartRecordingToSink(kubeClient))`, service),
    // route controller ("route-controller" client)
    {
      client: 'route-controller',
      verbs: ['patch'],
      apiGroup: '',
      resource: 'nodes/status',
      when: 'routes',
      source: `${cp} controllers/route/route_controller.go (updateNetworkingCondition: nodeutil.SetNodeCondition); kubernetes/component-helpers@${v.cloudProvider} node/util/conditions.go (Nodes().PatchStatus)`,
    },
    ...eventCalls(
      'route-controller',
      `${cp} controllers/route/route_controller.go (broadcaster.StartRecordingToSink(kubeClient); events on Nodes)`,
      'routes',
      NODE_EVENTS,
    ),
  ];
}

/** The Initialize client of a provider: the client builder calls, and events of its recorder. */
export function providerClientCalls(name: string, v: LibraryVersions, source: string): ApiCall[] {
  return [...clientBuilderCalls(name, v), ...eventCalls(name, source)];
}
