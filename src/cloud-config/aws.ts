import { TransformResult } from './errors';
import { GcfgSection, parseGcfg, quoteGcfgValue } from './gcfg';
import { findSecretLikeIniKey, looksLikeSecretKey } from './secrets';
import { UserError, isUserError } from '../util/user-error';

/**
 * The AWS cloud-config transform, as the operator runs it (openshift/cluster-config-operator@a02c879931c6
 * pkg/operator/kube_cloud_config/aws.go, then openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/cloud/aws/aws_config_transformer.go), in one pure function:
 *
 * 1. cluster-config-operator pre-step: with service endpoints in the
 *    Infrastructure status, append one `[ServiceOverride "i"]` section per
 *    endpoint (refused when the user config already has overrides);
 * 2. read the result as the AWS cloud provider does (gcfg): unknown sections
 *    and keys are dropped (reported as warnings here);
 * 3. OpenShift defaults: `ClusterServiceLoadBalancerHealthProbeMode = Shared`
 *    unless set; `NLBSecurityGroupMode = Managed` when the feature gate
 *    `AWSServiceLBNetworkSecurityGroup` is enabled;
 * 4. write it back in go-ini's pretty format: `[Global]` first with keys in
 *    the cloud provider's field order, empty strings dropped, `=` aligned,
 *    `NodeIPFamilies` repeated in order; then the overrides.
 *
 * Deviations from the operator (docs/deviations.md): overrides are ordered
 * numerically ("2" before "10"; release-4.21 on sorts them as strings although
 * its comment says numerically, release-4.19 and 4.20 leave Go map order),
 * values with quotes, backslashes or
 * comment characters are quoted the way gcfg reads them (go-ini's backtick
 * quoting is misread by the cloud provider), and keys that look like
 * credentials are an error instead of being dropped silently.
 */

/** The inputs of the AWS transform beside the config text. */
export interface AwsTransformOptions {
  /** Infrastructure status.platformStatus.aws.region. */
  readonly region?: string;
  /** Infrastructure status.platformStatus.aws.serviceEndpoints. */
  readonly serviceEndpoints?: readonly { readonly name: string; readonly url: string }[];
  /** Enabled OpenShift feature gates. */
  readonly enabledFeatureGates?: readonly string[];
  /**
   * Write a list (`NodeIPFamilies`) as one comma-separated key, as go-ini's `ReflectFrom` writes a slice:
   * the operator of release-4.21 and earlier does (…@6148c0cc (release-4.21) pkg/cloud/aws/aws_config_transformer.go
   * marshalAWSConfig); release-4.22 writes one key per item.
   *
   * @default false
   */
  readonly joinLists?: boolean;
  /**
   * Stop after the cluster-config-operator pre-step: release-4.18 and earlier have no transformer and copy
   * openshift-config-managed/kube-cloud-config as it is (…@8abb0673 (release-4.18) pkg/cloud/cloud.go).
   *
   * @default false
   */
  readonly managedConfigOnly?: boolean;
  /**
   * `[Global]` fields the release's vendored cloud provider does not have yet: read as unknown keys (dropped).
   *
   * @default []
   */
  readonly unknownFields?: readonly string[];
}

type FieldKind = 'string' | 'bool' | 'int' | 'list';

/** `[Global]` fields of k8s.io/cloud-provider-aws CloudConfig, in struct order. */
const GLOBAL_FIELDS: readonly (readonly [string, FieldKind])[] = [
  ['Zone', 'string'],
  ['Region', 'string'],
  ['VPC', 'string'],
  ['SubnetID', 'string'],
  ['RouteTableID', 'string'],
  ['RoleARN', 'string'],
  ['SourceARN', 'string'],
  ['KubernetesClusterTag', 'string'],
  ['KubernetesClusterID', 'string'],
  ['DisableSecurityGroupIngress', 'bool'],
  ['ElbSecurityGroup', 'string'],
  ['NodeIPFamilies', 'list'],
  ['ClusterServiceLoadBalancerHealthProbeMode', 'string'],
  ['ClusterServiceSharedLoadBalancerHealthProbePort', 'int'],
  ['ClusterServiceSharedLoadBalancerHealthProbePath', 'string'],
  ['SupportedTopologyInstanceTypePattern', 'string'],
  ['NLBSecurityGroupMode', 'string'],
];

/** `[ServiceOverride "<key>"]` fields, in struct order. */
const OVERRIDE_FIELDS: readonly (readonly [string, FieldKind])[] = [
  ['Service', 'string'],
  ['Region', 'string'],
  ['URL', 'string'],
  ['SigningRegion', 'string'],
  ['SigningMethod', 'string'],
  ['SigningName', 'string'],
];

