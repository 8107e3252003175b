import { App, Chart } from 'cdk8s';
import { ClusterChart } from '../src/pipeline/cluster-chart';
import { APISERVER_URL_PREAMBLE } from '../src/openshift/pod-conventions';
import { PLATFORM_FACTS, platformFor, PLATFORMS, PreparedCluster, supportedPlatforms, upstreamFeatureGatesFlag } from '../src/openshift/platforms';
import { PlatformType } from '../src/cluster-spec/schema';
import { imageFor, platformSpec, preparedCluster } from './helpers';

type Obj = Record<string, any>;

/** Each rendered variant of the example table: platform type, spec overrides, cloud.conf and extra cloud-conf keys. */
interface Variant {
  readonly platform: PlatformType;
  readonly spec?: Record<string, unknown>;
  readonly cloudConf?: string;
  readonly extra?: Record<string, string>;
}

const VARIANTS: Record<string, Variant> = {
  AWS: { platform: 'AWS' },
  Azure: { platform: 'Azure', cloudConf: '{"cloud":"AzurePublicCloud"}\n' },
  AzureStackHub: {
    platform: 'Azure',
    spec: { azure: { cloudName: 'AzureStackCloud' }, cloudConfig: { file: 'x.conf', extraKeys: { endpoints: 'e.json' } } },
    cloudConf: '{"vmType":"standard"}\n',
    extra: { endpoints: '{"name":"AzureStackCloud"}\n' },
  },
  GCP: { platform: 'GCP', cloudConf: '[global]\nproject-id = p\n' },
  IBMCloud: { platform: 'IBMCloud' },
  PowerVS: { platform: 'PowerVS' },
  OpenStack: { platform: 'OpenStack' },
  VSphere: { platform: 'VSphere', cloudConf: 'global:\n  port: 443\n' },
  Nutanix: { platform: 'Nutanix', cloudConf: '{}\n' },
  AlibabaCloud: { platform: 'AlibabaCloud', cloudConf: '{}\n' },
};

function cluster(variant: Variant, spec: Record<string, unknown> = {}): PreparedCluster {
  const prepared = preparedCluster(platformSpec(variant.platform, 'c', { ...variant.spec, ...spec }), variant.cloudConf ?? '[Global]\n');
  return { ...prepared, cloudConfExtraData: variant.extra };
}

/** The platform's operands only. */
function operands(variant: Variant, spec: Record<string, unknown> = {}): Obj[] {
  const chart = new Chart(new App(), 'c', { disableResourceNameHashes: true });
  const prepared = cluster(variant, spec);
  platformFor(prepared.spec.spec.platform)!.renderOperands(chart, prepared);
  return chart.toJson();
}

/** Everything the cluster chart renders. */
function everything(variant: Variant, spec: Record<string, unknown> = {}): Obj[] {
  return new ClusterChart(new App(), 'c', { cluster: cluster(variant, spec) }).toJson();
}

function ids(objects: Obj[]): string[] {
  return objects.map((o) => `${o.kind} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}`).sort();
}

function workload(objects: Obj[], kind = 'Deployment'): Obj {
  return objects.find((o) => o.kind === kind)!;
}

function ccm(objects: Obj[]): Obj {
  return workload(objects).spec.template.spec.containers[0];
}

/** The flags of the CCM container's script, one per element. */
function flags(container: Obj): string[] {
  const script: string = container.command[2];
  const exec = script
    .slice(APISERVER_URL_PREAMBLE.length)
    .replace(/^exec /, '')
    .trimEnd();
  return exec.split(' \\\n  ').slice(1);
}

const NS = 'openshift-cloud-controller-manager';
const LEADER = [
  '--leader-elect=true',
  '--leader-elect-lease-duration=137s',
  '--leader-elect-renew-deadline=107s',
  '--leader-elect-retry-period=26s',
  `--leader-elect-resource-namespace=${NS}`,
];
const TLS = [
  '--tls-cipher-suites=TLS_AES_128_GCM_SHA256,TLS_AES_256_GCM_SHA384,TLS_CHACHA20_POLY1305_SHA256,TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,' +
    'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,' +
    'TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256',
  '--tls-min-version=VersionTLS12',
];
const COMMON = (lower: string) => [
  `ConfigMap ${NS}/cloud-conf`,
  `PodDisruptionBudget ${NS}/${lower}-cloud-controller-manager`,
  `Service ${NS}/${lower}-cloud-controller-manager`,
];

describe('every platform the operator supports is rendered', () => {
  test('the registry holds the nine platform types, each under its own type', () => {
    expect(supportedPlatforms()).toEqual(['AWS', 'AlibabaCloud', 'Azure', 'GCP', 'IBMCloud', 'Nutanix', 'OpenStack', 'PowerVS', 'VSphere']);
    for (const [type, definition] of Object.entries(PLATFORMS)) {
      expect(definition.type).toBe(type);
    }
  });

  test('the facts registry (what the loader reads) holds the same platforms with the same facts, and no operands', () => {
    // GIVEN both registries
    const data = (p: object) => Object.fromEntries(Object.entries(p).filter(([, v]) => typeof v !== 'function'));
    // THEN the same types, each with the renderer's images, section, CredentialsRequest and flags
    expect(Object.keys(PLATFORM_FACTS).sort()).toEqual(Object.keys(PLATFORMS).sort());
    for (const [type, definition] of Object.entries(PLATFORMS)) {
      const facts = PLATFORM_FACTS[type as PlatformType]!;
      expect(data(facts)).toEqual(data(definition));
      expect(
        Object.keys(facts)
          .filter((k) => typeof (facts as unknown as Record<string, unknown>)[k] === 'function')
          .sort(),
      ).toEqual(
        Object.keys(definition)
          .filter((k) => k !== 'renderOperands' && typeof (definition as unknown as Record<string, unknown>)[k] === 'function')
          .sort(),
      );
      expect('renderOperands' in facts).toBe(false);
    }
  });

  test('only Alibaba Cloud is tech preview', () => {
    expect(
      Object.values(PLATFORMS)
        .filter((p) => p.techPreview)
        .map((p) => p.type),
    ).toEqual(['AlibabaCloud']);
  });
});

