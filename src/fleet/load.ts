import { clusterIdentity } from '../pipeline/phase-guard';
import * as fs from 'fs';
import * as path from 'path';
import { Document, LineCounter, parseDocument, isMap, isPair, isScalar, isSeq, Node } from 'yaml';
import { describeValue, SpecIssue, SpecValidationError } from '../cluster-spec/errors';
import { IMAGE_KEYS, imagePinProblem, OPERATOR_IMAGE_KEY } from '../cluster-spec/images';
import { ClusterSpec, clusterSpecSchema, SPEC_API_VERSION } from '../cluster-spec/schema';
import { tlsProblems } from '../cluster-spec/tls';
import { schemaProblems } from '../cluster-spec/zod-issues';
import { CloudConfigError } from '../cloud-config/errors';
import { kubernetesCcmImage, migrationInputFor, migrationProblems, migrationWarnings } from '../migration-targets';
import { MigrationCheckInput } from '../migration/validate';
import { MigrationInput } from '../migration/flags';
import { MigrationSupport } from '../migration/phases';
import { fresh, SharedValues } from '../util/shared-values';
import { refuseCredentials } from '../cloud-config/pass-through';
import { commandItemProblem, guardProblems, httpsUrlProblem, httpUrlProblem, metadataMapProblems, ShapeProblem, withGuards } from '../cluster-spec/shapes';
import { ArgoCdMember, argoCdDestination, destinationKey, IN_CLUSTER_NAME, IN_CLUSTER_SERVER } from '../gitops/repo-path';
import { RESERVED_CLUSTER_NAME } from '../gitops/argocd-groups';
import { gitopsWarnings } from '../gitops/warnings';
import { kubernetesCloudConfigProblems, kubernetesProblems, kubernetesWarnings } from '../kubernetes/validate';
import { upstreamProviderFor } from '../kubernetes/providers';
import { PLATFORM_FACTS, platformFactsFor, supportedPlatforms } from '../openshift/platform-facts';
import { PreparedCluster } from '../openshift/platform';

/** Largest spec or cloud config file read, in bytes. */
export const MAX_INPUT_BYTES = 1024 * 1024;
/** Deepest nesting of mappings and lists a spec may have (the schema needs 7). */
const MAX_DEPTH = 16;
/** Most YAML aliases one spec may expand (guards against alias bombs). */
const MAX_ALIASES = 50;
/** Most mapping entries one spec or defaults file may have, checked before anything else walks them (the example specs have under 100). */
export const MAX_KEYS = 2000;

/** A warning about one input file. */
export interface InputWarning {
  /** The file the warning is about. */
  readonly file: string;
  /** The warning text. */
  readonly message: string;
}

/** A loaded and validated fleet, ready to render. */
export interface Fleet {
  /** Clusters sorted by name. */
  readonly clusters: readonly PreparedCluster[];
  /** Warnings of the cloud-config transforms. */
  readonly warnings: readonly InputWarning[];
}

/**
 * What synth keeps of a cluster while the fleet streams through it (issue
 * 18: the fleet is never held whole): what the checks across the fleet and
 * the fleet files read. A few hundred bytes, where the prepared cluster is
 * several kilobytes.
 */
export interface FleetMember {
  /** The spec's `metadata.name`. */
  readonly name: string;
  /** The spec file. */
  readonly specFile: string;
  /** The spec's `spec.gitops`. */
  readonly gitops: ClusterSpec['spec']['gitops'];
  /** The spec's `spec.platform`. */
  readonly platform: ClusterSpec['spec']['platform'];
  /** The spec's `spec.distribution`. */
  readonly distribution: ClusterSpec['spec']['distribution'];
  /**
   * The spec's `spec.migration`, as validated.
   *
   * @default - none declared
   */
  readonly specMigration?: ClusterSpec['spec']['migration'];
  /**
   * The cluster's migration.
   *
   * @default - none declared
   */
  readonly migration?: MigrationInput;
  /**
   * Without `spec.migration`: what the platform allows, the phases a
   * removed `spec.migration` is checked against (undefined when the platform
   * declares no migration, or the spec has one).
   */
  readonly supportWithoutMigration: MigrationSupport | undefined;
  /**
   * What identifies the cluster across a rename ({@link clusterIdentity}).
   *
   * @default - none: the spec names no infrastructure
   */
  readonly identity?: string;
}

/**
 * The {@link FleetMember} of a prepared cluster, its repeated parts from
 * `shared` (no string of it keeps the spec's text alive; its spec file is
 * the caller's string, a path not cut from the text).
 */
export function fleetMemberOf(cluster: PreparedCluster, shared = new SharedValues()): FleetMember {
  const s = cluster.spec.spec;
  const supportWithoutMigration = cluster.migration ? undefined : platformFactsFor(s.platform)?.migrationSupport?.(cluster.spec);
  return shareMember({
    name: fresh(cluster.spec.metadata.name),
    specFile: cluster.specFile,
    gitops: s.gitops,
    platform: s.platform,
    distribution: s.distribution,
    specMigration: s.migration,
    migration: cluster.migration,
    supportWithoutMigration,
    // only a cluster that can have a phase needs to be found across a rename: the others hold no string for it
    identity: cluster.migration || supportWithoutMigration ? freshOrUndefined(clusterIdentity(s)) : undefined,
  }, shared);
}

function freshOrUndefined(text: string | undefined): string | undefined {
  return text === undefined ? undefined : fresh(text);
}

/** A member as the Argo CD roots and the check of `spec.gitops.path` read a spec: its name and `spec.gitops`. */
export function argoCdMemberOf(m: Pick<FleetMember, 'name' | 'gitops'>): ArgoCdMember {
  return { metadata: { name: m.name }, spec: { gitops: m.gitops } };
}

/**
 * A member whose repeated parts (spec.gitops, platform, migration) are
 * `shared`'s: thousands of members hold one copy of each.
 *
 * @param specFile the spec file as the caller holds it (a cached member's is a copy)
 */
export function shareMember(m: FleetMember, shared: SharedValues, specFile = m.specFile): FleetMember {
  // one object, no nesting: a member is held per cluster for the whole run
  return {
    name: m.name,
    specFile,
    gitops: shared.value(m.gitops),
    platform: shared.word(m.platform),
    distribution: shared.word(m.distribution),
    specMigration: shared.value(m.specMigration),
    migration: shared.value(m.migration),
    supportWithoutMigration: shared.value(m.supportWithoutMigration),
    identity: m.identity,
  };
}

/** A loaded cluster, as {@link streamSpecFiles} hands it over. */
export interface LoadedCluster {
  /** What synth keeps of it. */
  readonly member: FleetMember;
  /**
   * Whether a spec loaded before it has the same `metadata.name` (the load
   * fails once every spec is read): synth renders the first only, and needs
   * no set of the names it placed.
   *
   * @default false
   */
  readonly nameTaken?: boolean;
  /**
   * Its `preparedDigest`, when the spec cache knows it without reading the cluster.
   *
   * @default - computed from the cluster
   */
  readonly preparedDigest?: string;
  /** The validated, transformed cluster (a cache hit reads it from the cache when asked). */
  prepared(): PreparedCluster;
}

/** What loading one spec gave, as a {@link LoadCache} serves it. */
export interface CachedLoad {
  /** Line of `metadata.name` in the spec. */
  readonly nameLine?: number;
  /** Folder `spec.cloudConfig.file` is relative to. */
  readonly cloudConfigBase?: string;
  /** What synth keeps of the cluster. */
  readonly member: FleetMember;
  /** The cluster's `preparedDigest`. */
  readonly preparedDigest: string;
  /** The validated, transformed cluster: read when asked (the cache keeps it on disk). */
  prepared(): PreparedCluster;
  /** The warnings loading it gave, in order. */
  readonly warnings: readonly InputWarning[];
}