type Values = Map<string, string | boolean | number | string[]>;

/** Feature gate that makes the operator manage NLB security groups. */
export const AWS_NLB_SECURITY_GROUP_GATE = 'AWSServiceLBNetworkSecurityGroup';

/** Runs the AWS transform. Throws a UserError of kind 'cloud-config' when the operator would fail. */
export function transformAwsCloudConfig(source: string, options: AwsTransformOptions = {}): TransformResult {
  const warnings: string[] = [];
  const secret = findSecretLikeIniKey(source);
  if (secret) {
    throw new UserError(
      'cloud-config',
      `'${secret.key}' (line ${secret.line}) looks like a credential; remove it: ` +
        'the AWS cloud controller manager authenticates with the instance profile, and credentials never go into git',
      secret.line,
    );
  }
  let text = withServiceEndpoints(source, options);
  if (options.managedConfigOnly) {
    return { config: text, warnings };
  }
  if (text.length === 0) {
    text = '[Global]\n';
  }

  const unknown = new Set(options.unknownFields ?? []);
  const globalFields = GLOBAL_FIELDS.filter(([name]) => !unknown.has(name));
  const global: Values = new Map();
  const overrides = new Map<string, Values>();
  for (const section of read(text)) {
    const name = section.name.toLowerCase();
    if (name === 'global' && section.subsection === undefined) {
      decodeSection(section, globalFields, global, '[Global]', warnings);
    } else if (name === 'serviceoverride' && section.subsection !== undefined) {
      const values = overrides.get(section.subsection) ?? new Map<string, string | boolean | number | string[]>();
      overrides.set(section.subsection, values);
      decodeSection(section, OVERRIDE_FIELDS, values, `[ServiceOverride "${section.subsection}"]`, warnings);
    } else {
      const header = section.subsection === undefined ? `[${section.name}]` : `[${section.name} "${section.subsection}"]`;
      for (const entry of section.entries) {
        refuseSecret(header, entry.name, entry.line);
      }
      warnings.push(`section '${header}' (line ${section.line}) is not an AWS cloud provider section; dropped`);
    }
  }

  if (!global.get('ClusterServiceLoadBalancerHealthProbeMode')) {
    global.set('ClusterServiceLoadBalancerHealthProbeMode', 'Shared');
  }
  if ((options.enabledFeatureGates ?? []).includes(AWS_NLB_SECURITY_GROUP_GATE)) {
    const previous = global.get('NLBSecurityGroupMode');
    if (previous && previous !== 'Managed') {
      warnings.push(
        `'[Global] NLBSecurityGroupMode' = "${String(previous)}" is overridden with "Managed" because feature gate ${AWS_NLB_SECURITY_GROUP_GATE} is enabled`,
      );
    }
    global.set('NLBSecurityGroupMode', 'Managed');
  }

  const out = [writeSection('Global', globalFields, global, options.joinLists)];
  const keys = [...overrides.keys()].sort(compareOverrideKeys);
  for (const key of keys) {
    out.push(writeSection(`ServiceOverride "${key}"`, OVERRIDE_FIELDS, overrides.get(key)!));
  }
  return { config: out.join('\n'), warnings };
}

/**
 * The cluster-config-operator's step: `spec.aws.serviceEndpoints` appended as numbered `[ServiceOverride]` sections,
 * refused when the source already has its own.
 */
function withServiceEndpoints(source: string, options: AwsTransformOptions): string {
  const endpoints = options.serviceEndpoints ?? [];
  let text = source;
  if (endpoints.length > 0) {
    if (!options.region) {
      throw new UserError(
        'cloud-config',
        'status.platformStatus.aws.region: Required value: region is required to be set for AWS platform; ' +
          'set spec.aws.region when spec.aws.serviceEndpoints is set',
      );
    }
    if (text.length > 0) {
      const overrides = read(text).filter((s) => s.name.toLowerCase() === 'serviceoverride');
      if (overrides.length > 0) {
        throw new UserError(
          'cloud-config',
          'invalid user provided cloud.conf: user provided cloud.conf and infrastructure object both include service overrides; ' +
            'remove the [ServiceOverride] sections from the cloud config or spec.aws.serviceEndpoints from the spec',
          overrides[0].line,
        );
      }
    }
    text += endpoints
      .map(
        (e, i) =>
          `\n[ServiceOverride "${i}"]\n\tService = ${e.name}\n\tRegion = ${options.region}\n\tURL = ${e.url}\n\tSigningRegion = ${options.region}\n`,
      )
      .join('');
  }
  return text;
}

