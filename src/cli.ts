import { Command, CommanderError } from 'commander';
import { formatIssue, SpecValidationError } from './spec/errors';
import { clusterSpecJsonSchema } from './spec/json-schema';
import { InputWarning, loadFleet, loadSpecFiles } from './spec/load';
import { OutputError, writeTreeAtomically } from './output';
import { renderFleet } from './render';

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
}

const PROCESS_IO: CliIo = {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
};

/** Exit codes. */
export const EXIT_OK = 0;
export const EXIT_INVALID_INPUT = 1;
export const EXIT_USAGE = 2;
export const EXIT_INTERNAL = 3;

/**
 * Runs the `ccm-gitops` command line with the given arguments (without the
 * node and script names) and returns the exit code. Never throws.
 */
export function runCli(argv: readonly string[], io: CliIo = PROCESS_IO, env: NodeJS.ProcessEnv = process.env): number {
  let code = EXIT_OK;
  const program = new Command('ccm-gitops')
    .description('Render external cloud controller managers as GitOps-ready YAML.')
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .showHelpAfterError('(run with --help for usage)');

  program.command('synth')
    .description('validate every cluster spec, then render them all into the output directory (replaced atomically)')
    .option('-c, --clusters <dir>', 'folder of cluster specs, searched recursively', DEFAULT_CLUSTERS_DIR)
    .option('-o, --out <dir>', 'output folder (default: $CDK8S_OUTDIR or "dist")')
    .option('-q, --quiet', 'print only errors and warnings')
    .action((opts: { clusters: string; out?: string; quiet?: boolean }) => {
      const out = opts.out ?? env.CDK8S_OUTDIR ?? DEFAULT_OUT_DIR;
      const fleet = loadFleet(opts.clusters);
      printWarnings(fleet.warnings, io);
      const files = renderFleet(fleet);
      writeTreeAtomically(out, files);
      if (!opts.quiet) {
        const n = fleet.clusters.length;
        io.out(`rendered ${n} cluster${n === 1 ? '' : 's'} (${files.length} files) into ${out}\n`);
      }
    });

  program.command('validate-spec')
    .description('validate cluster spec files and their cloud configs without rendering; reports every problem of every file')
    .argument('<files...>', 'cluster spec files')
    .option('-c, --clusters <dir>', 'folder cloud config paths must stay inside', '.')
    .action((files: string[], opts: { clusters: string }) => {
      const fleet = loadSpecFiles(files, opts.clusters);
      printWarnings(fleet.warnings, io);
      io.out(`${files.length} spec file${files.length === 1 ? '' : 's'} valid\n`);
    });

  program.command('schema')
    .description('print the JSON Schema of the cluster spec')
    .action(() => {
      io.out(`${JSON.stringify(clusterSpecJsonSchema(), null, 2)}\n`);
    });

  try {
    program.parse([...argv], { from: 'user' });
  } catch (e) {
    code = handleError(e, io, env);
  }
  return code;
}

function printWarnings(warnings: readonly InputWarning[], io: CliIo): void {
  for (const w of warnings) {
    io.err(`warning: ${w.file}: ${w.message}\n`);
  }
}

function handleError(e: unknown, io: CliIo, env: NodeJS.ProcessEnv): number {
  if (e instanceof CommanderError) {
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') {
      return EXIT_OK;
    }
    return EXIT_USAGE;
  }
  if (e instanceof SpecValidationError) {
    io.err(`error: ${e.issues.length === 1 ? '1 problem' : `${e.issues.length} problems`} found; nothing was written\n`);
    for (const issue of e.issues) {
      io.err(`  ${formatIssue(issue)}\n`);
    }
    return EXIT_INVALID_INPUT;
  }
  if (e instanceof OutputError) {
    io.err(`error: ${e.message}\n`);
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
  process.exitCode = runCli(process.argv.slice(2));
}
