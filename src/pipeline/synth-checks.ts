// What synth checks against the output it replaces: GitOps paths, one migration phase per change, stale files.
import { FleetEntry, readFleetEntries } from './fleet-summary';
import { RenderedFile } from '../gitops/layout';
import { OutputCheck, putFiles, StaleFile } from './output';
import * as fs from 'fs';
import * as path from 'path';
import { PhaseRecords } from './phase-guard';
import { externalIn, MigrationPhase, MIGRATION_PHASES, phaseSequence, transitionProblem } from '../migration/phases';
import { OUTPUT_MARKER } from './output';
import { SpecIssue, SpecValidationError } from '../cluster-spec/errors';
import { argoCdMemberOf, FleetMember, InputWarning } from '../fleet/load';
import { gitopsPathProblem } from '../gitops/repo-path';
import { distributionFacts } from '../distribution-facts';

/** Refuses a `spec.gitops.path` that is not where synth writes the cluster (relative to the repository root). */
export function checkGitopsPaths(
  fleet: { readonly clusters: readonly Pick<FleetMember, 'name' | 'gitops' | 'specFile'>[] },
  outputPath: string,
): void {
  const issues: SpecIssue[] = fleet.clusters.flatMap((c) => {
    const problem = gitopsPathProblem(argoCdMemberOf(c), outputPath);
    return problem ? [{ file: c.specFile, path: 'spec.gitops.path', message: problem }] : [];
  });
  if (issues.length > 0) {
    throw new SpecValidationError(issues);
  }
}

/** The fleet summary lines of the output's `.fleet.json`, by name (empty when there is none). */
export function existingFleetEntries(out: string): Map<string, FleetEntry> {
  if (!fs.existsSync(path.join(out, OUTPUT_MARKER))) {
    return new Map();
  }
  return new Map(readFleetEntries(out).map((e) => [e.name, e]));
}

/** Compares a computed tree with the output folder; empty when up to date. */
export function staleFiles(files: readonly RenderedFile[], out: string): StaleFile[] {
  const check = new OutputCheck(out);
  putFiles(
    check,
    files.filter((f) => f.path !== OUTPUT_MARKER),
  );
  return check.finish();
}

/**
 * Refuses a phase change that skips a phase (forward or back) against the
 * phase of the last render in the output folder: each phase is its own
 * reviewed change. The phase is read from the record and the rendered tree
 * ({@link PhaseRecords}); a renamed cluster is found by its identity. When
 * they are lost, corrupt or disagree, synth refuses unless `forcePhase`
 * gives the reason to render anyway; the overrides are returned as warnings.
 */
export function checkPhaseTransitions(fleet: { readonly clusters: readonly FleetMember[] }, out: string, forcePhase?: string): InputWarning[] {
  const issues: SpecIssue[] = [];
  const overridden: InputWarning[] = [];
  if (!fs.existsSync(path.join(out, OUTPUT_MARKER))) {
    return overridden;
  }
  const records = new PhaseRecords(out, new Set(fleet.clusters.map((c) => c.name)));
  for (const cluster of fleet.clusters) {
    const m = cluster.migration;
    const found = records.previous(cluster);
    if (found.kind === 'unknown') {
      const why = `the record of the last render's phase, ${found.record}, ${found.why}`;
      if (forcePhase !== undefined) {
        overridden.push({
          file: cluster.specFile,
          message: `spec.migration.phase: ${why}; rendered phase "${m?.phase ?? 'external'}" unchecked, --force-phase: ${forcePhase}`,
        });
      } else {
        issues.push({
          file: cluster.specFile,
          path: 'spec.migration.phase',
          message:
            `${why}: the phase of the last render is not known, so this change cannot be checked to move one phase; ` +
            `restore the files from git (git checkout -- ${path.join(out, cluster.name)}) and run synth again, ` +
            'or, when you know the cluster is one step from this phase, run synth --force-phase "<reason>"',
        });
      }
      continue;
    }
    const previous = found.kind === 'known' ? found.phase : undefined;
    let problem = m && previous !== undefined ? transitionProblem(phaseSequence(m.support), previous, m.phase) : undefined;
    if (!m && previous !== undefined && previous !== 'external') {
      // no spec.migration means "already external": deleting it is the move to external, checked like any other
      const support = cluster.supportWithoutMigration;
      const step = transitionProblem(support ? phaseSequence(support) : MIGRATION_PHASES, previous, 'external');
      problem = step ? `spec.migration was removed, which means phase "external": ${step}` : undefined;
    }
    const gated = m !== undefined && distributionFacts(cluster.distribution).externalIsOneWay(m);
    if (!problem && m && previous !== undefined && externalIn(previous as MigrationPhase) && !externalIn(m.phase) && gated) {
      problem =
        `moves from "${previous}" back to "${m.phase}", but phase "${previous}" set the FeatureGate to ${cluster.specMigration!.featureSet}, which OpenShift cannot turn off: ` +
        `the operators keep kube-controller-manager and the kubelets external, so this cluster stays "${previous}" or moves on`;
    }
    if (problem && found.kind === 'known') {
      const renamed = found.renamedFrom ? `, rendered as cluster "${found.renamedFrom}", the same ${cluster.identity}: a rename keeps the phase` : '';
      issues.push({ file: cluster.specFile, path: 'spec.migration.phase', message: `${problem} (last render: ${found.record}${renamed})` });
    }
  }
  if (issues.length > 0) {
    throw new SpecValidationError(issues);
  }
  return overridden;
}
