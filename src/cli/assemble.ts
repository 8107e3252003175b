/** The `assemble` command: the outputs of `synth --shard` runs put together into one output folder. */
import * as fs from 'fs';
import * as path from 'path';
import { Command } from 'commander';
import { checkOutputOutside, OutputTree, SHARD_RECORD } from '../pipeline/output';
import { readShardRecord } from '../pipeline/shard';
import { synthesizeInto, SynthSummary } from '../pipeline/synth';
import { CommandContext, DEFAULT_CLUSTERS_DIR } from './io';
import { outputFolder, printWarnings, warningSink, writtenText } from './options';
import { UserError } from '../util/user-error';

/** The options of `assemble` as commander gives them. */
interface AssembleFlags {
  readonly clusters: string;
  readonly out?: string;
  readonly quiet?: boolean;
  readonly force?: boolean;
  readonly forcePhase?: string;
}

/** Adds `assemble` to the program. */
export function addAssembleCommand(program: Command, ctx: CommandContext): void {
  program
    .command('assemble')
    .description(
      "put the outputs of synth --shard I/N runs together into the output folder: every cluster's folder, " +
        'and the fleet files (FLEET.md, .fleet.json, Argo CD roots) for the whole fleet; validates the specs like synth',
    )
    .argument('<shard-outputs...>', 'the --out folders of the shard runs')
    .option('-c, --clusters <dir>', 'folder of cluster specs (the same the shards rendered)', DEFAULT_CLUSTERS_DIR)
    .option('-o, --out <dir>', 'output folder (default: $CDK8S_OUTDIR or "dist")')
    .option('-q, --quiet', 'print only errors: no warnings, no summary line')
    .option('--force', 'delete files in the output folder that ccm-gitops did not write')
    .option(
      '--force-phase <reason>',
      "as synth --force-phase: assemble although a cluster's record of its last migration phase is lost, corrupt or contradicted",
    )
    .action((shards: string[], opts: AssembleFlags) => assemble(shards, opts, ctx));
}

/** Assembles the shard outputs into the output folder and prints the summary line. */
function assemble(shards: readonly string[], opts: AssembleFlags, { io, env }: CommandContext): void {
  const out = outputFolder(opts.out, env);
  if (opts.forcePhase !== undefined && opts.forcePhase.trim() === '') {
    throw new UserError('usage', '--force-phase needs the reason the phase check may be skipped');
  }
  checkOutputOutside(out, opts.clusters);
  refuseShardAsOutput(out);
  const tree = OutputTree.open(out, { force: opts.force });
  let result: SynthSummary;
  try {
    result = synthesizeInto({ clusters: opts.clusters, out, assembleFrom: shards, forcePhase: opts.forcePhase }, tree);
  } catch (e) {
    tree.close();
    throw e;
  }
  printWarnings(result.warnings, warningSink(io, opts.quiet));
  const commit = tree.commit();
  if (!opts.quiet) {
    io.out(
      `assembled ${result.clusters} cluster${result.clusters === 1 ? '' : 's'} from ${shards.length} shard output${shards.length === 1 ? '' : 's'} into ${out} (${writtenText(commit.written)})\n`,
    );
  }
}

/** Refuses an assemble output that is a shard's: assembling would replace the shard it reads. */
function refuseShardAsOutput(out: string): void {
  const record = path.join(out, SHARD_RECORD);
  // lstat: a link named .shard.json (even to nothing) marks the folder as a shard's too
  if (fs.lstatSync(record, { throwIfNoEntry: false })) {
    const shard = readShardRecord(out)?.shard;
    throw new UserError(
      'usage',
      `--out ${out} holds the output of synth --shard${shard ? ` ${shard}` : ''} (${record}); assemble into another folder: the shard outputs are what it reads`,
    );
  }
}
