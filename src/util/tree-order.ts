import * as fs from 'fs';
import * as path from 'path';

const SLASH = 0x2f;

/**
 * The order of `/`-separated paths in a tree: segment by segment, each
 * segment in UTF-16 code unit order, so that the files of a folder come
 * together where the folder's name sorts among its siblings. Plain string
 * order differs where a name continues with a character below `/`: it puts
 * `a-b/x` before `a/x` (`-` is 0x2d), and so splits `a/` around `a-b/`.
 *
 * A walk that sorts each folder's names yields its files in this order
 * ({@link treeFiles}): a unit given a part at a time in this order can be
 * compared with the disk in one pass, and digested as it comes.
 */
export function byTreeOrder(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      return x === SLASH ? -1 : y === SLASH ? 1 : x < y ? -1 : 1;
    }
  }
  return a.length - b.length;
}

/**
 * Every file below a folder (anything not a folder; links are not followed),
 * as `prefix/relative/path`, in {@link byTreeOrder}; none when the folder
 * does not exist. Holds the names of one folder per level, not the list.
 */
export function* treeFiles(dir: string, prefix: string): Generator<string> {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      return;
    }
    throw e;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.isDirectory()) {
      yield* treeFiles(path.join(dir, entry.name), `${prefix}/${entry.name}`);
    } else {
      yield `${prefix}/${entry.name}`;
    }
  }
}
