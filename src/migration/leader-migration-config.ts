/**
 * The LeaderMigrationConfiguration file both controller managers read
 * (`controllermanager.config.k8s.io`, kubernetes/enhancements@64765b4b0238 keps/sig-cloud-provider/2436-controller-manager-leader-migration/README.md): building it for a
 * phase, writing it, and reading it back with the upstream rules.
 * Pure: no cdk8s import.
 */
import { parseDocument } from 'yaml';

export const LEADER_MIGRATION_GROUP = 'controllermanager.config.k8s.io';
export const LEADER_MIGRATION_KIND = 'LeaderMigrationConfiguration';
/** The controller-manager identities the migration filter compares `component` with. */
export const KUBE_CONTROLLER_MANAGER = 'kube-controller-manager';
export const CLOUD_CONTROLLER_MANAGER = 'cloud-controller-manager';
export const ANY_COMPONENT = '*';

/**
 * The cloud controllers that move, in both name generations: the ≤1.27
 * canonical names and the ≥1.28 ones. The migration filter matches canonical
 * names only (aliases are not resolved), and unknown names are ignored, so
 * listing both is safe for mixed N/N+1 control planes.
 */
export const MIGRATED_CONTROLLERS: readonly string[] = [
  'route',
  'service',
  'cloud-node-lifecycle',
  'node-route-controller',
  'service-lb-controller',
  'cloud-node-lifecycle-controller',
];
/** Node IPAM in both name generations, listed when IPAM moves to the CCM. */
export const NODE_IPAM_CONTROLLERS: readonly string[] = ['nodeipam', 'node-ipam-controller'];
/** Every canonical cloud controller name of either generation (KCM and CCM side). */
export const KNOWN_CONTROLLER_NAMES: readonly string[] = [...MIGRATED_CONTROLLERS, ...NODE_IPAM_CONTROLLERS, 'cloud-node', 'cloud-node-controller'];

/** One controller and the controller manager that runs it. */
export interface ControllerLeader {
  readonly name: string;
  readonly component: string;
}

/** The file's content. */
export interface LeaderMigrationConfiguration {
  readonly apiVersion: string;
  readonly kind: typeof LEADER_MIGRATION_KIND;
  /** The migration Lease name. */
  readonly leaderName: string;
  /** `leases`; only in v1alpha1 / v1beta1 (v1 has no such field and hard-codes leases). */
  readonly resourceLock?: string;
  readonly controllerLeaders: readonly ControllerLeader[];
}

/**
 * The API version a controller manager of this minor accepts (for a CCM, the
 * minor of its k8s.io/controller-manager): v1alpha1 on 1.21, v1beta1 on
 * 1.22–1.23, v1 from 1.24 (kubernetes/controller-manager@v0.21.0 config/ has
 * v1alpha1 only, @v0.22.0 adds v1beta1, @v0.24.0 adds v1).
 */
export function leaderMigrationApiVersion(kubernetesMinor: number): string {
  if (kubernetesMinor < LEADER_MIGRATION_API_SINCE.v1alpha1) {
    throw new Error(`leader migration needs kube-controller-manager 1.21 or newer, got 1.${kubernetesMinor}`);
  }
  const version = Object.entries(LEADER_MIGRATION_API_SINCE)
    .filter(([, since]) => since <= kubernetesMinor)
    .pop()![0];
  return `${LEADER_MIGRATION_GROUP}/${version}`;
}

/**
 * The first Kubernetes minor whose k8s.io/controller-manager decodes each apiVersion of the file, oldest first
 * (kubernetes/controller-manager@v0.21.0, @v0.22.0, @v0.24.0 pkg/leadermigration/config/config.go).
 */
export const LEADER_MIGRATION_API_SINCE: Readonly<Record<string, number>> = { v1alpha1: 21, v1beta1: 22, v1: 24 };

