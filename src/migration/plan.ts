/**
 * The migration plan of one cluster: what its phase changes in each
 * component, what to check before merging, the next and rollback steps and
 * the failure scenarios that apply. Rendered as MIGRATION.md for reviewers
 * and as JSON for tools. Pure: no cdk8s import.
 */
import { ComponentFlags, kubeApiserverFlags, kubeControllerManagerFlags, kubeletFlags, MigrationInput, phaseLeaderMigrationConfig } from './flags';
import { leaderMigrationConfigYaml } from './leader-migration-config';
import { isLeaderMigrationPhase, MigrationPhase, nextPhase, openshiftRelease, previousPhase } from './phases';

/** An object the phase renders for the migration, by identity. */
export interface PlannedObject {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
}

/** How the CCM runs in this phase. */
export interface PlannedCcm {
  /** Deployment name and namespace, when the phase deploys the CCM. */
  readonly deployment?: string;
  readonly namespace: string;
  /** ServiceAccount the CCM runs as. */
  readonly serviceAccount: string;
  /** Flags added for leader migration. */
  readonly leaderMigrationFlags: readonly string[];
}

/** OpenShift specifics of the plan. */
export interface OpenShiftPlanInput {
  /** Gates the rendered FeatureGate enables (external phase, platforms not external by default). */
  readonly featureGates: readonly string[];
  /** The feature set of that FeatureGate. */
  readonly featureSet: string;
  /** The MachineConfig writing the KCM-side file, with the host path and the path the KCM pod sees. */
  readonly machineConfig?: { readonly name: string; readonly hostPath: string; readonly podPath: string };
}

/** Everything the plan is built from. */
export interface PlanInput extends MigrationInput {
  readonly cluster: string;
  readonly distribution: string;
  readonly phases: readonly MigrationPhase[];
  /** The migration-specific objects this phase renders (beyond the usual operands). */
  readonly rendered: readonly PlannedObject[];
  readonly ccm: PlannedCcm;
  readonly openshift?: OpenShiftPlanInput;
}

/** A check with the command that performs it. */
export interface PlanCheck {
  readonly check: string;
  readonly command?: string;
}

/** A component's part of the phase. */
export interface PlanComponent {
  readonly component: string;
  /** Cloud-related flags the component runs with in this phase. */
  readonly flags: readonly string[];
  /** Flags it must drop. */
  readonly remove: readonly string[];
  /** Who makes the change: `gitops` (rendered here) or what a person or another operator does. */
  readonly appliedBy: string;
}

/** The machine-readable plan (`.migration.json`). */
export interface MigrationPlan {
  readonly cluster: string;
  readonly platform: string;
  readonly distribution: string;
  readonly phase: MigrationPhase;
  readonly phases: readonly MigrationPhase[];
  readonly kubernetesVersion: string;
  readonly ccmVersion: string;
  readonly openshiftRelease?: string;
  readonly summary: string;
  readonly leaderMigration?: {
    readonly leaderName: string;
    readonly leaseNamespace: string;
    readonly apiVersion: string;
    readonly owner: string;
    readonly controllers: readonly string[];
    readonly file: string;
  };
  readonly components: readonly PlanComponent[];
  readonly rendered: readonly PlannedObject[];
  readonly manualSteps: readonly string[];
  readonly preconditions: readonly PlanCheck[];
  readonly verify: readonly PlanCheck[];
  readonly next?: { readonly phase: MigrationPhase; readonly change: string };
  readonly rollback?: { readonly phase: MigrationPhase; readonly change: string };
  readonly failureScenarios: readonly { readonly title: string; readonly mitigation: string }[];
}

const SUMMARY: Record<MigrationPhase, string> = {
  'in-tree': 'The in-tree provider in kube-controller-manager and the kubelets runs the cloud controllers. Nothing moves yet.',
  'leader-migration-kcm': 'Both controller managers run with leader migration. kube-controller-manager owns the cloud controllers under the migration lease; the CCM is deployed and waits.',
  'leader-migration-ccm': 'The migration configuration hands the cloud controllers to the CCM; kube-controller-manager stops running them and the CCM takes the migration lease.',
  external: 'The CCM runs the cloud controllers; kube-controller-manager and the kubelets run with --cloud-provider=external and leader migration is off on both sides.',
};

