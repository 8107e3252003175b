import { TransformResult } from './errors';
import { findSecretLikeField } from './secrets';
import { parseJsonWithLimits } from './limits';
import { UserError, isUserError } from '../util/user-error';

/**
 * The Azure and Azure Stack Hub cloud-config transforms (openshift/cluster-config-operator@a02c879931c6
 * pkg/operator/kube_cloud_config/azure.go, then openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/cloud/azure/azure.go, pkg/cloud/azurestack/azurestack.go), as pure functions over the JSON
 * `cloud.conf`:
 *
 * - `cloud` comes from the Infrastructure's `azure.cloudName` (default
 *   `AzurePublicCloud`); a user value that differs (case-insensitively) is an
 *   error, a matching one is normalized;
 * - `vmType` defaults to `standard` (the upstream default changed to `vmss`);
 * - Azure only: `clusterServiceLoadBalancerHealthProbeMode` is always `shared`.
 *
 * The credentials injector adds `aadClientId` / `aadClientSecret` (or the
 * workload-identity fields) at pod start from the `azure-cloud-credentials`
 * Secret, so a credential in the config is an error here.
 *
 * Deviations (README): keys are kept in the user's order and unknown keys are
 * kept (the operator re-encodes through the cloud-provider-azure struct, which
 * drops unknown keys and adds every non-omitempty field; the result is equal
 * field by field for every known key, which is how the operator's tests
 * compare); output is indented JSON for readable diffs.
 */

/** Cloud names the Infrastructure API accepts. */
export const AZURE_CLOUD_NAMES = ['AzureChinaCloud', 'AzureGermanCloud', 'AzurePublicCloud', 'AzureStackCloud', 'AzureUSGovernmentCloud'] as const;
export type AzureCloudName = (typeof AZURE_CLOUD_NAMES)[number];

/** The inputs of the Azure transforms beside the config text. */
export interface AzureTransformOptions {
  /**
   * Infrastructure status.platformStatus.azure.cloudName.
   *
   * @default "AzurePublicCloud"
   */
  readonly cloudName?: string;
}

/** Runs the Azure (public, US Gov, China, German clouds) transform. */
export function transformAzureCloudConfig(source: string, options: AzureTransformOptions = {}): TransformResult {
  const cloud = checkCloudName(options.cloudName);
  if (cloud === 'AzureStackCloud') {
    throw new UserError(
      'cloud-config',
      'invalid platform, expected CloudName to be AzurePublicCloud; use the Azure Stack Hub transform for AzureStackCloud',
    );
  }
  const { config, warnings } = withCloud(source, cloud);
  setDefault(config, 'vmType', 'standard');
  const probeKey = keyOf(config, 'clusterServiceLoadBalancerHealthProbeMode');
  if (probeKey !== undefined && config[probeKey] !== 'shared') {
    warnings.push(
      `"${probeKey}" = ${JSON.stringify(config[probeKey])} is overridden with "shared": OpenShift health-checks cluster-scope Services through the shared node port`,
    );
  }
  setKey(config, 'clusterServiceLoadBalancerHealthProbeMode', 'shared');
  return { config: `${JSON.stringify(config, null, 2)}\n`, warnings };
}

/** Runs the Azure Stack Hub transform. */
export function transformAzureStackHubCloudConfig(source: string, options: AzureTransformOptions = {}): TransformResult {
  const cloud = checkCloudName(options.cloudName ?? 'AzureStackCloud');
  if (cloud !== 'AzureStackCloud') {
    throw new UserError(
      'cloud-config',
      `invalid platform, expected CloudName to be AzureStackCloud, got "${cloud}"; use the Azure transform for other clouds`,
    );
  }
  const { config, warnings } = withCloud(source, cloud);
  setDefault(config, 'vmType', 'standard');
  return { config: `${JSON.stringify(config, null, 2)}\n`, warnings };
}

