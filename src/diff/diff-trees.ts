import { LineCounter, parseAllDocuments } from 'yaml';
import { tagRefusal } from '../secrets/yaml-findings';
import { flatten } from './flatten';
import { boundedData, nestingRefusal } from '../util/bounded-yaml';
import { FLEET_JSON, parseFleetJson } from '../pipeline/fleet-summary';
import { UserError } from '../util/user-error';

/** A rendered object in a tree. */
export interface TreeObject {
  /** Cluster folder (first path segment), `_fleet` for fleet entry points. */
  readonly cluster: string;
  /** File path relative to the tree root. */
  readonly file: string;
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
  /** The parsed object. */
  readonly body: Record<string, unknown>;
}

/** One field that differs. */
export interface FieldChange {
  /** Dotted path, list items by name where they have one. */
  readonly path: string;
  /** Value before, undefined when added. */
  readonly before?: unknown;
  /** Value after, undefined when removed. */
  readonly after?: unknown;
}

/** A change flagged for reviewers, listed before everything else. */
export interface Risk {
  /** Cluster label, `<platform>/<cluster>` when the platform is known. */
  readonly cluster: string;
  /** `Kind namespace/name` of the object, or empty for a cluster-level risk. */
  readonly object: string;
  /** What is risky and why. */
  readonly message: string;
}

/** What changed in one object. */
export interface ObjectChange {
  readonly state: 'added' | 'removed' | 'changed';
  /** `Kind namespace/name`. */
  readonly object: string;
  readonly cluster: string;
  /** Field changes (for `changed`). */
  readonly fields: readonly FieldChange[];
  /**
   * Readable lines that replace some field changes (RBAC rules as grants).
   *
   * @default - none
   */
  readonly summary?: readonly string[];
}

/** The whole comparison. */
export interface TreeDiff {
  /** Risky changes, in a stable order. */
  readonly risks: readonly Risk[];
  /** Changes by cluster label, clusters and objects sorted. */
  readonly clusters: ReadonlyMap<string, readonly ObjectChange[]>;
  /** Clusters added or removed as a whole. */
  readonly addedClusters: readonly string[];
  readonly removedClusters: readonly string[];
  /** Files that are not Kubernetes objects and changed (summaries, kustomizations). */
  readonly otherFiles: readonly string[];
}

/** Files of a tree: path with `/` separators -> content. */
export type Tree = ReadonlyMap<string, string>;

const WORKLOAD_KINDS = ['Deployment', 'DaemonSet', 'StatefulSet'];

/** Parses the objects of a tree (every `*.yaml` but kustomizations). Throws with the file on bad YAML. */
export function treeObjects(tree: Tree): TreeObject[] {
  const objects: TreeObject[] = [];
  for (const [file, content] of tree) {
    if (!/\.ya?ml$/.test(file) || /(^|\/)kustomization\.ya?ml$/.test(file)) {
      continue;
    }
    // one object per file, except the single manifest of output mode manifest-dir
    const lines = new LineCounter();
    const docs = parseAllDocuments(content, { lineCounter: lines });
    for (const doc of docs) {
      if (doc.errors.length > 0) {
        throw new UserError(
          'usage',
          `${file}: ${nestingRefusal(doc, 'rendered object') ?? `not valid YAML: ${doc.errors[0].message.split('\n')[0]}`}`,
        );
      }
      const tagged = tagRefusal(doc, lines, 'a rendered object');
      if (tagged) {
        throw new UserError('usage', `${file}: ${tagged}`);
      }
      const read = boundedData(doc, 'rendered object');
      if ('refused' in read) {
        throw new UserError('usage', `${file}: ${read.refused}`);
      }
      const body = read.data;
      const o = body as { apiVersion?: string; kind?: string; metadata?: { name?: string; namespace?: string } };
      if (!o || typeof o !== 'object' || !o.kind || !o.metadata?.name) {
        continue;
      }
      objects.push({
        cluster: file.split('/')[0],
        file,
        apiVersion: String(o.apiVersion ?? ''),
        kind: o.kind,
        namespace: o.metadata.namespace,
        name: o.metadata.name,
        body: body as Record<string, unknown>,
      });
    }
  }
  return objects;
}

function objectId(o: TreeObject): string {
  return `${o.kind} ${o.namespace ? `${o.namespace}/` : ''}${o.name}`;
}

function key(o: TreeObject): string {
  const group = o.apiVersion.includes('/') ? o.apiVersion.slice(0, o.apiVersion.indexOf('/')) : '';
  return `${o.cluster}\u0000${group}\u0000${objectId(o)}`;
}

