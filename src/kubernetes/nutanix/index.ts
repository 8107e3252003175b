import { core, UpstreamProvider } from '../provider';
import { nutanixConfigProblems } from './validate';

/** Nutanix (nutanix-cloud-native/cloud-provider-nutanix): only cloud-node and cloud-node-lifecycle; the Prism Central credentials are in the Secret the config names. */
export const NUTANIX: UpstreamProvider = {
  platform: 'Nutanix',
  name: 'nutanix',
  imageKey: 'cloudControllerManagerNutanix',
  framework: 'cloud-provider',
  defaultKind: 'Deployment',
  defaultPort: 10258,
  clusterNameFlag: false,
  extraFlags: [],
  config: {
    what: 'cloud config',
    mountDir: '/etc/cloud',
    fileName: 'nutanix_config.json',
    flag: '--cloud-config',
    defaultSource: { kind: 'ConfigMap', name: 'nutanix-config', key: 'nutanix_config.json' },
    inline: true,
    configMapAllowed: true,
  },
  defaultReplicas: {
    replicas: 2,
    source:
      'nutanix-cloud-native/cloud-provider-nutanix@v0.5.2 manifests/cloud-provider-nutanix-deployment.yaml (with required hostname anti-affinity)',
  },
  requests: { cpu: '100m', memory: '50Mi' },
  grants: [
    {
      identity: 'provider',
      rule: core(['nodes'], ['get', 'patch']),
      source: 'nutanix-cloud-native/cloud-provider-nutanix@v0.5.2 pkg/provider/manager.go',
    },
    {
      // the informers are scoped to POD_NAMESPACE: the CCM's own namespace, wherever it runs
      identity: 'provider',
      namespaceFrom: 'ccm',
      rule: core(['secrets', 'configmaps'], ['list', 'watch']),
      source:
        'nutanix-cloud-native/cloud-provider-nutanix@v0.5.2 pkg/provider/manager.go (setInformers: WithNamespace(GetCCMNamespace()) = env POD_NAMESPACE), pkg/provider/client.go (SetInformers, syncCache)',
    },
  ],
  stoppedControllers: [
    {
      controller: 'service',
      source:
        'kubernetes/cloud-provider@v0.33.3 controllers/service/controller.go (New: init() fails, LoadBalancer() false in nutanix-cloud-native/cloud-provider-nutanix@v0.5.2 pkg/provider/provider.go)',
    },
  ],
  authenticationReader: true,
  env: [{ name: 'POD_NAMESPACE', fieldPath: 'metadata.namespace' }],
  entrypoint: {
    kind: 'binary',
    binary: '/ko-app/cloud-provider-nutanix',
    source: 'nutanix-cloud-native/cloud-provider-nutanix@v0.5.2 Makefile (ko build: the ENTRYPOINT is the binary)',
  },
  leaderElection: {
    lock: 'leases',
    name: 'cloud-controller-manager',
    source: 'kubernetes/cloud-provider@v0.33.3 options/options.go (go.mod of nutanix-cloud-native/cloud-provider-nutanix@v0.5.2)',
  },
  servedPort: { port: 10258, source: 'kubernetes/cloud-provider@v0.33.3 options/options.go (CloudControllerManagerPort)' },
  providerClient: {
    name: 'cloud-provider-nutanix',
    source: 'nutanix-cloud-native/cloud-provider-nutanix@v0.5.2 pkg/provider/provider.go (Initialize)',
  },
  tagsFollowKubernetes: false,
  tagMinors: { 'v0.5.2': { minor: '1.33', source: 'nutanix-cloud-native/cloud-provider-nutanix@v0.5.2 go.mod (k8s.io/cloud-provider v0.33.3)' } },
  cloudConfigProblems: nutanixConfigProblems,
};
