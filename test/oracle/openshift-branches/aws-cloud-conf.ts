/**
 * What the operator of each release writes to `cloud-conf` on AWS, written from the branches read
 * (never imports from `src/`):
 *
 * - release-4.16 to release-4.18 (openshift/cluster-cloud-controller-manager-operator@d721cd62b5ed,
 *   @6d4c0096477d, @8abb067318de pkg/cloud/cloud.go GetCloudConfigTransformer): no transformer. The sync
 *   controller copies openshift-config-managed/kube-cloud-config as it is, and syncs at all only when the
 *   Infrastructure names a cloud config (pkg/controllers/cloud_config_sync_controller.go
 *   isCloudConfigSyncNeeded); the CCM of those releases is started without `--cloud-config`
 *   (pkg/cloud/aws/assets/deployment.yaml). kube-cloud-config is the cluster-config-operator's: the
 *   source as it is, with one `[ServiceOverride "<i>"]` section per Infrastructure service endpoint appended
 *   (openshift/cluster-config-operator@441d29c92b17 (release-4.16), @fe5e92862820 (release-4.18)
 *   pkg/operator/kube_cloud_config/aws.go awsTransformer, serviceOverrideTmpl; the same step on
 *   @96607b590ba3 (release-4.19), @1eb450a3a245 (release-4.21), @a02c879931c6 (release-4.23), feeding the transformer below);
 * - release-4.19 on (@5b39a4dfc245 … @bc52198c1c3c pkg/cloud/aws/aws_config_transformer.go): the source
 *   read into the vendored k8s.io/cloud-provider-aws CloudConfig with gcfg (unknown keys dropped), the
 *   health probe mode defaulted to Shared, then written back with go-ini's Section.ReflectFrom (every
 *   field in struct order: a bool as true/false, an int as a number, a list joined with ","), keys whose
 *   value is "" deleted.
 */
import { headerOf, IniSection, OutsideModel, readIni, writeGoIni } from './ini-text';

const minorOf = (minor: string): number => Number(minor.split('.')[1]);

type Kind = 'string' | 'bool' | 'int' | 'list';

/**
 * `CloudConfig.Global` of the vendored k8s.io/cloud-provider-aws (vendor/k8s.io/cloud-provider-aws/pkg/providers/v1/config/config.go),
 * in struct order, with the first release whose vendored copy has the field: release-4.19 (v1.32.0-rc.3) has
 * neither of the last two, release-4.20 (v1.33.1) adds SupportedTopologyInstanceTypePattern, release-4.21
 * (v1.34.1-…8a0025b4efb1) adds NLBSecurityGroupMode; release-4.22 (v1.35.1) and 4.23 (v1.36.1) are as 4.21.
 */
const GLOBAL_FIELDS: readonly (readonly [string, Kind, number])[] = [
  ['Zone', 'string', 19],
  ['Region', 'string', 19],
  ['VPC', 'string', 19],
  ['SubnetID', 'string', 19],
  ['RouteTableID', 'string', 19],
  ['RoleARN', 'string', 19],
  ['SourceARN', 'string', 19],
  ['KubernetesClusterTag', 'string', 19],
  ['KubernetesClusterID', 'string', 19],
  ['DisableSecurityGroupIngress', 'bool', 19],
  ['ElbSecurityGroup', 'string', 19],
  ['NodeIPFamilies', 'list', 19],
  ['ClusterServiceLoadBalancerHealthProbeMode', 'string', 19],
  ['ClusterServiceSharedLoadBalancerHealthProbePort', 'int', 19],
  ['ClusterServiceSharedLoadBalancerHealthProbePath', 'string', 19],
  ['SupportedTopologyInstanceTypePattern', 'string', 20],
  ['NLBSecurityGroupMode', 'string', 21],
];

/** `CloudConfig.ServiceOverride`'s struct, the same on every branch. */
const OVERRIDE_FIELDS: readonly string[] = ['Service', 'Region', 'URL', 'SigningRegion', 'SigningMethod', 'SigningName'];

/** What the cluster adds to the source: Infrastructure status.platformStatus.aws, the enabled feature gates. */
export interface AwsInputs {
  readonly region?: string;
  readonly serviceEndpoints?: readonly { readonly name: string; readonly url: string }[];
  readonly enabledGates?: readonly string[];
}

/** kube-cloud-config as the cluster-config-operator writes it: the source, then one section per endpoint. */
function managedConfig(source: string, inputs: AwsInputs): string {
  const endpoints = inputs.serviceEndpoints ?? [];
  if (endpoints.length === 0) {
    return source;
  }
  if (readIni(source).some((s) => s.name.toLowerCase() === 'serviceoverride')) {
    throw new OutsideModel('a source with its own [ServiceOverride] next to Infrastructure endpoints is refused by the cluster-config-operator');
  }
  const r = inputs.region ?? '';
  return (
    source +
    endpoints.map((e, i) => `\n[ServiceOverride "${i}"]\n\tService = ${e.name}\n\tRegion = ${r}\n\tURL = ${e.url}\n\tSigningRegion = ${r}\n`).join('')
  );
}

