/**
 * Alibaba Cloud CCM (kubernetes/cloud-provider-alibaba-cloud), image
 * `registry.cn-hangzhou.aliyuncs.com/acs/cloud-controller-manager-amd64:v2.12.4`, read at tag v2.12.4
 * (the only tag of the 2.12 line; the pin follows what was read).
 *
 * The binary is NOT built on k8s.io/cloud-provider/app: it is a controller-runtime
 * manager (sigs.k8s.io/controller-runtime v0.15.2, go.mod). Consequences read from the source:
 * - there is no client builder: every call is made with the process's own credentials
 *   (client 'root'), whatever `--use-service-account-credentials` says (the flag is parsed
 *   into `UseServiceAccountCredentials` and never read: pkg/config/controller_config.go);
 * - nothing from common.ts applies (no delegated authn/authz, no cloud-provider controllers);
 * - the manager reads Node, Service, Endpoints and EndpointSlice objects uncached
 *   (`ClientDisableCacheFor`, pkg/config/runtime_config.go `BuildRuntimeOptions`), and
 *   every other type it reads through `mgr.GetClient()` (Pods) through the cache: an
 *   informer that lists and watches the type in ALL namespaces;
 * - `c.Watch(source.Kind(mgr.GetCache(), &T{}))` starts an informer (list+watch, all
 *   namespaces) for T.
 *
 * Default controllers: node, route, service (CLB), nlb
 * (pkg/config/controller_config.go `BindFlags`, flag `--controllers`); the ingress (ALB)
 * and pvtz controllers are not started by default and are not inventoried (the ALB
 * controller is the only one that creates CustomResourceDefinitions:
 * pkg/controller/ingress/register.go, pkg/util/crd/crd.go).
 */
import { ApiCall, LEADER_LEASE, LEADER_LEASE_NAMESPACE, ProviderInventory } from './types';

const TAG = 'kubernetes/cloud-provider-alibaba-cloud@v2.12.4';
const src = (file: string, what: string): string => `${TAG} ${file} (${what})`;

const call = (c: Omit<ApiCall, 'client'>): ApiCall => ({ client: 'root', ...c });

/** The controllers the binary starts without `--controllers`. */
export const ALIBABA_DEFAULT_CONTROLLERS = ['node', 'route', 'service', 'nlb'] as const;

