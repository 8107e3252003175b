import { k8s } from 'cdk8s-plus-28';
import { MountedConfig } from '../constructs/config-hash';
import { CLOUD_CONF_CONFIG_MAP, OPERAND_NAMESPACE, TRUSTED_CA_CONFIG_MAP } from './constants';

/**
 * The conventions every CCM pod of the operator follows (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/cloud/<platform>/assets/),
 * as small builders of typed Kubernetes structs.
 */

/** Label carried by CCM Deployments, their selector and pods: the platform type. */
export const CCM_PLATFORM_LABEL = 'infrastructure.openshift.io/cloud-controller-manager';
/** The same for cloud node manager DaemonSets. */
export const CNM_PLATFORM_LABEL = 'infrastructure.openshift.io/cloud-node-manager';

/** Pod annotation asking for management-workload partitioning. */
export const MANAGEMENT_WORKLOAD_ANNOTATION: Readonly<Record<string, string>> = {
  'target.workload.openshift.io/management': '{"effect": "PreferredDuringScheduling"}',
};

/** The leader-election flags of every CCM (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/cloud/<platform>/assets/). */
export const LEADER_ELECTION_FLAGS: readonly string[] = [
  '--leader-elect=true',
  '--leader-elect-lease-duration=137s',
  '--leader-elect-renew-deadline=107s',
  '--leader-elect-retry-period=26s',
  `--leader-elect-resource-namespace=${OPERAND_NAMESPACE}`,
];

/** Script prefix that loads the API server URL on hosts that have one (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/cloud/cloud_test.go). */
export const APISERVER_URL_PREAMBLE =
  '#!/bin/bash\nset -o allexport\nif [[ -f /etc/kubernetes/apiserver-url.env ]]; then\n  source /etc/kubernetes/apiserver-url.env\nfi\n';

/**
 * `["/bin/bash", "-c", script]` running `exec <binary> <flags...>` after the
 * preamble; flags are joined with " \\\n  " for readable diffs. `$(VAR)`
 * references are expanded by the kubelet from the container env.
 */
export function bashCommand(binary: string, flags: readonly string[]): string[] {
  return ['/bin/bash', '-c', `${APISERVER_URL_PREAMBLE}exec ${[binary, ...flags].join(' \\\n  ')}\n`];
}

/** The standard toleration set of CCM Deployments (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/cloud/<platform>/assets/). */
export function standardTolerations(): k8s.Toleration[] {
  return [
    { key: 'node-role.kubernetes.io/master', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 120 },
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 120 },
    { key: 'node.cloudprovider.kubernetes.io/uninitialized', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' },
  ];
}

/** Control-plane node selector of CCM Deployments. */
export const CONTROL_PLANE_NODE_SELECTOR: Readonly<Record<string, string>> = { 'node-role.kubernetes.io/master': '' };

/** The `cloud-conf` key holding a CA bundle of the cloud's endpoints (Azure Stack Hub, OpenStack, vSphere). */
export const CLOUD_CA_BUNDLE_KEY = 'ca-bundle.pem';

/** Whether the pod mounts a `cloud-conf` with `ca-bundle.pem`, which must then join the trust store. */
export function hasCloudCaBundle(mounted: MountedConfig): boolean {
  return mounted.configMaps?.[CLOUD_CONF_CONFIG_MAP]?.[CLOUD_CA_BUNDLE_KEY] !== undefined;
}

const INJECTED_BUNDLE: k8s.Volume = {
  name: 'trusted-ca',
  configMap: { name: TRUSTED_CA_CONFIG_MAP, items: [{ key: 'ca-bundle.crt', path: 'tls-ca-bundle.pem' }], optional: true },
};

/**
 * The trust-store volumes. Without a cloud-config CA: `trusted-ca`, ConfigMap
 * `ccm-trusted-ca` key `ca-bundle.crt` as `tls-ca-bundle.pem`, optional
 * because the key is injected after apply (see `TrustedCaConfigMap`);
 * `waitForTrustBundle` holds the pod until it is. With one (`cloudCa`):
 * `trusted-ca` is an emptyDir that `waitForTrustBundle` fills with the
 * cloud-config CA followed by the injected bundle, as the operator merges
 * them into `ccm-trusted-ca` (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c
 * pkg/controllers/trusted_ca_bundle_controller.go `addCloudConfigCABundle`,
 * `mergeCABundles`: additional bundle, "\n", then the rest), read from
 * `trusted-ca-injected` and `cloud-config-ca`.
 */
