/**
 * DigitalOcean CCM (digitalocean/digitalocean-cloud-controller-manager), image
 * `digitalocean/digitalocean-cloud-controller-manager:v0.1.68`, read at tag v0.1.68.
 *
 * Built on k8s.io/cloud-provider v0.36.2 (go.mod) with `app.DefaultInitFuncConstructors`
 * (cloud-controller-manager/cmd/digitalocean-cloud-controller-manager/main.go): the common
 * calls of common.ts apply. `Routes()` returns false (cloud-controller-manager/do/cloud.go),
 * so the route controller never runs. main.go sets `opts.Authentication.SkipInClusterLookup
 * = true`: the delegated authentication does not read ConfigMap
 * kube-system/extension-apiserver-authentication.
 *
 * The provider's own client (`do-shared-informers`) is also the one its LoadBalancer
 * implementation patches Services and records Events with, although the service controller
 * calls it: with `--use-service-account-credentials=true` these calls run as ServiceAccount
 * `do-shared-informers`, not `service-controller`.
 */
import { ApiCall, ProviderInventory } from './types';

const TAG = 'digitalocean/digitalocean-cloud-controller-manager@v0.1.68';
const src = (file: string, what: string): string => `${TAG} ${file} (${what})`;

/** The names `Initialize` passes to `ClientBuilder.ClientOrDie` (cloud-controller-manager/do/cloud.go). */
export const DIGITALOCEAN_CLIENT_NAMES = ['do-shared-informers'] as const;

/** The controllers `--controllers` knows (canonical names of app.DefaultInitFuncConstructors). */
export const DIGITALOCEAN_CONTROLLERS = [
  'cloud-node-controller',
  'cloud-node-lifecycle-controller',
  'service-lb-controller',
  'node-route-controller',
] as const;

/**
 * The aliases `--controllers` accepts: none. main.go passes `map[string]string{}` to
 * NewCloudControllerManagerCommand, so "cloud-node", "service", ... are "not in the list of
 * known controllers" (kubernetes/controller-manager@v0.36.2 options/generic.go Validate).
 */
export const DIGITALOCEAN_CONTROLLER_ALIASES: Readonly<Record<string, string>> = {};

/** The controllers that do work: node-route stops at start (Routes() returns false). */
export const DIGITALOCEAN_WORKING_CONTROLLERS = ['cloud-node-controller', 'cloud-node-lifecycle-controller', 'service-lb-controller'] as const;

const client = DIGITALOCEAN_CLIENT_NAMES[0];

/** The provider's own calls (beside common.ts). */
export const DIGITALOCEAN_OWN_CALLS: readonly ApiCall[] = [
  // Initialize: a Service informer over all namespaces, then WaitForCacheSync(nil): forbidden = Initialize never returns.
  {
    client,
    verbs: ['list', 'watch'],
    apiGroup: '',
    resource: 'services',
    source: src(
      'cloud-controller-manager/do/cloud.go',
      'Initialize: informers.NewSharedInformerFactory(clientset) Services() for NewResourcesController and NewFirewallController; sharedInformer.WaitForCacheSync(nil)',
    ),
  },
  // The LoadBalancer implementation writes annotations (load-balancer ID, type) back to the Service.
  {
    client,
    verbs: ['patch'],
    apiGroup: '',
    resource: 'services',
    source: src(
      'cloud-controller-manager/do/loadbalancers.go, cloud-controller-manager/do/patch.go',
      'newServicePatcher(l.resources.kclient) -> patchService -> Services(ns).Patch (strategic merge)',
    ),
  },
  {
    client,
    verbs: ['create'],
    apiGroup: '',
    resource: 'events',
    source: src('cloud-controller-manager/do/loadbalancers.go', 'emitServiceEvent -> l.resources.kclient.CoreV1().Events(service.Namespace).Create'),
  },
];

export const DIGITALOCEAN_INVENTORY: ProviderInventory = {
  provider: 'digitalocean',
  imageTag: 'v0.1.68',
  calls: DIGITALOCEAN_OWN_CALLS,
};