export const ALIBABA_INVENTORY: ProviderInventory = {
  provider: 'alibaba',
  imageTag: 'v2.12.4',
  calls: [
    // --- controller-runtime manager: leader election (--leader-elect, default true; lock kind "leases", default name "ccm" in kube-system)
    call({
      verbs: ['get', 'update'],
      apiGroup: 'coordination.k8s.io',
      resource: 'leases',
      namespace: LEADER_LEASE_NAMESPACE,
      name: LEADER_LEASE,
      when: 'leaderElect',
      source: src(
        'pkg/config/runtime_config.go',
        'defaultLeaderElectResourceLock "leases", defaultLeaderElectResourceName "ccm", LeaderElectionID; controller-runtime v0.15.2 pkg/leaderelection -> client-go LeaseLock Get/Update',
      ),
    }),
    call({
      verbs: ['create'],
      apiGroup: 'coordination.k8s.io',
      resource: 'leases',
      namespace: LEADER_LEASE_NAMESPACE,
      when: 'leaderElect',
      source: src('pkg/config/runtime_config.go', 'LeaderElection: true by default; client-go LeaseLock Create when the Lease does not exist'),
    }),
    // --- events of every controller (mgr.GetEventRecorderFor -> core/v1 events, create or patch for a repeated event)
    call({
      verbs: ['create', 'patch'],
      apiGroup: '',
      resource: 'events',
      source: src(
        'pkg/controller/node/node_controller.go, pkg/controller/route/route_controller.go, pkg/controller/service/clbv1/service_controller.go, pkg/controller/service/nlbv2/nlb_controller.go',
        "mgr.GetEventRecorderFor(...); events go to the object's namespace (default for Nodes)",
      ),
    }),

    // --- node controller (always)
    call({
      verbs: ['list', 'watch'],
      apiGroup: '',
      resource: 'nodes',
      source: src('pkg/controller/node/node_controller.go', 'c.Watch(source.Kind(mgr.GetCache(), &corev1.Node{}))'),
    }),
    call({
      verbs: ['get', 'list'],
      apiGroup: '',
      resource: 'nodes',
      source: src(
        'pkg/controller/node/node_controller.go, pkg/controller/node/manager.go',
        'm.client.Get(node), kclient.Get in nodeConditionReady, NodeList -> kclient.List (uncached: ClientDisableCacheFor)',
      ),
    }),
    call({
      verbs: ['patch'],
      apiGroup: '',
      resource: 'nodes',
      source: src(
        'pkg/controller/node/node_controller.go, pkg/controller/helper/node_utils.go',
        'helper.PatchM(..., PatchAll) -> mclient.Patch (labels, taints, providerID)',
      ),
    }),
    call({
      verbs: ['patch'],
      apiGroup: '',
      resource: 'nodes/status',
      source: src(
        'pkg/controller/node/node_controller.go, pkg/controller/helper/node_utils.go',
        'helper.PatchNodeStatus and PatchM(..., PatchAll) -> mclient.Status().Patch (addresses)',
      ),
    }),
    call({
      verbs: ['delete'],
      apiGroup: '',
      resource: 'nodes',
      source: src('pkg/controller/node/manager.go', 'deleteNode -> cnc.client.Delete (instance gone from the cloud)'),
    }),

    // --- route controller: watches nodes always; patches the NetworkUnavailable condition only with --configure-cloud-routes=true
    call({
      verbs: ['get'],
      apiGroup: '',
      resource: 'nodes',
      when: 'routes',
      source: src('pkg/controller/route/route_controller.go', 'Reconcile returns at once unless configRoutes; then r.client.Get(node)'),
    }),
    call({
      verbs: ['patch'],
      apiGroup: '',
      resource: 'nodes/status',
      when: 'routes',
      source: src('pkg/controller/route/route_controller.go', 'updateNetworkingCondition -> helper.PatchM(..., PatchStatus)'),
    }),

    // --- service (CLB) and nlb controllers
    call({
      verbs: ['list', 'watch'],
      apiGroup: '',
      resource: 'services',
      source: src(
        'pkg/controller/service/clbv1/service_controller.go, pkg/controller/service/nlbv2/nlb_controller.go',
        'c.Watch(source.Kind(mgr.GetCache(), &v1.Service{}))',
      ),
    }),
    call({
      verbs: ['list', 'watch'],
      apiGroup: 'discovery.k8s.io',
      resource: 'endpointslices',
      source: src(
        'pkg/controller/service/clbv1/service_controller.go, pkg/config/feature_gates.go',
        'feature gate EndpointSlice (GA, default true) -> c.Watch(source.Kind(..., &discovery.EndpointSlice{}))',
      ),
    }),
    call({
      verbs: ['get', 'list'],
      apiGroup: '',
      resource: 'services',
      source: src(
        'pkg/controller/service/clbv1/service_controller.go, pkg/controller/service/clbv1/event_handler.go',
        'm.kubeClient.Get(svc); enqueueManagedNode -> client.List(ServiceList) (uncached)',
      ),
    }),
    call({
      verbs: ['list'],
      apiGroup: 'discovery.k8s.io',
      resource: 'endpointslices',
      source: src(
        'pkg/controller/service/reconcile/backend/backend.go',
        'getEndpointByEndpointSlice -> kubeClient.List(EndpointSliceList, MatchingLabels) (uncached)',
      ),
    }),
    call({
      verbs: ['list'],
      apiGroup: '',
      resource: 'nodes',
      source: src('pkg/controller/service/reconcile/backend/backend.go', 'GetNodes -> kubeClient.List(NodeList)'),
    }),
    call({
      verbs: ['patch'],
      apiGroup: '',
      resource: 'services',
      source: src('pkg/controller/helper/finalizer.go', 'AddFinalizers/RemoveFinalizers -> kubeClient.Patch(MergeFromWithOptimisticLock)'),
    }),
    call({
      verbs: ['patch'],
      apiGroup: '',
      resource: 'services/status',
      source: src(
        'pkg/controller/service/clbv1/service_controller.go, pkg/controller/service/nlbv2/nlb_controller.go',
        'updateServiceStatus/removeServiceStatus -> kubeClient.Status().Patch',
      ),
    }),
    // Pods are read through the cached client: the first Get starts a Pod informer over all
    // namespaces (list+watch; the Get itself is answered from the cache, no GET request).
    // With that informer forbidden the cache never syncs and the reconcile blocks.
    call({
      verbs: ['list', 'watch'],
      apiGroup: '',
      resource: 'pods',
      source: src(
        'pkg/controller/service/clbv1/vgroups.go, pkg/controller/service/nlbv2/server_groups.go, pkg/controller/service/clbv1/service_controller.go',
        'not-ready endpoint -> mgr.kubeClient.Get(pod) through the manager cache (Pod is not in ClientDisableCacheFor); updateReadinessCondition -> m.kubeClient.Get(pod)',
      ),
    }),
    call({
      verbs: ['patch'],
      apiGroup: '',
      resource: 'pods/status',
      source: src(
        'pkg/controller/helper/pod_utils.go',
        'UpdateReadinessConditionForPod -> kubeClient.Status().Patch (readiness gate condition), called from clbv1/service_controller.go and nlbv2/nlb_controller.go',
      ),
    }),
  ],
};
