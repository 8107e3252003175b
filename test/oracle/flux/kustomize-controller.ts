/**
 * A model of Flux's kustomize-controller applying one cluster's stage chain, written from
 * fluxcd/kustomize-controller@v1.9.4 (commit 1324b615da01038e2859cbcde604bd5434f21933), read, not copied.
 * It never imports src/: it reads a rendered tree as files, as Flux reads the repository.
 *
 * Facts used:
 * - A Kustomization applies the objects of its path, then, with `spec.prune`, deletes the objects of its
 *   last inventory that are no longer in the path (internal/controller/kustomization_controller.go,
 *   reconcile: apply, then `r.prune(..., staleObjects)`).
 * - An object labelled or annotated `kustomize.toolkit.fluxcd.io/prune: disabled` is never deleted by it
 *   (same file, deleteObjects: Exclusions).
 * - A Kustomization with `dependsOn` reconciles only once each dependency is Ready
 *   (same file, checkDependencies; DependencyNotReady).
 * - A Kustomization with `dependsOn` also waits until each dependency has applied the source's current
 *   revision (same file, checkDependencies: "dependency '%s' revision is not up to date"), so one commit goes
 *   through the chain a stage at a time, and a stage that does not reconcile holds every stage after it.
 * - A Kustomization deleted from git is deleted by the one that applied it (the entry, prune: true); its
 *   finalizer deletes its inventory only when the deletion policy says so: MirrorPrune follows prune,
 *   Delete and WaitForTermination delete, Orphan leaves everything, and a suspended one deletes nothing
 *   (same file, finalizerShouldDeleteResources; api/v1/kustomization_types.go DeletionPolicy).
 * - A suspended Kustomization (`spec.suspend: true`, what `flux suspend kustomization` sets) neither applies nor
 *   prunes (same file, Reconcile: "Reconciliation is suspended for this object").
 * - The `kustomize.toolkit.fluxcd.io/ssa` annotation of an object in git: `Ignore` skips it, `IfNotPresent`
 *   creates it only when it is missing, `Merge` applies it without removing fields other managers set (same file,
 *   apply: ExclusionSelector, IfNotPresentSelector, Cleanup.Exclusions; api/v1 IgnoreValue, IfNotPresentValue,
 *   MergeValue). Any other object is applied server-side with Flux's field manager, so a field another manager
 *   set and Flux does not render stays (an annotation set by hand outlives the return to git).
 * - Kustomizations that do not depend on one another reconcile independently, each on its own interval, up to
 *   `--concurrent` of them at once (main.go, default 4), so their order is not fixed: a replay may take them by name or the reverse.
 */
import { parse } from 'yaml';

/** `Kind namespace/name` of a rendered object. */
export type ObjectKey = string;

interface FluxKustomization {
  readonly name: string;
  readonly folder: string;
  readonly prune: boolean;
  readonly deletionPolicy: string;
  readonly dependsOn: readonly string[];
  readonly suspend: boolean;
}

/** One thing the controller does, in order. */
export interface FluxEvent {
  readonly kustomization: string;
  readonly action: 'apply' | 'prune' | 'orphan';
  readonly objects: readonly ObjectKey[];
}

const keyOf = (o: { kind: string; metadata: { name: string; namespace?: string } }): ObjectKey =>
  `${o.kind} ${o.metadata.namespace ?? ''}/${o.metadata.name}`;

