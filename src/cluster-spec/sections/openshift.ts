import { z } from 'zod';

/** The feature sets of the FeatureGate `spec.featureSet` (openshift/api config/v1 types_feature.go; `OKD` from release-4.22). */
export const FEATURE_SETS = ['Default', 'TechPreviewNoUpgrade', 'DevPreviewNoUpgrade', 'CustomNoUpgrade', 'OKD'] as const;
export type FeatureSet = (typeof FEATURE_SETS)[number];

/** An OpenShift release version `X.Y.Z` (optionally with a pre-release suffix such as `-rc.1`). */
export const RELEASE_VERSION_PATTERN = /^([0-9]+)\.([0-9]+)\.([0-9]+)(-[0-9A-Za-z.-]+)?$/;

/**
 * `spec.openshift`: the cluster's OpenShift release and feature set. The
 * release decides the default feature gates (`RELEASE_GATE_TABLE`), the
 * version the operator reports in `operator` mode, what the release payload
 * ships (and so which objects need a ClusterVersion override), and which
 * assets apply (Alibaba Cloud: 4.16 only).
 */
export const openshiftSpecSection = z
  .strictObject({
    release: z
      .string()
      .regex(RELEASE_VERSION_PATTERN, { message: 'is not an OpenShift release version like "4.22.3"' })
      .optional()
      .describe(
        'ClusterVersion status.desired.version, e.g. "4.22.3" (oc get clusterversion version -o jsonpath={.status.desired.version}). Required for OpenShift clusters; gitops mode renders the CCM of 4.22 and later (earlier releases only in a migration\'s CCM phases on AWS and GCP, as that release\'s operator renders it), and spec.migration.kubernetesVersion must be the Kubernetes minor it ships.',
      ),
    featureSet: z
      .enum(FEATURE_SETS)
      .default('Default')
      .describe(
        'FeatureGate spec.featureSet ("" is Default; OKD from 4.22, rendered as Default, not with a migration); with a release, its gates enabled in this set apply unless spec.featureGates.disabled lists them.',
      ),
  })
  .describe('The OpenShift release the cluster runs (distribution openshift).');

export type OpenShiftSpecSection = z.output<typeof openshiftSpecSection>;
