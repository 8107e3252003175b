/** The `diff` command: what changes between two rendered trees, as Markdown. */
import { Command } from 'commander';
import { diffTrees, hasChanges, Tree } from '../diff/diff-trees';
import { readChangedTrees, readGitRange, withoutIdenticalUnits } from '../diff/load-tree';
import { diffMarkdown } from '../diff/markdown';
import { EXIT_INVALID_INPUT, EXIT_OK } from './exit-codes';
import { CommandContext, DEFAULT_OUT_DIR } from './io';
import { UserError } from '../util/user-error';

/** Adds `diff` to the program. */
export function addDiffCommand(program: Command, ctx: CommandContext): void {
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
          throw new UserError('usage', 'give either two folders or --git, not both');
        }
        ({ before, after } = readGitRange(opts.git, opts.path));
      } else {
        if (base === undefined || head === undefined) {
          throw new UserError('usage', 'give the two folders to compare, or --git BASE[..HEAD]');
        }
        [before, after] = readChangedTrees(base, head);
      }
      // identical cluster folders cannot differ: only the changed ones are parsed
      const diff = diffTrees(...withoutIdenticalUnits(before, after));
      ctx.io.out(diffMarkdown(diff));
      ctx.setCode(hasChanges(diff) ? EXIT_INVALID_INPUT : EXIT_OK);
    });
}