function kustomizations(tree: Record<string, string>, cluster: string): Map<string, FluxKustomization> {
  const out = new Map<string, FluxKustomization>();
  for (const [path, text] of Object.entries(tree)) {
    if (!path.startsWith(`${cluster}/gitops/`) || path.endsWith('/kustomization.yaml')) {
      continue;
    }
    const o = parse(text) as Record<string, any>;
    if (o.kind !== 'Kustomization' || !String(o.apiVersion).startsWith('kustomize.toolkit.fluxcd.io/')) {
      continue;
    }
    const folder = String(o.spec.path).replace(/^\.\//, '');
    out.set(o.metadata.name, {
      name: o.metadata.name,
      folder: folder.slice(folder.lastIndexOf(`${cluster}/`)),
      prune: o.spec.prune === true,
      deletionPolicy: o.spec.deletionPolicy ?? 'MirrorPrune',
      dependsOn: ((o.spec.dependsOn ?? []) as { name: string }[]).map((d) => d.name),
      suspend: o.spec.suspend === true,
    });
  }
  return out;
}

/** The objects a Kustomization applies: every manifest of its folder, whether each may be pruned, and its ssa mode. */
function inventory(tree: Record<string, string>, folder: string): Map<ObjectKey, boolean> {
  return new Map([...manifests(tree, folder)].map(([k, m]) => [k, m.prunable]));
}

function manifests(tree: Record<string, string>, folder: string): Map<ObjectKey, { prunable: boolean; ssa: string }> {
  const out = new Map<ObjectKey, { prunable: boolean; ssa: string }>();
  for (const [path, text] of Object.entries(tree)) {
    if (path.startsWith(`${folder}/`) && !path.slice(folder.length + 1).includes('/') && !path.endsWith('/kustomization.yaml')) {
      const o = parse(text) as {
        kind: string;
        metadata: { name: string; namespace?: string; annotations?: Record<string, string>; labels?: Record<string, string> };
      };
      const disabled =
        o.metadata.annotations?.['kustomize.toolkit.fluxcd.io/prune'] === 'disabled' ||
        o.metadata.labels?.['kustomize.toolkit.fluxcd.io/prune'] === 'disabled';
      out.set(keyOf(o), { prunable: !disabled, ssa: o.metadata.annotations?.['kustomize.toolkit.fluxcd.io/ssa'] ?? 'Apply' });
    }
  }
  return out;
}

/** The Kustomizations in dependsOn order (a dependency before its dependents; ties by name, or its reverse). */
function ordered(ks: Map<string, FluxKustomization>, ties: 'by-name' | 'reversed' = 'by-name'): FluxKustomization[] {
  const done = new Set<string>();
  const out: FluxKustomization[] = [];
  const visit = (k: FluxKustomization): void => {
    if (done.has(k.name)) return;
    done.add(k.name);
    for (const d of k.dependsOn) {
      const dep = ks.get(d);
      if (dep) visit(dep);
    }
    out.push(k);
  };
  const sign = ties === 'by-name' ? 1 : -1;
  [...ks.values()].sort((a, b) => (a.name < b.name ? -sign : sign)).forEach(visit);
  return out;
}

/** What the cluster does around the replay: Kustomizations suspended by hand (`flux suspend kustomization`). */
export interface FluxReplayOptions {
  readonly suspended?: readonly string[];
  /** The order of Kustomizations that do not depend on one another (default by name). */
  readonly ties?: 'by-name' | 'reversed';
}

/**
 * What Flux does to a cluster when its rendered tree goes from `before` to `after`: the entry Kustomization
 * first (it applies the chain and deletes the stage Kustomizations that left git, each by its deletion policy),
 * then each stage in dependsOn order: apply, then prune what left its folder. A suspended stage, and every
 * stage that depends on it, does nothing.
 */
export function fluxReplay(
  before: Record<string, string>,
  after: Record<string, string>,
  cluster: string,
  opts: FluxReplayOptions = {},
): FluxEvent[] {
  const was = kustomizations(before, cluster);
  const now = kustomizations(after, cluster);
  const suspended = new Set(opts.suspended ?? []);
  const events: FluxEvent[] = [];
  for (const k of ordered(was, opts.ties)) {
    if (now.has(k.name)) continue;
    const objects = [...inventory(before, k.folder).keys()].sort();
    const deletes =
      !suspended.has(k.name) &&
      (k.deletionPolicy === 'Delete' || k.deletionPolicy === 'WaitForTermination' || (k.deletionPolicy === 'MirrorPrune' && k.prune));
    events.push({ kustomization: k.name, action: deletes ? 'prune' : 'orphan', objects });
  }
  const held = new Set<string>();
  const live = new Set([...was.values()].flatMap((k) => [...inventory(before, k.folder).keys()]));
  for (const k of ordered(now, opts.ties)) {
    if (suspended.has(k.name) || k.suspend || k.dependsOn.some((d) => held.has(d))) {
      held.add(k.name);
      continue;
    }
    const next = inventory(after, k.folder);
    const applied = [...manifests(after, k.folder)].filter(([key, m]) => m.ssa !== 'Ignore' && !(m.ssa === 'IfNotPresent' && live.has(key)));
    events.push({ kustomization: k.name, action: 'apply', objects: applied.map(([key]) => key).sort() });
    const old = was.get(k.name);
    if (old && k.prune) {
      const stale = [...inventory(before, old.folder).entries()].filter(([key, prunable]) => prunable && !next.has(key)).map(([key]) => key);
      if (stale.length > 0) events.push({ kustomization: k.name, action: 'prune', objects: stale.sort() });
    }
  }
  return events;
}

/** Objects of `before` that are in no folder of `after` and that Flux neither deleted: left behind with no owner. */
export function orphans(events: readonly FluxEvent[]): ObjectKey[] {
  return events.filter((e) => e.action === 'orphan').flatMap((e) => e.objects);
}
