import { clusterIdentity } from '../cluster-spec/identity';
import * as fs from 'fs';
import * as path from 'path';
import { describeValue, SpecIssue, SpecValidationError } from '../cluster-spec/errors';
import { imagePinProblem } from '../cluster-spec/images';
import { ClusterSpec, clusterSpecSchema, SPEC_API_VERSION } from '../cluster-spec/schema';
import { schemaProblems } from '../cluster-spec/zod-issues';
import { migrationInputFor, migrationWarnings } from './migration-targets';
import { MigrationInput } from '../migration/flags';
import { MigrationSupport } from '../migration/phases';
import { migrationSupportFor } from '../migration/support';
import { guardProblems, withGuards } from '../cluster-spec/shapes';
import { ArgoCdMember } from '../gitops/repo-path';
import { gitopsWarnings } from '../gitops/warnings';
import { credentialHomeOf, distributionFacts } from '../distribution-facts';
import { PreparedCluster } from '../cluster/prepared-cluster';
import { DEFAULTS_KIND, linkOutsideProblem, isSymbolicLink, fleetSpecFiles } from './spec-files';
import { checkSpec, isHubMember, hubProblems, feedsTransform, inputRefs, renderable, migrationCheckInput } from './spec-problems';
import { YamlSource, isPlainObject, readYamlSource, locate, readInput, lineOf } from './yaml-source';
export { MAX_INPUT_BYTES, MAX_KEYS } from './yaml-source';
export { checkSpec } from './spec-problems';
export { DEFAULTS_KIND, listSpecFiles, linkOutsideProblem, isSymbolicLink, fleetSpecFiles } from './spec-files';

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

/** The {@link FleetMember} of a prepared cluster. */
export function fleetMemberOf(cluster: PreparedCluster): FleetMember {
  const s = cluster.spec.spec;
  const supportWithoutMigration = cluster.migration ? undefined : migrationSupportFor(cluster.spec);
  return {
    name: cluster.spec.metadata.name,
    specFile: cluster.specFile,
    gitops: s.gitops,
    platform: s.platform,
    distribution: s.distribution,
    specMigration: s.migration,
    migration: cluster.migration,
    supportWithoutMigration,
    // only a cluster that can have a phase needs to be found across a rename: the others hold no string for it
    identity: cluster.migration || supportWithoutMigration ? clusterIdentity(s) : undefined,
  };
}

/** A member as the Argo CD roots and the check of `spec.gitops.path` read a spec: its name and `spec.gitops`. */
export function argoCdMemberOf(m: Pick<FleetMember, 'name' | 'gitops'>): ArgoCdMember {
  return { metadata: { name: m.name }, spec: { gitops: m.gitops } };
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

/** Loads every spec below `dir`, validates it and runs the cloud-config transforms. Throws SpecValidationError listing every problem. */
export function loadFleet(dir: string, cache?: LoadCache): Fleet {
  return loadSpecFiles(fleetSpecFiles(dir), dir, cache);
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
export function streamSpecFiles(
  files: readonly string[],
  root: string,
  cache: LoadCache | undefined,
  each: (cluster: LoadedCluster) => void,
  failing?: () => void,
): { members: FleetMember[]; warnings: InputWarning[] } {
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
export function* specStream(
  files: readonly string[],
  root: string,
  cache: LoadCache | undefined,
  failing?: () => void,
): Generator<LoadedCluster, { members: FleetMember[]; warnings: InputWarning[] }, void> {
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
  const named = (name: string | undefined, file: string, line: number | undefined) => {
    if (name !== undefined) {
      const use: NameUse = { file, line };
      const before = byName.get(name);
      byName.set(name, before === undefined ? use : Array.isArray(before) ? [...before, use] : [before, use]);
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
      const member = hit.member;
      const nameTaken = byName.has(member.name);
      named(member.name, file, hit.nameLine);
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
      const prepared = prepare(
        file,
        result.spec,
        base,
        root,
        (i) => ownIssues.push(i),
        (w) => ownWarnings.push(w),
      );
      issues.push(...ownIssues);
      warnings.push(...ownWarnings);
      if (!prepared) {
        continue;
      }
      member = fleetMemberOf(prepared);
      if (cache && ownIssues.length === 0 && result.issues.length === 0 && chain.every((d) => defaultsCache.get(d)?.issues.length === 0)) {
        cache.store(
          file,
          chain,
          inputRefs(result.spec).map((ref) => path.join(base, ref)),
          { nameLine: result.nameLine, cloudConfigBase: result.cloudConfigBase, prepared, member, warnings: ownWarnings },
        );
      }
      members.push(member);
      const nameTaken = byName.has(member.name);
      yield { member, ...(nameTaken ? { nameTaken } : {}), prepared: () => prepared };
    } finally {
      named(result.rawName, file, result.nameLine);
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
        message: `"${name}" is also used by ${uses
          .filter((u) => u !== use)
          .map((u) => u.file)
          .join(', ')}; cluster names must be unique across the fleet`,
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
  const dirs = [
    root,
    ...rel
      .split(path.sep)
      .filter((p) => p !== '')
      .map((_p, i, parts) => path.join(root, ...parts.slice(0, i + 1))),
  ];
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
  const at = (p: (string | number)[], message: string) =>
    issues.push({ file: src.file, path: p.join('.'), line: lineOf(src.doc, src.lines, p), message });
  const d = src.data;
  if (d.apiVersion !== SPEC_API_VERSION) {
    at(
      ['apiVersion'],
      `${d.apiVersion === undefined ? 'is required' : `${describeValue(d.apiVersion)} is not allowed`}; set it to "${SPEC_API_VERSION}"`,
    );
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
        at(
          ['metadata', key],
          key === 'name'
            ? 'cannot be set in a defaults file; each cluster spec names itself'
            : 'unknown field; a defaults file may set metadata.labels only',
        );
      }
    }
  }
  return issues;
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
      issues: withGuards(guardProblems(merged, credentialHomeOf(merged)), others).map((p) => issueAt(p.path, p.message)),
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
        problems.push({
          path: ['spec', 'images', key],
          message: `${describeValue(ref)} ${problem}; pin it by digest (repo@sha256:...) or by an explicit tag`,
        });
      }
    }
  }
  return problems;
}

