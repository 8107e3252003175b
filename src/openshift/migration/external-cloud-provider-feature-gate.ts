import { Construct } from 'constructs';
import { FeatureGate, FeatureGateSpecFeatureSet } from '../../../imports/featuregates-config.openshift.io';

/** Feature sets that can enable the gates (both are one-way: they cannot be turned off and block minor upgrades). */
export const EXTERNAL_CLOUD_PROVIDER_FEATURE_SETS = ['CustomNoUpgrade', 'TechPreviewNoUpgrade'] as const;
export type ExternalCloudProviderFeatureSet = (typeof EXTERNAL_CLOUD_PROVIDER_FEATURE_SETS)[number];

/** Properties for `ExternalCloudProviderFeatureGate`. */
export interface ExternalCloudProviderFeatureGateProps {
  /**
   * The gates to enable (CustomNoUpgrade: the release's Default enabled gates and the
   * external-cloud-provider gates) or that TechPreviewNoUpgrade enables.
   */
  readonly gates: readonly string[];
  /**
   * CustomNoUpgrade: the gates to keep off (the release's Default disabled gates).
   *
   * @default []
   */
  readonly disabled?: readonly string[];
  /**
   * The feature set.
   *
   * @default 'CustomNoUpgrade'
   */
  readonly featureSet?: ExternalCloudProviderFeatureSet;
}

/**
 * The cluster FeatureGate that makes OpenShift's operators switch a platform
 * that is not external by default to its external CCM: kube-controller-manager,
 * kube-apiserver and the kubelets.
 */
export class ExternalCloudProviderFeatureGate extends Construct {
  /** The FeatureGate object. */
  public readonly apiObject: FeatureGate;

  constructor(scope: Construct, id: string, props: ExternalCloudProviderFeatureGateProps) {
    super(scope, id);
    if (props.gates.length === 0) {
      throw new Error("'gates' must name at least one feature gate, got none");
    }
    const featureSet = props.featureSet ?? 'CustomNoUpgrade';
    this.apiObject = new FeatureGate(this, 'Resource', {
      metadata: { name: 'cluster' },
      spec:
        featureSet === 'CustomNoUpgrade'
          ? {
              featureSet: FeatureGateSpecFeatureSet.CUSTOM_NO_UPGRADE,
              customNoUpgrade: {
                enabled: [...props.gates],
                ...(props.disabled && props.disabled.length > 0 ? { disabled: [...props.disabled] } : {}),
              },
            }
          : { featureSet: FeatureGateSpecFeatureSet.TECH_PREVIEW_NO_UPGRADE },
    });
  }
}
