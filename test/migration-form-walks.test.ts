/**
 * Whole walks on every control-plane form, for every provider with an in-tree
 * past: the administrator follows one form of CONTROL-PLANE.md change after
 * change (static pods, kubeadm, Cluster API v1beta1 and v1beta2 carried on the
 * live object, RKE2 started as the distribution starts it), forward and back
 * and mixed, and the simulator replays each change from the live state the one
 * before left. k3s has no in-tree phase (its KCM has no in-tree providers): its
 * external phase alone is replayed.
 */
import { clusterApiV1beta2Form, regenerateV1beta1 } from './helpers/cluster-api-v1beta2';
import { CASES, caseOptions, RenderCase, renderPhases, unexplained, walk, walksOf } from './helpers/rendered-phases';
import { clusterApiV1beta1Form, ControlPlaneForm, kubeadmForm, staticPodForm } from './oracle/leader-migration/forms';
import { formatViolation, simulate, SimScenario } from './oracle/leader-migration/simulator';
import { Tree, treeScenario, TreeScenarioOptions } from './oracle/leader-migration/trees';
import { kubernetesSpec, useTempDir } from './helpers';

const caseOf = (name: string) => CASES.find((c) => c.name === name)!;

/** A case rendered with `kubernetes` merged into its spec.kubernetes. */
function variant(c: RenderCase, name: string, kubernetes: Record<string, unknown>, extra: Partial<RenderCase> = {}): RenderCase {
  return {
    ...c,
    name,
    ...extra,
    spec: (phase) => {
      const spec = c.spec(phase) as any;
      spec.spec.kubernetes = { ...spec.spec.kubernetes, ...kubernetes };
      return spec;
    },
  };
}

/** One case per provider with an in-tree past, and the options: a custom leaderName, a custom lease namespace. */
const PROVIDERS: readonly RenderCase[] = [
  caseOf('kubernetes AWS 1.26 (DaemonSet, rolling)'),
  caseOf('kubernetes Azure 1.29'),
  caseOf('kubernetes GCP 1.28 with node IPAM and routes'),
  caseOf('kubernetes OpenStack 1.25'),
  caseOf('kubernetes vSphere 1.29'),
  caseOf('kubernetes AWS 1.26 with a custom leaderName'),
  {
    // the KCMs already elect in cloud-migration (their own flag); the CCM runs there, both leases are there
    ...caseOf('kubernetes AWS 1.26 (DaemonSet, rolling)'),
    name: 'kubernetes AWS 1.26 with a custom lease namespace',
    kcmBase: ['--allocate-node-cidrs=false', '--leader-elect-resource-namespace=cloud-migration'],
    spec: (phase) =>
      kubernetesSpec(
        'AWS',
        'c',
        { version: '1.26', namespace: 'cloud-migration' },
        { migration: { phase, kubernetesVersion: '1.26', leaseNamespace: 'cloud-migration' } },
      ),
  },
];

/** The case rendered for a v1beta2 ClusterResourceSet: only its CONTROL-PLANE.md is read. */
const v1beta2Of = (c: RenderCase) =>
  variant(c, `${c.name} (v1beta2)`, { output: { mode: 'cluster-resource-set', clusterResourceSet: { apiVersion: 'v1beta2' } } });

/**
 * OpenStack and vSphere program routes only with cloud setup the product cannot see (Neutron extraroute, NSX-T routerPath):
 * the product accepts their RKE2 migrations without configureCloudRoutes, while the simulator has their in-tree KCM run routes.
 */
const ROUTES_WITH_CLOUD_SETUP: RenderCase['disagreement'] = {
  violation: /: route runs nowhere after the change settled/,
  why: "RKE2's in-tree KCM runs the route controller; the OpenStack and vSphere CCMs program routes only with cloud setup, which the product cannot check",
};

/** RKE2 on each provider (AWS is a case of its own). */
const RKE2: readonly RenderCase[] = [
  caseOf('kubernetes AWS 1.26 on RKE2'),
  ...['kubernetes Azure 1.29', 'kubernetes OpenStack 1.25', 'kubernetes vSphere 1.29'].map((n) =>
    variant(
      caseOf(n),
      `${n} on RKE2`,
      // Azure: the routes RKE2's in-tree KCM programs go to the CCM (the product refuses the migration otherwise)
      { scheduling: { preset: 'rke2' }, ...(n.includes('Azure') ? { configureCloudRoutes: true, clusterCIDR: ['10.42.0.0/16'] } : {}) },
      { kcmBase: [], ...(n.includes('Azure') ? {} : { disagreement: ROUTES_WITH_CLOUD_SETUP }) },
    ),
  ),
  variant(
    caseOf('kubernetes GCP 1.28 with node IPAM and routes'),
    'kubernetes GCP 1.28 on RKE2',
    { scheduling: { preset: 'rke2' } },
    { kcmBase: [] },
  ),
];

type FormOf = (trees: ReadonlyMap<string, Tree>, v1beta2: ReadonlyMap<string, Tree>, dir: string) => ControlPlaneForm;
const FORMS: readonly [string, FormOf, Partial<TreeScenarioOptions>][] = [
  ['static pod', (t) => staticPodForm(t), {}],
  ['kubeadm', (t) => kubeadmForm(t), {}],
  ['Cluster API v1beta1', (t, v, dir) => clusterApiV1beta1Form(t, regenerateV1beta1(v, dir)), { kcmRollout: 'scale-up-first' }],
  ['Cluster API v1beta2', (_t, v, dir) => clusterApiV1beta2Form(v, dir), { kcmRollout: 'scale-up-first' }],
];

