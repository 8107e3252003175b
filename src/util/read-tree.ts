import * as fs from 'fs';
import * as path from 'path';

/** Every file below a folder, hidden ones included: path with `/` separators -> content, in sorted order. */
export function readTreeFiles(dir: string): Map<string, string> {
  const tree = new Map<string, string>();
  const walk = (d: string, rel: string): void => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const full = path.join(d, entry.name);
      const relPath = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        walk(full, relPath);
      } else if (entry.isFile()) {
        tree.set(relPath, fs.readFileSync(full, 'utf8'));
      }
    }
  };
  walk(dir, '');
  return tree;
}

/** A unit's files (a top-level folder of an output) as rendered files: paths relative to the output, `/`-separated, sorted. */
export function readUnitFiles(out: string, unit: string): { path: string; content: string }[] {
  return [...readTreeFiles(path.join(out, unit))].map(([p, content]) => ({ path: `${unit}/${p}`, content }));
}
