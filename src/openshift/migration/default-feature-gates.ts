/**
 * The Default feature set of each OpenShift release the FeatureGate may be
 * rendered for, and the CustomNoUpgrade selection that keeps it while adding
 * the external-cloud-provider gates. Pure: no cdk8s import.
 *
 * Why the whole Default set: a CustomNoUpgrade selection is not applied on
 * top of Default. From 4.14 the cluster-config-operator marks every known
 * gate that `enabled` does not list as disabled
 * (openshift/cluster-config-operator@release-4.14
 * pkg/operator/featuregates/featuregate_controller.go `completeFeatureGates`);
 * before, the operators pass only the two custom lists to the components, so
 * a gate Default sets explicitly falls back to its upstream Kubernetes default.
 */
import { compareMinor } from '../release';

/** One release's Default feature set, as openshift/api lists it. */
export interface DefaultFeatureSet {
  /** Where it was read: `openshift/api@<commit of release-X.Y> <path>`. */
  readonly source: string;
  /** Gates Default turns on explicitly. */
  readonly enabled: readonly string[];
  /** Gates Default turns off explicitly. */
  readonly disabled: readonly string[];
}

/**
 * `defaultFeatures` of each release branch of openshift/api (4.14: the
 * `FeatureGateDescription` names in `config/v1/feature_gates.go`). Releases
 * 4.9–4.14 are those on which some platform is not external by default, so
 * the migration renders the FeatureGate; from 4.15 every migrating platform
 * is external by default and none is rendered.
 */
export const DEFAULT_FEATURE_SETS: Readonly<Record<string, DefaultFeatureSet>> = {
  '4.9': {
    source: 'openshift/api@e8b83ffadbab29da973d804144219ffa17cb7843 config/v1/types_feature.go',
    enabled: [
      'APIPriorityAndFairness',
      'RotateKubeletServerCertificate',
      'SupportPodPidsLimit',
      'NodeDisruptionExclusion',
      'ServiceNodeExclusion',
      'DownwardAPIHugePages',
    ],
    disabled: ['LegacyNodeRoleBehavior'],
  },
  '4.10': {
    source: 'openshift/api@341d389bd4a74dd11e76e6c8cb7a930070d4264b config/v1/types_feature.go',
    enabled: ['APIPriorityAndFairness', 'RotateKubeletServerCertificate', 'DownwardAPIHugePages', 'PodSecurity'],
    disabled: [
      'CSIMigrationAWS',
      'CSIMigrationOpenStack',
      'CSIMigrationGCE',
      'CSIMigrationAzureDisk',
      'CSIMigrationAzureFile',
      'CSIMigrationvSphere',
    ],
  },
  '4.11': {
    source: 'openshift/api@92fe66c75e8fbd76d5f385443c2293d4d02f08cc config/v1/types_feature.go',
    enabled: ['APIPriorityAndFairness', 'RotateKubeletServerCertificate', 'DownwardAPIHugePages', 'PodSecurity'],
    disabled: ['CSIMigrationAWS', 'CSIMigrationGCE', 'CSIMigrationAzureFile', 'CSIMigrationvSphere'],
  },
  '4.12': {
    source: 'openshift/api@7ca3a4634e46f96ead414a5fc1d5221775e64c7f config/v1/types_feature.go',
    enabled: ['APIPriorityAndFairness', 'RotateKubeletServerCertificate', 'DownwardAPIHugePages'],
    disabled: ['CSIMigrationAzureFile', 'CSIMigrationvSphere'],
  },
  '4.13': {
    source: 'openshift/api@0f638a8a4705427e0233f5b48e2289c5bdf8b891 config/v1/types_feature.go',
    enabled: ['APIPriorityAndFairness', 'RotateKubeletServerCertificate', 'DownwardAPIHugePages'],
    disabled: ['RetroactiveDefaultStorageClass'],
  },
  '4.14': {
    source: 'openshift/api@b1c90a6cf9a3fd207d44f3dbc885a782a08de6f3 config/v1/types_feature.go, config/v1/feature_gates.go',
    enabled: [
      'AlibabaPlatform',
      'AzureWorkloadIdentity',
      'CloudDualStackNodeIPs',
      'ExternalCloudProviderAzure',
      'ExternalCloudProviderExternal',
      'PrivateHostedZoneAWS',
      'BuildCSIVolumes',
    ],
    disabled: ['RetroactiveDefaultStorageClass'],
  },
};

/** The release minors with a Default feature set in the table, oldest first. */
export function defaultFeatureSetMinors(): string[] {
  return Object.keys(DEFAULT_FEATURE_SETS).sort(compareMinor);
}

/** The `spec.customNoUpgrade` of the FeatureGate: both lists, sorted. */
export interface CustomNoUpgradeSelection {
  readonly enabled: readonly string[];
  readonly disabled: readonly string[];
}

/**
 * Release `minor`'s Default set plus `gates` on (taken off the disabled list);
 * undefined when the table does not know the release.
 */
export function customNoUpgradeSelection(minor: string, gates: readonly string[]): CustomNoUpgradeSelection | undefined {
  const row = DEFAULT_FEATURE_SETS[minor];
  if (!row) {
    return undefined;
  }
  const on = new Set(gates);
  return {
    enabled: [...new Set([...row.enabled, ...gates])].sort(),
    disabled: row.disabled.filter((g) => !on.has(g)).sort(),
  };
}

/**
 * What the custom set changes against the release's Default set, for
 * MIGRATION.md: the gates it turns on, the Default lists it keeps, and that
 * it blocks minor updates and cannot be turned off.
 */
export function customNoUpgradeNote(minor: string, gates: readonly string[]): string {
  const row = DEFAULT_FEATURE_SETS[minor];
  const sel = customNoUpgradeSelection(minor, gates)!;
  const added = gates.filter((g) => !row.enabled.includes(g));
  const code = (xs: readonly string[]) => (xs.length === 0 ? 'none' : xs.map((x) => `\`${x}\``).join(', '));
  return [
    `The FeatureGate sets \`CustomNoUpgrade\` with OpenShift ${minor}'s Default gates (read from ${row.source}) plus the external-cloud-provider gates:`,
    '',
    `- enabled: ${code(sel.enabled)}`,
    `- disabled: ${code(sel.disabled)}`,
    '',
    `Against Default it changes only ${code(added)} (turned on)${row.disabled.some((g) => gates.includes(g)) ? `, taken off Default's disabled list` : ''}; every other gate keeps its Default value. ` +
      'Both lists are needed: a custom set is not applied on top of Default (from 4.14 every known gate the enabled list leaves out is turned off; ' +
      'before, a gate Default sets and the custom lists leave out falls back to its upstream Kubernetes default). ' +
      '`CustomNoUpgrade` cannot be turned off and blocks minor updates of the cluster.',
  ].join('\n');
}
