/**
 * A replay of an OpenShift cluster changing `spec.managementMode`, fed with the
 * rendered `dist/<cluster>/` trees of both modes: the steps are the commands of
 * the trees' `HANDOVER.md` ("Way back" of the tree left, "Hand over" of the
 * tree reached), and a merge is the difference of the two trees, which the
 * GitOps engine applies and prunes when it syncs. Three writers act on the
 * live objects until nothing changes:
 *
 * - CVO writes every payload manifest no unmanaged override names, recreating
 *   it when deleted, and runs the operator Deployment with its 1 replica
 *   (rules of model.ts: library-go `getOverrideForManifest`, pkg/cvo/sync_worker.go `apply`);
 * - the GitOps engine, while it runs, writes every object of the tree in git
 *   and prunes what it tracks and the tree no longer has, except an object
 *   annotated prune-disabled (Argo CD `Prune=false`, Flux `prune: disabled`);
 *   an object without Argo CD's tracking label and annotation is not tracked;
 * - the operator, while its Deployment runs, writes its operands: the objects
 *   the gitops-mode tree renders that the payload does not ship.
 *
 * What the replay reports: objects written by two writers with different
 * content once nothing moves (a fight for ever), operands deleted while live
 * (a cloud controller manager stopped), operands no writer keeps, and the
 * overrides left.
 */
import { parse } from 'yaml';
import { isOverridden, Override } from './model';
import { ccmPayload, PayloadManifest } from './payload';
import { BRANCH_RELEASES, namespacedName, operatorDeploymentOf } from '../openshift-branches';

type Obj = Record<string, any>;

/** A rendered `dist/<cluster>/` tree: path → content. */
export type Tree = Readonly<Record<string, string>>;

/** `group/kind/namespace/name`, the kind in lower case as `oc` names it. */
function idOf(o: Obj): string {
  const group = String(o.apiVersion).includes('/') ? String(o.apiVersion).split('/')[0] : '';
  return `${group}/${String(o.kind).toLowerCase()}/${o.metadata?.namespace ?? ''}/${o.metadata?.name}`;
}

function manifestId(m: { group: string; kind: string; namespace?: string; name: string }): string {
  return `${m.group}/${m.kind.toLowerCase()}/${m.namespace ?? ''}/${m.name}`;
}

const NEWEST = BRANCH_RELEASES[BRANCH_RELEASES.length - 1];
/** The operator Deployment: the same namespace and name on every release branch. */
const OPERATOR_ID = manifestId(namespacedName(operatorDeploymentOf(NEWEST).id));

/**
 * The annotations that keep an object from pruning: Argo CD's `Prune=false` sync option
 * (argoproj/gitops-engine@v0.7.2 pkg/sync/sync_context.go `SyncOptionDisablePrune`) and Flux's
 * (fluxcd/kustomize-controller@v1.9.4 internal/controller/kustomization_controller.go, as ../flux/kustomize-controller.ts reads it).
 */
const PRUNE_PROTECTION: Readonly<Record<string, string>> = {
  'argocd.argoproj.io/sync-options': 'Prune=false',
  'kustomize.toolkit.fluxcd.io/prune': 'disabled',
};

/** The objects of a tree's stages, by id. */
export function treeObjects(tree: Tree): Map<string, Obj> {
  const out = new Map<string, Obj>();
  for (const [p, content] of Object.entries(tree)) {
    if (/^0[0-9]-[^/]+\/[^/]+\.yaml$/.test(p) && !p.endsWith('/kustomization.yaml')) {
      const o = parse(content) as Obj;
      out.set(idOf(o), o);
    }
  }
  return out;
}

/** The payload objects the tree's HANDOVER.md renders "as the release ships it" (same content as CVO's). */
function sameAsRelease(tree: Tree, objects: Map<string, Obj>): Set<string> {
  const rows = new Set([...(tree['HANDOVER.md'] ?? '').matchAll(/^\| (.+?) \| as the release ships it \|/gm)].map((m) => m[1]));
  return new Set(
    [...objects]
      .filter(([, o]) => rows.has(`${o.kind} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}`))
      .map(([id]) => id),
  );
}

