/**
 * Image facts of the Alibaba, Nutanix, DigitalOcean and Equinix Metal CCM images, at the
 * tags pinned in clusters/kubernetes/defaults.yaml, read from each repository's Dockerfile
 * (or build) and flag defaults at that tag. The oracle test checks the rendered workload
 * against them: the container's command/args start the binary, probes target only ports
 * the binary serves, and the RBAC allows the Lease the binary really locks.
 *
 * The shape is defined here ({@link ImageFacts}); images.ts (the other five providers) may
 * import it.
 */

/** How the image starts the CCM binary. */
export interface Entrypoint {
  /**
   * `binary`: the image ENTRYPOINT is the CCM binary, so rendered `args` are its flags.
   * `wrapper`: the ENTRYPOINT is something else (e.g. go-runner) and the binary is only the
   * CMD: rendered `args` replace the CMD, so they must start with {@link binary} (or the
   * container must set `command`).
   */
  readonly kind: 'binary' | 'wrapper';
  /** Absolute path of the CCM binary inside the image. */
  readonly binary: string;
  readonly source: string;
}

/** A port the binary listens on. */
export interface ServedPort {
  readonly purpose: 'secure' | 'health' | 'metrics' | 'pprof' | 'debug';
  /** The default port; undefined when the listener is off by default. */
  readonly port?: number;
  readonly scheme: 'HTTPS' | 'HTTP';
  /** Paths served that a probe may use. */
  readonly paths?: readonly string[];
  /** The flag that sets the address/port (`--secure-port`, `--health-probe-bind-addr`, ...). */
  readonly flag?: string;
  /** The env var that sets the address, when an env var does. */
  readonly env?: string;
  /** The flag value or env value that turns the listener off, when one does. */
  readonly disabledBy?: string;
  readonly source: string;
}

/** The leader-election lock of the binary. */
export interface LeaderElectionLock {
  /** The lock kind (`--leader-elect-resource-lock`). */
  readonly kind: 'leases';
  /** The default lock name and namespace. */
  readonly name: string;
  readonly namespace: string;
  /** The flags that override them. */
  readonly nameFlag: string;
  readonly namespaceFlag: string;
  /** The default of `--leader-elect`. */
  readonly enabledByDefault: boolean;
  readonly source: string;
}

/** The facts of one CCM image at one tag. */
export interface ImageFacts {
  /** The provider key as in src/kubernetes/providers.ts. */
  readonly provider: string;
  /** The image repository and tag they were read at (as pinned in clusters/kubernetes/defaults.yaml). */
  readonly image: string;
  readonly imageTag: string;
  readonly entrypoint: Entrypoint;
  readonly ports: readonly ServedPort[];
  readonly leaderElection: LeaderElectionLock;
  /**
   * Set when main.go changes the default of `--authentication-skip-lookup` in code (the
   * flag's default is the value the options hold when the flags are bound): `true` = no read
   * of ConfigMap kube-system/extension-apiserver-authentication unless the flag says false.
   */
  readonly authenticationSkipLookupDefault?: { readonly value: boolean; readonly source: string };
  /**
   * The complete flag set of a binary that exits on an unknown flag, read at `imageTag`: every
   * rendered flag must be in it.
   */
  readonly flags?: { readonly names: readonly string[]; readonly source: string };
}

/** k8s.io/cloud-provider/app based binaries share the secure port and lock defaults of the library version they vendor. */
function cloudProviderDefaults(version: string): { port: ServedPort; lock: LeaderElectionLock } {
  const lib = `kubernetes/cloud-provider@${version}`;
  return {
    port: {
      purpose: 'secure',
      port: 10258,
      scheme: 'HTTPS',
      paths: [
        '/healthz',
      ] /* /metrics needs a SubjectAccessReview: kubernetes/apiserver pkg/server/options/authorization.go always-allows only /healthz, /readyz, /livez */,
      flag: '--secure-port',
      disabledBy: '0',
      source: `${lib} options/options.go (SecureServing.BindPort = cloudprovider.CloudControllerManagerPort), ports.go (CloudControllerManagerPort = 10258); app/controllermanager.go serves /healthz and /metrics`,
    },
    lock: {
      kind: 'leases',
      name: 'cloud-controller-manager',
      namespace: 'kube-system',
      nameFlag: '--leader-elect-resource-name',
      namespaceFlag: '--leader-elect-resource-namespace',
      enabledByDefault: true,
      source: `${lib} options/options.go (Generic.LeaderElection.ResourceName "cloud-controller-manager", ResourceNamespace "kube-system"); kubernetes/component-base config/v1alpha1/defaults.go (ResourceLock "leases", LeaderElect true)`,
    },
  };
}

