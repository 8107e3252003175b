/**
 * The `migration preflight` command: loads the fleet as synth does, finds the
 * cluster's next phase change (the rendered tree's phase → the spec's), builds
 * that change's steps as the plan does and checks their preconditions against
 * an export. Exit 0: every precondition holds; 1: one line per failed
 * precondition; 2: usage errors, an unreadable export or an unusable spec.
 */
import { Command } from 'commander';
import { readExport } from '../import/read-export';
import { formatIssue, isSpecError } from '../cluster-spec/errors';
import { loadFleet } from '../fleet/load';
import { phaseSequence, MigrationPhase } from '../migration/phases';
import { phaseChangeSteps, PhaseTransition } from '../migration/steps';
import { MigrationInput } from '../migration/flags';
import { clusterIdentity } from '../cluster-spec/identity';
import { PhaseRecords } from '../pipeline/phase-guard';
import { changePreconditions, preflightChange, runPreflight } from './preflight-checks';
import { PreparedCluster } from '../cluster/prepared-cluster';
import { RenderedObject } from '../gitops/layout';
import { ccmWorkloadOf } from '../migration/plan-files';
import { CommandContext } from './io';
import { isUserError } from '../util/user-error';
import { ccmElectionFlags } from '../migration/step-model';

/** The options of `migration preflight`. */
export interface PreflightOptions {
  readonly cluster: string;
  readonly from: string;
  readonly clusters: string;
  /** The output folder rendered before this change (its `.migration.json` says the phase the cluster is in). */
  readonly out: string;
  /** Check only a change of phase (a pull request's); when the spec keeps the rendered phase, nothing is checked. */
  readonly onlyPhaseChange?: boolean;
}

/** Where the command writes. */
export interface PreflightIo {
  out(text: string): void;
  err(text: string): void;
}

/**
 * Builds the steps of a phase change for a cluster as its plan does: the distribution's side, and the CCM
 * workload found among the cluster's rendered objects (rendered here, with cdk8s, required on use: the
 * CLI's other commands never load the rendering code).
 */
function stepBuilder(cluster: PreparedCluster, input: MigrationInput): (from: MigrationPhase, to: MigrationPhase) => PhaseTransition {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, not at start-up
  const { migrationTargetFor } = require('../pipeline/migration-rendering') as typeof import('../pipeline/migration-rendering');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, not at start-up
  const { App } = require('cdk8s') as typeof import('cdk8s');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, not at start-up
  const { ClusterChart } = require('../pipeline/cluster-chart') as typeof import('../pipeline/cluster-chart');
  const target = migrationTargetFor(cluster.spec);
  const objects = new ClusterChart(new App({ outdir: 'unused' }), cluster.spec.metadata.name, { cluster }).toJson() as RenderedObject[];
  const rendered = objects.find((o) => target.isCcmWorkload(o));
  const ccm = {
    namespace: target.ccmNamespace,
    serviceAccount: target.ccmServiceAccount,
    workload: ccmWorkloadOf(target, objects),
    // as the plan has them: what the CCM takes over is read from its flags
    ...(rendered ? { electionFlags: ccmElectionFlags(rendered) } : {}),
  };
  return (from, to) => {
    // the plan of a phase carries the steps into it: built with the input at that phase
    const at = { ...input, phase: to };
    return phaseChangeSteps(at, { ccm, controlPlane: target.controlPlane.plan(at) }, from, to);
  };
}

