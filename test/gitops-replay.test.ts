/**
 * Every change of state replayed through the Argo CD and Flux models, object by object, from the rendered trees:
 * each migration phase forward and back on both distributions, a z-stream update, and a cluster added (at any
 * phase) or removed. At every intermediate state the replay checks that no running CCM lost a lease it renews,
 * that no workload rolls without what its pods need, and that some CCM runs where both trees run one.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'yaml';
import { runCli } from '../src/cli';
import { loadFleet } from '../src/fleet/load';
import { renderCluster } from '../src/pipeline/render';
import { AppState, appState, argoSync, applicationSyncOptions, deleteApplication, rootReconcile, setSyncPolicyNone } from './oracle/argocd/sync';
import { fluxReplay, orphans } from './oracle/flux/kustomize-controller';
import { ccmLeases, fromArgo, fromFlux, Hazard, replayHazards, stageObjects } from './oracle/gitops/replay';
import { captureIo, kubernetesSpec, platformSpec, readTree, useTempDir, writeFile } from './helpers';

type Engine = 'argocd' | 'flux';
type Tree = Record<string, string>;

const dir = useTempDir();
const GITOPS = { repoURL: 'https://git.example.com/fleet.git', revision: 'main' };
const PHASES = ['in-tree', 'leader-migration-kcm', 'leader-migration-ccm', 'external-leader-migration', 'external'];
const OPENSTACK_CCM = 'registry.k8s.io/provider-os/openstack-cloud-controller-manager:v1.25.6';

interface Distribution {
  readonly name: string;
  readonly spec: (engine: Engine, phase: string, image: string) => Record<string, unknown>;
}

const DISTRIBUTIONS: readonly Distribution[] = [
  {
    name: 'kubernetes OpenStack 1.25',
    spec: (engine, phase, image) =>
      kubernetesSpec(
        'OpenStack',
        'c',
        { version: '1.25', clusterName: 'kubernetes' },
        { migration: { phase, kubernetesVersion: '1.25' }, gitops: { engine, ...GITOPS } },
        { cloudControllerManagerOpenStack: image },
      ),
  },
  {
    name: 'OpenShift AWS 4.13',
    spec: (engine, phase) => platformSpec('AWS', 'c', { migration: { phase, kubernetesVersion: '1.26' }, gitops: { engine, ...GITOPS } }),
  },
];

// Each tree is rendered once for the whole file.
const trees = new Map<string, Tree>();
function treeOf(d: Distribution, engine: Engine, phase: string, image = OPENSTACK_CCM): Tree {
  const id = `${d.name}|${engine}|${phase}|${image}`;
  if (!trees.has(id)) {
    const root = path.join(dir(), String(trees.size));
    fs.mkdirSync(root, { recursive: true });
    writeFile(root, 'c.yaml', d.spec(engine, phase, image));
    const [cluster] = loadFleet(root).clusters;
    trees.set(id, Object.fromEntries(renderCluster(cluster).files.map((f) => [f.path, f.content])));
  }
  return trees.get(id)!;
}

/** The hazards of one change under one engine, as rendered (Argo CD: the Application's own sync options). */
function replay(engine: Engine, before: Tree, after: Tree, opts: { syncOptions?: string[]; pruneWaves?: 'own' } = {}): Hazard[] {
  const events =
    engine === 'flux'
      ? fromFlux(fluxReplay(before, after, 'c'))
      : fromArgo(argoSync(before, after, 'c', opts.syncOptions ?? applicationSyncOptions(after, 'c'), { pruneWaves: opts.pruneWaves }));
  return replayHazards(before, after, 'c', events);
}

const problems = (hazards: readonly Hazard[]): string[] => [...new Set(hazards.map((h) => `${h.event.by}: ${h.problem}`))];

