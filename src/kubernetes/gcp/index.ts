import { core, KubernetesProblem, UpstreamProvider } from '../provider';

/** GCP (kubernetes/cloud-provider-gcp): reads the project from the metadata server; gce.conf is optional. */
export const GCP: UpstreamProvider = {
  platform: 'GCP',
  name: 'gcp',
  imageKey: 'cloudControllerManagerGCP',
  cloudProvider: 'gce',
  framework: 'cloud-provider',
  defaultKind: 'DaemonSet',
  defaultPort: 10258,
  clusterNameFlag: true,
  extraFlags: [],
  config: {
    what: 'cloud config',
    mountDir: '/etc/kubernetes/cloud-config',
    fileName: 'cloud.config',
    flag: '--cloud-config',
    inline: true,
    configMapAllowed: true,
  },
  // cpu: kubernetes/cloud-provider-gcp@ccm/v35.0.0 deploy/packages/default/manifest.yaml; it sets no memory request, 50Mi is ours
  requests: { cpu: '200m', memory: '50Mi' },
  grants: [
    {
      identity: 'provider',
      rule: core(['events'], ['create', 'patch']),
      source: 'kubernetes/cloud-provider-gcp@ccm/v35.0.0 providers/gce/gce.go (Initialize: eventBroadcaster)',
    },
    {
      identity: 'provider',
      rule: core(['services/status'], ['patch']),
      source: 'kubernetes/cloud-provider-gcp@ccm/v35.0.0 providers/gce/gce_loadbalancer.go (ApplyStatus), gce_loadbalancer_external.go (finalizers)',
    },
    {
      identity: 'provider',
      namespace: 'kube-system',
      rule: core(['configmaps'], ['list', 'watch'], ['ingress-uid']),
      source: 'kubernetes/cloud-provider-gcp@ccm/v35.0.0 providers/gce/gce_clusterid.go (ClusterID watch of ConfigMap kube-system/ingress-uid)',
    },
    {
      // upstream's own role lacks it: kubernetes/cloud-provider-gcp#116
      identity: 'provider',
      namespace: 'kube-system',
      rule: core(['configmaps'], ['create']),
      source: 'kubernetes/cloud-provider-gcp@ccm/v35.0.0 providers/gce/gce_clusterid.go (creates ConfigMap kube-system/ingress-uid when missing)',
    },
    {
      identity: 'node-controller',
      rule: core(['nodes'], ['list', 'get', 'patch']),
      when: ['--allocate-node-cidrs=true'],
      source:
        'kubernetes/cloud-provider-gcp@ccm/v35.0.0 cmd/cloud-controller-manager/nodeipamcontroller.go (ClientOrDie("node-controller")), pkg/controller/nodeipam',
    },
    {
      identity: 'node-controller',
      rule: core(['nodes/status'], ['patch']),
      when: ['--allocate-node-cidrs=true'],
      source: 'kubernetes/cloud-provider-gcp@ccm/v35.0.0 pkg/controller/nodeipam (node CIDR status)',
    },
    {
      identity: 'node-controller',
      rule: core(['events'], ['create', 'patch']),
      when: ['--allocate-node-cidrs=true'],
      source: 'kubernetes/cloud-provider-gcp@ccm/v35.0.0 pkg/controller/nodeipam (event recorder)',
    },
    {
      identity: 'root',
      rule: { apiGroups: ['networking.gke.io'], resources: ['networks', 'gkenetworkparamsets'], verbs: ['list', 'watch'] },
      when: ['--allocate-node-cidrs=true', '--cidr-allocator-type=CloudAllocator'],
      source:
        'kubernetes/cloud-provider-gcp@ccm/v35.0.0 cmd/cloud-controller-manager/nodeipamcontroller.go (networkinformers on the root kubeconfig)',
    },
  ],
  authenticationReader: true,
  entrypoint: { kind: 'binary', binary: '/cloud-controller-manager', source: 'kubernetes/cloud-provider-gcp@ccm/v35.0.0 Dockerfile (ENTRYPOINT)' },
  leaderElection: {
    lock: 'leases',
    name: 'cloud-controller-manager',
    source: 'kubernetes/cloud-provider@v0.34.2 options/options.go (go.mod of kubernetes/cloud-provider-gcp@ccm/v35.0.0)',
  },
  servedPort: { port: 10258, source: 'kubernetes/cloud-provider@v0.34.2 options/options.go (CloudControllerManagerPort)' },
  providerClient: { name: 'cloud-provider', source: 'kubernetes/cloud-provider-gcp@ccm/v35.0.0 providers/gce/gce.go (Initialize)' },
  tagsFollowKubernetes: false,
  tagMinors: { 'v35.0.0': { minor: '1.34', source: 'kubernetes/cloud-provider-gcp@ccm/v35.0.0 go.mod (k8s.io/cloud-provider v0.34.2)' } },
  nodeIpamController: {
    name: 'node-ipam-controller',
    source:
      'kubernetes/cloud-provider-gcp@ccm/v35.0.0 cmd/cloud-controller-manager/main.go (nodeipam enabled by default), nodeipamcontroller.go (startNodeIpamController: "the AllocateNodeCIDRs is not enabled" is fatal)',
  },
  nodeIpam: {
    controller: 'node-ipam-controller',
    source: 'kubernetes/cloud-provider-gcp@ccm/v35.0.0 cmd/cloud-controller-manager/main.go (controllerInitializers[kcmnames.NodeIpamController])',
  },
  nodeIpamMoveProblems: gcpNodeIpamMoveProblems,
  upstreamInstalls: [
    {
      kind: 'DaemonSet',
      name: 'cloud-controller-manager',
      namespace: 'kube-system',
      selector: { component: 'cloud-controller-manager' },
      source: 'kubernetes/cloud-provider-gcp@ccm/v35.0.0 deploy/packages/default/manifest.yaml',
    },
  ],
};

/** The GCP CCM's node IPAM reads the KCM's own allocator flags (kubernetes/cloud-provider-gcp@ccm/v35.0.0 cmd/cloud-controller-manager/nodeipamcontroller.go). */
function gcpNodeIpamMoveProblems(args: readonly string[]): KubernetesProblem[] {
  const missing = [
    ...(args.includes('cidr-allocator-type') ? [] : ['no cidr-allocator-type']),
    ...(args.some((a) => /^node-cidr-mask-size(-ipv4|-ipv6)?$/.test(a)) ? [] : ['no node-cidr-mask-size (or -ipv4/-ipv6)']),
  ];
  return missing.length === 0
    ? []
    : [
        {
          path: ['spec', 'kubernetes', 'extraArgs'],
          message: `has ${missing.join(', ')} while node IPAM moves to the GCP CCM: it must allocate pod CIDRs as kube-controller-manager did (its --cidr-allocator-type, CloudAllocator on IP-alias clusters, and its mask sizes), or new nodes get CIDRs of another kind or size; set them to kube-controller-manager's values`,
        },
      ];
}
