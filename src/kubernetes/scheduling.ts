/**
 * Scheduling presets of the upstream CCMs (as their charts and manifests set them):
 * node affinity over both control-plane labels (`Exists`, so RKE2's and
 * k3s's `"true"` values match as well as kubeadm's `""`), and the
 * tolerations that break the bootstrap deadlock (the CNI waits for the node
 * addresses the CCM sets, so the CCM must run on uninitialized, not-ready
 * nodes). Pure: no cdk8s import.
 */
import { SchedulingPreset } from '../cluster-spec/sections/kubernetes';

/** A pod toleration. */
export interface Toleration {
  readonly key?: string;
  readonly operator: 'Exists' | 'Equal';
  readonly value?: string;
  readonly effect?: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
  readonly tolerationSeconds?: number;
}

/** A required node-affinity term list (terms are ORed, expressions in a term ANDed). */
export interface NodeAffinity {
  readonly requiredDuringSchedulingIgnoredDuringExecution: {
    readonly nodeSelectorTerms: readonly {
      readonly matchExpressions: readonly { readonly key: string; readonly operator: string; readonly values?: readonly string[] }[];
    }[];
  };
}

/** Tolerations and node affinity of a preset. */
export interface SchedulingPlan {
  readonly tolerations: readonly Toleration[];
  /** Required node affinity, undefined when a nodeSelector replaces it. */
  readonly nodeAffinity?: NodeAffinity;
  /** Node selector, when the spec gives one. */
  readonly nodeSelector?: Readonly<Record<string, string>>;
}

export const CONTROL_PLANE_LABEL = 'node-role.kubernetes.io/control-plane';
export const MASTER_LABEL = 'node-role.kubernetes.io/master';

/** Tolerations every preset has: the CCM must run before the nodes are initialized and before the CNI is ready. */
export const BOOTSTRAP_TOLERATIONS: readonly Toleration[] = [
  { key: 'node.cloudprovider.kubernetes.io/uninitialized', operator: 'Equal', value: 'true', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'CriticalAddonsOnly', operator: 'Exists' },
];

const CONTROL_PLANE_TAINTS: readonly Toleration[] = [
  { key: CONTROL_PLANE_LABEL, operator: 'Exists', effect: 'NoSchedule' },
  { key: MASTER_LABEL, operator: 'Exists', effect: 'NoSchedule' },
];

const PRESET_TOLERATIONS: Readonly<Record<SchedulingPreset, readonly Toleration[]>> = {
  kubeadm: [...BOOTSTRAP_TOLERATIONS, ...CONTROL_PLANE_TAINTS],
  // RKE2 taints etcd-only nodes NoExecute and control-plane-only nodes NoSchedule; its label values are "true"
  rke2: [...BOOTSTRAP_TOLERATIONS, ...CONTROL_PLANE_TAINTS, { key: 'node-role.kubernetes.io/etcd', operator: 'Exists', effect: 'NoExecute' }],
  // k3s servers are untainted unless started with --node-taint (CriticalAddonsOnly=true:NoExecute is the documented one)
  k3s: [...BOOTSTRAP_TOLERATIONS, ...CONTROL_PLANE_TAINTS],
  openshift: [
    ...BOOTSTRAP_TOLERATIONS,
    { key: MASTER_LABEL, operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 120 },
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 120 },
  ],
  'all-taints': [{ operator: 'Exists' }],
};

/** Affinity to control-plane nodes, whatever the value of either label. */
export function controlPlaneAffinity(): NodeAffinity {
  return {
    requiredDuringSchedulingIgnoredDuringExecution: {
      nodeSelectorTerms: [
        { matchExpressions: [{ key: CONTROL_PLANE_LABEL, operator: 'Exists' }] },
        { matchExpressions: [{ key: MASTER_LABEL, operator: 'Exists' }] },
      ],
    },
  };
}

/**
 * The preset's tolerations plus the spec's extra ones (duplicates dropped), and its placement: the
 * spec's nodeSelector, else the control-plane affinity unless `anyNode` (an upstream manifest that
 * places its pods nowhere in particular).
 */
export function schedulingPlan(
  preset: SchedulingPreset,
  extraTolerations: readonly Toleration[],
  nodeSelector?: Readonly<Record<string, string>>,
  anyNode = false,
): SchedulingPlan {
  const tolerations: Toleration[] = [];
  const seen = new Set<string>();
  for (const t of [...PRESET_TOLERATIONS[preset], ...extraTolerations]) {
    const key = JSON.stringify([t.key, t.operator, t.value, t.effect, t.tolerationSeconds]);
    if (!seen.has(key)) {
      seen.add(key);
      tolerations.push(t);
    }
  }
  if (nodeSelector && Object.keys(nodeSelector).length > 0) {
    return { tolerations, nodeSelector: { ...nodeSelector } };
  }
  return anyNode ? { tolerations } : { tolerations, nodeAffinity: controlPlaneAffinity() };
}

/** Whether a plan keeps the pods on control-plane nodes: the preset's affinity, or a nodeSelector on a control-plane label. */
export function confinedToControlPlane(plan: SchedulingPlan): boolean {
  return plan.nodeAffinity !== undefined || Object.keys(plan.nodeSelector ?? {}).some((k) => k === CONTROL_PLANE_LABEL || k === MASTER_LABEL);
}
