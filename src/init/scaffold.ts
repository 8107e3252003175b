import * as path from 'path';
import { distributionFacts } from '../distribution-facts';
import { ImageKey } from '../cluster-spec/images';
import { DISTRIBUTIONS, Distribution, PlatformType, SPEC_API_VERSION, SPEC_KIND } from '../cluster-spec/schema';
import { DEFAULTS_KIND } from '../fleet/load';
import { outputSidecars } from '../pipeline/output';
import { isSshRepoUrl } from '../gitops/warnings';
import { UserError } from '../util/user-error';

/** GitOps engines a scaffolded fleet can use (spec.gitops.engine). */
export const INIT_ENGINES = ['argocd', 'flux', 'plain'] as const;
export type InitEngine = (typeof INIT_ENGINES)[number];
/** Argo CD fleet models a scaffolded fleet can use (spec.gitops.argocd.topology). */
export const INIT_TOPOLOGIES = ['per-cluster', 'hub'] as const;
export type InitTopology = (typeof INIT_TOPOLOGIES)[number];
/** The namespace of the hub's Argo CD in a scaffold (upstream Argo CD's; OpenShift GitOps uses openshift-gitops). */
export const HUB_NAMESPACE = 'argocd';
/** The Argo CD project of a hub's clusters in a scaffold (a hub refuses `default`). */
export const HUB_PROJECT = 'cloud-controllers';

/** The folder of cluster specs in a scaffolded fleet repository. */
export const INIT_CLUSTERS_DIR = 'clusters';
/** The folder the scaffolded CI renders into. */
export const INIT_OUT_DIR = 'dist';
/** Where the CI workflow goes (GitHub Actions). */
export const INIT_WORKFLOW_PATH = '.github/workflows/ccm-gitops.yml';
/** The repository URL written when none is given: a placeholder to replace. */
export const PLACEHOLDER_REPO_URL = 'https://git.example.com/platform/fleet.git';

/**
 * `.gitignore` lines of a fleet repository: dependencies, and what synth
 * leaves beside the output folder while it writes, and a killed run leaves
 * behind (`outputSidecars` in src/pipeline/output.ts: the lock, the commit's journal,
 * the staging and backup folders; `ccm-gitops import` stages
 * `.<file>.ccm-gitops-import`). The next run completes or removes them; they
 * must never be committed.
 */
export const INIT_GITIGNORE: readonly string[] = ['node_modules/', ...outputSidecars(INIT_OUT_DIR).patterns, '.*.ccm-gitops-import'];

/** Options of `ccm-gitops init`. */
export interface ScaffoldOptions {
  /**
   * Distributions to write an example for.
   *
   * @default ['openshift']
   */
  readonly distributions?: readonly Distribution[];
  /**
   * Platforms to write an example for (one per distribution that renders it).
   *
   * @default ['AWS']
   */
  readonly platforms?: readonly PlatformType[];
  /**
   * GitOps engine of the fleet (the fleet model: Argo CD app-of-apps, one Flux entry per cluster, or plain kustomize).
   *
   * @default 'argocd'
   */
  readonly engine?: InitEngine;
  /**
   * With Argo CD: `per-cluster` (an Argo CD in each cluster applies only that
   * cluster) or `hub` (one Argo CD applies every cluster, registered in it by
   * name, in a project of its own).
   *
   * @default 'per-cluster'
   */
  readonly topology?: InitTopology;
  /**
   * The fleet repository's URL, as the GitOps engine clones it.
   *
   * @default PLACEHOLDER_REPO_URL
   */
  readonly repoURL?: string;
  /**
   * Path from the fleet repository root to the installed package's JSON Schema,
   * used for the editor modeline of every spec.
   *
   * @default 'node_modules/ccm-gitops/schema/cluster-spec.schema.json'
   */
  readonly schemaPath?: string;
  /**
   * Image keys of each distribution's `defaults.yaml` that already exists
   * (init keeps it as it is): an example needing an image that file lacks
   * pins it in its own spec, and the scaffold says so in a note.
   *
   * @default - no defaults file exists
   */
  readonly existingImages?: Partial<Record<Distribution, readonly string[]>>;
  /**
   * The CI workflow to write at INIT_WORKFLOW_PATH (the content of the package's examples/ci/ccm-gitops.yml).
   *
   * @default - no workflow
   */
  readonly workflow?: string;
}

