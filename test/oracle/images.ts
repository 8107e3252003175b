/**
 * Image facts of the AWS, Azure (CCM and cloud-node-manager), GCP, vSphere and OpenStack
 * images at the tags pinned in clusters/kubernetes/defaults.yaml: how the image starts the
 * binary, the ports it serves, its leader-election lock, and its controllers (names,
 * aliases, disabled by default) so the oracle can tell from the rendered `--controllers`
 * which calls happen. The shapes are shared with images-extra.ts (Alibaba, Nutanix,
 * DigitalOcean, Equinix Metal).
 */
import { EXTRA_IMAGE_FACTS, ImageFacts, LeaderElectionLock, ServedPort } from './images-extra';
import { CLOUD_PROVIDER_ALIASES, CLOUD_PROVIDER_CONTROLLERS } from './inventory/common';
import * as fs from 'fs';
import * as path from 'path';

export type { ImageFacts, LeaderElectionLock, ServedPort } from './images-extra';

/** Every binary's whole flag set per tag, as ccm-flags.generate.js read it (never the product's tables). */
const FLAG_SETS: Record<string, { readonly flags: readonly string[]; readonly sources: readonly string[] }> = JSON.parse(
  fs.readFileSync(path.join(__dirname, 'ccm-flags.data.json'), 'utf8'),
);

const GO_RUNNER = 'kubernetes/release images/build/go-runner/Dockerfile (ENTRYPOINT ["/go-runner"])';

/**
 * The secure port of k8s.io/cloud-provider/app: it serves /healthz, /metrics (and debug paths)
 * behind delegated authentication/authorization; only the always-allowed paths that are also
 * served can answer an (anonymous) kubelet probe: /healthz. /metrics needs a SubjectAccessReview.
 */
function secure(lib: string, extra = ''): ServedPort {
  return {
    purpose: 'secure',
    port: 10258,
    scheme: 'HTTPS',
    paths: ['/healthz'],
    flag: '--secure-port',
    disabledBy: '0',
    source: `${lib} options/options.go (SecureServing.BindPort = cloudprovider.CloudControllerManagerPort = 10258), app/controllermanager.go (NewBaseHandler + BuildHandlerChain); kubernetes/controller-manager app/serve.go (NewBaseHandler: /healthz, /metrics); kubernetes/apiserver pkg/server/options/authorization.go (AlwaysAllowPaths /healthz, /readyz, /livez)${extra}`,
  };
}

function lock(lib: string): LeaderElectionLock {
  return {
    kind: 'leases',
    name: 'cloud-controller-manager',
    namespace: 'kube-system',
    nameFlag: '--leader-elect-resource-name',
    namespaceFlag: '--leader-elect-resource-namespace',
    enabledByDefault: true,
    source: `${lib} options/options.go (Generic.LeaderElection.ResourceName = "cloud-controller-manager", ResourceNamespace = "kube-system"); kubernetes/controller-manager config/v1alpha1/defaults.go (ResourceLock "leases")`,
  };
}