/** What loading one spec gave, as the loader hands it to {@link LoadCache.store}. */
export interface StoredLoad {
  /** Line of `metadata.name` in the spec. */
  readonly nameLine?: number;
  /** Folder `spec.cloudConfig.file` is relative to. */
  readonly cloudConfigBase?: string;
  /** The validated, transformed cluster. */
  readonly prepared: PreparedCluster;
  /** Its {@link FleetMember}. */
  readonly member: FleetMember;
  /** The warnings loading it gave, in order. */
  readonly warnings: readonly InputWarning[];
}

/**
 * A cache of loaded specs (the spec cache): a spec whose file,
 * defaults files and read files (`reads`) are unchanged is taken from it
 * instead of being parsed, validated and transformed again.
 */
export interface LoadCache {
  /** The cached load of a spec, when none of its inputs changed. */
  lookup(specFile: string, defaultsChain: readonly string[]): CachedLoad | undefined;
  /** Records a spec that loaded without a problem, and the files it read beyond itself and its defaults. */
  store(specFile: string, defaultsChain: readonly string[], reads: readonly string[], loaded: StoredLoad): void;
}

/** Name of the per-folder defaults file. */
const DEFAULTS_FILE = /^defaults\.ya?ml$/;
/** kustomize's own file names: a kustomization beside the specs (Flux's layout) is never a spec. */
const KUSTOMIZATION_FILE = /^(kustomization\.ya?ml|Kustomization)$/;
/**
 * The folder `flux bootstrap --path=clusters/<name>` writes: `<path>/flux-system/`
 * with gotk-components.yaml, gotk-sync.yaml and a kustomization.yaml
 * (fluxcd/flux2@v2.6.0 pkg/manifestgen/install/options.go and
 * pkg/manifestgen/sync/options.go, ManifestFile). Flux's own objects, not specs.
 */
function isFluxSystemFolder(dir: string, name: string): boolean {
  return name === 'flux-system' && ['gotk-sync.yaml', 'gotk-components.yaml'].some((f) => fs.existsSync(path.join(dir, f)));
}
/** Kind of a defaults file. */
export const DEFAULTS_KIND = 'CloudControllerManagerDefaults';

/**
 * Lists the spec files below a clusters directory: `*.yaml` / `*.yml`,
 * sorted, hidden entries and `defaults.yaml` files skipped.
 */
export function listSpecFiles(dir: string): string[] {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(dir);
  } catch {
    throw new SpecValidationError([{ file: dir, path: '', message: 'clusters directory not found; pass --clusters DIR with the folder holding the cluster specs' }]);
  }
  if (!stat.isDirectory()) {
    throw new SpecValidationError([{ file: dir, path: '', message: 'is not a directory; pass --clusters DIR with the folder holding the cluster specs' }]);
  }
  const out: string[] = [];
  const outside: SpecIssue[] = [];
  const realRoot = fs.realpathSync(dir);
  const walk = (d: string): void => {
    const entries = fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (entries.some((e) => e.name === 'defaults.yaml') && entries.some((e) => e.name === 'defaults.yml')) {
      outside.push({ file: path.join(d, 'defaults.yml'), path: '', message: 'is beside defaults.yaml; keep one defaults file per folder (both would be merged, in no obvious order)' });
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) {
        continue;
      }
      const full = path.join(d, entry.name);
      // never skip silently: what looks like a spec but cannot be read as one is refused
      if (/\.ya?ml$/i.test(entry.name) && !/\.ya?ml$/.test(entry.name)) {
        outside.push({ file: full, path: '', message: 'has an upper-case extension; synth reads *.yaml and *.yml only: rename it' });
        continue;
      }
      if (!entry.isDirectory() && !entry.isFile() && !entry.isSymbolicLink() && /\.ya?ml$/.test(entry.name)) {
        outside.push({ file: full, path: '', message: 'is not a regular file (a FIFO, socket or device); a spec is a file' });
        continue;
      }
      if (entry.isSymbolicLink() && isDirectoryLink(full)) {
        outside.push({ file: full, path: '', message: 'is a symbolic link to a folder; synth does not follow folder links (loops, specs from elsewhere): move the folder in' });
        continue;
      }
      if (entry.isDirectory()) {
        // Flux bootstrapped into a cluster's folder: its objects and the kustomization that lists them are Flux's
        if (!isFluxSystemFolder(full, entry.name)) {
          walk(full);
        }
      } else if ((entry.isFile() || entry.isSymbolicLink()) && /\.ya?ml$/.test(entry.name) && !DEFAULTS_FILE.test(entry.name) && !KUSTOMIZATION_FILE.test(entry.name)) {
        const linked = entry.isSymbolicLink() ? linkOutsideProblem(full, realRoot, 'spec') : undefined;
        if (linked) {
          outside.push({ file: full, path: '', message: linked });
          continue;
        }
        // a path joined from two is held as two strings: one flat copy per spec, held through the run
        out.push(fresh(full));
      }
    }
  };
  walk(dir);
  if (outside.length > 0) {
    throw new SpecValidationError(outside);
  }
  return out;
}

/**
 * Why a symbolic link may not be read: it leads outside the clusters folder
 * (`realRoot`, resolved) or to nothing. Undefined for a link that stays
 * inside. The same rule for spec files, defaults files and `validate-spec`
 * arguments: a link is never a way to read a file from elsewhere.
 */
export function linkOutsideProblem(file: string, realRoot: string, what: 'spec' | 'defaults file'): string | undefined {
  let target: string | undefined;
  try {
    target = fs.realpathSync(file);
  } catch {
    target = undefined;
  }
  const rel = target === undefined ? '..' : path.relative(realRoot, target);
  return rel.startsWith('..') || path.isAbsolute(rel)
    ? `is a symbolic link to a file outside the clusters directory (or to nothing); copy the ${what} in instead`
    : undefined;
}

