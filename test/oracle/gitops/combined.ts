/**
 * The engine replay combined with the leader-migration simulator: the simulator's one "merge" step, in which the
 * whole tree lands at once, becomes one step per state the engine passes through (each Argo CD wave's applies and
 * prunes, each Flux Kustomization's apply and prune), so that "two writers fight" (KCM and CCM on one controller)
 * and "nothing runs the cloud controllers" are checked at every state the engine produces, not only at the end.
 * It never imports src/: the trees are the rendered files, read through the simulator's public entry points.
 *
 * Facts used:
 * - A running pod keeps the configuration it started with: a ConfigMap it mounts may change or go while it runs,
 *   but the process re-reads its leader-migration file only when it restarts (kubernetes/cloud-provider@v0.30.0
 *   app/controllermanager.go reads `--leader-migration-config` once, in Run). So the CCM changes only when the
 *   engine applies or prunes its workload, and then reads the ConfigMaps live at that moment.
 * - The KCM changes with the live objects it is configured from (OpenShift: FeatureGate and MachineConfig), as the
 *   simulator's tree scenario reads them.
 */
import { parse } from 'yaml';
import { formatViolation, simulate, SimProcess, SimScenario, SimStep } from '../leader-migration/simulator';
import { ccmProcess, ccmWorkload, objectKey, Tree, treeScenario, TreeScenarioOptions } from '../leader-migration/trees';
import { ReplayEvent } from './replay';

/** The simulator's view of one rendered cluster folder, from the rendered files (`<cluster>/…`). */
export function simTree(files: Readonly<Record<string, string>>, cluster: string): Tree {
  const objects = new Map<string, any>();
  for (const p of Object.keys(files).sort()) {
    if (p.startsWith(`${cluster}/`) && p.endsWith('.yaml') && !p.endsWith('/kustomization.yaml')) {
      const o = parse(files[p]);
      objects.set(objectKey(o), o);
    }
  }
  const text = (name: string): string | undefined => files[`${cluster}/${name}`];
  const plan = text('.migration.json');
  if (plan === undefined) throw new Error(`${cluster}/.migration.json is not rendered: the cluster has no migration to simulate`);
  return {
    objects,
    plan: JSON.parse(plan),
    ...(text('CONTROL-PLANE.md') !== undefined ? { controlPlane: text('CONTROL-PLANE.md') } : {}),
    ...(text('MIGRATION.md') !== undefined ? { migration: text('MIGRATION.md') } : {}),
  };
}