describe('the operands of each platform (operator pkg/cloud/cloud_test.go TestGetResources plus cloud-conf)', () => {
  test.each([
    [
      'AWS',
      [
        `Deployment ${NS}/aws-cloud-controller-manager`,
        'ValidatingAdmissionPolicy openshift-cloud-controller-manager-cloud-provider-aws',
        'ValidatingAdmissionPolicyBinding openshift-cloud-controller-manager-cloud-provider-aws',
        ...COMMON('aws'),
      ],
    ],
    [
      'Azure',
      [
        `Deployment ${NS}/azure-cloud-controller-manager`,
        `DaemonSet ${NS}/azure-cloud-node-manager`,
        'Role kube-system/azure-cloud-provider',
        'RoleBinding kube-system/azure-cloud-provider:azure-cloud-provider',
        'ClusterRole azure-cloud-controller-manager',
        'ClusterRoleBinding cloud-controller-manager:azure-cloud-controller-manager',
        'ValidatingAdmissionPolicy openshift-cloud-controller-manager-cloud-provider-azure-node-admission',
        'ValidatingAdmissionPolicyBinding openshift-cloud-controller-manager-cloud-provider-azure-node-admission',
        'ValidatingAdmissionPolicy azure-load-balancer-tcp-idle-timeout-annotation-validation-policy',
        'ValidatingAdmissionPolicyBinding azure-load-balancer-tcp-idle-timeout-validation-annotation-binding',
        ...COMMON('azure'),
      ],
    ],
    [
      'AzureStackHub',
      [
        `Deployment ${NS}/azure-cloud-controller-manager`,
        `DaemonSet ${NS}/azure-cloud-node-manager`,
        'Role kube-system/azure-cloud-provider',
        'RoleBinding kube-system/azure-cloud-provider:azure-cloud-provider',
        'ClusterRole azure-cloud-controller-manager',
        'ClusterRoleBinding cloud-controller-manager:azure-cloud-controller-manager',
        ...COMMON('azure'),
      ],
    ],
    [
      'GCP',
      [
        `Deployment ${NS}/gcp-cloud-controller-manager`,
        'ClusterRole gcp-cloud-controller-manager',
        'ClusterRoleBinding gcp-cloud-controller-manager:cloud-provider',
        'ValidatingAdmissionPolicy network-tier-annotation-validation-policy',
        'ValidatingAdmissionPolicyBinding network-tier-annotation-binding',
        ...COMMON('gcp'),
      ],
    ],
    ['IBMCloud', [`Deployment ${NS}/ibm-cloud-controller-manager`, ...COMMON('ibmcloud')]],
    ['PowerVS', [`Deployment ${NS}/powervs-cloud-controller-manager`, ...COMMON('powervs')]],
    ['OpenStack', [`Deployment ${NS}/openstack-cloud-controller-manager`, ...COMMON('openstack')]],
    [
      'VSphere',
      [
        `Deployment ${NS}/vsphere-cloud-controller-manager`,
        `Role ${NS}/vsphere-cloud-controller-manager`,
        `RoleBinding ${NS}/vsphere-cloud-controller-manager:vsphere-cloud-controller-manager`,
        `RoleBinding ${NS}/vsphere-cloud-controller-manager:cloud-controller-manager`,
        'ClusterRole vsphere-cloud-controller-manager',
        'ClusterRoleBinding vsphere-cloud-controller-manager:vsphere-cloud-controller-manager',
        'ClusterRoleBinding vsphere-cloud-controller-manager:cloud-controller-manager',
        ...COMMON('vsphere'),
      ],
    ],
    [
      'Nutanix',
      [
        `Deployment ${NS}/nutanix-cloud-controller-manager`,
        `Role ${NS}/nutanix-cloud-controller-manager`,
        `RoleBinding ${NS}/nutanix-cloud-controller-manager:nutanix-cloud-controller-manager`,
        'ClusterRole nutanix-cloud-controller-manager',
        'ClusterRoleBinding nutanix-cloud-controller-manager:nutanix-cloud-controller-manager',
        ...COMMON('nutanix'),
      ],
    ],
    [
      'AlibabaCloud',
      [
        `Deployment ${NS}/alibaba-cloud-controller-manager`,
        `Role ${NS}/alibaba-cloud-controller-manager`,
        `RoleBinding ${NS}/alibaba-cloud-controller-manager:alibaba-cloud-controller-manager`,
        'ClusterRole alibaba-cloud-controller-manager',
        'ClusterRoleBinding alibaba-cloud-controller-manager:alibaba-cloud-controller-manager',
        ...COMMON('alibabacloud'),
      ],
    ],
  ])('%s renders exactly its objects; single-replica drops only the PDB', (variant, expected) => {
    expect(ids(operands(VARIANTS[variant]))).toEqual([...expected].sort());
    const sno = ids(operands(VARIANTS[variant], { controlPlaneTopology: 'SingleReplica' }));
    expect(sno).toEqual([...expected].filter((e) => !e.startsWith('PodDisruptionBudget')).sort());
  });
});

