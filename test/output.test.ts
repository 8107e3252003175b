import * as fs from 'fs';
import * as path from 'path';
import { OUTPUT_MARKER, writeTreeAtomically } from '../src/pipeline/output';
import { UserError } from '../src/util/user-error';
import { readTree, useTempDir } from './helpers';

const dir = useTempDir();
let root: string;
beforeEach(() => {
  root = dir();
});

describe('atomic output', () => {
  test('writes the tree with its marker and replaces the previous tree as a whole', () => {
    const out = path.join(root, 'dist');
    writeTreeAtomically(out, [
      { path: 'a/one.yaml', content: '1' },
      { path: 'a/two.yaml', content: '2' },
    ]);
    writeTreeAtomically(out, [{ path: 'b/three.yaml', content: '3' }]);
    expect(Object.keys(readTree(out)).sort()).toEqual([OUTPUT_MARKER, 'b/three.yaml']);
    expect(fs.readdirSync(root)).toEqual(['dist']);
  });

  test('a failure while writing leaves the previous tree exactly as it was and no staging directory', () => {
    const out = path.join(root, 'dist');
    writeTreeAtomically(out, [{ path: 'a/one.yaml', content: '1' }]);
    const before = readTree(out);
    expect(() =>
      writeTreeAtomically(out, [
        { path: 'ok.yaml', content: 'x' },
        { path: '../escape.yaml', content: 'x' },
      ]),
    ).toThrow('internal error: unsafe output path "../escape.yaml"');
    expect(readTree(out)).toEqual(before);
    expect(fs.readdirSync(root)).toEqual(['dist']);
  });

  test('refuses to replace a non-empty directory it did not write', () => {
    const out = path.join(root, 'home');
    fs.mkdirSync(out);
    fs.writeFileSync(path.join(out, 'precious.txt'), 'keep');
    expect(() => writeTreeAtomically(out, [])).toThrow(expect.objectContaining({ kind: 'output' }) as UserError);
    expect(() => writeTreeAtomically(out, [])).toThrow(
      `refusing to replace ${out}: it is not empty and was not written by ccm-gitops (no .ccm-gitops file); remove it or pass another --out`,
    );
    expect(fs.readFileSync(path.join(out, 'precious.txt'), 'utf8')).toBe('keep');
  });

  test('a run killed between the two renames is repaired by the next run', () => {
    const out = path.join(root, 'dist');
    writeTreeAtomically(out, [{ path: 'a.yaml', content: 'old' }]);
    // GIVEN the previous tree renamed away by a process that no longer exists, and its staging left behind
    fs.renameSync(out, path.join(root, '.dist.old-999999999'));
    fs.mkdirSync(path.join(root, '.dist.new-999999999'));
    // WHEN the next run starts
    writeTreeAtomically(out, [{ path: 'b.yaml', content: 'new' }]);
    // THEN the leftovers are gone and the new tree is in place
    expect(fs.readdirSync(root)).toEqual(['dist']);
    expect(readTree(out)['b.yaml']).toBe('new');
  });
});
