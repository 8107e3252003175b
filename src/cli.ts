import { Command, CommanderError } from 'commander';
import * as fs from 'fs';
import * as path from 'path';
import { ImportError } from './import/live-cluster';
import { redactMessage } from './secrets/message-redaction';
import { formatIssue, SpecIssue, SpecValidationError } from './cluster-spec/errors';
import { clusterSpecJsonSchema } from './cluster-spec/json-schema';
import { InputWarning, isSymbolicLink, linkOutsideProblem, listSpecFiles, loadSpecFiles, MAX_INPUT_BYTES } from './fleet/load';
import { warningLines } from './fleet/warning-lines';
import {
  checkOutputOutside,
  errnoText,
  isErrnoError,
  OutputCheck,
  OutputError,
  OutputLocationError,
  OutputTree,
  SHARD_RECORD,
  TreeSink,
} from './pipeline/output';
import { readShardRecord } from './pipeline/shard';
import { parseShard, SynthError, synthesizeInto, synthesizeIntoAsync, SynthOptions, SynthSummary } from './pipeline/synth';
import { outputRepositoryProblem } from './gitops/repo-path';
import { ProgressLine } from './pipeline/progress';
import { RenderCache } from './pipeline/render-cache';
import { SpecCache } from './pipeline/spec-cache';
import { diffTrees, hasChanges, Tree } from './diff/diff-trees';
import { readChangedTrees, readGitRange, TreeReadError, withoutIdenticalUnits } from './diff/load-tree';
import { diffMarkdown } from './diff/markdown';
import { initCommand } from './init/command';
import { addPreflightCommand } from './preflight-command';
import { addCloudConfigCommand } from './cloud-config-command';
import { addImportCommand } from './import-command';
import { addMigrationControlPlaneCommand } from './migration-control-plane-command';
import { EXIT_INTERNAL, EXIT_INVALID_INPUT, EXIT_OK, EXIT_USAGE, TransformCliError, UsageError } from './cli-errors';
import { packageVersion } from './init/package-info';
import { migrateSpecCommand } from './spec-migrations/command';

/** Default folder of cluster specs (the example fleet in this repository). */
export const DEFAULT_CLUSTERS_DIR = 'clusters';
/** Default output folder; the cdk8s CLI passes its `output` as CDK8S_OUTDIR. */
export const DEFAULT_OUT_DIR = 'dist';

/** Where the CLI writes; injectable for tests. */
export interface CliIo {
  /** Standard output. */
  readonly out: (text: string) => void;
  /** Standard error. */
  readonly err: (text: string) => void;
  /**
   * Reads standard input: all of it, or at least one byte more than
   * MAX_INPUT_BYTES when it is longer (the command refuses it then).
   *
   * @default - reads file descriptor 0, at most MAX_INPUT_BYTES + 1 bytes
   */
  readonly in?: () => string;
  /**
   * Whether standard error is a terminal: synth's progress is one line
   * redrawn in place there, a line every few seconds elsewhere.
   *
   * @default - not known: no progress (the process's standard error says)
   */
  readonly errIsTTY?: boolean;
  /**
   * The clock of the progress line, in milliseconds.
   *
   * @default Date.now
   */
  readonly now?: () => number;
}

const PROCESS_IO: CliIo = {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  in: () => readCapped(0, MAX_INPUT_BYTES),
  errIsTTY: process.stderr.isTTY === true,
};

/**
 * Reads a file descriptor to its end, or to `limit` bytes and one more: an
 * endless pipe (`yes | ccm-gitops cloud-config transform`) is never read whole.
 */
export function readCapped(fd: number, limit: number): string {
  const chunks: Buffer[] = [];
  const buffer = Buffer.alloc(64 * 1024);
  let total = 0;
  while (total <= limit) {
    let n: number;
    try {
      n = fs.readSync(fd, buffer, 0, Math.min(buffer.length, limit + 1 - total), null);
    } catch (e) {
      if (isErrnoError(e) && e.code === 'EAGAIN') {
        // a non-blocking pipe with nothing yet: wait a little, as a blocking read would
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
        continue;
      }
      if (isErrnoError(e) && e.code === 'EOF') {
        break; // Windows reports the end of a pipe so
      }
      throw e;
    }
    if (n === 0) {
      break;
    }
    chunks.push(Buffer.from(buffer.subarray(0, n)));
    total += n;
  }
  return Buffer.concat(chunks).toString('utf8');
}

