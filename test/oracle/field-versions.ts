/**
 * Field versions: for every field path of the built-in kinds a CCM renderer emits, the
 * Kubernetes minors whose API server accepts it, as enabled by default.
 *
 * Two sources, combined:
 * 1. field-versions.data.json (regenerate with field-versions.generate.js, see its header):
 *    the minors whose API *has* the field: the OpenAPI v2 schema of 1.28 and 1.30–1.33,
 *    and for the other minors (1.21–1.27, 1.29, 1.34–1.35) the kubernetes/api round-trip
 *    fixtures of that release (every field set), cross-checked against the schemas where
 *    both exist.
 * 2. {@link GATED_FIELDS}: the schema lists a field from the release that adds it as
 *    alpha, but the API server drops or rejects it until its feature gate is on by default.
 *    Every field whose OpenAPI description mentions alpha/beta/a feature gate (the data's
 *    `gateNoted`) must have an entry here, or {@link fieldProblems} reports it.
 *
 * Pure: no cdk8s import.
 */
import data from './field-versions.data.json';

/** `"apiVersion Kind"`, e.g. `"policy/v1 PodDisruptionBudget"`. */
export type KindKey = string;

interface KindTable {
  readonly served: string;
  readonly fields: Readonly<Record<string, string>>;
  readonly gateNoted: Readonly<Record<string, string>>;
}

const TABLE = (data as unknown as { kinds: Record<KindKey, KindTable> }).kinds;

/** The first and last minor the table covers. */
export const TABLE_MINORS: { readonly first: number; readonly last: number } = data.minors;

/** Where the table's facts come from (for messages and docs). */
export const TABLE_SOURCES = data.sources;

/** A feature gate that guards a field. */
export interface GatedField {
  /** The kinds whose paths the gate guards. */
  readonly kinds: readonly KindKey[];
  /** Paths (as in the table) the gate guards. */
  readonly paths: readonly string[];
  readonly gate: string;
  /** When the gate guards only some values of the field (the field itself is GA): those values. */
  readonly values?: readonly string[];
  /** The first minor in which the gate is on by default; undefined: off by default in every minor we have a fact for. */
  readonly defaultOnSince?: number;
  readonly source: string;
}

const VERSIONED = 'kubernetes/kubernetes@0021731de5897e81f1d576a134db15c7c301eeff pkg/features/versioned_kube_features.go (1.32 development)';
const POD = 'spec.template.spec.';
/** The pod-template kinds of the table. */
const POD_KINDS: readonly KindKey[] = ['apps/v1 Deployment', 'apps/v1 DaemonSet'];
const CONTAINERS = ['containers', 'initContainers', 'ephemeralContainers'];
const inContainers = (suffix: string): string[] => CONTAINERS.map((c) => `${POD}${c}[].${suffix}`);
const affinityTerms = (field: string): string[] =>
  ['podAffinity', 'podAntiAffinity'].flatMap((a) => [
    `${POD}affinity.${a}.preferredDuringSchedulingIgnoredDuringExecution[].podAffinityTerm.${field}`,
    `${POD}affinity.${a}.requiredDuringSchedulingIgnoredDuringExecution[].${field}`,
  ]);

/**
 * Feature gates of fields that appear in the schema before their gate is on by default.
 * `defaultOnSince` is the first minor of a `Default: true` entry of the gate's versioned spec.
 */