function ownerOf(phase: MigrationPhase, wildcard: boolean): string {
  if (wildcard) {
    return 'whichever controller manager holds the lease ("*")';
  }
  return phase === 'leader-migration-ccm' ? 'cloud-controller-manager' : 'kube-controller-manager';
}

/** What moving to a phase changes, in one line. */
function changeTo(phase: MigrationPhase, from: MigrationPhase): string {
  switch (phase) {
    case 'in-tree':
      return from === 'external'
        ? 'Set spec.migration.phase to "in-tree": kube-controller-manager and the kubelets get their in-tree --cloud-provider back and the CCM is removed.'
        : 'Set spec.migration.phase to "in-tree": leader migration is turned off on kube-controller-manager and the CCM is removed; the KCM keeps the controllers under its main lock.';
    case 'leader-migration-kcm':
      return from === 'in-tree'
        ? 'Set spec.migration.phase to "leader-migration-kcm": leader migration on both controller managers, kube-controller-manager keeps the controllers, the CCM is deployed and waits.'
        : 'Set spec.migration.phase to "leader-migration-kcm": the configuration gives the controllers back to kube-controller-manager.';
    case 'leader-migration-ccm':
      return from === 'leader-migration-kcm'
        ? 'Set spec.migration.phase to "leader-migration-ccm": the configuration on both sides hands the controllers to the CCM.'
        : 'Set spec.migration.phase to "leader-migration-ccm": kube-controller-manager and the kubelets go back to the in-tree provider with leader migration on; the CCM keeps the controllers under the migration lease.';
    case 'external':
      return 'Set spec.migration.phase to "external": kube-controller-manager and the kubelets switch to --cloud-provider=external and leader migration is turned off on both sides.';
  }
}

function flagsLine(c: ComponentFlags): string[] {
  return [...c.flags];
}

