/**
 * A model of Argo CD syncing the Applications of one cluster, written from argoproj/argo-cd@v3.5.1
 * (commit 109ca7ca71139e514114499d294a492e7910a965; its gitops-engine is in the tree under gitops-engine/),
 * read, not copied. It never imports src/: it reads a rendered tree as files, as Argo CD reads the repository.
 *
 * One sync (gitops-engine/pkg/sync/sync_context.go, docs/user-guide/sync-waves.md):
 * - Tasks run ordered by phase (PreSync, Sync, PostSync; a hook is an object annotated `argocd.argoproj.io/hook`),
 *   then sync wave (`argocd.argoproj.io/sync-wave`, default 0), then kind and name. A wave starts only once every
 *   task of the previous one is done and healthy; within a wave prunes run first ("prune first" in runTasks).
 * - A prune task's wave is the wave of the live object, then the prune waves are swapped end for end (getSyncTasks:
 *   "reverse of sync wave (creation order)"; the swap is among the waves that hold a prune). gitops-engine@v0.7.3
 *   and earlier (Argo CD 2.13 and before) keep each prune in its own wave: `pruneWaves: 'own'`.
 * - With `PruneLast=true` (Application sync option, or the live object's `argocd.argoproj.io/sync-options`) a prune
 *   moves to the last Sync-phase wave plus one, after every wave was applied and healthy.
 * - A live object with `Prune=false` in its sync options is never deleted (pruneObject, SyncOptionDisablePrune).
 * - Hooks are not tracked resources: they run in their phase and are never pruned; without a delete policy the
 *   previous run is deleted before the new one is created (`BeforeHookCreation`).
 * - With `ServerSideApply=true` the apply is `kubectl apply --server-side --force-conflicts`
 *   (docs/user-guide/sync-options.md): Argo CD takes every field it sets from any other field manager, so an
 *   operator writing the same fields and Argo CD overwrite each other at every sync ("two writers fight").
 *
 * The Application and its parent (docs/user-guide/auto_sync.md, docs/user-guide/app_deletion.md,
 * docs/operator-manual/cluster-bootstrapping.md, cmd/util/app.go, controller/appcontroller.go):
 * - `automated` syncs whenever git differs from the last synced revision; `selfHeal` also syncs when the live
 *   objects drift from git (autoSync: GetSelfHeal); `prune` lets that sync delete what left git.
 * - `argocd app set <app> --sync-policy none` only sets the Application's spec.syncPolicy.automated to nil.
 * - A root (app of apps) holding the child Application as a resource sees that change as drift: with self-heal it
 *   re-applies the child from git, automated included, unless the root ignores /spec/syncPolicy/automated with
 *   RespectIgnoreDifferences=true.
 * - Deleting an Application deletes its resources only with the `resources-finalizer.argocd.argoproj.io` finalizer
 *   (`argocd app delete --cascade` adds it); without it they stay, unmanaged. A child deleted by hand that the root
 *   still has in git is recreated by the root's automated sync; a child that left git is pruned by the root.
 */
import { parse } from 'yaml';

/** One step of a sync, in order. */
export interface ArgoEvent {
  readonly phase: 'PreSync' | 'Sync' | 'PostSync';
  readonly wave: number;
  readonly action: 'apply' | 'prune' | 'hook';
  readonly object: string;
}

interface Manifest {
  kind: string;
  metadata: { name: string; namespace?: string; annotations?: Record<string, string>; finalizers?: string[] };
  spec?: any;
}

const keyOf = (o: Manifest): string => `${o.kind} ${o.metadata.namespace ?? ''}/${o.metadata.name}`;
const waveOf = (o: Manifest): number => Number(o.metadata.annotations?.['argocd.argoproj.io/sync-wave'] ?? '0');
const options = (o: Manifest): string[] => (o.metadata.annotations?.['argocd.argoproj.io/sync-options'] ?? '').split(',').map((s) => s.trim());
const hookOf = (o: Manifest): string | undefined => o.metadata.annotations?.['argocd.argoproj.io/hook'];
const PHASES = ['PreSync', 'Sync', 'PostSync'] as const;

/** The objects the cluster's Application applies: every manifest of its stage folders (`<cluster>/NN-stage/`). */
function objects(tree: Record<string, string>, cluster: string): Map<string, Manifest> {
  const out = new Map<string, Manifest>();
  for (const [path, text] of Object.entries(tree)) {
    if (new RegExp(`^${cluster}/[0-9]{2}-[^/]+/[^/]+\\.yaml$`).test(path) && !path.endsWith('/kustomization.yaml')) {
      const o = parse(text) as Manifest;
      out.set(keyOf(o), o);
    }
  }
  return out;
}

/** The cluster's Application as rendered in `<cluster>/gitops/`. */
export function application(tree: Record<string, string>, cluster: string): Manifest {
  for (const [path, text] of Object.entries(tree)) {
    if (path.startsWith(`${cluster}/gitops/application.`)) {
      return parse(text) as Manifest;
    }
  }
  throw new Error(`no Application under ${cluster}/gitops/`);
}

