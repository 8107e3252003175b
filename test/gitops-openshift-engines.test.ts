/**
 * OpenShift's management-mode changes and updates through the Argo CD and Flux models: what each engine applies
 * and prunes when the user runs HANDOVER.md's steps (read with the CVO mode-change model's parser), from the
 * rendered trees of both modes. The CVO model replays the same steps with the sync as one write
 * (test/openshift-mode-change.test.ts); here the sync is the engine's, object by object.
 */
import { parse, stringify } from 'yaml';
import { renderCluster } from '../src/pipeline/render';
import { platformSpec, preparedCluster } from './helpers';
import { appState, argoSync, applicationSyncOptions, deleteApplication } from './oracle/argocd/sync';
import { fluxReplay } from './oracle/flux/kustomize-controller';
import { fromArgo, fromFlux, replayHazards, ReplayEvent, stageObjects } from './oracle/gitops/replay';
import { fights, handOver, installedCluster, operandIds, sectionActions, unmanagedOperands } from './oracle/cvo/mode-change';
import { readRenderedCluster, upgradeablePrecondition } from './oracle/cvo/model';

type Engine = 'argocd' | 'flux';
type Tree = Record<string, string>;
const ENGINES: readonly Engine[] = ['argocd', 'flux'];

// Each tree is rendered once for the whole file.
const trees = new Map<string, Tree>();
function tree(mode: 'gitops' | 'operator', engine: Engine, release: string): Tree {
  const id = `${mode}|${engine}|${release}`;
  if (!trees.has(id)) {
    const spec = platformSpec('AWS', 'c', {
      managementMode: mode,
      gitops: { engine, repoURL: 'https://git.example.com/fleet.git' },
      openshift: { release },
    });
    trees.set(id, Object.fromEntries(renderCluster(preparedCluster(spec)).files.map((f) => [f.path, f.content])));
  }
  return trees.get(id)!;
}

const eventsOf = (engine: Engine, before: Tree, after: Tree): ReplayEvent[] =>
  engine === 'flux' ? fromFlux(fluxReplay(before, after, 'c')) : fromArgo(argoSync(before, after, 'c', applicationSyncOptions(after, 'c')));