export { EXIT_INTERNAL, EXIT_INVALID_INPUT, EXIT_OK, EXIT_USAGE } from './cli-errors';

/**
 * Runs the `ccm-gitops` command line with the given arguments (without the
 * node and script names) and returns the exit code. Never throws. `synth`
 * renders on this thread; {@link runCliAsync} renders in worker threads.
 */
export function runCli(argv: readonly string[], given: CliIo = PROCESS_IO, env: NodeJS.ProcessEnv = process.env): number {
  const cli = commandLine(given, env, false);
  try {
    cli.program.parse([...argv], { from: 'user' });
  } catch (e) {
    return cli.failed(e);
  }
  return cli.code();
}

/** {@link runCli} as the bin runs it: `synth` renders in worker threads when the fleet is large enough. Never rejects. */
export async function runCliAsync(argv: readonly string[], given: CliIo = PROCESS_IO, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const cli = commandLine(given, env, true);
  try {
    await cli.program.parseAsync([...argv], { from: 'user' });
  } catch (e) {
    return cli.failed(e);
  }
  return cli.code();
}

/** A synth the `synth` command asks for, and where it goes. */
interface SynthRequest {
  readonly options: SynthOptions;
  readonly sink: TreeSink;
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

/** The command line, its exit code so far, and how an error sets it. */
function commandLine(
  given: CliIo,
  env: NodeJS.ProcessEnv,
  workers: boolean,
): { program: Command; code: () => number; failed: (e: unknown) => number } {
  // every error, warning and usage line passes here: a value a message echoes never prints a credential
  const io: CliIo = { ...given, err: (text) => given.err(redactMessage(text)) };
  let code = EXIT_OK;
  // commands that never write (validate-spec) do not end their errors with "nothing was written"
  let writes = true;
  const program = new Command('ccm-gitops')
    .description('Render external cloud controller managers as GitOps-ready YAML.')
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .showHelpAfterError('(run with --help for usage)')
    .version(packageVersion(), '-V, --version', 'print the ccm-gitops version');

  program
    .command('synth')
    .description('validate every cluster spec, then render them all into the output directory (replaced atomically)')
    .option('-c, --clusters <dir>', 'folder of cluster specs, searched recursively', DEFAULT_CLUSTERS_DIR)
    .option('-o, --out <dir>', 'output folder (default: $CDK8S_OUTDIR or "dist")')
    .option('-q, --quiet', 'print only errors: no progress, no warnings, no summary line (warnings never change the exit code)')
    .option('--only <name...>', 'render only the clusters matching these names or globs; the others keep their current output')
    .option('--check', 'write nothing; exit 1 and list the files that differ when the output folder is stale')
    .option('--force', 'delete files in the output folder that ccm-gitops did not write (without it, synth lists them and refuses)')
    .option('-j, --jobs <n>', 'worker threads rendering clusters in parallel (default 1: none, the main thread renders)')
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
    .action(
      (opts: {
        clusters: string;
        out?: string;
        quiet?: boolean;
        only?: string[];
        check?: boolean;
        force?: boolean;
        jobs?: string;
        cache: boolean;
        shard?: string;
        forcePhase?: string;
      }) =>
        settle(
          (function* synth(): Generator<SynthRequest, void, SynthSummary> {
            const out = outputFolder(opts.out, env);
            // --only takes names until the next argument; an option right after it (--only -q) would be read as a name
            const optionLike = (opts.only ?? []).filter((n) => n.startsWith('-'));
            if (optionLike.length > 0) {
              throw new UsageError(
                `--only ${optionLike.map((n) => JSON.stringify(n)).join(', ')}: cluster names never start with "-"; give the names right after --only (--only NAME... ${optionLike[0]})`,
              );
            }
            const shard = opts.shard === undefined ? undefined : parseShard(opts.shard);
            if (opts.shard !== undefined && !shard) {
              throw new UsageError(`--shard ${JSON.stringify(opts.shard)} is not I/N with 1 <= I <= N <= 1000, e.g. 2/4`);
            }
            const jobs = opts.jobs === undefined ? undefined : Number(opts.jobs);
            if (jobs !== undefined && (!Number.isInteger(jobs) || jobs < 1 || jobs > 256)) {
              throw new UsageError(`--jobs ${JSON.stringify(opts.jobs)} is not a number of threads from 1 to 256`);
            }
            if (opts.forcePhase !== undefined && opts.forcePhase.trim() === '') {
              throw new UsageError(
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
            try {
              if (opts.check) {
                const check = new OutputCheck(out);
                const cache = cacheDir ? RenderCache.forOutput(cacheDir, check.remote.target) : undefined;
                const specCache = cacheDir ? SpecCache.forClusters(cacheDir, opts.clusters) : undefined;
                let result: SynthSummary;
                try {
                  result = yield {
                    options: { clusters: opts.clusters, out, only: opts.only, jobs, cache, shard, specCache, forcePhase: opts.forcePhase, progress },
                    sink: check,
                  };
                } finally {
                  specCache?.save();
                }
                cache?.save();
                progress?.finish();
                printWarnings(result.warnings, warn);
                const stale = check.finish();
                if (stale.length > 0) {
                  io.err(
                    `error: ${out} is stale (${stale.length} file${stale.length === 1 ? '' : 's'}); run ccm-gitops synth and commit the result\n`,
                  );
                  for (const f of stale) {
                    io.err(`  ${f.state}: ${out}/${f.path}\n`);
                  }
                  code = EXIT_INVALID_INPUT;
                } else if (!opts.quiet) {
                  io.out(`${out} is up to date (${result.clusters} cluster${result.clusters === 1 ? '' : 's'})\n`);
                }
                return;
              }
              // the output is opened (checked, locked, an interrupted commit completed) before the specs are read
              const tree = OutputTree.open(out, { force: opts.force });
              let result: SynthSummary;
              const cache = cacheDir ? RenderCache.forOutput(cacheDir, tree.remote.target) : undefined;
              const specCache = cacheDir ? SpecCache.forClusters(cacheDir, opts.clusters) : undefined;
              try {
                result = yield {
                  options: { clusters: opts.clusters, out, only: opts.only, jobs, cache, shard, specCache, forcePhase: opts.forcePhase, progress },
                  sink: tree,
                };
              } catch (e) {
                tree.close();
                throw e;
              } finally {
                specCache?.save();
              }
              progress?.finish();
              printWarnings(result.warnings, warn);
              progress?.writing();
              const commit = tree.commit();
              cache?.save();
              progress?.finish();
              if (!opts.quiet) {
                const n = result.rendered.length - result.unchanged;
                const written =
                  commit.written === 0 ? 'up to date, no file written' : `${commit.written} file${commit.written === 1 ? '' : 's'} written`;
                const others = [
                  ...(result.kept > 0 ? [`${result.kept} kept from ${out}`] : []),
                  ...(result.unchanged > 0 ? [`${result.unchanged} unchanged, checked against the render cache`] : []),
                ];
                io.out(`rendered ${n} cluster${n === 1 ? '' : 's'}${others.length > 0 ? ` (${others.join('; ')})` : ''} into ${out} (${written})\n`);
              }
            } finally {
              progress?.finish();
            }
          })(),
          workers,
        ),
    );

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
    .action((shards: string[], opts: { clusters: string; out?: string; quiet?: boolean; force?: boolean; forcePhase?: string }) => {
      const out = outputFolder(opts.out, env);
      if (opts.forcePhase !== undefined && opts.forcePhase.trim() === '') {
        throw new UsageError('--force-phase needs the reason the phase check may be skipped');
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
        const written = commit.written === 0 ? 'up to date, no file written' : `${commit.written} file${commit.written === 1 ? '' : 's'} written`;
        io.out(
          `assembled ${result.clusters} cluster${result.clusters === 1 ? '' : 's'} from ${shards.length} shard output${shards.length === 1 ? '' : 's'} into ${out} (${written})\n`,
        );
      }
    });

  program
    .command('validate-spec')
    .description(
      'validate cluster specs (files, or folders searched like synth) with their defaults and cloud configs, without rendering; ' +
        'reports every problem of every file',
    )
    .argument('<paths...>', 'cluster spec files or folders')
    .option(
      '-c, --clusters <dir>',
      'clusters folder: root of the defaults.yaml chain; cloud config paths must stay inside it (default: the folder given, else ".")',
    )
    .action((paths: string[], opts: { clusters?: string }) => {
      writes = false;
      const folders = paths.filter((p) => fs.existsSync(p) && fs.statSync(p).isDirectory());
      const root = opts.clusters ?? (folders.length === 1 && paths.length === 1 ? folders[0] : defaultsRoot(paths));
      // a file given also through its folder is one file, not two specs of the same name
      const seen = new Set<string>();
      const files = paths
        .flatMap((p) => (folders.includes(p) ? listSpecFiles(p) : [p]))
        .filter((f) => !seen.has(path.resolve(f)) && seen.add(path.resolve(f)));
      if (files.length === 0) {
        throw new UsageError(`no cluster spec found in ${paths.join(', ')}`);
      }
      // with no clusters folder named or found, a file's own folder is the one its link may not leave
      refuseLinksOutside(
        paths.filter((p) => !folders.includes(p)),
        opts.clusters ?? (root === '.' ? undefined : root),
      );
      const fleet = loadSpecFiles(files, root);
      printWarnings(fleet.warnings, io.err);
      io.out(`${files.length} spec file${files.length === 1 ? '' : 's'} valid\n`);
    });

  program
    .command('diff')
    .description(
      "summarize what changes between two rendered trees: risky changes first, then each cluster's objects and fields (Markdown); " +
        'exit 0 when equal, 1 when they differ',
    )
    .argument('[base]', 'the rendered tree before (a folder)')
    .argument('[head]', 'the rendered tree after (a folder)')
    .option('--git <range>', 'compare the output folder at git revisions instead: BASE..HEAD, or BASE alone for BASE against the working tree')
    .option('--path <dir>', 'with --git: the output folder in the repository', DEFAULT_OUT_DIR)
    .action((base: string | undefined, head: string | undefined, opts: { git?: string; path: string }) => {
      let before: Tree;
      let after: Tree;
      if (opts.git) {
        if (base !== undefined) {
          throw new UsageError('give either two folders or --git, not both');
        }
        ({ before, after } = readGitRange(opts.git, opts.path));
      } else {
        if (base === undefined || head === undefined) {
          throw new UsageError('give the two folders to compare, or --git BASE[..HEAD]');
        }
        [before, after] = readChangedTrees(base, head);
      }
      // identical cluster folders cannot differ: only the changed ones are parsed
      const diff = diffTrees(...withoutIdenticalUnits(before, after));
      io.out(diffMarkdown(diff));
      code = hasChanges(diff) ? EXIT_INVALID_INPUT : EXIT_OK;
    });

  addCloudConfigCommand(program, io, () => (io.in ?? PROCESS_IO.in!)());
  addImportCommand(
    program,
    io,
    DEFAULT_CLUSTERS_DIR,
    (file) => {
      // no defaults.yaml above it: the spec's own folder is the clusters folder its cloud config stays in
      const root = defaultsRoot([file]);
      loadSpecFiles([file], root === '.' ? path.dirname(file) : root);
    },
    (c) => {
      code = c;
    },
  );
  const migration = program.command('migration').description('migration from the in-tree cloud provider');
  addPreflightCommand(migration, io, (c) => {
    code = c;
  });
  addMigrationControlPlaneCommand(migration, io, (c) => {
    code = c;
  });

  program
    .command('init')
    .description(
      'scaffold a fleet repository: clusters/ with commented defaults and one example per distribution and platform, ' +
        '.gitignore and the CI workflow; never overwrites a file that exists, and what it adds fits what is kept',
    )
    .argument('[dir]', 'the fleet repository', '.')
    .option('-d, --distribution <name...>', 'openshift and/or kubernetes (default: openshift)')
    .option('-p, --platform <type...>', 'platform types to write an example for (default: AWS)')
    .option(
      '-e, --engine <engine>',
      'GitOps engine: argocd (an Argo CD per cluster, or a hub), flux (one entry per cluster) or plain ' +
        '(default: the engine of an existing clusters/defaults.yaml, else argocd)',
    )
    .option(
      '--topology <topology>',
      'with argocd: per-cluster (an Argo CD in each cluster) or hub (one Argo CD applies every cluster) ' +
        '(default: the topology of an existing clusters/defaults.yaml, else per-cluster)',
    )
    .option('--repo-url <url>', 'URL the GitOps engine clones the fleet repository from (default: a placeholder to replace)')
    .option('--no-ci', 'do not write .github/workflows/ccm-gitops.yml')
    .action(
      (dir: string, opts: { distribution?: string[]; platform?: string[]; engine?: string; topology?: string; repoUrl?: string; ci: boolean }) => {
        code = initCommand(dir, opts, io);
      },
    );

  program
    .command('migrate-spec')
    .description(
      'convert cluster specs and defaults files written for an earlier form of the spec (docs/versioning.md); ' +
        'without --write, list the conversions and exit 1 when a file needs one',
    )
    .argument('<paths...>', 'spec or defaults files, or folders searched for *.yaml')
    .option('--write', 'apply the conversions in place (comments and field order kept)')
    .action((paths: string[], opts: { write?: boolean }) => {
      code = migrateSpecCommand(paths, opts, io);
    });

  program
    .command('schema')
    .description('print the JSON Schema of the cluster spec')
    .action(() => {
      io.out(`${JSON.stringify(clusterSpecJsonSchema(), null, 2)}\n`);
    });

  return { program, code: () => code, failed: (e) => (code = handleError(e, io, env, writes)) };
}

/** The output folder: --out, else $CDK8S_OUTDIR when set and not empty, else dist. */
function outputFolder(given: string | undefined, env: NodeJS.ProcessEnv): string {
  if (given !== undefined && given.trim() === '') {
    throw new UsageError('--out is empty; give the output folder (default: $CDK8S_OUTDIR or "dist")');
  }
  // an exported but empty CDK8S_OUTDIR names no folder: treat it as unset
  return given ?? (env.CDK8S_OUTDIR?.trim() ? env.CDK8S_OUTDIR : DEFAULT_OUT_DIR);
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

/** The version in the package.json beside the compiled or source tree. */

/**
 * The clusters root for spec files given without --clusters: the highest
 * folder above them that holds a defaults file, stopping at the repository
 * root, so a spec validated from a subfolder gets its parent defaults.
 */
/**
 * A spec file named on the command line follows the rule of one found in a
 * folder: a symbolic link is read only when it stays in the clusters folder
 * (or, with none found, the folder it is in), so its target is never read
 * nor echoed in an error.
 */
function refuseLinksOutside(files: readonly string[], root: string | undefined): void {
  const issues: SpecIssue[] = [];
  for (const file of files.filter(isSymbolicLink)) {
    const inRoot = root !== undefined && !path.relative(path.resolve(root), path.resolve(file)).startsWith('..');
    const folder = inRoot ? root : path.dirname(file);
    let realFolder: string;
    try {
      realFolder = fs.realpathSync(folder);
    } catch {
      realFolder = path.resolve(folder);
    }
    const problem = linkOutsideProblem(file, realFolder, 'spec');
    if (problem) {
      issues.push({ file, path: '', message: problem });
    }
  }
  if (issues.length > 0) {
    throw new SpecValidationError(issues);
  }
}

function defaultsRoot(paths: readonly string[]): string {
  const dirs = paths.map((p) => path.resolve(fs.existsSync(p) && fs.statSync(p).isDirectory() ? p : path.dirname(p)));
  let common = dirs[0] ?? path.resolve('.');
  for (const d of dirs.slice(1)) {
    while (path.relative(common, d).startsWith('..')) {
      common = path.dirname(common);
    }
  }
  let root: string | undefined;
  for (let dir = common; ; dir = path.dirname(dir)) {
    if (['defaults.yaml', 'defaults.yml'].some((n) => fs.existsSync(path.join(dir, n)))) {
      root = dir;
    }
    if (fs.existsSync(path.join(dir, '.git')) || path.dirname(dir) === dir) {
      break;
    }
  }
  if (root === undefined) {
    return '.';
  }
  const chosen = root;
  const rel = path.relative(process.cwd(), chosen);
  return rel === '' ? '.' : rel.startsWith('..') ? chosen : rel;
}

/** Prints warnings, each distinct one once, repeats grouped ({@link warningLines}). */
function printWarnings(warnings: readonly InputWarning[], warn: (text: string) => void): void {
  for (const line of warningLines(warnings)) {
    warn(`${line}\n`);
  }
}

/** Refuses an assemble output that is a shard's: assembling would replace the shard it reads. */
function refuseShardAsOutput(out: string): void {
  const record = path.join(out, SHARD_RECORD);
  // lstat: a link named .shard.json (even to nothing) marks the folder as a shard's too
  if (fs.lstatSync(record, { throwIfNoEntry: false })) {
    const shard = readShardRecord(out)?.shard;
    throw new UsageError(
      `--out ${out} holds the output of synth --shard${shard ? ` ${shard}` : ''} (${record}); assemble into another folder: the shard outputs are what it reads`,
    );
  }
}

/** Where a command's warnings go: standard error, or nowhere with --quiet (errors only; the exit code is the same). */
function warningSink(io: CliIo, quiet: boolean | undefined): (text: string) => void {
  return quiet ? () => undefined : io.err;
}

function handleError(e: unknown, io: CliIo, env: NodeJS.ProcessEnv, writes = true): number {
  const nothingWritten = writes ? '; nothing was written' : '';
  if (e instanceof ImportError) {
    io.err(`error: ${e.message}; nothing was written\n`);
    return EXIT_INVALID_INPUT;
  }
  if (e instanceof UsageError || e instanceof TreeReadError || e instanceof TransformCliError) {
    io.err(`error: ${e.message}\n`);
    return EXIT_USAGE;
  }
  if (e instanceof CommanderError) {
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') {
      return EXIT_OK;
    }
    return EXIT_USAGE;
  }
  if (e instanceof SpecValidationError) {
    io.err(`error: ${e.issues.length === 1 ? '1 problem' : `${e.issues.length} problems`} found${nothingWritten}\n`);
    for (const issue of e.issues) {
      io.err(`  ${formatIssue(issue)}\n`);
    }
    return EXIT_INVALID_INPUT;
  }
  if (e instanceof OutputLocationError) {
    io.err(`error: ${e.message}\n`);
    return EXIT_USAGE;
  }
  if (e instanceof OutputError || e instanceof SynthError) {
    io.err(`error: ${e.message}\n`);
    return EXIT_INVALID_INPUT;
  }
  if (isErrnoError(e)) {
    // an environment problem met outside the output writer (which names its own): reading the specs, a folder
    io.err(
      `error: cannot ${e.syscall === 'scandir' || e.syscall === 'open' || e.syscall === 'read' || e.syscall === 'stat' || e.syscall === 'lstat' ? 'read' : 'access'} ` +
        `${e.path ?? 'a file'}: ${errnoText(e)}${nothingWritten}\n`,
    );
    return EXIT_INVALID_INPUT;
  }
  const err = e as Error;
  io.err(`error: internal error: ${err?.message ?? String(e)}; nothing was written. Please report this with the input that caused it.\n`);
  if (env.CCM_GITOPS_DEBUG) {
    io.err(`${err?.stack ?? ''}\n`);
  }
  return EXIT_INTERNAL;
}

/** Entry point for the bin script. */
export function main(): void {
  void runCliAsync(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