/** The Application's sync options, read from `<cluster>/gitops/`. */
export function applicationSyncOptions(tree: Record<string, string>, cluster: string): string[] {
  return ((application(tree, cluster).spec?.syncPolicy?.syncOptions ?? []) as string[]).slice();
}

/** How a version of Argo CD places prune tasks: swapped end for end (3.x) or in the object's own wave (2.13 and before). */
export interface ArgoSyncOptions {
  readonly pruneWaves?: 'reversed' | 'own';
}

/** The automated sync Argo CD runs when the tree goes from `before` (live) to `after` (git), with `syncOptions`. */
export function argoSync(
  before: Record<string, string>,
  after: Record<string, string>,
  cluster: string,
  syncOptions: readonly string[],
  opts: ArgoSyncOptions = {},
): ArgoEvent[] {
  const live = objects(before, cluster);
  const target = objects(after, cluster);
  const tasks: ArgoEvent[] = [...target.values()].map((o) => {
    const hook = hookOf(o);
    return hook
      ? {
          phase: (PHASES as readonly string[]).includes(hook) ? (hook as ArgoEvent['phase']) : 'Sync',
          wave: waveOf(o),
          action: 'hook' as const,
          object: keyOf(o),
        }
      : { phase: 'Sync' as const, wave: waveOf(o), action: 'apply' as const, object: keyOf(o) };
  });
  const prunes: { wave: number; o: Manifest }[] = [];
  for (const [key, o] of live) {
    if (target.has(key) || hookOf(o) !== undefined || options(o).includes('Prune=false')) continue;
    prunes.push({ wave: waveOf(o), o });
  }
  if (opts.pruneWaves !== 'own') {
    const waves = [...new Set(prunes.map((p) => p.wave))].sort((a, b) => a - b);
    const swapped = new Map(waves.map((w, i) => [w, waves[waves.length - 1 - i]]));
    prunes.forEach((p) => (p.wave = swapped.get(p.wave)!));
  }
  const lastWave = Math.max(0, ...tasks.filter((t) => t.phase === 'Sync').map((t) => t.wave), ...prunes.map((p) => p.wave)) + 1;
  for (const p of prunes) {
    const last = syncOptions.includes('PruneLast=true') || options(p.o).includes('PruneLast=true');
    tasks.push({ phase: 'Sync', wave: last ? lastWave : p.wave, action: 'prune', object: keyOf(p.o) });
  }
  const rank = (e: ArgoEvent): number => PHASES.indexOf(e.phase);
  return tasks.sort(
    (a, b) =>
      rank(a) - rank(b) ||
      a.wave - b.wave ||
      (a.action === b.action ? (a.object < b.object ? -1 : 1) : a.action === 'prune' ? -1 : b.action === 'prune' ? 1 : 0),
  );
}

/** The Application's `spec.syncPolicy.automated`, as a child or root holds it. */
export interface AutomatedPolicy {
  readonly prune?: boolean;
  readonly selfHeal?: boolean;
}

/** An Application as the models track it: its live sync policy, and what git holds for it. */
export interface AppState {
  readonly name: string;
  /** Live `spec.syncPolicy.automated`; undefined: manual sync. */
  readonly automated?: AutomatedPolicy;
  /** Whether the live Application carries resources-finalizer.argocd.argoproj.io. */
  readonly cascade: boolean;
}

/** `argocd app set <app> --sync-policy none` (cmd/util/app.go: spec.syncPolicy.automated = nil). */
export function setSyncPolicyNone(app: AppState): AppState {
  return { name: app.name, cascade: app.cascade };
}

/**
 * The child as its root leaves it after the root's next reconcile: a root with automated self-heal re-applies the
 * child from git (sync policy included) unless the root ignores the child's /spec/syncPolicy/automated.
 */
export function rootReconcile(
  root: { automated?: AutomatedPolicy; ignoresChildAutomated?: boolean },
  childLive: AppState,
  childInGit: AppState,
): AppState {
  const drift = JSON.stringify(childLive.automated ?? null) !== JSON.stringify(childInGit.automated ?? null);
  if (!drift || !root.automated?.selfHeal || root.ignoresChildAutomated) return childLive;
  return { ...childInGit };
}

/** What deleting an Application leaves of its resources: all deleted with the finalizer, all kept without. */
export function deleteApplication(app: AppState, resources: readonly string[]): { deleted: string[]; orphaned: string[] } {
  return app.cascade ? { deleted: [...resources], orphaned: [] } : { deleted: [], orphaned: [...resources] };
}

/** A child Application as rendered under its root: its automated policy and whether it carries the cascade finalizer. */
export function appState(tree: Record<string, string>, cluster: string): AppState {
  const app = application(tree, cluster);
  return {
    name: app.metadata.name,
    ...(app.spec?.syncPolicy?.automated ? { automated: app.spec.syncPolicy.automated as AutomatedPolicy } : {}),
    cascade: (app.metadata.finalizers ?? []).some((f) => f.startsWith('resources-finalizer.argocd.argoproj.io')),
  };
}
