/**
 * The Cluster API form itself: each phase's KubeadmControlPlane patch, applied
 * in walk order to the live object the previous patch left, gives machines the
 * kube-controller-manager the kubeadm form of the same phase gives.
 */
import { applyJsonPatch, bareKubeadmControlPlane, clusterApiPatch, kcpKcm } from './oracle/leader-migration/cluster-api';
import { CASES, renderPhases } from './helpers/rendered-phases';
import { controlPlaneKcm, RELEVANT, Tree } from './oracle/leader-migration/trees';
import { useTempDir } from './helpers';

const withValue = (f: string) => (f.includes('=') ? f : `${f}=true`);
/** The flags that decide leader election and the cloud controllers, `--leader-elect=true` (the default) left out. */
const relevant = (flags: readonly string[]) =>
  flags
    .map(withValue)
    .filter((f) => RELEVANT.test(f) && f !== '--leader-elect=true')
    .filter((f, i, all) => all.indexOf(f) === i)
    .sort()
    .join(' ');

describe('Cluster API v1beta1 patches applied in walk order', () => {
  const tmp = useTempDir();

  test('a failed test operation refuses the whole patch', () => {
    // GIVEN a patch whose test does not hold
    const r = applyJsonPatch({ a: { b: '1' } }, [
      { op: 'add', path: '/a/c', value: '2' },
      { op: 'test', path: '/a/b', value: '3' },
    ]);
    // THEN nothing of it applies
    expect(r).toEqual({ ok: false, error: 'test /a/b failed' });
  });

  test('patches that only add (their test and remove operations dropped) leave leader migration on the external KCMs', () => {
    // GIVEN the AWS phases' patches reduced to their add operations, applied forward from in-tree
    const c = CASES.find((x) => x.name === 'kubernetes AWS 1.26 (DaemonSet, rolling)')!;
    const trees = renderPhases(c, tmp());
    let kcp = bareKubeadmControlPlane();
    for (const phase of ['in-tree', 'leader-migration-kcm', 'leader-migration-ccm', 'external-leader-migration']) {
      kcp = (
        applyJsonPatch(
          kcp,
          clusterApiPatch(trees.get(phase)!.controlPlane!).filter((op) => op.op === 'add'),
        ) as { value: any }
      ).value;
    }
    // WHEN the machines of external-leader-migration start THEN they differ from the kubeadm form: leader migration is still on
    const got = relevant(kcpKcm(kcp).flags);
    expect(got).toContain('--enable-leader-migration=true');
    expect(relevant(controlPlaneKcm(trees.get('external-leader-migration')!.controlPlane!).flags)).not.toContain('--enable-leader-migration');
  });

  const cases = CASES.filter((c) => c.name.startsWith('kubernetes') && !c.name.includes('RKE2'));
  test.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    // GIVEN every phase rendered; the machines start as the in-tree patch's additions leave them
    const trees = renderPhases(c, tmp());
    const phases = [...trees.keys()];
    const inTree = clusterApiPatch(trees.get('in-tree')!.controlPlane!);
    const start = (
      applyJsonPatch(
        bareKubeadmControlPlane(),
        inTree.filter((op) => op.op === 'add'),
      ) as { value: any }
    ).value;
    // each patch is written for the change into its phase from the one before it; in-tree's for the way back from leader-migration-kcm
    const routes = [phases.slice(1), ...(trees.get('leader-migration-kcm')?.plan.rollback ? [['leader-migration-kcm', 'in-tree']] : [])];
    const failures: string[] = [];
    let kcp = start;
    for (const [n, phase] of routes.flatMap((route, i) => route.map((p) => [i, p] as const))) {
      const t: Tree = trees.get(phase)!;
      // WHEN the phase's patch is applied to the KubeadmControlPlane the previous one of its route left
      if (phase === routes[n][0]) {
        kcp = start;
      }
      const r = applyJsonPatch(kcp, clusterApiPatch(t.controlPlane!));
      if (!r.ok) {
        failures.push(`route ${n + 1}, ${phase}: ${r.error}`);
        continue;
      }
      kcp = r.value;
      // THEN its machines run the KCM of the phase's kubeadm form: the same relevant flags, the same file
      const expected = controlPlaneKcm(t.controlPlane!);
      const got = kcpKcm(kcp);
      // (--allocate-node-cidrs is the cluster's own: the kubeadm form's prose tells it, the patch leaves it alone)
      if (relevant(got.flags) !== relevant(expected.flags.filter((f) => !f.startsWith('--allocate-node-cidrs=')))) {
        failures.push(`route ${n + 1}, ${phase}: flags ${relevant(got.flags)} ≠ ${relevant(expected.flags)}`);
      }
      if (got.file !== expected.file) {
        failures.push(`route ${n + 1}, ${phase}: file ${got.file === undefined ? 'absent' : 'differs'}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
