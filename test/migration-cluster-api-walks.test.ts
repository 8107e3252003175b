/**
 * The Cluster API form itself: each phase's KubeadmControlPlane patch, applied
 * in walk order to the live object the previous patch left, gives machines the
 * kube-controller-manager the kubeadm form of the same phase gives. v1beta1
 * patches are printed for the object the previous phase left; v1beta2 ones
 * (a cluster rendering a v1beta2 ClusterResourceSet) are applied as printed
 * where the CRD accepts them, else regenerated from the live object with the
 * command CONTROL-PLANE.md prints.
 */
import {
  applyJsonPatch,
  bareKubeadmControlPlane,
  bareKubeadmControlPlaneV1beta2,
  clusterApiPatch,
  kcpKcm,
  kcpV1beta2Problems,
} from './oracle/leader-migration/cluster-api';
import { CASES, RenderCase, renderPhases } from './helpers/rendered-phases';
import { applyV1beta2Phase } from './helpers/cluster-api-v1beta2';
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

/** The case rendered for Cluster API v1beta2 (a v1beta2 ClusterResourceSet): only its CONTROL-PLANE.md is read. */
function v1beta2(c: RenderCase): RenderCase {
  return {
    ...c,
    name: `${c.name} (Cluster API v1beta2)`,
    spec: (phase) => {
      const spec = c.spec(phase) as any;
      spec.spec.kubernetes.output = { mode: 'cluster-resource-set', clusterResourceSet: { apiVersion: 'v1beta2' } };
      return spec;
    },
  };
}

/** One case per provider with an in-tree past, and the options case. */
const V1BETA2 = [
  'kubernetes AWS 1.26 (DaemonSet, rolling)',
  'kubernetes AWS 1.26 with a custom leaderName',
  'kubernetes GCP 1.28 with node IPAM and routes',
  'kubernetes OpenStack 1.25',
  'kubernetes vSphere 1.29',
  'kubernetes Azure 1.29',
].map((name) => v1beta2(CASES.find((c) => c.name === name)!));

/** The walk of one v1beta2 case: forward to the last phase, then back as far as rollbacks go, each patch applied to what the one before left. */
function v1beta2Walk(c: RenderCase, dir: string, cloudConfig?: string): { failures: string[]; used: Set<string> } {
  const trees = renderPhases(c, dir);
  const phases = [...trees.keys()];
  const back: string[] = [];
  for (let i = phases.length - 1; i > 0 && trees.get(phases[i])!.plan.rollback; i--) back.push(phases[i - 1]);
  const failures: string[] = [];
  const used = new Set<string>();
  let kcp = bareKubeadmControlPlaneV1beta2(cloudConfig);
  [...phases, ...back].forEach((phase, n) => {
    const t: Tree = trees.get(phase)!;
    // the administrator applies the phase's patch, or the one regenerated from the live object
    const r = applyV1beta2Phase(`${dir}/kcp-${n}`, kcp, t.controlPlane!);
    if (!r.ok) {
      failures.push(`${n}: ${phase}: ${r.error}`);
      return;
    }
    used.add(r.by);
    kcp = r.kcp;
    // its machines must run the KCM of the phase's kubeadm form: the same relevant flags, the same file
    const expected = controlPlaneKcm(t.controlPlane!);
    const got = kcpKcm(kcp);
    if (relevant(got.flags) !== relevant(expected.flags.filter((f) => !f.startsWith('--allocate-node-cidrs=')))) {
      failures.push(`${n}: ${phase}: flags ${relevant(got.flags)} ≠ ${relevant(expected.flags)}`);
    }
    if (got.file !== expected.file) {
      failures.push(`${n}: ${phase}: file ${got.file === undefined ? 'absent' : 'differs'}`);
    }
  });
  return { failures, used };
}

describe('Cluster API v1beta2 patches applied in walk order to a live KubeadmControlPlane', () => {
  const tmp = useTempDir();

  test('the CRD refuses a second extra arg of one name, an empty list, and an entry without its required fields', () => {
    // GIVEN a v1beta2 object with each fault
    const kcp = bareKubeadmControlPlaneV1beta2();
    const cc = kcp.spec.kubeadmConfigSpec.clusterConfiguration;
    cc.controllerManager.extraArgs.push({ name: 'bind-address', value: '127.0.0.1' });
    cc.apiServer.extraArgs = [];
    cc.controllerManager.extraVolumes = [{ name: 'x', hostPath: '/x' }];
    // WHEN validated THEN each is named
    expect(kcpV1beta2Problems(kcp)).toEqual([
      'clusterConfiguration.controllerManager.extraArgs: name must be unique (bind-address twice)',
      'clusterConfiguration.controllerManager.extraVolumes[0]: needs name, hostPath and mountPath',
      'clusterConfiguration.apiServer.extraArgs: must hold 1 to 100 entries',
    ]);
    // AND the bare object passes
    expect(kcpV1beta2Problems(bareKubeadmControlPlaneV1beta2('/etc/kubernetes/cloud.conf'))).toEqual([]);
  });

  test.each(V1BETA2.flatMap((c) => [[c.name, c, undefined] as const, [`${c.name}, a cloud.conf mounted`, c, '/etc/kubernetes/cloud.conf'] as const]))(
    '%s',
    (_name, c, cloudConfig) => {
      // GIVEN every phase rendered for a v1beta2 ClusterResourceSet; the machines start before any phase
      // WHEN the walk goes forward to the last phase and back
      const { failures, used } = v1beta2Walk(c, tmp(), cloudConfig);
      // THEN after each change the machines run the KCM of the phase's kubeadm form
      expect(failures).toEqual([]);
      // AND the walk needed the regenerated patch (the printed one holds for lists without these names only)
      expect(used).toContain('regenerated');
    },
  );

  test('kubernetes GCP 1.28 with node IPAM: the walk back from external-leader-migration restores node IPAM in the KCM', () => {
    const c = V1BETA2.find((x) => x.name.startsWith('kubernetes GCP 1.28'))!;
    expect(v1beta2Walk(c, tmp()).failures).toEqual([]);
  });
});
