import * as os from 'os';
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

describe('the render pool by default', () => {
  test('GIVEN no --jobs WHEN synth picks its threads on this machine THEN it uses one per core', () => {
    expect(defaultJobs()).toBe(Math.max(1, os.availableParallelism()));
  });

  test.each([
    [1, 1],
    [2, 2],
    [8, 8],
  ])('GIVEN %i cores and no --jobs WHEN synth picks its threads THEN it uses %i (one per core; 1 renders on the main thread)', (cores, jobs) => {
    // on an idle 2-core machine the workers take a third off a full synth's wall time (docs/performance.md)
    expect(defaultJobs(cores)).toBe(jobs);
  });

  test('GIVEN two cores WHEN the fleet is large enough THEN it renders in parallel without --jobs; a small fleet stays on the main thread', () => {
    expect(canRenderInParallel(defaultJobs(2), 64)).toBe(true);
    expect(canRenderInParallel(defaultJobs(2), 63)).toBe(false);
  });
});