/** One file of the scaffold, relative to the fleet repository root, `/`-separated. */
export interface ScaffoldFile {
  readonly path: string;
  readonly content: string;
}

/** A distribution and platform pair the scaffold cannot write, with the reason. */
export interface SkippedExample {
  readonly distribution: Distribution;
  readonly platform: PlatformType;
  readonly reason: string;
}

/** What `scaffold` returns: the files, and the combinations left out. */
export interface Scaffold {
  readonly files: ScaffoldFile[];
  readonly skipped: SkippedExample[];
  /** The GitOps engine of the fleet. */
  readonly engine: InitEngine;
  /** Its Argo CD fleet model. */
  readonly topology: InitTopology;
  /** The example clusters' names, sorted. */
  readonly examples: string[];
  /** What the user has to finish by hand (an image an existing defaults file lacks). */
  readonly notes: string[];
}

/** Platforms a distribution renders in this version. */
export function platformsOf(distribution: Distribution): PlatformType[] {
  return distributionFacts(distribution).platforms();
}

/** The example cluster name for a distribution and platform (unique across the scaffold). */
export function exampleClusterName(distribution: Distribution, platform: PlatformType): string {
  return `${distributionFacts(distribution).scaffold.examplePrefix}${platform.toLowerCase()}-example-1`;
}

/**
 * The files of a new fleet repository (pure: no file system access). Every
 * spec validates and renders as written; values to replace are marked
 * `REPLACE`.
 */
export function scaffold(options: ScaffoldOptions = {}): Scaffold {
  const distributions: Distribution[] = [...new Set<Distribution>(options.distributions ?? ['openshift'])].sort(
    (a, b) => DISTRIBUTIONS.indexOf(a) - DISTRIBUTIONS.indexOf(b),
  );
  const platforms: PlatformType[] = [...new Set<PlatformType>(options.platforms ?? ['AWS'])].sort();
  const engine = options.engine ?? 'argocd';
  const topology = options.topology ?? 'per-cluster';
  if (topology === 'hub' && engine !== 'argocd') {
    throw new UserError('init', `--topology hub is an Argo CD fleet model; use it with --engine argocd (the fleet's engine is ${engine})`);
  }
  const hub = engine === 'argocd' && topology === 'hub';
  const repoURL = options.repoURL ?? PLACEHOLDER_REPO_URL;
  const schemaPath = options.schemaPath ?? 'node_modules/ccm-gitops/schema/cluster-spec.schema.json';
  // defaults files have their own schema, beside the cluster spec's in the package
  const defaultsSchemaPath = path.posix.join(path.posix.dirname(schemaPath), 'cluster-defaults.schema.json');
  const modeline = (file: string, schema = schemaPath): string =>
    `# yaml-language-server: $schema=${path.posix.relative(path.posix.dirname(file), schema)}\n`;

  const files: ScaffoldFile[] = [];
  const skipped: SkippedExample[] = [];
  const examples: string[] = [];
  const notes: string[] = [];
  for (const platform of platforms) {
    if (!distributions.some((d) => platformsOf(d).includes(platform))) {
      throw new UserError(
        'init',
        `platform ${platform} is not rendered by distribution ${distributions.join(' or ')}; ` +
          `choose from ${[...new Set(distributions.flatMap(platformsOf))].sort().join(', ')}`,
      );
    }
  }

  const defaultsFile = `${INIT_CLUSTERS_DIR}/defaults.yaml`;
  files.push({ path: defaultsFile, content: modeline(defaultsFile, defaultsSchemaPath) + fleetDefaults(engine, repoURL, hub) });

  for (const distribution of distributions) {
    const chosen = platforms.filter((p) => {
      if (platformsOf(distribution).includes(p)) {
        return true;
      }
      skipped.push({ distribution, platform: p, reason: `distribution ${distribution} does not render ${p}` });
      return false;
    });
    if (chosen.length === 0) {
      continue;
    }
    const folder = `${INIT_CLUSTERS_DIR}/${distribution}`;
    const distDefaults = `${folder}/defaults.yaml`;
    files.push({
      path: distDefaults,
      content: modeline(distDefaults, defaultsSchemaPath) + distributionDefaults(distribution, chosen, engine === 'argocd' && !hub),
    });
    const existing = options.existingImages?.[distribution];
    for (const platform of chosen) {
      // a kept defaults.yaml without this platform's images: the example pins them itself, so it validates as written
      const missing = existing ? imageKeysOf(distribution, [platform]).filter((k) => !existing.includes(k)) : [];
      const name = exampleClusterName(distribution, platform);
      examples.push(name);
      const specFile = `${folder}/${name}.yaml`;
      const cloudConf = distributionFacts(distribution).scaffold.exampleCloudConfig(platform);
      files.push({
        path: specFile,
        content: modeline(specFile) + exampleSpec(distribution, platform, name, cloudConf ? `${name}.cloud.conf` : undefined, missing, hub),
      });
      if (missing.length > 0) {
        notes.push(
          `${distDefaults} (kept) has no ${missing.join(', ')}: ${specFile} pins ${missing.length === 1 ? 'it' : 'them'} itself; ` +
            `move ${missing.length === 1 ? 'it' : 'them'} to ${distDefaults} to share ${missing.length === 1 ? 'it' : 'them'} with the other ${platform} clusters`,
        );
      }
      if (cloudConf) {
        files.push({ path: `${folder}/${name}.cloud.conf`, content: cloudConf(name) });
      }
    }
  }

  files.push({ path: '.gitignore', content: gitignore() });
  if (options.workflow !== undefined) {
    files.push({ path: INIT_WORKFLOW_PATH, content: options.workflow });
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, skipped, engine, topology, examples: examples.sort(), notes };
}

