/** The `synth` command: validate every cluster spec, then render them all into the output folder. */
import * as fs from 'fs';
import * as path from 'path';
import { Command } from 'commander';
import { outputRepositoryProblem } from '../gitops/repo-path';
import { checkOutputOutside, errnoText, OutputCheck, OutputTree, TreeSink } from '../pipeline/output';
import { ProgressLine } from '../pipeline/progress';
import { RenderCache } from '../pipeline/render-cache';
import { SpecCache } from '../pipeline/spec-cache';
import { parseShard, synthesizeInto, synthesizeIntoAsync, SynthOptions, SynthSummary } from '../pipeline/synth';
import { EXIT_INVALID_INPUT } from './exit-codes';
import { CommandContext, DEFAULT_CLUSTERS_DIR } from './io';
import { outputFolder, printWarnings, warningSink, writtenText } from './options';
import { UserError } from '../util/user-error';

/** The options of `synth` as commander gives them. */
interface SynthFlags {
  readonly clusters: string;
  readonly out?: string;
  readonly quiet?: boolean;
  readonly only?: string[];
  readonly check?: boolean;
  readonly force?: boolean;
  readonly jobs?: string;
  readonly cache: boolean;
  readonly shard?: string;
  readonly forcePhase?: string;
}

/** A synth the command asks for, and where it goes. */
interface SynthRequest {
  readonly options: SynthOptions;
  readonly sink: TreeSink;
}

/** What a synth run knows once its flags are checked: the output folder, how it warns, its caches and progress line. */
interface SynthRun {
  readonly out: string;
  readonly warn: (text: string) => void;
  readonly cacheDir: string | undefined;
  readonly progress: ProgressLine | undefined;
  /** The synth options but the caches (which depend on the sink). */
  readonly options: Omit<SynthOptions, 'cache' | 'specCache'>;
}

/** Adds `synth` to the program. */
export function addSynthCommand(program: Command, ctx: CommandContext): void {
  program
    .command('synth')
    .description('validate every cluster spec, then render them all into the output directory (replaced atomically)')
    .option('-c, --clusters <dir>', 'folder of cluster specs, searched recursively', DEFAULT_CLUSTERS_DIR)
    .option('-o, --out <dir>', 'output folder (default: $CDK8S_OUTDIR or "dist")')
    .option('-q, --quiet', 'print only errors: no progress, no warnings, no summary line (warnings never change the exit code)')
    .option('--only <name...>', 'render only the clusters matching these names or globs; the others keep their current output')
    .option('--check', 'write nothing; exit 1 and list the files that differ when the output folder is stale')
    .option('--force', 'delete files in the output folder that ccm-gitops did not write (without it, synth lists them and refuses)')
    .option('-j, --jobs <n>', 'worker threads rendering clusters in parallel (default: one per core; 1: none, the main thread renders)')
    .option(
      '--no-cache',
      'render every cluster (by default, a cluster whose inputs and output folder are as the last synth left them is not rendered again; ' +
        'the cache is in $CCM_GITOPS_CACHE_DIR, else $XDG_CACHE_HOME/ccm-gitops, else ~/.cache/ccm-gitops)',
    )
    .option(
      '--shard <i/n>',
      'render only shard I of N of the fleet (clusters split by a hash of their name), for a CI job matrix; ' +
        "then put the shards' outputs together with ccm-gitops assemble",
    )
    .option(
      '--force-phase <reason>',
      "render although a cluster's record of its last migration phase (.migration.json) is lost, corrupt or " +
        'contradicted by the rendered tree; the one-phase check is skipped for those clusters and each is named, with the reason, in a warning',
    )
    .action((opts: SynthFlags) => settle(synth(opts, ctx), ctx.workers));
}

/**
 * Runs a command that asks for synths (each `yield`ed, its summary given
 * back): here with {@link synthesizeInto}, or, with `workers`, with
 * {@link synthesizeIntoAsync} (the command then settles in a promise).
 */