/** A tree with the lease RBAC moved back to the namespaces-and-RBAC stage (wave 1), as it was rendered before. */
function leaseRbacFirst(tree: Tree): Tree {
  const out: Tree = {};
  for (const [p, text] of Object.entries(tree)) {
    const m = /^c\/05-policies\/(role|rolebinding)\.kube-system\.cloud-provider-leader-migration\.yaml$/.exec(p);
    out[m ? `c/01-namespaces-rbac/${p.slice(p.lastIndexOf('/') + 1)}` : p] = m ? text.replace('sync-wave: "5"', 'sync-wave: "1"') : text;
  }
  return out;
}

const ENGINES: readonly Engine[] = ['argocd', 'flux'];

describe('the replay reads the leases each rendered CCM renews', () => {
  test.each([
    [
      0,
      'leader-migration-ccm',
      {
        'DaemonSet kube-system/openstack-cloud-controller-manager': [
          'kube-system/cloud-controller-manager',
          'kube-system/cloud-provider-extraction-migration',
        ],
      },
    ],
    [0, 'external', { 'DaemonSet kube-system/openstack-cloud-controller-manager': ['kube-system/cloud-controller-manager'] }],
    [
      1,
      'external-leader-migration',
      {
        'Deployment openshift-cloud-controller-manager/aws-cloud-controller-manager': [
          'kube-system/cloud-controller-manager',
          'kube-system/cloud-provider-extraction-migration',
        ],
      },
    ],
    [
      1,
      'external',
      {
        'Deployment openshift-cloud-controller-manager/aws-cloud-controller-manager': ['openshift-cloud-controller-manager/cloud-controller-manager'],
      },
    ],
  ])('distribution %i at %s', (i, phase, leases) => {
    expect(ccmLeases(treeOf(DISTRIBUTIONS[i], 'flux', phase), 'c')).toEqual(leases);
  });
});

describe.each(DISTRIBUTIONS.flatMap((d) => ENGINES.map((e) => [d.name, e, d] as const)))('%s under %s', (_name, engine, d) => {
  const changes = PHASES.slice(1).flatMap((to, i) => [
    [PHASES[i], to],
    [to, PHASES[i]],
  ]);

  test.each(changes)('%s -> %s: no intermediate state loses a lease, a needed object or every CCM', (from, to) => {
    // GIVEN the trees of two adjacent phases
    const before = treeOf(d, engine, from);
    const after = treeOf(d, engine, to);
    // WHEN the engine replays the change object by object
    // THEN no state in between is unsafe
    expect(problems(replay(engine, before, after))).toEqual([]);
    // AND Flux leaves nothing behind without an owner (back to in-tree: see the decision below)
    if (engine === 'flux' && !(to === 'in-tree' && d === DISTRIBUTIONS[0])) {
      expect(orphans(fluxReplay(before, after, 'c'))).toEqual([]);
    }
  });

  test.each(PHASES)('a cluster added at %s: the first sync is safe', (phase) => {
    // GIVEN a cluster registered with its phase recorded, nothing of it applied yet
    // WHEN the engine applies its tree; THEN no state on the way is unsafe
    expect(problems(replay(engine, {}, treeOf(d, engine, phase)))).toEqual([]);
  });
});