const NUTANIX_LIB = cloudProviderDefaults('v0.33.3');
const DO_LIB = cloudProviderDefaults('v0.36.2');
const EQUINIX_LIB = cloudProviderDefaults('v0.30.2');

export const EXTRA_IMAGE_FACTS: readonly ImageFacts[] = [
  {
    provider: 'alibaba',
    image: 'registry.cn-hangzhou.aliyuncs.com/acs/cloud-controller-manager-amd64',
    imageTag: 'v2.12.4',
    flags: {
      names: [
        // pkg/config/controller_config.go BindFlags (23 flags)
        'cloud-provider',
        'cluster-name',
        'cloud-config',
        'controllers',
        'use-service-account-credentials',
        'configure-cloud-routes',
        'cluster-cidr',
        'allocate-node-cidrs',
        'concurrent-service-syncs',
        'dry-run',
        'network',
        'route-reconciliation-period',
        'node-monitor-period',
        'sg-batch-size',
        'allow-untagged-cloud',
        'max-concurrent-actions',
        'max-throttling-retry-times',
        'enable-imdsv2',
        'node-reconcile-batch-size',
        'route-reconcile-batch-size',
        'skip-disable-source-dest-check',
        'node-event-aggregation-wait-seconds',
        // pkg/config/runtime_config.go BindFlags
        'metrics-bind-addr',
        'health-probe-bind-addr',
        'pprof-bind-addr',
        'kube-api-qps',
        'kube-api-burst',
        'leader-elect',
        'leader-elect-lease-duration',
        'leader-elect-renew-deadline',
        'leader-elect-retry-period',
        'leader-elect-resource-lock',
        'leader-elect-resource-name',
        'leader-elect-resource-namespace',
        // flag.CommandLine: klog/v2 v2.100.1 InitFlags(nil); controller-runtime v0.15.2 pkg/client/config init (kubeconfig)
        'log_dir',
        'log_file',
        'log_file_max_size',
        'logtostderr',
        'alsologtostderr',
        'v',
        'add_dir_header',
        'skip_headers',
        'one_output',
        'skip_log_headers',
        'stderrthreshold',
        'vmodule',
        'log_backtrace_at',
        'kubeconfig',
      ],
      // the flagFeatureGates constant ("feature-gates") is declared but never bound: passing it exits too
      source:
        'kubernetes/cloud-provider-alibaba-cloud@v2.12.4 pkg/config/controller_config.go (LoadControllerConfig: pflag ExitOnError over flag.CommandLine + BindFlags), pkg/config/runtime_config.go (BindFlags)',
    },
    entrypoint: {
      kind: 'binary',
      binary: '/cloud-controller-manager',
      source:
        'kubernetes/cloud-provider-alibaba-cloud@v2.12.4 Dockerfile (COPY ... /cloud-controller-manager; ENTRYPOINT ["/cloud-controller-manager"])',
    },
    ports: [
      {
        purpose: 'health',
        port: 10258,
        scheme: 'HTTP',
        paths: ['/healthz', '/readyz'],
        flag: '--health-probe-bind-addr',
        source:
          'kubernetes/cloud-provider-alibaba-cloud@v2.12.4 pkg/config/runtime_config.go (defaultHealthProbeBindAddr ":10258"); cmd/manager/main.go (mgr.AddHealthzCheck("default")); deploy/v2/cloud-controller-manager.yaml (livenessProbe httpGet /healthz 10258 HTTP)',
      },
      {
        purpose: 'metrics',
        port: 8080,
        scheme: 'HTTP',
        paths: ['/metrics'],
        flag: '--metrics-bind-addr',
        disabledBy: '0',
        source:
          'kubernetes/cloud-provider-alibaba-cloud@v2.12.4 pkg/config/runtime_config.go (defaultMetricsAddr ":8080"; the upstream manifest passes --metrics-bind-addr=0)',
      },
      {
        purpose: 'pprof',
        port: 6060,
        scheme: 'HTTP',
        flag: '--pprof-bind-addr',
        disabledBy: '0',
        source:
          'kubernetes/cloud-provider-alibaba-cloud@v2.12.4 pkg/config/runtime_config.go (defaultPprofBindAddr ":6060"; "It can be set to \'\' or 0 to disable the pprof serving")',
      },
    ],
    leaderElection: {
      kind: 'leases',
      name: 'ccm',
      namespace: 'kube-system',
      nameFlag: '--leader-elect-resource-name',
      namespaceFlag: '--leader-elect-resource-namespace',
      enabledByDefault: true,
      source:
        'kubernetes/cloud-provider-alibaba-cloud@v2.12.4 pkg/config/runtime_config.go (defaultLeaderElectResourceLock "leases", defaultLeaderElectResourceName "ccm", defaultLeaderElectResourceNamespace "kube-system", defaultLeaderElect true)',
    },
  },
  {
    provider: 'nutanix',
    image: 'ghcr.io/nutanix-cloud-native/cloud-provider-nutanix/controller',
    imageTag: 'v0.5.2',
    entrypoint: {
      kind: 'binary',
      binary: '/ko-app/cloud-provider-nutanix',
      source:
        'nutanix-cloud-native/cloud-provider-nutanix@v0.5.2 Makefile (docker-build/docker-push: `ko build` of the main package; ko sets ENTRYPOINT to /ko-app/<import path base> and no CMD); manifests/cloud-provider-nutanix-deployment.yaml (passes flags as args only)',
    },
    ports: [NUTANIX_LIB.port],
    leaderElection: NUTANIX_LIB.lock,
  },
  {
    provider: 'digitalocean',
    image: 'digitalocean/digitalocean-cloud-controller-manager',
    imageTag: 'v0.1.68',
    entrypoint: {
      kind: 'binary',
      binary: '/bin/digitalocean-cloud-controller-manager',
      source:
        'digitalocean/digitalocean-cloud-controller-manager@v0.1.68 cloud-controller-manager/cmd/digitalocean-cloud-controller-manager/Dockerfile (ENTRYPOINT ["/bin/digitalocean-cloud-controller-manager"])',
    },
    ports: [
      DO_LIB.port,
      {
        // METRICS_ADDR unset: http.ListenAndServe("") tries ":http" (port 80) and only logs a warning when that fails
        // (e.g. as the distroless nonroot user on the host network).
        purpose: 'metrics',
        scheme: 'HTTP',
        paths: ['/metrics'],
        env: 'METRICS_ADDR',
        source:
          'digitalocean/digitalocean-cloud-controller-manager@v0.1.68 cloud-controller-manager/do/cloud.go (metricsAddrEnv "METRICS_ADDR", serveMetrics -> http.ListenAndServe(c.metrics.host))',
      },
      {
        purpose: 'debug',
        scheme: 'HTTP',
        env: 'DEBUG_ADDR',
        source:
          'digitalocean/digitalocean-cloud-controller-manager@v0.1.68 cloud-controller-manager/do/cloud.go (debugAddrEnv "DEBUG_ADDR": a debug server only when set)',
      },
    ],
    leaderElection: DO_LIB.lock,
    authenticationSkipLookupDefault: {
      value: true,
      source:
        'digitalocean/digitalocean-cloud-controller-manager@v0.1.68 cloud-controller-manager/cmd/digitalocean-cloud-controller-manager/main.go (opts.Authentication.SkipInClusterLookup = true); kubernetes/apiserver@v0.36.2 pkg/server/options/authentication.go (flag default = s.SkipInClusterLookup; the ConfigMap CA controllers only `else if !s.SkipInClusterLookup`)',
    },
  },
  {
    provider: 'equinix-metal',
    image: 'ghcr.io/equinix/cloud-provider-equinix-metal',
    imageTag: 'v3.8.1',
    entrypoint: {
      kind: 'binary',
      binary: '/cloud-provider-equinix-metal',
      source:
        'kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1 Dockerfile (WORKDIR /; COPY ... ./cloud-provider-equinix-metal; ENTRYPOINT ["./cloud-provider-equinix-metal"])',
    },
    ports: [EQUINIX_LIB.port],
    leaderElection: EQUINIX_LIB.lock,
  },
];
