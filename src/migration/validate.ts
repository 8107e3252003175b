/**
 * Checks a requested migration against the platform and versions (kubernetes/enhancements@64765b4b0238 keps/sig-cloud-provider/2436-controller-manager-leader-migration/README.md;
 * openshift/enhancements@e91105bda6aa enhancements/cloud-integration/out-of-tree-provider-support.md). Each problem names the field, the value and the
 * legal step. Pure: no cdk8s import.
 */
import { LEADER_MIGRATION_GATE } from './flags';
import { isLeaderMigrationPhase, MigrationPhase, MigrationSupport } from './phases';
import { minorSkewProblem } from '../util/version-skew';

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
  /** The migration lease namespace. */
  readonly leaseNamespace?: string;
  /** Distribution kubernetes: the CCM settings the migration must agree with. */
  readonly kubernetes?: KubernetesMigrationCheck;
}

/** What the kubernetes distribution renders for the CCM that the migration depends on. */
export interface KubernetesMigrationCheck {
  /** spec.kubernetes.allocateNodeCidrs (the CCM's --allocate-node-cidrs). */
  readonly allocateNodeCidrs: boolean;
  /** spec.kubernetes.configureCloudRoutes (the CCM's --configure-cloud-routes). */
  readonly configureCloudRoutes: boolean;
  /** spec.kubernetes.namespace: where the CCM elects its leader outside leader migration. */
  readonly namespace: string;
  /** spec.kubernetes.clusterName as written. */
  readonly clusterName?: string;
  /** Whether the provider's CCM takes --cluster-name. */
  readonly clusterNameFlag: boolean;
  /** spec.migration.ccmVersion as written. */
  readonly ccmVersion?: string;
  /** The CCM image and the Kubernetes minor its tag is built for, when the tag tells. */
  readonly image?: { readonly key: string; readonly minor: string };
  /** spec.kubernetes.controllers as written (the CCM's --controllers); undefined: the provider's default list. */
  readonly controllers?: readonly string[];
  /** spec.kubernetes.extraArgs.leader-elect-resource-name, when set. */
  readonly leaderElectResourceName?: string;
  /** The names of spec.kubernetes.extraArgs. */
  readonly extraArgNames?: readonly string[];
  /** spec.kubernetes.scheduling.preset: the distribution the control plane runs (kubeadm, rke2, k3s, …). */
  readonly preset?: string;
}

/** The version skew policy link cited in messages. */
const M = ['spec', 'migration'];

/**
 * The distribution's own checks of a requested migration
 * (`MigrationControlPlane.checks`), each the message of its problem or undefined.
 */
export interface MigrationControlPlaneChecks {
  /** `spec.migration.kubernetesVersion`: a phase other than external on a release where the distribution has already moved the platform to its CCM. */
  alreadyExternal?(input: MigrationCheckInput, support: MigrationSupport): string | undefined;
  /** `spec.migration.kubernetesVersion`: a leader-migration phase the distribution's kube-controller-manager cannot run on this version. */
  leaderMigrationBlocked?(input: MigrationCheckInput): string | undefined;
  /** Problems of the distribution's own objects of the phase at this version (OpenShift: a FeatureGate for a release it has no Default gates of). */
  releaseProblems?(input: MigrationCheckInput, support: MigrationSupport): MigrationProblem[];
  /** `spec.migration.nodeIpam`: the message when it is true but node IPAM does not move on the distribution. */
  readonly nodeIpamFixed?: string;
  /** The problems of the distribution's CCM settings the migration depends on (`MigrationCheckInput.kubernetes`). */
  ccmProblems?(input: MigrationCheckInput): MigrationProblem[];
  /** The warnings about those settings (platforms with leader migration only). */
  ccmWarnings?(input: MigrationCheckInput): MigrationProblem[];
}

/**
 * Every problem of a requested migration with the distribution's own checks;
 * empty when it may render. The composition root's `migrationProblems` picks
 * the checks by `input.distribution`.
 */