/** One step of a HANDOVER.md section, as the replay runs it. */
export type Action =
  | { readonly do: 'suspend' }
  | { readonly do: 'set-overrides'; readonly ours: readonly (readonly string[])[]; readonly set: readonly Override[] }
  | { readonly do: 'replace-overrides'; readonly set: readonly Override[] }
  | { readonly do: 'remove-overrides' }
  | { readonly do: 'scale-operator-down' }
  | { readonly do: 'untrack'; readonly refs: readonly string[] }
  | { readonly do: 'prune-disabled'; readonly refs: readonly string[] }
  | { readonly do: 'merge' }
  | { readonly do: 'follow-hand-over' }
  | { readonly do: 'sync' };

/** The numbered steps of a section (`## Hand over`, `## Way back`). */
function sectionSteps(markdown: string, title: string): string[] {
  const start = markdown.indexOf(`## ${title}\n`);
  if (start < 0) {
    return [];
  }
  const rest = markdown.slice(start + title.length + 4);
  const body = rest.slice(0, rest.search(/^## /m) < 0 ? undefined : rest.search(/^## /m));
  return body.split(/^(?=\d+\. )/m).filter((s) => /^\d+\. /.test(s));
}

/** `oc label|annotate [-n NS] kind.group/name …` → object ids. */
function refsOf(line: string): string[] {
  const ns = /-n (\S+)/.exec(line)?.[1] ?? '';
  // The last word is the label or annotation.
  return line
    .trim()
    .split(/\s+/)
    .slice(0, -1)
    .filter((w) => /^[a-z]+(\.[a-z0-9.-]+)?\/\S+$/.test(w))
    .map((w) => {
      const [type, name] = w.split('/') as [string, string];
      const dot = type.indexOf('.');
      return `${dot < 0 ? '' : type.slice(dot + 1)}/${dot < 0 ? type : type.slice(0, dot)}/${ns}/${name}`;
    });
}

/**
 * The actions of one section, in order. A step offering two paths is taken by
 * its first ("follow Hand over in the new HANDOVER.md" before "Or, …").
 */
export function sectionActions(markdown: string, title: 'Hand over' | 'Way back'): Action[] {
  const actions: Action[] = [];
  for (const step of sectionSteps(markdown, title)) {
    if (/--sync-policy none|flux suspend|stop applying the folder/.test(step)) {
      actions.push({ do: 'suspend' });
    }
    if (/spec\.managementMode/.test(step) && /merge/.test(step)) {
      actions.push({ do: 'merge' });
    }
    if (/follow \*\*Hand over\*\*/.test(step)) {
      actions.push({ do: 'follow-hand-over' });
      continue;
    }
    const set = /jq --argjson ours '([^']*)' --argjson set '([^']*)'/.exec(step);
    if (set) {
      actions.push({ do: 'set-overrides', ours: JSON.parse(set[1]), set: JSON.parse(set[2]) });
    }
    const replace = /oc patch clusterversion version --type=merge -p '([^']+)'/.exec(step);
    if (replace) {
      actions.push({ do: 'replace-overrides', set: JSON.parse(replace[1]).spec.overrides });
    }
    if (step.includes('"op":"remove","path":"/spec/overrides"')) {
      actions.push({ do: 'remove-overrides' });
    }
    if (/scale deployment \S+ --replicas=0/.test(step)) {
      actions.push({ do: 'scale-operator-down' });
    }
    for (const line of step.split('\n')) {
      if (/^\s*oc label .* app\.kubernetes\.io\/instance-$/.test(line)) {
        actions.push({ do: 'untrack', refs: refsOf(line) });
      } else if (/^\s*oc annotate .* kustomize\.toolkit\.fluxcd\.io\/prune=disabled$/.test(line)) {
        actions.push({ do: 'prune-disabled', refs: refsOf(line) });
      }
    }
    if (/Let the GitOps engine sync|resume syncing|Apply the stages/.test(step)) {
      actions.push({ do: 'sync' });
    }
  }
  return actions;
}

interface Live {
  obj: Obj;
  /** The last writer: `cvo`, `gitops` or `operator`. */
  writer: string;
  pruneDisabled: boolean;
}

