/**
 * OpenStack: kubernetes/cloud-provider-openstack@v1.36.0 (image
 * registry.k8s.io/provider-os/openstack-cloud-controller-manager:v1.36.0), built on
 * k8s.io/cloud-provider v0.36.0 (go.mod; cmd/openstack-cloud-controller-manager/main.go runs
 * app.NewCloudControllerManagerCommand with app.DefaultInitFuncConstructors).
 */
import { cloudProviderAppCalls, clientBuilderCalls, eventCalls, LibraryVersions } from './common';
import { ProviderInventory } from './types';

const TAG = 'v1.36.0';
const R = `kubernetes/cloud-provider-openstack@${TAG}`;
const V: LibraryVersions = { cloudProvider: 'v0.36.0', controllerManager: 'v0.36.0', apiserver: 'v0.36.0', clientGo: 'v0.36.0' };
const os = 'cloud-controller-manager';

export const OPENSTACK_INVENTORY: ProviderInventory = {
  provider: 'openstack',
  imageTag: TAG,
  calls: [
    ...cloudProviderAppCalls(V),
    // Initialize: clientBuilder.ClientOrDie("cloud-controller-manager") (the same name as the usual CCM ServiceAccount)
    ...clientBuilderCalls(os, V),
    ...eventCalls(os, `${R} pkg/openstack/openstack.go (Initialize: ClientOrDie("cloud-controller-manager"), eventBroadcaster.StartRecordingToSink)`),
    { client: 'root', verbs: ['list', 'watch'], apiGroup: '', resource: 'nodes', source: `${R} pkg/openstack/openstack.go (SetInformers: Core().V1().Nodes())` },
    {
      // annotations (load-balancer ID, ...) on the Service object itself, not the status subresource
      client: os, verbs: ['patch'], apiGroup: '', resource: 'services', when: 'controller:service-lb-controller',
      source: `${R} pkg/openstack/loadbalancer.go (EnsureLoadBalancer: newServicePatcher), pkg/openstack/loadbalancer_service_patcher.go, pkg/util/util.go (PatchService: Services().Patch without subresource)`,
    },
  ],
};