/** Whether a path is a symbolic link (not followed); false when it does not exist. */
export function isSymbolicLink(file: string): boolean {
  try {
    return fs.lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

function isDirectoryLink(file: string): boolean {
  try {
    return fs.statSync(file).isDirectory();
  } catch {
    return false;
  }
}

/** Loads every spec below `dir`, validates it and runs the cloud-config transforms. Throws SpecValidationError listing every problem. */
export function loadFleet(dir: string, cache?: LoadCache): Fleet {
  return loadSpecFiles(fleetSpecFiles(dir), dir, cache);
}

/** The spec files below a clusters directory ({@link listSpecFiles}); refuses a directory that holds none. */
export function fleetSpecFiles(dir: string): string[] {
  const files = listSpecFiles(dir);
  if (files.length === 0) {
    throw new SpecValidationError([{ file: dir, path: '', message: 'holds no cluster spec (*.yaml); add one file per cluster' }]);
  }
  return files;
}

/**
 * Loads and validates the given spec files, each merged over the
 * `defaults.yaml` files of its folder and the folders above it up to `root`
 * (deeper folders win, the spec wins over all). Cloud config files must
 * resolve inside `root`. Throws SpecValidationError listing every problem of
 * every file once.
 */
export function loadSpecFiles(files: readonly string[], root: string, cache?: LoadCache): Fleet {
  const clusters: PreparedCluster[] = [];
  const { warnings } = streamSpecFiles(files, root, cache, (c) => clusters.push(c.prepared()));
  clusters.sort((a, b) => (a.spec.metadata.name < b.spec.metadata.name ? -1 : 1));
  return { clusters, warnings };
}

/**
 * Loads the spec files as {@link loadSpecFiles} does, but hands each cluster
 * to `each` as soon as it is loaded (in file order) and keeps only its
 * {@link FleetMember}: the fleet is never held whole. The checks across
 * specs (unique names, hub destinations) run at the end: when they or any
 * file fail, SpecValidationError is thrown after every file was read, and
 * what `each` was handed is to be discarded. `failing` is called once, as
 * soon as a file has a problem (the load will throw): what `each` is
 * handed after it is wasted work. Returns the members, sorted by name, and
 * the warnings in file order.
 */
export function streamSpecFiles(files: readonly string[], root: string, cache: LoadCache | undefined, each: (cluster: LoadedCluster) => void,
  failing?: () => void): { members: FleetMember[]; warnings: InputWarning[] } {
  const loading = specStream(files, root, cache, failing);
  for (let step = loading.next(); ; step = loading.next()) {
    if (step.done) {
      return step.value;
    }
    each(step.value);
  }
}

/**
 * {@link streamSpecFiles} as a generator: yields each cluster as it is
 * loaded, so that the caller may wait (for render workers) between two.
 */
export function* specStream(files: readonly string[], root: string, cache: LoadCache | undefined,
  failing?: () => void): Generator<LoadedCluster, { members: FleetMember[]; warnings: InputWarning[] }, void> {
  const issues: SpecIssue[] = [];
  const warnings: InputWarning[] = [];
  const defaultsCache = new Map<string, DefaultsSource>();
  // thousands of specs share a few folders: each defaults file is looked for once
  const seen = new Map<string, boolean>();
  const exists = (f: string) => seen.get(f) ?? (seen.set(f, fs.existsSync(f)), seen.get(f)!);
  /**
   * Each spec's name as written, for the duplicate check: by name, the file
   * and line (a list only for a name used twice: thousands of one-element
   * lists would be held for nothing).
   */
  const byName = new Map<string, NameUse | NameUse[]>();
  const named = (name: string | undefined, file: string, line: number | undefined, member?: FleetMember) => {
    if (name !== undefined) {
      const use: NameUse = { file, line };
      const before = byName.get(name);
      // a name as parsed is cut from the spec's text and keeps all of it alive: the key is a copy,
      // the member's when it has one (a copy already, held through the run)
      const key = member?.name === name ? member.name : fresh(name);
      byName.set(before === undefined ? key : name, before === undefined ? use : Array.isArray(before) ? [...before, use] : [before, use]);
    }
  };
  /** The specs of hub Argo CD clusters that passed the schema, for the hub check: their names and spec.gitops. */
  const hubMembers: { file: string; spec: ArgoCdMember }[] = [];
  const argoCd = (file: string, spec: ArgoCdMember) => {
    if (isHubMember(spec)) {
      hubMembers.push({ file, spec });
    }
  };
  const members: FleetMember[] = [];
  const shared = new SharedValues();
  let failed = false;
  let badDefaults = false;
  for (const file of files) {
    if (!failed && (issues.length > 0 || badDefaults)) {
      failed = true;
      failing?.();
    }
    const chain = defaultsChain(file, root, exists);
    const hit = cache?.lookup(file, chain);
    if (hit) {
      // unchanged since it last loaded without a problem: the checks across specs below still see it
      const member = shareMember(hit.member, shared, file);
      const nameTaken = byName.has(member.name);
      named(member.name, file, hit.nameLine, member);
      argoCd(file, argoCdMemberOf(member));
      warnings.push(...hit.warnings);
      members.push(member);
      yield { member, ...(nameTaken ? { nameTaken } : {}), preparedDigest: hit.preparedDigest, prepared: () => preparedOf(hit, file, root) };
      continue;
    }
    const defaults = chain.map((d) => loadDefaults(d, defaultsCache, root));
    const result = loadSpecFile(file, defaults);
    issues.push(...result.issues);
    badDefaults ||= defaults.some((d) => d.issues.length > 0);
    // the name is recorded whatever becomes of the spec: with the member's string when it has one
    let member: FleetMember | undefined;
    try {
      if (result.spec) {
        argoCd(file, { metadata: { name: result.spec.metadata.name }, spec: { gitops: result.spec.spec.gitops } });
      }
      // cloud configs are checked for every spec that passed the schema, so one run reports everything
      if (!result.spec || !renderable(result.spec) || result.issues.some((i) => feedsTransform(result.spec!, i.path))) {
        continue;
      }
      const base = result.cloudConfigBase ?? path.dirname(file);
      const ownIssues: SpecIssue[] = [];
      const ownWarnings: InputWarning[] = [];
      const prepared = prepare(file, result.spec, base, root, (i) => ownIssues.push(i), (w) => ownWarnings.push(w));
      issues.push(...ownIssues);
      warnings.push(...ownWarnings);
      if (!prepared) {
        continue;
      }
      member = fleetMemberOf(prepared, shared);
      if (cache && ownIssues.length === 0 && result.issues.length === 0 && chain.every((d) => defaultsCache.get(d)?.issues.length === 0)) {
        cache.store(file, chain, inputRefs(result.spec).map((ref) => path.join(base, ref)), { nameLine: result.nameLine, cloudConfigBase: result.cloudConfigBase, prepared, member, warnings: ownWarnings });
      }
      members.push(member);
      const nameTaken = byName.has(member.name);
      yield { member, ...(nameTaken ? { nameTaken } : {}), prepared: () => prepared };
    } finally {
      named(result.rawName, file, result.nameLine, member);
    }
  }
  for (const d of defaultsCache.values()) {
    issues.push(...d.issues);
  }
  // names must be unique across the fleet: they name output directories
  for (const [name, used] of byName) {
    const uses = Array.isArray(used) ? used : [];
    for (const use of uses) {
      issues.push({
        file: use.file,
        path: 'metadata.name',
        line: use.line,
        message: `"${name}" is also used by ${uses.filter((u) => u !== use).map((u) => u.file).join(', ')}; cluster names must be unique across the fleet`,
      });
    }
  }
  issues.push(...hubProblems(hubMembers));
  if (issues.length > 0) {
    throw new SpecValidationError(dedupe(issues));
  }
  members.sort((a, b) => (a.name < b.name ? -1 : 1));
  return { members, warnings };
}

/**
 * A cache hit's cluster, read from the cache; when the cache cannot give it
 * (its file damaged since it was read), the spec is loaded again without
 * the cache: a cache costs time, never correctness.
 */
function preparedOf(hit: CachedLoad, file: string, root: string): PreparedCluster {
  try {
    return hit.prepared();
  } catch {
    return loadSpecFiles([file], root).clusters[0];
  }
}

function dedupe(issues: readonly SpecIssue[]): SpecIssue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    const key = JSON.stringify([i.file, i.line, i.path, i.message]);
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

/** A parsed YAML input file. */
interface YamlSource {
  readonly file: string;
  readonly doc: Document;
  readonly lines: LineCounter;
  readonly data: Record<string, unknown>;
}

/** A defaults file: its source when it parsed, and its own problems. */
interface DefaultsSource {
  readonly source?: YamlSource;
  readonly issues: SpecIssue[];
}

interface LoadedFile {
  readonly issues: SpecIssue[];
  /** The merged spec, when it passed the schema (it may still have issues from the other checks). */
  readonly spec?: ClusterSpec;
  /** `metadata.name` as written, when it is a string, for the duplicate check. */
  readonly rawName?: string;
  /** Line of `metadata.name`, when known. */
  readonly nameLine?: number;
  /** Folder `spec.cloudConfig.file` is relative to: that of the file that set it. */
  readonly cloudConfigBase?: string;
}

/** Loads one spec merged over its folder defaults (from `root` down), without its cloud config; returns the spec or every problem. */
export function loadClusterSpec(file: string, root: string): { spec?: ClusterSpec; issues: SpecIssue[] } {
  const cache = new Map<string, DefaultsSource>();
  const defaults = defaultsChain(file, root).map((d) => loadDefaults(d, cache, root));
  const loaded = loadSpecFile(file, defaults);
  const issues = dedupe([...defaults.flatMap((d) => d.issues), ...loaded.issues]);
  return issues.length > 0 || !loaded.spec ? { issues } : { spec: loaded.spec, issues: [] };
}

/** The defaults files that apply to a spec: from `root` down to the spec's folder, each `defaults.yaml` or `defaults.yml`. */
export function defaultsChain(specFile: string, root: string, exists: (file: string) => boolean = fs.existsSync): string[] {
  const rel = path.relative(path.resolve(root), path.resolve(path.dirname(specFile)));
  if (rel.startsWith('..') || path.isAbsolute(rel)) {
    return [];
  }
  const dirs = [root, ...rel.split(path.sep).filter((p) => p !== '').map((_p, i, parts) => path.join(root, ...parts.slice(0, i + 1)))];
  const chain: string[] = [];
  for (const dir of dirs) {
    for (const name of ['defaults.yaml', 'defaults.yml']) {
      const candidate = path.join(dir, name);
      if (exists(candidate)) {
        chain.push(candidate);
      }
    }
  }
  return chain;
}

function loadDefaults(file: string, cache: Map<string, DefaultsSource>, root: string): DefaultsSource {
  const cached = cache.get(file);
  if (cached) {
    return cached;
  }
  // a linked defaults file follows the rule of a linked spec: it is read only when it stays in the clusters folder
  const linked = isSymbolicLink(file) ? linkOutsideProblem(file, realRootOf(root), 'defaults file') : undefined;
  if (linked) {
    const refused: DefaultsSource = { issues: [{ file, path: '', message: linked }] };
    cache.set(file, refused);
    return refused;
  }
  const read = readYamlSource(file);
  let result: DefaultsSource;
  if ('issue' in read) {
    result = { issues: [read.issue] };
  } else {
    const issues = checkDefaultsEnvelope(read.source);
    result = issues.length > 0 ? { issues } : { source: read.source, issues: [] };
  }
  cache.set(file, result);
  return result;
}

/** A defaults file holds the spec's envelope and any subset of `metadata.labels` and `spec`, but no name. */
function checkDefaultsEnvelope(src: YamlSource): SpecIssue[] {
  const issues: SpecIssue[] = [];
  const at = (p: (string | number)[], message: string) => issues.push({ file: src.file, path: p.join('.'), line: lineOf(src.doc, src.lines, p), message });
  const d = src.data;
  if (d.apiVersion !== SPEC_API_VERSION) {
    at(['apiVersion'], `${d.apiVersion === undefined ? 'is required' : `${describeValue(d.apiVersion)} is not allowed`}; set it to "${SPEC_API_VERSION}"`);
  }
  if (d.kind !== DEFAULTS_KIND) {
    at(['kind'], `${d.kind === undefined ? 'is required' : `${describeValue(d.kind)} is not allowed`}; a defaults file has kind "${DEFAULTS_KIND}"`);
  }
  for (const key of Object.keys(d)) {
    if (!['apiVersion', 'kind', 'metadata', 'spec'].includes(key)) {
      at([key], 'unknown field; a defaults file holds apiVersion, kind, metadata.labels and spec');
    }
  }
  for (const key of ['metadata', 'spec']) {
    if (d[key] !== undefined && !isPlainObject(d[key])) {
      at([key], `must be a mapping, got ${describeValue(d[key])}`);
    }
  }
  if (isPlainObject(d.metadata)) {
    for (const key of Object.keys(d.metadata)) {
      if (key !== 'labels') {
        at(['metadata', key], key === 'name'
          ? 'cannot be set in a defaults file; each cluster spec names itself'
          : 'unknown field; a defaults file may set metadata.labels only');
      }
    }
  }
  return issues;
}

/** The number of mapping entries and list items of a document and the offset of the first duplicate key, in one pass (Set per mapping). */
function mappingShape(doc: Document): { entries: number; duplicate?: number } {
  let entries = 0;
  let duplicate: number | undefined;
  const stack: unknown[] = [doc.contents];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        entries++;
        if (isScalar(pair.key)) {
          const k = `${typeof pair.key.value}:${String(pair.key.value)}`;
          if (seen.has(k) && duplicate === undefined && pair.key.range) {
            duplicate = pair.key.range[0];
          }
          seen.add(k);
        } else if (pair.key) {
          stack.push(pair.key);
        }
        stack.push(pair.value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) {
        entries++;
        stack.push(item);
      }
    }
  }
  return { entries, duplicate };
}

