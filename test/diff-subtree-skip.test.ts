import * as path from 'path';
import { runCli } from '../src/cli';
import { diffTrees } from '../src/diff/diff-trees';
import { readChangedTrees, readTreeFiles, withoutIdenticalUnits } from '../src/diff/load-tree';
import { diffMarkdown } from '../src/diff/markdown';
import { awsSpec, captureIo, useTempDir, writeFile } from './helpers';

// Diff of two large trees skips identical cluster folders; the report must not change.
const dir = useTempDir();

test('skipping identical cluster folders gives the same diff as comparing the whole trees', () => {
  // GIVEN two renders of five clusters, one cluster changed, one added and one removed
  const render = (name: string, specs: Record<string, Record<string, unknown>>) => {
    for (const [file, spec] of Object.entries(specs)) {
      writeFile(path.join(dir(), `${name}-clusters`), file, spec);
    }
    expect(runCli(['synth', '-c', path.join(dir(), `${name}-clusters`), '-o', path.join(dir(), name), '-q'], captureIo().io, {})).toBe(0);
    return path.join(dir(), name);
  };
  const common = { 'a.yaml': awsSpec('a'), 'b.yaml': awsSpec('b'), 'c.yaml': awsSpec('c') };
  const base = render('base', { ...common, 'd.yaml': awsSpec('d'), 'e.yaml': awsSpec('e') });
  const head = render('head', { ...common, 'd.yaml': awsSpec('d', { controlPlaneTopology: 'SingleReplica' }), 'f.yaml': awsSpec('f') });
  // WHEN they are compared whole, and with identical folders skipped (on disk, and in memory)
  const whole = diffMarkdown(diffTrees(readTreeFiles(base), readTreeFiles(head)));
  const [b, h] = readChangedTrees(base, head);
  // THEN the reports are identical, and the skipped trees hold no file of a, b or c
  expect(diffMarkdown(diffTrees(b, h))).toBe(whole);
  expect(diffMarkdown(diffTrees(...withoutIdenticalUnits(readTreeFiles(base), readTreeFiles(head))))).toBe(whole);
  expect([...b.keys(), ...h.keys()].filter((p) => /^[abc]\//.test(p))).toEqual([]);
  expect(whole).toContain('`aws/d` PodDisruptionBudget');
});
