/**
 * How OpenShift's control plane changes during the migration: the operators
 * run kube-controller-manager, kube-apiserver and the kubelets, so ccm-gitops
 * renders a MachineConfig that writes the kube-controller-manager's
 * leader-migration file on the control-plane hosts and, on releases where the
 * platform is not external by default, the FeatureGate that makes the
 * operators switch; leader migration itself is turned on and off with the
 * KubeControllerManager's `unsupportedConfigOverrides` (steps with `oc patch`).
 * The migration's protocol (src/migration/) calls this through
 * `MigrationControlPlane`.
 */
import { ControlPlanePlan, ControlPlaneSteps, MigrationControlPlane } from '../../migration/control-plane';
import { LEADER_MIGRATION_GATE, MigrationInput } from '../../migration/flags';
import { externalIn, MigrationSupport } from '../../migration/phases';
import { kcmPodsProbe, kcmProcess, mergeStep, PlanCheck, PlanStep, ProcessConfig, StepTiming } from '../../migration/steps';
import { MigrationCheckInput, MigrationControlPlaneChecks, MigrationProblem } from '../../migration/validate';
import { compareMinor, openshiftRelease } from '../release';
import { OPERANDS_PER_RELEASE, OPERANDS_RENDERED_SINCE } from '../release-operands';
import { PlatformType } from '../../cluster-spec/schema';
import { customNoUpgradeNote, customNoUpgradeSelection, CustomNoUpgradeSelection, defaultFeatureSetMinors } from './default-feature-gates';

/**
 * Where the MachineConfig writes the KCM's file on control-plane hosts, and
 * where the KCM pod sees it. The operator mounts the host's
 * `…/kube-controller-manager-certs` at `/etc/kubernetes/static-pod-certs`.
 */
export const OPENSHIFT_KCM_HOST_PATH = '/etc/kubernetes/static-pod-resources/kube-controller-manager-certs/leader-migration/config.yaml';
export const OPENSHIFT_KCM_POD_PATH = '/etc/kubernetes/static-pod-certs/leader-migration/config.yaml';
/** Name of that MachineConfig. */
export const OPENSHIFT_LEADER_MIGRATION_MACHINE_CONFIG = '99-master-kcm-leader-migration';

/** OpenShift specifics of the plan. */
export interface OpenShiftPlanInput {
  /** Gates the rendered FeatureGate enables (external phases, platforms not external by default). */
  readonly featureGates: readonly string[];
  /** The feature set of that FeatureGate. */
  readonly featureSet: string;
  /** What the FeatureGate changes against the release's Default set (CustomNoUpgrade), for MIGRATION.md. */
  readonly featureGateNote?: string;
  /** The MachineConfig writing the KCM-side file, with the host path and the path the KCM pod sees. */
  readonly machineConfig?: { readonly name: string; readonly hostPath: string; readonly podPath: string };
}

/** The leader-migration keys ccm-gitops adds to the OpenShift KubeControllerManager's `unsupportedConfigOverrides.extendedArguments`. */
export const OPENSHIFT_OVERRIDE_KEYS = ['enable-leader-migration', 'leader-migration-config'] as const;

/** The `oc patch` adding the override (a JSON merge patch: other extendedArguments stay). */
export function openshiftOverrideAdd(podPath: string): string {
  const p = {
    spec: { unsupportedConfigOverrides: { extendedArguments: { 'enable-leader-migration': ['true'], 'leader-migration-config': [podPath] } } },
  };
  return `oc patch kubecontrollermanager cluster --type=merge -p '${JSON.stringify(p)}'`;
}

/**
 * The `oc patch` removing only our keys. A JSON merge patch with `null`
 * deletes exactly those keys, keeps every other override and succeeds when
 * they are already gone (a JSON-patch `remove` of a missing path fails, and
 * removing `/spec/unsupportedConfigOverrides/extendedArguments` would drop
 * unrelated overrides). It leaves `{"extendedArguments":{}}` when ours were
 * the only keys, and any non-empty field keeps the operator Upgradeable=False
 * (openshift/library-go@8e315aff44b9 pkg/operator/unsupportedconfigoverridescontroller/unsupportedconfigoverrides_controller.go
 * `sync`: `len(operatorSpec.UnsupportedConfigOverrides.Raw) > 0`), so a JSON
 * patch then removes the field behind a `test` of exactly that value.
 */
