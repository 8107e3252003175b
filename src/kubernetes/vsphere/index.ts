import { core, UpstreamProvider } from '../provider';
import { vsphereSecretNamespaces } from './secret-namespaces';
import { vsphereCloudConfigProblems, vsphereSecretEnvProblems } from './validate';

/** vSphere (kubernetes/cloud-provider-vsphere): vsphere.conf in a ConfigMap, the vCenter credentials in the Secret it names. */
export const VSPHERE: UpstreamProvider = {
  platform: 'VSphere',
  name: 'vsphere',
  imageKey: 'cloudControllerManagerVSphere',
  cloudProvider: 'vsphere',
  framework: 'cloud-provider',
  defaultKind: 'DaemonSet',
  defaultPort: 10258,
  clusterNameFlag: false,
  extraFlags: [],
  config: {
    what: 'cloud config',
    mountDir: '/etc/cloud',
    fileName: 'vsphere.conf',
    flag: '--cloud-config',
    defaultSource: { kind: 'ConfigMap', name: 'vsphere-cloud-config', key: 'vsphere.conf' },
    inline: true,
    configMapAllowed: true,
  },
  priorityClassName: {
    name: 'system-node-critical',
    source:
      'kubernetes/cloud-provider-vsphere@v1.36.0 releases/v1.36/vsphere-cloud-controller-manager.yaml, charts/vsphere-cpi/templates/daemonset.yaml',
  },
  requests: { cpu: '200m', memory: '50Mi' },
  grants: [
    {
      identity: 'provider',
      rule: core(['nodes'], ['list', 'watch']),
      source: 'kubernetes/cloud-provider-vsphere@v1.36.0 pkg/cloudprovider/vsphere/cloud.go (Initialize: node informer)',
    },
    {
      // kube-system is the upstream release manifest's secret-namespace, used when vsphere.conf is not rendered
      identity: 'provider',
      namespace: 'kube-system',
      namespaceFrom: 'config-secrets',
      rule: core(['secrets'], ['list', 'watch']),
      source:
        'kubernetes/cloud-provider-vsphere@v1.36.0 pkg/common/connectionmanager/connectionmanager.go (NewConnectionManager: GetSecretLister(Global.SecretNamespace); InitializeSecretLister: one lister per vCenter secretNamespace)',
    },
  ],
  configSecretNamespaces: (conf) => {
    const read = vsphereSecretNamespaces(conf);
    return read && [...new Set([read.global, ...read.vcenters.map((v) => v.namespace)].filter((n) => n !== ''))].sort();
  },
  authenticationReader: true,
  entrypoint: {
    kind: 'binary',
    binary: '/bin/vsphere-cloud-controller-manager',
    source: 'kubernetes/cloud-provider-vsphere@v1.36.0 cluster/images/controller-manager/Dockerfile (ENTRYPOINT)',
  },
  leaderElection: {
    lock: 'leases',
    name: 'cloud-controller-manager',
    source: 'kubernetes/cloud-provider@v0.36.0 options/options.go (go.mod of kubernetes/cloud-provider-vsphere@v1.36.0)',
  },
  servedPort: { port: 10258, source: 'kubernetes/cloud-provider@v0.36.0 options/options.go (CloudControllerManagerPort)' },
  providerClient: {
    name: 'vsphere-cloud-controller-manager',
    source: 'kubernetes/cloud-provider-vsphere@v1.36.0 pkg/cloudprovider/vsphere/cloud.go (Initialize: ClientName; secret informer)',
  },
  // no node IPAM: kubernetes/cloud-provider-vsphere@v1.36.0 cmd/vsphere-cloud-controller-manager/main.go registers app.DefaultInitFuncConstructors only
  routesNeed: {
    what: "with NSX-T: the cloud config's route section must set routerPath",
    source:
      'kubernetes/cloud-provider-vsphere@v1.36.0 pkg/cloudprovider/vsphere/route/routeprovider.go (NewRouteProvider: no routerPath, no routes), cloud.go (Routes)',
  },
  tagsFollowKubernetes: true,
  tagMinors: { 'v1.36.0': { minor: '1.36', source: 'kubernetes/cloud-provider-vsphere@v1.36.0 go.mod (k8s.io/cloud-provider v0.36.0)' } },
  upstreamInstalls: [
    {
      kind: 'DaemonSet',
      name: 'vsphere-cpi',
      namespace: 'kube-system',
      selector: { app: 'vsphere-cpi' },
      source: 'kubernetes/cloud-provider-vsphere@v1.36.0 charts/vsphere-cpi/templates/daemonset.yaml',
    },
    {
      // our name, another (immutable) selector; manifests/controller-manager/vsphere-cloud-controller-manager-ds.yaml selects k8s-app, as we do
      kind: 'DaemonSet',
      name: 'vsphere-cloud-controller-manager',
      namespace: 'kube-system',
      selector: { name: 'vsphere-cloud-controller-manager' },
      source: 'kubernetes/cloud-provider-vsphere@v1.36.0 releases/v1.36/vsphere-cloud-controller-manager.yaml',
    },
  ],
  specProblems: vsphereSecretEnvProblems,
  cloudConfigProblems: vsphereCloudConfigProblems,
};
