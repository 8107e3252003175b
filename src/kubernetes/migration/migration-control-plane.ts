/**
 * How a vanilla Kubernetes control plane changes during the migration: no
 * operator runs it, so ccm-gitops renders nothing for it; the administrator
 * changes kube-controller-manager, kube-apiserver and the kubelets (kubeadm,
 * Cluster API or the static pods, written out in CONTROL-PLANE.md and by
 * `ccm-gitops migration control-plane`), one control-plane node at a time.
 * The migration's protocol (src/migration/) calls this through
 * `MigrationControlPlane`.
 */
import { ControlPlaneSteps, MigrationControlPlane } from '../../migration/control-plane';
import { PlanCheck, PlanStep, ProcessConfig, StepTiming } from '../../migration/steps';

/** The kube-controller-manager static pods with their command lines (kubeadm labels them component=kube-controller-manager). */
const KUBERNETES_KCM_PODS = 'kubectl -n kube-system get pods -l component=kube-controller-manager -o jsonpath=\'{range .items[*]}{.metadata.name}{" "}{.spec.containers[0].command}{"\\n"}{end}\'';

function everyKcm(what: string): PlanCheck {
  return { check: `every kube-controller-manager pod (one per control-plane node) has restarted and ${what}`, command: KUBERNETES_KCM_PODS };
}

function kcmRoll(when: StepTiming, what: string, kcm: ProcessConfig): PlanStep {
  return {
    when, by: 'you, one control-plane node at a time (kubeadm, Cluster API or the static pod; see CONTROL-PLANE.md)',
    action: `${what}; restart the kube-controller-manager of one node, wait until it is Ready, then the next`, kcm, checks: [everyKcm(what)],
  };
}

/** The Kubernetes side of the steps: every change to the control plane is made by hand, node by node. */
export const KUBERNETES_CONTROL_PLANE_STEPS: ControlPlaneSteps = {
  everyKcm,
  kcmRoll,
  enableLeaderMigration: (c) => kcmRoll('after-merge', 'enable leader migration on kube-controller-manager with its own file (component kube-controller-manager)', c.kcm),
  disableLeaderMigration: (c) => kcmRoll('before-merge', 'turn leader migration off on kube-controller-manager', c.kcm),
};

/** A vanilla Kubernetes control plane in the migration: nothing rendered, every change by the administrator. */
export const KUBERNETES_MIGRATION_CONTROL_PLANE: MigrationControlPlane = {
  renderObjects: () => [],
  plan: () => ({
    ...KUBERNETES_CONTROL_PLANE_STEPS,
    appliedBy: {
      kcm: 'you: kubeadm ClusterConfiguration / KubeadmControlPlane / static pod (CONTROL-PLANE.md, `ccm-gitops migration control-plane`)',
      kubelet: 'you: kubelet flags on every node (kubeadm kubeletExtraArgs; see CONTROL-PLANE.md)',
      apiServer: 'you: kube-apiserver static pod',
    },
    oneWayToExternal: false,
  }),
};