export function openshiftOverrideRemove(): string {
  const p = { spec: { unsupportedConfigOverrides: { extendedArguments: Object.fromEntries(OPENSHIFT_OVERRIDE_KEYS.map((k) => [k, null])) } } };
  const emptied = [
    { op: 'test', path: '/spec/unsupportedConfigOverrides', value: { extendedArguments: {} } },
    { op: 'remove', path: '/spec/unsupportedConfigOverrides' },
  ];
  return (
    `oc patch kubecontrollermanager cluster --type=merge -p '${JSON.stringify(p)}' && ` +
    `{ oc patch kubecontrollermanager cluster --type=json -p '${JSON.stringify(emptied)}' 2>/dev/null || echo "unsupportedConfigOverrides keeps other overrides"; }`
  );
}

/** Every KCM revision rolled out: all nodes at the latest available revision. */
const OPENSHIFT_KCM_REVISIONS: PlanCheck = {
  check:
    "every kube-controller-manager runs the latest revision: each node's currentRevision equals latestAvailableRevision (the revision made after the change)",
  command:
    'oc get kubecontrollermanager cluster -o jsonpath=\'{.status.latestAvailableRevision}{" :"}{range .status.nodeStatuses[*]}{" "}{.currentRevision}{end}{"\\n"}\'',
  probes: [{ kind: 'kcm-revisions' }],
};

/**
 * The newest KCM revision runs the external provider: its revisioned `config-<N>` ConfigMap (copied from
 * `config`, openshift/cluster-kube-controller-manager-operator@release-4.14 pkg/operator/starter.go
 * `deploymentConfigMaps`) has `extendedArguments.cloud-provider: [external]` in `config.yaml`
 * (…@release-4.14 pkg/operator/targetconfigcontroller/targetconfigcontroller.go `isConfiguredToOwnCloudController`),
 * written as compact JSON (vendored library-go pkg/operator/resource/resourcemerge/generic_config_merger.go
 * `MergePrunedProcessConfig`).
 * Waiting for the rollout instead hands the migration lease to a KCM that runs nothing: an external KCM with
 * leader migration retries it every 3 s (…@release-4.14 bindata/assets/config/defaultconfig.yaml
 * `leader-elect-retry-period: "3s"`, the same at release-4.12 and release-4.13), the CCM every 26 s
 * (`LEADER_ELECTION_FLAGS`: lease 137 s, renew 107 s, retry 26 s).
 */
const OPENSHIFT_LATEST_REVISION_EXTERNAL: PlanCheck = {
  check:
    'the newest kube-controller-manager revision (latestAvailableRevision) runs --cloud-provider=external: the command prints "cloud-provider":["external"] (do not wait for the nodes to roll it out)',
  command:
    "oc -n openshift-kube-controller-manager get configmap config-$(oc get kubecontrollermanager cluster -o jsonpath='{.status.latestAvailableRevision}') -o jsonpath='{.data.config\\.yaml}' | grep -o '\"cloud-provider\":\\[\"external\"\\]'",
};

/** The kubelets' switch: the machine-config pools rolled out (after the override is gone, never before). */
const OPENSHIFT_POOLS_UPDATED: PlanCheck = {
  check: 'the master and worker pools have rolled out (every kubelet runs --cloud-provider=external)',
  command: 'oc wait machineconfigpool --all --for=condition=Updated --timeout=120m',
  probes: [{ kind: 'pools-updated' }],
};

/** The revisions, then the override's extendedArguments (printed as JSON). */
const OPENSHIFT_KCM_REVISIONS_AND_OVERRIDE =
  'oc get kubecontrollermanager cluster -o jsonpath=\'{.status.latestAvailableRevision}{" :"}{range .status.nodeStatuses[*]}{" "}{.currentRevision}{end}{"\\n"}{.spec.unsupportedConfigOverrides.extendedArguments}{"\\n"}\'';

