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
    {
      client: 'root',
      verbs: ['list', 'watch'],
      apiGroup: '',
      resource: 'nodes',
      source: `${R} pkg/openstack/openstack.go (SetInformers: Core().V1().Nodes())`,
    },
    {
      // annotations (load-balancer ID, ...) on the Service object itself, not the status subresource
      client: os,
      verbs: ['patch'],
      apiGroup: '',
      resource: 'services',
      when: 'controller:service-lb-controller',
      source: `${R} pkg/openstack/loadbalancer.go (EnsureLoadBalancer: newServicePatcher), pkg/openstack/loadbalancer_service_patcher.go, pkg/util/util.go (PatchService: Services().Patch without subresource)`,
    },
  ],
};

const TAG_1_25 = 'v1.25.6';
const R_1_25 = `kubernetes/cloud-provider-openstack@${TAG_1_25}`;
const V_1_25: LibraryVersions = { cloudProvider: 'v0.25.10', controllerManager: 'v0.25.10', apiserver: 'v0.25.10', clientGo: 'v0.25.10' };

/**
 * OpenStack v1.25.6 (for Kubernetes 1.25 clusters, version-skew policy), on k8s.io/cloud-provider
 * v0.25.10 (go.mod replace). Differences from v1.36.0: Initialize records no events (SetInformers
 * exists at v1.25.6 too, pkg/openstack/openstack.go, and lists/watches nodes as the common calls do); the v0.25 cloud-node controller also lists nodes
 * through its own client (common.ts).
 */
export const OPENSTACK_INVENTORY_V1_25: ProviderInventory = {
  provider: 'openstack',
  imageTag: TAG_1_25,
  calls: [
    ...cloudProviderAppCalls(V_1_25),
    ...clientBuilderCalls(os, V_1_25),
    {
      client: os,
      verbs: ['patch'],
      apiGroup: '',
      resource: 'services',
      when: 'controller:service-lb-controller',
      source: `${R_1_25} pkg/openstack/openstack.go (Initialize: ClientOrDie("cloud-controller-manager")), pkg/openstack/loadbalancer.go (newServicePatcher), pkg/util/util.go (PatchService: Services().Patch without subresource)`,
    },
  ],
};
