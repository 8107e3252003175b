/**
 * Azure: kubernetes-sigs/cloud-provider-azure@v1.33.2 (images
 * mcr.microsoft.com/oss/v2/kubernetes/azure-cloud-controller-manager:v1.33.2 and
 * azure-cloud-node-manager:v1.33.2). The CCM forks the k8s.io/cloud-provider app
 * (cmd/cloud-controller-manager/app) but keeps its identities: root shared informers, leader
 * election and recorder (app/options/options.go ApplyTo, app/controllermanager.go), and the
 * controllers of k8s.io/cloud-provider v0.33.2 under the same client names (app/core.go).
 */
import { cloudProviderAppCalls, clientBuilderCalls, eventCalls, LibraryVersions, NODE_EVENTS } from './common';
import { ApiCall, AZURE_CONFIG_SECRET_NAMESPACE, ProviderInventory, WhenKey } from './types';

const TAG = 'v1.33.2';
const R = `kubernetes-sigs/cloud-provider-azure@${TAG}`;
const V: LibraryVersions = { cloudProvider: 'v0.33.2', controllerManager: 'v0.33.2', apiserver: 'v0.33.2', clientGo: 'v0.33.2' };
const APP = `${R} cmd/cloud-controller-manager/app/controllermanager.go`;

/** The node IPAM controller of the Azure app (cmd/cloud-controller-manager/app/controllermanager.go newControllerInitializers). */
export const AZURE_NODE_IPAM_CONTROLLER = 'node-ipam';

const service: WhenKey = 'controller:service-lb-controller';
const ipam: WhenKey[] = ['nodeIpam'];
const az = 'azure-cloud-provider';
const LOCK = 'aks-managed-resource-locker';

/** The cloud-node-manager DaemonSet (cmd/cloud-node-manager): no client builder, no leader election, no server by default. */
const CLOUD_NODE_MANAGER: readonly ApiCall[] = [
  {
    client: 'cnm',
    verbs: ['list', 'watch'],
    apiGroup: '',
    resource: 'nodes',
    when: 'cloudNodeManager',
    source: `${R} cmd/cloud-node-manager/app/options/options.go (SharedInformers with field selector metadata.name=<own node>; the node name varies, so no resourceNames)`,
  },
  {
    client: 'cnm',
    verbs: ['get', 'patch', 'update'],
    apiGroup: '',
    resource: 'nodes',
    when: 'cloudNodeManager',
    source: `${R} pkg/nodemanager/nodemanager.go (AddOrUpdateLabelsOnNode: Get+Patch; Nodes().Get; Nodes().Update of the taints/providerID)`,
  },
  {
    client: 'cnm',
    verbs: ['patch'],
    apiGroup: '',
    resource: 'nodes/status',
    when: 'cloudNodeManager',
    source: `${R} pkg/nodemanager/nodemanager.go (PatchNodeStatus: Nodes().Patch(..., "status"))`,
  },
  ...eventCalls(
    'cnm',
    `${R} pkg/nodemanager/nodemanager.go (eventBroadcaster.StartRecordingToSink(kubeClient)); cmd/cloud-node-manager/app/options/options.go createRecorder; events on its Node)`,
    'cloudNodeManager',
    NODE_EVENTS,
  ),
];