/** Violations of each scenario, computed once per distinct scenario in this file (forms often give the same KCMs). */
const seen = new Map<string, string[]>();
function violationsOf(sc: SimScenario): string[] {
  const k = JSON.stringify(sc);
  let v = seen.get(k);
  if (!v) {
    v = simulate(sc).violations.map(formatViolation);
    seen.set(k, v);
  }
  return v;
}

/** Every walk of a case (forward and back, mixed) with one form: each failure names the walk, the change and the violation. */
function walkFailures(c: RenderCase, trees: ReadonlyMap<string, Tree>, extra: Partial<TreeScenarioOptions>): string[] {
  const failures: string[] = [];
  for (const w of walksOf([...trees.keys()], (p) => Boolean(trees.get(p)!.plan.rollback))) {
    try {
      for (const [label, sc] of walk(c, trees, w, extra)) {
        failures.push(...violationsOf(sc).map((v) => `${w.join(' → ')}, at ${label}: ${v}`));
      }
    } catch (e) {
      failures.push(`${w.join(' → ')}: ${(e as Error).message}`);
    }
  }
  return failures;
}

describe('whole walks on every control-plane form, for every provider with an in-tree past', () => {
  const tmp = useTempDir();

  const rows = PROVIDERS.flatMap((c) => FORMS.map(([form, formOf, extra]) => [`${c.name}: ${form}`, c, formOf, extra] as const));
  test.each(rows)('%s', (_name, c, formOf, extra) => {
    // GIVEN every phase rendered by synth (and for a v1beta2 ClusterResourceSet)
    const trees = renderPhases(c, tmp());
    const v1beta2 = renderPhases(v1beta2Of(c), tmp());
    // WHEN the administrator follows the form through each walk, the simulator replaying every change
    const failures = walkFailures(c, trees, { ...extra, form: formOf(trees, v1beta2, tmp()) });
    // THEN no controller ever runs twice, and each runs exactly once whenever a change settles
    expect(failures).toEqual([]);
  });

  test('kubernetes GCP 1.28 with node IPAM, static pods: walking back from external-leader-migration restores node IPAM in the KCM', () => {
    const c = caseOf('kubernetes GCP 1.28 with node IPAM and routes');
    const trees = renderPhases(c, tmp());
    expect(walkFailures(c, trees, { form: staticPodForm(trees) })).toEqual([]);
  });

  test.each(RKE2.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    // GIVEN every phase of the RKE2 cluster; WHEN each walk replays its server configurations as RKE2 starts the KCM
    const trees = renderPhases(c, tmp());
    // THEN nothing runs twice or nowhere (the known disagreement aside)
    expect(unexplained(c, walkFailures(c, trees, {}))).toEqual([]);
  });

  test.each([
    ['AWS', '1.26', {}],
    ['OpenStack', '1.25', { clusterName: 'kubernetes' }],
  ] as const)('k3s %s: the external phase (the only one k3s has) runs each cloud controller once, in the CCM', (platform, version, kubernetes) => {
    // GIVEN the k3s cluster in phase external
    const c: RenderCase = {
      ...caseOf('kubernetes AWS 1.26 (DaemonSet, rolling)'),
      name: `k3s ${platform}`,
      platform,
      kcmBase: [],
      spec: () =>
        kubernetesSpec(
          platform,
          'c',
          { version, scheduling: { preset: 'k3s' }, ...kubernetes },
          { migration: { phase: 'external', kubernetesVersion: version } },
        ),
    };
    const t = renderPhases(c, tmp()).get('external')!;
    // WHEN the k3s server starts its KCM from the configuration and the CCM runs
    const sc = treeScenario(t, t, [], caseOptions(c));
    // THEN the k3s KCM runs none of the cloud controllers (node IPAM aside) and the CCM runs each once
    expect(sc.kcm.flags).toEqual(expect.arrayContaining(['--cloud-provider=external', '--allocate-node-cidrs=true']));
    expect(violationsOf(sc)).toEqual([]);
  });
});

describe('a form that leaves something behind fails the walk (the carried forms can fail)', () => {
  const tmp = useTempDir();

  /** The case's trees with each CONTROL-PLANE.md edited by `edit`. */
  function edited(c: RenderCase, edit: (text: string) => string): Map<string, Tree> {
    const trees = new Map(renderPhases(c, tmp()));
    for (const [phase, t] of trees) trees.set(phase, { ...t, controlPlane: edit(t.controlPlane!) });
    return trees;
  }
  const aws = caseOf('kubernetes AWS 1.26 (DaemonSet, rolling)');

  test('static pods: the external phases without their "remove --enable-leader-migration" lines leave the external KCMs contending for the migration lease', () => {
    // GIVEN the static-pod flags of every phase without the lines that drop leader migration
    const trees = edited(aws, (t) => t.replace(/^ {2}remove --(enable-leader-migration|leader-migration-config)\n/gm, ''));
    // WHEN the walks are replayed with the static-pod form
    const failures = walkFailures(aws, trees, { form: staticPodForm(trees) });
    // THEN once the KCMs are external the cloud controllers run nowhere
    expect(failures.length).toBeGreaterThan(0);
    expect(failures.join('\n')).toMatch(/service runs nowhere after the change settled/);
    // AND read whole, each phase's configuration hides it (the default form)
    expect(walkFailures(aws, trees, {})).toEqual([]);
  });

  test('kubeadm: the header without its removals leaves leader migration on the external KCMs', () => {
    // GIVEN the kubeadm configuration of every phase without the "remove … if present" lines
    const trees = edited(aws, (t) => t.replace(/^# kube-controller-manager: remove [^\n]*\n/gm, ''));
    // WHEN the walks are replayed with the kubeadm form THEN the cloud controllers run nowhere once the KCMs are external
    expect(walkFailures(aws, trees, { form: kubeadmForm(trees) }).join('\n')).toMatch(/service runs nowhere after the change settled/);
  });
});