describe('Flux: back to in-tree', () => {
  // Decision: in-tree renders no stage chain, so the entry deletes the stage Kustomizations and their deletion
  // policy (Orphan, so that unregistering a cluster never deletes its CCM) leaves the pre-staged RBAC behind.
  // Keeping a stage that prunes it would render objects for every cluster that never left in-tree; instead the
  // orphans are inert (nothing runs as the ServiceAccount) and docs/gitops.md gives the commands that delete them.
  const d = DISTRIBUTIONS[0];
  const left = (): string[] => orphans(fluxReplay(treeOf(d, 'flux', 'leader-migration-kcm'), treeOf(d, 'flux', 'in-tree'), 'c')).sort();

  test('kubernetes: leader-migration-kcm -> in-tree leaves only RBAC and the unused ServiceAccount', () => {
    // GIVEN the two trees; WHEN Flux replays the rollback; THEN it orphans the pre-staged RBAC and nothing that runs
    expect(left()).toEqual([
      'ClusterRole /system:cloud-controller-manager',
      'ClusterRoleBinding /system:cloud-controller-manager',
      'Role kube-system/cloud-provider-leader-migration',
      'Role kube-system/system:cloud-controller-manager',
      'RoleBinding kube-system/cloud-controller-manager:apiserver-authentication-reader',
      'RoleBinding kube-system/cloud-provider-leader-migration',
      'RoleBinding kube-system/system:cloud-controller-manager',
      'ServiceAccount kube-system/cloud-controller-manager',
    ]);
    // AND that is every object of the previous tree's stage folders, which the docs' generic command deletes
    expect(left()).toEqual([...stageObjects(treeOf(d, 'flux', 'leader-migration-kcm'), 'c').keys()].sort());
    // AND no CCM of the in-tree tree runs as that ServiceAccount
    expect(ccmLeases(treeOf(d, 'flux', 'in-tree'), 'c')).toEqual({});
  });

  test("docs/gitops.md's cleanup commands delete exactly what Flux leaves behind", () => {
    // GIVEN the kubectl commands the docs give for this rollback on OpenStack
    const docs = fs.readFileSync(path.join(__dirname, '..', 'docs', 'gitops.md'), 'utf8');
    const KINDS: Record<string, string> = {
      role: 'Role',
      rolebinding: 'RoleBinding',
      serviceaccount: 'ServiceAccount',
      clusterrole: 'ClusterRole',
      clusterrolebinding: 'ClusterRoleBinding',
    };
    const deleted = [...docs.matchAll(/^kubectl (?:-n (\S+) )?delete (.+)$/gm)].flatMap(([, ns, objects]) =>
      objects.split(' ').map((o) => `${KINDS[o.split('/')[0]]} ${ns ?? ''}/${o.slice(o.indexOf('/') + 1)}`),
    );
    // WHEN compared with the replay's orphans; THEN they are the same set
    expect(deleted.sort()).toEqual(left());
  });
});

describe('a z-stream update of the CCM image', () => {
  test.each(ENGINES)('%s: the CCM rolls to the new image with everything it needs, at every phase that runs it', (engine) => {
    const d = DISTRIBUTIONS[0];
    for (const phase of ['leader-migration-ccm', 'external-leader-migration', 'external']) {
      // GIVEN the tree before and after the image moves from v1.25.6 to v1.25.7
      const before = treeOf(d, engine, phase);
      const after = treeOf(d, engine, phase, OPENSTACK_CCM.replace('v1.25.6', 'v1.25.7'));
      // WHEN the engine replays it
      // THEN the Deployment is applied and no state is unsafe
      const events =
        engine === 'flux' ? fromFlux(fluxReplay(before, after, 'c')) : fromArgo(argoSync(before, after, 'c', applicationSyncOptions(after, 'c')));
      expect(events.filter((e) => e.action === 'prune')).toEqual([]);
      expect(events.map((e) => e.object)).toContain('DaemonSet kube-system/openstack-cloud-controller-manager');
      expect(problems(replayHazards(before, after, 'c', events))).toEqual([]);
    }
  });
});

describe.each([
  [DISTRIBUTIONS[0].name, 'external-leader-migration', DISTRIBUTIONS[0]],
  [DISTRIBUTIONS[1].name, 'leader-migration-ccm', DISTRIBUTIONS[1]],
] as const)('%s: a cluster removed from the fleet at phase %s keeps its running CCM', (_name, phase, d) => {
  test('flux: the stage Kustomizations go with deletionPolicy Orphan, so nothing is deleted', () => {
    // GIVEN a cluster with its phase recorded whose folder leaves git (the entry prunes its stage chain)
    const before = treeOf(d, 'flux', phase);
    // WHEN Flux replays the removal
    const events = fluxReplay(before, {}, 'c');
    // THEN every stage orphans its objects and none is pruned
    expect(events.filter((e) => e.action !== 'orphan')).toEqual([]);
    expect(orphans(events).sort()).toEqual([...stageObjects(before, 'c').keys()].sort());
  });

  test('argocd: the child Application has no resources finalizer, so the root pruning it deletes nothing', () => {
    // GIVEN the rendered child Application
    const child = appState(treeOf(d, 'argocd', phase), 'c');
    expect(child.cascade).toBe(false);
    // WHEN its root prunes it; THEN its resources stay
    const resources = [...stageObjects(treeOf(d, 'argocd', phase), 'c').keys()];
    expect(deleteApplication(child, resources)).toEqual({ deleted: [], orphaned: resources });
  });
});

