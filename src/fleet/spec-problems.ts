// The checks of a parsed spec across layers (GitOps, OpenShift, Kubernetes, migration, hub destinations): pure, no file read.
import * as path from 'path';
import { describeValue, SpecIssue } from '../cluster-spec/errors';
import { IMAGE_KEYS, imagePinProblem } from '../cluster-spec/images';
import { ClusterSpec } from '../cluster-spec/schema';
import { PLATFORM_SECTION } from '../cluster-spec/sections/platforms';
import { tlsProblems } from '../cluster-spec/tls';
import { credentialHomeOf, distributionFacts, otherRenderers } from '../distribution-facts';
import { migrationInputFor, migrationProblems } from './migration-targets';
import { MigrationCheckInput } from '../migration/validate';
import { MigrationInput } from '../migration/flags';
import { migrationSupportFor } from '../migration/support';
import {
  commandItemProblem,
  guardProblems,
  httpsUrlProblem,
  httpUrlProblem,
  metadataMapProblems,
  ShapeProblem,
  withGuards,
} from '../cluster-spec/shapes';
import { ArgoCdMember, argoCdDestination, destinationKey, IN_CLUSTER_NAME, IN_CLUSTER_SERVER } from '../gitops/repo-path';
import { RESERVED_CLUSTER_NAME } from '../gitops/argocd-groups';

/**
 * Checks beyond the schema: supported platform, platform sections, images,
 * gates, TLS, proxy, GitOps, migration. The guards over every string (code
 * points, credentials) come first; a field they report gets no other message.
 */
export function checkSpec(spec: ClusterSpec): ShapeProblem[] {
  return withGuards(guardProblems(spec, credentialHomeOf(spec)), specProblems(spec));
}

/** The checks of {@link checkSpec} without the guards. */
function specProblems(spec: ClusterSpec): { path: (string | number)[]; message: string }[] {
  const s = spec.spec;
  const problems = commonProblems(spec);
  problems.push(...distributionFacts(s.distribution).specProblems(spec, (platform) => otherRenderers(s.distribution, platform)));
  if (renderable(spec)) {
    const migration = migrationInputFor(spec, migrationSupportFor(spec));
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
      problems.push({
        path: ['spec', 'images', key],
        message: `${describeValue(ref)} ${problem}; pin it by digest (repo@sha256:...) or by an explicit tag`,
      });
    }
  }
  const disabled = new Set(s.featureGates.disabled);
  s.featureGates.enabled.forEach((gate, i) => {
    if (disabled.has(gate)) {
      problems.push({
        path: ['spec', 'featureGates', 'enabled', i],
        message: `"${gate}" is listed as both enabled and disabled; keep it in one list`,
      });
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
    problems.push({
      path: ['spec', 'gitops', 'repoURL'],
      message: `is required with engine "${s.gitops.engine}"; set the URL of the repository that holds the rendered tree`,
    });
  }
  if (s.gitops.repoURL && !isGitUrl(s.gitops.repoURL)) {
    problems.push({
      path: ['spec', 'gitops', 'repoURL'],
      message: `${describeValue(s.gitops.repoURL)} is not a git URL; use https://, ssh:// or git@host:path`,
    });
  }
  const server = s.gitops.argocd.destinationServer;
  const serverProblem = server === undefined ? undefined : httpsUrlProblem(server);
  if (serverProblem) {
    problems.push({
      path: ['spec', 'gitops', 'argocd', 'destinationServer'],
      message: `${describeValue(server)} ${serverProblem}; give the API server URL as registered in Argo CD, e.g. https://api.cluster.example.com:6443`,
    });
  }
  problems.push(...renderedStringProblems(spec));
  if (RESERVED_CLUSTER_NAME.test(spec.metadata.name)) {
    problems.push({
      path: ['metadata', 'name'],
      message: `"${spec.metadata.name}" is reserved: Application ccm-${spec.metadata.name} would be the name of the Argo CD root Application; choose another name`,
    });
  }
  if (s.gitops.engine === 'argocd') {
    problems.push(...argoCdProblems(spec));
  }
  const gitPath = s.gitops.path;
  if (gitPath !== undefined && (path.isAbsolute(gitPath) || gitPath.split(/[\\/]/).includes('..'))) {
    problems.push({
      path: ['spec', 'gitops', 'path'],
      message: `${describeValue(gitPath)} must be a relative path inside the repository, without ".."`,
    });
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
      problems.push({
        path: at('destinationServer'),
        message:
          'is required with topology hub: set the API server URL (or destinationName) under which the cluster is registered in the hub Argo CD, ' +
          "or every cluster's CCM lands in the hub cluster",
      });
    }
    if (a.project === 'default') {
      problems.push({
        path: at('project'),
        message:
          'is "default" with topology hub; name a dedicated project: it is rendered as an AppProject that allows only the fleet repository, the registered clusters and the rendered kinds',
      });
    }
  } else {
    // a destinationServer that is no https:// URL has its own problem
    const server = a.destinationServer !== undefined && httpsUrlProblem(a.destinationServer) ? undefined : a.destinationServer?.replace(/\/+$/, '');
    if ((server !== undefined && server !== IN_CLUSTER_SERVER) || (a.destinationName !== undefined && a.destinationName !== IN_CLUSTER_NAME)) {
      problems.push({
        path: at(server !== undefined ? 'destinationServer' : 'destinationName'),
        message: `${describeValue(a.destinationServer ?? a.destinationName)} is another cluster, but topology per-cluster means an Argo CD inside this cluster; set topology: hub to apply it from a hub Argo CD`,
      });
    }
  }
  return problems;
}

