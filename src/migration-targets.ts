/**
 * Composition root of the migration: picks the distribution's side of a
 * cluster's migration by `spec.distribution` (the migration imports no
 * distribution; ARCHITECTURE.md). This side checks and plans; the side that
 * renders, with the distributions' constructs, is `migration-rendering.ts`
 * (what loads specs never loads cdk8s).
 */
import { ClusterSpec } from './cluster-spec/schema';
import { KUBERNETES_CONTROL_PLANE_STEPS, KUBERNETES_MIGRATION_CHECKS, KUBERNETES_MIGRATION_CONTROL_PLANE } from './kubernetes/migration/migration-control-plane';
import { migrationInputWith } from './migration/cluster-migration';
import { upstreamProviderFor } from './kubernetes/providers';
import { imageMinor } from './kubernetes/validate';
import { minorOf } from './migration/phases';
import { MigrationInput } from './migration/flags';
import { MigrationPhase, MigrationSupport } from './migration/phases';
import { CcmLocation, phaseChangeSteps, PhaseTransition } from './migration/steps';
import { MigrationCheckInput, MigrationControlPlaneChecks, MigrationProblem, migrationProblemsWith, migrationWarningsWith } from './migration/validate';
import { OPENSHIFT_MIGRATION_CHECKS, OPENSHIFT_MIGRATION_CONTROL_PLANE_FACTS, openshiftControlPlaneSteps } from './openshift/migration/migration-control-plane';

/** The migration input of a cluster spec, with the platform's support; undefined without spec.migration. */
export function migrationInputFor(spec: ClusterSpec, support: MigrationSupport | undefined): MigrationInput | undefined {
  const input = migrationInputWith(spec, support, spec.spec.distribution === 'openshift' ? OPENSHIFT_MIGRATION_CONTROL_PLANE_FACTS : KUBERNETES_MIGRATION_CONTROL_PLANE);
  // an upstream CCM is as old as its image: without ccmVersion its minor comes from the pinned tag
  const image = spec.spec.distribution === 'kubernetes' ? kubernetesCcmImage(spec) : undefined;
  return input && image && spec.spec.migration?.ccmVersion === undefined ? { ...input, ccmMinor: minorOf(image.minor) } : input;
}

/** The kubernetes distribution's CCM image key and the minor its tag is built for, when the tag tells. */
export function kubernetesCcmImage(spec: ClusterSpec): { key: string; minor: string } | undefined {
  const provider = upstreamProviderFor(spec.spec.platform);
  const image = provider ? spec.spec.images[provider.imageKey] : undefined;
  const minor = provider && image ? imageMinor(provider, image) : undefined;
  return provider && minor !== undefined ? { key: provider.imageKey, minor } : undefined;
}

/** What `transitionSteps` needs beyond the migration input, by distribution. */
export interface StepContext {
  readonly distribution: string;
  readonly ccm: CcmLocation;
  /** OpenShift: the gates of the FeatureGate that switches the platform to external (empty: none needed). */
  readonly featureGates: readonly string[];
  /** OpenShift: the feature set of that FeatureGate. */
  readonly featureSet: string;
  /** OpenShift: the MachineConfig writing the KCM's file. */
  readonly machineConfig?: string;
}

/** The steps of one phase change (adjacent phases, either direction) on a distribution: `phaseChangeSteps` with its control plane. */
export function transitionSteps(input: MigrationInput, ctx: StepContext, from: MigrationPhase, to: MigrationPhase): PhaseTransition {
  const controlPlane = ctx.distribution === 'openshift'
    ? openshiftControlPlaneSteps({ featureGates: ctx.featureGates, featureSet: ctx.featureSet, ...(ctx.machineConfig !== undefined ? { machineConfig: ctx.machineConfig } : {}) })
    : KUBERNETES_CONTROL_PLANE_STEPS;
  return phaseChangeSteps(input, { ccm: ctx.ccm, controlPlane }, from, to);
}

/** The distribution's own checks of a requested migration (`input.distribution`). */
function checksFor(input: MigrationCheckInput): MigrationControlPlaneChecks {
  return input.distribution === 'openshift' ? OPENSHIFT_MIGRATION_CHECKS : KUBERNETES_MIGRATION_CHECKS;
}

/** Every problem of a requested migration on its distribution (`input.distribution`); empty when it may render. */
export function migrationProblems(input: MigrationCheckInput): MigrationProblem[] {
  return migrationProblemsWith(input, checksFor(input));
}

/**
 * What a migration may get wrong that the spec cannot decide, on its
 * distribution: each a warning with the field and what to check (the plan
 * repeats them as checks).
 */
export function migrationWarnings(input: MigrationCheckInput): MigrationProblem[] {
  return migrationWarningsWith(input, checksFor(input));
}