/** Builds the plan of one cluster's phase. */
export function buildMigrationPlan(input: PlanInput): MigrationPlan {
  const { phase, support } = input;
  const openshift = input.distribution === 'openshift';
  const lmc = phaseLeaderMigrationConfig(input);
  const kcm = kubeControllerManagerFlags(input);
  const kubelet = kubeletFlags(input);
  const kas = kubeApiserverFlags(input);
  const lm = isLeaderMigrationPhase(phase);
  const leaseCmd = `kubectl -n ${input.leaseNamespace} get lease ${input.leaderName} -o jsonpath='{.spec.holderIdentity}{"\\n"}'`;
  const kcmPods = openshift
    ? 'kubectl -n openshift-kube-controller-manager get pods -l app=kube-controller-manager -o jsonpath=\'{range .items[*]}{.metadata.name}{" "}{.spec.containers[0].args}{"\\n"}{end}\''
    : 'kubectl -n kube-system get pods -l component=kube-controller-manager -o jsonpath=\'{range .items[*]}{.metadata.name}{" "}{.spec.containers[0].command}{"\\n"}{end}\'';
  const ccmRollout = input.ccm.deployment ? `kubectl -n ${input.ccm.namespace} rollout status deployment/${input.ccm.deployment}` : undefined;
  const taintCmd = 'kubectl get nodes -o jsonpath=\'{range .items[*]}{.metadata.name}{" "}{.spec.taints[*].key}{"\\n"}{end}\' | grep node.cloudprovider.kubernetes.io/uninitialized';
  const canI = (user: string) => `kubectl auth can-i update leases.coordination.k8s.io/${input.leaderName} -n ${input.leaseNamespace} --as=${user}`;

  const kcmBy = openshift
    ? (phase === 'external' ? 'cluster-kube-controller-manager-operator (after the ExternalCloudProvider feature gate or the upgrade)' : lm ? 'you: KubeControllerManager unsupportedConfigOverrides (manual step below) reading the file the MachineConfig writes' : 'cluster-kube-controller-manager-operator')
    : 'you: kubeadm ClusterConfiguration / KubeadmControlPlane / static pod (`ccm-gitops migration control-plane`)';
  const kubeletBy = openshift ? 'machine-config-operator (rolling, node by node)' : 'you: kubelet flags on every node (kubeadm kubeletExtraArgs)';
  const kasBy = openshift ? 'cluster-kube-apiserver-operator' : 'you: kube-apiserver static pod';
  const components: PlanComponent[] = [
    { component: 'kube-controller-manager', flags: flagsLine(kcm), remove: kcm.remove, appliedBy: kcmBy },
    { component: 'cloud-controller-manager', flags: input.ccm.leaderMigrationFlags, remove: phase === 'external' ? ['--enable-leader-migration', '--leader-migration-config'] : [], appliedBy: input.ccm.deployment ? 'gitops (this render)' : 'not deployed in this phase' },
    { component: 'kubelet', flags: flagsLine(kubelet), remove: kubelet.remove, appliedBy: kubeletBy },
    { component: 'kube-apiserver', flags: flagsLine(kas), remove: kas.remove, appliedBy: kasBy },
  ];

  const manual: string[] = [];
  const pre: PlanCheck[] = [];
  const verify: PlanCheck[] = [];
  const os = input.openshift;
  if (phase === 'in-tree') {
    pre.push({ check: 'the in-tree provider runs the cloud controllers in kube-controller-manager', command: kcmPods });
    if (input.rendered.length > 0) {
      verify.push({ check: 'the pre-staged RBAC and CredentialsRequest are applied (the credentials Secret exists when the CredentialsRequest is)', command: `kubectl -n ${input.ccm.namespace} get serviceaccount ${input.ccm.serviceAccount}` });
    }
  }
  if (lm) {
    pre.push({ check: 'kube-controller-manager runs with leader election on (it holds its main lease)', command: `kubectl -n ${input.leaseNamespace} get lease kube-controller-manager -o jsonpath='{.spec.holderIdentity}{"\\n"}'` });
    if (phase === 'leader-migration-kcm') {
      pre.push({ check: 'after the RBAC of this phase is applied, kube-controller-manager may update the migration lease', command: canI('system:kube-controller-manager') });
      verify.push({ check: `kube-controller-manager runs with --enable-leader-migration and the file says ${ownerOf(phase, input.wildcard)}`, command: kcmPods });
      verify.push({ check: `the migration lease ${input.leaseNamespace}/${input.leaderName} exists and a kube-controller-manager holds it`, command: leaseCmd });
      if (ccmRollout) {
        verify.push({ check: 'the CCM pods are ready and log that they wait for (or do not run) the migrated controllers', command: ccmRollout });
      }
    } else {
      pre.push({ check: 'the CCM of the previous phase is ready', command: ccmRollout });
      pre.push({ check: `the migration lease is held by a kube-controller-manager (the holder changes to a CCM pod after this phase is applied on every control-plane node)`, command: leaseCmd });
      pre.push({ check: 'the CCM may update the migration lease', command: canI(`system:serviceaccount:${input.ccm.namespace}:${input.ccm.serviceAccount}`) });
      verify.push({ check: 'the CCM holds the migration lease', command: leaseCmd });
      verify.push({ check: 'LoadBalancer Services are reconciled by the CCM (events from the service controller of cloud-controller-manager)', command: 'kubectl get events -A --field-selector source=service-controller' });
    }
    if (openshift && os?.machineConfig) {
      const args = JSON.stringify({ spec: { unsupportedConfigOverrides: { extendedArguments: {
        'enable-leader-migration': ['true'],
        'leader-migration-config': [os.machineConfig.podPath],
        'leader-elect-resource-namespace': [input.leaseNamespace],
      } } } });
      manual.push(`Enable leader migration on kube-controller-manager once the MachineConfig ${os.machineConfig.name} has rolled out (the machine-config-operator reboots control-plane nodes one at a time; watch \`kubectl get machineconfigpool master\`): `
        + `\`oc patch kubecontrollermanager cluster --type=merge -p '${args}'\`. This override is unsupported by Red Hat and marks the cluster not upgradeable until it is removed in phase "external".`);
    }
  }
  if (phase === 'external') {
    if (support && input.phases.includes('leader-migration-ccm')) {
      pre.push({ check: 'the CCM holds the migration lease: it already runs the cloud controllers', command: leaseCmd });
    }
    if (ccmRollout) {
      pre.push({ check: 'the CCM is ready before the kubelets switch: a kubelet with --cloud-provider=external and no CCM leaves new nodes tainted and unschedulable', command: ccmRollout });
    }
    verify.push({ check: 'no node keeps the uninitialized taint (new and restarted nodes are initialized by the CCM; empty output is good)', command: taintCmd });
    verify.push({ check: 'kube-controller-manager runs with --cloud-provider=external and without leader migration', command: kcmPods });
    if (openshift && os && os.featureGates.length > 0) {
      manual.push(`The FeatureGate "cluster" is set to ${os.featureSet} with ${os.featureGates.join(', ')}. The operators then switch kube-controller-manager (--cloud-provider=external${support ? `, --external-cloud-volume-plugin=${support.volumePlugin}` : ''}), kube-apiserver and the kubelets (machine-config-operator, node by node). `
        + `${os.featureSet} cannot be turned off again and blocks minor upgrades: this phase has no rollback on this cluster.`);
    } else if (openshift && support) {
      manual.push(`OpenShift ${openshiftRelease(input.kubernetesMinor)} switches ${input.platform} to the external CCM by itself: the upgrade to ${openshiftRelease(support.openshiftExternalSinceMinor)} `
        + `makes cluster-kube-controller-manager-operator set --cloud-provider=external (keeping --external-cloud-volume-plugin=${support.volumePlugin}), cluster-kube-apiserver-operator drop --cloud-provider and machine-config-operator restart the kubelets with --cloud-provider=external.`);
    }
    if (openshift && input.phases.includes('leader-migration-ccm')) {
      manual.push('Remove the kube-controller-manager override of the leader-migration phases: `oc patch kubecontrollermanager cluster --type=json -p \'[{"op":"remove","path":"/spec/unsupportedConfigOverrides/extendedArguments"}]\'`.');
    }
  }
  if (!openshift && phase !== 'in-tree') {
    manual.push(`Apply the control-plane change of this phase: \`ccm-gitops migration control-plane --platform ${input.platform} --phase ${phase} --kubernetes-version 1.${input.kubernetesMinor}\` prints the kubeadm, Cluster API and static-pod forms.`);
  }

  const next = nextPhase(input.phases, phase);
  const back = previousPhase(input.phases, phase);
  const irreversible = phase === 'external' && openshift && (os?.featureGates.length ?? 0) > 0;

  const scenarios: { title: string; mitigation: string }[] = [];
  if (lm) {
    scenarios.push({
      title: 'kube-controller-manager and the CCM disagree on the lease name or namespace: both run the cloud controllers',
      mitigation: `The CCM renders --leader-elect-resource-namespace=${input.leaseNamespace} and leaderName ${input.leaderName}; the kube-controller-manager side must use the same (check its flags before merging).`,
    });
    scenarios.push({
      title: 'leader election is off on kube-controller-manager: leader migration is silently disabled',
      mitigation: 'spec.migration.leaderElect must be true; check the KCM flags for --leader-elect=false.',
    });
  }
  if (phase === 'leader-migration-ccm') {
    scenarios.push({
      title: 'the CCM is not ready when the configuration hands it the controllers: LoadBalancer Services and node lifecycle stop',
      mitigation: 'Check the CCM rollout before merging; roll back to "leader-migration-kcm" to give the controllers back.',
    });
  }
  if (phase === 'external') {
    scenarios.push({
      title: 'the CCM runs while kubelets still run the in-tree provider (seed 000: CCCMO or KCMO upgraded before MCO)',
      mitigation: 'Node addresses are set by both the kubelet and the CCM node controller until every kubelet has restarted; it ends when the kubelet rollout completes.',
    });
    scenarios.push({
      title: 'kubelets run external before the CCM is up (seed 000: MCO upgraded before CCCMO or KCMO)',
      mitigation: 'New nodes keep the node.cloudprovider.kubernetes.io/uninitialized taint and addresses are not updated until the CCM runs; keep the CCM of the previous phase ready before merging.',
    });
    scenarios.push({
      title: 'the CCM goes down after the migration',
      mitigation: 'Existing nodes keep working; new nodes stay tainted and LoadBalancer Services are not reconciled until it is back (seed 000 FAQ).',
    });
  }
  if (phase === 'in-tree' && back === undefined && input.rendered.length === 0) {
    scenarios.push({ title: 'none in this phase', mitigation: 'Nothing moves; the next phase carries the risks.' });
  }

  return {
    cluster: input.cluster,
    platform: input.platform,
    distribution: input.distribution,
    phase,
    phases: input.phases,
    kubernetesVersion: `1.${input.kubernetesMinor}`,
    ccmVersion: `1.${input.ccmMinor}`,
    ...(openshift ? { openshiftRelease: openshiftRelease(input.kubernetesMinor) } : {}),
    summary: SUMMARY[phase],
    ...(lmc ? {
      leaderMigration: {
        leaderName: input.leaderName,
        leaseNamespace: input.leaseNamespace,
        apiVersion: lmc.apiVersion,
        owner: ownerOf(phase, input.wildcard),
        controllers: lmc.controllerLeaders.map((c) => c.name),
        file: leaderMigrationConfigYaml(lmc),
      },
    } : {}),
    components,
    rendered: input.rendered,
    manualSteps: manual,
    preconditions: pre.filter((c) => c.check),
    verify,
    ...(next ? { next: { phase: next, change: changeTo(next, phase) } } : {}),
    ...(back && !irreversible ? { rollback: { phase: back, change: changeTo(back, phase) } } : {}),
    failureScenarios: scenarios,
  };
}