function checkCloudName(name: string | undefined): AzureCloudName {
  const cloud = name || 'AzurePublicCloud';
  if (!(AZURE_CLOUD_NAMES as readonly string[]).includes(cloud)) {
    throw new UserError(
      'cloud-config',
      `status.platformStatus.azure.cloudName: Unsupported value: ${JSON.stringify(cloud)}: supported values: ` +
        AZURE_CLOUD_NAMES.map((c) => `"${c}"`).join(', '),
    );
  }
  return cloud as AzureCloudName;
}

/** The cluster-config-operator step: parse, refuse credentials, reconcile `cloud` with the Infrastructure. */
function withCloud(source: string, cloud: AzureCloudName): { config: Record<string, unknown>; warnings: string[] } {
  let parsed: unknown = {};
  if (source.trim() !== '') {
    try {
      parsed = parseJsonWithLimits(source);
    } catch (e) {
      if (isUserError(e, 'cloud-config')) {
        throw e;
      }
      throw new UserError('cloud-config', `failed to read the cloud.conf: ${(e as Error).message}; the Azure cloud config is a JSON object`);
    }
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new UserError('cloud-config', 'failed to read the cloud.conf: the Azure cloud config must be a JSON object');
  }
  const config = parsed as Record<string, unknown>;
  const seen = new Map<string, string>();
  for (const key of Object.keys(config)) {
    const other = seen.get(key.toLowerCase());
    if (other !== undefined) {
      throw new UserError(
        'cloud-config',
        `failed to read the cloud.conf: keys "${other}" and "${key}" differ only in case; keep one: the cloud provider reads them as the same field`,
      );
    }
    seen.set(key.toLowerCase(), key);
  }
  const secret = findSecretLikeField(config);
  if (secret) {
    throw new UserError(
      'cloud-config',
      `"${secret}" holds a credential; remove it: the credentials injector adds the client credentials at pod start ` +
        'from the azure-cloud-credentials Secret (Azure CredentialsRequest), and credentials never go into git',
    );
  }
  const warnings: string[] = [];
  const key = keyOf(config, 'cloud');
  const value = key === undefined ? undefined : config[key];
  if (value !== undefined && typeof value !== 'string') {
    throw new UserError('cloud-config', 'invalid user-provided cloud.conf: "cloud" field is not a string');
  }
  if (value && value.toLowerCase() !== cloud.toLowerCase()) {
    throw new UserError(
      'cloud-config',
      `invalid user-provided cloud.conf: "cloud" field in user-provided cloud.conf conflicts with infrastructure object; ` +
        `the config says ${JSON.stringify(value)}, the Infrastructure says "${cloud}": remove "cloud" from the config or fix the cluster's cloud name`,
    );
  }
  if (key !== undefined) {
    delete config[key];
  }
  return { config: { cloud, ...config }, warnings };
}

/** The key matching `name` case-insensitively (Go's JSON decoding), if any. */
function keyOf(config: Record<string, unknown>, name: string): string | undefined {
  return Object.keys(config).find((k) => k.toLowerCase() === name.toLowerCase());
}

/** Sets `name` when missing or empty, keeping the user's place for it (and normalizing its case). */
function setDefault(config: Record<string, unknown>, name: string, value: string): void {
  const key = keyOf(config, name);
  if (key === undefined || config[key] === '' || config[key] === null) {
    setKey(config, name, value);
  } else if (key !== name) {
    setKey(config, name, config[key]);
  }
}

/** Sets `name` to `value`, replacing a key that matches case-insensitively in place. */
function setKey(config: Record<string, unknown>, name: string, value: unknown): void {
  const key = keyOf(config, name);
  if (key === undefined) {
    config[name] = value;
    return;
  }
  const entries = Object.entries(config).map(([k, v]) => (k === key ? [name, value] : [k, v]));
  for (const k of Object.keys(config)) {
    delete config[k];
  }
  Object.assign(config, Object.fromEntries(entries));
}
