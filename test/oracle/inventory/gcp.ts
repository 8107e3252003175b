/**
 * GCP: kubernetes/cloud-provider-gcp@ccm/v35.0.0 (= tag v35.0.0, same commit; image
 * registry.k8s.io/cloud-provider-gcp/cloud-controller-manager:v35.0.0), built on
 * k8s.io/cloud-provider v0.34.2 (go.mod replace). The generic app and controllers are in common.ts.
 *
 * Not inventoried: the `gkenetworkparamset` and `gke-service-lb-controller` controllers
 * (disabled by default: cmd/cloud-controller-manager/main.go ControllersDisabledByDefault;
 * the renderer never enables them) and the NodeTopology syncer (only with
 * `--enable-multi-subnet-cluster`).
 */
import { cloudProviderAppCalls, clientBuilderCalls, eventCalls, LibraryVersions, NODE_EVENTS } from './common';
import { ProviderInventory, WhenKey } from './types';

const TAG = 'ccm/v35.0.0';
const R = `kubernetes/cloud-provider-gcp@${TAG}`;
const V: LibraryVersions = { cloudProvider: 'v0.34.2', controllerManager: 'v0.34.2', apiserver: 'v0.34.2', clientGo: 'v0.34.2' };

/** kcmnames.NodeIpamController (vendor/k8s.io/kubernetes/cmd/kube-controller-manager/names/controller_names.go), alias "nodeipam" (main.go). */
export const GCP_NODE_IPAM_CONTROLLER = 'node-ipam-controller';

const service: WhenKey = 'controller:service-lb-controller';
const ipam: WhenKey[] = ['nodeIpam'];
const cp = 'cloud-provider';

export const GCP_INVENTORY: ProviderInventory = {
  provider: 'gcp',
  imageTag: 'v35.0.0',
  calls: [
    ...cloudProviderAppCalls(V),
    // Initialize: clientBuilder.ClientOrDie("cloud-provider"), its recorder, and the cluster-ID watch
    ...clientBuilderCalls(cp, V),
    ...eventCalls(cp, `${R} providers/gce/gce.go (Initialize: ClientOrDie("cloud-provider"), eventBroadcaster.StartRecordingToSink)`),
    {
      client: cp,
      verbs: ['list', 'watch'],
      apiGroup: '',
      resource: 'configmaps',
      namespace: 'kube-system',
      name: 'ingress-uid',
      source: `${R} providers/gce/gce_clusterid.go (watchClusterID: ListWatch on configmaps in kube-system through newSingleObjectListerWatcher, field selector metadata.name=ingress-uid)`,
    },
    {
      client: cp,
      verbs: ['create'],
      apiGroup: '',
      resource: 'configmaps',
      namespace: 'kube-system',
      when: service,
      source: `${R} providers/gce/gce_clusterid.go (getOrInitialize: ConfigMaps("kube-system").Create(ingress-uid) when missing, on the first load balancer); kubernetes/cloud-provider-gcp#116`,
    },
    {
      client: cp,
      verbs: ['patch'],
      apiGroup: '',
      resource: 'services/status',
      when: service,
      source: `${R} providers/gce/gce_util.go (addFinalizer/removeFinalizer: servicehelper.PatchService on "status"), providers/gce/gce_loadbalancer.go (Services().ApplyStatus)`,
    },
    // SetInformers: the zone cache from the root node informer
    {
      client: 'root',
      verbs: ['list', 'watch'],
      apiGroup: '',
      resource: 'nodes',
      source: `${R} providers/gce/gce.go (SetInformers: Core().V1().Nodes())`,
    },
    // node IPAM (client "node-controller"; the Network informers use the root kubeconfig)
    ...clientBuilderCalls('node-controller', V, ipam),
    {
      client: 'node-controller',
      verbs: ['list', 'get', 'patch'],
      apiGroup: '',
      resource: 'nodes',
      when: ipam,
      source: `${R} pkg/controller/nodeipam/ipam/cidr_allocator.go (listNodes), ipam/adapter.go (Nodes().Get, Nodes().Patch), ipam/range_allocator.go and cloud_cidr_allocator.go (PatchNodeCIDRs)`,
    },
    {
      client: 'node-controller',
      verbs: ['patch'],
      apiGroup: '',
      resource: 'nodes/status',
      when: ipam,
      source: `${R} pkg/controller/nodeipam/ipam/adapter.go and cloud_cidr_allocator.go (nodeutil.SetNodeCondition: Nodes().PatchStatus)`,
    },
    ...eventCalls(
      'node-controller',
      `${R} pkg/controller/nodeipam/node_ipam_controller.go, ipam/range_allocator.go, ipam/cloud_cidr_allocator.go (StartRecordingToSink; events on Nodes)`,
      ipam,
      NODE_EVENTS,
    ),
    {
      client: 'root',
      verbs: ['list', 'watch'],
      apiGroup: 'networking.gke.io',
      resource: 'networks',
      when: ['nodeIpam', 'cloudAllocator'],
      source: `${R} cmd/cloud-controller-manager/nodeipamcontroller.go (networkclientset.NewForConfig(ccmConfig.Complete().Kubeconfig), nwInformer), pkg/controller/nodeipam/ipam/cloud_cidr_allocator.go (nwInformer.Informer())`,
    },
    {
      client: 'root',
      verbs: ['list', 'watch'],
      apiGroup: 'networking.gke.io',
      resource: 'gkenetworkparamsets',
      when: ['nodeIpam', 'cloudAllocator'],
      source: `${R} cmd/cloud-controller-manager/nodeipamcontroller.go (gnpInformer), pkg/controller/nodeipam/ipam/cloud_cidr_allocator.go (gnpInformer.Lister())`,
    },
  ],
};