type Values = Map<string, string | boolean | number | string[]>;

/** gcfg's decoding of one section into a struct of `fields`: unknown keys dropped, the last value wins, a list appends. */
function decode(section: IniSection, fields: readonly (readonly [string, Kind])[], into: Values): void {
  for (const k of section.keys) {
    const field = fields.find(([f]) => f.toLowerCase() === k.name.toLowerCase());
    if (field === undefined) {
      continue;
    }
    const [name, kind] = field;
    if (kind === 'list') {
      into.set(name, k.value === null ? [] : [...((into.get(name) as string[] | undefined) ?? []), k.value]);
    } else if (kind === 'bool') {
      const v = (k.value ?? 'true').toLowerCase();
      if (!['true', 'false', 'yes', 'no', 'on', 'off', '1', '0'].includes(v)) {
        throw new OutsideModel(`${k.name} = ${k.value}: not a gcfg bool`);
      }
      into.set(name, ['true', 'yes', 'on', '1'].includes(v));
    } else if (kind === 'int') {
      if (k.value === null || !/^\d+$/.test(k.value)) {
        throw new OutsideModel(`${k.name} = ${String(k.value)}: only plain decimal ints are modelled`);
      }
      into.set(name, Number(k.value));
    } else {
      if (k.value === null) {
        throw new OutsideModel(`${k.name} without a value: gcfg refuses a blank string`);
      }
      into.set(name, k.value);
    }
  }
}

/** ReflectFrom's keys for one struct, in field order, then the keys whose value is "" deleted. */
function reflected(fields: readonly (readonly [string, Kind])[], values: Values, shadows: boolean): [string, string][] {
  return fields.flatMap(([name, kind]): [string, string][] => {
    const v = values.get(name);
    if (kind === 'list') {
      const items = (v as string[] | undefined) ?? [];
      // release-4.22 on: one line per item (the first value, then shadows); before: joined with ",".
      return (shadows ? items : [items.join(',')]).filter((i) => i !== '').map((i) => [name, i]);
    }
    const text = kind === 'bool' ? String(v ?? false) : kind === 'int' ? String(v ?? 0) : String(v ?? '');
    return text === '' ? [] : [[name, text]];
  });
}

/**
 * `cloud.conf` as the operator of `minor` writes it on AWS for `source` (openshift-config/cloud-provider-config),
 * or undefined when that release does not sync one (before 4.19 without a named cloud config: `namesCloudConfig`).
 * Throws {@link OutsideModel} where the release's output is not determined by the inputs (Go map order).
 */
export function awsCloudConf(minor: string, source: string, inputs: AwsInputs, namesCloudConfig = true): string | undefined {
  const m = minorOf(minor);
  const managed = managedConfig(source, inputs);
  if (m < 19) {
    return namesCloudConfig ? managed : undefined;
  }
  const fields = GLOBAL_FIELDS.filter(([, , since]) => m >= since).map(([n, k]) => [n, k] as const);
  const global: Values = new Map();
  const overrides = new Map<string, Values>();
  for (const section of readIni(managed === '' ? '[Global]\n' : managed)) {
    const name = section.name.toLowerCase();
    if (name === 'global' && section.sub === undefined) {
      decode(section, fields, global);
    } else if (name === 'serviceoverride' && section.sub !== undefined) {
      const values = overrides.get(section.sub) ?? new Map();
      overrides.set(section.sub, values);
      decode(
        section,
        OVERRIDE_FIELDS.map((f) => [f, 'string'] as const),
        values,
      );
    }
  }
  if (!global.get('ClusterServiceLoadBalancerHealthProbeMode')) {
    global.set('ClusterServiceLoadBalancerHealthProbeMode', 'Shared');
  }
  // release-4.21 on (setOpenShiftDefaults, isFeatureGateEnabled): Managed whatever the source says, when the gate is on.
  if (m >= 21 && (inputs.enabledGates ?? []).includes('AWSServiceLBNetworkSecurityGroup')) {
    global.set('NLBSecurityGroupMode', 'Managed');
  }
  if (m < 21 && overrides.size > 1) {
    // release-4.19/4.20 sort a copy of the section list (File.Sections returns a new slice): Go map order stays.
    throw new OutsideModel(`release-${minor} writes several [ServiceOverride] sections in Go map order`);
  }
  const sections = [
    { header: 'Global', keys: reflected(fields, global, m >= 22) },
    ...[...overrides].map(([sub, values]) => ({
      header: headerOf({ name: 'ServiceOverride', sub }),
      keys: reflected(
        OVERRIDE_FIELDS.map((f) => [f, 'string'] as const),
        values,
        false,
      ),
    })),
  ];
  // release-4.21 on: sections sorted by name as strings (`ServiceOverride "10"` before `ServiceOverride "2"`).
  if (m >= 21) {
    sections.sort((a, b) => (a.header < b.header ? -1 : a.header > b.header ? 1 : 0));
  }
  return writeGoIni(sections);
}
