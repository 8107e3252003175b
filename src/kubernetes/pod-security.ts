/**
 * The Pod Security Standards level a pod needs (https://kubernetes.io/docs/concepts/security/pod-security-standards/,
 * as kubernetes/pod-security-admission policy/check_*.go evaluates them), for the checks the
 * pods ccm-gitops renders can trip: host namespaces, hostPath, host ports, privileged and
 * HostProcess containers, added capabilities (baseline); runAsNonRoot, seccomp,
 * allowPrivilegeEscalation, dropped capabilities and volume types (restricted).
 * Pure: no cdk8s import.
 */

export type PodSecurityLevel = 'privileged' | 'baseline' | 'restricted';

/** The securityContext fields the checks read (pod or container). */
interface SecurityFields {
  readonly privileged?: boolean;
  readonly runAsNonRoot?: boolean;
  readonly allowPrivilegeEscalation?: boolean;
  readonly seccompProfile?: { readonly type?: string };
  readonly capabilities?: { readonly add?: readonly string[]; readonly drop?: readonly string[] };
  readonly windowsOptions?: { readonly hostProcess?: boolean };
}

interface ContainerFields {
  readonly securityContext?: SecurityFields;
  readonly ports?: readonly { readonly hostPort?: number }[];
}

/** The pod spec fields the checks read, as rendered. */
export interface PodSecurityFields {
  readonly hostNetwork?: boolean;
  readonly hostPID?: boolean;
  readonly hostIPC?: boolean;
  readonly securityContext?: SecurityFields;
  readonly initContainers?: readonly ContainerFields[];
  readonly containers?: readonly ContainerFields[];
  readonly volumes?: readonly Readonly<Record<string, unknown>>[];
}

const ORDER: readonly PodSecurityLevel[] = ['restricted', 'baseline', 'privileged'];

/** The least permissive level that admits every pod. */
export function strictestAdmitting(levels: readonly PodSecurityLevel[]): PodSecurityLevel {
  return ORDER[Math.max(0, ...levels.map((l) => ORDER.indexOf(l)))];
}

/** Capabilities baseline allows to add (policy/check_capabilities_baseline.go). */
const BASELINE_CAPABILITIES = new Set([
  'AUDIT_WRITE',
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'MKNOD',
  'NET_BIND_SERVICE',
  'SETFCAP',
  'SETGID',
  'SETPCAP',
  'SETUID',
  'SYS_CHROOT',
]);
/** Volume types restricted allows (policy/check_restrictedVolumes.go). */
const RESTRICTED_VOLUMES = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret'];

/** The level one pod spec needs. */
export function podSecurityLevel(pod: PodSecurityFields): PodSecurityLevel {
  const containers = [...(pod.initContainers ?? []), ...(pod.containers ?? [])];
  const sc = (c: ContainerFields): SecurityFields => c.securityContext ?? {};
  const psc: SecurityFields = pod.securityContext ?? {};
  const baselineViolated =
    pod.hostNetwork === true ||
    pod.hostPID === true ||
    pod.hostIPC === true ||
    (pod.volumes ?? []).some((v) => v.hostPath !== undefined) ||
    psc.windowsOptions?.hostProcess === true ||
    containers.some(
      (c) =>
        sc(c).privileged === true ||
        sc(c).windowsOptions?.hostProcess === true ||
        (c.ports ?? []).some((p) => (p.hostPort ?? 0) !== 0) ||
        (sc(c).capabilities?.add ?? []).some((cap) => !BASELINE_CAPABILITIES.has(cap)),
    );
  if (baselineViolated) {
    return 'privileged';
  }
  const seccomp = (c: ContainerFields) => (sc(c).seccompProfile ?? psc.seccompProfile)?.type ?? '';
  const restricted =
    containers.every(
      (c) =>
        (sc(c).runAsNonRoot ?? psc.runAsNonRoot) === true &&
        ['RuntimeDefault', 'Localhost'].includes(seccomp(c)) &&
        sc(c).allowPrivilegeEscalation === false &&
        (sc(c).capabilities?.drop ?? []).includes('ALL') &&
        (sc(c).capabilities?.add ?? []).every((cap) => cap === 'NET_BIND_SERVICE'),
    ) && (pod.volumes ?? []).every((v) => RESTRICTED_VOLUMES.some((t) => v[t] !== undefined));
  return restricted ? 'restricted' : 'baseline';
}

/** The Pod Security admission labels of a namespace whose pods need `level` (enforce, audit and warn alike). */
export function podSecurityLabels(level: PodSecurityLevel): Record<string, string> {
  return {
    'pod-security.kubernetes.io/enforce': level,
    'pod-security.kubernetes.io/audit': level,
    'pod-security.kubernetes.io/warn': level,
  };
}