/** Nesting depth of parsed YAML data (iterative, so hostile input cannot exhaust the stack). */
function depthOf(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (v !== null && typeof v === 'object') {
      max = Math.max(max, d + 1);
      if (max > MAX_DEPTH) {
        return max;
      }
      for (const child of Object.values(v as object)) {
        stack.push([child, d + 1]);
      }
    }
  }
  return max;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Mappings are merged key by key; lists and scalars of `over` replace those of `base`. */
export function mergeDefaults(base: unknown, over: unknown): unknown {
  if (isPlainObject(base) && isPlainObject(over)) {
    const out: Record<string, unknown> = { ...base };
    for (const [k, v] of Object.entries(over)) {
      out[k] = k in base ? mergeDefaults(base[k], v) : v;
    }
    return out;
  }
  return over === undefined ? base : over;
}

/** Reads and parses one YAML input: one mapping document, aliases bounded. */
function readYamlSource(file: string): { source: YamlSource } | { issue: SpecIssue } {
  const text = readInput(file);
  if (typeof text !== 'string') {
    return { issue: text };
  }
  const lines = new LineCounter();
  let doc: Document;
  try {
    // uniqueKeys: false: the library's own check is quadratic in the keys; duplicates are found below in one pass
    // logLevel error: a collection used as a key is reported as a field problem, not as a Node process warning
    doc = parseDocument(text, { lineCounter: lines, uniqueKeys: false, prettyErrors: false, strict: true, logLevel: 'error' });
  } catch (e) {
    return { issue: { file, path: '', message: `cannot be parsed as YAML: ${(e as Error).message}` } };
  }
  if (doc.errors.length > 0) {
    const err = doc.errors[0];
    if (/Maximum call stack size exceeded/.test(err.message)) {
      return { issue: { file, path: '', message: `nests deeper than the YAML reader can follow; a cluster spec is at most ${MAX_DEPTH} levels deep` } };
    }
    const multi = err.code === 'MULTIPLE_DOCS';
    return {
      issue: {
        file,
        path: '',
        line: lines.linePos(err.pos[0]).line,
        message: multi ? 'holds more than one YAML document; put one cluster spec per file'
          : `is not valid YAML: ${err.message.split('\n')[0]}; fix the syntax at this line`,
      },
    };
  }
  const shape = mappingShape(doc);
  if (shape.entries > MAX_KEYS) {
    return { issue: { file, path: '', message: `has ${shape.entries} keys and list items, over the limit of ${MAX_KEYS}; a cluster spec has a few dozen` } };
  }
  if (shape.duplicate !== undefined) {
    return { issue: { file, path: '', line: lines.linePos(shape.duplicate).line, message: 'is not valid YAML: Map keys must be unique; fix the syntax at this line' } };
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (e) {
    return { issue: { file, path: '', message: `cannot be read: ${(e as Error).message}; expand the YAML aliases by hand` } };
  }
  if (data === null || data === undefined) {
    return { issue: { file, path: '', message: 'is empty; write a CloudControllerManagerCluster spec (see the README)' } };
  }
  if (!isPlainObject(data)) {
    return { issue: { file, path: '', message: `must be a YAML mapping, got ${describeValue(data)}; write a CloudControllerManagerCluster spec` } };
  }
  if (depthOf(data) > MAX_DEPTH) {
    return { issue: { file, path: '', message: `nests more than ${MAX_DEPTH} levels deep; a cluster spec is at most ${MAX_DEPTH} levels deep, so this is not one` } };
  }
  return { source: { file, doc, lines, data } };
}

/** Where a field of a merged spec comes from: the first source (spec, then deeper defaults) that sets it. */
function locate(fieldPath: readonly (string | number)[], sources: readonly YamlSource[]): { file: string; line?: number } {
  for (const src of sources) {
    if (fieldPath.length > 0 && src.doc.hasIn(fieldPath)) {
      return { file: src.file, line: lineOf(src.doc, src.lines, fieldPath) };
    }
  }
  const spec = sources[0];
  return { file: spec.file, line: lineOf(spec.doc, spec.lines, fieldPath) };
}

/** Reads, merges over its defaults, and validates one spec file (no cross-file checks, no cloud config). */
export function loadSpecFile(file: string, defaults: readonly DefaultsSource[] = []): LoadedFile {
  const read = readYamlSource(file);
  if ('issue' in read) {
    return { issues: [read.issue] };
  }
  const own = read.source;
  const applicable = defaults.filter((d) => d.source).map((d) => d.source!);
  if (defaults.some((d) => !d.source)) {
    // A broken defaults file is reported on its own; the spec is not validated against half its defaults.
    const rawName = (own.data as { metadata?: { name?: unknown } }).metadata?.name;
    return { issues: [], rawName: typeof rawName === 'string' ? rawName : undefined, nameLine: lineOf(own.doc, own.lines, ['metadata', 'name']) };
  }
  let merged: unknown = {};
  for (const d of applicable) {
    const { apiVersion: _a, kind: _k, ...rest } = d.data;
    merged = mergeDefaults(merged, rest);
  }
  merged = mergeDefaults(merged, own.data);
  // Precedence for locating a field: the spec, then the deepest defaults.
  const sources = [own, ...[...applicable].reverse()];
  const issueAt = (p: readonly (string | number)[], message: string): SpecIssue => ({ ...locate(p, sources), path: p.join('.'), message });
  const rawName = (own.data as { metadata?: { name?: unknown } }).metadata?.name;
  const nameLine = lineOf(own.doc, own.lines, ['metadata', 'name']);

  const parsed = clusterSpecSchema.safeParse(merged, { reportInput: true });
  if (!parsed.success) {
    // the guards (code points, credentials) run on the raw data: their message replaces the schema's, which shows the value
    const others = [
      ...schemaProblems(clusterSpecSchema, parsed.error.issues).map((p) => ({ path: p.path, message: withNumberHint(p.path, p.message, sources) })),
      // a type error must not hide the file's other problems: the checks that need no defaults run on the raw data
      ...rawProblems(merged),
    ];
    return {
      issues: withGuards(guardProblems(merged), others).map((p) => issueAt(p.path, p.message)),
      rawName: typeof rawName === 'string' ? rawName : undefined,
      nameLine,
    };
  }
  const issues = checkSpec(parsed.data).map((p) => issueAt(p.path, p.message));
  const cloudConfigSource = sources.find((src) => src.doc.hasIn(['spec', 'cloudConfig', 'file']));
  return {
    issues,
    spec: parsed.data,
    rawName: parsed.data.metadata.name,
    nameLine,
    cloudConfigBase: cloudConfigSource ? path.dirname(cloudConfigSource.file) : undefined,
  };
}

/**
 * A YAML number where a string belongs (`version: 1.30`, read as 1.3): the
 * message quotes the source text, so the fix is plain.
 */
function withNumberHint(fieldPath: readonly (string | number)[], message: string, sources: readonly YamlSource[]): string {
  if (!/^expected string, got number /.test(message)) {
    return message;
  }
  const src = sources.find((s) => s.doc.hasIn(fieldPath));
  const node = src?.doc.getIn(fieldPath, true) as { source?: string } | undefined;
  const text = typeof node?.source === 'string' ? node.source : message.replace(/^expected string, got number /, '');
  if (!/^\d+\.\d+$/.test(text)) {
    return message; // only version-like numbers (1.30) need the hint; 42 is plainly not a name
  }
  return `${message}; quote it: "${text}" (YAML reads an unquoted ${text} as a number${/^\d+\.\d*0$/.test(text) ? `, ${Number(text)}` : ''})`;
}

/** Checks that need no schema defaults, run when the schema fails: image pins in the raw data (the guards run beside them). */
function rawProblems(merged: unknown): { path: (string | number)[]; message: string }[] {
  const problems: { path: (string | number)[]; message: string }[] = [];
  const images = (merged as { spec?: { images?: unknown } })?.spec?.images;
  if (isPlainObject(images)) {
    for (const [key, ref] of Object.entries(images)) {
      const problem = typeof ref === 'string' ? imagePinProblem(ref) : undefined;
      if (problem) {
        problems.push({ path: ['spec', 'images', key], message: `${describeValue(ref)} ${problem}; pin it by digest (repo@sha256:...) or by an explicit tag` });
      }
    }
  }
  return problems;
}

/**
 * Checks beyond the schema: supported platform, platform sections, images,
 * gates, TLS, proxy, GitOps, migration. The guards over every string (code
 * points, credentials) come first; a field they report gets no other message.
 */
export function checkSpec(spec: ClusterSpec): ShapeProblem[] {
  return withGuards(guardProblems(spec), specProblems(spec));
}

/** The checks of {@link checkSpec} without the guards. */
function specProblems(spec: ClusterSpec): { path: (string | number)[]; message: string }[] {
  const s = spec.spec;
  const problems = commonProblems(spec);
  if (s.distribution === 'kubernetes') {
    problems.push(...kubernetesProblems(spec));
  } else {
    problems.push(...openshiftProblems(spec));
  }
  if (renderable(spec)) {
    const migration = migrationInputFor(spec, platformFactsFor(s.platform)?.migrationSupport?.(spec));
    if (migration) {
      problems.push(...migrationProblems(migrationCheckInput(spec, migration)).map((p) => ({ path: [...p.path], message: p.message })));
    }
  }
  return problems;
}

/** Checks of every distribution: image pins, gate lists, TLS, proxy and GitOps settings. */
function commonProblems(spec: ClusterSpec): { path: (string | number)[]; message: string }[] {
  const problems: { path: (string | number)[]; message: string }[] = [];
  const s = spec.spec;
  for (const key of IMAGE_KEYS) {
    const ref = s.images[key];
    const problem = ref === undefined ? undefined : imagePinProblem(ref);
    if (problem) {
      problems.push({ path: ['spec', 'images', key], message: `${describeValue(ref)} ${problem}; pin it by digest (repo@sha256:...) or by an explicit tag` });
    }
  }
  const disabled = new Set(s.featureGates.disabled);
  s.featureGates.enabled.forEach((gate, i) => {
    if (disabled.has(gate)) {
      problems.push({ path: ['spec', 'featureGates', 'enabled', i], message: `"${gate}" is listed as both enabled and disabled; keep it in one list` });
    }
  });
  problems.push(...tlsProblems(s.tls));
  // credentials in URLs are the guards' (checkSpec); here the URL itself, as the WHATWG URL class parses it
  for (const key of ['httpProxy', 'httpsProxy'] as const) {
    const url = s.proxy?.[key];
    const problem = url === undefined ? undefined : httpUrlProblem(url);
    if (problem) {
      problems.push({ path: ['spec', 'proxy', key], message: `${describeValue(url)} ${problem}; set the Proxy status.${key}` });
    }
  }
  if (s.gitops.engine !== 'plain' && !s.gitops.repoURL) {
    problems.push({ path: ['spec', 'gitops', 'repoURL'], message: `is required with engine "${s.gitops.engine}"; set the URL of the repository that holds the rendered tree` });
  }
  if (s.gitops.repoURL && !isGitUrl(s.gitops.repoURL)) {
    problems.push({ path: ['spec', 'gitops', 'repoURL'], message: `${describeValue(s.gitops.repoURL)} is not a git URL; use https://, ssh:// or git@host:path` });
  }
  const server = s.gitops.argocd.destinationServer;
  const serverProblem = server === undefined ? undefined : httpsUrlProblem(server);
  if (serverProblem) {
    problems.push({ path: ['spec', 'gitops', 'argocd', 'destinationServer'], message: `${describeValue(server)} ${serverProblem}; give the API server URL as registered in Argo CD, e.g. https://api.cluster.example.com:6443` });
  }
  problems.push(...renderedStringProblems(spec));
  if (RESERVED_CLUSTER_NAME.test(spec.metadata.name)) {
    problems.push({ path: ['metadata', 'name'], message: `"${spec.metadata.name}" is reserved: Application ccm-${spec.metadata.name} would be the name of the Argo CD root Application; choose another name` });
  }
  if (s.gitops.engine === 'argocd') {
    problems.push(...argoCdProblems(spec));
  }
  const gitPath = s.gitops.path;
  if (gitPath !== undefined && (path.isAbsolute(gitPath) || gitPath.split(/[\\/]/).includes('..'))) {
    problems.push({ path: ['spec', 'gitops', 'path'], message: `${describeValue(gitPath)} must be a relative path inside the repository, without ".."` });
  }
  return problems;
}

/** The Argo CD fleet model of one cluster: hub clusters name their registered destination and a dedicated project; per-cluster ones target themselves. */
function argoCdProblems(spec: ClusterSpec): { path: (string | number)[]; message: string }[] {
  const a = spec.spec.gitops.argocd;
  const at = (field: string) => ['spec', 'gitops', 'argocd', field];
  const problems: { path: (string | number)[]; message: string }[] = [];
  if (a.destinationServer !== undefined && a.destinationName !== undefined) {
    problems.push({ path: at('destinationName'), message: 'is set together with destinationServer; give one of them' });
  }
  if (a.topology === 'hub') {
    if (a.destinationServer === undefined && a.destinationName === undefined) {
      problems.push({ path: at('destinationServer'), message: 'is required with topology hub: set the API server URL (or destinationName) under which the cluster is registered in the hub Argo CD, '
        + 'or every cluster\'s CCM lands in the hub cluster' });
    }
    if (a.project === 'default') {
      problems.push({ path: at('project'), message: 'is "default" with topology hub; name a dedicated project: it is rendered as an AppProject that allows only the fleet repository, the registered clusters and the rendered kinds' });
    }
  } else {
    // a destinationServer that is no https:// URL has its own problem
    const server = a.destinationServer !== undefined && httpsUrlProblem(a.destinationServer) ? undefined : a.destinationServer?.replace(/\/+$/, '');
    if ((server !== undefined && server !== IN_CLUSTER_SERVER) || (a.destinationName !== undefined && a.destinationName !== IN_CLUSTER_NAME)) {
      problems.push({ path: at(server !== undefined ? 'destinationServer' : 'destinationName'),
        message: `${describeValue(a.destinationServer ?? a.destinationName)} is another cluster, but topology per-cluster means an Argo CD inside this cluster; set topology: hub to apply it from a hub Argo CD` });
    }
  }
  return problems;
}

/** A spec's name, where it is written. */
interface NameUse {
  readonly file: string;
  readonly line?: number;
}

/** Whether a cluster is applied by a hub Argo CD (the clusters {@link hubProblems} checks). */
function isHubMember(spec: ArgoCdMember): boolean {
  const g = spec.spec.gitops;
  return g.engine === 'argocd' && g.argocd.topology === 'hub';
}

/**
 * One hub Argo CD (topology hub, one namespace) applies each destination once:
 * two Applications on one destination would own the same objects (Namespaces,
 * ClusterRoles, the CCM) and fight over them. Its root reads one repository
 * at one revision.
 */
function hubProblems(hubMembers: readonly { file: string; spec: ArgoCdMember }[]): SpecIssue[] {
  const issues: SpecIssue[] = [];
  const hubs = new Map<string, { file: string; spec: ArgoCdMember }[]>();
  for (const { file, spec } of hubMembers) {
    const g = spec.spec.gitops;
    // always true of a hub member ({@link isHubMember}): it tells the compiler the gitops is Argo CD's
    if (g.engine === 'argocd') {
      const members = hubs.get(g.argocd.namespace);
      if (members) {
        members.push({ file, spec });
      } else {
        hubs.set(g.argocd.namespace, [{ file, spec }]);
      }
    }
  }
  for (const [namespace, members] of hubs) {
    const byDestination = new Map<string, { file: string; spec: ArgoCdMember }[]>();
    for (const m of members) {
      const k = destinationKey(argoCdDestination(m.spec));
      const same = byDestination.get(k);
      if (same) {
        same.push(m);
      } else {
        byDestination.set(k, [m]);
      }
    }
    for (const same of byDestination.values()) {
      for (const m of same.length > 1 ? same : []) {
        const field = m.spec.spec.gitops.argocd.destinationName !== undefined ? 'destinationName' : 'destinationServer';
        issues.push({ file: m.file, path: `spec.gitops.argocd.${field}`, message: `is also the destination of ${same.filter((o) => o !== m).map((o) => `cluster ${o.spec.metadata.name} (${o.file})`).join(', ')} `
          + `in the hub Argo CD of namespace ${namespace}: two Applications would own the same objects in one cluster; give each cluster its own registered destination` });
      }
    }
    const first = members[0].spec.spec.gitops;
    for (const m of members.slice(1)) {
      const g = m.spec.spec.gitops;
      if (g.repoURL !== first.repoURL || g.revision !== first.revision) {
        issues.push({ file: m.file, path: g.repoURL !== first.repoURL ? 'spec.gitops.repoURL' : 'spec.gitops.revision',
          message: `differs from cluster ${members[0].spec.metadata.name} in the same hub Argo CD (namespace ${namespace}); the hub's root Application reads one repository at one revision` });
      }
    }
  }
  return issues;
}

/** A git URL: https://, http:// or ssh:// as the WHATWG URL class parses it, or scp-like git@host:path. */
function isGitUrl(url: string): boolean {
  if (/^[^@/\s:]+@[^\s/:@]+:\S+$/.test(url)) {
    return true;
  }
  try {
    const parsed = new URL(url);
    return ['https:', 'http:', 'ssh:'].includes(parsed.protocol) && parsed.hostname !== '' && !/\s/.test(url);
  } catch {
    return false;
  }
}

/**
 * Strings that become label keys and values, ConfigMap keys or flags in the
 * rendered objects: refused here with the field, instead of by the API server
 * at apply time.
 */
function renderedStringProblems(spec: ClusterSpec): { path: (string | number)[]; message: string }[] {
  const problems: { path: (string | number)[]; message: string }[] = [];
  const k = spec.spec.kubernetes as undefined | {
    podLabels?: Record<string, string>; podAnnotations?: Record<string, string>; serviceAccount?: { labels?: Record<string, string>; annotations?: Record<string, string> };
    scheduling?: { nodeSelector?: Record<string, string> }; output?: { clusterResourceSet?: { clusterSelector?: Record<string, string> } }; command?: string[];
  };
  const labelMaps: [(string | number)[], Record<string, string> | undefined][] = [
    [['metadata', 'labels'], spec.metadata.labels],
    [['spec', 'kubernetes', 'podLabels'], k?.podLabels],
    [['spec', 'kubernetes', 'serviceAccount', 'labels'], k?.serviceAccount?.labels],
    [['spec', 'kubernetes', 'scheduling', 'nodeSelector'], k?.scheduling?.nodeSelector],
    [['spec', 'kubernetes', 'output', 'clusterResourceSet', 'clusterSelector'], k?.output?.clusterResourceSet?.clusterSelector],
  ];
  for (const [at, labels] of labelMaps) {
    problems.push(...metadataMapProblems(at, labels, 'label'));
  }
  problems.push(...metadataMapProblems(['spec', 'kubernetes', 'podAnnotations'], k?.podAnnotations, 'annotation'));
  problems.push(...metadataMapProblems(['spec', 'kubernetes', 'serviceAccount', 'annotations'], k?.serviceAccount?.annotations, 'annotation'));
  (k?.command ?? []).forEach((item, i) => {
    const problem = commandItemProblem(item);
    if (problem) {
      problems.push({ path: ['spec', 'kubernetes', 'command', i], message: problem });
    }
  });
  // kubernetes/apimachinery@v0.33.0 pkg/util/validation/validation.go IsConfigMapKey: the regex (schema), at most 253, and hasChDirPrefix
  for (const key of Object.keys(spec.spec.cloudConfig?.extraKeys ?? {})) {
    if (key === '.' || key.startsWith('..') || key.length > 253) {
      problems.push({ path: ['spec', 'cloudConfig', 'extraKeys', key], message: `${describeValue(key)} is not a ConfigMap key (".", ".." and keys starting with ".." are refused by the API server)` });
    }
  }
  return problems;
}

/** Checks of distribution openshift: a platform the operator renders, its sections and images, the infrastructure name. */
function openshiftProblems(spec: ClusterSpec): { path: (string | number)[]; message: string }[] {
  const problems: { path: (string | number)[]; message: string }[] = [];
  const s = spec.spec;
  const platform = platformFactsFor(s.platform);
  if (!platform) {
    const upstream = upstreamProviderFor(s.platform) ? '; it is rendered with distribution kubernetes' : '';
    problems.push({ path: ['spec', 'platform'], message: `"${s.platform}" is not rendered for distribution openshift${upstream}; supported platforms: ${supportedPlatforms().join(', ')}` });
  }
  if (s.infrastructureName === undefined) {
    problems.push({ path: ['spec', 'infrastructureName'], message: 'is required with distribution openshift; set the Infrastructure status.infrastructureName (oc get infrastructure cluster -o jsonpath=\'{.status.infrastructureName}\')' });
  }
  if (s.kubernetes !== undefined) {
    problems.push({ path: ['spec', 'kubernetes'], message: 'holds the knobs of distribution kubernetes; remove it, or set spec.distribution: kubernetes' });
  }
  for (const definition of Object.values(PLATFORM_FACTS)) {
    const key = definition?.specSection;
    if (key && s[key] !== undefined && definition.type !== s.platform) {
      problems.push({ path: ['spec', key], message: `is set but spec.platform is "${s.platform}"; remove spec.${key} or set spec.platform to ${definition.type}` });
    }
  }
  const required = [...(platform?.requiredImages ?? [])];
  if (s.managementMode === 'operator') {
    required.push(OPERATOR_IMAGE_KEY);
  }
  for (const key of required) {
    if (!s.images[key]) {
      problems.push({
        path: ['spec', 'images', key],
        message: `is required for platform ${s.platform} in ${s.managementMode} mode but missing; pin it by digest (repo@sha256:...) or by an explicit tag`,
      });
    }
  }
  if (s.cloudConfig?.extraKeys?.['cloud.conf'] !== undefined) {
    problems.push({ path: ['spec', 'cloudConfig', 'extraKeys', 'cloud.conf'], message: 'is the key of the cloud config itself; use spec.cloudConfig.file' });
  }
  if (platform) {
    problems.push(...platform.validate(spec).map((p) => ({ path: [...p.path], message: p.message })));
  }
  return problems;
}

/** Whether a field feeds the cloud-config transform, so a problem there makes the transform's own error redundant. */
function feedsTransform(spec: ClusterSpec, fieldPath: string): boolean {
  const section = platformFactsFor(spec.spec.platform)?.specSection;
  return ['spec.cloudConfig', 'spec.featureGates', 'spec.network', ...(section ? [`spec.${section}`] : [])]
    .some((prefix) => fieldPath === prefix || fieldPath.startsWith(`${prefix}.`));
}

/** The files a spec names (its cloud config, its extra keys), as written: everything prepare reads besides the spec and its defaults. */
function inputRefs(spec: ClusterSpec): string[] {
  const c = spec.spec.cloudConfig;
  return [...(c?.file !== undefined ? [c.file] : []), ...Object.entries(c?.extraKeys ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, ref]) => ref)];
}

