/**
 * The engine replay combined with the leader-migration simulator: every phase change, forward and back, on both
 * distributions and under both engines, with the simulator's merge step replaced by each state the engine passes
 * through. At none of them may a controller run in the KCM and the CCM at once, or nowhere once the change settles.
 */
import * as fs from 'fs';
import * as path from 'path';
import { loadFleet } from '../src/fleet/load';
import { renderCluster } from '../src/pipeline/render';
import { argoSync, applicationSyncOptions } from './oracle/argocd/sync';
import { fluxReplay } from './oracle/flux/kustomize-controller';
import { engineScenario, engineTrees, engineViolations, simTree } from './oracle/gitops/combined';
import { fights, handOver, installedCluster, mergeAndSync, operandIds, unmanagedOperands } from './oracle/cvo/mode-change';
import { fromArgo, fromFlux, replayHazards } from './oracle/gitops/replay';
import { CASES, caseOptions } from './helpers/rendered-phases';
import { useTempDir, writeFile } from './helpers';

type Engine = 'argocd' | 'flux';
type Tree = Record<string, string>;

const dir = useTempDir();
const GITOPS = { repoURL: 'https://git.example.com/fleet.git', revision: 'main' };
const ENGINES: readonly Engine[] = ['argocd', 'flux'];
const CASE_NAMES = ['kubernetes OpenStack 1.25', 'OpenShift AWS 4.13'];

// Each tree is rendered once for the whole file.
const trees = new Map<string, Tree>();
function treeOf(caseName: string, engine: Engine, phase: string, edit: (spec: any) => void = () => undefined): Tree {
  const id = `${caseName}|${engine}|${phase}|${edit.toString()}`;
  if (!trees.has(id)) {
    const c = CASES.find((x) => x.name === caseName)!;
    const root = path.join(dir(), String(trees.size));
    fs.mkdirSync(root, { recursive: true });
    const spec: any = c.spec(phase);
    spec.spec = { ...spec.spec, gitops: { engine, ...GITOPS } };
    edit(spec);
    writeFile(root, 'c.yaml', spec);
    for (const [name, content] of Object.entries(c.files)) writeFile(root, name, content);
    const [cluster] = loadFleet(root).clusters;
    trees.set(id, Object.fromEntries(renderCluster(cluster).files.map((f) => [f.path, f.content])));
  }
  return trees.get(id)!;
}

type Ties = 'by-name' | 'reversed';
// Flux reconciles Kustomizations that do not depend on one another in any order: each replay takes both
const eventsOf = (engine: Engine, before: Tree, after: Tree, ties: Ties = 'by-name') =>
  engine === 'flux' ? fromFlux(fluxReplay(before, after, 'c', { ties })) : fromArgo(argoSync(before, after, 'c', applicationSyncOptions(after, 'c')));
const TIES: readonly Ties[] = ['by-name', 'reversed'];

/** The plan steps of a change: the later tree's `enter` forward, its `rollback` back. */
function stepsOf(before: Tree, after: Tree, forward: boolean): any[] | undefined {
  const plan = (t: Tree) => simTree(t, 'c').plan;
  return forward ? plan(after).enter.steps : plan(before).rollback?.steps;
}

const phasesOf = (caseName: string): string[] => simTree(treeOf(caseName, 'flux', 'in-tree'), 'c').plan.phases;

describe.each(CASE_NAMES.flatMap((n) => ENGINES.map((e) => [n, e] as const)))('%s under %s', (caseName, engine) => {
  const c = CASES.find((x) => x.name === caseName)!;
  const changes = (): [string, string, boolean][] => {
    const phases = phasesOf(caseName);
    // a phase whose plan has no rollback is left only forward (the simulator's own transitions do the same)
    return phases
      .slice(1)
      .flatMap((to, i): [string, string, boolean][] => [
        [phases[i], to, true],
        ...(simTree(treeOf(caseName, engine, to), 'c').plan.rollback ? [[to, phases[i], false] as [string, string, boolean]] : []),
      ]);
  };

  test('every phase change: no controller runs twice or nowhere at any state the engine produces', () => {
    const seen: Record<string, string[]> = {};
    for (const [from, to, forward] of changes()) {
      // GIVEN the trees of two adjacent phases and the plan's steps between them
      const before = treeOf(caseName, engine, from);
      const after = treeOf(caseName, engine, to);
      for (const ties of engine === 'flux' ? TIES : TIES.slice(0, 1)) {
        // WHEN the engine's events replace the merge and the simulator explores every interleaving
        const events = eventsOf(engine, before, after, ties);
        const violations = engineViolations(before, after, 'c', stepsOf(before, after, forward)!, events, caseOptions(c));
        // THEN nothing is found, and neither does the object replay find a lost lease or object
        seen[`${from} -> ${to} (${ties})`] = [...violations, ...replayHazards(before, after, 'c', events).map((h) => h.problem)];
      }
    }
    expect(Object.values(seen).flat()).toEqual([]);
    expect(Object.keys(seen)).toHaveLength(changes().length * (engine === 'flux' ? 2 : 1));
    expect(changes().length).toBeGreaterThanOrEqual(phasesOf(caseName).length);
  });
});