/**
 * Every KCM at the latest revision, made from an override with (or without) our keys: the revision
 * check alone passes as well before the override changed.
 *
 * @internal
 */
export function openshiftEveryKcm(leaderMigration: boolean | undefined): PlanCheck {
  if (leaderMigration === undefined) {
    return OPENSHIFT_KCM_REVISIONS;
  }
  const keys = OPENSHIFT_OVERRIDE_KEYS.join(' and ');
  return {
    check:
      `every kube-controller-manager runs the latest revision (each node's currentRevision equals latestAvailableRevision), and spec.unsupportedConfigOverrides.extendedArguments ` +
      (leaderMigration ? `has ${keys}` : `has neither ${OPENSHIFT_OVERRIDE_KEYS.join(' nor ')}`) +
      ' (second line)',
    command: OPENSHIFT_KCM_REVISIONS_AND_OVERRIDE,
    probes: [{ kind: 'kcm-revisions' }, { kind: 'kcm-override', present: leaderMigration, keys: OPENSHIFT_OVERRIDE_KEYS }],
  };
}

/** The namespace and label of the KCM pods cluster-kube-controller-manager-operator runs. */
const OPENSHIFT_KCM_NAMESPACE = 'openshift-kube-controller-manager';
const OPENSHIFT_KCM_LABEL = 'app=kube-controller-manager';

/** The KCM pods with their arguments. */
const OPENSHIFT_KCM_PODS =
  'oc -n openshift-kube-controller-manager get pods -l app=kube-controller-manager -o jsonpath=\'{range .items[*]}{.metadata.name}{" "}{.spec.containers[0].args}{"\\n"}{end}\'';

/**
 * The gates of the FeatureGate a phase renders, or undefined when it renders none (not an external phase, or the platform is external by default on this release).
 *
 * @internal
 */
export function featureGatesOf(m: MigrationInput): readonly string[] | undefined {
  const support = m.support;
  return externalIn(m.phase) && support && m.kubernetesMinor < support.openshiftExternalSinceMinor ? support.openshiftFeatureGates : undefined;
}

/**
 * The CustomNoUpgrade lists of the FeatureGate at the release of `kubernetesMinor`: its Default set
 * plus `gates`. Throws for a release the table does not know (the spec check refuses it first).
 *
 * @internal
 */
export function customNoUpgradeAt(kubernetesMinor: number, gates: readonly string[]): CustomNoUpgradeSelection {
  const release = openshiftRelease(kubernetesMinor);
  const sel = customNoUpgradeSelection(release, gates);
  if (!sel) {
    throw new Error(unknownDefaultSetMessage(kubernetesMinor));
  }
  return sel;
}

function unknownDefaultSetMessage(kubernetesMinor: number): string {
  const known = defaultFeatureSetMinors();
  return (
    `"1.${kubernetesMinor}": the FeatureGate must keep OpenShift ${openshiftRelease(kubernetesMinor)}'s Default feature gates, which this version does not know ` +
    `(known: ${known[0]} to ${known[known.length - 1]}); set kubernetesVersion to the cluster's release`
  );
}

/**
 * Whether the platform migrates with leader migration (the MachineConfig and the override are used).
 *
 * @internal
 */
export function migrates(m: MigrationInput): boolean {
  return m.support !== undefined && !m.support.noLeaderMigration;
}

/** The OpenShift specifics of a migration's phase. */
export function openshiftPlanInput(m: MigrationInput, featureSet: string): OpenShiftPlanInput {
  const gates = featureGatesOf(m);
  return {
    featureGates: gates ?? [],
    featureSet,
    ...(gates && featureSet === 'CustomNoUpgrade' ? { featureGateNote: customNoUpgradeNote(openshiftRelease(m.kubernetesMinor), gates) } : {}),
    machineConfig: migrates(m)
      ? { name: OPENSHIFT_LEADER_MIGRATION_MACHINE_CONFIG, hostPath: OPENSHIFT_KCM_HOST_PATH, podPath: OPENSHIFT_KCM_POD_PATH }
      : undefined,
  };
}

