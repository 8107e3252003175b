/** The `schema` command: the JSON Schema of the cluster spec on standard output. */
import { Command } from 'commander';
import { clusterSpecJsonSchema } from '../cluster-spec/json-schema';
import { CommandContext } from './io';

/** Adds `schema` to the program. */
export function addSchemaCommand(program: Command, ctx: CommandContext): void {
  program
    .command('schema')
    .description('print the JSON Schema of the cluster spec')
    .action(() => {
      ctx.io.out(`${JSON.stringify(clusterSpecJsonSchema(), null, 2)}\n`);
    });
}