/** Whether the spec's distribution renders its platform. */
function renderable(spec: ClusterSpec): boolean {
  return spec.spec.distribution === 'kubernetes' ? upstreamProviderFor(spec.spec.platform) !== undefined : platformFactsFor(spec.spec.platform) !== undefined;
}

/** Reads spec.cloudConfig.file (inside the clusters folder): its path and text, '' without one; undefined after reporting a problem. */
function readCloudConfig(file: string, spec: ClusterSpec, base: string, root: string, issue: (i: SpecIssue) => void): { cloudConfigFile?: string; text: string } | undefined {
  const ref = spec.spec.cloudConfig?.file;
  if (ref === undefined) {
    return { text: '' };
  }
  const resolved = resolveInside(root, base, ref);
  if ('problem' in resolved) {
    issue({ file, path: 'spec.cloudConfig.file', message: `${describeValue(ref)} ${resolved.problem}` });
    return undefined;
  }
  const text = readInput(resolved.file);
  if (typeof text !== 'string') {
    issue({ ...text, message: `${text.message} (referenced by ${file} spec.cloudConfig.file)` });
    return undefined;
  }
  return { cloudConfigFile: resolved.file, text };
}

/** Where the kubernetes distribution takes credentials from, for the refusal message. */
const KUBERNETES_SECRET_FROM = 'an existing Secret named in spec.kubernetes.cloudConfig.existingSecret';

