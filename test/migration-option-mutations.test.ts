/**
 * The options end to end: a custom `leaderName`, the lease Role in the lease
 * namespace, the CCM's `--cluster-cidr` and the rollback's KCM roll, each broken
 * in the rendered trees, fail the simulator itself on a whole walk.
 */
import { simulate } from './oracle/leader-migration/simulator';
import { CASES, renderPhases, transitions, walk } from './helpers/rendered-phases';
import { ccmWorkload, Tree, TreeScenarioOptions } from './oracle/leader-migration/trees';
import { tempDir } from './helpers';

const DEFAULT_LEASE = 'cloud-provider-extraction-migration';
const FORWARD = ['in-tree', 'leader-migration-kcm', 'leader-migration-ccm', 'external-leader-migration', 'external'];

const caseOf = (name: string) => CASES.find((c) => c.name === name)!;
// renderPhases renders a case once per test file and hands each caller its own map
const phasesOf = (name: string): Map<string, Tree> => renderPhases(caseOf(name), tempDir());

/** Each tree with every object `edit` returns changed (a deep copy is edited). */
function mutateObjects(trees: Map<string, Tree>, edit: (key: string, o: any) => unknown): number {
  let changed = 0;
  for (const [phase, t] of trees) {
    const objects = new Map(t.objects);
    for (const [k, o] of t.objects) {
      const out = edit(k, JSON.parse(JSON.stringify(o)));
      if (out !== undefined) {
        objects.set(k, out);
        changed++;
      }
    }
    trees.set(phase, { ...t, objects });
  }
  return changed;
}

/** The violations (`kind controller`) of a walk through those of `phases` the case renders. */
function walkViolations(name: string, trees: Map<string, Tree>, phases: readonly string[], extra: Partial<TreeScenarioOptions> = {}): string[] {
  const rendered = phases.filter((p) => trees.has(p));
  return [
    ...new Set(walk(caseOf(name), trees, rendered, extra).flatMap(([, sc]) => simulate(sc).violations.map((v) => `${v.kind} ${v.controller}`))),
  ];
}

describe('each option broken in the rendered trees fails the simulator on a whole walk', () => {
  test.each(['kubernetes AWS 1.26 with a custom leaderName', 'OpenShift AWS 4.13 with a custom leaderName'])(
    "%s: the CCM's leader-migration file ignoring the custom leaderName leaves the cloud controllers to nobody",
    (name) => {
      // GIVEN the CCM's leader-migration ConfigMap naming the default lease, while the KCMs' file names the custom one
      const trees = phasesOf(name);
      const changed = mutateObjects(trees, (k, o) =>
        k.startsWith('ConfigMap ') && /leaderName: aws-handover/.test(o.data?.['config.yaml'] ?? '')
          ? { ...o, data: { ...o.data, 'config.yaml': o.data['config.yaml'].replace('leaderName: aws-handover', `leaderName: ${DEFAULT_LEASE}`) } }
          : undefined,
      );
      expect(changed).toBeGreaterThan(0);
      // WHEN the walk goes forward to external
      const v = walkViolations(name, trees, FORWARD);
      // THEN the CCM contends for a lease its Role (which follows leaderName) does not grant: it never holds it,
      // and what the KCMs handed over under "aws-handover" runs nowhere
      expect(v).toEqual(expect.arrayContaining(['none-after-settling service', 'none-after-settling cloud-node-lifecycle']));
    },
  );

  test('OpenShift: the lease Role in kube-system hard-coding the default lease name leaves the cloud controllers to nobody', () => {
    // GIVEN the Role that grants the CCM the migration lease naming the default lease, the lease being "aws-handover"
    const name = 'OpenShift AWS 4.13 with a custom leaderName';
    const trees = phasesOf(name);
    const changed = mutateObjects(trees, (k, o) =>
      k.startsWith('Role kube-system/') && (o.rules ?? []).some((r: any) => (r.resourceNames ?? []).includes('aws-handover'))
        ? {
            ...o,
            rules: o.rules.map((r: any) => ({
              ...r,
              resourceNames: (r.resourceNames ?? []).map((n: string) => (n === 'aws-handover' ? DEFAULT_LEASE : n)),
            })),
          }
        : undefined,
    );
    expect(changed).toBeGreaterThan(0);
    // WHEN the walk goes forward to external
    const v = walkViolations(name, trees, FORWARD);
    // THEN the CCM's renew of "aws-handover" is forbidden: it never holds it, and what the KCMs handed over runs nowhere
    expect(v).toEqual(expect.arrayContaining(['none-after-settling service', 'none-after-settling cloud-node-lifecycle']));
  });

  test('GCP: the CCM rendered without --cluster-cidr exits when its node IPAM starts, and node IPAM runs nowhere', () => {
    // GIVEN the GCP CCM that takes node IPAM over, its --cluster-cidr dropped
    const name = 'kubernetes GCP 1.28 with node IPAM and routes';
    const trees = phasesOf(name);
    const drop = (xs: string[] | undefined) => xs?.filter((a) => !a.startsWith('--cluster-cidr='));
    const changed = mutateObjects(trees, (_k, o) => {
      if (o !== undefined && (o.kind === 'Deployment' || o.kind === 'DaemonSet') && ccmWorkload(new Map([['w', o]])) === o) {
        const c = o.spec.template.spec.containers[0];
        o.spec.template.spec.containers[0] = { ...c, args: drop(c.args), command: drop(c.command) };
        return o;
      }
      return undefined;
    });
    expect(changed).toBeGreaterThan(0);
    // WHEN the walk goes forward to external
    const v = walkViolations(name, trees, FORWARD);
    // THEN nothing allocates node CIDRs once the KCMs have handed node IPAM over
    expect(v).toEqual(expect.arrayContaining(['none-after-settling node-ipam']));
  });

  test.each([
    ['static pods', {}],
    ['Cluster API', { kcmRollout: 'scale-up-first' as const }],
  ])('%s: the rollback of external-leader-migration without its KCM roll leaves no cloud controller one change later', (_form, extra) => {
    // GIVEN external-leader-migration's rollback without the step that switches the KCMs back to the in-tree provider
    const name = 'kubernetes AWS 1.26 (DaemonSet, rolling)';
    const trees = phasesOf(name);
    const elm = trees.get('external-leader-migration')!;
    const steps = elm.plan.rollback.steps.filter((s: any) => !/CONTROL-PLANE\.md/.test(s.by));
    expect(steps.length).toBeLessThan(elm.plan.rollback.steps.length);
    trees.set('external-leader-migration', { ...elm, plan: { ...elm.plan, rollback: { ...elm.plan.rollback, steps } } });
    // WHEN the walk goes leader-migration-ccm → external-leader-migration → back → back
    const v = walkViolations(
      name,
      trees,
      ['leader-migration-ccm', 'external-leader-migration', 'leader-migration-ccm', 'leader-migration-kcm'],
      extra,
    );
    // THEN the KCMs stay external when the CCM is removed: the cloud controllers run nowhere
    expect(v).toEqual(expect.arrayContaining(['none-after-settling service', 'none-after-settling cloud-node-lifecycle']));
    // AND no single change replayed from its own rendering shows it: only the walk carries the KCM that was not rolled back
    const single = transitions(caseOf(name), trees, extra).filter(([l]) => l === 'external-leader-migration → leader-migration-ccm');
    expect(single.flatMap(([, sc]) => simulate(sc).violations)).toEqual([]);
  });
});
