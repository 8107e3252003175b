/**
 * Pod Security admission against the rendered namespaces: a pod that breaks the baseline
 * standard (host namespaces, hostPath volumes, host ports, privileged or HostProcess
 * containers: kubernetes/pod-security-admission@v0.33.0 policy/check_hostNamespaces.go,
 * check_hostPathVolumes.go, check_hostPorts.go, check_privileged.go, check_windowsHostProcess.go)
 * is admitted only where `pod-security.kubernetes.io/enforce` is `privileged`. A namespace
 * without the label takes the cluster's AdmissionConfiguration default, which the rendering
 * cannot know (RKE2's CIS profile defaults to restricted), so a rendered one must carry it.
 */
type Obj = Record<string, any>;

/** The baseline checks a pod spec fails, by name. */
export function baselineViolations(pod: Obj): string[] {
  const containers: Obj[] = [...(pod.initContainers ?? []), ...(pod.containers ?? [])];
  return [
    ...(['hostNetwork', 'hostPID', 'hostIPC'] as const).filter((k) => pod[k] === true),
    ...((pod.volumes ?? []) as Obj[]).filter((v) => v.hostPath).map((v) => `hostPath volume ${v.name}`),
    ...(pod.securityContext?.windowsOptions?.hostProcess ? ['windows hostProcess'] : []),
    ...containers.flatMap((c) => [
      ...(c.securityContext?.privileged ? [`privileged container ${c.name}`] : []),
      ...((c.ports ?? []) as Obj[]).filter((p) => p.hostPort).map((p) => `hostPort ${p.hostPort}`),
    ]),
  ];
}

/**
 * The admission problems of the rendered workloads: a rendered namespace without an enforce
 * level, or a pod breaking baseline in a namespace that does not enforce `privileged`.
 * Workloads in a namespace the rendering does not contain (kube-system) are not judged.
 */
export function podSecurityProblems(objects: readonly Obj[]): string[] {
  const namespaces = new Map(
    objects.filter((o) => o.kind === 'Namespace').map((o) => [o.metadata.name as string, (o.metadata.labels ?? {}) as Record<string, string>]),
  );
  const out: string[] = [];
  for (const [name, labels] of namespaces) {
    if (!labels['pod-security.kubernetes.io/enforce']) {
      out.push(`Namespace ${name} has no pod-security.kubernetes.io/enforce label: the cluster default decides`);
    }
  }
  for (const w of objects.filter((o) => o.kind === 'Deployment' || o.kind === 'DaemonSet')) {
    const labels = namespaces.get(w.metadata.namespace);
    const violations = baselineViolations(w.spec.template.spec);
    if (labels && violations.length > 0 && labels['pod-security.kubernetes.io/enforce'] !== 'privileged') {
      out.push(
        `${w.kind} ${w.metadata.namespace}/${w.metadata.name} (${violations.join(', ')}) is refused by enforce=${labels['pod-security.kubernetes.io/enforce'] ?? '(cluster default)'}`,
      );
    }
  }
  return out;
}