/** What to build a configuration from. */
export interface LeaderMigrationConfigInput {
  /** The kube-controller-manager minor (N). */
  readonly kubernetesMinor: number;
  /** The migration Lease name. */
  readonly leaderName: string;
  /** Who runs the migrated controllers: a controller manager, or `*` for whoever holds the lease. */
  readonly component: string;
  /** Whether node IPAM moves too. */
  readonly nodeIpam: boolean;
}

/** The configuration for one phase: explicit controller list, both name generations. */
export function buildLeaderMigrationConfig(input: LeaderMigrationConfigInput): LeaderMigrationConfiguration {
  const apiVersion = leaderMigrationApiVersion(input.kubernetesMinor);
  const names = [...MIGRATED_CONTROLLERS, ...(input.nodeIpam ? NODE_IPAM_CONTROLLERS : [])];
  return {
    apiVersion,
    kind: LEADER_MIGRATION_KIND,
    leaderName: input.leaderName,
    ...(apiVersion.endsWith('/v1') ? {} : { resourceLock: 'leases' }),
    controllerLeaders: names.map((name) => ({ name, component: input.component })),
  };
}

/** A YAML scalar: plain when it cannot be misread, double-quoted otherwise (so `*` is never an alias). */
function scalar(value: string): string {
  return /^[a-z][-a-z0-9.]*$/.test(value) ? value : JSON.stringify(value);
}

/** The file text. `"*"` is always quoted: unquoted it is a YAML alias. */
export function leaderMigrationConfigYaml(config: LeaderMigrationConfiguration): string {
  const lines = [
    `apiVersion: ${config.apiVersion}`,
    `kind: ${config.kind}`,
    `leaderName: ${scalar(config.leaderName)}`,
    ...(config.resourceLock !== undefined ? [`resourceLock: ${scalar(config.resourceLock)}`] : []),
    ...(config.controllerLeaders.length === 0 ? ['controllerLeaders: []'] : ['controllerLeaders:']),
    ...config.controllerLeaders.flatMap((l) => [`  - name: ${scalar(l.name)}`, `    component: ${scalar(l.component)}`]),
  ];
  return `${lines.join('\n')}\n`;
}

const DNS_SUBDOMAIN = /^(?=.{1,253}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const VERSIONS = ['v1alpha1', 'v1beta1', 'v1'];

/** The result of reading a configuration file back. */
export interface ParsedLeaderMigrationConfig {
  /** The configuration, when it decoded. */
  readonly config?: LeaderMigrationConfiguration;
  /**
   * Every problem, each in the controller manager's words where it has them:
   * decoding and validation errors stop the binary at start-up; the others
   * (removed lock type, unknown names or components, duplicates, an invalid
   * Lease name) start but do not migrate as intended.
   */
  readonly problems: readonly string[];
}

/**
 * Decodes a configuration strictly (unknown fields, wrong kind or version and
 * YAML errors are errors), as the controller managers do from
 * kubernetes/controller-manager v0.32 (pkg/leadermigration/config/config.go
 * EnableStrict); v0.21-v0.31 silently drop unknown fields, so strict is the
 * safe reading for every version. Then applies
 * `ValidateLeaderMigrationConfiguration` and the runtime rules.
 */
export function parseLeaderMigrationConfig(text: string): ParsedLeaderMigrationConfig {
  if (text.trim() === '') {
    return { problems: ['decode: the file is empty'] };
  }
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) {
    return { problems: doc.errors.map((e) => `yaml: ${e.message.split('\n')[0]}`) };
  }
  const raw: unknown = doc.toJS();
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { problems: ['decode: the document is not a mapping'] };
  }
  const obj = raw as Record<string, unknown>;
  const [group, version] = typeof obj.apiVersion === 'string' ? obj.apiVersion.split('/') : [];
  if (obj.kind !== LEADER_MIGRATION_KIND || group !== LEADER_MIGRATION_GROUP || !VERSIONS.includes(version ?? '')) {
    return {
      problems: [
        `decode: unexpected config type ${JSON.stringify(obj.apiVersion)}, kind ${JSON.stringify(obj.kind)}; want ${LEADER_MIGRATION_GROUP}/{${VERSIONS.join(',')}} ${LEADER_MIGRATION_KIND}`,
      ],
    };
  }
  const problems: string[] = [];
  const allowed = ['apiVersion', 'kind', 'leaderName', 'controllerLeaders', ...(version === 'v1' ? [] : ['resourceLock'])];
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) {
      problems.push(
        `decode: strict decoding error: unknown field "${key}"${key === 'resourceLock' ? ' (v1 has no resourceLock; it always uses leases)' : ''}`,
      );
    }
  }
  const leaders = obj.controllerLeaders;
  if (leaders !== undefined && leaders !== null && !Array.isArray(leaders)) {
    problems.push('decode: controllerLeaders must be a list');
  }
  const list = (Array.isArray(leaders) ? leaders : []) as unknown[];
  list.forEach((entry, i) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      problems.push(`decode: controllerLeaders[${i}] must be a mapping`);
      return;
    }
    for (const key of Object.keys(entry)) {
      if (key !== 'name' && key !== 'component') {
        problems.push(`decode: strict decoding error: unknown field "controllerLeaders[${i}].${key}"`);
      }
    }
  });
  if (problems.length > 0) {
    return { problems };
  }
  const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v));
  const config: LeaderMigrationConfiguration = {
    apiVersion: obj.apiVersion as string,
    kind: LEADER_MIGRATION_KIND,
    leaderName: str(obj.leaderName),
    ...(version === 'v1' ? {} : { resourceLock: str(obj.resourceLock) }),
    controllerLeaders: list.map((e) => ({
      name: str((e as Record<string, unknown>).name),
      component: str((e as Record<string, unknown>).component),
    })),
  };
  return { config, problems: leaderMigrationConfigProblems(config) };
}

