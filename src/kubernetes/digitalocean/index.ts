import { core, UpstreamProvider } from '../provider';

/** DigitalOcean (digitalocean/digitalocean-cloud-controller-manager): the API token comes as env from a Secret. */
export const DIGITALOCEAN: UpstreamProvider = {
  platform: 'DigitalOcean',
  name: 'digitalocean',
  imageKey: 'cloudControllerManagerDigitalOcean',
  framework: 'cloud-provider',
  defaultKind: 'Deployment',
  defaultPort: 10258,
  clusterNameFlag: false,
  extraFlags: [],
  config: {
    what: 'API token',
    mountDir: '',
    fileName: '',
    envVar: 'DO_ACCESS_TOKEN',
    defaultSource: { kind: 'Secret', name: 'digitalocean', key: 'access-token' },
    inline: false,
    configMapAllowed: false,
  },
  defaultReplicas: {
    replicas: 1,
    source: 'digitalocean/digitalocean-cloud-controller-manager@v0.1.68 releases/digitalocean-cloud-controller-manager/v0.1.68.yml',
  },
  // no nodeSelector or affinity: on a managed control plane (DOKS) there is no control-plane node to run on
  anyNode: {
    source:
      'digitalocean/digitalocean-cloud-controller-manager@v0.1.68 releases/digitalocean-cloud-controller-manager/v0.1.68.yml (Deployment: tolerations only)',
  },
  requests: { cpu: '100m', memory: '50Mi' },
  // releases/digitalocean-cloud-controller-manager/v0.1.68.yml: Deployment digitalocean-cloud-controller-manager, selector app
  selector: { app: 'digitalocean-cloud-controller-manager' },
  grants: [
    {
      identity: 'provider',
      rule: core(['events'], ['create']),
      source: 'digitalocean/digitalocean-cloud-controller-manager@v0.1.68 cloud-controller-manager/do/cloud.go (Initialize)',
    },
    {
      identity: 'provider',
      rule: core(['services'], ['list', 'watch', 'patch']),
      source:
        'digitalocean/digitalocean-cloud-controller-manager@v0.1.68 cloud-controller-manager/do/cloud.go (resources and firewall controllers: service informer, annotations)',
    },
  ],
  // main.go sets opts.Authentication.SkipInClusterLookup = true: the secure port never reads extension-apiserver-authentication
  authenticationReader: false,
  entrypoint: {
    kind: 'binary',
    binary: '/bin/digitalocean-cloud-controller-manager',
    source:
      'digitalocean/digitalocean-cloud-controller-manager@v0.1.68 cloud-controller-manager/cmd/digitalocean-cloud-controller-manager/Dockerfile (ENTRYPOINT)',
  },
  leaderElection: {
    lock: 'leases',
    name: 'cloud-controller-manager',
    source: 'kubernetes/cloud-provider@v0.36.2 options/options.go (go.mod of digitalocean/digitalocean-cloud-controller-manager@v0.1.68)',
  },
  servedPort: { port: 10258, source: 'kubernetes/cloud-provider@v0.36.2 options/options.go (CloudControllerManagerPort)' },
  providerClient: {
    name: 'do-shared-informers',
    source:
      'digitalocean/digitalocean-cloud-controller-manager@v0.1.68 cloud-controller-manager/do/cloud.go (Initialize: service informers, resources and firewall controllers)',
  },
  tagsFollowKubernetes: false,
  tagMinors: {
    'v0.1.68': { minor: '1.36', source: 'digitalocean/digitalocean-cloud-controller-manager@v0.1.68 go.mod (k8s.io/cloud-provider v0.36.2)' },
  },
};