export const GATED_FIELDS: readonly GatedField[] = [
  {
    kinds: ['policy/v1 PodDisruptionBudget'],
    paths: ['spec.unhealthyPodEvictionPolicy'],
    gate: 'PDBUnhealthyPodEvictionPolicy',
    defaultOnSince: 27,
    source: `${VERSIONED} (1.26 alpha off, 1.27 beta on, 1.31 GA)`,
  },
  {
    kinds: ['v1 Service'],
    paths: ['spec.trafficDistribution'],
    gate: 'ServiceTrafficDistribution',
    defaultOnSince: 31,
    source: `${VERSIONED} (1.30 alpha off, 1.31 beta on)`,
  },
  {
    kinds: POD_KINDS,
    paths: [...affinityTerms('matchLabelKeys'), ...affinityTerms('mismatchLabelKeys')],
    gate: 'MatchLabelKeysInPodAffinity',
    defaultOnSince: 31,
    source: `${VERSIONED} (1.29 alpha off, 1.31 beta on)`,
  },
  {
    kinds: POD_KINDS,
    paths: [`${POD}topologySpreadConstraints[].matchLabelKeys`],
    gate: 'MatchLabelKeysInPodTopologySpread',
    defaultOnSince: 27,
    source: `${VERSIONED} (1.25 alpha off, 1.27 beta on)`,
  },
  {
    kinds: POD_KINDS,
    paths: [`${POD}topologySpreadConstraints[].nodeAffinityPolicy`, `${POD}topologySpreadConstraints[].nodeTaintsPolicy`],
    gate: 'NodeInclusionPolicyInPodTopologySpread',
    defaultOnSince: 26,
    source: `${VERSIONED} (1.25 alpha off, 1.26 beta on)`,
  },
  {
    // Graduated and removed from the gate list before 1.32; credited from the first API doc that says "enabled by default".
    kinds: POD_KINDS,
    paths: [`${POD}topologySpreadConstraints[].minDomains`],
    gate: 'MinDomainsInPodTopologySpread',
    defaultOnSince: 28,
    source:
      'OpenAPI v1.28.0 io.k8s.api.core.v1.TopologySpreadConstraint.minDomains ("beta field ... feature gate to be enabled (enabled by default)"); conservative: earlier default-on minors not credited',
  },
  {
    kinds: POD_KINDS,
    paths: [`${POD}schedulingGates`, `${POD}schedulingGates[].name`],
    gate: 'PodSchedulingReadiness',
    defaultOnSince: 27,
    source: `${VERSIONED} (1.26 alpha off, 1.27 beta on, 1.30 GA)`,
  },
  {
    kinds: POD_KINDS,
    paths: [`${POD}hostUsers`],
    gate: 'UserNamespacesSupport',
    source: `${VERSIONED} (1.25 alpha off, 1.30 beta off)`,
  },
  {
    kinds: POD_KINDS,
    paths: [`${POD}resourceClaims`, ...inContainers('resources.claims'), `${POD}resources.claims`],
    gate: 'DynamicResourceAllocation',
    source: `${VERSIONED} (1.26 alpha off)`,
  },
  {
    kinds: POD_KINDS,
    paths: [`${POD}resources`],
    gate: 'PodLevelResources',
    source:
      'OpenAPI v1.32/v1.33 PodSpec.resources description ("alpha ... requires the PodLevelResources feature gate"); not in the versioned gate list of the 1.32 snapshot',
  },
  {
    kinds: POD_KINDS,
    paths: [`${POD}securityContext.seLinuxChangePolicy`],
    gate: 'SELinuxChangePolicy',
    source: `${VERSIONED} (1.32 alpha off)`,
  },
  {
    kinds: POD_KINDS,
    paths: [`${POD}securityContext.supplementalGroupsPolicy`],
    gate: 'SupplementalGroupsPolicy',
    source: `${VERSIONED} (1.31 alpha off)`,
  },
  {
    kinds: POD_KINDS,
    paths: [`${POD}volumes[].projected.sources[].clusterTrustBundle`],
    gate: 'ClusterTrustBundleProjection',
    source: `${VERSIONED} (1.29 alpha off)`,
  },
  {
    kinds: POD_KINDS,
    paths: [`${POD}volumes[].ephemeral.volumeClaimTemplate.spec.volumeAttributesClassName`],
    gate: 'VolumeAttributesClass',
    source: `${VERSIONED} (1.29 alpha off, 1.31 beta off)`,
  },
  {
    kinds: POD_KINDS,
    paths: [`${POD}volumes[].ephemeral.volumeClaimTemplate.spec.dataSourceRef.namespace`],
    gate: 'CrossNamespaceVolumeDataSource',
    source: `${VERSIONED} (1.26 alpha off)`,
  },
  {
    kinds: POD_KINDS,
    paths: [`${POD}volumes[].ephemeral.volumeClaimTemplate.spec.dataSourceRef`],
    gate: 'AnyVolumeDataSource',
    defaultOnSince: 24,
    source: `${VERSIONED} (1.18 alpha off, 1.24 beta on)`,
  },
  // Gates that graduated and left the versioned list before the 1.32 snapshot: no default-on minor is
  // cited here yet, so the fields are not credited in any minor (add the fact before rendering them).
  {
    kinds: POD_KINDS,
    paths: [`${POD}volumes[].ephemeral.volumeClaimTemplate.spec.dataSource`],
    gate: 'AnyVolumeDataSource (non-PVC/VolumeSnapshot sources)',
    source:
      'OpenAPI v1.28.0 PersistentVolumeClaimSpec.dataSource description names the AnyVolumeDataSource gate; default-on minor of the plain field not cited',
  },
  {
    kinds: POD_KINDS,
    paths: inContainers('livenessProbe.terminationGracePeriodSeconds').concat(
      inContainers('readinessProbe.terminationGracePeriodSeconds'),
      inContainers('startupProbe.terminationGracePeriodSeconds'),
    ),
    gate: 'ProbeTerminationGracePeriod',
    source:
      'OpenAPI v1.28.0 io.k8s.api.core.v1.Probe.terminationGracePeriodSeconds ("beta field and requires enabling ProbeTerminationGracePeriod feature gate"); default-on minor not cited',
  },
  {
    kinds: POD_KINDS,
    paths: inContainers('volumeMounts[].mountPropagation'),
    gate: 'MountPropagation',
    source:
      'OpenAPI v1.28.0 io.k8s.api.core.v1.VolumeMount.mountPropagation ("This field is beta in 1.10"); the gate is absent from the 1.32 versioned list (graduated); default-on minor not cited',
  },
  {
    kinds: POD_KINDS,
    paths: [`${POD}volumes[].csi`],
    gate: 'CSIInlineVolume',
    source:
      'OpenAPI v1.28.0 io.k8s.api.core.v1.Volume.csi ("Beta feature"); the gate is absent from the 1.32 versioned list (graduated); default-on minor not cited',
  },
  {
    // The 1.32/1.33 description notes the CSI migration of the in-tree plugin (a backend change), not a gate on the field.
    kinds: POD_KINDS,
    paths: [`${POD}volumes[].portworxVolume`],
    gate: 'CSIMigrationPortworx (migration only; the field is accepted)',
    defaultOnSince: 21,
    source: `${VERSIONED} (CSIMigrationPortworx switches the backend to the CSI driver; the field is in every minor of the table)`,
  },
  {
    // The field is GA; only the numeric operators Lt/Gt are gated (1.35 API doc: "Lt and Gt perform numeric comparisons (requires feature gate TaintTolerationComparisonOperators)").
    kinds: POD_KINDS,
    paths: [`${POD}tolerations[].operator`],
    values: ['Lt', 'Gt'],
    gate: 'TaintTolerationComparisonOperators',
    source: 'kubernetes/api@v0.35.0 core/v1/types.go Toleration.Operator doc comment; default-on minor not cited',
  },
  {
    kinds: ['apps/v1 Deployment'],
    paths: ['status.terminatingReplicas'],
    gate: 'DeploymentReplicaSetTerminatingReplicas',
    source: 'OpenAPI v1.33 DeploymentStatus.terminatingReplicas description (alpha); status is never rendered',
  },
  {
    kinds: ['coordination.k8s.io/v1 Lease'],
    paths: ['spec.strategy', 'spec.preferredHolder'],
    gate: 'CoordinatedLeaderElection',
    source: `${VERSIONED} (genericfeatures.CoordinatedLeaderElection 1.31 alpha off)`,
  },
];