function read(text: string): GcfgSection[] {
  try {
    return parseGcfg(text);
  } catch (e) {
    if (isUserError(e, 'cloud-config')) {
      throw new UserError('cloud-config', `failed to read the cloud.conf: failed to parse INI file: ${e.message}`, e.line);
    }
    throw e;
  }
}

function refuseSecret(header: string, key: string, line: number): void {
  if (looksLikeSecretKey(key)) {
    throw new UserError(
      'cloud-config',
      `'${header ? `${header} ` : ''}${key}' (line ${line}) looks like a credential; remove it: ` +
        'the AWS cloud controller manager authenticates with the instance profile, and credentials never go into git',
      line,
    );
  }
}

function decodeSection(
  section: GcfgSection,
  fields: readonly (readonly [string, FieldKind])[],
  into: Values,
  header: string,
  warnings: string[],
): void {
  for (const entry of section.entries) {
    const field = fields.find(([f]) => f.toLowerCase() === entry.name.toLowerCase());
    if (!field) {
      refuseSecret(header, entry.name, entry.line);
      warnings.push(`'${header} ${entry.name}' (line ${entry.line}) is not an AWS cloud provider option; dropped`);
      continue;
    }
    const [name, kind] = field;
    const where = `line ${entry.line}: ${header} ${entry.name}`;
    switch (kind) {
      case 'bool':
        into.set(name, parseBool(entry.value, where, entry.line));
        break;
      case 'int':
        into.set(name, parseInteger(entry.value, where, entry.line));
        break;
      case 'list': {
        // gcfg: a blank variable resets a multi-valued variable; a value appends.
        const list = entry.value === null ? [] : [...((into.get(name) as string[] | undefined) ?? []), entry.value];
        into.set(name, list);
        break;
      }
      default:
        if (entry.value === null) {
          throw new UserError(
            'cloud-config',
            `failed to read the cloud.conf: failed to parse INI file: ${where}: missing value; write "${entry.name} = <value>"`,
            entry.line,
          );
        }
        into.set(name, entry.value);
    }
  }
}

function parseBool(value: string | null, where: string, line: number): boolean {
  if (value === null) {
    return true;
  }
  const v = value.toLowerCase();
  if (['true', 'yes', 'on', '1'].includes(v)) {
    return true;
  }
  if (['false', 'no', 'off', '0'].includes(v)) {
    return false;
  }
  throw new UserError(
    'cloud-config',
    `failed to read the cloud.conf: failed to parse INI file: ${where}: failed to parse ${JSON.stringify(value)} as bool; use true or false`,
    line,
  );
}

function parseInteger(value: string | null, where: string, line: number): number {
  if (value !== null && /^[+-]?\d+$/.test(value.trim())) {
    const n = Number(value.trim());
    if (Number.isSafeInteger(n) && Math.abs(n) <= 2147483647) {
      return n;
    }
  }
  throw new UserError(
    'cloud-config',
    `failed to read the cloud.conf: failed to parse INI file: ${where}: failed to parse ${JSON.stringify(value ?? '')} as int; use a whole number`,
    line,
  );
}

/** Numeric keys in numeric order, then other keys as strings. */
function compareOverrideKeys(a: string, b: string): number {
  const na = /^\d+$/.test(a) ? Number(a) : NaN;
  const nb = /^\d+$/.test(b) ? Number(b) : NaN;
  if (!isNaN(na) && !isNaN(nb) && na !== nb) {
    return na - nb;
  }
  if (!isNaN(na) !== !isNaN(nb)) {
    return isNaN(na) ? 1 : -1;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/** go-ini's pretty writer for one section: `=` aligned on the longest key written. */
function writeSection(header: string, fields: readonly (readonly [string, FieldKind])[], values: Values, joinLists = false): string {
  const lines: [string, string][] = [];
  for (const [name, kind] of fields) {
    const v = values.get(name);
    if (kind === 'list') {
      const items = ((v as string[] | undefined) ?? []).filter((item) => item !== '');
      for (const item of joinLists && items.length > 0 ? [items.join(',')] : items) {
        lines.push([name, item]);
      }
    } else if (kind === 'bool') {
      lines.push([name, String(v ?? false)]);
    } else if (kind === 'int') {
      lines.push([name, String(v ?? 0)]);
    } else if (typeof v === 'string' && v !== '') {
      lines.push([name, v]);
    }
  }
  const width = Math.max(0, ...lines.map(([k]) => k.length));
  return `[${header}]\n${lines.map(([k, v]) => `${k.padEnd(width)} = ${quoteGcfgValue(v)}\n`).join('')}`;
}