/** The cluster as the replay sees it. */
export interface ModeChangeState {
  overrides: Override[];
  live: Map<string, Live>;
  /** What the GitOps engine tracks (applied by it and not untracked). */
  tracked: Set<string>;
  gitopsRunning: boolean;
  /** The tree in git. */
  tree: Tree;
  /** Operands deleted while they ran, with the step. */
  readonly operandsDeleted: string[];
}

/** The operands: what the gitops-mode tree renders that the payload of its release does not ship, by id. */
export function operandIds(gitopsTree: Tree): Set<string> {
  const protectedKinds = new Set(['FeatureGate', 'MachineConfig']);
  const shipped = new Set(payloadOf(gitopsTree).map(manifestId));
  return new Set([...treeObjects(gitopsTree)].filter(([id, o]) => !shipped.has(id) && !protectedKinds.has(o.kind)).map(([id]) => id));
}

/** The objects the cloud-controller-manager operator's payload of the tree's release writes (its branch's manifests, tombstones left out). */
function payloadOf(tree: Tree): PayloadManifest[] {
  const minor = /release (\d+\.\d+)\.\d+/.exec(tree['HANDOVER.md'] ?? '')![1];
  return ccmPayload(BRANCH_RELEASES.includes(minor) ? minor : NEWEST).filter((m) => !m.delete);
}

/** A cluster as the release installs it: CVO writes the payload, the operator runs and writes its operands; `own` are the cluster's own overrides. */
export function installedCluster(operands: ReadonlySet<string>, own: readonly Override[], tree: Tree): ModeChangeState {
  const state: ModeChangeState = { overrides: [...own], live: new Map(), tracked: new Set(), gitopsRunning: false, tree, operandsDeleted: [] };
  settle(state, operands, 'install');
  return state;
}

function operatorRuns(state: ModeChangeState): boolean {
  const d = state.live.get(OPERATOR_ID);
  return d !== undefined && (d.obj.spec?.replicas ?? 1) > 0;
}

function annotatedPruneDisabled(o: Obj): boolean {
  const a = o.metadata?.annotations ?? {};
  return Object.entries(PRUNE_PROTECTION).some(([k, v]) => a[k] === v);
}

/** Runs the writers until nothing changes (each writes what it owns, the GitOps engine prunes). */
function settle(state: ModeChangeState, operands: ReadonlySet<string>, step: string): void {
  for (let round = 0; round < 4; round++) {
    for (const m of payloadOf(state.tree)) {
      if (!isOverridden(m, state.overrides)) {
        const id = manifestId(m);
        const spec = id === OPERATOR_ID ? { replicas: 1 } : {};
        state.live.set(id, { obj: { kind: m.kind, metadata: { name: m.name, namespace: m.namespace }, spec }, writer: 'cvo', pruneDisabled: false });
      }
    }
    if (state.gitopsRunning) {
      const objects = treeObjects(state.tree);
      for (const [id, o] of objects) {
        state.live.set(id, { obj: o, writer: 'gitops', pruneDisabled: annotatedPruneDisabled(o) });
        state.tracked.add(id);
      }
      for (const id of [...state.tracked]) {
        if (objects.has(id)) {
          continue;
        }
        state.tracked.delete(id);
        const live = state.live.get(id);
        if (live && !live.pruneDisabled) {
          state.live.delete(id);
          if (operands.has(id)) {
            state.operandsDeleted.push(`${id} (${step})`);
          }
        }
      }
    }
    if (operatorRuns(state)) {
      for (const id of operands) {
        const live = state.live.get(id);
        state.live.set(id, { obj: live?.obj ?? { metadata: {} }, writer: 'operator', pruneDisabled: live?.pruneDisabled ?? false });
      }
    }
  }
}

