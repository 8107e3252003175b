/**
 * Compares what ccm-gitops renders for one OpenShift cluster with what that release's branch of
 * openshift/cluster-cloud-controller-manager-operator ships and renders, object by object and field
 * by field (facts.ts), and returns every difference as one readable line. Never imports from `src/`.
 *
 * What the release puts on a cluster, per mode:
 * - the payload (manifests/): CVO applies it; ccm-gitops may render any of its objects, each equal to the
 *   release's, and nothing the release does not ship;
 * - gitops mode also renders the operands, which the operator renders otherwise: every object of the
 *   platform's assets (pkg/cloud/<platform>/<platform>.go `EmbedFsPath`), the CCM Service and PDB
 *   (pkg/cloud/common/resources.go getService, getPDB), and the ConfigMaps the operator's controllers
 *   write: `cloud-conf` (pkg/controllers/common_consts.go syncedCloudConfigMapName, written by
 *   cloud_config_sync_controller.go) and `ccm-trusted-ca` (trusted_ca_bundle_controller.go
 *   trustedCAConfigMapName), both in the operands' namespace;
 * - operator mode renders the operator: the payload's operator Deployment must be there.
 */
import { branch } from './index';
import { ContainerFacts, factsOf, FILLED_IN, flagMatches, ObjectFacts } from './facts';
import { withDefaultTls } from './tls';

type Obj = Record<string, any>;

/** The operands' namespace (manifests/0000_26_cloud-controller-manager-operator_00_namespace.yaml, every branch). */
const OPERAND_NAMESPACE = 'openshift-cloud-controller-manager';

/** The `cloudproviderName` the operator writes for a platform (config.GetPlatformNameString: the platform type). */
function providerName(platform: string): string {
  return platform === 'AzureStackHub' ? 'Azure' : platform;
}

/** Facts with where they are read: `[<repo>@<sha> release-X.Y <path>]`. */
export type CitedFacts = ObjectFacts & { readonly cited: string };

function cite(source: string, path: string): string {
  return `[${source.replace(/ \((release-[\d.]+)\)$/, ' $1')} ${path}]`;
}

/** What the compared cluster's Infrastructure says that changes which operands the operator writes. */
export interface ClusterFacts {
  /** Whether `spec.cloudConfig.name` names a cloud config ConfigMap (an installer-made cluster's does). */
  readonly cloudConfigNamed: boolean;
}

/**
 * The releases whose cloud-config sync controller writes `cloud-conf` on AWS only when the Infrastructure names a cloud
 * config (pkg/controllers/cloud_config_sync_controller.go isCloudConfigSyncNeeded: `infraCloudConfigRef.Name != ""` at
 * @d721cd62b5ed release-4.16, @6d4c0096477d release-4.17, @8abb067318de release-4.18; AWS syncs unconditionally from
 * @5b39a4dfc245 release-4.19, whose pkg/cloud/aws/assets/deployment.yaml mounts it).
 */
const AWS_SYNC_ONLY_WHEN_NAMED: readonly string[] = ['4.16', '4.17', '4.18'];

/** What the branch of `minor` makes the operator render on `platform` (operands), as facts. */
export function expectedOperands(minor: string, platform: string, cluster: ClusterFacts = { cloudConfigNamed: true }): CitedFacts[] {
  const b = branch(minor);
  const assets = b.platforms[platform];
  if (assets === undefined) {
    return [];
  }
  const service = `${providerName(platform).toLowerCase()}-cloud-controller-manager`;
  const common = cite(b.source, 'pkg/cloud/common/resources.go');
  // The clusters compared set no TLS profile: the operator writes the Intermediate profile's values (tls.ts).
  const tls = (cs?: readonly ContainerFacts[]) =>
    cs?.map((c) => ({
      ...c,
      flags: c.flags.map((f) => withDefaultTls(f, FILLED_IN)),
      optionalFlags: c.optionalFlags?.map((f) => withDefaultTls(f, FILLED_IN)),
    }));
  return [
    ...assets.objects.map(({ asset, ...facts }) => ({
      ...facts,
      ...(facts.containers ? { containers: tls(facts.containers) } : {}),
      cited: cite(b.source, asset),
    })),
    { id: `/Service ${OPERAND_NAMESPACE}/${service}`, servicePorts: b.common.servicePorts, cited: common },
    // getPDB names it after the platform's Deployment; its spec fields are compared by name (pdbFields).
    { id: `policy/PodDisruptionBudget ${OPERAND_NAMESPACE}/${service}`, disruptionBudget: b.common.pdbFields.join(','), cited: common },
    ...(platform === 'AWS' && !cluster.cloudConfigNamed && AWS_SYNC_ONLY_WHEN_NAMED.includes(minor)
      ? []
      : [{ id: `/ConfigMap ${OPERAND_NAMESPACE}/cloud-conf`, cited: cite(b.source, 'pkg/controllers/common_consts.go') }]),
    { id: `/ConfigMap ${OPERAND_NAMESPACE}/ccm-trusted-ca`, cited: cite(b.source, 'pkg/controllers/trusted_ca_bundle_controller.go') },
  ];
}