/** The `.gitignore` of a fleet repository. */
export function gitignore(): string {
  return (
    '# ccm-gitops: dependencies, and the lock, journal and staging folders a running or killed synth or import leaves (the next run completes or removes them)\n' +
    `${INIT_GITIGNORE.join('\n')}\n`
  );
}

/**
 * The Argo CD namespace of a distribution: OpenShift GitOps installs into
 * openshift-gitops; upstream Argo CD into argocd (argoproj/argo-cd@v3.1.0
 * docs/getting_started.md applies manifests/install.yaml with `-n argocd`).
 */
export function argoCdNamespaceOf(distribution: Distribution): string {
  return distributionFacts(distribution).scaffold.argoCdNamespace;
}

function fleetDefaults(engine: InitEngine, repoURL: string, hub: boolean): string {
  const placeholder = repoURL === PLACEHOLDER_REPO_URL ? "   # REPLACE with this repository's URL" : '';
  return `# Fleet-wide defaults: merged into every cluster spec below clusters/.
# A deeper defaults.yaml wins over this one; a cluster spec wins over all.
# Mappings merge key by key; a list or a scalar replaces the inherited one.
# Every field: node_modules/ccm-gitops/docs/spec-reference.md
apiVersion: ${SPEC_API_VERSION}
kind: ${DEFAULTS_KIND}
metadata:
  labels:
    owner: platform-team              # free-form; shown nowhere but kept on the spec
spec:
  # managementMode: gitops            # gitops (default): ccm-gitops renders the CCM; operator: the in-cluster operator does
  # controlPlaneTopology: HighlyAvailable   # or SingleReplica: one replica, no PodDisruptionBudget
  # tls:
  #   profile: Intermediate           # APIServer TLS profile: Old | Intermediate | Modern | Custom
  # proxy:                            # cluster-wide proxy (no credentials in the URL)
  #   httpProxy: http://proxy.example.com:3128
  #   httpsProxy: http://proxy.example.com:3128
  #   noProxy: .cluster.local,.svc,169.254.169.254
  gitops:
    engine: ${engine}${' '.repeat(Math.max(1, 22 - engine.length))}# argocd | flux | plain
    repoURL: ${repoURL}${placeholder}
    revision: main
${
  engine === 'argocd' && hub
    ? `    argocd:
      topology: hub                   # one Argo CD (the hub) applies every cluster, registered in it by name
      namespace: ${HUB_NAMESPACE}                 # REPLACE if the hub runs OpenShift GitOps: openshift-gitops
      project: ${HUB_PROJECT}        # a project of its own, rendered as an AppProject (a hub refuses default)
`
    : engine === 'argocd'
      ? `    # argocd:                         # the namespace is in each distribution's defaults.yaml
    #   project: default
`
      : ''
}${
    engine === 'flux'
      ? `    flux:
      namespace: flux-system
${
  isSshRepoUrl(repoURL)
    ? `      secretRef: fleet-git-credentials     # REPLACE if named otherwise: the Secret with the SSH key (flux create secret git)
`
    : `      # secretRef: fleet-git-credentials   # Secret with the git credentials, when the repository is private
`
}`
      : ''
  }`;
}