/**
 * Deleting the MachineConfig makes the machine-config-operator remove the KCM's file and reboot each
 * control-plane node; a KCM still started with --leader-migration-config would then exit, so GitOps never
 * prunes it (Prune=false) and this step runs only after every KCM was checked to run without our keys.
 */
function removeMachineConfig(name: string): PlanStep {
  return {
    when: 'after-merge',
    by: 'you, then the machine-config-operator (one control-plane node at a time)',
    action: `delete the MachineConfig ${name}: no kube-controller-manager reads its file any more; the machine-config-operator removes the file and reboots the control-plane nodes one at a time`,
    command: `oc delete machineconfig ${name}`,
    checks: [
      {
        check: 'the master pool has rolled out without it',
        command: 'oc wait machineconfigpool/master --for=condition=Updated --timeout=60m',
        probes: [{ kind: 'pools-updated', pools: ['master'] }],
      },
    ],
  };
}

/**
 * OpenShift's side of the steps: cluster-kube-controller-manager-operator
 * rolls every KCM (checked by its revisions), leader migration through the
 * override, the external switch through the FeatureGate.
 *
 * @param os the gates and feature set of the FeatureGate and the name of the MachineConfig
 */
export function openshiftControlPlaneSteps(os: {
  readonly featureGates: readonly string[];
  readonly featureSet: string;
  readonly machineConfig?: string;
}): ControlPlaneSteps {
  const kcmRoll = (when: StepTiming, what: string, kcm: ProcessConfig): PlanStep => ({
    when,
    by: 'you, then cluster-kube-controller-manager-operator (one node at a time)',
    action: what,
    kcm,
    checks: [OPENSHIFT_KCM_REVISIONS],
  });
  const gated = os.featureGates.length > 0;
  return {
    everyKcm: (_what, leaderMigration) => openshiftEveryKcm(leaderMigration),
    kcmRoll,
    enableLeaderMigration: (c) => ({
      ...kcmRoll('after-merge', 'enable leader migration on kube-controller-manager with its own file', c.kcm),
      command: openshiftOverrideAdd(c.input.kcmConfigPath ?? ''),
    }),
    disableLeaderMigration: (c) => ({
      ...kcmRoll('before-merge', 'turn leader migration off on kube-controller-manager (only our override keys)', c.kcm),
      command: openshiftOverrideRemove(),
      checks: [openshiftEveryKcm(false)],
    }),
    switchToExternalFirst: (c) => {
      if (!gated) {
        return undefined;
      }
      const p = {
        spec: {
          featureSet: os.featureSet,
          ...(os.featureSet === 'CustomNoUpgrade' ? { customNoUpgrade: customNoUpgradeAt(c.input.kubernetesMinor, os.featureGates) } : {}),
        },
      };
      return {
        when: 'before-merge',
        by: 'you, then the operators',
        kcm: c.kcm,
        action:
          'set the FeatureGate first, so kube-controller-manager is external before the CCM starts (the rendered FeatureGate is the same object): the operators switch kube-controller-manager, kube-apiserver and the kubelets',
        command: `oc patch featuregate cluster --type=merge -p '${JSON.stringify(p)}'`,
        checks: [
          OPENSHIFT_KCM_REVISIONS,
          {
            check: 'kube-controller-manager runs --cloud-provider=external',
            command: OPENSHIFT_KCM_PODS,
            probes: [kcmPodsProbe(OPENSHIFT_KCM_NAMESPACE, OPENSHIFT_KCM_LABEL, { flags: ['--cloud-provider=external'] })],
          },
        ],
      };
    },
    switchToExternal: (c) =>
      gated
        ? [
            mergeStep(
              `apply the FeatureGate (${os.featureSet}: ${os.featureSet === 'CustomNoUpgrade' ? `OpenShift ${openshiftRelease(c.input.kubernetesMinor)}'s Default gates plus ` : ''}${os.featureGates.join(', ')}); ` +
                'cluster-kube-controller-manager-operator makes a revision with --cloud-provider=external and starts rolling it; the override still enables leader migration, ' +
                'so a KCM restarted into that revision would take the migration lease and run nothing: go on to the next step as soon as the revision exists, ' +
                'without waiting for the rollout or the machine-config pools',
              [OPENSHIFT_LATEST_REVISION_EXTERNAL],
              {
                kcm: {
                  flags: [...c.kcm.flags, '--enable-leader-migration', `--leader-migration-config=${c.input.kcmConfigPath ?? ''}`],
                  file: kcmProcess(c.input, c.from).file!,
                },
              },
            ),
            {
              ...kcmRoll(
                'after-merge',
                'turn leader migration off on kube-controller-manager (only our override keys) right away; cluster-kube-controller-manager-operator rolls every node straight to the newest revision, ' +
                  'so no KCM holds the migration lease for the machine-config rollout; the MachineConfig stays until phase "external"',
                c.kcm,
              ),
              command: openshiftOverrideRemove(),
              checks: [openshiftEveryKcm(false), OPENSHIFT_POOLS_UPDATED],
            },
          ]
        : undefined,
    kcmFile: {
      name: `the MachineConfig ${os.machineConfig}`,
      apply: `the MachineConfig ${os.machineConfig} writing the KCM's file (the machine-config-operator reboots the control-plane nodes one at a time; the KCMs do not read it yet)`,
      applied: {
        check: 'the master pool has rolled out the MachineConfig',
        command: 'oc wait machineconfigpool/master --for=condition=Updated --timeout=60m',
        probes: [{ kind: 'pools-updated', pools: ['master'] }],
      },
      leaveGit: `stop rendering the MachineConfig ${os.machineConfig} (it is never pruned: it stays on the hosts until the next step)`,
      ...(os.machineConfig ? { remove: removeMachineConfig(os.machineConfig) } : {}),
    },
  };
}

