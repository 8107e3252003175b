/**
 * Whole walks through the rendered phases: forward, back and mixed, each change
 * starting from the live state (objects, KCM, OpenShift override) the previous
 * one left, on every case of an in-tree past, in place and as Cluster API rolls.
 */
import { formatViolation, simulate } from './oracle/leader-migration/simulator';
import { CASES, renderPhases, unexplained, walk, walksOf } from './helpers/rendered-phases';
import { TreeScenarioOptions } from './oracle/leader-migration/trees';
import { useTempDir } from './helpers';

describe('whole walks carry the live state from one change into the next', () => {
  const tmp = useTempDir();

  test('the walks turn around at every phase', () => {
    // GIVEN four phases WHEN the walks are built THEN one goes there and back, the other turns back once after each step forward
    expect(walksOf(['a', 'b', 'c', 'd'], () => true)).toEqual([
      ['a', 'b', 'c', 'd', 'c', 'b', 'a'],
      ['a', 'b', 'a', 'b', 'c', 'b', 'c', 'd', 'c', 'b', 'a'],
    ]);
    // AND a phase without a rollback is never left backwards
    expect(walksOf(['a', 'b', 'c', 'd'], (p) => p !== 'c')).toEqual([
      ['a', 'b', 'c', 'd', 'c'],
      ['a', 'b', 'a', 'b', 'c', 'd', 'c'],
    ]);
  });

  test.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    // GIVEN every phase of the case rendered by synth
    const trees = renderPhases(c, tmp());
    const phases = [...trees.keys()];
    type Form = [string, Partial<TreeScenarioOptions>];
    const clusterApi: Form[] =
      c.name.startsWith('kubernetes') && !c.name.includes('RKE2') ? [[' (Cluster API)', { kcmRollout: 'scale-up-first' }]] : [];
    const forms: Form[] = [['', {}], ...clusterApi];
    const failures: string[] = [];
    // WHEN each walk replays change after change from the state the last one left
    for (const w of walksOf(phases, (p) => Boolean(trees.get(p)!.plan.rollback))) {
      for (const [form, extra] of forms) {
        for (const [label, sc] of walk(c, trees, w, extra)) {
          failures.push(...simulate(sc).violations.map((v) => `${w.join(' → ')}${form}, at ${label}: ${formatViolation(v)}`));
        }
      }
    }
    // THEN no controller ever runs twice, and each runs exactly once whenever a change settles (a known disagreement aside)
    expect(unexplained(c, failures)).toEqual([]);
  });

  test("kubernetes AWS 1.26 on RKE2: the routes RKE2's in-tree KCM programs go to the CCM", () => {
    // GIVEN the RKE2 case's forward walk to external (its KCM always allocates node CIDRs)
    const c = CASES.find((x) => x.name === 'kubernetes AWS 1.26 on RKE2')!;
    const trees = renderPhases(c, tmp());
    const failures = walk(c, trees, [...trees.keys()]).flatMap(([label, sc]) =>
      simulate(sc).violations.map((v) => `${label}: ${formatViolation(v)}`),
    );
    // THEN no change leaves the route controller running nowhere
    expect(failures).toEqual([]);
    expect(c.disagreement).toBeUndefined();
  });

  test('a walk refuses a change between phases that are not adjacent', () => {
    // GIVEN the rendered phases of a kubernetes case
    const c = CASES.find((x) => x.name === 'kubernetes AWS 1.26 (DaemonSet, rolling)')!;
    const trees = renderPhases(c, tmp());
    // WHEN a walk skips a phase THEN it is refused with the two phases named
    expect(() => walk(c, trees, ['in-tree', 'leader-migration-ccm'])).toThrow(
      'in-tree → leader-migration-ccm is not a change between adjacent phases of kubernetes AWS 1.26 (DaemonSet, rolling)',
    );
  });
});
