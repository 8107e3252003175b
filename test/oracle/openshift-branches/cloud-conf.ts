/**
 * What the operator's cloud-config sync controller writes to `cloud-conf` key `cloud.conf`, per platform and release:
 * pkg/cloud/cloud.go GetCloudConfigTransformer picks the transformer, and pkg/cloud/common/config.go NoOpTransformer
 * returns the source unchanged (openshift/cluster-cloud-controller-manager-operator@d721cd62b5ed (release-4.16) to
 * @bc52198c1c3c (release-4.23); the same table on every branch but AWS, which has no transformer before release-4.19
 * (@8abb067318de) and aws.CloudConfigTransformer from release-4.19 (@5b39a4dfc245), and Alibaba Cloud, on release-4.16
 * only). Never imports from `src/`.
 */

import { awsCloudConf, AwsInputs } from './aws-cloud-conf';
import { OutsideModel } from './ini-text';
import { openStackCloudConf } from './openstack-cloud-conf';
import { VSphereInputs, vsphereCloudConf } from './vsphere-cloud-conf';

/** How the operator of a release writes `cloud.conf` on a platform. */
export type CloudConfWriter = 'unchanged' | 'azure-json' | 'transformed' | 'managed-config';

/** The platforms whose transformer is NoOpTransformer on every branch that has them. */
const UNCHANGED = new Set(['AlibabaCloud', 'GCP', 'IBMCloud', 'PowerVS', 'Nutanix']);

/**
 * `unchanged`: the source as read (NoOpTransformer); `azure-json`: the keys of AZURE_RULES; `transformed`: the platform's
 * own transformer (aws-cloud-conf.ts, openstack-cloud-conf.ts, vsphere-cloud-conf.ts); `managed-config`: no transformer,
 * openshift-config-managed/kube-cloud-config as the cluster-config-operator wrote it (AWS before 4.19, aws-cloud-conf.ts).
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
 * The feature gates the Default feature set enables that a transformer reads: AWSServiceLBNetworkSecurityGroup from
 * release-4.22 (openshift/api@9fda5179a7f7 (release-4.22) and @dffcf504e2ea (release-4.23) features/features.go
 * `inDefault()`; @05da40ea9855 (release-4.20) and @1cb630ce7109 (release-4.21): TechPreviewNoUpgrade and DevPreviewNoUpgrade only).
 */
export function defaultGates(minor: string): string[] {
  return Number(minor.split('.')[1]) >= 22 ? ['AWSServiceLBNetworkSecurityGroup'] : [];
}

/** What the cluster adds to the source: the AWS Infrastructure status and gates, the vSphere platform spec. */
export interface ClusterInputs {
  readonly aws?: AwsInputs;
  readonly vsphere?: VSphereInputs;
}

/**
 * `cloud.conf` as the operator of `minor` writes it on a transforming platform (AWS, OpenStack, vSphere): the text,
 * the refusal (the operator goes Degraded and writes nothing), or why the release's output is not determined here.
 */
export function transformedCloudConf(
  minor: string,
  platform: string,
  source: string,
  inputs: ClusterInputs = {},
): { readonly text: string } | { readonly refused: string } | { readonly outside: string } {
  try {
    switch (platform) {
      case 'AWS':
        return { text: awsCloudConf(minor, source, { enabledGates: defaultGates(minor), ...inputs.aws }) ?? '' };
      case 'OpenStack':
        return openStackCloudConf(source);
      case 'VSphere':
        return { text: vsphereCloudConf(minor, source, inputs.vsphere) };
      default:
        throw new Error(`${platform} has no transformer of its own`);
    }
  } catch (e) {
    if (e instanceof OutsideModel) {
      return { outside: e.message };
    }
    throw e;
  }
}

/**
 * The keys the Azure transformers set, and to what, given the source's own value (…@d721cd62b5ed (release-4.16) to
 * @bc52198c1c3c (release-4.23) pkg/cloud/azure/azure.go and pkg/cloud/azurestack/azurestack.go CloudConfigTransformer,
 * the same rules on every branch; the values are vendor/sigs.k8s.io/cloud-provider-azure/pkg/consts/consts.go
 * VMTypeStandard and ClusterServiceLoadBalancerHealthProbeModeShared): `cloud` from the Infrastructure (the compared
 * clusters name none, so AzurePublicCloud), `vmType` "standard" when unset, the health probe mode always "shared".
 * Azure Stack Hub's transformer sets `vmType` only; on both, the source is kube-cloud-config, where the
 * cluster-config-operator already set `cloud` from the Infrastructure (openshift/cluster-config-operator@fe5e92862820
 * (release-4.18) pkg/operator/kube_cloud_config/azure.go azureTransformer). Every other key of the source is written back with its value; the JSON's form
 * (key order, compact, the struct's other fields added) is the documented deviation "Azure / Azure Stack Hub JSON".
 */
