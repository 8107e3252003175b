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
import { kcmPodsProbe, PlanCheck, PlanStep, ProcessConfig, StepTiming } from '../../migration/steps';
import { MigrationCheckInput, MigrationControlPlaneChecks, MigrationProblem } from '../../migration/validate';
import { PlatformType } from '../../cluster-spec/schema';
import { upstreamProviderFor } from '../providers';
import { controllerEnabled } from '../../migration/controller-flags';
import { MigrationInput } from '../../migration/flags';

const M = ['spec', 'migration'];

/** The kube-controller-manager static pods with their command lines (kubeadm labels them component=kube-controller-manager). */
const KUBERNETES_KCM_PODS =
  'kubectl -n kube-system get pods -l component=kube-controller-manager -o jsonpath=\'{range .items[*]}{.metadata.name}{" "}{.spec.containers[0].command}{"\\n"}{end}\'';

/** Where kubeadm's kube-controller-manager static pods run, and their label. */
const KUBERNETES_KCM_NAMESPACE = 'kube-system';
const KUBERNETES_KCM_LABEL = 'component=kube-controller-manager';

function everyKcm(what: string, _leaderMigration?: boolean, kcm?: ProcessConfig): PlanCheck {
  return {
    check: `every kube-controller-manager pod (one per control-plane node) has restarted and ${what}`,
    command: KUBERNETES_KCM_PODS,
    ...(kcm ? { probes: [kcmPodsProbe(KUBERNETES_KCM_NAMESPACE, KUBERNETES_KCM_LABEL, kcm)] } : {}),
  };
}

function kcmRoll(when: StepTiming, what: string, kcm: ProcessConfig): PlanStep {
  // the check names what to see in each pod's command line, not the action again
  const runs = `runs ${kcm.flags.join(' ')}${kcm.file ? ' (and reads its leader-migration file)' : ''}`;
  return {
    when,
    by: 'you, one control-plane node at a time (kubeadm, Cluster API or the static pod; see CONTROL-PLANE.md)',
    action: `${what}; restart the kube-controller-manager of one node, wait until it is Ready, then the next`,
    kcm,
    checks: [everyKcm(runs, undefined, kcm)],
  };
}

/**
 * The in-tree providers whose cloud has no routes: kube-controller-manager programmed none, so none are handed over
 * (kubernetes/legacy-cloud-providers@v0.29.0 vsphere/vsphere.go `Routes` returns false).
 */
const IN_TREE_WITHOUT_ROUTES: readonly string[] = ['vsphere'];

/** The check that what each kube-controller-manager allocates or routes in-tree has a taker once the CCM leads. */
function handoverCheck(input: MigrationInput, ccm: { readonly routes: boolean }): PlanCheck {
  return {
    check:
      'no kube-controller-manager pod allocates node CIDRs or programs cloud routes in-tree that the CCM would not take over (--allocate-node-cidrs=true with --configure-cloud-routes, or --cidr-allocator-type=CloudAllocator)',
    command: KUBERNETES_KCM_PODS,
    probes: [
      {
        kind: 'kcm-handover',
        namespace: KUBERNETES_KCM_NAMESPACE,
        label: KUBERNETES_KCM_LABEL,
        ccmRoutes: ccm.routes,
        nodeIpam: input.nodeIpam,
        inTreeRoutes: !IN_TREE_WITHOUT_ROUTES.includes(input.support?.inTreeProvider ?? ''),
      },
    ],
  };
}

/** The Kubernetes side of the steps: every change to the control plane is made by hand, node by node. */
export const KUBERNETES_CONTROL_PLANE_STEPS: ControlPlaneSteps = {
  everyKcm,
  kcmRoll,
  handoverCheck,
  enableLeaderMigration: (c) =>
    kcmRoll('after-merge', 'enable leader migration on kube-controller-manager with its own file (component kube-controller-manager)', c.kcm),
  disableLeaderMigration: (c) => kcmRoll('before-merge', 'turn leader migration off on kube-controller-manager', c.kcm),
  // without leader migration the cloud controllers run nowhere from the first KCM switch until the CCM is up:
  // keep that gap to the KCM roll, and switch the kubelets (node by node, much longer) after the CCM runs
  switchToExternalFirst: (c) =>
    kcmRoll(
      'before-merge',
      "switch every kube-controller-manager to --cloud-provider=external and drop kube-apiserver's --cloud-provider (the kubelets keep the in-tree provider for now); the cloud controllers run nowhere until the CCM is up, so merge right after the last one",
      c.kcm,
    ),
  afterCcmDeployed: () => ({
    when: 'after-merge',
    by: 'you, one node at a time (kubeadm-flags.env, or new machines with Cluster API; see CONTROL-PLANE.md)',
    action: "switch each node's kubelet to --cloud-provider=external (without --cloud-config) and restart it, one node at a time",
    checks: [
      {
        check: "every node's kubelet runs --cloud-provider=external and the node keeps its providerID",
        command: 'kubectl get nodes -o custom-columns=NAME:.metadata.name,PROVIDER-ID:.spec.providerID',
        probes: [{ kind: 'nodes-initialized' }],
      },
    ],
  }),
};

