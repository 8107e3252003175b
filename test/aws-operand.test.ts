import { App, Chart } from 'cdk8s';
import { ClusterChart } from '../src/pipeline/cluster-chart';
import { configHash } from '../src/constructs/config-hash';
import { APISERVER_URL_PREAMBLE } from '../src/openshift/pod-conventions';
import { AwsCloudControllerManager, AwsCloudControllerManagerProps } from '../src/openshift/aws';
import { AWS_IMAGE, awsSpec, preparedCluster } from './helpers';

type Obj = Record<string, any>;

function render(props: Partial<AwsCloudControllerManagerProps> = {}): Obj[] {
  const chart = new Chart(new App(), 'test', { disableResourceNameHashes: true });
  new AwsCloudControllerManager(chart, 'Aws', { image: AWS_IMAGE, cloudConf: '[Global]\n', ...props });
  return chart.toJson();
}

function deployment(objects: Obj[]): Obj {
  return objects.find((o) => o.kind === 'Deployment')!;
}

function script(objects: Obj[]): string {
  return deployment(objects).spec.template.spec.containers[0].command[2];
}

const LABELS = { 'k8s-app': 'aws-cloud-controller-manager', 'infrastructure.openshift.io/cloud-controller-manager': 'AWS' };

describe('AWS operand: what the operator renders (operator pkg/cloud/aws)', () => {
  const objects = render();

  test('renders the Deployment, cloud-conf, the admission policy and its binding, the PDB and the Service', () => {
    expect(objects.map((o) => `${o.apiVersion} ${o.kind} ${o.metadata.name}`).sort()).toEqual([
      'admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy openshift-cloud-controller-manager-cloud-provider-aws',
      'admissionregistration.k8s.io/v1 ValidatingAdmissionPolicyBinding openshift-cloud-controller-manager-cloud-provider-aws',
      'apps/v1 Deployment aws-cloud-controller-manager',
      'policy/v1 PodDisruptionBudget aws-cloud-controller-manager',
      'v1 ConfigMap cloud-conf',
      'v1 Service aws-cloud-controller-manager',
    ]);
  });

  test('Deployment metadata, selector, replicas and strategy', () => {
    const d = deployment(objects);
    expect(d.metadata).toEqual({ name: 'aws-cloud-controller-manager', namespace: 'openshift-cloud-controller-manager', labels: LABELS });
    expect(d.spec.replicas).toBe(2);
    expect(d.spec.selector).toEqual({ matchLabels: LABELS });
    expect(d.spec.strategy).toEqual({ type: 'Recreate' });
    expect(d.spec.template.metadata.labels).toEqual(LABELS);
  });

  test('pod scheduling: host network, control plane, anti-affinity, priority, tolerations', () => {
    const pod = deployment(objects).spec.template.spec;
    expect(pod.hostNetwork).toBe(true);
    expect(pod.serviceAccountName).toBe('cloud-controller-manager');
    expect(pod.priorityClassName).toBe('system-cluster-critical');
    expect(pod.nodeSelector).toEqual({ 'node-role.kubernetes.io/master': '' });
    expect(pod.affinity).toEqual({
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: LABELS } }],
      },
    });
    expect(pod.tolerations).toEqual([
      { key: 'node-role.kubernetes.io/master', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 120 },
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 120 },
      { key: 'node.cloudprovider.kubernetes.io/uninitialized', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' },
    ]);
  });

  test('the container: image, command and every flag in order, env, port, requests, mounts', () => {
    const c = deployment(objects).spec.template.spec.containers[0];
    expect(c.name).toBe('cloud-controller-manager');
    expect(c.image).toBe(AWS_IMAGE);
    expect(c.imagePullPolicy).toBe('IfNotPresent');
    expect(c.command).toEqual([
      '/bin/bash',
      '-c',
      `${APISERVER_URL_PREAMBLE}exec ${[
        '/bin/aws-cloud-controller-manager',
        '--cloud-config=$(CLOUD_CONFIG)',
        '--cloud-provider=aws',
        '--use-service-account-credentials=true',
        '--configure-cloud-routes=false',
        '--leader-elect=true',
        '--leader-elect-lease-duration=137s',
        '--leader-elect-renew-deadline=107s',
        '--leader-elect-retry-period=26s',
        '--leader-elect-resource-namespace=openshift-cloud-controller-manager',
        '--tls-cipher-suites=TLS_AES_128_GCM_SHA256,TLS_AES_256_GCM_SHA384,TLS_CHACHA20_POLY1305_SHA256,TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,' +
          'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,' +
          'TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256',
        '--tls-min-version=VersionTLS12',
        '--secure-port=0',
        '-v=2',
      ].join(' \\\n  ')}\n`,
    ]);
    expect(c.args).toBeUndefined();
    expect(c.env).toEqual([{ name: 'CLOUD_CONFIG', value: '/etc/kubernetes-cloud-config/cloud.conf' }]);
    expect(c.ports).toEqual([{ containerPort: 10258, name: 'https', protocol: 'TCP' }]);
    expect(c.resources).toEqual({ requests: { cpu: '200m', memory: '50Mi' } });
    expect(c.terminationMessagePolicy).toBe('FallbackToLogsOnError');
    // in the order of openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/cloud/aws/assets/deployment.yaml
    expect(c.volumeMounts).toEqual([
      { name: 'host-etc-kube', mountPath: '/etc/kubernetes', readOnly: true },
      { name: 'config-accm', mountPath: '/etc/kubernetes-cloud-config', readOnly: true },
      { name: 'trusted-ca', mountPath: '/etc/pki/ca-trust/extracted/pem', readOnly: true },
    ]);
  });

  test('volumes: cloud-conf, the optional trust bundle and host /etc/kubernetes; no credentials Secret', () => {
    expect(deployment(objects).spec.template.spec.volumes).toEqual([
      { name: 'config-accm', configMap: { name: 'cloud-conf', items: [{ key: 'cloud.conf', path: 'cloud.conf' }] } },
      { name: 'trusted-ca', configMap: { name: 'ccm-trusted-ca', items: [{ key: 'ca-bundle.crt', path: 'tls-ca-bundle.pem' }], optional: true } },
      { name: 'host-etc-kube', hostPath: { path: '/etc/kubernetes', type: 'Directory' } },
    ]);
  });

  test('an init container holds the pod until the trust bundle is injected', () => {
    const [init] = deployment(objects).spec.template.spec.initContainers;
    expect(init.name).toBe('wait-for-trust-bundle');
    expect(init.image).toBe(AWS_IMAGE);
    expect(init.command[2]).toContain('until [[ -s /etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem ]]; do');
    expect(init.volumeMounts).toEqual([{ name: 'trusted-ca', mountPath: '/etc/pki/ca-trust/extracted/pem', readOnly: true }]);
    expect(init.terminationMessagePolicy).toBe('FallbackToLogsOnError');
  });

  test('the pod template carries the hash of cloud-conf and the management annotation', () => {
    expect(deployment(objects).spec.template.metadata.annotations).toEqual({
      'target.workload.openshift.io/management': '{"effect": "PreferredDuringScheduling"}',
      'ccm-gitops.io/config-hash': configHash({ configMaps: { 'cloud-conf': { 'cloud.conf': '[Global]\n' } } }),
    });
  });

  test('a cloud config change changes the hash, so the pods roll', () => {
    const a = deployment(render({ cloudConf: '[Global]\nZone = a\n' })).spec.template.metadata.annotations['ccm-gitops.io/config-hash'];
    const b = deployment(render({ cloudConf: '[Global]\nZone = b\n' })).spec.template.metadata.annotations['ccm-gitops.io/config-hash'];
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(a).not.toBe(b);
  });

  test('cloud-conf holds the transformed config', () => {
    expect(objects.find((o) => o.kind === 'ConfigMap')).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cloud-conf', namespace: 'openshift-cloud-controller-manager' },
      data: { 'cloud.conf': '[Global]\n' },
    });
  });

  test('the admission policy freezes the load-balancer type annotation of existing Services', () => {
    const vap = objects.find((o) => o.kind === 'ValidatingAdmissionPolicy')!;
    expect(vap.spec.failurePolicy).toBe('Fail');
    expect(vap.spec.matchConstraints).toEqual({
      resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['UPDATE'], resources: ['services'] }],
    });
    expect(vap.spec.validations).toEqual([
      {
        expression: expect.stringContaining(
          "(has(object.metadata.annotations) && 'service.beta.kubernetes.io/aws-load-balancer-type' in object.metadata.annotations) ==\n",
        ),
        message:
          "The annotation 'service.beta.kubernetes.io/aws-load-balancer-type' may not be added, removed, or have its value changed. " +
          'Changing the type of an existing load balancer is not supported.',
        reason: 'Invalid',
      },
    ]);
    expect(objects.find((o) => o.kind === 'ValidatingAdmissionPolicyBinding')!.spec).toEqual({
      policyName: 'openshift-cloud-controller-manager-cloud-provider-aws',
      validationActions: ['Deny'],
    });
  });

  test('PDB and Service are named after the platform type and select its pods', () => {
    expect(objects.find((o) => o.kind === 'PodDisruptionBudget')!.spec).toEqual({
      minAvailable: 1,
      unhealthyPodEvictionPolicy: 'AlwaysAllow',
      selector: { matchLabels: { 'infrastructure.openshift.io/cloud-controller-manager': 'AWS' } },
    });
    const svc = objects.find((o) => o.kind === 'Service')!;
    expect(svc.apiVersion).toBe('v1');
    expect(svc.metadata.labels).toEqual({ 'k8s-app': 'aws-cloud-controller-manager' });
    expect(svc.spec).toEqual({
      type: 'ClusterIP',
      ports: [{ name: 'https', port: 10258, protocol: 'TCP' }],
      selector: { 'infrastructure.openshift.io/cloud-controller-manager': 'AWS' },
      sessionAffinity: 'None',
    });
  });
});