function settle(steps: Generator<SynthRequest, void, SynthSummary>, workers: boolean): void | Promise<void> {
  if (workers) {
    return (async () => {
      for (let step = steps.next(); !step.done;) {
        let summary: SynthSummary;
        try {
          summary = await synthesizeIntoAsync(step.value.options, step.value.sink);
        } catch (e) {
          step = steps.throw(e);
          continue;
        }
        step = steps.next(summary);
      }
    })();
  }
  for (let step = steps.next(); !step.done;) {
    let summary: SynthSummary;
    try {
      summary = synthesizeInto(step.value.options, step.value.sink);
    } catch (e) {
      step = steps.throw(e);
      continue;
    }
    step = steps.next(summary);
  }
}

/** The synth command: checks the flags, then checks (--check) or writes the output folder. */
function* synth(opts: SynthFlags, ctx: CommandContext): Generator<SynthRequest, void, SynthSummary> {
  const run = startRun(opts, ctx);
  try {
    if (opts.check) {
      yield* checkOutput(run, opts, ctx);
    } else {
      yield* writeOutput(run, opts, ctx);
    }
  } finally {
    run.progress?.finish();
  }
}

/** Checks the flags (usage errors), warns about the output's place, and opens the cache folder and the progress line. */
function startRun(opts: SynthFlags, ctx: CommandContext): SynthRun {
  const { io, env } = ctx;
  const out = outputFolder(opts.out, env);
  // --only takes names until the next argument; an option right after it (--only -q) would be read as a name
  const optionLike = (opts.only ?? []).filter((n) => n.startsWith('-'));
  if (optionLike.length > 0) {
    throw new UserError(
      'usage',
      `--only ${optionLike.map((n) => JSON.stringify(n)).join(', ')}: cluster names never start with "-"; give the names right after --only (--only NAME... ${optionLike[0]})`,
    );
  }
  const shard = opts.shard === undefined ? undefined : parseShard(opts.shard);
  if (opts.shard !== undefined && !shard) {
    throw new UserError('usage', `--shard ${JSON.stringify(opts.shard)} is not I/N with 1 <= I <= N <= 1000, e.g. 2/4`);
  }
  const jobs = opts.jobs === undefined ? undefined : Number(opts.jobs);
  if (jobs !== undefined && (!Number.isInteger(jobs) || jobs < 1 || jobs > 256)) {
    throw new UserError('usage', `--jobs ${JSON.stringify(opts.jobs)} is not a number of threads from 1 to 256`);
  }
  if (opts.forcePhase !== undefined && opts.forcePhase.trim() === '') {
    throw new UserError(
      'usage',
      '--force-phase needs the reason the phase check may be skipped, e.g. --force-phase "record lost in a bad merge; the cluster is in leader-migration-kcm"',
    );
  }
  checkOutputOutside(out, opts.clusters);
  const warn = warningSink(io, opts.quiet);
  const located = outputRepositoryProblem(opts.clusters, out);
  if (located) {
    warn(`warning: ${located}\n`);
  }
  const cacheDir = opts.cache ? usableCacheDir(renderCacheDir(env), warn) : undefined;
  // progress on standard error when it is known to be a terminal or not (the process's), none with --quiet;
  // the line is cleared before the command's own lines
  const progress =
    opts.quiet || io.errIsTTY === undefined ? undefined : new ProgressLine({ write: io.err, tty: io.errIsTTY, now: io.now ?? Date.now });
  const options = { clusters: opts.clusters, out, only: opts.only, jobs, shard, forcePhase: opts.forcePhase, progress };
  return { out, warn, cacheDir, progress, options };
}