describe("the operator's invariants (operator pkg/cloud/cloud_test.go) hold for every workload of every platform", () => {
  const cases: [string, Variant, Record<string, unknown>][] = [];
  for (const [name, variant] of Object.entries(VARIANTS)) {
    cases.push([`${name}, highly available`, variant, {}]);
    cases.push([
      `${name}, single replica, proxy, Modern TLS`,
      variant,
      {
        controlPlaneTopology: 'SingleReplica',
        proxy: { httpProxy: 'http://p:3128', noProxy: '.svc' },
        tls: { profile: 'Modern' },
      },
    ]);
  }
  test.each(cases)('%s', (_name, variant, spec) => {
    const objects = everything(variant, spec);
    const workloads = objects.filter((o) => ['Deployment', 'DaemonSet'].includes(o.kind) && o.metadata.namespace === NS);
    expect(workloads.length).toBe(variant.platform === 'Azure' ? 2 : 1);
    const single = spec.controlPlaneTopology === 'SingleReplica';
    for (const w of workloads) {
      const pod = w.spec.template.spec;
      const containers: Obj[] = pod.containers;
      const tolerates = (key?: string) => pod.tolerations.some((t: Obj) => t.key === key && t.operator === 'Exists' && t.effect === 'NoSchedule');
      expect((tolerates('node.cloudprovider.kubernetes.io/uninitialized') && tolerates('node.kubernetes.io/not-ready')) || tolerates(undefined)).toBe(
        true,
      ); // 1
      expect(pod.hostNetwork).toBe(true); // 2
      const ports = containers.flatMap((c) => c.ports ?? []).map((p: Obj) => p.containerPort);
      expect(ports.length).toBeGreaterThan(0); // 3
      expect(ports.every((p: number) => p === 10258 || p === 10263)).toBe(true);
      const volumes = Object.fromEntries(pod.volumes.map((v: Obj) => [v.name, v]));
      const mergedAzure = variant.platform === 'Azure' && !variant.extra;
      if (mergedAzure) {
        // 4
        expect(volumes['merged-cloud-config']).toEqual({ name: 'merged-cloud-config', emptyDir: {} });
        for (const c of containers) {
          const path = c.name === 'cloud-controller-manager' ? '/etc/kubernetes-cloud-config' : '/etc/kubernetes';
          expect(c.volumeMounts).toContainEqual({ name: 'merged-cloud-config', mountPath: path, readOnly: true });
        }
      } else {
        expect(volumes['host-etc-kube']).toEqual({ name: 'host-etc-kube', hostPath: { path: '/etc/kubernetes', type: 'Directory' } });
        for (const c of containers) {
          expect(c.volumeMounts).toContainEqual({ name: 'host-etc-kube', mountPath: '/etc/kubernetes', readOnly: true });
        }
      }
      for (const c of containers) {
        expect(c.command).toHaveLength(3); // 5
        expect(c.command.slice(0, 2)).toEqual(['/bin/bash', '-c']);
        expect(c.command[2].startsWith(`${APISERVER_URL_PREAMBLE}exec `)).toBe(true);
        expect(c.args).toBeUndefined();
        expect(c.volumeMounts).toContainEqual({ name: 'trusted-ca', mountPath: '/etc/pki/ca-trust/extracted/pem', readOnly: true }); // 9
        expect(c.resources.limits).toBeUndefined();
        expect(c.imagePullPolicy).toBe('IfNotPresent');
      }
      for (const c of [...containers, ...(pod.initContainers ?? [])]) {
        expect(c.terminationMessagePolicy).toBe('FallbackToLogsOnError'); // 6
      }
      expect(volumes['trusted-ca'].configMap).toMatchObject({ name: 'ccm-trusted-ca', items: [{ key: 'ca-bundle.crt', path: 'tls-ca-bundle.pem' }] }); // 9
      const manager = containers.find((c) => c.name === 'cloud-controller-manager');
      if (manager) {
        for (const flag of [...LEADER, '--configure-cloud-routes=false', '--use-service-account-credentials=true']) {
          // 7, 8, 10
          expect(flags(manager)).toContain(flag);
        }
      }
      // proxy env on containers, never on init containers (operator pkg/cloud/common/substitution.go)
      for (const c of containers) {
        const names = (c.env ?? []).map((e: Obj) => e.name);
        expect(names.filter((n: string) => n.endsWith('PROXY'))).toEqual(spec.proxy ? ['HTTP_PROXY', 'NO_PROXY'] : []);
      }
      for (const c of pod.initContainers ?? []) {
        expect((c.env ?? []).some((e: Obj) => e.name.endsWith('PROXY'))).toBe(false);
      }
      const labelKey =
        w.kind === 'Deployment' ? 'infrastructure.openshift.io/cloud-controller-manager' : 'infrastructure.openshift.io/cloud-node-manager';
      for (const labels of [w.metadata.labels, w.spec.template.metadata.labels, w.spec.selector.matchLabels]) {
        // TestSelectorLabels
        expect(labels['k8s-app']).toBe(w.metadata.name);
        expect(labels[labelKey]).toBe(variant.platform === 'AlibabaCloud' ? 'AlibabaCloud' : variant.platform);
      }
      expect(w.spec.template.metadata.annotations['ccm-gitops.io/config-hash']).toMatch(/^[0-9a-f]{64}$/);
      if (w.kind === 'Deployment') {
        expect(w.spec.strategy).toEqual({ type: 'Recreate' }); // TestDeploymentStrategy
        expect(w.spec.replicas).toBe(single ? 1 : 2); // TestReplicas
        expect(pod.affinity).toEqual({
          // TestDeploymentPodAntiAffinity
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: w.metadata.labels } },
            ],
          },
        });
        expect(pod.serviceAccountName).toBe('cloud-controller-manager');
        expect(pod.serviceAccount).toBeUndefined();
        expect(pod.priorityClassName).toBe('system-cluster-critical');
      } else {
        expect(w.spec.replicas).toBeUndefined();
        expect(pod.serviceAccountName).toBe('cloud-node-manager');
        expect(pod.priorityClassName).toBe('system-node-critical');
      }
    }
    expect(objects.some((o) => o.kind === 'PodDisruptionBudget')).toBe(!single);
  });
});

