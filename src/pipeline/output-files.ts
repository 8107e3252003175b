// File-level helpers of the output folder: the marker, listing, comparing content and writing files.
import * as fs from 'fs';
import * as path from 'path';
import { treeFiles } from '../util/tree-order';
import { batchPieces } from '../util/write-in-chunks';
import { readFleetSummary } from './fleet-summary';
import { RenderedFile } from '../gitops/layout';
import { UserError } from '../util/user-error';

/** Marker file that identifies an output directory written by ccm-gitops. */
export const OUTPUT_MARKER = '.ccm-gitops';
// The text is part of every committed output tree: changing it changes every dist/.
export const MARKER_TEXT = 'This directory is written by ccm-gitops and replaced as a whole on every synth; do not edit files here.\n';

/** The marker file written at the root of every output tree. */
export function markerFile(): RenderedFile {
  return { path: OUTPUT_MARKER, content: MARKER_TEXT };
}

/** Ordinal string order (locale-independent). */
export function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The real folder to write: the target of a symbolic link (so the link stays
 * one), else the path itself. Throws a user error of kind 'usage' when the path or
 * one of its parents is a file.
 */
export function resolveOutput(dir: string): string {
  const abs = path.resolve(dir);
  let existing = abs;
  while (!fs.existsSync(existing) && !isLink(existing) && path.dirname(existing) !== existing) {
    existing = path.dirname(existing);
  }
  if (isLink(existing) && !fs.existsSync(existing)) {
    throw new UserError('usage', `--out ${dir}: ${existing} is a symbolic link to nothing; point it at a folder or pass another --out`);
  }
  const stat = fs.statSync(existing);
  if (!stat.isDirectory()) {
    throw new UserError(
      'usage',
      existing === abs ? `--out ${dir} is a file, not a folder; pass a folder` : `--out ${dir}: ${existing} is a file, not a folder; pass a folder`,
    );
  }
  return path.join(fs.realpathSync(existing), path.relative(existing, abs));
}

export function isLink(p: string): boolean {
  try {
    return fs.lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Names of the clusters of the fleet summary in the output (empty when there is none). */
export function previousClusters(target: string): Set<string> {
  return new Set(readFleetSummary(target, (e) => e.name));
}

/** The paths the kustomization.yaml of a folder lists (empty when there is none). */
export function kustomizationResources(dir: string): Set<string> {
  try {
    // loaded here, not at the top: the render workers load this module for cache checks, which need no YAML
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, not at start-up
    const { parse } = require('yaml') as typeof import('yaml');
    const k = parse(fs.readFileSync(path.join(dir, 'kustomization.yaml'), 'utf8')) as { resources?: unknown };
    return new Set(
      Array.isArray(k.resources) ? k.resources.filter((r): r is string => typeof r === 'string').map((r) => r.replace(/^\.\//, '')) : [],
    );
  } catch {
    return new Set();
  }
}

/** Every file below a folder (not following links), as `prefix/relative/path`, in {@link byTreeOrder}; empty when it does not exist. */
export function listFiles(dir: string, prefix: string): string[] {
  return Array.from(treeFiles(dir, prefix));
}

/** Whether a file holds exactly `content` (UTF-8). */
export function sameContent(file: string, content: string): boolean {
  return samePieces(file, [content]);
}

/** Bytes compared per read when a file is compared with its pieces. */
const PIECE_BYTES = 1 << 18;

/**
 * Whether a file holds exactly the pieces, joined (UTF-8), compared a read
 * at a time: the fleet summary files are tens of megabytes at ten thousand
 * clusters, and neither the file nor the encoded content is held whole. A
 * cluster's file (nearly every file) takes one read as small as the file.
 */
export function samePieces(file: string, pieces: Iterable<string>): boolean {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return false;
  }
  try {
    const size = fs.fstatSync(fd).size;
    let at = 0;
    let disk = Buffer.allocUnsafe(Math.min(size, PIECE_BYTES));
    const matches = (bytes: Buffer): boolean => {
      if (at + bytes.length > size) {
        return false;
      }
      if (disk.length < bytes.length) {
        disk = Buffer.allocUnsafe(bytes.length);
      }
      for (let got = 0; got < bytes.length;) {
        const n = fs.readSync(fd, disk, got, bytes.length - got, at + got);
        if (n === 0) {
          return false;
        }
        got += n;
      }
      at += bytes.length;
      return disk.subarray(0, bytes.length).equals(bytes);
    };
    // small pieces (a cluster's summary line) are compared in batches; a piece is never split, so it encodes as in the whole
    for (const batch of batchPieces(pieces, PIECE_BYTES / 4)) {
      if (!matches(Buffer.from(batch))) {
        return false;
      }
    }
    return at === size;
  } catch {
    return false;
  } finally {
    fs.closeSync(fd);
  }
}

export function checkPath(p: string): void {
  if (p.split('/').some((s) => s === '..' || s === '' || s === '.') || path.isAbsolute(p)) {
    throw new UserError('output', `internal error: unsafe output path ${JSON.stringify(p)}`);
  }
}

export function checkUnit(unit: string, files: readonly RenderedFile[]): void {
  checkPath(unit);
  for (const f of files) {
    checkPath(f.path);
    if (!f.path.startsWith(`${unit}/`)) {
      throw new UserError('output', `internal error: ${JSON.stringify(f.path)} is not in ${unit}/`);
    }
  }
}

/** Writes files below a root, each folder created once. */
export function writeFiles(root: string, files: readonly RenderedFile[]): void {
  const made = new Set<string>();
  for (const file of files) {
    const dest = path.join(root, ...file.path.split('/'));
    const dir = path.dirname(dest);
    if (!made.has(dir)) {
      fs.mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    fs.writeFileSync(dest, file.content);
  }
}
