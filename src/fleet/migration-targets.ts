/**
 * Composition root of the migration: picks the distribution's side of a
 * cluster's migration by `spec.distribution`, through the distributions' facts
 * (`distribution-facts.ts`; the migration imports no
 * distribution; ARCHITECTURE.md). This side checks and plans; the side that
 * renders, with the distributions' constructs, is `migration-rendering.ts`
 * (what loads specs never loads cdk8s).
 */
import { ClusterSpec } from '../cluster-spec/schema';
import { distributionFacts, distributionFactsNamed } from '../distribution-facts';
import { migrationInputWith } from '../migration/cluster-migration';
import { minorOf } from '../migration/phases';
import { MigrationInput } from '../migration/flags';
import { MigrationPhase, MigrationSupport } from '../migration/phases';
import { CcmLocation, phaseChangeSteps, PhaseTransition } from '../migration/steps';
import {
  MigrationCheckInput,
  MigrationControlPlaneChecks,
  MigrationProblem,
  migrationProblemsWith,
  migrationWarningsWith,
} from '../migration/validate';

/** The migration input of a cluster spec, with the platform's support; undefined without spec.migration. */
export function migrationInputFor(spec: ClusterSpec, support: MigrationSupport | undefined): MigrationInput | undefined {
  const facts = distributionFacts(spec.spec.distribution);
  const input = migrationInputWith(spec, support, facts.migrationControlPlane);
  // an upstream CCM is as old as its image: without ccmVersion its minor comes from the pinned tag
  const image = facts.ccmImage(spec);
  return input && image && spec.spec.migration?.ccmVersion === undefined ? { ...input, ccmMinor: minorOf(image.minor) } : input;
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
  const controlPlane = distributionFactsNamed(ctx.distribution).controlPlaneSteps(ctx);
  return phaseChangeSteps(input, { ccm: ctx.ccm, controlPlane }, from, to);
}

/** The distribution's own checks of a requested migration (`input.distribution`). */
function checksFor(input: MigrationCheckInput): MigrationControlPlaneChecks {
  return distributionFactsNamed(input.distribution).migrationChecks;
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