describe("each platform's CCM container: binary, every flag in order, env, mounts, requests, probe (operator pkg/cloud/<platform>/assets)", () => {
  const INFRA = [{ name: 'OCP_INFRASTRUCTURE_NAME', value: 'c-abcde' }];
  test.each([
    [
      'AWS',
      '/bin/aws-cloud-controller-manager',
      [
        '--cloud-config=$(CLOUD_CONFIG)',
        '--cloud-provider=aws',
        '--use-service-account-credentials=true',
        '--configure-cloud-routes=false',
        ...LEADER,
        ...TLS,
        '--secure-port=0',
        '-v=2',
      ],
      [{ name: 'CLOUD_CONFIG', value: '/etc/kubernetes-cloud-config/cloud.conf' }],
      ['200m', '50Mi'],
    ],
    [
      'Azure',
      '/bin/azure-cloud-controller-manager',
      [
        '--v=3',
        '--cloud-config=$(CLOUD_CONFIG)',
        '--cloud-provider=azure',
        '--concurrent-service-syncs=10',
        '--controllers=*,-cloud-node',
        '--configure-cloud-routes=false',
        '--use-service-account-credentials=true',
        '--bind-address=127.0.0.1',
        '--cluster-name=$(OCP_INFRASTRUCTURE_NAME)',
        ...LEADER,
        ...TLS,
        '--secure-port=0',
      ],
      [{ name: 'CLOUD_CONFIG', value: '/etc/kubernetes-cloud-config/cloud.conf' }, ...INFRA],
      ['200m', '50Mi'],
    ],
    [
      'AzureStackHub',
      '/bin/azure-cloud-controller-manager',
      [
        '--v=6',
        '--cloud-config=$(CLOUD_CONFIG)',
        '--cloud-provider=azure',
        '--controllers=*,-cloud-node',
        '--configure-cloud-routes=false',
        '--use-service-account-credentials=true',
        '--bind-address=127.0.0.1',
        '--cluster-name=$(OCP_INFRASTRUCTURE_NAME)',
        ...LEADER,
        ...TLS,
        '--secure-port=0',
      ],
      [
        { name: 'CLOUD_CONFIG', value: '/etc/cloud-config/cloud.conf' },
        ...INFRA,
        { name: 'AZURE_ENVIRONMENT_FILEPATH', value: '/etc/cloud-config-original/endpoints.conf' },
      ],
      ['200m', '50Mi'],
    ],
    [
      'GCP',
      '/bin/gcp-cloud-controller-manager',
      [
        '--v=3',
        '--cloud-config=$(CLOUD_CONFIG)',
        '--cloud-provider=gce',
        '--concurrent-service-syncs=10',
        '--controllers=*,-nodeipam',
        '--configure-cloud-routes=false',
        '--use-service-account-credentials=true',
        '--bind-address=127.0.0.1',
        '--cluster-name=$(OCP_INFRASTRUCTURE_NAME)',
        ...LEADER,
        ...TLS,
        '--secure-port=0',
      ],
      [
        { name: 'CLOUD_CONFIG', value: '/etc/kubernetes-cloud-config/cloud.conf' },
        ...INFRA,
        { name: 'GOOGLE_APPLICATION_CREDENTIALS', value: '/etc/cloud-sa/service_account.json' },
      ],
      ['200m', '128Mi'],
    ],
    [
      'IBMCloud',
      '/bin/ibm-cloud-controller-manager',
      [
        '--bind-address=127.0.0.1',
        '--use-service-account-credentials=true',
        '--configure-cloud-routes=false',
        '--cloud-provider=ibm',
        '--cloud-config=/etc/ibm/cloud.conf',
        '--profiling=false',
        ...LEADER,
        ...TLS,
        '--v=2',
      ],
      [
        { name: 'VPCCTL_CLOUD_CONFIG', value: '/etc/ibm/cloud.conf' },
        { name: 'VPCCTL_PUBLIC_ENDPOINT', value: 'false' },
      ],
      ['75m', '60Mi'],
    ],
    [
      'PowerVS',
      '/bin/ibm-cloud-controller-manager',
      [
        '--use-service-account-credentials=true',
        '--configure-cloud-routes=false',
        '--cloud-provider=ibm',
        '--cloud-config=/etc/ibm/cloud.conf',
        '--profiling=false',
        ...LEADER,
        ...TLS,
        '--v=2',
      ],
      [
        { name: 'VPCCTL_CLOUD_CONFIG', value: '/etc/ibm/cloud.conf' },
        { name: 'ENABLE_VPC_PUBLIC_ENDPOINT', value: 'true' },
      ],
      ['75m', '60Mi'],
    ],
    [
      'OpenStack',
      '/usr/bin/openstack-cloud-controller-manager',
      [
        '--v=1',
        '--cloud-config=$(CLOUD_CONFIG)',
        '--cloud-provider=openstack',
        '--cluster-name=$(OCP_INFRASTRUCTURE_NAME)',
        '--use-service-account-credentials=true',
        '--configure-cloud-routes=false',
        '--bind-address=127.0.0.1',
        ...LEADER,
        ...TLS,
        '--secure-port=0',
      ],
      [{ name: 'CLOUD_CONFIG', value: '/etc/openstack/config/cloud.conf' }, ...INFRA],
      ['200m', '50Mi'],
    ],
    [
      'VSphere',
      '/bin/vsphere-cloud-controller-manager',
      [
        '--v=3',
        '--cloud-config=$(CLOUD_CONFIG)',
        '--cloud-provider=vsphere',
        '--controllers=*',
        '--configure-cloud-routes=false',
        '--bind-address=127.0.0.1',
        '--cluster-name=$(OCP_INFRASTRUCTURE_NAME)',
        ...LEADER,
        '--use-service-account-credentials=true',
        ...TLS,
        '--secure-port=0',
      ],
      [
        { name: 'CLOUD_CONFIG', value: '/etc/kubernetes-cloud-config/cloud.conf' },
        ...INFRA,
        { name: 'VSPHERE_SECRET_NAMESPACE', value: NS },
        { name: 'VSPHERE_SECRET_NAME', value: 'vsphere-cloud-credentials' },
        { name: 'ENABLE_ALPHA_DUAL_STACK', value: 'true' },
        { name: 'ADDITIONAL_NODE_LABELS', value: '' },
      ],
      ['200m', '128Mi'],
    ],
    [
      'Nutanix',
      '/bin/nutanix-cloud-controller-manager',
      [
        '--v=3',
        '--cloud-provider=nutanix',
        '--cloud-config=/etc/cloud/nutanix_config.json',
        '--controllers=*',
        '--configure-cloud-routes=false',
        '--cluster-name=$(OCP_INFRASTRUCTURE_NAME)',
        '--use-service-account-credentials=true',
        ...LEADER,
        ...TLS,
        '--secure-port=0',
      ],
      [
        ...INFRA,
        { name: 'NUTANIX_SECRET_NAMESPACE', value: NS },
        { name: 'NUTANIX_SECRET_NAME', value: 'nutanix-credentials' },
        { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
      ],
      ['200m', '128Mi'],
    ],
    [
      'AlibabaCloud',
      '/bin/alibaba-cloud-controller-manager',
      [
        '--allow-untagged-cloud=true',
        ...LEADER,
        '--cloud-provider=alicloud',
        '--use-service-account-credentials=true',
        '--cloud-config=/etc/alibaba/config/cloud-config.conf',
        '--feature-gates=ServiceNodeExclusion=true',
        '--configure-cloud-routes=false',
        '--allocate-node-cidrs=false',
        '--metrics-bind-addr=0',
      ],
      undefined,
      ['200m', '50Mi'],
    ],
  ] as [string, string, string[], Obj[] | undefined, [string, string]][])('%s', (variant, binary, expectedFlags, env, [cpu, memory]) => {
    const c = ccm(operands(VARIANTS[variant]));
    expect(c.command[2]).toContain(`exec ${binary} \\\n`);
    expect(flags(c)).toEqual(expectedFlags);
    expect(c.env).toEqual(env ?? []);
    expect(c.resources).toEqual({ requests: { cpu, memory } });
    expect(c.ports).toEqual([{ containerPort: 10258, name: 'https', protocol: 'TCP' }]);
  });

  test('the platform mounts: cloud config and credentials where each CCM reads them', () => {
    const mounts = (variant: string) => Object.fromEntries(ccm(operands(VARIANTS[variant])).volumeMounts.map((m: Obj) => [m.name, m.mountPath]));
    const volumes = (variant: string) =>
      Object.fromEntries(workload(operands(VARIANTS[variant])).spec.template.spec.volumes.map((v: Obj) => [v.name, v]));
    expect(mounts('GCP')).toMatchObject({ 'config-gccm': '/etc/kubernetes-cloud-config', 'cloud-sa-volume': '/etc/cloud-sa' });
    expect(volumes('GCP')['cloud-sa-volume']).toEqual({ name: 'cloud-sa-volume', secret: { secretName: 'gcp-ccm-cloud-credentials' } });
    expect(mounts('IBMCloud')).toMatchObject({ 'cloud-conf': '/etc/ibm', 'ibm-cloud-credentials': '/etc/vpc' });
    expect(volumes('IBMCloud')['cloud-conf']).toEqual({ name: 'cloud-conf', configMap: { name: 'cloud-conf', defaultMode: 420 } });
    expect(volumes('PowerVS')['ibm-cloud-credentials']).toEqual({
      name: 'ibm-cloud-credentials',
      secret: { secretName: 'ibm-cloud-credentials', defaultMode: 420 },
    });
    expect(mounts('OpenStack')).toMatchObject({ 'secret-occm': '/etc/openstack/secret', 'cloud-config': '/etc/openstack/config' });
    expect(volumes('OpenStack')['secret-occm']).toEqual({
      name: 'secret-occm',
      secret: { secretName: 'openstack-cloud-credentials', items: [{ key: 'clouds.yaml', path: 'clouds.yaml' }] },
    });
    expect(volumes('Nutanix')['nutanix-config'].configMap.items).toEqual([{ key: 'cloud.conf', path: 'nutanix_config.json' }]);
    expect(mounts('Nutanix')['nutanix-config']).toBe('/etc/cloud');
    expect(volumes('AzureStackHub')['config-accm'].configMap.items).toEqual([
      { key: 'cloud.conf', path: 'cloud.conf' },
      { key: 'endpoints', path: 'endpoints.conf' },
    ]);
    expect(mounts('Azure')).toMatchObject({
      'merged-cloud-config': '/etc/kubernetes-cloud-config',
      'cloud-sa-volume': '/etc/azure/credentials',
      'bound-sa-token': '/var/run/secrets/openshift/serviceaccount',
    });
    expect(volumes('Azure')['bound-sa-token']).toEqual({
      name: 'bound-sa-token',
      projected: { sources: [{ serviceAccountToken: { path: 'token', audience: 'openshift' } }] },
    });
    expect(Object.keys(volumes('VSphere'))).toEqual(['config-vccm', 'trusted-ca', 'host-etc-kube']);
  });

  test('IBM Cloud and Power VS are probed on 10258 and get 90 s to stop; no other CCM is probed', () => {
    const ibm = operands(VARIANTS.IBMCloud);
    expect(ccm(ibm).livenessProbe).toEqual({
      httpGet: { host: '127.0.0.1', path: '/healthz', port: 10258, scheme: 'HTTPS' },
      initialDelaySeconds: 300,
      periodSeconds: 10,
      timeoutSeconds: 160,
      failureThreshold: 3,
      successThreshold: 1,
    });
    expect(workload(ibm).spec.template.spec.terminationGracePeriodSeconds).toBe(90);
    const powervs = operands(VARIANTS.PowerVS);
    expect(ccm(powervs).livenessProbe).toEqual({
      httpGet: { path: '/healthz', port: 10258, scheme: 'HTTPS' },
      initialDelaySeconds: 300,
      timeoutSeconds: 160,
    });
    expect(ccm(operands(VARIANTS.AlibabaCloud)).livenessProbe).toEqual({
      httpGet: { host: '127.0.0.1', path: '/healthz', port: 10258, scheme: 'HTTP' },
      initialDelaySeconds: 15,
      timeoutSeconds: 15,
      failureThreshold: 8,
    });
    for (const variant of ['AWS', 'Azure', 'GCP', 'OpenStack', 'VSphere', 'Nutanix']) {
      expect(ccm(operands(VARIANTS[variant])).livenessProbe).toBeUndefined();
    }
  });

  test('IBM Cloud public endpoint switch sets VPCCTL_PUBLIC_ENDPOINT', () => {
    const env = ccm(operands(VARIANTS.IBMCloud, { ibmcloud: { publicEndpoint: true } })).env;
    expect(env).toContainEqual({ name: 'VPCCTL_PUBLIC_ENDPOINT', value: 'true' });
  });

  test('OpenStack tolerates CriticalAddonsOnly and the standard set, NoExecute entries included (operator lacks them)', () => {
    expect(workload(operands(VARIANTS.OpenStack)).spec.template.spec.tolerations).toEqual([
      { key: 'CriticalAddonsOnly', operator: 'Exists' },
      { key: 'node-role.kubernetes.io/master', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 120 },
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 120 },
      { key: 'node.cloudprovider.kubernetes.io/uninitialized', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' },
    ]);
  });
});

describe('feature gates that change rendering', () => {
  test('upstream cloud gates pass through to OpenStack and vSphere --feature-gates, sorted, enabled only', () => {
    expect(upstreamFeatureGatesFlag(['VSphereMixedNodeEnv', 'CloudControllerManagerWebhook', 'AllBeta'])).toBe(
      'AllBeta=true,CloudControllerManagerWebhook=true',
    );
    expect(upstreamFeatureGatesFlag(['GatewayAPI'])).toBe('');
    const gates = { featureGates: { enabled: ['ControllerManagerReleaseLeaderElectionLockOnExit', 'GatewayAPI'] } };
    for (const variant of ['OpenStack', 'VSphere']) {
      expect(flags(ccm(operands(VARIANTS[variant], gates)))).toContain('--feature-gates=ControllerManagerReleaseLeaderElectionLockOnExit=true');
      expect(flags(ccm(operands(VARIANTS[variant]))).some((f) => f.startsWith('--feature-gates'))).toBe(false);
    }
    expect(flags(ccm(operands(VARIANTS.GCP, gates))).some((f) => f.startsWith('--feature-gates'))).toBe(false);
  });

  test('VSphereMixedNodeEnv labels nodes with the platform type', () => {
    const c = ccm(operands(VARIANTS.VSphere, { featureGates: { enabled: ['VSphereMixedNodeEnv'] } }));
    expect(flags(c)).toContain('--node-labels="$(ADDITIONAL_NODE_LABELS)"');
    expect(flags(c).indexOf('--node-labels="$(ADDITIONAL_NODE_LABELS)"')).toBe(flags(c).indexOf('--use-service-account-credentials=true') + 1);
    expect(c.env).toContainEqual({ name: 'ADDITIONAL_NODE_LABELS', value: 'node.openshift.io/platform-type=vsphere' });
  });
});

describe('TLS profiles as the API server maps them', () => {
  test.each([
    [
      'Old',
      'VersionTLS10',
      'TLS_AES_128_GCM_SHA256,TLS_AES_256_GCM_SHA384,TLS_CHACHA20_POLY1305_SHA256,TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,' +
        'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,' +
        'TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256,' +
        'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256,TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA,TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA,TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA,' +
        'TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA,TLS_RSA_WITH_AES_128_GCM_SHA256,TLS_RSA_WITH_AES_256_GCM_SHA384,TLS_RSA_WITH_AES_128_CBC_SHA256,' +
        'TLS_RSA_WITH_AES_128_CBC_SHA,TLS_RSA_WITH_AES_256_CBC_SHA,TLS_RSA_WITH_3DES_EDE_CBC_SHA',
    ],
    ['Intermediate', 'VersionTLS12', TLS[0].slice('--tls-cipher-suites='.length)],
    ['Modern', 'VersionTLS13', undefined],
  ])('%s', (profile, min, ciphers) => {
    const f = flags(ccm(operands(VARIANTS.GCP, { tls: { profile } })));
    expect(f).toContain(`--tls-min-version=${min}`);
    expect(f.find((x) => x.startsWith('--tls-cipher-suites='))).toBe(ciphers === undefined ? undefined : `--tls-cipher-suites=${ciphers}`);
  });

  test('Custom maps OpenSSL names, keeps IANA names, and drops the DHE suites Go lacks', () => {
    const tls = {
      profile: 'Custom',
      minTLSVersion: 'VersionTLS11',
      ciphers: ['ECDHE-RSA-AES256-GCM-SHA384', 'DHE-RSA-AES128-GCM-SHA256', 'TLS_RSA_WITH_AES_128_CBC_SHA'],
    };
    const f = flags(ccm(operands(VARIANTS.AWS, { tls })));
    expect(f).toContain('--tls-cipher-suites=TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,TLS_RSA_WITH_AES_128_CBC_SHA');
    expect(f).toContain('--tls-min-version=VersionTLS11');
  });
});

describe('platform RBAC: exact rules and subjects', () => {
  function role(objects: Obj[], kind: string, name: string): Obj {
    return objects.find((o) => o.kind === kind && o.metadata.name === name)!;
  }

  test('Azure: the lease Role without list-by-name, the EndpointSlice ClusterRole, on Azure Stack Hub too', () => {
    for (const variant of ['Azure', 'AzureStackHub']) {
      const objects = operands(VARIANTS[variant]);
      expect(role(objects, 'Role', 'azure-cloud-provider').rules).toEqual([
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], resourceNames: ['aks-managed-resource-locker'], verbs: ['get', 'update'] },
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
      ]);
      expect(role(objects, 'RoleBinding', 'azure-cloud-provider:azure-cloud-provider').subjects).toEqual([
        { kind: 'ServiceAccount', name: 'azure-cloud-provider', namespace: 'kube-system' },
      ]);
      expect(role(objects, 'ClusterRole', 'azure-cloud-controller-manager').rules).toEqual([
        { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['get', 'list', 'watch'] },
      ]);
      expect(role(objects, 'ClusterRoleBinding', 'cloud-controller-manager:azure-cloud-controller-manager').subjects).toEqual([
        { kind: 'ServiceAccount', name: 'cloud-controller-manager', namespace: NS },
      ]);
    }
  });

  test('GCP binds its ClusterRole to kube-system/cloud-provider', () => {
    const objects = operands(VARIANTS.GCP);
    expect(role(objects, 'ClusterRole', 'gcp-cloud-controller-manager').rules).toEqual([
      { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch', 'update'] },
      { apiGroups: [''], resources: ['services/status'], verbs: ['patch', 'update'] },
    ]);
    expect(role(objects, 'ClusterRoleBinding', 'gcp-cloud-controller-manager:cloud-provider')).toMatchObject({
      roleRef: { kind: 'ClusterRole', name: 'gcp-cloud-controller-manager' },
      subjects: [{ kind: 'ServiceAccount', name: 'cloud-provider', namespace: 'kube-system' }],
    });
  });

  test('vSphere binds all four roles to kube-system/vsphere-cloud-controller-manager', () => {
    const objects = operands(VARIANTS.VSphere);
    const bindings = objects.filter((o) => o.kind.endsWith('Binding'));
    expect(bindings.map((b) => `${b.kind} ${b.metadata.name} -> ${b.roleRef.kind}/${b.roleRef.name}`).sort()).toEqual([
      'ClusterRoleBinding vsphere-cloud-controller-manager:cloud-controller-manager -> ClusterRole/cloud-controller-manager',
      'ClusterRoleBinding vsphere-cloud-controller-manager:vsphere-cloud-controller-manager -> ClusterRole/vsphere-cloud-controller-manager',
      'RoleBinding vsphere-cloud-controller-manager:cloud-controller-manager -> Role/cloud-controller-manager',
      'RoleBinding vsphere-cloud-controller-manager:vsphere-cloud-controller-manager -> Role/vsphere-cloud-controller-manager',
    ]);
    for (const b of bindings) {
      expect(b.subjects).toEqual([{ kind: 'ServiceAccount', name: 'vsphere-cloud-controller-manager', namespace: 'kube-system' }]);
    }
    expect(role(objects, 'Role', 'vsphere-cloud-controller-manager').rules).toEqual([
      { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch'] },
    ]);
    expect(role(objects, 'ClusterRole', 'vsphere-cloud-controller-manager').rules).toEqual([
      { apiGroups: [''], resources: ['nodes'], verbs: ['update'] },
      { apiGroups: [''], resources: ['nodes/status'], verbs: ['patch'] },
    ]);
  });

  test('Nutanix binds its roles to kube-system/cloud-provider-nutanix', () => {
    const objects = operands(VARIANTS.Nutanix);
    expect(role(objects, 'Role', 'nutanix-cloud-controller-manager').rules).toEqual([
      { apiGroups: [''], resources: ['secrets', 'configmaps'], verbs: ['get', 'list', 'watch'] },
    ]);
    expect(role(objects, 'ClusterRole', 'nutanix-cloud-controller-manager').rules).toEqual([
      { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch', 'patch'] },
    ]);
    for (const b of objects.filter((o) => o.kind.endsWith('Binding'))) {
      expect(b.subjects).toEqual([{ kind: 'ServiceAccount', name: 'cloud-provider-nutanix', namespace: 'kube-system' }]);
    }
  });
});

describe('Azure node manager and credentials injector (operator pkg/cloud/azure, pkg/cloud/azurestack, cmd/azure-config-credentials-injector)', () => {
  test('public clouds: the injector reads the host config and merges credentials with workload identity allowed', () => {
    const ds = workload(operands(VARIANTS.Azure), 'DaemonSet');
    const pod = ds.spec.template.spec;
    expect(ds.metadata.labels).toEqual({
      'k8s-app': 'azure-cloud-node-manager',
      'infrastructure.openshift.io/cloud-node-manager': 'Azure',
      component: 'azure-cloud-node-manager',
      'kubernetes.io/cluster-service': 'true',
    });
    expect(ds.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '10%' } });
    expect(ds.spec.template.metadata.annotations['cluster-autoscaler.kubernetes.io/daemonset-pod']).toBe('true');
    expect(pod.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
    expect(pod.tolerations).toEqual([
      { operator: 'Exists', effect: 'NoSchedule' },
      { key: 'node-role.kubernetes.io/infra', operator: 'Exists', effect: 'NoExecute' },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 120 },
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 120 },
    ]);
    const [injector, wait] = pod.initContainers;
    expect(injector.name).toBe('azure-inject-credentials');
    expect(injector.image).toBe(imageFor('cloudControllerManagerOperator'));
    expect(injector.command[2]).toContain(
      '--disable-identity-extension-auth \\\n  --enable-azure-workload-identity=true \\\n  --creds-path=/etc/azure/credentials',
    );
    expect(injector.volumeMounts[0]).toEqual({ name: 'host-etc-kube', mountPath: '/etc/cloud-config', readOnly: true });
    expect(wait.name).toBe('wait-for-trust-bundle');
    expect(wait.image).toBe(imageFor('cloudNodeManagerAzure'));
    const c = pod.containers[0];
    expect(flags(c)).toEqual(['--node-name=$(NODE_NAME)', '--wait-routes=false', '--enable-deprecated-beta-topology-labels']);
    expect(c.ports).toEqual([{ containerPort: 10263, name: 'https', protocol: 'TCP' }]);
    expect(c.resources).toEqual({ requests: { cpu: '50m', memory: '50Mi' } });
    expect(workload(operands(VARIANTS.Azure)).spec.template.spec.initContainers[0].volumeMounts[0]).toEqual({
      name: 'config-accm',
      mountPath: '/etc/cloud-config',
      readOnly: true,
    });
  });

  test('Azure Stack Hub: injector with arguments on cloud-conf, node manager without instance metadata', () => {
    const pod = workload(operands(VARIANTS.AzureStackHub), 'DaemonSet').spec.template.spec;
    expect(pod.initContainers[0]).toMatchObject({
      command: ['/azure-config-credentials-injector'],
      args: [
        '--cloud-config-file-path=/tmp/cloud-config/cloud.conf',
        '--output-file-path=/tmp/merged-cloud-config/cloud.conf',
        '--creds-path=/etc/azure/credentials',
      ],
    });
    expect(flags(pod.containers[0])).toEqual([
      '--node-name=$(NODE_NAME)',
      '--wait-routes=false',
      '--use-instance-metadata=false',
      '--cloud-config=$(CLOUD_CONFIG)',
      '--v=6',
    ]);
  });

  test('Azure Stack Hub without the endpoints key is refused by the construct', () => {
    expect(() => operands({ ...VARIANTS.AzureStackHub, extra: undefined })).toThrow(
      "'cloudConfExtraData.endpoints' (the Azure Stack Hub environment file) must be set, got none",
    );
  });
});