/** A spec's name, where it is written. */
interface NameUse {
  readonly file: string;
  readonly line?: number;
}

/** Reads spec.cloudConfig.file (inside the clusters folder): its path and text, '' without one; undefined after reporting a problem. */
function readCloudConfig(
  file: string,
  spec: ClusterSpec,
  base: string,
  root: string,
  issue: (i: SpecIssue) => void,
): { cloudConfigFile?: string; text: string } | undefined {
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

/** Reads a file a spec names at `field`, inside the clusters folder; undefined after reporting a problem. */
function readRef(
  file: string,
  field: string,
  ref: string,
  base: string,
  root: string,
  issue: (i: SpecIssue) => void,
): { file: string; text: string } | undefined {
  const resolved = resolveInside(root, base, ref);
  if ('problem' in resolved) {
    issue({ file, path: field, message: `${describeValue(ref)} ${resolved.problem}` });
    return undefined;
  }
  const text = readInput(resolved.file);
  if (typeof text !== 'string') {
    issue({ ...text, message: `${text.message} (referenced by ${file} ${field})` });
    return undefined;
  }
  return { file: resolved.file, text };
}

/** Prepares a cluster on its distribution (`distribution-facts.ts`), after the warnings of every distribution. */
function prepare(
  file: string,
  spec: ClusterSpec,
  base: string,
  root: string,
  issue: (i: SpecIssue) => void,
  warn: (w: InputWarning) => void,
): PreparedCluster | undefined {
  for (const w of gitopsWarnings(spec.spec.gitops)) {
    warn({ file, message: `cluster ${spec.metadata.name}: ${w}` });
  }
  const declared = migrationInputFor(spec, migrationSupportFor(spec));
  if (declared) {
    for (const w of migrationWarnings(migrationCheckInput(spec, declared))) {
      warn({ file, message: `cluster ${spec.metadata.name}: ${w.path.join('.')}: ${w.message}` });
    }
  }
  const specPath = path.relative(path.resolve(root), path.resolve(file)).split(path.sep).join('/');
  return distributionFacts(spec.spec.distribution).prepare(
    spec,
    {
      file,
      specPath,
      issue,
      warn,
      readCloudConfig: () => readCloudConfig(file, spec, base, root, issue),
      readRef: (field, ref) => readRef(file, field, ref, base, root, issue),
    },
    declared,
  );
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
    return {
      problem:
        `is a hard link (the file has ${links} names), so it may be a file outside the clusters directory ${root}; ` +
        `replace it with a copy (cp ${file} ${file}.copy && mv ${file}.copy ${file})`,
    };
  }
  return { file };
}
