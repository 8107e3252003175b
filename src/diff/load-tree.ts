import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Tree } from './diff-trees';
import { readTreeFiles as readAll } from '../util/read-tree';

/** Thrown when a tree to compare cannot be read. */
export class TreeReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TreeReadError';
  }
}

/** Every file below a folder (hidden ones included), path with `/` separators -> content. */
export function readTreeFiles(dir: string): Tree {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) {
    throw new TreeReadError(`${dir} is not a directory`);
  }
  return readAll(dir);
}

/** The output folder `treePath` as committed at a git revision (read with `git archive`, no checkout). */
export function readTreeAtRevision(revision: string, treePath: string, cwd = process.cwd()): Tree {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ccm-gitops-diff-'));
  try {
    let archive: Buffer;
    try {
      archive = execFileSync('git', ['archive', '--format=tar', revision, '--', treePath], { cwd, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1024 * 1024 * 1024 });
    } catch (e) {
      const stderr = String((e as { stderr?: Buffer }).stderr ?? '').trim();
      // A revision without the folder is an empty tree (e.g. the first commit that renders it).
      if (/did not match any files/.test(stderr)) {
        return new Map();
      }
      throw new TreeReadError(`cannot read ${treePath} at ${revision}: ${stderr || (e as Error).message}`);
    }
    execFileSync('tar', ['-x', '-C', tmp], { input: archive });
    const dir = path.join(tmp, treePath);
    return fs.existsSync(dir) ? readTreeFiles(dir) : new Map();
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