describe('the lease RBAC outlives a CCM that still runs leader migration', () => {
  const d = DISTRIBUTIONS[0];
  const before = (engine: Engine): Tree => treeOf(d, engine, 'external-leader-migration');
  const after = (engine: Engine): Tree => treeOf(d, engine, 'external');
  const LOST =
    'DaemonSet kube-system/openstack-cloud-controller-manager still runs but may no longer renew lease ' +
    'kube-system/cloud-provider-extraction-migration: it exits ("leaderelection lost")';

  test('as rendered, the lease RBAC is in the stage after the workloads (wave 5)', () => {
    expect(Object.keys(after('flux')).length).toBeGreaterThan(0);
    expect(Object.keys(before('flux')).filter((p) => p.includes('cloud-provider-leader-migration'))).toEqual([
      'c/05-policies/role.kube-system.cloud-provider-leader-migration.yaml',
      'c/05-policies/rolebinding.kube-system.cloud-provider-leader-migration.yaml',
    ]);
  });

  test('mutation, flux: with the lease RBAC in the first stage, the first stage prunes it before the workloads roll', () => {
    // GIVEN the trees with the lease RBAC moved to 01-namespaces-rbac
    // WHEN Flux replays external-leader-migration -> external
    // THEN the running CCM loses its migration lease as soon as stage 01 prunes
    expect(problems(replay('flux', leaseRbacFirst(before('flux')), leaseRbacFirst(after('flux'))))[0]).toBe(`ccm-c-01-namespaces-rbac: ${LOST}`);
  });

  test('mutation, argocd: without PruneLast, Argo CD 3 swaps the prune waves and deletes the lease Role in wave 3', () => {
    // GIVEN the Application's sync options without PruneLast
    const options = applicationSyncOptions(after('argocd'), 'c').filter((o) => o !== 'PruneLast=true');
    // WHEN Argo CD syncs the change; THEN the lease RBAC (wave 5) is pruned in the ConfigMap's wave 3, before wave 4 rolls
    expect(problems(replay('argocd', before('argocd'), after('argocd'), { syncOptions: options }))[0]).toBe(`Sync wave 3: ${LOST}`);
  });

  test('mutation, argocd 2: without PruneLast and with the lease RBAC in wave 1, it is pruned in wave 1', () => {
    const options = applicationSyncOptions(after('argocd'), 'c').filter((o) => o !== 'PruneLast=true');
    expect(
      problems(replay('argocd', leaseRbacFirst(before('argocd')), leaseRbacFirst(after('argocd')), { syncOptions: options, pruneWaves: 'own' }))[0],
    ).toBe(`Sync wave 1: ${LOST}`);
  });
});

