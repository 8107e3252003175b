import { core, UpstreamProvider } from '../provider';

/** Alibaba Cloud (kubernetes/cloud-provider-alibaba-cloud v2): controller-runtime, not k8s.io/cloud-provider. */
export const ALIBABA: UpstreamProvider = {
  platform: 'AlibabaCloud',
  name: 'alibaba',
  imageKey: 'cloudControllerManagerAlibaba',
  cloudProvider: 'alibabacloud',
  framework: 'controller-runtime',
  defaultKind: 'DaemonSet',
  defaultPort: 10258,
  clusterNameFlag: false,
  // pprof listens on :6060 of the host network by default (pkg/config/runtime_config.go defaultPprofBindAddr); "0" turns it
  // off (kubernetes-sigs/controller-runtime@v0.15.2, the go.mod version, pkg/manager/manager.go newPprofListener)
  extraFlags: ['--metrics-bind-addr=0', '--pprof-bind-addr=0'],
  config: {
    what: 'cloud config',
    mountDir: '/etc/kubernetes/config',
    fileName: 'cloud-config.conf',
    flag: '--cloud-config',
    defaultSource: { kind: 'ConfigMap', name: 'cloud-config', key: 'cloud-config.conf' },
    inline: true,
    configMapAllowed: true,
  },
  requests: { cpu: '100m', memory: '200Mi' },
  // pflag with ExitOnError: an unknown flag ends the process
  knownFlags: {
    tag: 'v2.12.4',
    flags: [
      // pkg/config/controller_config.go BindFlags
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
      // klog.InitFlags(nil) (k8s.io/klog/v2 v2.100.1) and controller-runtime's kubeconfig, through flag.CommandLine
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
    source:
      'kubernetes/cloud-provider-alibaba-cloud@v2.12.4 pkg/config/controller_config.go (LoadControllerConfig: pflag.NewFlagSet(ExitOnError), AddGoFlagSet(flag.CommandLine), BindFlags), pkg/config/runtime_config.go (BindFlags); go.mod k8s.io/klog/v2 v2.100.1 (InitFlags), sigs.k8s.io/controller-runtime v0.15.2 pkg/client/config (kubeconfig)',
  },
  // controller-runtime: every call runs as the process (no client builder)
  grants: [
    {
      identity: 'root',
      rule: core(['events'], ['create', 'patch']),
      source: 'kubernetes/cloud-provider-alibaba-cloud@v2.12.4 pkg/controller (event recorders)',
    },
    {
      identity: 'root',
      rule: core(['nodes'], ['get', 'list', 'watch', 'patch', 'delete']),
      source: 'kubernetes/cloud-provider-alibaba-cloud@v2.12.4 pkg/controller/node, helper/node_utils.go',
    },
    {
      identity: 'root',
      rule: core(['nodes/status'], ['patch']),
      source: 'kubernetes/cloud-provider-alibaba-cloud@v2.12.4 pkg/controller/helper/node_utils.go (Status().Patch)',
    },
    {
      identity: 'root',
      rule: core(['pods'], ['list', 'watch']),
      source:
        'kubernetes/cloud-provider-alibaba-cloud@v2.12.4 pkg/controller/service/clbv1/vgroups.go, nlbv2/server_groups.go (not-ready endpoints read through the cached client; upstream role lacks it)',
    },
    {
      identity: 'root',
      rule: core(['pods/status'], ['patch']),
      source: 'kubernetes/cloud-provider-alibaba-cloud@v2.12.4 pkg/controller/helper/pod_utils.go (readiness gate Status().Patch)',
    },
    {
      identity: 'root',
      rule: core(['services'], ['get', 'list', 'watch', 'patch']),
      source: 'kubernetes/cloud-provider-alibaba-cloud@v2.12.4 pkg/controller/service',
    },
    {
      identity: 'root',
      rule: core(['services/status'], ['patch']),
      source: 'kubernetes/cloud-provider-alibaba-cloud@v2.12.4 pkg/controller/service',
    },
    {
      identity: 'root',
      rule: { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['list', 'watch'] },
      source: 'kubernetes/cloud-provider-alibaba-cloud@v2.12.4 pkg/controller/service (EndpointSlice watch)',
    },
  ],
  authenticationReader: false,
  entrypoint: {
    kind: 'binary',
    binary: '/cloud-controller-manager',
    source: 'kubernetes/cloud-provider-alibaba-cloud@v2.12.4 Dockerfile (ENTRYPOINT)',
  },
  leaderElection: {
    lock: 'leases',
    name: 'ccm',
    source: 'kubernetes/cloud-provider-alibaba-cloud@v2.12.4 pkg/config/runtime_config.go (defaultLeaderElectResourceName)',
  },
  servedPort: {
    port: 10258,
    source: 'kubernetes/cloud-provider-alibaba-cloud@v2.12.4 pkg/config/runtime_config.go (defaultHealthProbeBindAddr ":10258", HTTP)',
  },
  tagsFollowKubernetes: false,
  tagMinors: {
    'v2.12.0': {
      minor: '1.28',
      source:
        'kubernetes/cloud-provider-alibaba-cloud@v2.12.4 go.mod (k8s.io/cloud-provider v0.28.15; v2.12.0 has no git tag, v2.11.2 to v2.14.0 all pin v0.28.15)',
    },
    'v2.12.4': { minor: '1.28', source: 'kubernetes/cloud-provider-alibaba-cloud@v2.12.4 go.mod (k8s.io/cloud-provider v0.28.15)' },
    'v2.14.0': { minor: '1.28', source: 'kubernetes/cloud-provider-alibaba-cloud@v2.14.0 go.mod (k8s.io/cloud-provider v0.28.15)' },
  },
  upstreamInstalls: [
    {
      kind: 'DaemonSet',
      name: 'cloud-controller-manager',
      namespace: 'kube-system',
      selector: { app: 'cloud-controller-manager' },
      source: 'kubernetes/cloud-provider-alibaba-cloud@v2.12.4 docs/examples/cloud-controller-manager.yml',
    },
  ],
};