/** The API groups of custom resources the renderer emits; their versions are not tied to the Kubernetes minor. */
export const CUSTOM_RESOURCE_GROUPS: readonly string[] = [
  'argoproj.io',
  'monitoring.coreos.com',
  'kustomize.config.k8s.io',
  'addons.cluster.x-k8s.io',
  'cluster.x-k8s.io',
  'controlplane.cluster.x-k8s.io',
  'bootstrap.cluster.x-k8s.io',
  'infrastructure.cluster.x-k8s.io',
  'kustomize.toolkit.fluxcd.io',
  'source.toolkit.fluxcd.io',
  'config.openshift.io',
  'operator.openshift.io',
  'cloudcredential.openshift.io',
];

/** "21-23,25" -> [21,22,23,25] */
function parseRanges(s: string): number[] {
  const out: number[] = [];
  for (const part of s.split(',').filter(Boolean)) {
    const [a, b] = part.split('-').map(Number);
    for (let m = a; m <= (b ?? a); m++) {
      out.push(m);
    }
  }
  return out;
}

/** The table key of an object. */
export function kindKey(obj: { apiVersion?: string; kind?: string }): KindKey {
  return `${obj.apiVersion} ${obj.kind}`;
}

/** Whether the table covers the object's kind. */
export function isTabled(key: KindKey): boolean {
  return key in TABLE;
}

/** Whether the table lists the path for the kind (in any minor). */
export function knownPath(key: KindKey, path: string): boolean {
  return TABLE[key] !== undefined && path in TABLE[key].fields;
}

/** The kinds the table covers. */
export function tabledKinds(): KindKey[] {
  return Object.keys(TABLE);
}