export const AZURE_INVENTORY: ProviderInventory = {
  provider: 'azure',
  imageTag: TAG,
  calls: [
    // The Azure app (cmd/cloud-controller-manager/app/controllermanager.go) runs one election and has no
    // leader-migration code (kubernetes-sigs/cloud-provider-azure@v1.33.2, also v1.36.x): --enable-leader-migration
    // is accepted and ignored, so the migration-lease calls of the k8s.io/cloud-provider app never happen.
    ...cloudProviderAppCalls(V, APP).filter((c) => !([] as readonly string[]).concat(c.when ?? []).includes('leaderMigration')),
    // NewCloud and Initialize: clientBuilder.ClientOrDie("azure-cloud-provider") at startup, before leader election
    ...clientBuilderCalls(az, V),
    ...eventCalls(az, `${R} pkg/provider/azure.go (Initialize: ClientOrDie("azure-cloud-provider"), eventBroadcaster.StartRecordingToSink)`),
    // SetInformers on the root shared factory: nodes, the Service lister, EndpointSlices (local services), whatever the controllers
    {
      client: 'root',
      verbs: ['list', 'watch'],
      apiGroup: '',
      resource: 'nodes',
      source: `${R} pkg/provider/azure.go (SetInformers: Core().V1().Nodes())`,
    },
    {
      client: 'root',
      verbs: ['list', 'watch'],
      apiGroup: '',
      resource: 'services',
      source: `${R} pkg/provider/azure.go (SetInformers: az.serviceLister = Core().V1().Services().Lister())`,
    },
    {
      client: 'root',
      verbs: ['list', 'watch'],
      apiGroup: 'discovery.k8s.io',
      resource: 'endpointslices',
      source: `${R} pkg/provider/azure.go (SetInformers -> setUpEndpointSlicesInformer), pkg/provider/azure_local_services.go`,
    },
    // out-of-service taint on shut-down nodes, from the node informer handlers
    {
      client: az,
      verbs: ['get', 'patch'],
      apiGroup: '',
      resource: 'nodes',
      source: `${R} pkg/provider/azure.go (updateNodeTaint: cloudnodeutil.RemoveTaintOffNode / AddOrUpdateTaintOnNode with az.KubeClient)`,
    },
    // the resource lock around every LoadBalancer create/update/delete; pkg/provider/azure_lock.go exists from
    // v1.28.14, v1.29.12, v1.30.8, v1.31.2 and v1.32.0 on (first tag of each minor that has the file)
    {
      client: az,
      verbs: ['get', 'update'],
      apiGroup: 'coordination.k8s.io',
      resource: 'leases',
      namespace: 'kube-system',
      name: LOCK,
      when: service,
      source: `${R} pkg/provider/azure_lock.go (createLeaseIfNotExists, acquireLease, releaseLease), pkg/consts/consts.go (AzureResourceLockLeaseName/Namespace), pkg/provider/azure_loadbalancer.go (EnsureLoadBalancer, UpdateLoadBalancer, EnsureLoadBalancerDeleted: azureResourceLocker.Lock/Unlock)`,
    },
    {
      client: az,
      verbs: ['create'],
      apiGroup: 'coordination.k8s.io',
      resource: 'leases',
      namespace: 'kube-system',
      when: service,
      source: `${R} pkg/provider/azure_lock.go (createLeaseIfNotExists: Leases("kube-system").Create)`,
    },
    // multiple standard load balancers (cloud config multipleStandardLoadBalancerConfigurations): the renderer cannot see the
    // config (often an existing Secret), so these count as always possible
    {
      client: az,
      verbs: ['list'],
      apiGroup: '',
      resource: 'services',
      when: service,
      source: `${R} pkg/provider/azure_loadbalancer.go (reconcileMultipleStandardLoadBalancerConfigurations: Services("").List)`,
    },
    {
      client: az,
      verbs: ['get'],
      apiGroup: '',
      resource: 'namespaces',
      when: service,
      source: `${R} pkg/provider/azure_loadbalancer.go (getEligibleLoadBalancersForService: Namespaces().Get for serviceNamespaceSelector)`,
    },
    // --enable-dynamic-reloading without --cloud-config: the config from a Secret, watched by a root informer across all namespaces;
    // with --cloud-config it runs the file watcher and reads no Secret (cmd/cloud-controller-manager/app/controllermanager.go RunWrapper, Run)
    {
      client: 'root',
      verbs: ['list', 'watch'],
      apiGroup: '',
      resource: 'secrets',
      when: 'azureDynamicReloading',
      source: `${R} cmd/cloud-controller-manager/app/dynamic/secret_watcher.go (RunSecretWatcherOrDie: informers.NewSharedInformerFactory(c.VersionedClient) without namespace)`,
    },
    ...clientBuilderCalls('cloud-provider-azure', V, 'azureDynamicReloading'),
    {
      // the name comes from --cloud-config-secret-name
      client: 'cloud-provider-azure',
      verbs: ['get'],
      apiGroup: '',
      resource: 'secrets',
      namespace: AZURE_CONFIG_SECRET_NAMESPACE,
      when: 'azureDynamicReloading',
      source: `${R} pkg/provider/azure.go (NewCloudFromSecret: ClientOrDie("cloud-provider-azure")), pkg/azclient/configloader/loader_secret.go (Secrets(ns).Get)`,
    },
    // node IPAM ("node-ipam" controller, "node-controller" client)
    ...clientBuilderCalls('node-controller', V, ipam),
    {
      client: 'node-controller',
      verbs: ['list', 'patch'],
      apiGroup: '',
      resource: 'nodes',
      when: ipam,
      source: `${R} pkg/nodeipam/ipam/cidr_allocator.go (listNodes), pkg/util/node/node.go (PatchNodeCIDRs: Nodes().Patch)`,
    },
    {
      client: 'node-controller',
      verbs: ['patch'],
      apiGroup: '',
      resource: 'nodes/status',
      when: ipam,
      source: `${R} pkg/nodeipam/ipam/cloud_cidr_allocator.go (utilnode.SetNodeCondition), pkg/util/node/node.go (Nodes().PatchStatus)`,
    },
    ...eventCalls(
      'node-controller',
      `${R} pkg/nodeipam/node_ipam_controller.go, pkg/nodeipam/ipam/range_allocator.go (StartRecordingToSink; events on Nodes)`,
      ipam,
      NODE_EVENTS,
    ),
    ...CLOUD_NODE_MANAGER,
  ],
};