describe('the combined replay sees what happens between the first and the last state', () => {
  const c = CASES.find((x) => x.name === 'kubernetes OpenStack 1.25')!;

  test('the CCM rolls as its own step of the merge, named by the engine state that rolls it', () => {
    // GIVEN leader-migration-kcm -> leader-migration-ccm under Flux
    const before = treeOf(c.name, 'flux', 'leader-migration-kcm');
    const after = treeOf(c.name, 'flux', 'leader-migration-ccm');
    // WHEN the scenario is built from Flux's events
    const sc = engineScenario(before, after, 'c', stepsOf(before, after, true)!, eventsOf('flux', before, after), caseOptions(c));
    // THEN the CCM starts in the workloads stage, with the leader-migration file the config stage applied before
    const rolled = sc.steps.filter((s) => s.ccm !== undefined);
    expect(rolled.map((s) => s.label)).toEqual(['merge: ccm-c-04-workloads apply DaemonSet kube-system/openstack-cloud-controller-manager']);
    expect(rolled[0].ccm?.file).toContain('LeaderMigrationConfiguration');
  });
});

describe('mutations: each check fails when the rendered order is broken', () => {
  const c = CASES.find((x) => x.name === 'kubernetes OpenStack 1.25')!;
  const CM = 'configmap.kube-system.ccm-leader-migration.yaml';
  /** The tree with the leader-migration ConfigMap moved from the config stage (wave 3) to the policies stage (wave 5), after the workloads. */
  const configLast = (tree: Tree): Tree =>
    Object.fromEntries(
      Object.entries(tree).map(([p, text]) =>
        p === `c/03-config/${CM}` ? [`c/05-policies/${CM}`, text.replace('sync-wave: "3"', 'sync-wave: "5"')] : [p, text],
      ),
    );

  test.each(ENGINES)('%s: the leader-migration ConfigMap after the workloads: the CCM rolls without its file', (engine) => {
    // GIVEN leader-migration-kcm -> leader-migration-ccm with the ConfigMap in the stage after the CCM's
    const before = configLast(treeOf(c.name, engine, 'leader-migration-kcm'));
    const after = configLast(treeOf(c.name, engine, 'leader-migration-ccm'));
    const events = eventsOf(engine, before, after);
    // WHEN the change is replayed
    const sc = engineScenario(before, after, 'c', stepsOf(before, after, true)!, events, caseOptions(c));
    // THEN the object replay sees the pod start without the ConfigMap, and the simulator gets a CCM without its file
    expect(replayHazards(before, after, 'c', events).map((h) => h.problem)).toContain(
      'DaemonSet kube-system/openstack-cloud-controller-manager rolls while ConfigMap kube-system/ccm-leader-migration is missing: its new pods cannot start',
    );
    const rolled = sc.steps.filter((s) => s.ccm !== undefined);
    expect(rolled.map((s) => [s.ccm?.flags.includes('--enable-leader-migration'), s.ccm?.file !== undefined])).toEqual([
      [true, false],
      // the pod starts with its file only once the ConfigMap lands after it
      [true, true],
    ]);
    expect(rolled[1].label).toBe('merge: the rest of the tree');
  });
});

