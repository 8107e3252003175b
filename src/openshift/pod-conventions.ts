import { k8s } from 'cdk8s-plus-28';
import { OPERAND_NAMESPACE, TRUSTED_CA_CONFIG_MAP } from './constants';

/**
 * The conventions every CCM pod of the operator follows (reference §2.3),
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

/** The leader-election flags of every CCM (reference §2.3). */
export const LEADER_ELECTION_FLAGS: readonly string[] = [
  '--leader-elect=true',
  '--leader-elect-lease-duration=137s',
  '--leader-elect-renew-deadline=107s',
  '--leader-elect-retry-period=26s',
  `--leader-elect-resource-namespace=${OPERAND_NAMESPACE}`,
];

/** Script prefix that loads the API server URL on hosts that have one (reference §7.1 invariant 5). */
export const APISERVER_URL_PREAMBLE = '#!/bin/bash\nset -o allexport\nif [[ -f /etc/kubernetes/apiserver-url.env ]]; then\n  source /etc/kubernetes/apiserver-url.env\nfi\n';

/**
 * `["/bin/bash", "-c", script]` running `exec <binary> <flags...>` after the
 * preamble; flags are joined with " \\\n  " for readable diffs. `$(VAR)`
 * references are expanded by the kubelet from the container env.
 */
export function bashCommand(binary: string, flags: readonly string[]): string[] {
  return ['/bin/bash', '-c', `${APISERVER_URL_PREAMBLE}exec ${[binary, ...flags].join(' \\\n  ')}\n`];
}

/** The standard toleration set of CCM Deployments (reference §2.3). */
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

/** Required anti-affinity on the hostname over the given labels. */
export function hostnameAntiAffinity(matchLabels: Record<string, string>): k8s.Affinity {
  return {
    podAntiAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels } }],
    },
  };
}

/**
 * Volume `trusted-ca`: ConfigMap `ccm-trusted-ca`, key `ca-bundle.crt` as
 * `tls-ca-bundle.pem`. Optional, because the key is injected after apply
 * (see `TrustedCaConfigMap`); `waitForTrustBundle` holds the pod until it is.
 */
export function trustedCaVolume(): k8s.Volume {
  return {
    name: 'trusted-ca',
    configMap: { name: TRUSTED_CA_CONFIG_MAP, items: [{ key: 'ca-bundle.crt', path: 'tls-ca-bundle.pem' }], optional: true },
  };
}

/** Path of the trust bundle inside CCM containers. */
export const TRUST_BUNDLE_FILE = '/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem';

/**
 * Init container that waits until the injected trust bundle is present, so
 * the CCM never starts with an empty trust store (Go loads the system roots
 * once; a CCM started before injection would fail TLS to the cloud API until
 * restarted). Runs the CCM image's bash.
 */
export function waitForTrustBundle(image: string): k8s.Container {
  return {
    name: 'wait-for-trust-bundle',
    image,
    imagePullPolicy: 'IfNotPresent',
    command: ['/bin/bash', '-c',
      `until [[ -s ${TRUST_BUNDLE_FILE} ]]; do\n`
      + `  echo "waiting for key ca-bundle.crt of ConfigMap ${TRUSTED_CA_CONFIG_MAP} (injected by the cluster-network-operator)"\n`
      + '  sleep 5\ndone\n'],
    resources: requests('10m', '10Mi'),
    terminationMessagePolicy: 'FallbackToLogsOnError',
    volumeMounts: [trustedCaMount()],
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

export type { ProxySettings } from '../spec/proxy';
export { proxyEnv } from '../spec/proxy';

/** Resource requests (no limits, as the operator). */
export function requests(cpu: string, memory: string): k8s.ResourceRequirements {
  return { requests: { cpu: k8s.Quantity.fromString(cpu), memory: k8s.Quantity.fromString(memory) } };
}
