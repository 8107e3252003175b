import { core, UpstreamProvider } from '../provider';

/** OpenStack (kubernetes/cloud-provider-openstack): cloud.conf holds the application credential, so it comes from a Secret. */
export const OPENSTACK: UpstreamProvider = {
  platform: 'OpenStack',
  name: 'openstack',
  imageKey: 'cloudControllerManagerOpenStack',
  cloudProvider: 'openstack',
  framework: 'cloud-provider',
  defaultKind: 'DaemonSet',
  defaultPort: 10258,
  defaultControllers: ['cloud-node', 'cloud-node-lifecycle', 'route', 'service'],
  clusterNameFlag: true,
  extraFlags: [],
  config: {
    what: 'cloud config',
    mountDir: '/etc/config',
    fileName: 'cloud.conf',
    flag: '--cloud-config',
    defaultSource: { kind: 'Secret', name: 'cloud-config', key: 'cloud.conf' },
    inline: true,
    configMapAllowed: true,
  },
  requests: { cpu: '200m', memory: '50Mi' },
  grants: [
    {
      identity: 'provider',
      rule: core(['events'], ['create', 'patch']),
      source: 'kubernetes/cloud-provider-openstack@v1.36.0 pkg/openstack/openstack.go (Initialize: eventBroadcaster)',
    },
    {
      identity: 'provider',
      rule: core(['services'], ['patch']),
      source: 'kubernetes/cloud-provider-openstack@v1.36.0 pkg/openstack/loadbalancer.go (annotations on the Service)',
    },
  ],
  authenticationReader: true,
  // go-runner is the ENTRYPOINT since the distroless images; before (v1.25 alpine) there was none: either way the binary is only the CMD
  entrypoint: {
    kind: 'cmd',
    binary: '/bin/openstack-cloud-controller-manager',
    source:
      'kubernetes/cloud-provider-openstack@v1.36.0 Dockerfile (go-runner base, CMD only); charts/openstack-cloud-controller-manager/templates/daemonset.yaml (args start with the binary)',
  },
  leaderElection: {
    lock: 'leases',
    name: 'cloud-controller-manager',
    source: 'kubernetes/cloud-provider@v0.36.0 options/options.go (go.mod of kubernetes/cloud-provider-openstack@v1.36.0)',
  },
  servedPort: { port: 10258, source: 'kubernetes/cloud-provider@v0.36.0 options/options.go (CloudControllerManagerPort)' },
  providerClient: { name: 'cloud-controller-manager', source: 'kubernetes/cloud-provider-openstack@v1.36.0 pkg/openstack/openstack.go (Initialize)' },
  // no node IPAM: kubernetes/cloud-provider-openstack@v1.36.0 cmd/openstack-cloud-controller-manager/main.go registers app.DefaultInitFuncConstructors only
  routesNeed: {
    what: 'when Neutron has the extraroute (or extraroute-atomic) extension',
    source: 'kubernetes/cloud-provider-openstack@v1.36.0 pkg/openstack/openstack.go (Routes: "Neutron extraroute extension not found")',
  },
  tagsFollowKubernetes: true,
  tagMinors: {
    'v1.36.0': { minor: '1.36', source: 'kubernetes/cloud-provider-openstack@v1.36.0 go.mod (k8s.io/cloud-provider v0.36.0)' },
    'v1.25.6': { minor: '1.25', source: 'kubernetes/cloud-provider-openstack@v1.25.6 go.mod (k8s.io/cloud-provider v0.25.10)' },
  },
  upstreamInstalls: [
    {
      // our name, another (immutable) selector; the release manifest manifests/controller-manager/openstack-cloud-controller-manager-ds.yaml selects k8s-app, as we do
      kind: 'DaemonSet',
      name: 'openstack-cloud-controller-manager',
      namespace: 'kube-system',
      selector: { component: 'controllermanager', app: 'openstack-cloud-controller-manager', release: '<release name>' },
      source:
        'kubernetes/cloud-provider-openstack@v1.36.0 charts/openstack-cloud-controller-manager/templates/daemonset.yaml, templates/_helpers.tpl (occm.controllermanager.matchLabels)',
    },
  ],
};