describe('mutation: a stage Kustomization without its dependsOn', () => {
  const c = CASES.find((x) => x.name === 'kubernetes OpenStack 1.25')!;
  /** The tree with `dependsOn` dropped from the workloads stage's Kustomization. */
  const independentWorkloads = (tree: Tree): Tree =>
    Object.fromEntries(
      Object.entries(tree).map(([p, text]) => [
        p,
        p.endsWith('-04-workloads.yaml') ? text.replace(/ {2}dependsOn:\n(?: {4}- name: \S+\n)+/, '') : text,
      ]),
    );

  test('as rendered, either order of independent Kustomizations gives the same replay', () => {
    const before = treeOf(c.name, 'flux', 'leader-migration-kcm');
    const after = treeOf(c.name, 'flux', 'leader-migration-ccm');
    expect(eventsOf('flux', before, after, 'reversed')).toEqual(eventsOf('flux', before, after, 'by-name'));
  });

  test('without it, Flux may roll the CCM before its leader-migration ConfigMap exists', () => {
    // GIVEN the trees with the workloads stage depending on nothing
    const before = independentWorkloads(treeOf(c.name, 'flux', 'leader-migration-kcm'));
    const after = independentWorkloads(treeOf(c.name, 'flux', 'leader-migration-ccm'));
    expect(after).not.toEqual(treeOf(c.name, 'flux', 'leader-migration-ccm'));
    // WHEN Flux reconciles the workloads stage first (it may: nothing orders it)
    const events = eventsOf('flux', before, after, 'reversed');
    // THEN the replay sees the CCM roll before what its pods need
    expect(events[0].by).toBe('ccm-c-04-workloads');
    expect(replayHazards(before, after, 'c', events).map((h) => h.problem)).toContain(
      'DaemonSet kube-system/openstack-cloud-controller-manager rolls while ConfigMap kube-system/ccm-leader-migration is missing: its new pods cannot start',
    );
  });
});

describe.each(ENGINES)('OpenShift AWS 4.13 under %s: the CVO model at every state the engine produces', (engine) => {
  const c = CASES.find((x) => x.name === 'OpenShift AWS 4.13')!;
  const rel = (t: Tree): Tree =>
    Object.fromEntries(
      Object.entries(t)
        .filter(([p]) => p.startsWith('c/'))
        .map(([p, v]) => [p.slice(2), v]),
    );

  /** Every phase forward, the CVO model settling after each engine state; what it saw, and the operands deleted. */
  function walk(liftOverrides = false): [string[], string[]] {
    // GIVEN the cluster handed over in gitops mode at in-tree, CVO, the operator and the engine as writers
    const phases = phasesOf(c.name);
    const all = phases.map((ph) => treeOf(c.name, engine, ph));
    const operands = operandIds(rel(all[all.length - 1]));
    const state = installedCluster(new Set(), [], rel(all[0]));
    handOver(state, rel(all[0]), new Set());
    if (liftOverrides) state.overrides = [];
    const seen: string[] = [];
    for (let i = 1; i < all.length; i++) {
      // WHEN the engine moves the cluster to the next phase, one wave or stage at a time
      const events = eventsOf(engine, all[i - 1], all[i], 'reversed');
      const states = engineTrees(all[i - 1], all[i], 'c', events);
      // (the last state is the new tree, its stage kustomization.yaml files aside, and what the engine never prunes)
      const last = states[states.length - 1];
      const files = (t: Tree): string[] => Object.keys(t).filter((p) => !p.endsWith('/kustomization.yaml'));
      expect(files(last).filter((p) => !(`c/${p}` in all[i] ? true : /Prune=false|prune: disabled/.test(last[p])))).toEqual([]);
      expect(files(rel(all[i])).filter((p) => !(p in last))).toEqual([]);
      states.forEach((t, k) => {
        mergeAndSync(state, t, operands, `${phases[i]} ${events[k].by}`);
        seen.push(...fights(state, operands).map((f) => `${phases[i]} after ${events[k].by}: ${f}`));
        seen.push(
          ...unmanagedOperands(state, operands)
            .filter((o) => state.live.has(o))
            .map((o) => `${phases[i]}: ${o} unmanaged`),
        );
      });
    }
    return [seen, state.operandsDeleted];
  }

  test('each phase forward: one writer per object and every operand kept and written, after each wave or stage', () => {
    // THEN no state has two writers of one object or an operand nobody writes, and no operand is deleted
    expect(walk()).toEqual([[], []]);
  });

  test('mutation: with the overrides lifted, CVO brings the operator back and it fights the engine from its first state on', () => {
    const [seen] = walk(true);
    expect(seen[0]).toBe(
      `leader-migration-kcm after ${engine === 'flux' ? 'ccm-c-01-namespaces-rbac' : 'Sync wave 1'}: ` +
        '/configmap/openshift-cloud-controller-manager/ccm-trusted-ca: gitops and operator',
    );
  });
});