describe('CredentialsRequests (operator manifests/*credentialsrequest-*.yaml)', () => {
  function credentialsRequest(variant: Variant): Obj | undefined {
    return everything(variant).find((o) => o.kind === 'CredentialsRequest');
  }

  test.each([
    ['AWS', undefined],
    ['AlibabaCloud', undefined],
    ['Azure', ['openshift-azure-cloud-controller-manager', 'azure-cloud-credentials', 'AzureProviderSpec', ['cloud-controller-manager']]],
    ['AzureStackHub', ['openshift-azure-cloud-controller-manager', 'azure-cloud-credentials', 'AzureProviderSpec', ['cloud-controller-manager']]],
    ['GCP', ['openshift-gcp-ccm', 'gcp-ccm-cloud-credentials', 'GCPProviderSpec', ['cloud-controller-manager']]],
    ['IBMCloud', ['openshift-ibm-cloud-controller-manager', 'ibm-cloud-credentials', 'IBMCloudProviderSpec', undefined]],
    ['PowerVS', ['openshift-powervs-cloud-controller-manager', 'ibm-cloud-credentials', 'IBMCloudPowerVSProviderSpec', undefined]],
    ['OpenStack', ['openshift-openstack-cloud-controller-manager', 'openstack-cloud-credentials', 'OpenStackProviderSpec', undefined]],
    ['VSphere', ['openshift-vsphere-cloud-controller-manager', 'vsphere-cloud-credentials', 'VSphereProviderSpec', undefined]],
    ['Nutanix', ['openshift-nutanix-cloud-controller-manager', 'nutanix-credentials', 'NutanixProviderSpec', undefined]],
  ] as [string, [string, string, string, string[] | undefined] | undefined][])('%s', (variant, expected) => {
    const cr = credentialsRequest(VARIANTS[variant]);
    if (!expected) {
      expect(cr).toBeUndefined();
      return;
    }
    const [name, secret, kind, serviceAccounts] = expected;
    expect(cr!.metadata.name).toBe(name);
    expect(cr!.metadata.namespace).toBe('openshift-cloud-credential-operator');
    expect(cr!.spec.secretRef).toEqual({ name: secret, namespace: NS });
    expect(cr!.spec.providerSpec.kind).toBe(kind);
    expect(cr!.spec.providerSpec.apiVersion).toBe('cloudcredential.openshift.io/v1');
    expect(cr!.spec.serviceAccountNames).toEqual(serviceAccounts);
  });

  test("permissions and policies are the operator's, in its order", () => {
    const azure = credentialsRequest(VARIANTS.Azure)!.spec.providerSpec;
    expect(azure.permissions).toHaveLength(30);
    expect(azure.permissions[0]).toBe('Microsoft.Compute/virtualMachines/read');
    expect(azure.permissions[29]).toBe('Microsoft.Network/applicationSecurityGroups/joinNetworkSecurityRule/action');
    // release-4.22 ships 35 GCP permissions, release-4.23 48 (manifests/…_16_credentialsrequest-gcp.yaml of each branch)
    const gcp = credentialsRequest(VARIANTS.GCP)!.spec.providerSpec;
    expect(gcp.permissions).toHaveLength(35);
    expect(gcp.permissions.slice(0, 2)).toEqual(['compute.addresses.create', 'compute.addresses.delete']);
    expect(gcp.permissions.at(-1)).toBe('compute.zones.list');
    expect(gcp.skipServiceCheck).toBe(true);
    const gcp423 = everything(VARIANTS.GCP, { openshift: { release: '4.23.1' } }).find((o) => o.kind === 'CredentialsRequest')!.spec.providerSpec;
    expect(gcp423.permissions).toHaveLength(48);
    expect(gcp423.permissions.slice(0, 2)).toEqual(['compute.addresses.create', 'compute.addresses.createInternal']);
    const powervs = credentialsRequest(VARIANTS.PowerVS)!;
    expect(powervs.metadata.labels).toEqual({ 'controller-tools.k8s.io': '1.0' });
    expect(powervs.spec.providerSpec.policies).toEqual([
      { attributes: [{ name: 'resourceType', value: 'resource-group' }], roles: ['crn:v1:bluemix:public:iam::::role:Viewer'] },
      {
        attributes: [{ name: 'serviceName', value: 'is' }],
        roles: ['crn:v1:bluemix:public:iam::::role:Editor', 'crn:v1:bluemix:public:iam::::role:Operator', 'crn:v1:bluemix:public:iam::::role:Viewer'],
      },
      {
        attributes: [{ name: 'serviceName', value: 'power-iaas' }],
        roles: [
          'crn:v1:bluemix:public:iam::::role:Viewer',
          'crn:v1:bluemix:public:iam::::serviceRole:Reader',
          'crn:v1:bluemix:public:iam::::serviceRole:Manager',
        ],
      },
    ]);
    expect(credentialsRequest(VARIANTS.IBMCloud)!.spec.providerSpec.policies).toEqual(powervs.spec.providerSpec.policies.slice(0, 2));
  });

  test('the static set grants the cloud-node-manager identity only where a node manager runs', () => {
    const sa = (variant: string) =>
      everything(VARIANTS[variant]).some((o) => o.kind === 'ServiceAccount' && o.metadata.name === 'cloud-node-manager');
    expect(sa('Azure')).toBe(true);
    expect(sa('AzureStackHub')).toBe(true);
    expect(sa('GCP')).toBe(false);
  });
});

