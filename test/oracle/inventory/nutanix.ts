/**
 * Nutanix CCM (nutanix-cloud-native/cloud-provider-nutanix), image
 * `ghcr.io/nutanix-cloud-native/cloud-provider-nutanix/controller:v0.5.2`, read at tag v0.5.2.
 *
 * Built on k8s.io/cloud-provider v0.33.3 (go.mod): the process makes the common calls of
 * common.ts for the controllers it registers. main.go calls `delete(controllerInitializers,
 * "service")` and `delete(..., "route")`, but since k8s.io/cloud-provider v0.28 the map's keys
 * are the canonical names (`service-lb-controller`, `node-route-controller`:
 * kubernetes/cloud-provider@v0.33.3 app/controllermanager.go DefaultInitFuncConstructors,
 * names/controller_names.go), so both deletes are no-ops: all four controllers stay
 * registered. The service controller asks the client builder for `service-controller` and
 * then stops ("does not support external load balancers": LoadBalancer() returns false,
 * kubernetes/cloud-provider@v0.33.3 app/core.go startServiceController, controllers/service/controller.go init);
 * the route controller stops before any client (Routes() false, --configure-cloud-routes).
 * main.go passes an EMPTY alias map to NewCloudControllerManagerCommand, so `--controllers`
 * accepts only the canonical names ("cloud-node" is "not in the list of known controllers":
 * kubernetes/controller-manager@v0.33.3 options/generic.go Validate).
 * The calls below are the provider's own, made with the client it asks the client
 * builder for in `Initialize`.
 */
import { ApiCall, CCM_NAMESPACE, ProviderInventory } from './types';

const TAG = 'nutanix-cloud-native/cloud-provider-nutanix@v0.5.2';
const src = (file: string, what: string): string => `${TAG} ${file} (${what})`;

/** The names `Initialize` passes to `ClientBuilder.ClientOrDie` (pkg/provider/provider.go). */
export const NUTANIX_CLIENT_NAMES = ['cloud-provider-nutanix'] as const;

/** The controllers `--controllers` knows (canonical names; the deletes in main.go miss them). */
export const NUTANIX_CONTROLLERS = [
  'cloud-node-controller',
  'cloud-node-lifecycle-controller',
  'service-lb-controller',
  'node-route-controller',
] as const;

/** The aliases `--controllers` accepts: none (main.go passes `map[string]string{}`). */
export const NUTANIX_CONTROLLER_ALIASES: Readonly<Record<string, string>> = {};

/** The controllers that do work: service-lb and node-route stop at start (no LoadBalancer, no Routes). */
export const NUTANIX_WORKING_CONTROLLERS = ['cloud-node-controller', 'cloud-node-lifecycle-controller'] as const;

const client = NUTANIX_CLIENT_NAMES[0];

/** The provider's own calls (beside common.ts). */
export const NUTANIX_OWN_CALLS: readonly ApiCall[] = [
  // Initialize -> setKubernetesClient -> setInformers: namespaced Secret and ConfigMap informers, and
  // syncCache waits for them with a stop channel that never closes: forbidden = Initialize hangs.
  // The namespace is env POD_NAMESPACE (GetCCMNamespace): the CCM's own, set from metadata.namespace by the
  // upstream manifest (and the renderer; the oracle substitutes the rendered workload's namespace).
  {
    client,
    verbs: ['list', 'watch'],
    apiGroup: '',
    resource: 'secrets',
    namespace: CCM_NAMESPACE,
    source: src(
      'pkg/provider/manager.go, pkg/provider/client.go',
      'setInformers: NewSharedInformerFactoryWithOptions(WithNamespace(POD_NAMESPACE)); SetInformers -> Secrets().Informer(), syncCache -> WaitForCacheSync (Prism Central credentials via the prism-go-client kubernetes env provider)',
    ),
  },
  {
    client,
    verbs: ['list', 'watch'],
    apiGroup: '',
    resource: 'configmaps',
    namespace: CCM_NAMESPACE,
    source: src(
      'pkg/provider/manager.go, pkg/provider/client.go',
      'setInformers; SetInformers -> ConfigMaps().Informer(), syncCache -> WaitForCacheSync (additionalTrustBundle ConfigMap)',
    ),
  },
  // cloud-node's InstanceMetadata -> getInstanceMetadata -> addCustomLabelsToNode (Prism Element / host labels).
  {
    client,
    verbs: ['get', 'patch'],
    apiGroup: '',
    resource: 'nodes',
    source: src(
      'pkg/provider/manager.go',
      'addCustomLabelsToNode -> helpers.AddOrUpdateLabelsOnNode(n.client) = kubernetes/cloud-provider@v0.33.3 node/helpers/labels.go Nodes().Get + Nodes().Patch',
    ),
  },
];

export const NUTANIX_INVENTORY: ProviderInventory = {
  provider: 'nutanix',
  imageTag: 'v0.5.2',
  calls: NUTANIX_OWN_CALLS,
  namespaceEnv: {
    name: 'POD_NAMESPACE',
    source: src(
      'internal/constants/constants.go, pkg/provider/utils.go, pkg/provider/manager.go',
      'CCMNamespaceKey; GetCCMNamespace errors when empty; setInformers: klog.Fatal',
    ),
  },
};