/** Whether a cluster is applied by a hub Argo CD (the clusters {@link hubProblems} checks). */
export function isHubMember(spec: ArgoCdMember): boolean {
  const g = spec.spec.gitops;
  return g.engine === 'argocd' && g.argocd.topology === 'hub';
}

/**
 * One hub Argo CD (topology hub, one namespace) applies each destination once:
 * two Applications on one destination would own the same objects (Namespaces,
 * ClusterRoles, the CCM) and fight over them. Its root reads one repository
 * at one revision.
 */
export function hubProblems(hubMembers: readonly { file: string; spec: ArgoCdMember }[]): SpecIssue[] {
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
        issues.push({
          file: m.file,
          path: `spec.gitops.argocd.${field}`,
          message:
            `is also the destination of ${same
              .filter((o) => o !== m)
              .map((o) => `cluster ${o.spec.metadata.name} (${o.file})`)
              .join(', ')} ` +
            `in the hub Argo CD of namespace ${namespace}: two Applications would own the same objects in one cluster; give each cluster its own registered destination`,
        });
      }
    }
    const first = members[0].spec.spec.gitops;
    for (const m of members.slice(1)) {
      const g = m.spec.spec.gitops;
      if (g.repoURL !== first.repoURL || g.revision !== first.revision) {
        issues.push({
          file: m.file,
          path: g.repoURL !== first.repoURL ? 'spec.gitops.repoURL' : 'spec.gitops.revision',
          message: `differs from cluster ${members[0].spec.metadata.name} in the same hub Argo CD (namespace ${namespace}); the hub's root Application reads one repository at one revision`,
        });
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
  const k = spec.spec.kubernetes as
    | undefined
    | {
        podLabels?: Record<string, string>;
        podAnnotations?: Record<string, string>;
        serviceAccount?: { labels?: Record<string, string>; annotations?: Record<string, string> };
        scheduling?: { nodeSelector?: Record<string, string> };
        output?: { clusterResourceSet?: { clusterSelector?: Record<string, string> } };
        command?: string[];
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
      problems.push({
        path: ['spec', 'cloudConfig', 'extraKeys', key],
        message: `${describeValue(key)} is not a ConfigMap key (".", ".." and keys starting with ".." are refused by the API server)`,
      });
    }
  }
  return problems;
}

/** Whether a field feeds the cloud-config transform, so a problem there makes the transform's own error redundant. */
export function feedsTransform(spec: ClusterSpec, fieldPath: string): boolean {
  const section = PLATFORM_SECTION[spec.spec.platform];
  return ['spec.cloudConfig', 'spec.featureGates', 'spec.network', ...(section ? [`spec.${section}`] : [])].some(
    (prefix) => fieldPath === prefix || fieldPath.startsWith(`${prefix}.`),
  );
}

/** The files a spec names (its cloud config, its extra keys), as written: everything prepare reads besides the spec and its defaults. */
export function inputRefs(spec: ClusterSpec): string[] {
  const c = spec.spec.cloudConfig;
  return [
    ...(c?.file !== undefined ? [c.file] : []),
    ...Object.entries(c?.extraKeys ?? {})
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, ref]) => ref),
  ];
}

/** Whether the spec's distribution renders its platform. */
export function renderable(spec: ClusterSpec): boolean {
  return distributionFacts(spec.spec.distribution).renders(spec.spec.platform);
}

/** What the migration checks read from a spec. */
export function migrationCheckInput(spec: ClusterSpec, migration: MigrationInput): MigrationCheckInput {
  const s = spec.spec;
  return {
    ...migration,
    distribution: s.distribution,
    managementMode: s.managementMode,
    inTreeVolumes: s.migration?.inTreeVolumes,
    enabledFeatureGates: s.featureGates.enabled,
    ...distributionFacts(s.distribution).migrationCheckSection(spec),
  };
}
