/**
 * Equinix Metal CCM (kubernetes-sigs/cloud-provider-equinix-metal), image
 * `ghcr.io/equinix/cloud-provider-equinix-metal:v3.8.1`, read at tag v3.8.1.
 *
 * Built on k8s.io/cloud-provider v0.30.2 (go.mod) with `app.DefaultInitFuncConstructors`
 * (main.go): the common calls of common.ts apply, with two provider facts:
 * - `Routes()` returns false (metal/cloud.go): the route controller never runs;
 * - `LoadBalancer()` returns `c.loadBalancer, c.loadBalancer != nil` (metal/cloud.go) and
 *   `newLoadBalancers` returns nil when the cloud config has no `loadbalancer` setting
 *   (metal/loadbalancers.go): without it the cloud-provider service controller does not
 *   start, so its common calls are only made with a load-balancer implementation set.
 *
 * Every call below is made with the one client `Initialize` asks for
 * (`cloud-provider-equinix-metal-shared-informers`), except where a load-balancer
 * implementation builds its own controller-runtime client from `GetConfigOrDie()`: that
 * is the process's own credentials ('root') whatever `--use-service-account-credentials` says.
 */
import { ApiCall, ProviderInventory } from './types';

const TAG = 'kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1';
const src = (file: string, what: string): string => `${TAG} ${file} (${what})`;

/** The names `Initialize` passes to `ClientBuilder.ClientOrDie` (metal/cloud.go). */
export const EQUINIX_METAL_CLIENT_NAMES = ['cloud-provider-equinix-metal-shared-informers'] as const;

/** The controllers `--controllers` knows (canonical names of app.DefaultInitFuncConstructors). */
export const EQUINIX_METAL_CONTROLLERS = [
  'cloud-node-controller',
  'cloud-node-lifecycle-controller',
  'service-lb-controller',
  'node-route-controller',
] as const;

/** The aliases `--controllers` accepts: main.go passes names.CCMControllerAliases() (kubernetes/cloud-provider@v0.30.2 names/controller_names.go). */
export const EQUINIX_METAL_CONTROLLER_ALIASES: Readonly<Record<string, string>> = {
  'cloud-node': 'cloud-node-controller',
  service: 'service-lb-controller',
  route: 'node-route-controller',
  'cloud-node-lifecycle': 'cloud-node-lifecycle-controller',
};

/** The controllers that do work: node-route never (Routes() false); service-lb only with a `loadbalancer` setting. */
export const EQUINIX_METAL_WORKING_CONTROLLERS = ['cloud-node-controller', 'cloud-node-lifecycle-controller', 'service-lb-controller'] as const;

/** The Service and Endpoints the control-plane EIP / load-balancer managers server-side-apply (metal/eip_controlplane_reconciliation.go). */
export const EQUINIX_METAL_EXTERNAL_SERVICE = { namespace: 'kube-system', name: 'cloud-provider-equinix-metal-kubernetes-external' } as const;

const client = EQUINIX_METAL_CLIENT_NAMES[0];
const ext = EQUINIX_METAL_EXTERNAL_SERVICE;

/**
 * Server-side apply (`Apply`, a PATCH with application/apply-patch+yaml) of an object that may
 * not exist yet: the API server authorizes `patch`, and `create` when the apply creates it
 * (kubernetes/apiserver@v0.30.2 pkg/endpoints/handlers/patch.go: createValidation is wrapped in
 * withAuthorization(..., createAuthorizerAttributes) with verb "create").
 */
const applied = (resource: string, when: ApiCall['when'], file: string, what: string): ApiCall[] => [
  { client, verbs: ['patch'], apiGroup: '', resource, namespace: ext.namespace, name: ext.name, when, source: src(file, what) },
  {
    client,
    verbs: ['create'],
    apiGroup: '',
    resource,
    namespace: ext.namespace,
    when,
    source: src(file, `${what}; creates the object on first apply`),
  },
];

