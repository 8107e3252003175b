import { core, UpstreamProvider } from '../provider';

/** Azure (kubernetes-sigs/cloud-provider-azure): the CCM skips cloud-node, which the cloud-node-manager DaemonSet runs on every node. */
export const AZURE: UpstreamProvider = {
  platform: 'Azure',
  name: 'azure',
  imageKey: 'cloudControllerManagerAzure',
  cloudProvider: 'azure',
  framework: 'cloud-provider',
  defaultKind: 'Deployment',
  defaultPort: 10268,
  defaultControllers: ['*', '-cloud-node'],
  clusterNameFlag: true,
  extraFlags: ['--route-reconciliation-period=10s'],
  config: {
    what: 'cloud config',
    mountDir: '/etc/kubernetes/cloud-config',
    fileName: 'azure.json',
    flag: '--cloud-config',
    defaultSource: { kind: 'Secret', name: 'azure-cloud-provider', key: 'cloud-config' },
    inline: true,
    configMapAllowed: true,
  },
  defaultReplicas: {
    replicas: 1,
    source: 'kubernetes-sigs/cloud-provider-azure@v1.33.2 helm/cloud-provider-azure/values.yaml (cloudControllerManager.replicas)',
  },
  priorityClassName: {
    name: 'system-node-critical',
    source:
      'kubernetes-sigs/cloud-provider-azure@v1.33.2 helm/cloud-provider-azure/templates/cloud-provider-azure.yaml (Deployment cloud-controller-manager)',
  },
  requests: { cpu: '100m', memory: '128Mi' },
  grants: [
    {
      identity: 'root',
      rule: core(['services'], ['list', 'watch']),
      source: 'kubernetes-sigs/cloud-provider-azure@v1.33.2 pkg/provider/azure.go (SetInformers: service informer)',
    },
    {
      identity: 'root',
      rule: { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['list', 'watch'] },
      source: 'kubernetes-sigs/cloud-provider-azure@v1.33.2 pkg/provider/azure.go (SetInformers: EndpointSlice informer)',
    },
    {
      identity: 'provider',
      rule: core(['events'], ['create', 'patch']),
      source: 'kubernetes-sigs/cloud-provider-azure@v1.33.2 pkg/provider/azure.go (eventBroadcaster on KubeClient)',
    },
    {
      identity: 'provider',
      rule: core(['nodes'], ['get', 'patch']),
      source: 'kubernetes-sigs/cloud-provider-azure@v1.33.2 pkg/provider/azure.go (node labels and taints)',
    },
    {
      identity: 'provider',
      rule: core(['namespaces'], ['get']),
      source: 'kubernetes-sigs/cloud-provider-azure@v1.33.2 pkg/provider/azure_loadbalancer.go',
    },
    {
      identity: 'provider',
      rule: core(['services'], ['list']),
      source: 'kubernetes-sigs/cloud-provider-azure@v1.33.2 pkg/provider/azure_loadbalancer.go',
    },
    {
      identity: 'provider',
      namespace: 'kube-system',
      rule: { apiGroups: ['coordination.k8s.io'], resources: ['leases'], resourceNames: ['aks-managed-resource-locker'], verbs: ['get', 'update'] },
      source:
        'kubernetes-sigs/cloud-provider-azure@v1.33.2 pkg/provider/azure_lock.go, pkg/consts/consts.go (Lease kube-system/aks-managed-resource-locker on every LB change)',
    },
    {
      identity: 'provider',
      namespace: 'kube-system',
      rule: { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
      source: 'kubernetes-sigs/cloud-provider-azure@v1.33.2 pkg/provider/azure_lock.go (createLeaseIfNotExists)',
    },
    {
      identity: 'node-controller',
      rule: core(['nodes'], ['list', 'patch']),
      when: ['--allocate-node-cidrs=true'],
      source: 'kubernetes-sigs/cloud-provider-azure@v1.33.2 pkg/nodeipam/ipam/cidr_allocator.go',
    },
    {
      identity: 'node-controller',
      rule: core(['nodes/status'], ['patch']),
      when: ['--allocate-node-cidrs=true'],
      source: 'kubernetes-sigs/cloud-provider-azure@v1.33.2 pkg/nodeipam/ipam (node CIDR status)',
    },
    {
      identity: 'node-controller',
      rule: core(['events'], ['create', 'patch']),
      when: ['--allocate-node-cidrs=true'],
      source: 'kubernetes-sigs/cloud-provider-azure@v1.33.2 pkg/nodeipam/ipam (event recorder)',
    },
    // with a --cloud-config file (always rendered) dynamic reloading runs the file watcher and reads no Secret
    {
      identity: 'root',
      rule: core(['secrets'], ['list', 'watch']),
      when: ['--enable-dynamic-reloading=true'],
      whenUnset: ['--cloud-config'],
      source:
        'kubernetes-sigs/cloud-provider-azure@v1.33.2 cmd/cloud-controller-manager/app/controllermanager.go (RunWrapper: the Secret watcher only without a config file), app/dynamic/secret_watcher.go',
    },
    {
      identity: 'cloud-provider-azure',
      namespace: 'kube-system',
      rule: core(['secrets'], ['get']),
      when: ['--enable-dynamic-reloading=true'],
      whenUnset: ['--cloud-config'],
      source:
        'kubernetes-sigs/cloud-provider-azure@v1.33.2 cmd/cloud-controller-manager/app/controllermanager.go (Run: NewCloudFromSecret only without a config file)',
    },
  ],
  authenticationReader: true,
  cloudNodeManager: true,
  entrypoint: {
    kind: 'binary',
    binary: '/usr/local/bin/cloud-controller-manager',
    source: 'kubernetes-sigs/cloud-provider-azure@v1.33.2 Dockerfile (ENTRYPOINT)',
  },
  leaderElection: {
    lock: 'leases',
    name: 'cloud-controller-manager',
    source: 'kubernetes-sigs/cloud-provider-azure@v1.33.2 cmd/cloud-controller-manager/app/options/options.go',
  },
  servedPort: {
    port: 10258,
    source:
      'kubernetes-sigs/cloud-provider-azure@v1.33.2 cmd/cloud-controller-manager/app/options/options.go (CloudControllerManagerPort; the chart sets --secure-port=10268)',
  },
  providerClient: {
    name: 'azure-cloud-provider',
    source: 'kubernetes-sigs/cloud-provider-azure@v1.33.2 pkg/provider/azure.go (NewCloud: clientBuilder.ClientOrDie)',
  },
  tagsFollowKubernetes: true,
  tagMinors: { 'v1.33.2': { minor: '1.33', source: 'kubernetes-sigs/cloud-provider-azure@v1.33.2 go.mod (k8s.io/cloud-provider v0.33.2)' } },
  nodeIpam: {
    controller: 'node-ipam',
    source:
      'kubernetes-sigs/cloud-provider-azure@v1.33.2 cmd/cloud-controller-manager/app/controllermanager.go (newControllerInitializers: controllers["node-ipam"])',
  },
  upstreamInstalls: [
    {
      kind: 'Deployment',
      name: 'cloud-controller-manager',
      namespace: 'kube-system',
      selector: { tier: 'control-plane', component: 'cloud-controller-manager' },
      source: 'kubernetes-sigs/cloud-provider-azure@v1.33.2 helm/cloud-provider-azure/templates/cloud-provider-azure.yaml',
    },
  ],
  ownKnobs: [
    {
      field: 'workloadIdentity',
      isSet: (k) => k.workloadIdentity.enabled,
      refusal: (platform) => `is Azure's Microsoft Entra workload identity; for ${platform} remove it (AWS: annotate the ServiceAccount for IRSA)`,
    },
  ],
};
