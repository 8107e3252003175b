/**
 * The simulator driven by what `ccm-gitops synth` actually writes: each phase
 * change is the difference of two rendered trees (what Argo CD / Flux apply
 * and prune at merge), the CCM as its rendered workload runs with the files it
 * mounts, the KCM as the rendered control-plane change makes it (CONTROL-PLANE.md;
 * on OpenShift the FeatureGate, the MachineConfig and the override commands),
 * stepped through the plan's `enter` (forward) and `rollback` (back).
 */
import { flagMap, formatViolation, leaseTimings, simulate } from './oracle/leader-migration/simulator';
import { OPENSHIFT_CCM_BASE } from './oracle/leader-migration/scenario';
import { ccmProcess, ccmWorkload, controlPlaneKcm, openshiftKcm, treeDiff } from './oracle/leader-migration/trees';
import { migrationTargetFor } from '../src/pipeline/migration-rendering';
import { CASES, renderPhases, transitions, unexplained } from './helpers/rendered-phases';
import { parsedSpec, useTempDir } from './helpers';

describe('the simulator on the rendered output: every phase change forward and back', () => {
  const tmp = useTempDir();

  test('the cases cover both distributions and every platform with a migration', () => {
    // OpenShift renders the CCM phases of a migration on AWS and GCP only (Azure, OpenStack and vSphere are refused there before 4.22)
    const distributions = (p: string) => CASES.filter((c) => c.platform === p).map((c) => c.name.split(' ')[0]);
    for (const p of ['AWS', 'Azure', 'GCP', 'OpenStack', 'VSphere']) {
      expect(distributions(p)).toContain('kubernetes');
    }
    for (const p of ['AWS', 'GCP']) {
      expect(distributions(p)).toContain('OpenShift');
    }
  });

  test.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    // GIVEN each phase rendered by synth
    const trees = renderPhases(c, tmp());
    for (const t of trees.values()) {
      const ccm = ccmProcess(t.objects);
      // the pure model of the OpenShift CCM flags is the rendered one (--controllers aside)
      if (c.name.startsWith('OpenShift') && ccm && !ccm.file) {
        expect(ccm.flags.filter((f) => !f.startsWith('--controllers='))).toEqual(OPENSHIFT_CCM_BASE);
      }
      // CONTROL-PLANE.md carries the plan's KCM flags and file (it may add what the prose tells the administrator)
      if (t.controlPlane) {
        const kcm = t.plan.components.find((x: any) => x.component === 'kube-controller-manager');
        const kcmFile = t.plan.leaderMigration?.configurations.find((x: any) => x.component === 'kube-controller-manager')?.file;
        const cp = controlPlaneKcm(t.controlPlane);
        expect(cp.file).toBe(kcmFile);
        const withValue = (f: string) => (f.includes('=') ? f : `${f}=true`);
        expect(cp.flags.map(withValue)).toEqual(expect.arrayContaining(kcm.flags.map(withValue)));
      }
    }
    // WHEN every phase change runs from one tree to the next, forward and back
    const failures: string[] = [];
    // the kubernetes KCMs change by static pod (in place) or by Cluster API (a new machine joins before an old one leaves)
    const moves = [
      ...transitions(c, trees),
      ...(c.name.startsWith('kubernetes') && !c.name.includes('RKE2')
        ? transitions(c, trees, { kcmRollout: 'scale-up-first' }).map(([l, sc]) => [`${l} (Cluster API)`, sc] as [string, typeof sc])
        : []),
    ];
    for (const [label, sc] of moves) {
      failures.push(...simulate(sc).violations.map((v) => `${label}: ${formatViolation(v)}`));
    }
    // THEN no controller ever runs twice, and each runs exactly once when the change settles (a known disagreement aside)
    expect(unexplained(c, failures)).toEqual([]);
    expect(moves.length).toBeGreaterThanOrEqual(trees.size - 1);
  });

  test("the rendered CCMs run lease timings client-go accepts; the OpenShift CCM's are its own (137s, 107s, 26s)", () => {
    // GIVEN every case's last phase; WHEN its CCM's timing flags are read
    for (const c of CASES) {
      const trees = renderPhases(c, tmp());
      const ccm = ccmProcess([...trees.values()].pop()!.objects)!;
      const t = leaseTimings(flagMap(ccm.flags));
      // THEN they are valid, and OpenShift's are the rendered ones, not the defaults
      expect([c.name, t.valid]).toEqual([c.name, true]);
      if (c.name.startsWith('OpenShift')) {
        expect([t.leaseDuration, t.renewDeadline, t.retryPeriod]).toEqual([137, 107, 26]);
      }
    }
    // the KCM's defaults (kubernetes/component-base@v0.30.0 config/v1alpha1/defaults.go) are valid as well, and so are the OpenShift operator's
    expect(leaseTimings(new Map())).toEqual({ leaseDuration: 15, renewDeadline: 10, retryPeriod: 2, valid: true });
    expect(leaseTimings(flagMap(openshiftKcm(new Map(), { inTreeProvider: 'aws', override: { on: false } }).flags))).toEqual({
      leaseDuration: 15,
      renewDeadline: 12,
      retryPeriod: 3,
      valid: true,
    });
  });

  test('OpenShift: the CCM workload a phase without a CCM names is the Deployment the later phases render', () => {
    for (const c of CASES.filter((x) => x.name.startsWith('OpenShift'))) {
      // GIVEN the OpenShift case's phases rendered; WHEN the migration target of its in-tree spec names the CCM workload
      const trees = renderPhases(c, tmp());
      const rendered = ccmWorkload([...trees.values()].pop()!.objects);
      const named = migrationTargetFor(parsedSpec(c.spec('in-tree'))).ccmWorkload;
      // THEN it is the rendered `<platform>-cloud-controller-manager` Deployment
      expect([c.name, named]).toEqual([c.name, `deployment/${rendered.metadata.name}`]);
    }
  });

  test('the merge keeps what carries the prune-disabled annotations: the MachineConfig outlives the tree that drops it', () => {
    // GIVEN OpenShift AWS external-leader-migration and external rendered
    const c = CASES.find((x) => x.name === 'OpenShift AWS 4.13')!;
    const trees = renderPhases(c, tmp());
    // WHEN the trees are compared
    const diff = treeDiff(trees.get('external-leader-migration')!.objects, trees.get('external')!.objects);
    // THEN the MachineConfig and nothing of the CCM is kept, the leader-migration ConfigMap is pruned
    expect(diff.kept).toEqual(['MachineConfig 99-master-kcm-leader-migration']);
    expect(diff.pruned).toContain('ConfigMap openshift-cloud-controller-manager/ccm-leader-migration');
    expect(diff.changed).toContain('Deployment openshift-cloud-controller-manager/aws-cloud-controller-manager');
  });
});