/** The provider's own calls (beside common.ts). */
export const EQUINIX_METAL_OWN_CALLS: readonly ApiCall[] = [
  // --- control-plane Elastic IP (cloud config `eipTag` / env METAL_EIP_TAG; Cluster API sets it)
  {
    client,
    verbs: ['list', 'watch'],
    apiGroup: '',
    resource: 'nodes',
    when: 'eipTag',
    source: src(
      'metal/eip_controlplane_reconciliation.go',
      'newControlPlaneEndpointManager: NewSharedInformerFactory(k8sclient) Nodes().Informer(); WaitForCacheSync(stop)',
    ),
  },
  {
    client,
    verbs: ['list', 'watch'],
    apiGroup: '',
    resource: 'endpoints',
    when: 'eipTag',
    source: src('metal/eip_controlplane_reconciliation.go', 'Endpoints().Informer() over all namespaces (filters default/kubernetes in the handler)'),
  },
  {
    client,
    verbs: ['list', 'watch'],
    apiGroup: '',
    resource: 'services',
    when: 'eipTag',
    source: src('metal/eip_controlplane_reconciliation.go', 'Services().Informer() over all namespaces (filters default/kubernetes in the handler)'),
  },
  {
    client,
    verbs: ['list'],
    apiGroup: '',
    resource: 'nodes',
    when: 'eipTag',
    source: src('metal/eip_controlplane_reconciliation.go', 'tryReassign -> Nodes().List(LabelSelector control-plane labels)'),
  },
  ...applied('endpoints', 'eipTag', 'metal/eip_controlplane_reconciliation.go', 'syncEndpoints -> Endpoints(kube-system).Apply(FieldManager)'),
  ...applied('services', 'eipTag', 'metal/eip_controlplane_reconciliation.go', 'syncService -> Services(kube-system).Apply(FieldManager)'),
  {
    client,
    verbs: ['patch'],
    apiGroup: '',
    resource: 'services/status',
    namespace: ext.namespace,
    name: ext.name,
    when: 'eipTag',
    source: src('metal/eip_controlplane_reconciliation.go', 'syncService -> Services(kube-system).ApplyStatus (load-balancer ingress = the EIP)'),
  },

  // --- control-plane load balancer (cloud config `loadBalancerID` / env METAL_LOAD_BALANCER_ID)
  {
    client,
    verbs: ['list', 'watch'],
    apiGroup: '',
    resource: 'endpoints',
    when: 'controlPlaneLoadBalancer',
    source: src(
      'metal/controlplane_load_balancer_manager.go',
      'newControlPlaneLoadBalancerManager (returns early when loadBalancerID is empty): Endpoints().Informer(); WaitForCacheSync(stop)',
    ),
  },
  {
    client,
    verbs: ['list', 'watch'],
    apiGroup: '',
    resource: 'services',
    when: 'controlPlaneLoadBalancer',
    source: src('metal/controlplane_load_balancer_manager.go', 'Services().Informer() over all namespaces'),
  },
  ...applied(
    'endpoints',
    'controlPlaneLoadBalancer',
    'metal/controlplane_load_balancer_manager.go',
    'syncEndpoints -> Endpoints(kube-system).Apply(FieldManager)',
  ),
  ...applied(
    'services',
    'controlPlaneLoadBalancer',
    'metal/controlplane_load_balancer_manager.go',
    'syncService -> Services(kube-system).Apply(FieldManager)',
  ),
];

/**
 * Calls made only with a `loadbalancer` implementation in the cloud config (`kube-vip://`,
 * `metallb://[ns/cm][?crdConfiguration=true]`, `emlb:///<metro>`, `empty://`; env
 * METAL_LOAD_BALANCER). types.ts has no `when` key for that condition yet, so these are
 * kept apart from {@link EQUINIX_METAL_INVENTORY} rather than claimed "always": key
 * `any` = every implementation, `bgp` = every implementation but emlb (`usesBGP`),
 * `metallbConfigMap`, `metallbCrd`, `emlb` = that implementation only.
 */