describe('the ServiceAccount of a running CCM', () => {
  const d = DISTRIBUTIONS[0];
  /** The tree with the CCM's ServiceAccount renamed, in its file, the DaemonSet and the bindings. */
  const renamed = (tree: Tree): Tree =>
    Object.fromEntries(
      Object.entries(tree).map(([p, text]) => [
        p.replace('serviceaccount.kube-system.cloud-controller-manager.yaml', 'serviceaccount.kube-system.ccm-renamed.yaml'),
        text.replace(/^(\s+(?:- )?(?:name|serviceAccountName)): cloud-controller-manager$/gm, '$1: ccm-renamed'),
      ]),
    );
  const GONE =
    'DaemonSet kube-system/openstack-cloud-controller-manager still runs but its ServiceAccount kube-system/cloud-controller-manager is gone: ' +
    'the apiserver refuses its token and it exits';

  test.each(ENGINES)('%s: the ServiceAccount is the same in every phase, so no change deletes it', (engine) => {
    for (const phase of PHASES.slice(1)) {
      expect(Object.keys(treeOf(d, engine, phase))).toContain('c/01-namespaces-rbac/serviceaccount.kube-system.cloud-controller-manager.yaml');
    }
  });

  test('mutation, flux: a ServiceAccount renamed in the next tree is pruned by the first stage while the old CCM runs', () => {
    // GIVEN external-leader-migration -> external with the ServiceAccount renamed in the new tree
    const before = treeOf(d, 'flux', 'external-leader-migration');
    const after = renamed(treeOf(d, 'flux', 'external'));
    expect(Object.keys(after)).toContain('c/01-namespaces-rbac/serviceaccount.kube-system.ccm-renamed.yaml');
    expect(Object.values(after).filter((t) => t.includes('serviceAccountName: ccm-renamed'))).toHaveLength(1);
    // WHEN Flux replays it; THEN stage 01 deletes the old ServiceAccount before stage 04 rolls the CCM
    expect(problems(replay('flux', before, after))).toContain(`ccm-c-01-namespaces-rbac: ${GONE}`);
  });

  test('argocd: PruneLast deletes the old ServiceAccount only after the CCM rolled onto the new one', () => {
    const before = treeOf(d, 'argocd', 'external-leader-migration');
    const after = renamed(treeOf(d, 'argocd', 'external'));
    expect(Object.values(after).filter((t) => t.includes('serviceAccountName: ccm-renamed'))).toHaveLength(1);
    expect(problems(replay('argocd', before, after)).filter((p) => p.includes('ServiceAccount'))).toEqual([]);
  });
});

describe('Argo CD: stopping a child under a self-healing root', () => {
  const d = DISTRIBUTIONS[0];
  const child = (): ReturnType<typeof appState> => appState(treeOf(d, 'argocd', 'external'), 'c');
  const ROOT = { automated: { prune: true, selfHeal: true } };

  test('argocd app set <child> --sync-policy none alone is undone by the root', () => {
    // GIVEN the rendered child (automated, self-heal) under a root with automated self-heal
    // WHEN only the child's automated sync is turned off and the root reconciles
    const stopped = setSyncPolicyNone(child());
    // THEN the root re-applies the child from git, automated included
    expect(stopped.automated).toBeUndefined();
    expect(rootReconcile(ROOT, stopped, child()).automated).toEqual({ prune: true, selfHeal: true });
  });

  test('the root stopped first: the child stays stopped', () => {
    // GIVEN the root's automated sync turned off first, as HANDOVER.md orders it
    const root = { automated: setSyncPolicyNone({ name: 'ccm-root.c', automated: ROOT.automated, cascade: false }).automated };
    // WHEN the child is stopped and the root reconciles; THEN nothing re-applies the child's policy
    expect(rootReconcile(root, setSyncPolicyNone(child()), child()).automated).toBeUndefined();
  });

  test('a root that ignores /spec/syncPolicy/automated of its children leaves a stopped child stopped', () => {
    expect(rootReconcile({ ...ROOT, ignoresChildAutomated: true }, setSyncPolicyNone(child()), child()).automated).toBeUndefined();
  });
});

describe('Flux: suspend', () => {
  const d = DISTRIBUTIONS[0];

  test('a suspended stage holds every stage after it (its revision is not up to date)', () => {
    // GIVEN the change external-leader-migration -> external with the config stage suspended by hand
    const events = fluxReplay(treeOf(d, 'flux', 'external-leader-migration'), treeOf(d, 'flux', 'external'), 'c', {
      suspended: ['ccm-c-03-config'],
    });
    // WHEN Flux reconciles; THEN only the stages before it act
    expect([...new Set(events.map((e) => e.kustomization))]).toEqual(['ccm-c-01-namespaces-rbac', 'ccm-c-02-credentials']);
  });
});