export const IMAGE_FACTS: readonly ImageFacts[] = [
  {
    provider: 'aws',
    image: 'registry.k8s.io/provider-aws/cloud-controller-manager',
    imageTag: 'v1.35.0',
    entrypoint: {
      kind: 'binary',
      binary: '/bin/aws-cloud-controller-manager',
      source:
        'kubernetes/cloud-provider-aws@v1.35.0 Dockerfile (FROM go-runner; ENTRYPOINT [ "/bin/aws-cloud-controller-manager" ] overrides the base entrypoint)',
    },
    ports: [secure('kubernetes/cloud-provider@v0.35.0')],
    leaderElection: lock('kubernetes/cloud-provider@v0.35.0'),
  },
  {
    provider: 'azure',
    image: 'mcr.microsoft.com/oss/v2/kubernetes/azure-cloud-controller-manager',
    imageTag: 'v1.33.2',
    entrypoint: {
      kind: 'binary',
      binary: '/usr/local/bin/cloud-controller-manager',
      source: 'kubernetes-sigs/cloud-provider-azure@v1.33.2 Dockerfile (ENTRYPOINT [ "/usr/local/bin/cloud-controller-manager" ])',
    },
    ports: [
      {
        ...secure('kubernetes-sigs/cloud-provider-azure@v1.33.2 cmd/cloud-controller-manager/app'),
        paths: ['/healthz', '/readyz'],
        source:
          'kubernetes-sigs/cloud-provider-azure@v1.33.2 cmd/cloud-controller-manager/app/options/options.go (CloudControllerManagerPort = cloudprovider.CloudControllerManagerPort = 10258; helm/cloud-provider-azure/values.yaml passes securePort 10268), app/controllermanager.go (StartHTTPServer: NewBaseHandler /healthz, /metrics, InstallReadyzHandler /readyz); kubernetes/apiserver@v0.33.2 pkg/server/options/authorization.go (AlwaysAllowPaths /healthz, /readyz, /livez)',
      },
    ],
    leaderElection: {
      ...lock('kubernetes-sigs/cloud-provider-azure@v1.33.2 cmd/cloud-controller-manager/app'),
      source:
        'kubernetes-sigs/cloud-provider-azure@v1.33.2 cmd/cloud-controller-manager/app/options/options.go (ResourceName "cloud-controller-manager", ResourceNamespace "kube-system"), app/controllermanager.go (resourcelock.NewFromKubeconfig)',
    },
  },
  {
    provider: 'gcp',
    image: 'registry.k8s.io/cloud-provider-gcp/cloud-controller-manager',
    imageTag: 'v35.0.0',
    entrypoint: {
      kind: 'binary',
      binary: '/cloud-controller-manager',
      source:
        'kubernetes/cloud-provider-gcp@ccm/v35.0.0 Dockerfile (CMD and ENTRYPOINT ["/cloud-controller-manager"]), tools/push-images (docker buildx build of that Dockerfile)',
    },
    ports: [secure('kubernetes/cloud-provider@v0.34.2')],
    leaderElection: lock('kubernetes/cloud-provider@v0.34.2'),
  },
  {
    provider: 'vsphere',
    image: 'registry.k8s.io/cloud-pv-vsphere/cloud-provider-vsphere',
    imageTag: 'v1.36.0',
    entrypoint: {
      kind: 'binary',
      binary: '/bin/vsphere-cloud-controller-manager',
      source:
        'kubernetes/cloud-provider-vsphere@v1.36.0 cluster/images/controller-manager/Dockerfile (ENTRYPOINT [ "/bin/vsphere-cloud-controller-manager" ]), Makefile (docker build -f cluster/images/controller-manager/Dockerfile)',
    },
    ports: [secure('kubernetes/cloud-provider@v0.36.0')],
    leaderElection: lock('kubernetes/cloud-provider@v0.36.0'),
  },
  {
    provider: 'openstack',
    image: 'registry.k8s.io/provider-os/openstack-cloud-controller-manager',
    imageTag: 'v1.36.0',
    entrypoint: {
      kind: 'wrapper',
      binary: '/bin/openstack-cloud-controller-manager',
      source: `kubernetes/cloud-provider-openstack@v1.36.0 Dockerfile (FROM \${DISTROLESS_IMAGE} = registry.k8s.io/build-image/go-runner; CMD [ "/bin/openstack-cloud-controller-manager" ], no ENTRYPOINT); ${GO_RUNNER}; charts/openstack-cloud-controller-manager/templates/daemonset.yaml (args start with /bin/openstack-cloud-controller-manager)`,
    },
    ports: [secure('kubernetes/cloud-provider@v0.36.0')],
    leaderElection: lock('kubernetes/cloud-provider@v0.36.0'),
  },
  {
    provider: 'openstack',
    image: 'registry.k8s.io/provider-os/openstack-cloud-controller-manager',
    imageTag: 'v1.25.6',
    entrypoint: {
      // no ENTRYPOINT at all: rendered args replace the CMD, so they must start with the binary as well
      kind: 'wrapper',
      binary: '/bin/openstack-cloud-controller-manager',
      source:
        'kubernetes/cloud-provider-openstack@v1.25.6 cluster/images/openstack-cloud-controller-manager/Dockerfile (FROM alpine; CMD ["/bin/openstack-cloud-controller-manager"], no ENTRYPOINT)',
    },
    ports: [secure('kubernetes/cloud-provider@v0.25.10')],
    leaderElection: lock('kubernetes/cloud-provider@v0.25.10'),
  },
];

/** The Azure cloud-node-manager image: no leader election, and no port unless `--secure-port` is set. */
export const CLOUD_NODE_MANAGER_FACTS: Omit<ImageFacts, 'leaderElection'> = {
  provider: 'azure',
  flags: readFlags('azure-cloud-node-manager@v1.33.2'),
  image: 'mcr.microsoft.com/oss/v2/kubernetes/azure-cloud-node-manager',
  imageTag: 'v1.33.2',
  entrypoint: {
    kind: 'binary',
    binary: '/usr/local/bin/cloud-node-manager',
    source: 'kubernetes-sigs/cloud-provider-azure@v1.33.2 cloud-node-manager.Dockerfile (ENTRYPOINT [ "/usr/local/bin/cloud-node-manager" ])',
  },
  ports: [
    {
      purpose: 'secure',
      scheme: 'HTTPS',
      paths: ['/healthz'],
      flag: '--secure-port',
      disabledBy: '0',
      source:
        'kubernetes-sigs/cloud-provider-azure@v1.33.2 cmd/cloud-node-manager/app/options/options.go (defaultCloudNodeManagerPort = 0: SecureServing.BindPort = 0, no listener; CloudControllerManagerPort = 10263 is unused)',
    },
  ],
};

