/**
 * AWS: kubernetes/cloud-provider-aws@v1.35.0 (image
 * registry.k8s.io/provider-aws/cloud-controller-manager:v1.35.0), built on
 * k8s.io/cloud-provider v0.35.0 (go.mod). The generic app and controllers are in common.ts.
 */
import { cloudProviderAppCalls, clientBuilderCalls, eventCalls, LibraryVersions } from './common';
import { ProviderInventory } from './types';

const TAG = 'v1.35.0';
const R = `kubernetes/cloud-provider-aws@${TAG}`;
const V: LibraryVersions = { cloudProvider: 'v0.35.0', controllerManager: 'v0.35.0', apiserver: 'v0.35.0', clientGo: 'v0.35.0' };

/** The tagging controller: disabled by default (cmd/aws-cloud-controller-manager/main.go ControllersDisabledByDefault.Insert). */
export const AWS_TAGGING_CONTROLLER = 'tagging';

export const AWS_INVENTORY: ProviderInventory = {
  provider: 'aws',
  imageTag: TAG,
  calls: [
    ...cloudProviderAppCalls(V),
    // Initialize: clientBuilder.ClientOrDie("aws-cloud-provider"), its event recorder; Discovery().ServerVersion() is a non-resource GET /version
    ...clientBuilderCalls('aws-cloud-provider', V),
    ...eventCalls(
      'aws-cloud-provider',
      `${R} pkg/providers/v1/aws.go (Initialize: ClientOrDie("aws-cloud-provider"), eventBroadcaster.StartRecordingToSink)`,
    ),
    // SetInformers: the node informer of the shared (root) factory, indexed by instance ID
    {
      client: 'root',
      verbs: ['list', 'watch'],
      apiGroup: '',
      resource: 'nodes',
      source: `${R} pkg/providers/v1/aws.go (SetInformers: informerFactory.Core().V1().Nodes())`,
    },
    // tagging controller, client "tagging-controller" (disabled by default)
    ...clientBuilderCalls('tagging-controller', V, `controller:${AWS_TAGGING_CONTROLLER}`),
    {
      client: 'tagging-controller',
      verbs: ['get', 'patch'],
      apiGroup: '',
      resource: 'nodes',
      when: `controller:${AWS_TAGGING_CONTROLLER}`,
      source: `${R} pkg/controllers/tagging/tagging_controller_wrapper.go (ClientOrDie(TaggingControllerClientName = "tagging-controller")), tagging_controller.go (nodehelpers.AddOrUpdateLabelsOnNode: Nodes().Get, Nodes().Patch)`,
    },
  ],
};
