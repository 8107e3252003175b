/**
 * The taints a control-plane node carries while the CCM must start on it, per cluster form,
 * and Kubernetes' toleration matching (k8s.io/api core/v1 toleration.go ToleratesTaint).
 */
type Obj = Record<string, any>;

export interface Taint {
  readonly key: string;
  readonly value?: string;
  readonly effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
  readonly source: string;
}

/**
 * kubeadm (and Cluster API's kubeadm control plane): the control-plane taint, the external cloud
 * provider's taint until the CCM initializes the node, and not-ready until the CNI runs.
 */
export const KUBEADM_BOOTSTRAP_TAINTS: readonly Taint[] = [
  {
    key: 'node-role.kubernetes.io/control-plane',
    effect: 'NoSchedule',
    source: 'kubernetes/kubernetes@00886ac01fec cmd/kubeadm/app/constants/constants.go (ControlPlaneTaint)',
  },
  {
    key: 'node.cloudprovider.kubernetes.io/uninitialized',
    value: 'true',
    effect: 'NoSchedule',
    source:
      'kubernetes/cloud-provider@v0.33.3 api/well_known_taints.go (TaintExternalCloudProvider; the kubelet sets it with --cloud-provider=external)',
  },
  {
    key: 'node.kubernetes.io/not-ready',
    effect: 'NoSchedule',
    source: 'kubernetes/kubernetes pkg/controller/nodelifecycle (TaintNodesByCondition: NotReady until the CNI is up)',
  },
];

/** Whether a toleration tolerates a taint (core/v1 ToleratesTaint). */
export function tolerates(t: Obj, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) {
    return false;
  }
  if (!t.key) {
    return t.operator === 'Exists';
  }
  if (t.key !== taint.key) {
    return false;
  }
  return t.operator === 'Exists' || ((t.operator ?? 'Equal') === 'Equal' && (t.value ?? '') === (taint.value ?? ''));
}

/** The taints of `taints` no toleration of the pod tolerates. */
export function untoleratedTaints(pod: Obj, taints: readonly Taint[]): string[] {
  return taints
    .filter((taint) => !((pod.tolerations ?? []) as Obj[]).some((t) => tolerates(t, taint)))
    .map((taint) => `${taint.key}${taint.value ? `=${taint.value}` : ''}:${taint.effect} (${taint.source})`);
}

/** Where an upstream manifest places its CCM pods, read at the pinned tag. */
export interface UpstreamPlacement {
  readonly replicas: number;
  readonly priorityClassName: string;
  readonly tolerations: readonly Obj[];
  /** Whether it sets a nodeSelector or node affinity (false: any node its tolerations admit). */
  readonly nodeConstraint: boolean;
  readonly source: string;
}

