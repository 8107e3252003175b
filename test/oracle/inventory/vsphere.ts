/**
 * vSphere: kubernetes/cloud-provider-vsphere@v1.36.0 (image
 * registry.k8s.io/cloud-pv-vsphere/cloud-provider-vsphere:v1.36.0), built on k8s.io/cloud-provider
 * v0.36.0 (go.mod; cmd/vsphere-cloud-controller-manager/main.go runs app.Run with
 * app.DefaultInitFuncConstructors). The generic app and controllers are in common.ts.
 *
 * Not inventoried: the NSX-T load balancer (only with a `[LoadBalancer]` section) and the NSX-T
 * secret listener (only with NSX-T credentials in a Secret).
 */
import { cloudProviderAppCalls, clientBuilderCalls, LibraryVersions } from './common';
import { ProviderInventory } from './types';

const TAG = 'v1.36.0';
const R = `kubernetes/cloud-provider-vsphere@${TAG}`;
const V: LibraryVersions = { cloudProvider: 'v0.36.0', controllerManager: 'v0.36.0', apiserver: 'v0.36.0', clientGo: 'v0.36.0' };
const vs = 'vsphere-cloud-controller-manager';

export const VSPHERE_INVENTORY: ProviderInventory = {
  provider: 'vsphere',
  imageTag: TAG,
  calls: [
    ...cloudProviderAppCalls(V),
    // Initialize: clientBuilder.Client(ClientName); on error vs.informMgr stays nil and Initialize dereferences it (panic)
    ...clientBuilderCalls(vs, V),
    {
      client: vs, verbs: ['list', 'watch'], apiGroup: '', resource: 'nodes',
      source: `${R} pkg/cloudprovider/vsphere/cloud.go (Initialize: k8s.NewInformer(client, ...), AddNodeListener), pkg/common/kubernetes/informers.go (its own SharedInformerFactory on that client)`,
    },
    {
      // the vCenter credentials Secret: `secret-namespace` of vsphere.conf; kube-system in the upstream release manifest
      client: vs, verbs: ['list', 'watch'], apiGroup: '', resource: 'secrets', namespace: 'kube-system',
      source: `${R} pkg/common/connectionmanager/connectionmanager.go (NewConnectionManager: informMgr.GetSecretLister(cfg.Global.SecretNamespace); InitializeSecretLister/createManagersPerTenant per vCenter secret), pkg/common/kubernetes/informers.go (WithNamespace(namespace); an empty secret-namespace means the cluster-wide factory); releases/v1.36/vsphere-cloud-controller-manager.yaml (secret-namespace: kube-system)`,
    },
  ],
};