describe("HANDOVER.md's stop and resume, replayed through the engine models", () => {
  // The Argo CD commands of a section, in order: `argocd app set <app> --sync-policy none|automated …`.
  const commands = (text: string, section: string): [string, boolean][] => {
    const body = text.slice(text.indexOf(`## ${section}`)).split(/\n## /)[0];
    return [...body.matchAll(/argocd app set (\S+) --sync-policy (none|automated)/g)].map((m) => [m[1], m[2] === 'automated']);
  };
  // The fleet of one OpenShift cluster in gitops mode, with its per-cluster root, synthesised once.
  let rendered: Tree | undefined;
  const fleet = (): Tree => {
    if (!rendered) {
      const root = path.join(dir(), 'fleet');
      writeFile(path.join(root, 'clusters'), 'c.yaml', platformSpec('AWS', 'c', { gitops: { engine: 'argocd', ...GITOPS } }));
      const cap = captureIo();
      expect(runCli(['synth', '--clusters', path.join(root, 'clusters'), '--out', path.join(root, 'out'), '-q'], cap.io, {})).toBe(0);
      rendered = readTree(path.join(root, 'out'));
    }
    return rendered;
  };

  /** Runs the commands against the rendered root and child, the root reconciling after each; the child's live automated policy after each. */
  function run(tree: Tree, cmds: readonly [string, boolean][]): (string | undefined)[] {
    const rootFile = Object.keys(tree).find((p) => /^_fleet\/argocd\/cluster\/c\/root\/application\..*\.yaml$/.test(p))!;
    const rootApp = parse(tree[rootFile]);
    const childInGit = appState(tree, 'c');
    let root: AppState = { name: rootApp.metadata.name as string, automated: rootApp.spec.syncPolicy.automated, cascade: false };
    const gitRoot = root;
    let child = childInGit;
    const out: (string | undefined)[] = [];
    for (const [app, automated] of cmds) {
      if (app === root.name) root = automated ? gitRoot : setSyncPolicyNone(root);
      // resuming the root re-applies the child from git (its policy included)
      else child = automated ? childInGit : setSyncPolicyNone(child);
      child = rootReconcile(root, child, childInGit);
      out.push(child.automated ? 'automated' : undefined);
    }
    return out;
  }

  test('argocd: the way back stops the root, then the child, and the child stays stopped', () => {
    // GIVEN the rendered fleet (root with automated self-heal) and the way back's commands
    const tree = fleet();
    const stop = commands(tree['c/HANDOVER.md'], 'Way back');
    expect(stop).toEqual([
      ['ccm-root.c', false],
      ['ccm-c', false],
    ]);
    // WHEN they run, the root reconciling after each; THEN the child is stopped at the end
    expect(run(tree, stop).at(-1)).toBeUndefined();
  });

  test('mutation, argocd: stopping only the child is undone by the root', () => {
    const tree = fleet();
    const stop = commands(tree['c/HANDOVER.md'], 'Way back').filter(([app]) => app !== 'ccm-root.c');
    expect(run(tree, stop)).toEqual(['automated']);
  });

  test('flux: a merge while every stage is suspended applies and prunes nothing', () => {
    // GIVEN the stage chain of a cluster suspended as HANDOVER.md says (every stage in gitops/)
    const d = DISTRIBUTIONS[0];
    const before = treeOf(d, 'flux', 'external-leader-migration');
    const stages = Object.values(before)
      .map((t) => /kind: Kustomization\n(?:.*\n)*?\s+name: (ccm-c-\d\d-\S+)/.exec(t)?.[1])
      .filter((n): n is string => n !== undefined);
    expect(stages).toHaveLength(5);
    // WHEN the next phase is merged; THEN Flux does nothing
    expect(fluxReplay(before, treeOf(d, 'flux', 'external'), 'c', { suspended: stages })).toEqual([]);
  });
});