/** Prepares a kubernetes-distribution cluster: the inline cloud config (checked for credentials, never transformed) and the deprecation warning. */
function prepareKubernetes(file: string, spec: ClusterSpec, base: string, root: string, issue: (i: SpecIssue) => void, warn: (w: InputWarning) => void): PreparedCluster | undefined {
  const provider = upstreamProviderFor(spec.spec.platform)!;
  const warnings: string[] = [];
  if (provider.deprecated) {
    warnings.push(`platform ${spec.spec.platform}: ${provider.deprecated}`);
  }
  warnings.push(...kubernetesWarnings(spec));
  const read = readCloudConfig(file, spec, base, root, issue);
  if (!read) {
    return undefined;
  }
  const { cloudConfigFile, text: cloudConf } = read;
  if (cloudConfigFile && cloudConf.trim() === '') {
    issue({ file: cloudConfigFile, path: '', message: `cluster ${spec.metadata.name}: is empty; fill it, or remove spec.cloudConfig.file to read the provider's existing config object` });
    return undefined;
  }
  if (cloudConfigFile) {
    try {
      refuseCredentials(spec.spec.platform, cloudConf, KUBERNETES_SECRET_FROM);
    } catch (e) {
      if (e instanceof CloudConfigError) {
        issue({ file: cloudConfigFile, path: '', line: e.line, message: `cluster ${spec.metadata.name}: ${e.message}` });
        return undefined;
      }
      throw e;
    }
    const configProblems = kubernetesCloudConfigProblems(spec, cloudConf);
    for (const p of configProblems) {
      issue({ file: cloudConfigFile, path: p.path.join('.'), message: `cluster ${spec.metadata.name}: ${p.message}` });
    }
    if (configProblems.length > 0) {
      return undefined;
    }
  }
  for (const w of warnings) {
    warn({ file, message: `cluster ${spec.metadata.name}: ${w}` });
  }
  const specPath = path.relative(path.resolve(root), path.resolve(file)).split(path.sep).join('/');
  const migration = migrationInputFor(spec, platformFactsFor(spec.spec.platform)?.migrationSupport?.(spec));
  return { spec, specFile: file, specPath, cloudConfigFile, cloudConf, migration, warnings };
}