export function trustedCaVolumes(cloudCa = false): k8s.Volume[] {
  if (!cloudCa) {
    return [INJECTED_BUNDLE];
  }
  return [
    { name: 'trusted-ca', emptyDir: {} },
    { ...INJECTED_BUNDLE, name: 'trusted-ca-injected' },
    { name: 'cloud-config-ca', configMap: { name: CLOUD_CONF_CONFIG_MAP, items: [{ key: CLOUD_CA_BUNDLE_KEY, path: CLOUD_CA_BUNDLE_KEY }] } },
  ];
}

/** Path of the trust bundle inside CCM containers. */
export const TRUST_BUNDLE_FILE = '/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem';

const STAGING = '/var/run/ccm-trust';

/**
 * Init container that waits until the injected trust bundle is present, so
 * the CCM never starts with an empty trust store (Go loads the system roots
 * once; a CCM started before injection would fail TLS to the cloud API until
 * restarted). With a cloud-config CA (`cloudCa`) it then writes the merged
 * trust store (see `trustedCaVolumes`). Runs the CCM image's bash.
 */
export function waitForTrustBundle(image: string, cloudCa = false): k8s.Container {
  const injected = cloudCa ? `${STAGING}/injected/tls-ca-bundle.pem` : TRUST_BUNDLE_FILE;
  const wait =
    `until [[ -s ${injected} ]]; do\n` +
    `  echo "waiting for key ca-bundle.crt of ConfigMap ${TRUSTED_CA_CONFIG_MAP} (injected by the cluster-network-operator)"\n` +
    '  sleep 5\ndone\n';
  const merge = cloudCa
    ? `{ cat ${STAGING}/cloud-config/${CLOUD_CA_BUNDLE_KEY}; echo; cat ${injected}; } > ${TRUST_BUNDLE_FILE}.tmp\n` +
      `mv ${TRUST_BUNDLE_FILE}.tmp ${TRUST_BUNDLE_FILE}\n`
    : '';
  return {
    name: 'wait-for-trust-bundle',
    image,
    imagePullPolicy: 'IfNotPresent',
    command: ['/bin/bash', '-c', wait + merge],
    resources: requests('10m', '10Mi'),
    terminationMessagePolicy: 'FallbackToLogsOnError',
    volumeMounts: cloudCa
      ? [
          { name: 'trusted-ca-injected', mountPath: `${STAGING}/injected`, readOnly: true },
          { name: 'cloud-config-ca', mountPath: `${STAGING}/cloud-config`, readOnly: true },
          { name: 'trusted-ca', mountPath: '/etc/pki/ca-trust/extracted/pem' },
        ]
      : [trustedCaMount()],
  };
}

/** Mount of `trusted-ca` where Go and the system look for CAs. */
export function trustedCaMount(): k8s.VolumeMount {
  return { name: 'trusted-ca', mountPath: '/etc/pki/ca-trust/extracted/pem', readOnly: true };
}

/** Volume `host-etc-kube`: the host's /etc/kubernetes. */
export function hostEtcKubeVolume(): k8s.Volume {
  return { name: 'host-etc-kube', hostPath: { path: '/etc/kubernetes', type: 'Directory' } };
}

/** Read-only mount of `host-etc-kube` at /etc/kubernetes. */
export function hostEtcKubeMount(): k8s.VolumeMount {
  return { name: 'host-etc-kube', mountPath: '/etc/kubernetes', readOnly: true };
}

export type { ProxySettings } from '../cluster-spec/proxy';
export { proxyEnv } from '../cluster-spec/proxy';

/** Resource requests (no limits, as the operator). */
export function requests(cpu: string, memory: string): k8s.ResourceRequirements {
  return { requests: { cpu: k8s.Quantity.fromString(cpu), memory: k8s.Quantity.fromString(memory) } };
}