/** The controllers the KCMs hand to the CCM, each with its ≥1.28 name (the binary resolves one to the other). */
const HANDED_OVER: readonly (readonly [string, string])[] = [
  ['service', 'service-lb-controller'],
  ['cloud-node-lifecycle', 'cloud-node-lifecycle-controller'],
  ['route', 'node-route-controller'],
  ['nodeipam', 'node-ipam-controller'],
];

/** The problems of CCM settings that would leave a handed-over controller or lease to nobody. */
function handoverProblems(input: MigrationCheckInput): MigrationProblem[] {
  const k = input.kubernetes;
  if (!k || !input.support) {
    return [];
  }
  const problems: MigrationProblem[] = [];
  if (k.preset === 'k3s' && input.phase !== 'external') {
    // k3s-io/k3s@00993dc README.md "What have you removed from upstream Kubernetes?": the in-tree cloud providers
    problems.push({
      path: [...M, 'phase'],
      message: `"${input.phase}" is not possible with spec.kubernetes.scheduling.preset k3s: k3s builds kube-controller-manager without the in-tree cloud providers, so its cloud controllers never ran there and nothing is handed over; set phase to "external" or remove spec.migration`,
    });
  }
  if (k.preset === 'rke2' && !k.configureCloudRoutes && !upstreamProviderFor(input.platform as PlatformType)?.routesNeed) {
    // rancher/rke2@v1.26.15+rke2r1 pkg/podexecutor/staticpod.go: the KCM always runs --allocate-node-cidrs=true, and with
    // cloud-provider-name its route controller runs (--configure-cloud-routes defaults to true); where routes need cloud
    // setup the product cannot see (routesNeed), it is not refused
    problems.push({
      path: ['spec', 'kubernetes', 'configureCloudRoutes'],
      message:
        "is false on RKE2 during a migration: RKE2's kube-controller-manager always runs --allocate-node-cidrs=true, so with cloud-provider-name it programs cloud routes, and once it goes external nobody would; set configureCloudRoutes: true (with clusterCIDR, RKE2's cluster-cidr, 10.42.0.0/16 by default) so the CCM takes the routes over",
    });
  }
  if (k.controllers) {
    // route does nothing without cloud routes; node IPAM moves only when asked
    const wanted = HANDED_OVER.filter(([name]) => (name !== 'route' || k.configureCloudRoutes) && (name !== 'nodeipam' || input.nodeIpam));
    for (const [name] of wanted.filter((names) => !controllerEnabled(k.controllers!, names))) {
      problems.push({
        path: ['spec', 'kubernetes', 'controllers'],
        message: `${JSON.stringify(k.controllers)} leaves out ${name} during a migration: the kube-controller-managers hand it to the CCM and stop running it when they go external, so nobody would; keep it in the list`,
      });
    }
  }
  if (input.nodeIpam) {
    problems.push(...(upstreamProviderFor(input.platform as PlatformType)?.nodeIpamMoveProblems?.(k.extraArgNames ?? []) ?? []));
  }
  if (k.leaderElectResourceName !== undefined && !input.support.noLeaderMigration) {
    problems.push({
      path: ['spec', 'kubernetes', 'extraArgs', 'leader-elect-resource-name'],
      message: `is set during a migration: the CCM would take its main lease under ${JSON.stringify(k.leaderElectResourceName)} instead of cloud-controller-manager, the lease the plan's checks and the migration hand-over read (a KCM or migration lease name makes it contend with the kube-controller-managers); remove it, and set it again after the migration if needed`,
    });
  }
  return problems;
}

/**
 * The Kubernetes checks of a migration: the upstream CCM's settings
 * (`spec.kubernetes`, given as `MigrationCheckInput.kubernetes`) must agree
 * with the migration.
 */