// the replay names a cluster-scoped object `Kind /name`, the simulator `Kind name`
const simKey = (key: string): string => key.replace(/^(\S+) \//, '$1 ');

/** The processes a scenario runs after its first `n` steps. */
function processesAfter(sc: SimScenario, n: number): { kcm: SimProcess; ccm: SimProcess | null } {
  let kcm = sc.kcm;
  let ccm: SimProcess | null = sc.ccm ?? null;
  for (const s of sc.steps.slice(0, n)) {
    if (s.kcm) kcm = s.kcm;
    if (s.ccm !== undefined) ccm = s.ccm;
  }
  return { kcm, ccm };
}

/**
 * The simulator scenario of moving from `before` to `after` by the plan's `steps`, the merge replaced by the
 * engine's `events`: a step for each event after which the KCM or the CCM runs differently.
 */
export function engineScenario(
  before: Readonly<Record<string, string>>,
  after: Readonly<Record<string, string>>,
  cluster: string,
  steps: readonly any[],
  events: readonly ReplayEvent[],
  opts: TreeScenarioOptions,
): SimScenario {
  const from = simTree(before, cluster);
  const to = simTree(after, cluster);
  const whole = treeScenario(from, to, steps, opts);
  const mergeAt = whole.steps.findIndex((s) => s.label.startsWith('merge:'));
  // the plan's steps up to the merge (treeScenario puts a merge last when the plan names none)
  const explicit = steps.findIndex((s) => s.when === 'merge');
  const firstAfter = steps.findIndex((s) => s.when === 'after-merge');
  const upTo = steps.slice(0, explicit >= 0 ? explicit + 1 : firstAfter >= 0 ? firstAfter : steps.length);
  // the live objects once the plan's steps before the merge ran (a MachineConfig the plan deletes is gone)
  const live = new Map(from.objects);
  for (const s of upTo) {
    const deleted = /^oc delete machineconfig (\S+)/.exec(s.command ?? '')?.[1];
    if (deleted) live.delete(`MachineConfig ${deleted}`);
  }
  const workloads = new Set([ccmWorkload(from.objects), ccmWorkload(to.objects)].filter((w) => w).map(objectKey));
  let { kcm, ccm } = processesAfter(whole, mergeAt);
  const expanded: SimStep[] = [];
  for (const e of events) {
    const key = simKey(e.object);
    if (e.action === 'apply') live.set(key, to.objects.get(key));
    else if (e.action === 'prune') live.delete(key);
    const at = treeScenario(from, { ...to, objects: new Map(live) }, upTo, opts);
    const nextKcm = processesAfter(at, at.steps.length).kcm;
    const nextCcm = workloads.has(key) ? (ccmProcess(live) ?? null) : ccm;
    const step: { -readonly [K in keyof SimStep]: SimStep[K] } = { label: `merge: ${e.by} ${e.action} ${e.object}` };
    if (JSON.stringify(nextKcm) !== JSON.stringify(kcm)) {
      step.kcm = kcm = nextKcm;
      if (whole.steps[mergeAt].overtaken) step.overtaken = true;
    }
    if (JSON.stringify(nextCcm) !== JSON.stringify(ccm)) step.ccm = ccm = nextCcm;
    if (step.kcm || step.ccm !== undefined) expanded.push(step);
  }
  // whatever the engine's events left out (objects outside the stage folders) lands with the last of them
  const end = processesAfter(whole, mergeAt + 1);
  const rest: { -readonly [K in keyof SimStep]: SimStep[K] } = { label: 'merge: the rest of the tree' };
  if (JSON.stringify(end.kcm) !== JSON.stringify(kcm)) rest.kcm = end.kcm;
  if (JSON.stringify(end.ccm) !== JSON.stringify(ccm)) rest.ccm = end.ccm;
  if (rest.kcm || rest.ccm !== undefined) expanded.push(rest);
  return { ...whole, steps: [...whole.steps.slice(0, mergeAt), ...expanded, ...whole.steps.slice(mergeAt + 1)] };
}

/** The simulator's violations of the change as the engine applies it, as text. */
export function engineViolations(
  before: Readonly<Record<string, string>>,
  after: Readonly<Record<string, string>>,
  cluster: string,
  steps: readonly any[],
  events: readonly ReplayEvent[],
  opts: TreeScenarioOptions,
): string[] {
  return simulate(engineScenario(before, after, cluster, steps, events, opts)).violations.map(formatViolation);
}

/**
 * The cluster's folder as the engine leaves it after each of `events` (paths relative to `<cluster>/`): an applied
 * object takes its file from `after`, a pruned one loses its file from `before`, and the files that are not
 * objects of a stage (HANDOVER.md, .migration.json) are `after`'s. For models that read a tree, such as CVO's.
 */
export function engineTrees(
  before: Readonly<Record<string, string>>,
  after: Readonly<Record<string, string>>,
  cluster: string,
  events: readonly ReplayEvent[],
): Record<string, string>[] {
  const stage = new RegExp(`^${cluster}/[0-9]{2}-[^/]+/[^/]+\\.yaml$`);
  const byKey = (files: Readonly<Record<string, string>>): Map<string, string> =>
    new Map(
      Object.keys(files)
        .filter((p) => stage.test(p) && !p.endsWith('/kustomization.yaml'))
        .map((p) => {
          const o = parse(files[p]);
          return [`${o.kind} ${o.metadata.namespace ?? ''}/${o.metadata.name}`, p];
        }),
    );
  const was = byKey(before);
  const now = byKey(after);
  const live = new Map([...was].map(([k, p]) => [k, [p, before[p]] as const]));
  const rest = Object.fromEntries(Object.entries(after).filter(([p]) => p.startsWith(`${cluster}/`) && !stage.test(p)));
  const out: Record<string, string>[] = [];
  for (const e of events) {
    if (e.action === 'apply') live.set(e.object, [now.get(e.object)!, after[now.get(e.object)!]]);
    else if (e.action === 'prune') live.delete(e.object);
    const files = { ...rest, ...Object.fromEntries([...live.values()]) };
    out.push(Object.fromEntries(Object.entries(files).map(([p, v]) => [p.slice(cluster.length + 1), v])));
  }
  return out;
}
