/**
 * A model of one Argo CD sync of an Application, written from argoproj/gitops-engine@v0.7.2
 * (commit 3516b3928a06c7d04c200f06beaf04b3c2bef63f), read, not copied. It never imports src/.
 *
 * Facts used:
 * - Tasks run ordered by phase, then sync wave (`argocd.argoproj.io/sync-wave`), then kind and name; a wave
 *   starts only once the previous one is done and healthy (pkg/sync/sync_tasks.go Less; pkg/sync/sync_context.go).
 * - A prune task takes the wave of the live object it deletes; with the Application's `PruneLast=true` sync option
 *   (or the object's own), every prune moves to the last wave of the sync plus one
 *   (pkg/sync/sync_context.go getSyncTasks, syncPhaseLastWave).
 * - An object whose live copy carries `argocd.argoproj.io/sync-options: Prune=false` is never pruned
 *   (pkg/sync/sync_context.go pruneObject, SyncOptionDisablePrune).
 */
import { parse } from 'yaml';

/** One step of a sync, in order. */
export interface ArgoEvent {
  readonly wave: number;
  readonly action: 'apply' | 'prune';
  readonly object: string;
}

interface Manifest {
  kind: string;
  metadata: { name: string; namespace?: string; annotations?: Record<string, string> };
}

const keyOf = (o: Manifest): string => `${o.kind} ${o.metadata.namespace ?? ''}/${o.metadata.name}`;
const waveOf = (o: Manifest): number => Number(o.metadata.annotations?.['argocd.argoproj.io/sync-wave'] ?? '0');
const options = (o: Manifest): string[] => (o.metadata.annotations?.['argocd.argoproj.io/sync-options'] ?? '').split(',').map((s) => s.trim());

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

/** The Application's sync options, read from `<cluster>/gitops/`. */
export function applicationSyncOptions(tree: Record<string, string>, cluster: string): string[] {
  for (const [path, text] of Object.entries(tree)) {
    if (path.startsWith(`${cluster}/gitops/application.`)) {
      return ((parse(text) as { spec: { syncPolicy?: { syncOptions?: string[] } } }).spec.syncPolicy?.syncOptions ?? []).slice();
    }
  }
  throw new Error(`no Application under ${cluster}/gitops/`);
}

/** The automated sync Argo CD runs when the tree goes from `before` (live) to `after` (git), with `syncOptions`. */
export function argoSync(
  before: Record<string, string>,
  after: Record<string, string>,
  cluster: string,
  syncOptions: readonly string[],
): ArgoEvent[] {
  const live = objects(before, cluster);
  const target = objects(after, cluster);
  const tasks: ArgoEvent[] = [...target.values()].map((o) => ({ wave: waveOf(o), action: 'apply' as const, object: keyOf(o) }));
  const lastWave = Math.max(0, ...tasks.map((t) => t.wave)) + 1;
  for (const [key, o] of live) {
    if (target.has(key) || options(o).includes('Prune=false')) continue;
    const last = syncOptions.includes('PruneLast=true') || options(o).includes('PruneLast=true');
    tasks.push({ wave: last ? lastWave : waveOf(o), action: 'prune', object: key });
  }
  // Within a wave the engine deletes before it applies (pkg/sync/sync_context.go runTasks: "prune first").
  return tasks.sort((a, b) => a.wave - b.wave || (a.action === b.action ? (a.object < b.object ? -1 : 1) : a.action === 'prune' ? -1 : 1));
}