/** Compares two rendered trees object by object and field by field, and flags risky changes. */
export function diffTrees(base: Tree, head: Tree): TreeDiff {
  const fleet = fleetFacts(base, head);
  const { clusters, risks } = objectChanges(base, head, fleet.label);
  const clusterNames = (tree: Tree) =>
    new Set(
      [...tree.keys()]
        .filter((p) => p.includes('/'))
        .map((p) => p.split('/')[0])
        .filter((c) => c !== '_fleet'),
    );
  const baseClusters = clusterNames(base);
  const headClusters = clusterNames(head);
  const addedClusters = [...headClusters]
    .filter((c) => !baseClusters.has(c))
    .sort()
    .map(fleet.label);
  const removedClusters = [...baseClusters]
    .filter((c) => !headClusters.has(c))
    .sort()
    .map(fleet.label);
  risks.push(...fleetRisks(fleet, removedClusters));
  const otherFiles = [...new Set([...base.keys(), ...head.keys()])]
    .filter((p) => !/\.ya?ml$/.test(p) || /(^|\/)kustomization\.ya?ml$/.test(p))
    .filter((p) => base.get(p) !== head.get(p))
    .sort();

  const sortedClusters = new Map([...clusters.entries()].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
  return { risks: sortRisks(risks), clusters: sortedClusters, addedClusters, removedClusters, otherFiles };
}

/** What the fleet files (.fleet.json) of both trees say: each cluster's phase and platform, and its label (`platform/name`). */
interface FleetFacts {
  readonly label: (cluster: string) => string;
  readonly phases: { readonly base: Map<string, string>; readonly head: Map<string, string> };
  readonly platformOf: { readonly base: Map<string, string>; readonly head: Map<string, string> };
}

function fleetFacts(base: Tree, head: Tree): FleetFacts {
  const platforms = new Map<string, string>();
  const phases = { base: new Map<string, string>(), head: new Map<string, string>() };
  const platformOf = { base: new Map<string, string>(), head: new Map<string, string>() };
  for (const [which, tree] of [
    ['base', base],
    ['head', head],
  ] as const) {
    const json = tree.get(FLEET_JSON);
    for (const e of json ? safeEntries(json) : []) {
      platforms.set(e.name, e.platform.toLowerCase());
      phases[which].set(e.name, e.phase);
      platformOf[which].set(e.name, e.platform);
    }
  }
  const label = (cluster: string) => (platforms.has(cluster) ? `${platforms.get(cluster)}/${cluster}` : cluster);
  return { label, phases, platformOf };
}

/** Each object added, removed or changed, by cluster, and the risks of those changes. */
function objectChanges(base: Tree, head: Tree, label: (cluster: string) => string): { clusters: Map<string, ObjectChange[]>; risks: Risk[] } {
  const before = new Map(treeObjects(base).map((o) => [key(o), o]));
  const after = new Map(treeObjects(head).map((o) => [key(o), o]));
  const risks: Risk[] = [];
  const clusters = new Map<string, ObjectChange[]>();
  const add = (c: ObjectChange) => clusters.set(c.cluster, [...(clusters.get(c.cluster) ?? []), c]);

  for (const k of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const b = before.get(k);
    const a = after.get(k);
    const o = (a ?? b)!;
    const cluster = label(o.cluster);
    const id = objectId(o);
    if (!b) {
      add({ state: 'added', object: id, cluster, fields: [] });
      risks.push(...addedRisks(cluster, a!));
      continue;
    }
    if (!a) {
      add({ state: 'removed', object: id, cluster, fields: [] });
      if (o.cluster !== '_fleet' || o.kind === 'Application' || o.kind === 'AppProject') {
        risks.push({ cluster, object: id, message: removedMessage(b) });
      }
      if (b.kind === 'MachineConfig') {
        risks.push({ cluster, object: id, message: MACHINE_CONFIG_REBOOT });
      }
      continue;
    }
    const fields = fieldChanges(b.body, a.body);
    if (fields.length > 0) {
      const rbac = (a.kind === 'Role' || a.kind === 'ClusterRole') && fields.some((f) => f.path.startsWith('rules'));
      add(
        rbac
          ? { state: 'changed', object: id, cluster, fields: fields.filter((f) => !f.path.startsWith('rules')), summary: grantSummary(b, a) }
          : { state: 'changed', object: id, cluster, fields },
      );
      risks.push(...changedRisks(cluster, b, a, fields));
    }
  }
  return { clusters, risks };
}

/** The risks of the fleet's changes: clusters removed, a cluster changing platform or migration phase. */
function fleetRisks({ label, phases, platformOf }: FleetFacts, removedClusters: readonly string[]): Risk[] {
  const risks: Risk[] = [];
  for (const c of removedClusters) {
    risks.push({
      cluster: c,
      object: '',
      message:
        'cluster removed from the fleet: its Application (no resources finalizer) or Flux chain (deletionPolicy Orphan) goes, ' +
        'its CCM keeps running unmanaged; remove it from the cluster by hand if that is the intent',
    });
  }
  for (const [name, platform] of platformOf.head) {
    const old = platformOf.base.get(name);
    if (old !== undefined && old !== platform) {
      risks.push({
        cluster: label(name),
        object: '',
        message: `platform changes from ${old} to ${platform}: an existing cluster does not change cloud; this replaces one CCM with another (wrong spec or wrong name?)`,
      });
    }
  }
  for (const [name, phase] of phases.head) {
    const old = phases.base.get(name);
    if (old !== undefined && old !== phase) {
      risks.push({ cluster: label(name), object: '', message: `migration phase changes from ${old} to ${phase}` });
    }
  }
  return risks;
}

function safeEntries(json: string) {
  try {
    return parseFleetJson(json);
  } catch {
    return [];
  }
}

/** Field-level changes between two objects. */
export function fieldChanges(before: unknown, after: unknown): FieldChange[] {
  const b = flatten(before);
  const a = flatten(after);
  const changes: FieldChange[] = [];
  for (const path of [...new Set([...b.keys(), ...a.keys()])].sort()) {
    const x = b.get(path);
    const y = a.get(path);
    if (JSON.stringify(x) !== JSON.stringify(y)) {
      changes.push({ path, before: b.has(path) ? x : undefined, after: a.has(path) ? y : undefined });
    }
  }
  return changes;
}

type Rule = {
  readonly apiGroups?: string[];
  readonly resources?: string[];
  readonly verbs?: string[];
  readonly resourceNames?: string[];
  readonly nonResourceURLs?: string[];
};

/** Every (group, resource, verb, name) a rule list grants, as strings. */
export function grants(rules: readonly Rule[] | undefined): Set<string> {
  const out = new Set<string>();
  for (const r of rules ?? []) {
    for (const verb of r.verbs ?? []) {
      for (const url of r.nonResourceURLs ?? []) {
        out.add(`${verb} ${url}`);
      }
      for (const group of r.apiGroups ?? []) {
        for (const resource of r.resources ?? []) {
          const names = r.resourceNames && r.resourceNames.length > 0 ? r.resourceNames : ['*'];
          for (const name of names) {
            out.add(`${verb} ${group ? `${group}/` : ''}${resource}${name === '*' ? '' : `/${name}`}`);
          }
        }
      }
    }
  }
  return out;
}

/** RBAC rule changes as grants: "now grants …", "no longer grants …". */
function grantSummary(b: TreeObject, a: TreeObject): string[] {
  const before = grants((b.body as { rules?: Rule[] }).rules);
  const after = grants((a.body as { rules?: Rule[] }).rules);
  const added = [...after].filter((g) => !before.has(g)).sort();
  const removed = [...before].filter((g) => !after.has(g)).sort();
  return [
    ...(added.length > 0 ? [`now grants: ${added.join(', ')}`] : []),
    ...(removed.length > 0 ? [`no longer grants: ${removed.join(', ')}`] : []),
    ...(added.length === 0 && removed.length === 0 ? ['rules reordered or regrouped; the same permissions'] : []),
  ];
}

/** What the engine does with an object that leaves git. */
function removedMessage(o: TreeObject): string {
  const annotations = (o.body.metadata as { annotations?: Record<string, string> } | undefined)?.annotations ?? {};
  if (annotations['argocd.argoproj.io/sync-options']?.includes('Prune=false') || annotations['kustomize.toolkit.fluxcd.io/prune'] === 'disabled') {
    return 'removed from git but prune-protected: Argo CD and Flux leave it in the cluster; delete it by hand if that is the intent';
  }
  if (o.kind === 'Application') {
    return 'Application removed: Argo CD deletes the Application only; without the resources finalizer its objects stay, orphaned and unmanaged';
  }
  if (o.kind === 'Kustomization' && o.apiVersion.startsWith('kustomize.toolkit.fluxcd.io/')) {
    const policy = (o.body.spec as { deletionPolicy?: string } | undefined)?.deletionPolicy;
    return policy === 'Orphan'
      ? 'Flux Kustomization removed: deletionPolicy Orphan leaves its objects in the cluster, unmanaged'
      : 'Flux Kustomization removed: with prune on, Flux deletes every object it applied';
  }
  return 'removed: the GitOps engine prunes (deletes) it from the cluster on the next sync';
}

const MACHINE_CONFIG_REBOOT =
  'MachineConfig change: the machine-config-operator rolls it out by draining and rebooting every node of the pool, one by one';

/** Repository of an image reference (registry and path, no tag or digest). */
export function imageRepository(ref: string): string {
  return ref.split('@')[0].replace(/:[^/:]*$/, '');
}

const TLS_ORDER = ['VersionTLS10', 'VersionTLS11', 'VersionTLS12', 'VersionTLS13'];

/** Every `--flag=value` of a workload's containers, by flag (first value wins). */
function flagValues(body: Record<string, unknown>): Map<string, string> {
  const out = new Map<string, string>();
  const spec = (body.spec as { template?: { spec?: { containers?: { args?: unknown[]; command?: unknown[] }[] } } } | undefined)?.template?.spec;
  for (const c of spec?.containers ?? []) {
    for (const token of [...(c.command ?? []), ...(c.args ?? [])]) {
      for (const m of String(token).matchAll(/--([a-z0-9-]+)=(\S+)/g)) {
        if (!out.has(m[1])) {
          out.set(m[1], m[2]);
        }
      }
    }
  }
  return out;
}

/** Feature gates turned on for everything (upstream `AllAlpha`, `AllBeta`). */
function broadGates(flags: Map<string, string>): string[] {
  return (flags.get('feature-gates') ?? '')
    .split(',')
    .filter((g) => /^All(Alpha|Beta)=true$/i.test(g))
    .map((g) => g.split('=')[0]);
}

/** Risks of a workload's containers: image source, TLS floor, broad feature gates. */
function workloadRisks(cluster: string, id: string, b: TreeObject | undefined, a: TreeObject): Risk[] {
  const risks: Risk[] = [];
  type Container = { name: string; image?: string };
  const images = (o: TreeObject | undefined): Map<string, string> => {
    const pod = (o?.body.spec as { template?: { spec?: { containers?: Container[]; initContainers?: Container[] } } } | undefined)?.template?.spec;
    return new Map([...(pod?.containers ?? []), ...(pod?.initContainers ?? [])].map((c) => [c.name, c.image ?? '']));
  };
  const before = images(b);
  for (const [name, image] of images(a)) {
    const old = before.get(name);
    if (old !== undefined && image && imageRepository(old) !== imageRepository(image)) {
      risks.push({
        cluster,
        object: id,
        message: `image source changes for container ${name}: ${imageRepository(old)} → ${imageRepository(image)} (supply chain: new code runs with the cloud credentials; check the registry and repository)`,
      });
    }
  }
  const fb = b ? flagValues(b.body) : new Map<string, string>();
  const fa = flagValues(a.body);
  const minBefore = TLS_ORDER.indexOf(fb.get('tls-min-version') ?? 'VersionTLS12');
  const minAfter = TLS_ORDER.indexOf(fa.get('tls-min-version') ?? 'VersionTLS12');
  if (b && minAfter >= 0 && minBefore >= 0 && minAfter < minBefore) {
    risks.push({ cluster, object: id, message: `TLS downgrade: --tls-min-version goes from ${TLS_ORDER[minBefore]} to ${TLS_ORDER[minAfter]}` });
  }
  const gatesBefore = new Set(broadGates(fb));
  for (const gate of broadGates(fa).filter((g) => !gatesBefore.has(g))) {
    risks.push({
      cluster,
      object: id,
      message: `feature gate ${gate}=true: turns on every ${gate === 'AllAlpha' ? 'alpha' : 'beta'} feature of the controller manager`,
    });
  }
  return risks;
}

function addedRisks(cluster: string, o: TreeObject): Risk[] {
  const id = objectId(o);
  if (o.kind === 'MachineConfig') {
    return [{ cluster, object: id, message: MACHINE_CONFIG_REBOOT }];
  }
  if (o.kind === 'FeatureGate') {
    const set = (o.body.spec as { featureSet?: string } | undefined)?.featureSet;
    return set ? [{ cluster, object: id, message: featureSetMessage(set) }] : [];
  }
  if (WORKLOAD_KINDS.includes(o.kind)) {
    return workloadRisks(cluster, id, undefined, o);
  }
  if (o.kind === 'Role' || o.kind === 'ClusterRole') {
    const g = [...grants((o.body as { rules?: Rule[] }).rules)];
    if (g.some((x) => x.includes('*'))) {
      return [{ cluster, object: id, message: `new ${o.kind} with wildcard rules: ${g.filter((x) => x.includes('*')).join(', ')}` }];
    }
  }
  if (o.kind === 'RoleBinding' || o.kind === 'ClusterRoleBinding') {
    const ref = (o.body as { roleRef?: { kind?: string; name?: string } }).roleRef;
    return [{ cluster, object: id, message: `RBAC widened: new binding to ${ref?.kind} ${ref?.name}` }];
  }
  if (o.kind === 'CredentialsRequest') {
    return [{ cluster, object: id, message: 'new CredentialsRequest: the cloud-credential-operator mints new cloud credentials' }];
  }
  return [];
}

function featureSetMessage(set: string): string {
  return `FeatureGate featureSet ${set}: ${/NoUpgrade$/.test(set) ? 'the cluster can never be upgraded again and the feature set cannot be turned off' : 'changes which features the whole cluster runs'}`;
}

function changedRisks(cluster: string, b: TreeObject, a: TreeObject, fields: readonly FieldChange[]): Risk[] {
  const id = objectId(a);
  const risks: Risk[] = [];
  if (WORKLOAD_KINDS.includes(a.kind)) {
    risks.push(...workloadRisks(cluster, id, b, a));
  }
  if (a.kind === 'MachineConfig') {
    risks.push({ cluster, object: id, message: MACHINE_CONFIG_REBOOT });
  }
  if (a.kind === 'FeatureGate' && fields.some((f) => f.path.startsWith('spec.featureSet') || f.path.startsWith('spec.customNoUpgrade'))) {
    risks.push({ cluster, object: id, message: featureSetMessage(String((a.body.spec as { featureSet?: string }).featureSet ?? '(default)')) });
  }
  if (a.kind === 'Application') {
    for (const f of fields.filter((x) => x.path === 'spec.project' || x.path.startsWith('spec.destination'))) {
      risks.push({
        cluster,
        object: id,
        message:
          `Argo CD ${f.path === 'spec.project' ? 'project' : 'destination'} changes (${f.path}: ${JSON.stringify(f.before ?? null)} → ${JSON.stringify(f.after ?? null)}): ` +
          'the Application applies under other permissions or to another cluster',
      });
    }
  }
  if (WORKLOAD_KINDS.includes(a.kind) && fields.some((f) => f.path.startsWith('spec.selector'))) {
    risks.push({
      cluster,
      object: id,
      message: `selector changed: selectors are immutable, so the ${a.kind} must be deleted and recreated (its pods go away meanwhile)`,
    });
  }
  if (a.kind === 'Role' || a.kind === 'ClusterRole') {
    const before = grants((b.body as { rules?: Rule[] }).rules);
    const added = [...grants((a.body as { rules?: Rule[] }).rules)].filter((g) => !before.has(g));
    if (added.length > 0) {
      risks.push({ cluster, object: id, message: `RBAC widened: grants ${added.join(', ')}` });
    }
  }
  if (a.kind === 'RoleBinding' || a.kind === 'ClusterRoleBinding') {
    if (fields.some((f) => f.path.startsWith('roleRef'))) {
      risks.push({ cluster, object: id, message: 'RBAC changed: the binding points at another role' });
    } else if (fields.some((f) => f.path.startsWith('subjects') && f.after !== undefined)) {
      risks.push({ cluster, object: id, message: 'RBAC widened: the binding has new subjects' });
    }
  }
  if (a.kind === 'CredentialsRequest' && fields.some((f) => f.path.startsWith('spec'))) {
    risks.push({ cluster, object: id, message: 'CredentialsRequest changed: the cloud permissions or the credentials Secret of the CCM change' });
  }
  return risks;
}

function sortRisks(risks: Risk[]): Risk[] {
  return risks.sort((x, y) =>
    x.cluster < y.cluster ? -1 : x.cluster > y.cluster ? 1 : x.object < y.object ? -1 : x.object > y.object ? 1 : x.message < y.message ? -1 : 1,
  );
}

/** True when the trees differ at all. */
export function hasChanges(diff: TreeDiff): boolean {
  return diff.clusters.size > 0 || diff.otherFiles.length > 0 || diff.addedClusters.length > 0 || diff.removedClusters.length > 0;
}
