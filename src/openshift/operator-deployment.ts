import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { configHash } from '../constructs/config-hash';
import { CONFIG_HASH_ANNOTATION, OPERATOR_NAMESPACE, OPERATOR_SERVICE_ACCOUNT, RELEASE_ANNOTATIONS } from './constants';
import {
  bashCommand,
  CONTROL_PLANE_NODE_SELECTOR,
  hostEtcKubeVolume,
  MANAGEMENT_WORKLOAD_ANNOTATION,
  ProxySettings,
  proxyEnv,
  requests,
} from './pod-conventions';
import { tlsFlags, TlsVersion } from '../cluster-spec/tls';
import { payloadHas } from './release-payload';

/** Properties for `OperatorDeployment`. */
export interface OperatorDeploymentProps {
  /** The operator image (images.json `cloudControllerManagerOperator`). */
  readonly image: string;
  /** The `images.json` data the pod mounts, for the config hash. */
  readonly imagesData: Readonly<Record<string, string>>;
  /**
   * TLS settings passed as `--tls-*` overrides.
   *
   * @default - none: the operator follows the APIServer TLS profile
   */
  readonly tls?: { readonly minVersion: TlsVersion; readonly cipherSuites: readonly string[] };
  /**
   * Proxy env for the operator containers. The operator's own manifest has
   * none (CVO manages it); it is added so the operator reaches the cloud
   * through the same proxy as its operands.
   *
   * @default - no proxy
   */
  readonly proxy?: ProxySettings;
  /**
   * The cluster's OpenShift release (`spec.openshift.release`): the operator
   * reports it on ClusterOperator `cloud-controller-manager`, and the
   * cluster-version operator waits for that version during an update. The
   * manifest's `0.0.1-snapshot` is a placeholder that release tooling replaces
   * (openshift/oc@6b8e30c5b39a pkg/cli/admin/release/image_mapper.go); it is never
   * rendered.
   */
  readonly releaseVersion: string;
  /**
   * The release's kube-rbac-proxy image (spec.images.kubeRbacProxy): the metrics sidecar of the
   * operator before 4.22 (`PAYLOAD_PARTS_SINCE.operatorServesMetrics`); required there.
   *
   * @default - none
   */
  readonly kubeRbacProxyImage?: string;
}

const LEADER_FLAGS = [
  '--leader-elect=true',
  '--leader-elect-lease-duration=137s',
  '--leader-elect-renew-deadline=107s',
  '--leader-elect-retry-period=26s',
  `--leader-elect-resource-namespace=${OPERATOR_NAMESPACE}`,
];

/**
 * Deployment `cluster-cloud-controller-manager-operator` (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c manifests/0000_26_cloud-controller-manager-operator_50_deployment.yaml):
 * the operator and its config-sync controllers, as the payload of `releaseVersion` ships it (before 4.22 with the
 * kube-rbac-proxy sidecar of …@6148c0cc (release-4.21) manifests/…_11_deployment.yaml; without the hostaccess SCC
 * annotation before 4.23: `PAYLOAD_PARTS_SINCE`). Rendered in `operator` mode only; in `gitops` mode this
 * generator is the reconciler.
 */
export class OperatorDeployment extends Construct {
  /** The Deployment object. */
  public readonly apiObject: ApiObject;