/** The DigitalOcean release manifest's Deployment (tolerations copied as written: no operator means Equal). */
export const DIGITALOCEAN_UPSTREAM_PLACEMENT: UpstreamPlacement = {
  replicas: 1,
  priorityClassName: 'system-cluster-critical',
  tolerations: [
    { key: 'node.cloudprovider.kubernetes.io/uninitialized', value: 'true', effect: 'NoSchedule' },
    { key: 'CriticalAddonsOnly', operator: 'Exists' },
    { key: 'node-role.kubernetes.io/master', effect: 'NoSchedule' },
    { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' },
  ],
  nodeConstraint: false,
  source: 'digitalocean/digitalocean-cloud-controller-manager@v0.1.68 releases/digitalocean-cloud-controller-manager/v0.1.68.yml',
};

/** The taints a toleration admits, as the taints a node could carry (no effect: every effect). */
function taintsOf(t: Obj, source: string): Taint[] {
  const effects: Taint['effect'][] = t.effect ? [t.effect] : ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
  return effects.map((effect) => ({ key: t.key ?? '', ...(t.value !== undefined ? { value: t.value } : {}), effect, source }));
}

/**
 * Where a rendered Deployment's placement differs from the upstream manifest's: replicas, PriorityClass,
 * a node constraint upstream lacks (or the reverse), and each upstream-tolerated taint the pod does not
 * tolerate. Extra tolerations are not reported (`extraTolerations` lists them).
 */
export function placementProblems(workload: Obj, upstream: UpstreamPlacement): string[] {
  const pod = workload.spec.template.spec;
  const out: string[] = [];
  if (workload.spec.replicas !== upstream.replicas) {
    out.push(`replicas ${workload.spec.replicas}, upstream ${upstream.replicas}`);
  }
  if (pod.priorityClassName !== upstream.priorityClassName) {
    out.push(`priorityClassName ${pod.priorityClassName}, upstream ${upstream.priorityClassName}`);
  }
  const constrained = pod.nodeSelector !== undefined || pod.affinity?.nodeAffinity !== undefined;
  if (constrained !== upstream.nodeConstraint) {
    out.push(
      constrained
        ? `node constraint ${JSON.stringify(pod.nodeSelector ?? pod.affinity.nodeAffinity)}, upstream none`
        : 'no node constraint, upstream has one',
    );
  }
  const wanted = upstream.tolerations.flatMap((t) =>
    taintsOf({ operator: 'Equal', ...t }, upstream.source).filter((taint) => tolerates({ operator: 'Equal', ...t }, taint)),
  );
  out.push(...untoleratedTaints(pod, wanted).map((t) => `does not tolerate ${t}`));
  return out;
}

/** The rendered tolerations that admit a taint none of the upstream ones admits. */
export function extraTolerations(workload: Obj, upstream: UpstreamPlacement): Obj[] {
  return ((workload.spec.template.spec.tolerations ?? []) as Obj[]).filter(
    (t) => t.key !== undefined && !taintsOf(t, '').every((taint) => upstream.tolerations.some((u) => tolerates({ operator: 'Equal', ...u }, taint))),
  );
}

/**
 * The control-plane nodes a cluster form has at least: one with controlPlaneTopology SingleReplica;
 * three for a highly available control plane (stacked etcd needs a quorum).
 */
export const CONTROL_PLANE_NODES: Readonly<Record<'SingleReplica' | 'HighlyAvailable', { readonly nodes: number; readonly source: string }>> = {
  SingleReplica: { nodes: 1, source: 'controlPlaneTopology SingleReplica (one control-plane node)' },
  HighlyAvailable: {
    nodes: 3,
    source:
      'kubernetes/website content/en/docs/setup/production-environment/tools/kubeadm/ha-topology.md (a minimum of three stacked control plane nodes)',
  },
};

const CONTROL_PLANE_LABELS = ['node-role.kubernetes.io/control-plane', 'node-role.kubernetes.io/master'];

/** Whether the pod may only run on control-plane nodes: every required node-affinity term, or its nodeSelector, asks for a control-plane label. */
function controlPlaneOnly(pod: Obj): boolean {
  if (pod.nodeSelector && Object.keys(pod.nodeSelector).some((k) => CONTROL_PLANE_LABELS.includes(k))) {
    return true;
  }
  const terms = (pod.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? []) as Obj[];
  return (
    terms.length > 0 &&
    terms.every((t) =>
      ((t.matchExpressions ?? []) as Obj[]).some((e) => CONTROL_PLANE_LABELS.includes(e.key) && ['Exists', 'In'].includes(e.operator)),
    )
  );
}

/**
 * Why at most one of the workload's pods fits a node, as the scheduler sees it: required hostname
 * anti-affinity against its own labels (InterPodAffinity), or a container port on the host network
 * (a host-network pod's container ports are host ports: NodePorts); undefined when several fit.
 */
function onePerNode(pod: Obj, podLabels: Readonly<Record<string, string>>): string | undefined {
  const anti = ((pod.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []) as Obj[]).find(
    (t) =>
      t.topologyKey === 'kubernetes.io/hostname' &&
      Object.entries((t.labelSelector?.matchLabels ?? {}) as Record<string, string>).every(([k, v]) => podLabels[k] === v),
  );
  if (anti) {
    return 'required hostname anti-affinity against its own pods';
  }
  const port = pod.hostNetwork ? ((pod.containers ?? []) as Obj[]).flatMap((c) => (c.ports ?? []) as Obj[])[0] : undefined;
  return port ? `host-network port ${port.containerPort}` : undefined;
}

/**
 * The replicas of a Deployment confined to control-plane nodes that cannot be scheduled on
 * `controlPlaneNodes` of them (one pod per node), as a message; empty when all fit or the pods
 * may run on other nodes (their count is unknown).
 */
export function pendingReplicas(workload: Obj, controlPlaneNodes: { readonly nodes: number; readonly source: string }): string[] {
  if (workload.kind !== 'Deployment') {
    return [];
  }
  const template = workload.spec.template;
  const replicas = workload.spec.replicas ?? 1;
  const why = onePerNode(template.spec, template.metadata?.labels ?? {});
  if (!why || !controlPlaneOnly(template.spec) || replicas <= controlPlaneNodes.nodes) {
    return [];
  }
  return [
    `${workload.metadata.name}: ${replicas - controlPlaneNodes.nodes} of ${replicas} replicas stay Pending: one pod per node (${why}) on ${controlPlaneNodes.nodes} control-plane node(s) (${controlPlaneNodes.source})`,
  ];
}
