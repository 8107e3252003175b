/**
 * Checks a requested migration against the platform and versions (reference
 * §2.4 and §6, seed 000). Each problem names the field, the value and the
 * legal step. Pure: no cdk8s import.
 */
import { LEADER_MIGRATION_GATE } from './flags';
import { isLeaderMigrationPhase, MigrationPhase, MigrationSupport, openshiftRelease } from './phases';

/** A migration problem: field path under `spec.migration` (or `spec`) and message. */
export interface MigrationProblem {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/** What the checks read. */
export interface MigrationCheckInput {
  readonly distribution: string;
  readonly platform: string;
  readonly support?: MigrationSupport;
  readonly managementMode: string;
  readonly phase: MigrationPhase;
  readonly kubernetesMinor: number;
  readonly ccmMinor: number;
  /** As written; undefined means the default (kept while the KCM still has the plugin). */
  readonly inTreeVolumes?: boolean;
  readonly nodeIpam: boolean;
  readonly leaderElect: boolean;
  readonly enabledFeatureGates: readonly string[];
}

const M = ['spec', 'migration'];

/** Every problem of a requested migration; empty when it may render. */
export function migrationProblems(input: MigrationCheckInput): MigrationProblem[] {
  const problems: MigrationProblem[] = [];
  const { support, phase, platform } = input;
  const version = `1.${input.kubernetesMinor}`;
  const lm = isLeaderMigrationPhase(phase);
  if (!support) {
    if (phase !== 'external') {
      problems.push({ path: [...M, 'phase'], message: `"${phase}" is not possible on ${platform}: it never had an in-tree cloud provider, so there is nothing to migrate; set phase to "external" or remove spec.migration` });
    }
  } else {
    if (lm && support.noLeaderMigration) {
      problems.push({ path: [...M, 'phase'], message: `"${phase}" is not possible on ${platform}: ${support.noLeaderMigration}; ${platform} moves from "in-tree" straight to "external"` });
    }
    if (phase !== 'external' && input.kubernetesMinor > support.lastInTreeMinor) {
      problems.push({
        path: [...M, 'kubernetesVersion'],
        message: `"${version}": kube-controller-manager ${version} has no in-tree ${support.inTreeProvider} provider (the last one is in 1.${support.lastInTreeMinor}), so nothing is left to hand over in phase "${phase}"; the cluster can only be "external"`,
      });
    } else if (phase !== 'external' && input.distribution === 'openshift' && input.kubernetesMinor >= support.openshiftExternalSinceMinor) {
      problems.push({
        path: [...M, 'kubernetesVersion'],
        message: `"${version}": OpenShift ${openshiftRelease(input.kubernetesMinor)} runs the external CCM on ${platform} by default (since ${openshiftRelease(support.openshiftExternalSinceMinor)}), `
          + `so the operators have already migrated it and phase "${phase}" cannot be rendered; set phase to "external"`,
      });
    }
    if (input.inTreeVolumes === true && phase === 'external' && input.kubernetesMinor > support.lastInTreeMinor) {
      problems.push({
        path: [...M, 'inTreeVolumes'],
        message: `is true but kube-controller-manager ${version} has no in-tree ${support.volumePlugin} volume plugin (the last one is in 1.${support.lastInTreeMinor}); finish CSI migration and set it to false`,
      });
    }
  }
  if (lm && input.kubernetesMinor < 21) {
    problems.push({ path: [...M, 'kubernetesVersion'], message: `"${version}": leader migration needs kube-controller-manager 1.21 or newer; upgrade the control plane to 1.21 before phase "${phase}"` });
  }
  if (input.ccmMinor < input.kubernetesMinor) {
    problems.push({ path: [...M, 'ccmVersion'], message: `"1.${input.ccmMinor}" is older than kubernetesVersion "${version}"; the CCM is the newer side (N+1) of the migration` });
  } else if (lm && input.ccmMinor < 21) {
    problems.push({ path: [...M, 'ccmVersion'], message: `"1.${input.ccmMinor}": leader migration needs a CCM built with k8s.io/controller-manager 1.21 or newer` });
  }
  if (lm && !input.leaderElect) {
    problems.push({
      path: [...M, 'leaderElect'],
      message: `is false: leader migration only runs when the kube-controller-manager has --leader-elect=true (with it off, migration is silently disabled and both sides run the cloud controllers); turn leader election on before phase "${phase}"`,
    });
  }
  if (lm && input.managementMode === 'operator') {
    problems.push({ path: ['spec', 'managementMode'], message: `"operator": the operator renders the CCM itself and never enables leader migration; use managementMode "gitops" for phase "${phase}"` });
  }
  if (input.nodeIpam && input.distribution === 'openshift') {
    problems.push({ path: [...M, 'nodeIpam'], message: 'is true but on OpenShift the network plugin allocates node CIDRs, not a controller manager; node IPAM does not move, set it to false' });
  }
  input.enabledFeatureGates.forEach((gate, i) => {
    if (gate === LEADER_MIGRATION_GATE) {
      problems.push({
        path: ['spec', 'featureGates', 'enabled', i],
        message: `"${LEADER_MIGRATION_GATE}" is on by default from 1.22 and unknown from 1.27 (a controller manager given it fails with "unrecognized feature gate"); remove it, ccm-gitops adds it where 1.21 needs it`,
      });
    }
  });
  return problems;
}
