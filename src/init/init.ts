import { holdsCredentials } from '../secrets/message-redaction';
import * as fs from 'fs';
import * as path from 'path';
import { DISTRIBUTIONS, Distribution, PLATFORM_TYPES, PlatformType } from '../cluster-spec/schema';
import { parse } from 'yaml';
import { INIT_CLUSTERS_DIR, INIT_ENGINES, INIT_TOPOLOGIES, InitEngine, InitTopology, Scaffold, scaffold, ScaffoldFile } from './scaffold';
import { PACKAGE_NAME, packageRoot } from './package-info';
import { UserError } from '../util/user-error';

/** The package's JSON Schema, relative to the package root. */
export const SCHEMA_FILE = 'schema/cluster-spec.schema.json';
/** The CI workflow the package ships, relative to the package root. */
export const WORKFLOW_FILE = 'examples/ci/ccm-gitops.yml';

/** What `initFleet` did. */
export interface InitResult {
  /** Files written, relative to the folder, `/`-separated. */
  readonly written: string[];
  /** Files that existed and were left as they were. */
  readonly kept: string[];
  /** The scaffold (with the combinations it left out). */
  readonly scaffold: Scaffold;
}

/** Command-line options of `ccm-gitops init`, as given. */
export interface InitOptions {
  readonly distribution?: readonly string[];
  readonly platform?: readonly string[];
  readonly engine?: string;
  readonly topology?: string;
  readonly repoUrl?: string;
  readonly ci?: boolean;
}

/**
 * The schema modeline target, from the fleet repository root: the installed
 * package when it sits in a node_modules folder of `dir` or of a folder
 * above it, else where installing ccm-gitops in `dir` puts it. Never an
 * absolute path (the files are committed).
 */
export function schemaPathFor(dir: string, root: string = packageRoot()): string {
  const absDir = path.resolve(dir);
  const rel = path.relative(absDir, path.join(root, SCHEMA_FILE)).split(path.sep).join('/');
  // the node_modules folder it is installed in; always through node_modules/ccm-gitops (pnpm links it there from its store)
  const up = /^((?:\.\.\/)*)node_modules\//.exec(rel);
  return `${up ? up[1] : ''}node_modules/${PACKAGE_NAME}/${SCHEMA_FILE}`;
}

/** Parses the command-line options (case-insensitive names). Throws a UserError of kind 'init'. */
export function parseInitOptions(opts: InitOptions): {
  distributions: Distribution[];
  platforms: PlatformType[];
  engine: InitEngine;
  topology: InitTopology;
  repoURL?: string;
} {
  // engine: the one given, else argocd (initFleet takes a kept defaults file's engine instead)
  const pick = <T extends string>(what: string, values: readonly T[], given: string): T => {
    const found = values.find((v) => v.toLowerCase() === given.toLowerCase());
    if (!found) {
      throw new UserError('init', `${what} ${JSON.stringify(given)} is not known; use one of ${values.join(', ')}`);
    }
    return found;
  };
  const split = (list: readonly string[] | undefined): string[] | undefined =>
    list
      ?.flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter((v) => v);
  const distributions = (split(opts.distribution) ?? ['openshift']).map((d) => pick('--distribution', DISTRIBUTIONS, d));
  const platforms = (split(opts.platform) ?? ['AWS']).map((p) => pick('--platform', PLATFORM_TYPES, p));
  const engine = pick('--engine', INIT_ENGINES, opts.engine ?? 'argocd');
  const topology = pick('--topology', INIT_TOPOLOGIES, opts.topology ?? 'per-cluster');
  if (opts.repoUrl !== undefined && (holdsCredentials(opts.repoUrl) || /^https:\/\/[^/]*@/.test(opts.repoUrl))) {
    // named, never printed: the value is a password or a token
    throw new UserError(
      'init',
      '--repo-url holds credentials, a user name before the host or a token in its query (user:password@, token@, ?token=); give the URL without them, ' +
        'and the GitOps engine a repository credential (an Argo CD repository Secret, or spec.gitops.flux.secretRef)',
    );
  }
  if (opts.repoUrl !== undefined && !/^(https:\/\/|ssh:\/\/|git@)\S+$/.test(opts.repoUrl)) {
    throw new UserError('init', `--repo-url ${JSON.stringify(opts.repoUrl)} is not an https://, ssh:// or git@ URL`);
  }
  return { distributions, platforms, engine, topology, repoURL: opts.repoUrl };
}

/**
 * Writes the scaffold of a fleet repository into `dir`. Never overwrites:
 * each file is created exclusively, an existing one is kept as it is.
 */