export function migrationProblemsWith(input: MigrationCheckInput, checks: MigrationControlPlaneChecks): MigrationProblem[] {
  const problems: MigrationProblem[] = [];
  const { support, phase, platform } = input;
  const version = `1.${input.kubernetesMinor}`;
  const lm = isLeaderMigrationPhase(phase);
  if (!support) {
    if (phase !== 'external') {
      problems.push({
        path: [...M, 'phase'],
        message: `"${phase}" is not possible on ${platform}: it never had an in-tree cloud provider, so there is nothing to migrate; set phase to "external" or remove spec.migration`,
      });
    }
  } else {
    if (lm && support.noLeaderMigration) {
      problems.push({
        path: [...M, 'phase'],
        message: `"${phase}" is not possible on ${platform}: ${support.noLeaderMigration}; ${platform} moves from "in-tree" straight to "external"`,
      });
    }
    if (phase !== 'external' && input.kubernetesMinor > support.lastInTreeMinor) {
      problems.push({
        path: [...M, 'kubernetesVersion'],
        message: `"${version}": kube-controller-manager ${version} has no in-tree ${support.inTreeProvider} provider (the last one is in 1.${support.lastInTreeMinor}), so nothing is left to hand over in phase "${phase}"; the cluster can only be "external"`,
      });
    } else if (phase !== 'external') {
      const already = checks.alreadyExternal?.(input, support);
      if (already) {
        problems.push({ path: [...M, 'kubernetesVersion'], message: already });
      }
    }
    problems.push(...(checks.releaseProblems?.(input, support) ?? []));
    if (input.inTreeVolumes === true && phase === 'external' && input.kubernetesMinor > support.lastInTreeMinor) {
      problems.push({
        path: [...M, 'inTreeVolumes'],
        message: `is true but kube-controller-manager ${version} has no in-tree ${support.volumePlugin} volume plugin (the last one is in 1.${support.lastInTreeMinor}); finish CSI migration and set it to false`,
      });
    }
  }
  if (lm && input.kubernetesMinor < 21) {
    problems.push({
      path: [...M, 'kubernetesVersion'],
      message: `"${version}": leader migration needs kube-controller-manager 1.21 or newer; upgrade the control plane to 1.21 before phase "${phase}"`,
    });
  } else if (lm && support && !support.noLeaderMigration) {
    const blocked = checks.leaderMigrationBlocked?.(input);
    if (blocked) {
      problems.push({ path: [...M, 'kubernetesVersion'], message: blocked });
    }
  }
  // a minor read from the image tag is checked against the image (the distribution's checks), not as ccmVersion
  const fromImage = input.kubernetes?.image !== undefined && input.kubernetes.ccmVersion === undefined;
  const skew = fromImage
    ? undefined
    : minorSkewProblem(
        'cloud-controller-manager',
        `1.${input.ccmMinor}`,
        `1.${input.kubernetesMinor}`,
        'set spec.migration.ccmVersion to one of those',
      );
  if (skew) {
    problems.push({ path: [...M, 'ccmVersion'], message: `"1.${input.ccmMinor}": ${skew}` });
  } else if (lm && input.ccmMinor < 21 && input.kubernetesMinor >= 21) {
    problems.push({
      path: [...M, 'ccmVersion'],
      message: `"1.${input.ccmMinor}": leader migration needs a CCM built with k8s.io/controller-manager 1.21 or newer`,
    });
  }
  if (lm && !input.leaderElect) {
    problems.push({
      path: [...M, 'leaderElect'],
      message: `is false: leader migration only runs when the kube-controller-manager has --leader-elect=true (with it off, migration is silently disabled and both sides run the cloud controllers); turn leader election on before phase "${phase}"`,
    });
  }
  if (lm && input.managementMode === 'operator') {
    problems.push({
      path: ['spec', 'managementMode'],
      message: `"operator": the operator renders the CCM itself and never enables leader migration; use managementMode "gitops" for phase "${phase}"`,
    });
  }
  if (input.nodeIpam && checks.nodeIpamFixed) {
    problems.push({ path: [...M, 'nodeIpam'], message: checks.nodeIpamFixed });
  }
  problems.push(...(checks.ccmProblems?.(input) ?? []));
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

/**
 * What a migration may get wrong that the spec cannot decide: each a warning
 * with the field and what to check (the plan repeats them as checks).
 */
export function migrationWarningsWith(input: MigrationCheckInput, checks: MigrationControlPlaneChecks): MigrationProblem[] {
  const warnings: MigrationProblem[] = [];
  if (!input.support || input.support.noLeaderMigration) {
    return warnings;
  }
  if (input.leaseNamespace !== undefined && input.leaseNamespace !== 'kube-system') {
    warnings.push({
      path: [...M, 'leaseNamespace'],
      message: `"${input.leaseNamespace}" is not kube-system: it must be the namespace kube-controller-manager already elects its leader in (its --leader-elect-resource-namespace), because both its leases use it; ccm-gitops never changes that flag, since moving it during the roll would give the KCMs two main leases; the plan's checks and migration preflight require --leader-elect-resource-namespace=${input.leaseNamespace} on every kube-controller-manager`,
    });
  }
  warnings.push(...(checks.ccmWarnings?.(input) ?? []));
  return warnings;
}