function containerDiffs(where: string, expected: readonly ContainerFacts[] = [], rendered: readonly ContainerFacts[] = []): string[] {
  const out: string[] = [];
  const names = (cs: readonly ContainerFacts[]) => cs.map((c) => c.name).join(',');
  if (names(expected) !== names(rendered)) {
    out.push(`${where}: containers ${names(rendered)}, the release has ${names(expected)}`);
  }
  // The containers both have are compared field by field even when the lists differ (an added init container must not hide the others).
  expected.forEach((e) => {
    const r = rendered.find((c) => c.name === e.name);
    if (r === undefined) {
      return;
    }
    const at = `${where} container ${e.name}`;
    const optional = new Set((e.optionalFlags ?? []).map((f) => f.split('=')[0]));
    const renderedFlags = r.flags.filter((f) => !optional.has(f.split('=')[0]));
    const missing = e.flags.filter((f) => !renderedFlags.some((g) => flagMatches(f, g)));
    const extra = renderedFlags.filter((g) => !e.flags.some((f) => flagMatches(f, g)));
    if (missing.length > 0) {
      out.push(`${at}: flags missing ${missing.join(' ')}`);
    }
    if (extra.length > 0) {
      out.push(`${at}: flags the release does not pass ${extra.join(' ')}`);
    }
    for (const k of ['env', 'mounts', 'ports'] as const) {
      if (e[k].join(' ') !== r[k].join(' ')) {
        out.push(`${at}: ${k} [${r[k].join(' ')}], the release has [${e[k].join(' ')}]`);
      }
    }
    if (e.runtime !== undefined && e.runtime !== r.runtime) {
      out.push(`${at}: runtime ${r.runtime}, the release has ${e.runtime}`);
    }
  });
  return out;
}

/** The differences of one object's facts (rendered against expected, `cited` where expected is read). */
export function factDiffs(expected: ObjectFacts, rendered: ObjectFacts, cited: string): string[] {
  const where = `${expected.id} ${cited}`;
  const out = [
    ...containerDiffs(where, expected.containers, rendered.containers),
    ...containerDiffs(`${where} init`, expected.initContainers, rendered.initContainers),
  ];
  for (const k of ['volumes', 'servicePorts', 'rules'] as const) {
    const e = (expected[k] ?? []).join(' | ');
    const r = (rendered[k] ?? []).join(' | ');
    if (e !== r) {
      out.push(`${where}: ${k} [${r}], the release has [${e}]`);
    }
  }
  for (const [k, e] of Object.entries(expected.scheduling ?? {})) {
    const r = rendered.scheduling?.[k];
    if (e !== r) {
      out.push(`${where}: ${k} ${String(r)}, the release has ${e}`);
    }
  }
  for (const k of [
    'serviceAccount',
    'hostNetwork',
    'binding',
    'credentials',
    'networkPolicy',
    'admissionPolicy',
    'admissionBinding',
    'namespaceMeta',
  ] as const) {
    if (expected[k] !== undefined && expected[k] !== rendered[k]) {
      out.push(`${where}: ${k} ${String(rendered[k])}, the release has ${String(expected[k])}`);
    }
  }
  if (expected.disruptionBudget !== undefined && rendered.disruptionBudget !== undefined) {
    // The branch names the fields getPDB sets (MinAvailable, UnhealthyPodEvictionPolicy); the rendered spec's keys must be those.
    const keys = Object.keys(JSON.parse(rendered.disruptionBudget)).map((k) => k[0].toUpperCase() + k.slice(1));
    if (keys.sort().join(',') !== expected.disruptionBudget.split(',').sort().join(',')) {
      out.push(`${where}: spec fields ${keys.join(',')}, the release sets ${expected.disruptionBudget}`);
    }
  }
  return out;
}

/** Every difference between the objects rendered for a cluster of `platform` at `minor` in `mode` and its release branch. */
export function branchDiffs(
  minor: string,
  platform: string,
  mode: 'gitops' | 'operator',
  rendered: readonly Obj[],
  cluster: ClusterFacts = { cloudConfigNamed: true },
): string[] {
  const b = branch(minor);
  const payload = new Map(b.payload.filter((p) => p.annotations['release.openshift.io/delete'] !== 'true').map((p) => [p.id, p]));
  const operands = new Map((mode === 'gitops' ? expectedOperands(minor, platform, cluster) : []).map((o) => [o.id, o]));
  const out: string[] = [];
  const seen = new Set<string>();
  for (const o of rendered) {
    const facts = factsOf(o);
    seen.add(facts.id);
    const operand = operands.get(facts.id);
    const shipped = payload.get(facts.id);
    if (operand !== undefined) {
      out.push(...factDiffs(operand, facts, operand.cited));
    } else if (shipped !== undefined) {
      out.push(...factDiffs(shipped, facts, cite(b.source, `manifests/${shipped.file}`)));
    } else {
      out.push(`${facts.id}: rendered, but release-${minor} neither ships nor renders it on ${platform}`);
    }
  }
  for (const id of operands.keys()) {
    if (!seen.has(id)) {
      out.push(`${id}: the operator of release-${minor} renders it on ${platform}, ccm-gitops does not`);
    }
  }
  if (mode === 'operator') {
    const deployment = [...payload.values()].find((p) => p.id.startsWith('apps/Deployment '));
    if (deployment !== undefined && !seen.has(deployment.id)) {
      out.push(`${deployment.id}: operator mode does not render the operator Deployment (${deployment.file})`);
    }
  }
  return out;
}