/** OpenShift's side of the plan of a migration's phase. */
export function openshiftControlPlanePlan(m: MigrationInput, os: OpenShiftPlanInput): ControlPlanePlan {
  return {
    ...openshiftControlPlaneSteps({
      featureGates: os.featureGates,
      featureSet: os.featureSet,
      ...(os.machineConfig ? { machineConfig: os.machineConfig.name } : {}),
    }),
    appliedBy: {
      kcm: 'cluster-kube-controller-manager-operator: the in-tree / external switch from the FeatureGate; leader migration from the unsupportedConfigOverrides (steps below) reading the file the MachineConfig writes',
      kubelet: 'machine-config-operator (rolling, node by node)',
      apiServer: 'cluster-kube-apiserver-operator',
    },
    release: openshiftRelease(m.kubernetesMinor),
    oneWayToExternal: os.featureGates.length > 0,
    ...(os.featureGateNote ? { notes: [{ title: 'The FeatureGate', text: os.featureGateNote }] } : {}),
  };
}

/**
 * `leader-migration-kcm` where every later phase is refused (the CCM phases of a platform whose operands this
 * release renders otherwise, see `operandReleaseProblems`): the cluster could go neither forward nor through the
 * update the refusal recommends, since the override keeps the kube-controller-manager operator Upgradeable=False
 * (openshift/library-go@8e315aff44b9 pkg/operator/unsupportedconfigoverridescontroller/unsupportedconfigoverrides_controller.go).
 */
function deadEndProblems(input: MigrationCheckInput, support: MigrationSupport): MigrationProblem[] {
  const release = openshiftRelease(input.kubernetesMinor);
  const external = openshiftRelease(support.openshiftExternalSinceMinor);
  if (
    input.phase !== 'leader-migration-kcm' ||
    support.noLeaderMigration !== undefined ||
    input.managementMode !== 'gitops' ||
    OPERANDS_PER_RELEASE.includes(input.platform as PlatformType) ||
    input.kubernetesMinor >= support.openshiftExternalSinceMinor ||
    compareMinor(release, OPERANDS_RENDERED_SINCE) >= 0
  ) {
    return [];
  }
  return [
    {
      path: ['spec', 'migration', 'phase'],
      message:
        `"leader-migration-kcm" leads nowhere on OpenShift ${release}: every later phase deploys the cloud controller manager, which is refused on this release ` +
        `(its operator renders other ${input.platform} operands than ccm-gitops renders), and the leader-migration override keeps the kube-controller-manager operator Upgradeable=False, ` +
        `which blocks the update to OpenShift ${external} that moves ${input.platform} to its CCM; set phase to "in-tree" (or remove spec.migration) and update the cluster to ${external}`,
    },
  ];
}