/** The Windows cloud-node-manager image (host-process or nanoserver): the Windows binary, with its OS-only flags. */
export const CLOUD_NODE_MANAGER_WINDOWS_FACTS: Omit<ImageFacts, 'leaderElection'> = {
  ...CLOUD_NODE_MANAGER_FACTS,
  flags: readFlags('azure-cloud-node-manager-windows@v1.33.2'),
  entrypoint: {
    kind: 'binary',
    binary: '/cloud-node-manager.exe',
    source:
      'kubernetes-sigs/cloud-provider-azure@v1.33.2 cloud-node-manager-windows.Dockerfile and cloud-node-manager-windows-hpc.Dockerfile (ENTRYPOINT ["/cloud-node-manager.exe"])',
  },
};

/** The controllers of a k8s.io/cloud-provider based binary. */
export interface ControllerFacts {
  /** Canonical names the binary knows. */
  readonly known: readonly string[];
  /** Names off under `*`. */
  readonly disabledByDefault: readonly string[];
  /** Alias -> canonical name accepted by `--controllers`. */
  readonly aliases: Readonly<Record<string, string>>;
  /**
   * The controllers that get past their start function; absent = every known one. (Nutanix: the
   * service controller stops when the cloud has no LoadBalancer(); see inventory/nutanix.ts.)
   */
  readonly working?: readonly string[];
  /**
   * A controller that gets past its start only when the cloud config names a load-balancer
   * implementation (LoadBalancer() is false without one): Equinix Metal's `loadbalancer`, which
   * spec.kubernetes.equinixMetalLoadBalancer states.
   */
  readonly needsLoadBalancerSetting?: { readonly controller: string; readonly source: string };
  /** The node IPAM controller's canonical name, when the binary has one. */
  readonly nodeIpam?: string;
  /**
   * Controllers that are enabled by default but make the binary exit unless a flag holds
   * (startControllers returns the init error; app.Run klog.Fatalf).
   */
  readonly fatalUnless?: readonly { readonly controller: string; readonly flag: string; readonly value: string; readonly source: string }[];
  /**
   * Whether the provider's Routes() can return ok (always, or depending on its cloud config): the
   * route controller then starts when `--configure-cloud-routes` is true (its default) and exits the
   * binary unless `--cluster-cidr` parses (kubernetes/cloud-provider app/core.go startRouteController ->
   * processCIDRs: k8s.io/utils net ParseCIDRs fails on "" -> startControllers returns the error -> klog.Fatalf).
   */
  readonly routes?: { readonly supported: 'always' | 'config'; readonly source: string };
  readonly source: string;
}

const GENERIC = Object.values(CLOUD_PROVIDER_CONTROLLERS);

