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
  { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule', source: 'kubernetes/kubernetes@00886ac01fec cmd/kubeadm/app/constants/constants.go (ControlPlaneTaint)' },
  { key: 'node.cloudprovider.kubernetes.io/uninitialized', value: 'true', effect: 'NoSchedule', source: 'kubernetes/cloud-provider@v0.33.3 api/well_known_taints.go (TaintExternalCloudProvider; the kubelet sets it with --cloud-provider=external)' },
  { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule', source: 'kubernetes/kubernetes pkg/controller/nodelifecycle (TaintNodesByCondition: NotReady until the CNI is up)' },
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
  return taints.filter((taint) => !((pod.tolerations ?? []) as Obj[]).some((t) => tolerates(t, taint)))
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
    out.push(constrained ? `node constraint ${JSON.stringify(pod.nodeSelector ?? pod.affinity.nodeAffinity)}, upstream none` : 'no node constraint, upstream has one');
  }
  const wanted = upstream.tolerations.flatMap((t) => taintsOf({ operator: 'Equal', ...t }, upstream.source).filter((taint) => tolerates({ operator: 'Equal', ...t }, taint)));
  out.push(...untoleratedTaints(pod, wanted).map((t) => `does not tolerate ${t}`));
  return out;
}

/** The rendered tolerations that admit a taint none of the upstream ones admits. */
export function extraTolerations(workload: Obj, upstream: UpstreamPlacement): Obj[] {
  return ((workload.spec.template.spec.tolerations ?? []) as Obj[]).filter((t) => t.key !== undefined
    && !taintsOf(t, '').every((taint) => upstream.tolerations.some((u) => tolerates({ operator: 'Equal', ...u }, taint))));
}
