/** The `migrate-spec` command: specs written for an earlier form converted (src/spec-migrations/ does the work). */
import { Command } from 'commander';
import { migrateSpecCommand } from '../spec-migrations/command';
import { CommandContext } from './io';

/** Adds `migrate-spec` to the program. */
export function addMigrateSpecCommand(program: Command, ctx: CommandContext): void {
  program
    .command('migrate-spec')
    .description(
      'convert cluster specs and defaults files written for an earlier form of the spec (docs/versioning.md); ' +
        'without --write, list the conversions and exit 1 when a file needs one',
    )
    .argument('<paths...>', 'spec or defaults files, or folders searched for *.yaml')
    .option('--write', 'apply the conversions in place (comments and field order kept)')
    .action((paths: string[], opts: { write?: boolean }) => {
      ctx.setCode(migrateSpecCommand(paths, opts, ctx.io));
    });
}