/** The gate entry of a path of a kind, if any. */
export function gateOf(key: KindKey, path: string): GatedField | undefined {
  return GATED_FIELDS.find((g) => g.kinds.includes(key) && g.paths.includes(path));
}

/** The minors in which the field is accepted with default feature gates (within the table's range; gates on some values only are ignored). */
export function acceptingMinors(key: KindKey, path: string): number[] {
  const t = TABLE[key];
  const present = t?.fields[path];
  if (!present) {
    return [];
  }
  const gate = gateOf(key, path);
  const minors = parseRanges(present);
  if (!gate || gate.values) {
    return minors;
  }
  return gate.defaultOnSince === undefined ? [] : minors.filter((m) => m >= gate.defaultOnSince!);
}

/** Every field path of an object: arrays as `[]`, maps (per the table) as `*`. */
export function fieldPaths(key: KindKey, obj: unknown): string[] {
  return [...fieldValues(key, obj).keys()].sort();
}

/** Every field path of an object with the scalar values found at it. */
export function fieldValues(key: KindKey, obj: unknown): Map<string, Set<string>> {
  const fields = TABLE[key]?.fields ?? {};
  const out = new Map<string, Set<string>>();
  const walk = (value: unknown, prefix: string): void => {
    if (prefix) {
      if (!out.has(prefix)) {
        out.set(prefix, new Set());
      }
      if (value === null || typeof value !== 'object') {
        out.get(prefix)!.add(String(value));
      }
    }
    if (Array.isArray(value)) {
      value.forEach((v) => walk(v, `${prefix}[]`));
      return;
    }
    if (value === null || typeof value !== 'object') {
      return;
    }
    const isMap = prefix !== '' && `${prefix}.*` in fields;
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      walk(v, isMap ? `${prefix}.*` : prefix ? `${prefix}.${k}` : k);
    }
  };
  walk(obj, '');
  return out;
}

/** One field a minor does not accept. */
export interface FieldProblem {
  readonly kind: KindKey;
  readonly name: string;
  readonly path: string;
  readonly reason: string;
}

/**
 * The fields of one rendered built-in object that Kubernetes 1.`minor` does not accept with
 * default feature gates, and fields whose API docs name a gate that {@link GATED_FIELDS} lacks.
 */
export function fieldProblems(
  obj: { apiVersion?: string; kind?: string; metadata?: { name?: string; namespace?: string } },
  minor: number,
): FieldProblem[] {
  const key = kindKey(obj);
  const name = `${obj.metadata?.namespace ? obj.metadata.namespace + '/' : ''}${obj.metadata?.name ?? '?'}`;
  const t = TABLE[key];
  if (!t) {
    return [
      {
        kind: key,
        name,
        path: '',
        reason: 'kind not in test/oracle/field-versions.data.json: add it to KINDS of field-versions.generate.js and regenerate',
      },
    ];
  }
  if (!parseRanges(t.served).includes(minor)) {
    return [{ kind: key, name, path: '', reason: `${key} is not served by Kubernetes 1.${minor} (served: ${t.served})` }];
  }
  const problems: FieldProblem[] = [];
  const values = fieldValues(key, obj);
  for (const path of [...values.keys()].sort()) {
    const present = t.fields[path];
    if (!present) {
      problems.push({ kind: key, name, path, reason: 'no Kubernetes minor has this field' });
      continue;
    }
    const entry = gateOf(key, path);
    // a value-restricted gate applies only when one of its values is rendered
    const gate = entry?.values && ![...values.get(path)!].some((v) => entry.values!.includes(v)) ? undefined : entry;
    if (!entry && t.gateNoted[path]) {
      problems.push({
        kind: key,
        name,
        path,
        reason: `its API description names a feature gate (OpenAPI 1.${t.gateNoted[path]}): add it to GATED_FIELDS with the gate's default-on minor`,
      });
      continue;
    }
    if (!parseRanges(present).includes(minor)) {
      problems.push({ kind: key, name, path, reason: `not in the API of Kubernetes 1.${minor} (present in 1.${present})` });
      continue;
    }
    if (gate && (gate.defaultOnSince === undefined || minor < gate.defaultOnSince)) {
      problems.push({
        kind: key,
        name,
        path,
        reason: `feature gate ${gate.gate} is off by default in Kubernetes 1.${minor} (${gate.defaultOnSince === undefined ? 'not on by default in any known minor' : `on by default since 1.${gate.defaultOnSince}`}; ${gate.source})`,
      });
    }
  }
  return problems;
}
