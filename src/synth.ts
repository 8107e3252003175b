import { FleetEntry, FLEET_JSON, parseFleetJson } from './fleet-summary';
import { RenderedFile } from './gitops/layout';
import { markerFile, readOutputTree } from './output';
import { fleetFiles, renderCluster } from './render';
import * as fs from 'fs';
import * as path from 'path';
import { MIGRATION_JSON } from './migration/plan-files';
import { MIGRATION_PHASES, phaseSequence, transitionProblem } from './migration/phases';
import { platformFor } from './platforms';
import { OUTPUT_MARKER } from './output';
import { SpecIssue, SpecValidationError } from './spec/errors';
import { Fleet, InputWarning, loadFleet } from './spec/load';
import { gitopsPathProblem, repositoryPathOf } from './gitops/repo-path';
import { secretInOutput } from './secrets/detector';

/** Refuses a `spec.gitops.path` that is not where synth writes the cluster (relative to the repository root). */
export function checkGitopsPaths(fleet: Fleet, outputPath: string): void {
  const issues: SpecIssue[] = fleet.clusters.flatMap((c) => {
    const problem = gitopsPathProblem(c.spec, outputPath);
    return problem ? [{ file: c.specFile, path: 'spec.gitops.path', message: problem }] : [];
  });
  if (issues.length > 0) {
    throw new SpecValidationError(issues);
  }
}

/** Thrown for a synth request that cannot be served (e.g. `--only` matching nothing). */
export class SynthError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SynthError';
  }
}

/** What to render. */
export interface SynthOptions {
  /** Folder of cluster specs. */
  readonly clusters: string;
  /** Output folder (read for `only`, never written here). */
  readonly out: string;
  /**
   * Render only the clusters whose name matches one of these names or globs
   * (`*`, `?`); the others keep the output they have in `out` (rendered when
   * they have none).
   *
   * @default - every cluster
   */
  readonly only?: readonly string[];
}

/** The result: the complete tree to write and what was rendered. */
export interface SynthResult {
  /** Every file of the output tree, marker included. */
  readonly files: RenderedFile[];
  /** Names of the clusters rendered in this run. */
  readonly rendered: readonly string[];
  /** Number of clusters in the fleet. */
  readonly clusters: number;
  /** Transform warnings. */
  readonly warnings: readonly InputWarning[];
}

/** Turns a name or glob into a matcher over cluster names. */
export function nameMatcher(pattern: string): (name: string) => boolean {
  const re = new RegExp(`^${pattern.split('').map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&'))).join('')}$`);
  return (name) => re.test(name);
}

/**
 * Validates the whole fleet and computes the complete output tree. With
 * `only`, clusters outside the selection are taken from the existing output
 * (files and fleet summary line), so the tree stays whole.
 */
export function synthesize(options: SynthOptions): SynthResult {
  const fleet = loadFleet(options.clusters);
  checkPhaseTransitions(fleet, options.out);
  const outputPath = repositoryPathOf(options.out);
  checkGitopsPaths(fleet, outputPath);
  const matchers = (options.only ?? []).map(nameMatcher);
  const selected = (name: string) => matchers.length === 0 || matchers.some((m) => m(name));
  if (matchers.length > 0 && !fleet.clusters.some((c) => selected(c.spec.metadata.name))) {
    throw new SynthError(`no cluster matches --only ${options.only!.join(' ')}; clusters: ${fleet.clusters.map((c) => c.spec.metadata.name).join(', ')}`);
  }
  const existing = matchers.length > 0 ? readOutputTree(options.out) : undefined;
  const existingEntries = new Map<string, FleetEntry>(parseExistingEntries(existing).map((e) => [e.name, e]));

  const files: RenderedFile[] = [];
  const entries: FleetEntry[] = [];
  const rendered: string[] = [];
  for (const cluster of fleet.clusters) {
    const name = cluster.spec.metadata.name;
    const kept = selected(name) ? undefined : keptOutput(existing, existingEntries, name);
    if (kept) {
      files.push(...kept.files);
      entries.push(kept.entry);
    } else {
      const r = renderCluster(cluster, outputPath);
      files.push(...r.files);
      entries.push(r.entry);
      rendered.push(name);
    }
  }
  files.push(...fleetFiles(fleet, entries, outputPath));
  // the last guard: whatever path a secret took, it does not reach git
  for (const f of files) {
    const found = secretInOutput(f.content);
    if (found) {
      throw new SynthError(`${f.path} would hold ${found.reason}; nothing was written. Find the input that carries it (spec, cloud config, kept output) and remove it`);
    }
  }
  return { files: [markerFile(), ...files], rendered, clusters: fleet.clusters.length, warnings: fleet.warnings };
}