/** `ValidateLeaderMigrationConfiguration` (V1–V4) plus the runtime rules R1, R4–R7. */
export function leaderMigrationConfigProblems(config: LeaderMigrationConfiguration): string[] {
  const problems: string[] = [];
  if (config.leaderName === '') {
    problems.push('leaderName: Required value: leaderName must be set for LeaderMigrationConfiguration');
  } else if (!DNS_SUBDOMAIN.test(config.leaderName)) {
    problems.push(`leaderName: ${JSON.stringify(config.leaderName)} is not a DNS-1123 subdomain; the API server rejects the Lease`);
  }
  const lock = config.resourceLock;
  if (!config.apiVersion.endsWith('/v1')) {
    if (lock !== 'leases' && lock !== 'endpoints') {
      problems.push(`resourceLock: Invalid value: ${JSON.stringify(lock ?? '')}: resource Lock must be one of 'leases' or 'endpoints'`);
    } else if (lock === 'endpoints') {
      problems.push('resourceLock: "endpoints" passes validation but client-go 0.25 and newer removed the endpoints lock; use "leases"');
    }
  }
  const seen = new Set<string>();
  config.controllerLeaders.forEach((l, i) => {
    if (l.component === '') {
      problems.push(`controllerLeaders[${i}].component: Required value`);
    } else if (![KUBE_CONTROLLER_MANAGER, CLOUD_CONTROLLER_MANAGER, ANY_COMPONENT].includes(l.component)) {
      problems.push(
        `controllerLeaders[${i}].component: ${JSON.stringify(l.component)} is neither ${KUBE_CONTROLLER_MANAGER}, ${CLOUD_CONTROLLER_MANAGER} nor "*"; the controller would run nowhere`,
      );
    }
    if (l.name === '') {
      problems.push(`controllerLeaders[${i}].name: Required value`);
    } else if (!KNOWN_CONTROLLER_NAMES.includes(l.name)) {
      problems.push(
        `controllerLeaders[${i}].name: ${JSON.stringify(l.name)} is no canonical cloud controller name; it would run under the main lock on both sides`,
      );
    } else if (seen.has(l.name)) {
      problems.push(`controllerLeaders[${i}].name: ${JSON.stringify(l.name)} is listed twice; the last entry wins`);
    }
    seen.add(l.name);
  });
  return problems;
}