/** The image keys a distribution needs for the platforms, sorted. */
export function imageKeysOf(distribution: Distribution, platforms: readonly PlatformType[]): ImageKey[] {
  const keys = new Set<ImageKey>();
  for (const p of platforms) {
    distributionFacts(distribution)
      .scaffold.imageKeys(p)
      .forEach((k) => keys.add(k));
  }
  return [...keys].sort();
}

function exampleImage(distribution: Distribution, key: ImageKey): string {
  return distributionFacts(distribution).scaffold.exampleImage(key);
}

function distributionDefaults(distribution: Distribution, platforms: readonly PlatformType[], argoCdPerCluster: boolean): string {
  const images = imageKeysOf(distribution, platforms)
    .map((k) => `    ${k}: ${exampleImage(distribution, k)}`)
    .join('\n');
  const header = distributionFacts(distribution).scaffold.defaultsHeader;
  return `${header}
apiVersion: ${SPEC_API_VERSION}
kind: ${DEFAULTS_KIND}
spec:
  distribution: ${distribution}
  images:
${images}
${
  argoCdPerCluster
    ? `  gitops:
    argocd:
      namespace: ${argoCdNamespaceOf(distribution)}${distributionFacts(distribution).scaffold.argoCdNamespaceComment}
`
    : ''
}`;
}

function exampleSpec(
  distribution: Distribution,
  platform: PlatformType,
  name: string,
  cloudConfigFile: string | undefined,
  ownImages: readonly ImageKey[] = [],
  hub = false,
): string {
  const body = distributionFacts(distribution).scaffold.exampleSpecBody(platform, name, cloudConfigFile);
  return `# An example ${distribution} cluster on ${platform}. What is not here comes from
# ../defaults.yaml and ./defaults.yaml. Copy this file for each cluster.
apiVersion: ${SPEC_API_VERSION}
kind: ${SPEC_KIND}
metadata:
  name: ${name}                       # unique in the fleet: rendered into dist/${name}/
spec:
  platform: ${platform}
${body}${
    ownImages.length > 0
      ? `  images:                           # not in ./defaults.yaml (kept as it was): move them there
${ownImages.map((k) => `    ${k}: ${exampleImage(distribution, k)}`).join('\n')}
`
      : ''
  }${
    hub
      ? `  gitops:
    argocd:
      destinationName: ${name}        # REPLACE: the cluster's name as registered in the hub Argo CD
`
      : ''
  }`;
}

/**
 * Where a cluster's entry point is rendered (repository path), the folder
 * applied once by hand: synth writes it for every cluster it renders and
 * removes it with the cluster, so a copied or renamed spec gets its own.
 * Argo CD (one per cluster, the default topology): the root Application;
 * Flux: the entry Kustomization; plain: the cluster's stages.
 */
export function entryPointOf(engine: InitEngine, cluster: string, out: string = INIT_OUT_DIR, topology: InitTopology = 'per-cluster'): string {
  if (engine === 'argocd' && topology === 'hub') {
    return `${out}/_fleet/argocd/hub/${HUB_NAMESPACE}/root`;
  }
  if (engine === 'argocd') {
    return `${out}/_fleet/argocd/cluster/${cluster}/root`;
  }
  return engine === 'flux' ? `${out}/${cluster}/flux-entry` : `${out}/${cluster}`;
}