function parseExistingEntries(tree: Map<string, string> | undefined): FleetEntry[] {
  const json = tree?.get(FLEET_JSON);
  if (json === undefined) {
    return [];
  }
  try {
    return parseFleetJson(json);
  } catch {
    return [];
  }
}

function keptOutput(tree: Map<string, string> | undefined, entries: Map<string, FleetEntry>, name: string): { files: RenderedFile[]; entry: FleetEntry } | undefined {
  const entry = entries.get(name);
  if (!tree || !entry) {
    return undefined;
  }
  const files = [...tree.entries()].filter(([p]) => p.startsWith(`${name}/`)).map(([p, content]) => ({ path: p, content }));
  return files.length > 0 ? { files, entry } : undefined;
}

/** Differences between a computed tree and the files on disk. */
export interface StaleFile {
  /** Path relative to the output folder. */
  readonly path: string;
  /** How it differs. */
  readonly state: 'changed' | 'missing' | 'extra';
}

/** Compares a computed tree with the output folder; empty when up to date. */
export function staleFiles(files: readonly RenderedFile[], out: string): StaleFile[] {
  const onDisk = readOutputTree(out) ?? new Map<string, string>();
  const stale: StaleFile[] = [];
  const expected = new Map(files.map((f) => [f.path, f.content]));
  for (const [p, content] of expected) {
    const actual = onDisk.get(p);
    if (actual === undefined) {
      stale.push({ path: p, state: 'missing' });
    } else if (actual !== content) {
      stale.push({ path: p, state: 'changed' });
    }
  }
  for (const p of onDisk.keys()) {
    if (!expected.has(p)) {
      stale.push({ path: p, state: 'extra' });
    }
  }
  return stale.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The phase a cluster's last render in `out` recorded, if any. */
export function renderedPhase(out: string, name: string): string | undefined {
  if (!fs.existsSync(path.join(out, OUTPUT_MARKER))) {
    return undefined;
  }
  try {
    const plan = JSON.parse(fs.readFileSync(path.join(out, name, MIGRATION_JSON), 'utf8')) as { phase?: unknown };
    return typeof plan.phase === 'string' ? plan.phase : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Refuses a phase change that skips a phase (forward or back) against the
 * phase the output folder recorded at the last render: each phase is its own
 * reviewed change.
 */
export function checkPhaseTransitions(fleet: Fleet, out: string): void {
  const issues: SpecIssue[] = [];
  for (const cluster of fleet.clusters) {
    const m = cluster.migration;
    const previous = renderedPhase(out, cluster.spec.metadata.name);
    let problem = m && previous !== undefined ? transitionProblem(phaseSequence(m.support), previous, m.phase) : undefined;
    if (!m && previous !== undefined && previous !== 'external') {
      // no spec.migration means "already external": deleting it is the move to external, checked like any other
      const support = platformFor(cluster.spec.spec.platform)?.migrationSupport?.(cluster.spec);
      const step = transitionProblem(support ? phaseSequence(support) : MIGRATION_PHASES, previous, 'external');
      problem = step ? `spec.migration was removed, which means phase "external": ${step}` : undefined;
    }
    const gated = m?.support !== undefined && cluster.spec.spec.distribution === 'openshift' && m.kubernetesMinor < m.support.openshiftExternalSinceMinor;
    if (!problem && m && previous === 'external' && m.phase !== 'external' && gated) {
      problem = `moves from "external" back to "${m.phase}", but phase "external" set the FeatureGate to ${cluster.spec.spec.migration!.featureSet}, which OpenShift cannot turn off: `
        + 'the operators keep kube-controller-manager and the kubelets external, so this cluster stays "external"';
    }
    if (problem) {
      issues.push({ file: cluster.specFile, path: 'spec.migration.phase', message: `${problem} (last render: ${path.join(out, cluster.spec.metadata.name, MIGRATION_JSON)})` });
    }
  }
  if (issues.length > 0) {
    throw new SpecValidationError(issues);
  }
}
