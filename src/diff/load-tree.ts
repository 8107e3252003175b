import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Tree } from './diff-trees';
import { readTreeFiles as readAll } from '../util/read-tree';
import { interruptedRunFile, outputSidecars } from '../pipeline/output';
import { UserError } from '../util/user-error';

/** Every file below a folder (hidden ones included), path with `/` separators -> content. */
export function readTreeFiles(dir: string): Tree {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) {
    throw new UserError('usage', `${dir} is not a directory`);
  }
  return readAll(dir);
}

/**
 * The commit a revision names, checked before git sees it as anything else: a
 * revision starting with `-` would be read as an option (`--output=FILE`
 * truncates FILE), so it is refused; the rest goes through
 * `git rev-parse --verify --end-of-options`.
 */
export function resolveRevision(revision: string, cwd = process.cwd()): string {
  if (revision.startsWith('-')) {
    throw new UserError('usage', `${JSON.stringify(revision)} is not a git revision (it starts with "-"); give a branch, tag or commit`);
  }
  if (revision === '' || /[\s\0]/.test(revision)) {
    throw new UserError('usage', `${JSON.stringify(revision)} is not a git revision; give a branch, tag or commit`);
  }
  try {
    return execFileSync('git', ['rev-parse', '--verify', '--quiet', '--end-of-options', `${revision}^{commit}`], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
      .toString()
      .trim();
  } catch (e) {
    const stderr = String((e as { stderr?: Buffer }).stderr ?? '').trim();
    if (/not a git repository/i.test(stderr)) {
      throw new UserError('usage', `${cwd} is not in a git repository; run diff --git inside the repository`);
    }
    throw new UserError('usage', `${JSON.stringify(revision)} is not a commit in this repository`);
  }
}

/**
 * The output folder `treePath` as committed at a git revision (read with
 * `git archive`, no checkout; the path is relative to the current folder, as
 * git reads it), or undefined when the revision does not have it.
 */
export function readTreeAtRevision(revision: string, treePath: string, cwd = process.cwd()): Tree | undefined {
  const commit = resolveRevision(revision, cwd);
  if (treePath.startsWith('-')) {
    throw new UserError('usage', `--path ${JSON.stringify(treePath)} starts with "-"; give the output folder`);
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ccm-gitops-diff-'));
  try {
    let archive: Buffer;
    try {
      archive = execFileSync('git', ['archive', '--format=tar', commit, '--', treePath], {
        cwd,
        stdio: ['ignore', 'pipe', 'pipe'],
        maxBuffer: 1024 * 1024 * 1024,
      });
    } catch (e) {
      const stderr = String((e as { stderr?: Buffer }).stderr ?? '').trim();
      if (/did not match any files/.test(stderr)) {
        return undefined;
      }
      throw new UserError('usage', `cannot read ${treePath} at ${revision}: ${stderr || (e as Error).message}`);
    }
    execFileSync('tar', ['-x', '-C', tmp], { input: archive });
    const dir = path.join(tmp, treePath);
    return fs.existsSync(dir) ? readTreeFiles(dir) : undefined;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * Both trees without their identical top-level folders (clusters, `_fleet`):
 * a one-cluster change in a fleet of thousands is then parsed and compared
 * for that cluster only. Root files (the fleet summary the diff reads) stay.
 */
export function withoutIdenticalUnits(base: Tree, head: Tree): [Tree, Tree] {
  const units = (tree: Tree) => {
    const byUnit = new Map<string, [string, string][]>();
    for (const [p, content] of tree) {
      const slash = p.indexOf('/');
      const unit = slash < 0 ? '' : p.slice(0, slash);
      byUnit.set(unit, [...(byUnit.get(unit) ?? []), [p, content]]);
    }
    return byUnit;
  };
  const b = units(base);
  const h = units(head);
  const same = (x: [string, string][] | undefined, y: [string, string][] | undefined) =>
    x !== undefined && y !== undefined && x.length === y.length && x.every(([p, c], i) => y[i][0] === p && y[i][1] === c);
  const keep = (tree: Map<string, [string, string][]>) =>
    new Map([...tree.entries()].filter(([unit]) => unit === '' || !same(b.get(unit), h.get(unit))).flatMap(([, files]) => files));
  return [keep(b), keep(h)];
}

/**
 * Reads two folders for a diff, skipping the top-level folders that are
 * byte-identical in both (compared file by file, never held): the result is
 * what {@link withoutIdenticalUnits} gives for the whole trees, without
 * reading thousands of unchanged clusters into memory.
 */
export function readChangedTrees(baseDir: string, headDir: string): [Tree, Tree] {
  for (const dir of [baseDir, headDir]) {
    if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) {
      throw new UserError('usage', `${dir} is not a directory`);
    }
    refuseHalfWritten(dir);
  }
  const base = new Map<string, string>();
  const head = new Map<string, string>();
  const entries = (dir: string) => new Map(fs.readdirSync(dir, { withFileTypes: true }).map((e) => [e.name, e.isDirectory()]));
  const b = entries(baseDir);
  const h = entries(headDir);
  const names = [...new Set([...b.keys(), ...h.keys()])].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  const readInto = (tree: Map<string, string>, dir: string, name: string, isDir: boolean | undefined) => {
    if (isDir === undefined) {
      return;
    }
    if (!isDir) {
      tree.set(name, fs.readFileSync(path.join(dir, name), 'utf8'));
      return;
    }
    for (const [p, content] of readAll(path.join(dir, name))) {
      tree.set(`${name}/${p}`, content);
    }
  };
  for (const name of names) {
    const bd = b.get(name);
    const hd = h.get(name);
    if (bd === true && hd === true && sameFolder(path.join(baseDir, name), path.join(headDir, name))) {
      continue;
    }
    readInto(base, baseDir, name, bd);
    readInto(head, headDir, name, hd);
  }
  return [base, head];
}

/** The message for a tree a synth was killed writing: its files are part old, part new. */
function halfWritten(dir: string, at = ''): string {
  return `${dir.replace(/\/+$/, '')}/${at} was left half-written by an interrupted synth; run synth to complete it`;
}

/** Refuses a folder with a synth's journal or lock beside it (a commit cut short, or one in progress). */
function refuseHalfWritten(dir: string): void {
  if (interruptedRunFile(dir) !== undefined) {
    throw new UserError('usage', halfWritten(dir));
  }
}

/** Refuses a revision that committed a synth's journal or lock beside the tree. */
function refuseHalfWrittenAt(revision: string, treePath: string, cwd: string): void {
  const commit = resolveRevision(revision, cwd);
  const parent = path.dirname(treePath.replace(/\/+$/, ''));
  const { journal, lock } = outputSidecars(path.basename(treePath.replace(/\/+$/, '')));
  let listed = '';
  try {
    listed = execFileSync('git', ['ls-tree', '--name-only', commit, '--', path.join(parent, journal), path.join(parent, lock)], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    }).toString();
  } catch {
    // the tree is read next, and its error is the one to report
  }
  if (listed.trim() !== '') {
    throw new UserError('usage', halfWritten(treePath, ` at ${revision}`));
  }
}

/** Whether two folders hold the same files with the same bytes (symbolic links and other entries compare by name only). */
function sameFolder(a: string, b: string): boolean {
  const x = fs.readdirSync(a, { withFileTypes: true }).sort((p, q) => (p.name < q.name ? -1 : p.name > q.name ? 1 : 0));
  const y = fs.readdirSync(b, { withFileTypes: true }).sort((p, q) => (p.name < q.name ? -1 : p.name > q.name ? 1 : 0));
  if (x.length !== y.length) {
    return false;
  }
  for (let i = 0; i < x.length; i++) {
    if (x[i].name !== y[i].name || x[i].isDirectory() !== y[i].isDirectory() || x[i].isFile() !== y[i].isFile()) {
      return false;
    }
    const pa = path.join(a, x[i].name);
    const pb = path.join(b, y[i].name);
    if (x[i].isDirectory() ? !sameFolder(pa, pb) : x[i].isFile() && !fs.readFileSync(pa).equals(fs.readFileSync(pb))) {
      return false;
    }
  }
  return true;
}

/**
 * The two trees of `diff --git BASE[..HEAD]` (HEAD absent: the working tree).
 * A tree missing on one side is empty (the first render, or the last); missing
 * on both sides is an error: a wrong --path or folder never reads as "equal".
 */
export function readGitRange(range: string, treePath: string, cwd = process.cwd()): { before: Tree; after: Tree } {
  const parts = range.split('..');
  if (parts.length > 2 || parts[0] === '') {
    throw new UserError('usage', `--git ${JSON.stringify(range)} is not BASE..HEAD or BASE`);
  }
  const [from, to] = parts;
  for (const rev of [from, to]) {
    if (rev !== undefined && rev.startsWith('-')) {
      throw new UserError('usage', `${JSON.stringify(rev)} is not a git revision (it starts with "-"); give a branch, tag or commit`);
    }
  }
  refuseHalfWrittenAt(from, treePath, cwd);
  if (to) {
    refuseHalfWrittenAt(to, treePath, cwd);
  } else if (interruptedRunFile(path.resolve(cwd, treePath)) !== undefined) {
    throw new UserError('usage', halfWritten(treePath));
  }
  const before = readTreeAtRevision(from, treePath, cwd);
  let after: Tree | undefined;
  if (to) {
    after = readTreeAtRevision(to, treePath, cwd);
  } else {
    after = fs.existsSync(path.resolve(cwd, treePath)) ? readTreeFiles(path.resolve(cwd, treePath)) : undefined;
  }
  if (before === undefined && after === undefined) {
    let where = 'the repository root';
    try {
      const prefix = execFileSync('git', ['rev-parse', '--show-prefix'], { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
        .toString()
        .trim();
      where = prefix === '' ? 'the repository root' : `${prefix} of the repository`;
    } catch {
      // keep the default
    }
    throw new UserError(
      'usage',
      `${treePath} is not in ${from} nor in ${to ?? 'the working tree'} (paths are relative to the current folder, ${where}); run from the repository root or pass --path`,
    );
  }
  return { before: before ?? new Map(), after: after ?? new Map() };
}