/** Runs `migration preflight`; returns the exit code. */
export function preflightCommand(opts: PreflightOptions, io: PreflightIo): number {
  let fleet;
  try {
    fleet = loadFleet(opts.clusters);
  } catch (e) {
    if (isSpecError(e)) {
      io.err(
        `error: the cluster specs have ${e.issues.length === 1 ? '1 problem' : `${e.issues.length} problems`}; fix them (ccm-gitops validate-spec ${opts.clusters}) before a preflight\n`,
      );
      e.issues.forEach((issue) => io.err(`  ${formatIssue(issue)}\n`));
      return 2;
    }
    throw e;
  }
  const cluster = fleet.clusters.find((c) => c.spec.metadata.name === opts.cluster);
  if (!cluster) {
    io.err(`error: no cluster "${opts.cluster}" in ${opts.clusters}; pass --cluster with a spec's metadata.name\n`);
    return 2;
  }
  const input = cluster.migration;
  if (!input) {
    io.err(`error: ${cluster.specFile}: spec.migration is not set, so cluster "${opts.cluster}" has no phase change to check\n`);
    return 2;
  }
  const previous = new PhaseRecords(opts.out, new Set(fleet.clusters.map((c) => c.spec.metadata.name))).previous({
    name: opts.cluster,
    identity: clusterIdentity(cluster.spec.spec),
  });
  if (previous.kind === 'unknown') {
    io.err(`error: ${previous.record} ${previous.why}; pass --out with the tree rendered before this change\n`);
    return 2;
  }
  const sequence = phaseSequence(input.support);
  const rendered = previous.kind === 'known' ? (previous.phase as MigrationPhase) : undefined;
  if (rendered !== undefined && !sequence.includes(rendered)) {
    io.err(
      `error: ${previous.kind === 'known' ? previous.record : opts.out} says phase "${rendered}", which ${input.platform} does not have (${sequence.join(' → ')})\n`,
    );
    return 2;
  }
  if (opts.onlyPhaseChange && (rendered === undefined || rendered === input.phase)) {
    io.out(
      `${opts.cluster}: the spec keeps phase "${input.phase}"${rendered === undefined ? ' (nothing rendered before)' : ''}; no phase change to check\n`,
    );
    return 0;
  }
  const change = preflightChange(sequence, rendered, input.phase);
  if (!change) {
    io.out(`${opts.cluster}: phase "${input.phase}" is the last; no phase change to check\n`);
    return 0;
  }
  let objects;
  try {
    objects = readExport(opts.from);
  } catch (e) {
    if (isUserError(e, 'import')) {
      io.err(`error: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  const list = changePreconditions(sequence, change.from, change.to, stepBuilder(cluster, input));
  const result = runPreflight(objects, list);
  io.out(`${opts.cluster}: "${change.from}" → "${change.to}": ${list.length} precondition${list.length === 1 ? '' : 's'}\n`);
  result.unchecked.forEach((line) => io.out(`  ${line}\n`));
  if (result.failures.length > 0) {
    result.failures.forEach((line) => io.out(`FAIL ${line}\n`));
    io.out(`${result.failures.length === 1 ? '1 problem' : `${result.failures.length} problems`}: do not merge yet\n`);
    return 1;
  }
  io.out('every precondition holds\n');
  return 0;
}

/** Adds `preflight` under the `migration` command. */
export function addPreflightCommand(migration: Command, { io, setCode }: CommandContext): void {
  migration
    .command('preflight')
    .description(
      'check an export of a cluster (oc/kubectl get -o yaml) against the before-merge preconditions of its next phase change; ' +
        'exit 0 when all hold, 1 listing each failed one with its command, 2 on usage errors or an unreadable export',
    )
    .requiredOption('--cluster <name>', "the cluster (its spec's metadata.name)")
    .requiredOption('--from <dir>', 'the export: a folder of .yaml/.json files (or one file), kind: List documents accepted')
    .option('-c, --clusters <dir>', 'folder of cluster specs, searched recursively', 'clusters')
    .option('-o, --out <dir>', 'the output folder rendered before this change: its phase is where the cluster is', 'dist')
    .option('--only-phase-change', "check only when the spec's phase differs from the rendered tree's (a phase pull request); otherwise exit 0")
    .action((opts: PreflightOptions) => {
      setCode(preflightCommand(opts, io));
    });
}
