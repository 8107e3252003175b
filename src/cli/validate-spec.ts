/** The `validate-spec` command: every problem of every spec file given, without rendering. */
import * as fs from 'fs';
import * as path from 'path';
import { Command } from 'commander';
import { SpecIssue, SpecValidationError } from '../cluster-spec/errors';
import { isSymbolicLink, linkOutsideProblem, listSpecFiles, loadSpecFiles } from '../fleet/load';
import { CommandContext } from './io';
import { defaultsRoot, printWarnings } from './options';
import { UserError } from '../util/user-error';

/** Adds `validate-spec` to the program. */
export function addValidateSpecCommand(program: Command, ctx: CommandContext): void {
  program
    .command('validate-spec')
    .description(
      'validate cluster specs (files, or folders searched like synth) with their defaults and cloud configs, without rendering; ' +
        'reports every problem of every file',
    )
    .argument('<paths...>', 'cluster spec files or folders')
    .option(
      '-c, --clusters <dir>',
      'clusters folder: root of the defaults.yaml chain; cloud config paths must stay inside it (default: the folder given, else the top folder ' +
        'with a defaults.yaml, else the folder the files share, else ".")',
    )
    .action((paths: string[], opts: { clusters?: string }) => {
      ctx.writesNothing();
      const folders = paths.filter((p) => fs.existsSync(p) && fs.statSync(p).isDirectory());
      const root = opts.clusters ?? (folders.length === 1 && paths.length === 1 ? folders[0] : filesRoot(paths, folders));
      // a file given also through its folder is one file, not two specs of the same name
      const seen = new Set<string>();
      const files = paths
        .flatMap((p) => (folders.includes(p) ? listSpecFiles(p) : [p]))
        .filter((f) => !seen.has(path.resolve(f)) && seen.add(path.resolve(f)));
      if (files.length === 0) {
        throw new UserError('usage', `no cluster spec found in ${paths.join(', ')}`);
      }
      // with no clusters folder named or found, a file's own folder is the one its link may not leave
      refuseLinksOutside(
        paths.filter((p) => !folders.includes(p)),
        opts.clusters ?? (root === '.' ? undefined : root),
      );
      const fleet = loadSpecFiles(files, root);
      printWarnings(fleet.warnings, ctx.io.err);
      ctx.io.out(`${files.length} spec file${files.length === 1 ? '' : 's'} valid\n`);
    });
}

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

/**
 * The clusters folder of spec files named without --clusters: the top folder with a defaults.yaml; without one, the
 * files' own folder when they share one, as import validates what it writes (its printed validate-spec then agrees).
 */
function filesRoot(paths: readonly string[], folders: readonly string[]): string {
  const root = defaultsRoot(paths);
  const own = [...new Set(paths.map((p) => path.dirname(p)))];
  return root === '.' && folders.length === 0 && own.length === 1 ? own[0] : root;
}