/**
 * Phase `external` on a release whose operators already run the CCM (AWS from 4.14,
 * openshift/library-go@840298df1eee (release-4.14) pkg/cloudprovider/external.go; GCP from 4.15 by the Default
 * FeatureGate): no FeatureGate or override was ever set, so the way back and MIGRATION.md steps have nothing to act on.
 */
function alreadyExternalProblems(input: MigrationCheckInput, support: MigrationSupport): MigrationProblem[] {
  if (input.phase !== 'external' || input.kubernetesMinor < support.openshiftExternalSinceMinor) {
    return [];
  }
  return [
    {
      path: ['spec', 'migration', 'phase'],
      message:
        `"external": OpenShift ${openshiftRelease(input.kubernetesMinor)} runs the external CCM on ${input.platform} by default (since ${openshiftRelease(support.openshiftExternalSinceMinor)}): ` +
        "the release's operators have already moved the cluster to it, so there is no migration, and a migration's way back and MIGRATION.md steps do not apply; remove spec.migration",
    },
  ];
}

/** OpenShift's own checks of a requested migration. */
export const OPENSHIFT_MIGRATION_CHECKS: MigrationControlPlaneChecks = {
  alreadyExternal: (input, support) =>
    input.kubernetesMinor >= support.openshiftExternalSinceMinor
      ? `"1.${input.kubernetesMinor}": OpenShift ${openshiftRelease(input.kubernetesMinor)} runs the external CCM on ${input.platform} by default (since ${openshiftRelease(support.openshiftExternalSinceMinor)}), ` +
        `so the operators have already migrated it and phase "${input.phase}" cannot be rendered; remove spec.migration`
      : undefined,
  leaderMigrationBlocked: (input) =>
    input.kubernetesMinor < 22
      ? `"1.${input.kubernetesMinor}": on OpenShift ${openshiftRelease(input.kubernetesMinor)} kube-controller-manager needs the alpha feature gate ${LEADER_MIGRATION_GATE}, which the KubeControllerManager override cannot set; upgrade to OpenShift 4.9 (1.22) before phase "${input.phase}"`
      : undefined,
  releaseProblems: (input, support) => [
    ...alreadyExternalProblems(input, support),
    ...(externalIn(input.phase) &&
    input.kubernetesMinor < support.openshiftExternalSinceMinor &&
    customNoUpgradeSelection(openshiftRelease(input.kubernetesMinor), support.openshiftFeatureGates) === undefined
      ? [{ path: ['spec', 'migration', 'kubernetesVersion'], message: unknownDefaultSetMessage(input.kubernetesMinor) }]
      : []),
    ...deadEndProblems(input, support),
  ],
  nodeIpamFixed:
    'is true but on OpenShift the network plugin allocates node CIDRs, not a controller manager; node IPAM does not move, set it to false',
};

/**
 * What the loader needs of OpenShift's control plane in the migration (where
 * the kube-controller-manager reads its file, OpenShift's own checks),
 * without the objects it renders: those are in
 * `openshiftMigrationControlPlane` (`migration-control-plane-objects.ts`),
 * which loads cdk8s.
 */
export const OPENSHIFT_MIGRATION_CONTROL_PLANE_FACTS: Pick<MigrationControlPlane, 'kcmConfigPath' | 'checks'> = {
  kcmConfigPath: OPENSHIFT_KCM_POD_PATH,
  checks: OPENSHIFT_MIGRATION_CHECKS,
};
