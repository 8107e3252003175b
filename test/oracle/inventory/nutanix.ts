/**
 * Nutanix CCM (nutanix-cloud-native/cloud-provider-nutanix), image
 * `ghcr.io/nutanix-cloud-native/cloud-provider-nutanix/controller:v0.5.2`, read at tag v0.5.2.
 *
 * Built on k8s.io/cloud-provider v0.33.3 (go.mod): the process makes the common calls of
 * common.ts for the controllers it registers. main.go deletes "service" and "route" from
 * `app.DefaultInitFuncConstructors`, so only cloud-node and cloud-node-lifecycle run.
 * The calls below are the provider's own, made with the client it asks the client
 * builder for in `Initialize`.
 */
import { ApiCall, ProviderInventory } from './types';

const TAG = 'nutanix-cloud-native/cloud-provider-nutanix@v0.5.2';
const src = (file: string, what: string): string => `${TAG} ${file} (${what})`;

/** The names `Initialize` passes to `ClientBuilder.ClientOrDie` (pkg/provider/provider.go). */
export const NUTANIX_CLIENT_NAMES = ['cloud-provider-nutanix'] as const;

/** The cloud-provider controllers the binary can run: main.go deletes "service" and "route". */
export const NUTANIX_CONTROLLERS = ['cloud-node', 'cloud-node-lifecycle'] as const;

/**
 * The namespace of the Secret/ConfigMap informers: env POD_NAMESPACE (the CCM's own
 * namespace; the upstream manifest and the renderer set it from metadata.namespace).
 * The oracle renders the default namespace.
 */
const CCM_NAMESPACE = 'kube-system';

const client = NUTANIX_CLIENT_NAMES[0];

/** The provider's own calls (beside common.ts). */
export const NUTANIX_OWN_CALLS: readonly ApiCall[] = [
  // Initialize -> setKubernetesClient -> setInformers: namespaced Secret and ConfigMap informers, and
  // syncCache waits for them with a stop channel that never closes: forbidden = Initialize hangs.
  {
    client, verbs: ['list', 'watch'], apiGroup: '', resource: 'secrets', namespace: CCM_NAMESPACE,
    source: src('pkg/provider/manager.go, pkg/provider/client.go', 'setInformers: NewSharedInformerFactoryWithOptions(WithNamespace(POD_NAMESPACE)); SetInformers -> Secrets().Informer(), syncCache -> WaitForCacheSync (Prism Central credentials via the prism-go-client kubernetes env provider)'),
  },
  {
    client, verbs: ['list', 'watch'], apiGroup: '', resource: 'configmaps', namespace: CCM_NAMESPACE,
    source: src('pkg/provider/manager.go, pkg/provider/client.go', 'setInformers; SetInformers -> ConfigMaps().Informer(), syncCache -> WaitForCacheSync (additionalTrustBundle ConfigMap)'),
  },
  // cloud-node's InstanceMetadata -> getInstanceMetadata -> addCustomLabelsToNode (Prism Element / host labels).
  {
    client, verbs: ['get', 'patch'], apiGroup: '', resource: 'nodes',
    source: src('pkg/provider/manager.go', 'addCustomLabelsToNode -> helpers.AddOrUpdateLabelsOnNode(n.client) = kubernetes/cloud-provider@v0.33.3 node/helpers/labels.go Nodes().Get + Nodes().Patch'),
  },
];

export const NUTANIX_INVENTORY: ProviderInventory = {
  provider: 'nutanix',
  imageTag: 'v0.5.2',
  calls: NUTANIX_OWN_CALLS,
};