const AZURE_RULES: Readonly<Record<string, Readonly<Record<string, (own: unknown) => unknown>>>> = {
  Azure: {
    cloud: () => 'AzurePublicCloud',
    vmType: (own) => (own === undefined || own === '' ? 'standard' : own),
    clusterServiceLoadBalancerHealthProbeMode: () => 'shared',
  },
  AzureStackHub: {
    // The cluster-config-operator's step before: `cloud` from the Infrastructure's cloud name (the compared cluster's: AzureStackCloud).
    cloud: () => 'AzureStackCloud',
    vmType: (own) => (own === undefined || own === '' ? 'standard' : own),
  },
};

/** The keys of `cloud-conf`: `cloud.conf`, and the source's other keys (Azure Stack Hub: `endpoints`), sorted. */
export function cloudConfKeys(platform: string): string[] {
  return platform === 'AzureStackHub' ? ['cloud.conf', 'endpoints'] : ['cloud.conf'];
}

type Obj = Record<string, any>;

/** The differences of the rendered `cloud-conf` from what the operator of `minor` writes for `source` on `platform`. */
export function cloudConfDiffs(minor: string, platform: string, rendered: readonly Obj[], source: string, inputs: ClusterInputs = {}): string[] {
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
  const written = cm.data?.['cloud.conf'];
  const writer = cloudConfWriter(minor, platform);
  if (writer === 'unchanged' && written !== source) {
    out.push(`${at}: cloud.conf ${JSON.stringify(written)}, the release writes the source unchanged ${JSON.stringify(source)}`);
  }
  if (writer === 'transformed' || writer === 'managed-config') {
    out.push(...textDiffs(at, transformedCloudConf(minor, platform, source, inputs), written));
  }
  const rules = AZURE_RULES[platform];
  if (rules !== undefined) {
    const own = JSON.parse(source) as Record<string, unknown>;
    const json = JSON.parse(String(written ?? '{}')) as Record<string, unknown>;
    for (const [key, rule] of Object.entries(rules)) {
      if (json[key] !== rule(own[key])) {
        out.push(`${at}: cloud.conf ${key} ${JSON.stringify(json[key])}, the release writes ${JSON.stringify(rule(own[key]))}`);
      }
    }
    // Every other key of the source is decoded into the struct and written back with its value.
    for (const key of Object.keys(own).filter((k) => !(k in rules))) {
      if (JSON.stringify(json[key]) !== JSON.stringify(own[key])) {
        out.push(`${at}: cloud.conf ${key} ${JSON.stringify(json[key])}, the release writes the source's ${JSON.stringify(own[key])}`);
      }
    }
    for (const key of Object.keys(json).filter((k) => !(k in rules) && !(k in own))) {
      out.push(`${at}: cloud.conf ${key} ${JSON.stringify(json[key])}, a key neither the source nor the release sets`);
    }
  }
  return out;
}

/**
 * The differences of a written `cloud.conf` from the release's: its first differing line with both texts'
 * line there (a changed, dropped or moved key or section), or the release's refusal.
 */
export function textDiffs(at: string, expected: ReturnType<typeof transformedCloudConf>, written: string | undefined): string[] {
  if ('outside' in expected) {
    return [`${at}: not comparable: ${expected.outside}`];
  }
  if ('refused' in expected) {
    return [`${at}: the release refuses the source (${expected.refused}), ccm-gitops writes ${JSON.stringify(written)}`];
  }
  if (written === expected.text) {
    return [];
  }
  const w = (written ?? '').split('\n');
  const e = expected.text.split('\n');
  const i = w.findIndex((line, n) => line !== e[n]);
  const line = i < 0 ? w.length : i;
  return [`${at}: cloud.conf line ${line + 1} ${JSON.stringify(w[line] ?? null)}, the release writes ${JSON.stringify(e[line] ?? null)}`];
}
