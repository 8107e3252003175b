// The command line's dispatcher: builds the program from the commands in src/cli/ (one file each, none imports
// this file), runs it, and turns what a command throws into an exit code.
import { Command } from 'commander';
import { redactMessage } from './secrets/message-redaction';
import { packageVersion } from './init/package-info';
import { addAssembleCommand } from './cli/assemble';
import { addCloudConfigCommand } from './cli/cloud-config';
import { addDiffCommand } from './cli/diff';
import { EXIT_OK } from './cli/exit-codes';
import { addImportCommand } from './cli/import';
import { addInitCommand } from './cli/init';
import { CliIo, CommandContext, PROCESS_IO } from './cli/io';
import { addMigrateSpecCommand } from './cli/migrate-spec';
import { addMigrationControlPlaneCommand } from './cli/migration-control-plane';
import { addPreflightCommand } from './cli/preflight';
import { reportError } from './cli/report-error';
import { addSchemaCommand } from './cli/schema';
import { addSynthCommand } from './cli/synth';
import { addValidateSpecCommand } from './cli/validate-spec';

export { EXIT_INTERNAL, EXIT_INVALID_INPUT, EXIT_OK, EXIT_USAGE } from './cli/exit-codes';
export { DEFAULT_CLUSTERS_DIR, DEFAULT_OUT_DIR, readCapped } from './cli/io';
export type { CliIo } from './cli/io';

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
  const ctx: CommandContext = {
    io,
    env,
    workers,
    setCode: (c) => {
      code = c;
    },
    writesNothing: () => {
      writes = false;
    },
  };
  const program = new Command('ccm-gitops')
    .description('Render external cloud controller managers as GitOps-ready YAML.')
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .showHelpAfterError('(run with --help for usage)')
    .version(packageVersion(), '-V, --version', 'print the ccm-gitops version');
  addSynthCommand(program, ctx);
  addAssembleCommand(program, ctx);
  addValidateSpecCommand(program, ctx);
  addDiffCommand(program, ctx);
  addCloudConfigCommand(program, ctx);
  addImportCommand(program, ctx);
  const migration = program.command('migration').description('migration from the in-tree cloud provider');
  addPreflightCommand(migration, ctx);
  addMigrationControlPlaneCommand(migration, ctx);
  addInitCommand(program, ctx);
  addMigrateSpecCommand(program, ctx);
  addSchemaCommand(program, ctx);
  return { program, code: () => code, failed: (e) => (code = reportError(e, io, env, writes)) };
}

/** Entry point for the bin script. */
export function main(): void {
  void runCliAsync(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