export const KUBERNETES_MIGRATION_CHECKS: MigrationControlPlaneChecks = {
  ccmProblems: (input) => {
    const problems: MigrationProblem[] = [];
    const { support, platform } = input;
    const k = input.kubernetes;
    const provider = upstreamProviderFor(platform as PlatformType);
    if (input.nodeIpam && provider && !provider.nodeIpam) {
      problems.push({
        path: [...M, 'nodeIpam'],
        message: `is true but the ${platform} CCM has no node IPAM controller (it runs the k8s.io/cloud-provider defaults: cloud-node, cloud-node-lifecycle, service, route), so after the move no one would assign pod CIDRs to new nodes; set nodeIpam to false and keep node IPAM in kube-controller-manager`,
      });
    }
    // a CCM without node IPAM may still take --allocate-node-cidrs=true (its route controller needs it): that is no second allocator
    if (
      k &&
      support &&
      !support.noLeaderMigration &&
      (provider === undefined || provider.nodeIpam !== undefined) &&
      k.allocateNodeCidrs !== input.nodeIpam
    ) {
      problems.push({
        path: [...M, 'nodeIpam'],
        message: input.nodeIpam
          ? 'is true but spec.kubernetes.allocateNodeCidrs is false: node IPAM moves to the CCM, so the CCM must allocate node CIDRs; set spec.kubernetes.allocateNodeCidrs to true (with spec.kubernetes.clusterCIDR), or nodeIpam to false if kube-controller-manager never allocated them'
          : 'is false but spec.kubernetes.allocateNodeCidrs is true: the CCM would allocate node CIDRs while kube-controller-manager keeps its own node IPAM controller (two allocators); set nodeIpam to true so IPAM moves under the migration lease and kube-controller-manager gets -nodeipam, or allocateNodeCidrs to false',
      });
    }
    if (k?.image && k.ccmVersion !== undefined && k.ccmVersion !== k.image.minor) {
      problems.push({
        path: [...M, 'ccmVersion'],
        message: `"${k.ccmVersion}" differs from the minor of the pinned CCM image (spec.images.${k.image.key} is built for Kubernetes ${k.image.minor}); the CCM's leader-migration file must be one its own minor decodes: set ccmVersion to "${k.image.minor}" or remove it (it is read from the image tag)`,
      });
    }
    if (k?.image && k.ccmVersion === undefined && support && !support.noLeaderMigration && input.ccmMinor < input.kubernetesMinor - 1) {
      problems.push({
        path: ['spec', 'images', k.image.key],
        message: `is built for Kubernetes ${k.image.minor}, more than one minor older than kube-controller-manager 1.${input.kubernetesMinor}; during a migration the CCM must be 1.${input.kubernetesMinor - 1} or 1.${input.kubernetesMinor} (version skew policy): pin an image built for one of those`,
      });
    }
    if (k && support && k.clusterNameFlag && k.clusterName === undefined) {
      problems.push({
        path: ['spec', 'kubernetes', 'clusterName'],
        message: `is not set: during a migration the CCM must run with kube-controller-manager's --cluster-name (its default is "kubernetes"; ${platform} names or tags cloud resources such as load balancers after it, so a different name orphans them): set it to the value kube-controller-manager runs with`,
      });
    }
    // the CCM's main and migration leases both live in its --leader-elect-resource-namespace (kubernetes/cloud-provider@v0.30.14
    // app/controllermanager.go leaderElectAndRun); outside leader migration it is rendered as the CCM's own namespace
    if (k && support && !support.noLeaderMigration && input.leaseNamespace !== undefined && k.namespace !== input.leaseNamespace) {
      problems.push({
        path: [...M, 'leaseNamespace'],
        message: `"${input.leaseNamespace}" differs from spec.kubernetes.namespace "${k.namespace}": the CCM elects its leader in the lease namespace while it runs leader migration and in its own namespace afterwards, and a rolling update between the two elects two CCM leaders that both run the cloud controllers; run the CCM in "${input.leaseNamespace}"`,
      });
    }
    return [...problems, ...handoverProblems(input)];
  },
  ccmWarnings: (input) => {
    const k = input.kubernetes;
    return k && input.nodeIpam && !k.configureCloudRoutes
      ? [
          {
            path: ['spec', 'kubernetes', 'configureCloudRoutes'],
            message:
              'is false while node IPAM moves from kube-controller-manager: a KCM that allocated node CIDRs also programmed cloud routes unless it ran --configure-cloud-routes=false, and after the migration nobody would; set it to true unless kube-controller-manager runs --configure-cloud-routes=false',
          },
        ]
      : [];
  },
};

/** A vanilla Kubernetes control plane in the migration: nothing rendered, every change by the administrator. */
export const KUBERNETES_MIGRATION_CONTROL_PLANE: MigrationControlPlane = {
  checks: KUBERNETES_MIGRATION_CHECKS,
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