describe('admission policies', () => {
  test('Azure node admission: only the node manager, only its own Node', () => {
    const vap = operands(VARIANTS.Azure).find(
      (o) => o.metadata.name === 'openshift-cloud-controller-manager-cloud-provider-azure-node-admission' && o.kind === 'ValidatingAdmissionPolicy',
    )!;
    expect(vap.apiVersion).toBe('admissionregistration.k8s.io/v1');
    expect(vap.spec.matchConditions).toEqual([
      {
        name: 'check-only-machine-config-daemon-requests',
        expression: "request.userInfo.username == 'system:serviceaccount:openshift-cloud-controller-manager:cloud-node-manager'",
      },
    ]);
    expect(vap.spec.validations.map((v: Obj) => v.message ?? v.messageExpression)).toEqual([
      'this user must have a "authentication.kubernetes.io/node-name" claim',
      "'updates to Node ' + string(object.metadata.name) + ' may only be effected from the cloud node manager running on the same node'",
    ]);
  });

  test('GCP network tier and Azure idle timeout policies deny through their bindings', () => {
    const gcp = operands(VARIANTS.GCP);
    expect(gcp.find((o) => o.kind === 'ValidatingAdmissionPolicyBinding')!.spec).toEqual({
      policyName: 'network-tier-annotation-validation-policy',
      validationActions: ['Deny'],
    });
    const azure = operands(VARIANTS.Azure);
    expect(azure.find((o) => o.metadata.name === 'azure-load-balancer-tcp-idle-timeout-validation-annotation-binding')!.spec).toEqual({
      policyName: 'azure-load-balancer-tcp-idle-timeout-annotation-validation-policy',
      validationActions: ['Deny'],
    });
  });
});