/** What the migration checks read from a spec. */
function migrationCheckInput(spec: ClusterSpec, migration: MigrationInput): MigrationCheckInput {
  const s = spec.spec;
  const k = s.kubernetes;
  const image = kubernetesCcmImage(spec);
  return {
    ...migration,
    distribution: s.distribution,
    managementMode: s.managementMode,
    inTreeVolumes: s.migration?.inTreeVolumes,
    enabledFeatureGates: s.featureGates.enabled,
    ...(s.distribution === 'kubernetes' && k ? {
      kubernetes: {
        allocateNodeCidrs: k.allocateNodeCidrs,
        configureCloudRoutes: k.configureCloudRoutes,
        namespace: k.namespace,
        clusterName: k.clusterName,
        clusterNameFlag: upstreamProviderFor(s.platform)?.clusterNameFlag ?? false,
        ...(s.migration?.ccmVersion !== undefined ? { ccmVersion: s.migration.ccmVersion } : {}),
        ...(image ? { image } : {}),
      },
    } : {}),
  };
}

function prepare(file: string, spec: ClusterSpec, base: string, root: string, issue: (i: SpecIssue) => void, warn: (w: InputWarning) => void): PreparedCluster | undefined {
  for (const w of gitopsWarnings(spec.spec.gitops)) {
    warn({ file, message: `cluster ${spec.metadata.name}: ${w}` });
  }
  const declared = migrationInputFor(spec, platformFactsFor(spec.spec.platform)?.migrationSupport?.(spec));
  if (declared) {
    for (const w of migrationWarnings(migrationCheckInput(spec, declared))) {
      warn({ file, message: `cluster ${spec.metadata.name}: ${w.path.join('.')}: ${w.message}` });
    }
  }
  if (spec.spec.distribution === 'kubernetes') {
    return prepareKubernetes(file, spec, base, root, issue, warn);
  }
  const platform = platformFactsFor(spec.spec.platform)!;
  const read = readCloudConfig(file, spec, base, root, issue);
  if (!read) {
    return undefined;
  }
  const { cloudConfigFile, text: source } = read;
  const extraData: Record<string, string> = {};
  for (const [key, extraRef] of Object.entries(spec.spec.cloudConfig?.extraKeys ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const field = `spec.cloudConfig.extraKeys.${key}`;
    const resolved = resolveInside(root, base, extraRef);
    if ('problem' in resolved) {
      issue({ file, path: field, message: `${describeValue(extraRef)} ${resolved.problem}` });
      return undefined;
    }
    const text = readInput(resolved.file);
    if (typeof text !== 'string') {
      issue({ ...text, message: `${text.message} (referenced by ${file} ${field})` });
      return undefined;
    }
    try {
      refuseCredentials(spec.spec.platform, text);
    } catch (e) {
      if (e instanceof CloudConfigError) {
        issue({ file: resolved.file, path: '', line: e.line, message: `cluster ${spec.metadata.name}: ${e.message}` });
        return undefined;
      }
      throw e;
    }
    extraData[key] = text;
  }
  try {
    const result = platform.transformCloudConfig(source, spec);
    for (const w of result.warnings) {
      warn({ file: cloudConfigFile ?? file, message: `cluster ${spec.metadata.name}: ${w}` });
    }
    const specPath = path.relative(path.resolve(root), path.resolve(file)).split(path.sep).join('/');
    const cloudConfExtraData = Object.keys(extraData).length > 0 ? extraData : undefined;
    const migration = migrationInputFor(spec, platform.migrationSupport?.(spec));
    return { spec, specFile: file, specPath, cloudConfigFile, cloudConf: result.config, cloudConfExtraData, migration, warnings: result.warnings };
  } catch (e) {
    if (e instanceof CloudConfigError) {
      issue({
        file: cloudConfigFile ?? file,
        path: cloudConfigFile ? '' : 'spec.cloudConfig',
        line: e.line,
        message: `cluster ${spec.metadata.name}: ${e.message}`,
      });
      return undefined;
    }
    throw e;
  }
}

/** The clusters folder, resolved; the folder as given when it cannot be (its files then fail to read, each named). */
function realRootOf(root: string): string {
  try {
    return fs.realpathSync(root);
  } catch {
    return path.resolve(root);
  }
}

/** Resolves `ref` against `base`, refusing absolute paths and anything (symlinks included) outside `root`. */
function resolveInside(root: string, base: string, ref: string): { file: string } | { problem: string } {
  if (path.isAbsolute(ref)) {
    return { problem: 'is an absolute path; give a path relative to the spec file, inside the clusters directory' };
  }
  const file = path.join(base, ref);
  let realRoot: string;
  let realFile: string;
  try {
    realRoot = fs.realpathSync(root);
    realFile = fs.realpathSync(file);
  } catch {
    return { problem: `does not exist (looked for ${file}); create it or fix the path, relative to the spec file` };
  }
  const rel = path.relative(realRoot, realFile);
  if (rel.startsWith('..') || path.isAbsolute(rel)) {
    return { problem: `resolves outside the clusters directory ${root}; keep cloud configs next to their specs` };
  }
  // a hard link has no target to check: its other name may be anywhere on the file system (/etc/shadow)
  let links = 1;
  try {
    const st = fs.statSync(realFile);
    // a folder's link count is its subfolders': the read refuses a folder as no file
    links = st.isFile() ? st.nlink : 1;
  } catch {
    // vanished since: the read reports it
  }
  if (links > 1) {
    return { problem: `is a hard link (the file has ${links} names), so it may be a file outside the clusters directory ${root}; `
      + `replace it with a copy (cp ${file} ${file}.copy && mv ${file}.copy ${file})` };
  }
  return { file };
}

/** Reads a text input; returns an issue instead of throwing. */
function readInput(file: string): string | SpecIssue {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return { file, path: '', message: 'cannot be read: file not found' };
  }
  if (!stat.isFile()) {
    return { file, path: '', message: 'is not a regular file' };
  }
  if (stat.size > MAX_INPUT_BYTES) {
    return { file, path: '', message: `is ${stat.size} bytes, over the ${MAX_INPUT_BYTES}-byte limit; inputs are small text files` };
  }
  let buffer: Buffer;
  try {
    buffer = fs.readFileSync(file);
  } catch (e) {
    return { file, path: '', message: `cannot be read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
  }
  if (buffer.includes(0)) {
    return { file, path: '', message: 'is binary (contains NUL bytes); inputs must be UTF-8 text' };
  }
  try {
    // fatal: a Latin-1 byte is refused, not turned into U+FFFD in the rendered output
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(buffer);
  } catch {
    const offset = firstInvalidUtf8(buffer);
    const line = buffer.subarray(0, offset).toString('latin1').split('\n').length;
    return { file, path: '', line, message: `is not UTF-8 text (byte 0x${buffer[offset].toString(16).toUpperCase().padStart(2, '0')} at offset ${offset}, e.g. Latin-1); save it as UTF-8` };
  }
}

/** Offset of the first byte that is not part of a valid UTF-8 sequence. */
function firstInvalidUtf8(buffer: Buffer): number {
  let i = 0;
  while (i < buffer.length) {
    const b = buffer[i];
    const n = b < 0x80 ? 0 : b >= 0xc2 && b < 0xe0 ? 1 : b >= 0xe0 && b < 0xf0 ? 2 : b >= 0xf0 && b < 0xf5 ? 3 : -1;
    if (n < 0) {
      return i;
    }
    for (let k = 1; k <= n; k++) {
      if (i + k >= buffer.length || (buffer[i + k] & 0xc0) !== 0x80) {
        return i;
      }
    }
    i += n + 1;
  }
  return 0;
}

/**
 * 1-based line of a field: the line of its key when the last path segment is
 * a key of a mapping (also when the key is unknown or the value a block),
 * else of the node itself; falls back to the nearest existing parent.
 */
function lineOf(doc: Document, lines: LineCounter, fieldPath: readonly (string | number)[]): number | undefined {
  for (let depth = fieldPath.length; depth >= 0; depth--) {
    const prefix = fieldPath.slice(0, depth);
    const last = prefix[prefix.length - 1];
    if (typeof last === 'string') {
      const parentPath = prefix.slice(0, -1);
      const parent = parentPath.length ? doc.getIn(parentPath, true) : doc.contents;
      if (isMap(parent)) {
        const pair = parent.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === last);
        const keyNode = pair?.key as Node | undefined;
        if (keyNode?.range) {
          return lines.linePos(keyNode.range[0]).line;
        }
      }
    }
    const node = (prefix.length ? doc.getIn(prefix, true) : doc.contents) as Node | undefined;
    if (node && typeof node === 'object' && node.range) {
      return lines.linePos(node.range[0]).line;
    }
  }
  return undefined;
}
