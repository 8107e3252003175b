import { core, ProviderGrant, UpstreamProvider } from '../provider';
import { equinixLoadBalancerProblems } from './validate';

/** Equinix Metal (kubernetes-sigs/cloud-provider-equinix-metal): cloud-sa.json holds the API key; the project is deprecated. */
export const EQUINIX_METAL: UpstreamProvider = {
  platform: 'EquinixMetal',
  name: 'equinix-metal',
  imageKey: 'cloudControllerManagerEquinixMetal',
  cloudProvider: 'equinixmetal',
  framework: 'cloud-provider',
  defaultKind: 'DaemonSet',
  defaultPort: 10258,
  clusterNameFlag: false,
  extraFlags: ['--authentication-skip-lookup=true'],
  config: {
    what: 'cloud config',
    mountDir: '/etc/cloud-sa',
    fileName: 'cloud-sa.json',
    flag: '--cloud-config',
    defaultSource: { kind: 'Secret', name: 'metal-cloud-config', key: 'cloud-sa.json' },
    inline: false,
    configMapAllowed: false,
  },
  requests: { cpu: '100m', memory: '50Mi' },
  grants: [
    {
      identity: 'provider',
      rule: core(['endpoints', 'services', 'nodes'], ['list', 'watch']),
      source:
        'kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1 metal/eip_controlplane_reconciliation.go, metal/controlplane_load_balancer_manager.go (informers)',
    },
    {
      identity: 'provider',
      namespace: 'kube-system',
      rule: core(['endpoints', 'services'], ['create']),
      source:
        'kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1 metal/eip_controlplane_reconciliation.go, metal/controlplane_load_balancer_manager.go (server-side apply creates them)',
    },
    {
      identity: 'provider',
      namespace: 'kube-system',
      rule: core(['endpoints', 'services'], ['patch'], ['cloud-provider-equinix-metal-kubernetes-external']),
      source:
        'kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1 metal/eip_controlplane_reconciliation.go, metal/controlplane_load_balancer_manager.go (server-side apply)',
    },
    {
      identity: 'provider',
      namespace: 'kube-system',
      rule: core(['services/status'], ['patch'], ['cloud-provider-equinix-metal-kubernetes-external']),
      source: 'kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1 metal/eip_controlplane_reconciliation.go (Service status of the EIP)',
    },
    // The load-balancer implementation is chosen in cloud-sa.json (`loadbalancer`), which the renderer does not read:
    // spec.kubernetes.equinixMetalLoadBalancer names it, and only its calls are granted (a Role in metallb-system would
    // fail to apply on a cluster without MetalLB).
    ...['kube-vip', 'metallb', 'metallb-crd', 'emlb'].map((lb): ProviderGrant => ({
      identity: 'provider',
      rule: core(['namespaces'], ['get'], ['kube-system']),
      whenFeature: `equinix-lb:${lb}`,
      source:
        'kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1 metal/loadbalancers.go (newLoadBalancers: Namespaces().Get("kube-system") for any implementation)',
    })),
    // the BGP implementations (kube-vip and both MetalLB modes)
    ...['kube-vip', 'metallb', 'metallb-crd'].flatMap((lb): ProviderGrant[] => [
      {
        identity: 'provider',
        rule: core(['nodes'], ['patch']),
        whenFeature: `equinix-lb:${lb}`,
        source: 'kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1 metal/loadbalancers.go (annotateNode: BGP peer annotations, when usesBGP)',
      },
      {
        identity: 'provider',
        rule: core(['services'], ['get', 'update']),
        whenFeature: `equinix-lb:${lb}`,
        source:
          'kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1 metal/loadbalancers.go (addService, retrieveIPByTag: Get then Update spec.loadBalancerIP)',
      },
    ]),
    {
      identity: 'provider',
      namespace: 'metallb-system',
      rule: core(['configmaps'], ['get', 'patch'], ['config']),
      whenFeature: 'equinix-lb:metallb',
      source:
        'kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1 metal/loadbalancers/metallb/configmap.go (metallb:// default metallb-system/config)',
    },
    {
      identity: 'root',
      namespace: 'metallb-system',
      whenFeature: 'equinix-lb:metallb-crd',
      rule: {
        apiGroups: ['metallb.io'],
        resources: ['bgppeers', 'ipaddresspools', 'bgpadvertisements'],
        verbs: ['list', 'create', 'patch', 'delete'],
      },
      source:
        'kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1 metal/loadbalancers/metallb/cr.go (metallb CRD mode, controller-runtime client on the root kubeconfig)',
    },
    {
      identity: 'root',
      rule: core(['services'], ['patch']),
      whenFeature: 'equinix-lb:emlb',
      source: 'kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1 metal/loadbalancers/emlb/emlb.go (emlb: Service annotations)',
    },
  ],
  // without a `loadbalancer` setting newLoadBalancers returns nil and LoadBalancer() is false: servicecontroller.New fails init()
  // after taking the service informer (v0.30); spec.kubernetes.equinixMetalLoadBalancer states the setting
  stoppedControllers: [
    {
      controller: 'service',
      unlessFeature: 'equinix-lb:',
      informersFirst: true,
      source:
        'kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1 metal/cloud.go (LoadBalancer), metal/loadbalancers.go (newLoadBalancers); kubernetes/cloud-provider@v0.30.2 controllers/service/controller.go (New: Informer() before init())',
    },
  ],
  authenticationReader: false,
  deprecated:
    'the Equinix Metal CCM is deprecated upstream (Equinix Metal is sunset in June 2026) and no longer maintained; plan the move off the platform',
  entrypoint: {
    kind: 'binary',
    binary: './cloud-provider-equinix-metal',
    source: 'kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1 Dockerfile (ENTRYPOINT)',
  },
  leaderElection: {
    lock: 'leases',
    name: 'cloud-controller-manager',
    source: 'kubernetes/cloud-provider@v0.30.2 options/options.go (go.mod of kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1)',
  },
  servedPort: { port: 10258, source: 'kubernetes/cloud-provider@v0.30.2 options/options.go (CloudControllerManagerPort)' },
  providerClient: {
    name: 'cloud-provider-equinix-metal-shared-informers',
    source: 'kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1 metal/cloud.go (Initialize)',
  },
  tagsFollowKubernetes: false,
  tagMinors: { 'v3.8.1': { minor: '1.30', source: 'kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1 go.mod (k8s.io/cloud-provider v0.30.2)' } },
  specProblems: equinixLoadBalancerProblems,
  ownKnobs: [
    {
      field: 'equinixMetalLoadBalancer',
      isSet: (k) => k.equinixMetalLoadBalancer !== undefined,
      refusal: (platform) => `is read for platform EquinixMetal only; remove it for ${platform}`,
    },
  ],
};