export function initFleet(dir: string, opts: InitOptions): InitResult {
  const parsed = parseInitOptions(opts);
  // what an earlier init (or the user) wrote is kept: the new parts must fit it
  const existing = existingFleet(dir);
  if (existing.engine !== undefined) {
    if (opts.engine !== undefined && existing.engine !== parsed.engine) {
      throw new UserError(
        'init',
        `--engine ${parsed.engine}: ${INIT_CLUSTERS_DIR}/defaults.yaml (kept as it is) sets spec.gitops.engine: ${existing.engine}; ` +
          `change it there first, or run init without --engine`,
      );
    }
    if ((INIT_ENGINES as readonly string[]).includes(existing.engine)) {
      parsed.engine = existing.engine as InitEngine;
    }
  }
  if (existing.topology === undefined && existing.fleetDefaults && parsed.engine === 'argocd' && opts.topology === 'hub') {
    // a kept fleet defaults without a topology is per-cluster: a hub example there would be refused by the next synth
    throw new UserError(
      'init',
      `--topology hub: ${INIT_CLUSTERS_DIR}/defaults.yaml (kept as it is) sets no spec.gitops.argocd.topology, so per-cluster; ` +
        'set topology: hub there first, or run init without --topology',
    );
  }
  if (existing.topology !== undefined && (INIT_TOPOLOGIES as readonly string[]).includes(existing.topology)) {
    if (opts.topology !== undefined && existing.topology !== parsed.topology) {
      throw new UserError(
        'init',
        `--topology ${parsed.topology}: ${INIT_CLUSTERS_DIR}/defaults.yaml (kept as it is) sets spec.gitops.argocd.topology: ${existing.topology}; ` +
          'change it there first, or run init without --topology',
      );
    }
    parsed.topology = existing.topology as InitTopology;
  }
  const root = packageRoot();
  const workflowFile = path.join(root, WORKFLOW_FILE);
  const result = scaffold({
    ...parsed,
    existingImages: existing.images,
    schemaPath: schemaPathFor(dir, root),
    workflow: opts.ci === false ? undefined : fs.readFileSync(workflowFile, 'utf8'),
  });
  refuseLinksOut(dir, result.files);
  const written: string[] = [];
  const kept: string[] = [];
  for (const file of result.files) {
    (writeNew(dir, file) ? written : kept).push(file.path);
  }
  return { written, kept, scaffold: result };
}

/**
 * Refuses, before anything is written, a folder of the scaffold that is a
 * symbolic link leading out of the repository (a linked `.github`): init
 * would write the workflow into another tree.
 */
function refuseLinksOut(dir: string, files: readonly ScaffoldFile[]): void {
  const root = fs.existsSync(dir) ? fs.realpathSync(dir) : path.resolve(dir);
  const folders = new Set(
    files.flatMap((f) =>
      f.path
        .split('/')
        .slice(0, -1)
        .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
    ),
  );
  for (const folder of [...folders].sort()) {
    const at = path.join(dir, ...folder.split('/'));
    let real: string;
    try {
      if (!fs.lstatSync(at).isSymbolicLink()) {
        continue;
      }
      real = fs.realpathSync(at);
    } catch {
      continue;
    }
    const rel = path.relative(root, real);
    if (rel.startsWith('..') || path.isAbsolute(rel)) {
      throw new UserError(
        'init',
        `${folder} is a symbolic link to a folder outside ${dir}; init writes only inside the repository: ` +
          `make ${folder} a folder${folder === '.github' || folder.startsWith('.github/') ? ', or pass --no-ci' : ''}`,
      );
    }
  }
}

/** Reads a YAML file's data, or undefined when it is missing or is no mapping (init then keeps it and assumes nothing). */
function readYaml(file: string): Record<string, unknown> | undefined {
  try {
    const data: unknown = parse(fs.readFileSync(file, 'utf8'), { logLevel: 'error' });
    return isMapping(data) ? data : undefined;
  } catch {
    return undefined;
  }
}

function isMapping(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The value at a path of mappings, or undefined. */
function at(v: unknown, ...keys: readonly string[]): unknown {
  return keys.reduce<unknown>((o, k) => (isMapping(o) ? o[k] : undefined), v);
}

/** Whether the fleet defaults exist, their engine and topology, and the image keys of each kept distribution defaults. */
function existingFleet(dir: string): {
  fleetDefaults: boolean;
  engine?: string;
  topology?: string;
  images: Partial<Record<Distribution, string[]>>;
} {
  const fleetFile = path.join(dir, INIT_CLUSTERS_DIR, 'defaults.yaml');
  const fleet = readYaml(fleetFile);
  const engine = at(fleet, 'spec', 'gitops', 'engine');
  const images: Partial<Record<Distribution, string[]>> = {};
  for (const d of DISTRIBUTIONS) {
    const file = path.join(dir, INIT_CLUSTERS_DIR, d, 'defaults.yaml');
    if (fs.existsSync(file)) {
      const declared = at(readYaml(file), 'spec', 'images');
      images[d] = isMapping(declared) ? Object.keys(declared) : [];
    }
  }
  const topology = at(fleet, 'spec', 'gitops', 'argocd', 'topology');
  return {
    fleetDefaults: fs.existsSync(fleetFile),
    engine: typeof engine === 'string' ? engine : undefined,
    topology: typeof topology === 'string' ? topology : undefined,
    images,
  };
}

/** Creates the file unless it exists; returns whether it wrote it. */
function writeNew(dir: string, file: ScaffoldFile): boolean {
  const target = path.join(dir, ...file.path.split('/'));
  fs.mkdirSync(path.dirname(target), { recursive: true });
  try {
    fs.writeFileSync(target, file.content, { flag: 'wx' });
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') {
      return false;
    }
    throw e;
  }
}