/** Applies one action; `next` is the tree a merge brings (its HANDOVER.md has the hand over to follow). */
function run(state: ModeChangeState, a: Action, next: Tree, operands: ReadonlySet<string>, label: string): void {
  switch (a.do) {
    case 'suspend':
      state.gitopsRunning = false;
      break;
    case 'set-overrides': {
      const ours = a.ours.map((k) => k.join('\u0000'));
      state.overrides = [...state.overrides.filter((o) => !ours.includes([o.kind, o.group, o.namespace, o.name].join('\u0000'))), ...a.set];
      break;
    }
    case 'replace-overrides':
      state.overrides = [...a.set];
      break;
    case 'remove-overrides':
      state.overrides = [];
      break;
    case 'scale-operator-down': {
      const d = state.live.get(OPERATOR_ID);
      if (d) {
        d.obj = { ...d.obj, spec: { ...d.obj.spec, replicas: 0 } };
      }
      break;
    }
    case 'untrack':
      a.refs.forEach((id) => state.tracked.delete(id));
      break;
    case 'prune-disabled':
      a.refs.forEach((id) => {
        const live = state.live.get(id);
        if (live) {
          live.pruneDisabled = true;
        }
      });
      break;
    case 'merge':
      state.tree = next;
      break;
    case 'follow-hand-over':
      state.tree = next;
      for (const h of sectionActions(next['HANDOVER.md'] ?? '', 'Hand over')) {
        run(state, h, next, operands, `${label}, hand over: ${h.do}`);
      }
      return;
    case 'sync':
      state.gitopsRunning = true;
      break;
  }
  settle(state, operands, `${label}: ${a.do}`);
}

/** Hands a cluster over to the tree `to` (a first hand over: the cluster is added to the fleet). */
export function handOver(state: ModeChangeState, to: Tree, operands: ReadonlySet<string>): void {
  state.tree = to;
  for (const a of sectionActions(to['HANDOVER.md'] ?? '', 'Hand over')) {
    run(state, a, to, operands, `hand over: ${a.do}`);
  }
}

/** Changes the cluster from the tree in git to `to`, by the way back of the tree it leaves. */
export function changeMode(state: ModeChangeState, to: Tree, operands: ReadonlySet<string>): void {
  const from = state.tree;
  for (const a of sectionActions(from['HANDOVER.md'] ?? '', 'Way back')) {
    run(state, a, to, operands, `way back: ${a.do}`);
  }
  // A way back that ends with GitOps stopped has not reached `to`.
  if (!state.gitopsRunning || state.tree !== to) {
    state.operandsDeleted.push(`the way back of ${from === to ? 'the tree' : 'the tree left'} never brings GitOps back on the new tree`);
  }
}

/** Objects two writers keep writing with different content once nothing moves. */
export function fights(state: ModeChangeState, operands: ReadonlySet<string>): string[] {
  const objects = treeObjects(state.tree);
  const same = sameAsRelease(state.tree, objects);
  const out: string[] = [];
  for (const id of state.live.keys()) {
    const writers = new Map<string, string>();
    const payload = payloadOf(state.tree).find((m) => manifestId(m) === id);
    if (payload && !isOverridden(payload, state.overrides)) {
      writers.set('cvo', 'release');
    }
    if (state.gitopsRunning && objects.has(id)) {
      writers.set('gitops', same.has(id) ? 'release' : 'rendered');
    }
    if (operatorRuns(state) && operands.has(id)) {
      writers.set('operator', 'operator');
    }
    if (new Set(writers.values()).size > 1) {
      out.push(`${id}: ${[...writers.keys()].join(' and ')}`);
    }
  }
  return out.sort();
}

/** Operands nobody writes, or missing. */
export function unmanagedOperands(state: ModeChangeState, operands: ReadonlySet<string>): string[] {
  const objects = treeObjects(state.tree);
  return [...operands].filter((id) => !state.live.has(id) || !((state.gitopsRunning && objects.has(id)) || operatorRuns(state))).sort();
}

/**
 * A merge of `next` and the sync that follows it: the GitOps engine writes the new tree and prunes what it
 * tracks and the tree no longer has (prune-disabled objects excepted), then the writers settle.
 */
export function mergeAndSync(state: ModeChangeState, next: Tree, operands: ReadonlySet<string>, label: string): void {
  state.tree = next;
  state.gitopsRunning = true;
  settle(state, operands, label);
}

/** Whether the operator runs (operator mode has it back). */
export { operatorRuns };
