import { App, Chart } from 'cdk8s';
import { addCcmWorkload, CCM_CONTAINER_NAME, ccmPodTemplate, CcmPodTemplateProps } from '../src/constructs/ccm-workload';
import { CONFIG_HASH_ANNOTATION, configHash } from '../src/constructs/config-hash';

const BASE: CcmPodTemplateProps = {
  labels: { 'k8s-app': 'ccm' },
  mountedConfig: { configMaps: { 'cloud-conf': { 'cloud.conf': 'x' } } },
  serviceAccountName: 'cloud-controller-manager',
  hostNetwork: true,
  tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' }],
  container: { image: 'example.com/ccm@sha256:' + 'c'.repeat(64), ports: [{ containerPort: 10258, name: 'https', protocol: 'TCP' }], resources: {} },
};

/** The rendered objects of `add` in a fresh chart. */
function rendered(add: (chart: Chart) => void): any[] {
  const chart = new Chart(new App(), 'test');
  add(chart);
  return chart.toJson();
}

describe('the neutral CCM workload shape (src/constructs/ccm-workload.ts)', () => {
  test('GIVEN pod annotations WHEN the pod template is built THEN the config hash of the mounted content is added after them', () => {
    const template = ccmPodTemplate({ ...BASE, annotations: { a: 'b' } });
    expect(template.metadata?.annotations).toEqual({ a: 'b', [CONFIG_HASH_ANNOTATION]: configHash(BASE.mountedConfig) });
    expect(Object.keys(template.metadata?.annotations ?? {})).toEqual(['a', CONFIG_HASH_ANNOTATION]);
  });

  test('GIVEN no optional lists WHEN rendered THEN the pod has one cloud-controller-manager container and no env, mounts, volumes, affinity or pull secrets', () => {
    const [deployment] = rendered((chart) =>
      addCcmWorkload(chart, 'ccm', {
        kind: 'Deployment',
        name: 'ccm',
        namespace: 'ns',
        labels: { 'k8s-app': 'ccm' },
        selector: { 'k8s-app': 'ccm' },
        replicas: 2,
        template: ccmPodTemplate(BASE),
      }),
    );
    const pod = deployment.spec.template.spec;
    expect(pod.containers).toEqual([
      {
        name: CCM_CONTAINER_NAME,
        image: BASE.container.image,
        imagePullPolicy: 'IfNotPresent',
        ports: [{ containerPort: 10258, name: 'https', protocol: 'TCP' }],
        resources: {},
        terminationMessagePolicy: 'FallbackToLogsOnError',
      },
    ]);
    expect(Object.keys(pod).sort()).toEqual(['containers', 'hostNetwork', 'serviceAccountName', 'tolerations']);
  });

  test('GIVEN an empty env list WHEN rendered THEN it renders as [] (lists are rendered as given)', () => {
    const [deployment] = rendered((chart) =>
      addCcmWorkload(chart, 'ccm', {
        kind: 'Deployment',
        name: 'ccm',
        namespace: 'ns',
        labels: {},
        selector: { 'k8s-app': 'ccm' },
        replicas: 1,
        template: ccmPodTemplate({ ...BASE, container: { ...BASE.container, env: [] } }),
      }),
    );
    expect(deployment.spec.template.spec.containers[0].env).toEqual([]);
  });

  test('GIVEN anti-affinity labels and a node affinity WHEN built THEN both sit in the pod affinity, the anti-affinity on the hostname', () => {
    const nodeAffinity = {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchExpressions: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists' }] }],
      },
    };
    const template = ccmPodTemplate({ ...BASE, nodeAffinity, antiAffinityLabels: { 'k8s-app': 'ccm' } });
    expect(template.spec?.affinity).toEqual({
      nodeAffinity,
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { 'k8s-app': 'ccm' } } },
        ],
      },
    });
  });

  test('GIVEN kind DaemonSet WHEN rendered THEN a DaemonSet with the update strategy and no replicas or Deployment strategy', () => {
    const [daemonSet] = rendered((chart) =>
      addCcmWorkload(chart, 'ccm', {
        kind: 'DaemonSet',
        name: 'ccm',
        namespace: 'kube-system',
        labels: { 'k8s-app': 'ccm' },
        selector: { 'k8s-app': 'ccm' },
        replicas: 3,
        strategy: { type: 'Recreate' },
        updateStrategy: { type: 'OnDelete' },
        template: ccmPodTemplate(BASE),
      }),
    );
    expect(daemonSet.kind).toBe('DaemonSet');
    expect(daemonSet.metadata).toEqual({ name: 'ccm', namespace: 'kube-system', labels: { 'k8s-app': 'ccm' } });
    expect(daemonSet.spec.updateStrategy).toEqual({ type: 'OnDelete' });
    expect(daemonSet.spec.replicas).toBeUndefined();
    expect(daemonSet.spec.strategy).toBeUndefined();
  });
});
