/** What several commands share: the output folder they default to, the clusters root of loose spec files, how warnings print. */
import * as fs from 'fs';
import * as path from 'path';
import { InputWarning } from '../fleet/load';
import { warningLines } from '../fleet/warning-lines';
import { CliIo, DEFAULT_OUT_DIR } from './io';
import { UserError } from '../util/user-error';

/** The output folder: --out, else $CDK8S_OUTDIR when set and not empty, else dist. */
export function outputFolder(given: string | undefined, env: NodeJS.ProcessEnv): string {
  if (given !== undefined && given.trim() === '') {
    throw new UserError('usage', '--out is empty; give the output folder (default: $CDK8S_OUTDIR or "dist")');
  }
  // an exported but empty CDK8S_OUTDIR names no folder: treat it as unset
  return given ?? (env.CDK8S_OUTDIR?.trim() ? env.CDK8S_OUTDIR : DEFAULT_OUT_DIR);
}

/**
 * The clusters root for spec files given without --clusters: the highest
 * folder above them that holds a defaults file, stopping at the repository
 * root, so a spec validated from a subfolder gets its parent defaults.
 */
export function defaultsRoot(paths: readonly string[]): string {
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
export function printWarnings(warnings: readonly InputWarning[], warn: (text: string) => void): void {
  for (const line of warningLines(warnings)) {
    warn(`${line}\n`);
  }
}

/** Where a command's warnings go: standard error, or nowhere with --quiet (errors only; the exit code is the same). */
export function warningSink(io: CliIo, quiet: boolean | undefined): (text: string) => void {
  return quiet ? () => undefined : io.err;
}

/** `N file(s) written`, or that none was: the end of synth's and assemble's summary lines. */
export function writtenText(written: number): string {
  return written === 0 ? 'up to date, no file written' : `${written} file${written === 1 ? '' : 's'} written`;
}
