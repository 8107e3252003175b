import * as path from 'path';
import { OutputTree } from '../src/pipeline/output';
import { canRenderInParallel, defaultJobs } from '../src/pipeline/render-pool';
import { synthesizeInto, synthesizeIntoAsync } from '../src/pipeline/synth';
import { awsSpec, readTree, useTempDir, writeFile } from './helpers';

// The render pool in this process, its workers running the TypeScript source
// (compiled as they load it): what the CLI does with --jobs 2, without lib/.

const dir = useTempDir();

/** A fleet of `count` AWS clusters. */
function fleet(root: string, count: number): string {
  const clusters = path.join(root, 'clusters');
  for (let i = 0; i < count; i++) {
    const name = `c${String(i).padStart(2, '0')}`;
    writeFile(clusters, `${name}.yaml`, awsSpec(name, { aws: { region: i % 2 === 0 ? 'us-east-1' : 'eu-west-1' } }));
  }
  return clusters;
}

describe('the render pool, run from the source', () => {
  test('two workers write the bytes the main thread writes, and a second run finds the output up to date', async () => {
    // GIVEN a fleet of 20 clusters (two workers: 16 to a batch)
    const root = dir();
    const clusters = fleet(root, 20);
    expect(canRenderInParallel(2, 20, true)).toBe(true);
    const serial = path.join(root, 'serial');
    const serialTree = OutputTree.open(serial);
    synthesizeInto({ clusters, out: serial }, serialTree);
    serialTree.commit();
    // WHEN it is rendered by two workers, then rendered again with nothing changed
    const parallel = path.join(root, 'parallel');
    const tree = OutputTree.open(parallel);
    const summary = await synthesizeIntoAsync({ clusters, out: parallel, jobs: 2 }, tree);
    const written = tree.commit().written;
    const again = OutputTree.open(parallel);
    await synthesizeIntoAsync({ clusters, out: parallel, jobs: 2 }, again);
    // THEN the trees are byte-identical, every cluster was rendered once, and the second run writes nothing
    expect(readTree(parallel)).toEqual(readTree(serial));
    expect(summary.rendered).toHaveLength(20);
    expect(written).toBeGreaterThan(20);
    expect(again.commit().written).toBe(0);
  }, 120_000);
});

describe('the render pool is opt-in', () => {
  test('GIVEN no --jobs WHEN synth picks its threads THEN it renders on the main thread (1), whatever the cores; a fleet of any size renders in parallel only with --jobs N', () => {
    // on 2 cores the pool cost CPU on every figure and won no wall time beyond the spread (docs/performance.md)
    expect(defaultJobs()).toBe(1);
    expect(canRenderInParallel(defaultJobs(), 10_000)).toBe(false);
    expect(canRenderInParallel(2, 10_000)).toBe(canRenderInParallel(2, 20, true));
  });
});