const isStageFile = (p: string): boolean => /^c\/0[0-9]-[^/]+\/[^/]+\.yaml$/.test(p) && !p.endsWith('/kustomization.yaml');
/** The CVO model's id (`group/kind/namespace/name`) and the replay's key (`Kind namespace/name`) of an object. */
const idOf = (o: any): string =>
  `${String(o.apiVersion).includes('/') ? o.apiVersion.split('/')[0] : ''}/${o.kind.toLowerCase()}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
const keyOf = (o: any): string => `${o.kind} ${o.metadata.namespace ?? ''}/${o.metadata.name}`;

/** The CVO model's id of each replay key, for the objects of `t`. */
function idsByKey(t: Tree): Map<string, string> {
  const objects = Object.entries(t)
    .filter(([p]) => isStageFile(p))
    .map(([, text]) => parse(text));
  return new Map(objects.map((o) => [keyOf(o), idOf(o)]));
}

/**
 * The tree as the engine sees the live objects after the way back's commands: an object untracked
 * (Argo CD's tracking label removed) is not the Application's any more, one annotated prune-disabled
 * (Flux) is kept when it leaves git. `skip` leaves those commands out.
 */
function afterWayBack(gitops: Tree, skip = false): Tree {
  const actions = skip ? [] : sectionActions(stripped(gitops)['HANDOVER.md'], 'Way back');
  const untracked = new Set(actions.flatMap((a) => (a.do === 'untrack' ? a.refs : [])));
  const disabled = new Set(actions.flatMap((a) => (a.do === 'prune-disabled' ? a.refs : [])));
  const out: Tree = {};
  for (const [p, text] of Object.entries(gitops)) {
    const o = isStageFile(p) ? parse(text) : undefined;
    if (o && untracked.has(idOf(o))) continue;
    if (o && disabled.has(idOf(o))) {
      o.metadata.annotations = { ...o.metadata.annotations, 'kustomize.toolkit.fluxcd.io/prune': 'disabled' };
      out[p] = stringify(o);
    } else {
      out[p] = text;
    }
  }
  return out;
}

/** The cluster folder's files, paths relative to it (as the CVO model reads a tree). */
const stripped = (t: Tree): Tree =>
  Object.fromEntries(
    Object.entries(t)
      .filter(([p]) => p.startsWith('c/'))
      .map(([p, v]) => [p.slice(2), v]),
  );

describe.each(ENGINES)('OpenShift AWS under %s', (engine) => {
  const gitops = (release = '4.22.3'): Tree => tree('gitops', engine, release);
  const operator = (release = '4.22.3'): Tree => tree('operator', engine, release);
  const operands = (release = '4.22.3'): Set<string> => operandIds(stripped(gitops(release)));
  const prunedOperands = (events: readonly ReplayEvent[], t: Tree): string[] => {
    const ids = idsByKey(t);
    return events.filter((e) => e.action === 'prune' && operands().has(ids.get(e.object) ?? '')).map((e) => e.object);
  };

  test('hand over: the first sync applies the gitops tree with no state unsafe', () => {
    // GIVEN nothing of the tree tracked yet (the operator wrote the operands); WHEN the engine syncs the gitops tree
    const events = eventsOf(engine, {}, gitops());
    // THEN it prunes nothing and no state on the way loses what a running CCM needs
    expect(events.filter((e) => e.action === 'prune')).toEqual([]);
    expect(replayHazards({}, gitops(), 'c', events)).toEqual([]);
  });

  test("way back: once HANDOVER.md's commands ran, syncing the operator tree prunes no operand", () => {
    // GIVEN the gitops tree as the engine sees it after the way back's commands
    const before = afterWayBack(gitops());
    // WHEN the operator tree is merged and the engine syncs it
    const events = eventsOf(engine, before, operator());
    // THEN no operand (the CCM Deployment, cloud-conf, …) is deleted: the operator owns them again
    expect(prunedOperands(events, gitops())).toEqual([]);
  });

  test('mutation: without those commands, the same sync prunes the running CCM', () => {
    const events = eventsOf(engine, afterWayBack(gitops(), true), operator());
    expect(prunedOperands(events, gitops())).toContain('Deployment openshift-cloud-controller-manager/aws-cloud-controller-manager');
  });

  test('the 4.23 gitops tree merged over the 4.22 one: the sync is safe at every state', () => {
    // GIVEN the gitops trees of the two releases (HANDOVER.md routes the update through the way back and the hand over;
    // this is the sync of the new tree once handed over again, or merged directly)
    const events = eventsOf(engine, gitops('4.22.3'), gitops('4.23.1'));
    // THEN no running CCM loses what it needs at any state
    expect(replayHazards(gitops('4.22.3'), gitops('4.23.1'), 'c', events)).toEqual([]);
  });

  test('a z-stream update (4.23.0 to 4.23.1): nothing is pruned and no state is unsafe', () => {
    // GIVEN the trees of two z-streams (the CCM image and the release's version differ)
    expect(gitops('4.23.0')['c/HANDOVER.md']).not.toEqual(gitops('4.23.1')['c/HANDOVER.md']);
    const events = eventsOf(engine, gitops('4.23.0'), gitops('4.23.1'));
    expect(events.filter((e) => e.action === 'prune')).toEqual([]);
    expect(replayHazards(gitops('4.23.0'), gitops('4.23.1'), 'c', events)).toEqual([]);
  });

  test('the way back and forth around a minor update: CVO lets it through only once the way back gave the objects back, and no engine step deletes anything', () => {
    // GIVEN a cluster on 4.22.3 handed over to gitops mode, the CVO model holding its overrides
    const ops = operands('4.22.3');
    const cvo = installedCluster(ops, [], stripped(gitops('4.22.3')));
    handOver(cvo, stripped(gitops('4.22.3')), ops);
    expect(fights(cvo, ops)).toEqual([]);
    // THEN CVO refuses the minor update while gitops mode's overrides are set
    expect(upgradeablePrecondition('4.22.3', '4.23.1', cvo.overrides)).toEqual({ result: 'block', reason: 'ClusterVersionOverridesSet' });
    // WHEN the way back runs with its second path, as HANDOVER.md's "Minor update" says: stop GitOps, untrack the
    // operands, give the objects back to CVO (its `jq --argjson ours … --argjson set '[]'` command), remove the cluster
    const wayBack = gitops('4.22.3')['c/HANDOVER.md'].split('## Way back')[1];
    const [, ours, set] = /--argjson ours '([^']*)' --argjson set '([^']*)'/.exec(wayBack)!;
    const mine = (JSON.parse(ours) as string[][]).map((k) => k.join('|'));
    const overrides = [...cvo.overrides.filter((o) => !mine.includes([o.kind, o.group, o.namespace, o.name].join('|'))), ...JSON.parse(set)];
    // THEN CVO lets the minor update through
    expect(overrides).toEqual([]);
    expect(upgradeablePrecondition('4.22.3', '4.23.1', overrides)).toEqual({ result: 'pass' });
    // AND removing the cluster from the fleet deletes nothing of what runs
    const left = afterWayBack(gitops('4.22.3'));
    if (engine === 'flux') expect(fluxReplay(left, {}, 'c').filter((e) => e.action !== 'orphan')).toEqual([]);
    else expect(deleteApplication(appState(left, 'c'), []).deleted).toEqual([]);
    // WHEN, updated to 4.23.1, the cluster is added again and handed over
    const next = gitops('4.23.1');
    const forth = eventsOf(engine, {}, next);
    const ops2 = operandIds(stripped(next));
    const cvo2 = installedCluster(ops2, overrides, stripped(next));
    handOver(cvo2, stripped(next), ops2);
    // THEN the engine prunes nothing, no state on the way is unsafe, and one writer per object once it settles
    expect(forth.filter((e) => e.action === 'prune')).toEqual([]);
    expect(replayHazards({}, next, 'c', forth)).toEqual([]);
    expect([fights(cvo2, ops2), unmanagedOperands(cvo2, ops2), cvo2.operandsDeleted]).toEqual([[], [], []]);
  });

  test('a z-stream update in gitops mode: CVO lets it through, with a warning for the overrides', () => {
    const overrides = readRenderedCluster(stripped(gitops('4.23.1'))).overrides;
    expect(overrides.length).toBeGreaterThan(0);
    expect(upgradeablePrecondition('4.23.0', '4.23.1', overrides)).toEqual({ result: 'warn', reason: 'ClusterVersionOverridesSet' });
  });

  test('a cluster removed: nothing is deleted', () => {
    // GIVEN the cluster's folder leaving git; WHEN the engine removes what it applied from there
    const resources = [...stageObjects(gitops(), 'c').keys()];
    // THEN Flux's stages orphan everything, and Argo CD's root prunes a child without a resources finalizer
    if (engine === 'flux') expect(fluxReplay(gitops(), {}, 'c').filter((e) => e.action !== 'orphan')).toEqual([]);
    else expect(deleteApplication(appState(gitops(), 'c'), resources)).toEqual({ deleted: [], orphaned: resources });
  });
});
