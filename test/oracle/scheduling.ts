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