function checks(list: readonly PlanCheck[]): string[] {
  return list.length === 0 ? ['- none', ''] : [...list.map((c) => (c.command ? `- ${c.check}:\n  \`${c.command}\`` : `- ${c.check}`)), ''];
}

/** The plan as Markdown for reviewers. */
export function migrationMarkdown(plan: MigrationPlan): string {
  const lines: string[] = [
    `# Migration of ${plan.cluster}: phase \`${plan.phase}\``,
    '',
    `${plan.platform} on ${plan.distribution}${plan.openshiftRelease ? ` ${plan.openshiftRelease}` : ''}, kube-controller-manager ${plan.kubernetesVersion}, CCM ${plan.ccmVersion}.`,
    `Phases: ${plan.phases.map((p) => (p === plan.phase ? `**${p}**` : p)).join(' → ')}.`,
    '',
    plan.summary,
    '',
  ];
  if (plan.leaderMigration) {
    const l = plan.leaderMigration;
    lines.push('## Leader migration', '',
      `Lease \`${l.leaseNamespace}/${l.leaderName}\`; the controllers are owned by ${l.owner}. Both sides read this file (${l.apiVersion}):`, '',
      '```yaml', l.file.trimEnd(), '```', '');
  }
  lines.push('## What this phase changes', '', '| component | flags in this phase | flags to remove | applied by |', '|---|---|---|---|');
  for (const c of plan.components) {
    const cell = (xs: readonly string[]) => (xs.length === 0 ? '-' : xs.map((x) => `\`${x}\``).join('<br>'));
    lines.push(`| ${c.component} | ${cell(c.flags)} | ${cell(c.remove)} | ${c.appliedBy} |`);
  }
  lines.push('');
  if (plan.rendered.length > 0) {
    lines.push('Rendered for the migration:', '', ...plan.rendered.map((o) => `- ${o.kind} \`${o.namespace ? `${o.namespace}/` : ''}${o.name}\``), '');
  }
  lines.push('## Not applied by GitOps', '', ...(plan.manualSteps.length === 0 ? ['- nothing'] : plan.manualSteps.map((s) => `- ${s}`)), '');
  lines.push('## Before merging', '', ...checks(plan.preconditions));
  lines.push('## After applying', '', ...checks(plan.verify));
  lines.push('## Next and rollback', '',
    `- Next: ${plan.next ? `\`${plan.next.phase}\`. ${plan.next.change}` : 'none, the migration is complete.'}`,
    `- Rollback: ${plan.rollback ? `\`${plan.rollback.phase}\`. ${plan.rollback.change}` : plan.phase === 'in-tree' ? 'none, this is the start.' : 'not possible on this cluster (see "Not applied by GitOps").'}`,
    '', '## Failure scenarios', '',
    ...plan.failureScenarios.map((f) => `- **${f.title}.** ${f.mitigation}`), '',
    'Generated by ccm-gitops from the cluster spec; do not edit.', '');
  return lines.join('\n');
}