/** Per provider; the providers not listed use {@link DEFAULT_CONTROLLER_FACTS}. */
export const CONTROLLER_FACTS: Readonly<Record<string, ControllerFacts>> = {
  aws: {
    known: [...GENERIC, 'tagging'],
    disabledByDefault: ['tagging'],
    aliases: { ...CLOUD_PROVIDER_ALIASES, tagging: 'tagging' },
    routes: { supported: 'always', source: 'kubernetes/cloud-provider-aws@v1.35.0 pkg/providers/v1/aws.go (Routes: return c, true)' },
    source:
      'kubernetes/cloud-provider-aws@v1.35.0 cmd/aws-cloud-controller-manager/main.go (controllerInitializers[tagging.TaggingControllerKey], ControllersDisabledByDefault.Insert, controllerAliases)',
  },
  azure: {
    known: [...GENERIC, 'node-ipam'],
    disabledByDefault: [],
    aliases: CLOUD_PROVIDER_ALIASES,
    nodeIpam: 'node-ipam',
    routes: {
      supported: 'always',
      source:
        'kubernetes-sigs/cloud-provider-azure@v1.33.2 pkg/provider/azure.go (Routes: return az, true); cmd/cloud-controller-manager/app/core.go startRouteController (processCIDRs error is returned)',
    },
    source:
      'kubernetes-sigs/cloud-provider-azure@v1.33.2 cmd/cloud-controller-manager/app/controllermanager.go (newControllerInitializers, ControllersDisabledByDefault empty), app/core.go (startNodeIpamController: not started unless --allocate-node-cidrs)',
  },
  gcp: {
    known: [...GENERIC, 'node-ipam-controller', 'gkenetworkparamset', 'gke-service-lb-controller'],
    disabledByDefault: ['gkenetworkparamset', 'gke-service-lb-controller'],
    aliases: { ...CLOUD_PROVIDER_ALIASES, nodeipam: 'node-ipam-controller', 'gke-service': 'gke-service-lb-controller' },
    nodeIpam: 'node-ipam-controller',
    routes: { supported: 'always', source: 'kubernetes/cloud-provider-gcp@ccm/v35.0.0 providers/gce/gce.go (Routes: return g, true)' },
    fatalUnless: [
      {
        controller: 'node-ipam-controller',
        flag: '--allocate-node-cidrs',
        value: 'true',
        source:
          'kubernetes/cloud-provider-gcp@ccm/v35.0.0 cmd/cloud-controller-manager/nodeipamcontroller.go (startNodeIpamController: `return nil, false, fmt.Errorf("the AllocateNodeCIDRs is not enabled")`); kubernetes/cloud-provider@v0.34.2 app/controllermanager.go (startControllers returns the error, run: klog.Fatalf)',
      },
    ],
    source:
      'kubernetes/cloud-provider-gcp@ccm/v35.0.0 cmd/cloud-controller-manager/main.go (controllerInitializers, ControllersDisabledByDefault.Insert, aliasMap)',
  },
};

/**
 * vSphere and OpenStack: app.DefaultInitFuncConstructors; Routes() depends on the cloud config.
 * (vSphere's LoadBalancer() too: only with an NSX-T `[LoadBalancer]` section,
 * kubernetes/cloud-provider-vsphere@v1.36.0 pkg/cloudprovider/vsphere/cloud.go isLoadBalancerSupportEnabled; the
 * service controller is kept as running because the renderer does not see the config.)
 */
const CONFIG_ROUTES = {
  vsphere: 'kubernetes/cloud-provider-vsphere@v1.36.0 pkg/cloudprovider/vsphere/cloud.go (Routes: ok when vs.routes is configured)',
  openstack:
    'kubernetes/cloud-provider-openstack@v1.36.0 pkg/openstack/openstack.go (Routes: ok when the router and the extraroute extension are available)',
} as const;

/** app.DefaultInitFuncConstructors only (vSphere, OpenStack, and the other k8s.io/cloud-provider based binaries). */
export const DEFAULT_CONTROLLER_FACTS: ControllerFacts = {
  known: GENERIC,
  disabledByDefault: [],
  aliases: CLOUD_PROVIDER_ALIASES,
  source: 'kubernetes/cloud-provider app/controllermanager.go (DefaultInitFuncConstructors), names/controller_names.go (CCMControllerAliases)',
};

/** Every image's facts, this file's and images-extra.ts's, by provider key. */
export const ALL_IMAGE_FACTS: readonly ImageFacts[] = [...IMAGE_FACTS, ...EXTRA_IMAGE_FACTS].map((f) =>
  f.flags ? f : { ...f, flags: readFlags(`${f.provider}@${f.imageTag}`) },
);

/**
 * The whole flag set read at a binary's tag: ccm-flags.data.json, which ccm-flags.generate.js
 * writes from the sources it cites (conditional, per-OS and Go flag set registrations included).
 */
function readFlags(key: string): ImageFacts['flags'] {
  const t = FLAG_SETS[key];
  return t ? { names: t.flags, source: t.sources.join('; ') } : undefined;
}

/**
 * The facts of one provider's CCM image at `tag`; without a tag, the first listed (the tag
 * pinned in clusters/kubernetes/defaults.yaml). Undefined when the oracle was not read at that tag.
 */
export function imageFacts(provider: string, tag?: string): ImageFacts | undefined {
  return ALL_IMAGE_FACTS.find((f) => f.provider === provider && (tag === undefined || f.imageTag === tag));
}

/** The controller facts of one provider. */
export function controllerFacts(provider: string): ControllerFacts {
  const routes = CONFIG_ROUTES[provider as keyof typeof CONFIG_ROUTES];
  return (
    CONTROLLER_FACTS[provider] ??
    (routes ? { ...DEFAULT_CONTROLLER_FACTS, routes: { supported: 'config', source: routes } } : DEFAULT_CONTROLLER_FACTS)
  );
}