describe('AWS operand: options', () => {
  test('single replica: one replica and no PodDisruptionBudget', () => {
    const objects = render({ singleReplica: true });
    expect(deployment(objects).spec.replicas).toBe(1);
    expect(objects.filter((o) => o.kind === 'PodDisruptionBudget')).toEqual([]);
  });

  test('proxy settings are appended to the container env in order, not to the init container', () => {
    const objects = render({ proxy: { httpProxy: 'http://p:1', httpsProxy: 'http://p:2', noProxy: '.svc' } });
    const pod = deployment(objects).spec.template.spec;
    expect(pod.containers[0].env).toEqual([
      { name: 'CLOUD_CONFIG', value: '/etc/kubernetes-cloud-config/cloud.conf' },
      { name: 'HTTP_PROXY', value: 'http://p:1' },
      { name: 'HTTPS_PROXY', value: 'http://p:2' },
      { name: 'NO_PROXY', value: '.svc' },
    ]);
    expect(pod.initContainers[0].env).toBeUndefined();
  });

  test('only the proxy values that are set are added', () => {
    const env = deployment(render({ proxy: { httpsProxy: 'http://p:2' } })).spec.template.spec.containers[0].env;
    expect(env.map((e: Obj) => e.name)).toEqual(['CLOUD_CONFIG', 'HTTPS_PROXY']);
  });

  test('TLS 1.3 passes no cipher list', () => {
    const s = script(render({ tls: { minVersion: 'VersionTLS13', cipherSuites: [] } }));
    expect(s).toContain('--tls-min-version=VersionTLS13');
    expect(s).not.toContain('--tls-cipher-suites');
  });

  test('a custom cipher list is passed as given', () => {
    const s = script(render({ tls: { minVersion: 'VersionTLS12', cipherSuites: ['TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256'] } }));
    expect(s).toContain('--tls-cipher-suites=TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256 \\\n  --tls-min-version=VersionTLS12');
  });

  test('an empty image is refused', () => {
    expect(() => render({ image: '' })).toThrow('\'image\' of aws-cloud-controller-manager must be a pinned image reference, got ""');
  });
});

