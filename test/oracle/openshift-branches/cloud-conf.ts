/**
 * What the operator's cloud-config sync controller writes to `cloud-conf` key `cloud.conf`, per platform and release:
 * pkg/cloud/cloud.go GetCloudConfigTransformer picks the transformer, and pkg/cloud/common/config.go NoOpTransformer
 * returns the source unchanged (openshift/cluster-cloud-controller-manager-operator@d721cd62b5ed (release-4.16) to
 * @bc52198c1c3c (release-4.23); the same table on every branch but AWS, which has no transformer before release-4.19
 * (@8abb067318de) and aws.CloudConfigTransformer from release-4.19 (@5b39a4dfc245), and Alibaba Cloud, on release-4.16
 * only). Never imports from `src/`.
 */

/** How the operator of a release writes `cloud.conf` on a platform. */
export type CloudConfWriter = 'unchanged' | 'azure-json' | 'transformed' | 'managed-config';

/** The platforms whose transformer is NoOpTransformer on every branch that has them. */
const UNCHANGED = new Set(['AlibabaCloud', 'GCP', 'IBMCloud', 'PowerVS', 'Nutanix']);

/**
 * `unchanged`: the source as read (NoOpTransformer); `azure-json`: the keys of AZURE_RULES; `transformed`: the platform's own transformer (not compared here
 * yet); `managed-config`: no transformer, the config the cloud-credential and config operators already wrote to
 * openshift-config-managed (AWS before 4.19), not compared here.
 */
export function cloudConfWriter(minor: string, platform: string): CloudConfWriter {
  if (UNCHANGED.has(platform)) {
    return 'unchanged';
  }
  if (platform === 'Azure' || platform === 'AzureStackHub') {
    return 'azure-json';
  }
  if (platform === 'AWS' && Number(minor.split('.')[1]) < 19 && minor.startsWith('4.')) {
    return 'managed-config';
  }
  return 'transformed';
}

/**
 * The keys the Azure transformers set, and to what, given the source's own value (…@d721cd62b5ed (release-4.16) to
 * @bc52198c1c3c (release-4.23) pkg/cloud/azure/azure.go and pkg/cloud/azurestack/azurestack.go CloudConfigTransformer,
 * the same rules on every branch; the values are vendor/sigs.k8s.io/cloud-provider-azure/pkg/consts/consts.go
 * VMTypeStandard and ClusterServiceLoadBalancerHealthProbeModeShared): `cloud` from the Infrastructure (the compared
 * clusters name none, so AzurePublicCloud), `vmType` "standard" when unset, the health probe mode always "shared".
 * Azure Stack Hub sets `vmType` only. The JSON is compared by these keys: re-encoding it through the Go struct is a
 * documented deviation.
 */
const AZURE_RULES: Readonly<Record<string, Readonly<Record<string, (own: unknown) => unknown>>>> = {
  Azure: {
    cloud: () => 'AzurePublicCloud',
    vmType: (own) => (own === undefined || own === '' ? 'standard' : own),
    clusterServiceLoadBalancerHealthProbeMode: () => 'shared',
  },
  AzureStackHub: { vmType: (own) => (own === undefined || own === '' ? 'standard' : own) },
};

/** The keys of `cloud-conf`: `cloud.conf`, and the source's other keys (Azure Stack Hub: `endpoints`), sorted. */
export function cloudConfKeys(platform: string): string[] {
  return platform === 'AzureStackHub' ? ['cloud.conf', 'endpoints'] : ['cloud.conf'];
}

type Obj = Record<string, any>;

/** The differences of the rendered `cloud-conf` from what the operator of `minor` writes for `source` on `platform`. */
export function cloudConfDiffs(minor: string, platform: string, rendered: readonly Obj[], source: string): string[] {
  const cm = rendered.find(
    (o) => o.kind === 'ConfigMap' && o.metadata?.name === 'cloud-conf' && o.metadata?.namespace === 'openshift-cloud-controller-manager',
  );
  if (cm === undefined) {
    return [];
  }
  const at = `/ConfigMap openshift-cloud-controller-manager/cloud-conf [pkg/cloud/cloud.go release-${minor}]`;
  const out: string[] = [];
  const keys = Object.keys(cm.data ?? {}).sort();
  if (keys.join(',') !== cloudConfKeys(platform).join(',')) {
    out.push(`${at}: keys ${keys.join(',')}, the release writes ${cloudConfKeys(platform).join(',')}`);
  }
  if (cloudConfWriter(minor, platform) === 'unchanged' && cm.data?.['cloud.conf'] !== source) {
    out.push(`${at}: cloud.conf ${JSON.stringify(cm.data?.['cloud.conf'])}, the release writes the source unchanged ${JSON.stringify(source)}`);
  }
  const rules = AZURE_RULES[platform];
  if (rules !== undefined) {
    const own = JSON.parse(source) as Record<string, unknown>;
    const written = JSON.parse(String(cm.data?.['cloud.conf'] ?? '{}')) as Record<string, unknown>;
    for (const [key, rule] of Object.entries(rules)) {
      if (written[key] !== rule(own[key])) {
        out.push(`${at}: cloud.conf ${key} ${JSON.stringify(written[key])}, the release writes ${JSON.stringify(rule(own[key]))}`);
      }
    }
  }
  return out;
}