/** --check: renders into a comparison with the output folder; exit 1 listing each stale file. */
function* checkOutput(run: SynthRun, opts: SynthFlags, ctx: CommandContext): Generator<SynthRequest, void, SynthSummary> {
  const { out, cacheDir, progress } = run;
  const check = new OutputCheck(out);
  const cache = cacheDir ? RenderCache.forOutput(cacheDir, check.remote.target) : undefined;
  const specCache = cacheDir ? SpecCache.forClusters(cacheDir, opts.clusters) : undefined;
  let result: SynthSummary;
  try {
    result = yield { options: { ...run.options, cache, specCache }, sink: check };
  } finally {
    specCache?.save();
  }
  cache?.save();
  progress?.finish();
  printWarnings(result.warnings, run.warn);
  const stale = check.finish();
  if (stale.length > 0) {
    ctx.io.err(`error: ${out} is stale (${stale.length} file${stale.length === 1 ? '' : 's'}); run ccm-gitops synth and commit the result\n`);
    for (const f of stale) {
      ctx.io.err(`  ${f.state}: ${out}/${f.path}\n`);
    }
    ctx.setCode(EXIT_INVALID_INPUT);
  } else if (!opts.quiet) {
    ctx.io.out(`${out} is up to date (${result.clusters} cluster${result.clusters === 1 ? '' : 's'})\n`);
  }
}

/** Renders into the output folder and commits it; prints the summary line. */
function* writeOutput(run: SynthRun, opts: SynthFlags, ctx: CommandContext): Generator<SynthRequest, void, SynthSummary> {
  const { out, cacheDir, progress } = run;
  // the output is opened (checked, locked, an interrupted commit completed) before the specs are read
  const tree = OutputTree.open(out, { force: opts.force });
  let result: SynthSummary;
  const cache = cacheDir ? RenderCache.forOutput(cacheDir, tree.remote.target) : undefined;
  const specCache = cacheDir ? SpecCache.forClusters(cacheDir, opts.clusters) : undefined;
  try {
    result = yield { options: { ...run.options, cache, specCache }, sink: tree };
  } catch (e) {
    tree.close();
    throw e;
  } finally {
    specCache?.save();
  }
  progress?.finish();
  printWarnings(result.warnings, run.warn);
  progress?.writing();
  const commit = tree.commit();
  cache?.save();
  progress?.finish();
  if (!opts.quiet) {
    const n = result.rendered.length - result.unchanged;
    const others = [
      ...(result.kept > 0 ? [`${result.kept} kept from ${out}`] : []),
      ...(result.unchanged > 0 ? [`${result.unchanged} unchanged, checked against the render cache`] : []),
    ];
    ctx.io.out(
      `rendered ${n} cluster${n === 1 ? '' : 's'}${others.length > 0 ? ` (${others.join('; ')})` : ''} into ${out} (${writtenText(commit.written)})\n`,
    );
  }
}

/**
 * The render cache folder, created; undefined with a warning when it cannot
 * be (a file in its place, no permission): the cache only saves time, so
 * synth goes on without it.
 */
function usableCacheDir(dir: string | undefined, warn: (text: string) => void): string | undefined {
  if (dir === undefined) {
    return undefined;
  }
  try {
    fs.mkdirSync(dir, { recursive: true });
    if (fs.statSync(dir).isDirectory()) {
      return dir;
    }
  } catch (e) {
    const code = (e as NodeJS.ErrnoException | undefined)?.code;
    if (typeof code !== 'string') {
      throw e;
    }
    if (code !== 'EEXIST' && code !== 'ENOTDIR') {
      warn(
        `warning: render cache off: cannot create ${dir}: ${errnoText(e as NodeJS.ErrnoException & { code: string })}; set CCM_GITOPS_CACHE_DIR to a folder you can write, or pass --no-cache\n`,
      );
      return undefined;
    }
  }
  warn(
    `warning: render cache off: ${dir} is not a folder (a file is in its place); remove it, set CCM_GITOPS_CACHE_DIR to a folder, or pass --no-cache\n`,
  );
  return undefined;
}

/** Folder of the render cache: $CCM_GITOPS_CACHE_DIR, else $XDG_CACHE_HOME/ccm-gitops, else ~/.cache/ccm-gitops; none without any. */
function renderCacheDir(env: NodeJS.ProcessEnv): string | undefined {
  if (env.CCM_GITOPS_CACHE_DIR) {
    return env.CCM_GITOPS_CACHE_DIR;
  }
  if (env.XDG_CACHE_HOME) {
    return path.join(env.XDG_CACHE_HOME, 'ccm-gitops');
  }
  return env.HOME ? path.join(env.HOME, '.cache', 'ccm-gitops') : undefined;
}