export const EQUINIX_METAL_LOAD_BALANCER_CALLS: Readonly<Record<'any' | 'bgp' | 'metallbConfigMap' | 'metallbCrd' | 'emlb', readonly ApiCall[]>> = {
  any: [
    {
      client,
      verbs: ['get'],
      apiGroup: '',
      resource: 'namespaces',
      name: 'kube-system',
      source: src(
        'metal/loadbalancers.go',
        'newLoadBalancers: Namespaces().Get("kube-system") (its UID is the cluster ID), after the early return for an empty setting',
      ),
    },
  ],
  bgp: [
    {
      client,
      verbs: ['patch'],
      apiGroup: '',
      resource: 'nodes',
      source: src('metal/loadbalancers.go', 'annotateNode -> Nodes().Patch (BGP peer annotations), when usesBGP'),
    },
    {
      client,
      verbs: ['get', 'update'],
      apiGroup: '',
      resource: 'services',
      source: src('metal/loadbalancers.go', 'addService and retrieveIPByTag: Services(ns).Get then Update (spec.loadBalancerIP = the reserved EIP)'),
    },
  ],
  metallbConfigMap: [
    {
      client,
      verbs: ['get', 'patch'],
      apiGroup: '',
      resource: 'configmaps',
      namespace: 'metallb-system',
      name: 'config',
      source: src(
        'metal/loadbalancers/metallb/metallb.go, metal/loadbalancers/metallb/configmap.go',
        'defaults metallb-system/config; CMConfigurer.Get -> cmi.Get, Update -> cmi.Patch (merge)',
      ),
    },
  ],
  metallbCrd: [
    {
      client: 'root',
      verbs: ['list', 'create', 'patch', 'delete'],
      apiGroup: 'metallb.io',
      resource: 'bgppeers',
      namespace: 'metallb-system',
      source: src(
        'metal/loadbalancers/metallb/metallb.go, metal/loadbalancers/metallb/cr.go',
        'crdConfiguration=true: client.New(clientconfig.GetConfigOrDie()); CRDConfigurer List/Create/Patch/Delete BGPPeer',
      ),
    },
    {
      client: 'root',
      verbs: ['list', 'create', 'patch', 'delete'],
      apiGroup: 'metallb.io',
      resource: 'ipaddresspools',
      namespace: 'metallb-system',
      source: src('metal/loadbalancers/metallb/cr.go', 'CRDConfigurer List/Create/Patch/Delete IPAddressPool'),
    },
    {
      client: 'root',
      verbs: ['list', 'create', 'patch', 'delete'],
      apiGroup: 'metallb.io',
      resource: 'bgpadvertisements',
      namespace: 'metallb-system',
      source: src('metal/loadbalancers/metallb/cr.go', 'CRDConfigurer List/Create/Patch/Delete BGPAdvertisement'),
    },
  ],
  emlb: [
    {
      client: 'root',
      verbs: ['patch'],
      apiGroup: '',
      resource: 'services',
      source: src(
        'metal/loadbalancers/emlb/emlb.go',
        'NewLB: client.New(clientconfig.GetConfigOrDie()); reconcileService -> l.client.Patch(svc) (load-balancer ID and metro annotations)',
      ),
    },
  ],
};

export const EQUINIX_METAL_INVENTORY: ProviderInventory = {
  provider: 'equinix-metal',
  imageTag: 'v3.8.1',
  calls: EQUINIX_METAL_OWN_CALLS,
};

/**
 * The `spec.kubernetes.equinixMetalLoadBalancer` value -> the call groups of its implementation
 * (metal/loadbalancers.go newLoadBalancers: every implementation reads the kube-system Namespace;
 * all but emlb use BGP (usesBGP); metallb `?crdConfiguration=true` switches from the ConfigMap to
 * the CRD configurer).
 */
export const EQUINIX_METAL_LOAD_BALANCER_GROUPS: readonly (readonly [string, readonly (keyof typeof EQUINIX_METAL_LOAD_BALANCER_CALLS)[]])[] = [
  ['kube-vip', ['any', 'bgp']],
  ['metallb', ['any', 'bgp', 'metallbConfigMap']],
  ['metallb-crd', ['any', 'bgp', 'metallbCrd']],
  ['emlb', ['any', 'emlb']],
];

/** The calls the named load-balancer implementation makes (none without one). */
export function equinixMetalLoadBalancerCalls(implementation: string | undefined): ApiCall[] {
  const groups = EQUINIX_METAL_LOAD_BALANCER_GROUPS.find(([name]) => name === implementation)?.[1] ?? [];
  return groups.flatMap((g) => EQUINIX_METAL_LOAD_BALANCER_CALLS[g]);
}