  constructor(scope: Construct, id: string, props: OperatorDeploymentProps) {
    super(scope, id);
    if (!props.image) {
      throw new Error('\'image\' must be a pinned image reference, got ""');
    }
    if (!props.releaseVersion || props.releaseVersion === '0.0.1-snapshot') {
      throw new Error(
        `'releaseVersion' must be the cluster's OpenShift release (spec.openshift.release), got ${JSON.stringify(props.releaseVersion ?? '')}`,
      );
    }
    const servesMetrics = payloadHas(props.releaseVersion, 'operatorServesMetrics');
    if (!servesMetrics && !props.kubeRbacProxyImage) {
      throw new Error(
        `'kubeRbacProxyImage' is required for release ${props.releaseVersion}, whose operator runs a kube-rbac-proxy sidecar (spec.images.kubeRbacProxy), got none`,
      );
    }
    const labels = { 'k8s-app': 'cloud-manager-operator' };
    const env = [{ name: 'RELEASE_VERSION', value: props.releaseVersion }, ...proxyEnv(props.proxy)];
    const tls = props.tls ? tlsFlags(props.tls) : [];
    const hostKube: k8s.VolumeMount = { name: 'host-etc-kube', mountPath: '/etc/kubernetes', readOnly: true };
    this.apiObject = new k8s.KubeDeployment(this, 'Resource', {
      metadata: {
        name: 'cluster-cloud-controller-manager-operator',
        namespace: OPERATOR_NAMESPACE,
        labels: { ...labels },
        annotations: { ...RELEASE_ANNOTATIONS },
      },
      spec: {
        replicas: 1,
        selector: { matchLabels: { ...labels } },
        strategy: { type: 'Recreate' },
        template: {
          metadata: {
            labels: { ...labels },
            annotations: {
              ...MANAGEMENT_WORKLOAD_ANNOTATION,
              'kubectl.kubernetes.io/default-container': 'cluster-cloud-controller-manager',
              ...(payloadHas(props.releaseVersion, 'operatorHostAccess') ? { 'openshift.io/required-scc': 'hostaccess' } : {}),
              [CONFIG_HASH_ANNOTATION]: configHash({ configMaps: { 'cloud-controller-manager-images': props.imagesData } }),
            },
          },
          spec: {
            priorityClassName: 'system-node-critical',
            serviceAccountName: OPERATOR_SERVICE_ACCOUNT,
            hostNetwork: true,
            nodeSelector: { ...CONTROL_PLANE_NODE_SELECTOR },
            restartPolicy: 'Always',
            tolerations: [
              { key: 'node.cloudprovider.kubernetes.io/uninitialized', operator: 'Equal', value: 'true', effect: 'NoSchedule' },
              { key: 'node-role.kubernetes.io/master', operator: 'Exists', effect: 'NoSchedule' },
              { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 120 },
              { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 120 },
              { key: 'node.cloudprovider.kubernetes.io/uninitialized', operator: 'Exists', effect: 'NoSchedule' },
              { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' },
            ],
            containers: [
              {
                name: 'cluster-cloud-controller-manager',
                image: props.image,
                imagePullPolicy: 'IfNotPresent',
                command: operatorCommand('/cluster-controller-manager-operator', [
                  ...LEADER_FLAGS,
                  '"--images-json=/etc/cloud-controller-manager-config/images.json"',
                  ...(servesMetrics ? ['--webhook-port=9443', '--metrics-bind-address=:9258'] : ['--metrics-bind-address=127.0.0.1:9257']),
                  '--health-addr=127.0.0.1:9259',
                  ...tls,
                ]),
                env,
                ports: [
                  ...(servesMetrics
                    ? [
                        { containerPort: 9443, name: 'webhook', protocol: 'TCP' },
                        { containerPort: 9258, name: 'metrics', protocol: 'TCP' },
                      ]
                    : [{ containerPort: 9257, name: 'metrics', protocol: 'TCP' }]),
                  { containerPort: 9259, name: 'healthz', protocol: 'TCP' },
                ],
                resources: requests('10m', '50Mi'),
                terminationMessagePolicy: 'FallbackToLogsOnError',
                volumeMounts: [
                  { name: 'images', mountPath: '/etc/cloud-controller-manager-config/' },
                  hostKube,
                  ...(servesMetrics
                    ? [
                        { name: 'cloud-controller-manager-operator-tls', mountPath: '/tmp/k8s-metrics-server/serving-certs', readOnly: true },
                        { name: 'cloud-controller-manager-operator-tls', mountPath: '/tmp/k8s-webhook-server/serving-certs', readOnly: true },
                      ]
                    : []),
                ],
              },
              {
                name: 'config-sync-controllers',
                image: props.image,
                imagePullPolicy: 'IfNotPresent',
                command: operatorCommand('/config-sync-controllers', [...LEADER_FLAGS, '--health-addr=127.0.0.1:9260', ...tls]),
                env,
                ports: [{ containerPort: 9260, name: 'healthz', protocol: 'TCP' }],
                resources: requests('10m', '25Mi'),
                terminationMessagePolicy: 'FallbackToLogsOnError',
                volumeMounts: [hostKube],
              },
              ...(servesMetrics ? [] : [kubeRbacProxyContainer(props.kubeRbacProxyImage!)]),
            ],
            volumes: [
              { name: 'images', configMap: { name: 'cloud-controller-manager-images', defaultMode: 420 } },
              hostEtcKubeVolume(),
              ...(servesMetrics ? [] : [{ name: 'auth-proxy-config', configMap: { name: 'kube-rbac-proxy' } }]),
              { name: 'cloud-controller-manager-operator-tls', secret: { secretName: 'cloud-controller-manager-operator-tls', optional: true } },
            ],
          },
        },
      },
    });
  }
}

/**
 * The TLS cipher suites release-4.21 and earlier pass the operator's kube-rbac-proxy, in their order
 * (openshift/cluster-cloud-controller-manager-operator@6148c0cc (release-4.21) manifests/0000_26_cloud-controller-manager-operator_11_deployment.yaml;
 * the same on release-4.16 to 4.20).
 */
const KUBE_RBAC_PROXY_CIPHERS = [
  'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
  'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256',
  'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384',
  'TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384',
  'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305',
  'TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305',
];

/**
 * The kube-rbac-proxy sidecar of the operator before 4.22 (…@6148c0cc (release-4.21) manifests/…_11_deployment.yaml):
 * it serves the operator's metrics, listening on 127.0.0.1:9257, on 0.0.0.0:9258 with the service-ca certificate,
 * authorized by the `kube-rbac-proxy` ConfigMap of the payload.
 */
function kubeRbacProxyContainer(image: string): k8s.Container {
  return {
    name: 'kube-rbac-proxy',
    image,
    imagePullPolicy: 'IfNotPresent',
    args: [
      '--secure-listen-address=0.0.0.0:9258',
      '--upstream=http://127.0.0.1:9257/',
      '--tls-cert-file=/etc/tls/private/tls.crt',
      '--tls-private-key-file=/etc/tls/private/tls.key',
      '--config-file=/etc/kube-rbac-proxy/config-file.yaml',
      `--tls-cipher-suites=${KUBE_RBAC_PROXY_CIPHERS.join(',')}`,
      '--logtostderr=true',
      '--v=3',
    ],
    ports: [{ containerPort: 9258, name: 'https', protocol: 'TCP' }],
    resources: requests('10m', '20Mi'),
    terminationMessagePolicy: 'FallbackToLogsOnError',
    volumeMounts: [
      { name: 'auth-proxy-config', mountPath: '/etc/kube-rbac-proxy' },
      { name: 'cloud-controller-manager-operator-tls', mountPath: '/etc/tls/private' },
    ],
  };
}

/** The operator's script: use the API server URL file when present, else the local kubeconfig. */
function operatorCommand(binary: string, flags: readonly string[]): string[] {
  const [shell, dashC, script] = bashCommand(binary, flags);
  return [shell, dashC, script.replace('fi\n', 'else\n  URL_ONLY_KUBECONFIG=/etc/kubernetes/kubeconfig\nfi\n')];
}