describe("the operator's rendering invariants (operator pkg/cloud/cloud_test.go) hold for every workload of the cluster chart", () => {
  const variants: [string, Record<string, unknown>][] = [
    ['HA', {}],
    ['single replica', { controlPlaneTopology: 'SingleReplica' }],
    ['with proxy and TLS 1.3', { proxy: { httpProxy: 'http://p:3128' }, tls: { profile: 'Modern' } }],
  ];
  test.each(variants)('%s', (_name, spec) => {
    const objects: Obj[] = new ClusterChart(new App(), 'c', { cluster: preparedCluster(awsSpec('c', spec)) }).toJson();
    const workloads = objects.filter(
      (o) => ['Deployment', 'DaemonSet'].includes(o.kind) && o.metadata.namespace === 'openshift-cloud-controller-manager',
    );
    expect(workloads).toHaveLength(1);
    for (const w of workloads) {
      const pod = w.spec.template.spec;
      const hasTolerations = (key: string) => pod.tolerations.some((t: Obj) => t.key === key && t.operator === 'Exists' && t.effect === 'NoSchedule');
      expect(hasTolerations('node.cloudprovider.kubernetes.io/uninitialized') && hasTolerations('node.kubernetes.io/not-ready')).toBe(true); // 1
      expect(pod.hostNetwork).toBe(true); // 2
      const ports = pod.containers.flatMap((c: Obj) => c.ports ?? []).map((p: Obj) => p.containerPort);
      expect(ports.length).toBeGreaterThan(0); // 3
      expect(ports.every((p: number) => p === 10258 || p === 10263)).toBe(true);
      expect(pod.volumes).toContainEqual({ name: 'host-etc-kube', hostPath: { path: '/etc/kubernetes', type: 'Directory' } }); // 4
      for (const c of pod.containers) {
        expect(c.volumeMounts).toContainEqual({ name: 'host-etc-kube', mountPath: '/etc/kubernetes', readOnly: true });
        expect(c.command).toHaveLength(3); // 5
        expect(c.command[2].startsWith(`${APISERVER_URL_PREAMBLE}exec `)).toBe(true);
        expect(c.args ?? []).toEqual([]);
        expect(c.volumeMounts).toContainEqual({ name: 'trusted-ca', mountPath: '/etc/pki/ca-trust/extracted/pem', readOnly: true }); // 9
      }
      for (const c of [...pod.containers, ...(pod.initContainers ?? [])]) {
        expect(c.terminationMessagePolicy).toBe('FallbackToLogsOnError'); // 6
      }
      const ccm = pod.containers.find((c: Obj) => c.name === 'cloud-controller-manager');
      for (const flag of [
        '--leader-elect=true',
        '--leader-elect-lease-duration=137s',
        '--leader-elect-renew-deadline=107s',
        '--leader-elect-retry-period=26s',
        '--leader-elect-resource-namespace=openshift-cloud-controller-manager',
        '--configure-cloud-routes=false',
        '--use-service-account-credentials=true',
      ]) {
        expect(ccm.command[2].split(/\s+/)).toContain(flag); // 7, 8, 10
      }
      expect(pod.volumes.find((v: Obj) => v.name === 'trusted-ca').configMap.items).toEqual([{ key: 'ca-bundle.crt', path: 'tls-ca-bundle.pem' }]); // 9
      // TestDeploymentPodAntiAffinity, TestDeploymentStrategy, TestSelectorLabels, TestReplicas
      expect(pod.affinity.podAntiAffinity).toEqual({
        requiredDuringSchedulingIgnoredDuringExecution: [
          { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: w.metadata.labels } },
        ],
      });
      expect(w.spec.strategy.type).toBe('Recreate');
      expect(w.spec.selector.matchLabels).toEqual(w.metadata.labels);
      expect(w.spec.template.metadata.labels).toEqual(w.metadata.labels);
      expect(w.metadata.labels['infrastructure.openshift.io/cloud-controller-manager']).toBe('AWS');
      expect(w.spec.replicas).toBe(spec.controlPlaneTopology === 'SingleReplica' ? 1 : 2);
    }
  });
});
