/**
 * What migration from the in-tree provider allows on each platform, for every
 * distribution: the in-tree provider and volume plugin, the last Kubernetes
 * minor that has them, whether the in-tree components read a cloud config, and
 * (read by OpenShift only) when OpenShift's operators switch the platform to the
 * external CCM themselves. A platform absent here never had an in-tree provider
 * (IBM Cloud, Power VS, Nutanix, Alibaba Cloud, DigitalOcean, Equinix Metal) and
 * only has the phase `external`.
 */
import { ClusterSpec, PlatformType } from '../cluster-spec/schema';
import { isAzureStackHubCloud } from '../cluster-spec/sections/azure';
import { MigrationSupport } from './phases';

/**
 * Each platform's migration support, by Infrastructure platform type. The last in-tree
 * minor is the last k8s.io/legacy-cloud-providers release with the provider's folder
 * (kubernetes/legacy-cloud-providers@v0.25.0 openstack/, @v0.26.0 aws/, @v0.29.0 azure/ and vsphere/, @v0.30.0 gce/;
 * each gone in the next minor). OpenShift's versions come from
 * openshift/enhancements@e91105bda6aa enhancements/cloud-integration/out-of-tree-provider-support.md.
 */
export const MIGRATION_SUPPORT: Readonly<Partial<Record<PlatformType, (spec: ClusterSpec) => MigrationSupport | undefined>>> = {
  /** In-tree AWS left Kubernetes in 1.27; OpenShift 4.14 (1.27) runs the external CCM by default. */
  AWS: () => ({
    inTreeProvider: 'aws',
    volumePlugin: 'aws',
    lastInTreeMinor: 26,
    openshiftExternalSinceMinor: 27,
    openshiftFeatureGates: ['ExternalCloudProvider'],
    inTreeCloudConfig: false,
  }),
  /**
   * In-tree Azure left Kubernetes in 1.30; OpenShift 4.14 (1.27) runs the external CCM by default.
   * Azure Stack Hub always ran the external CCM on OpenShift.
   */
  Azure: (spec) =>
    isAzureStackHubCloud(spec.spec.azure?.cloudName)
      ? undefined
      : {
          inTreeProvider: 'azure',
          volumePlugin: 'azure',
          lastInTreeMinor: 29,
          openshiftExternalSinceMinor: 27,
          openshiftFeatureGates: ['ExternalCloudProvider', 'ExternalCloudProviderAzure'],
          inTreeCloudConfig: true,
          noLeaderMigration:
            'the Azure CCM accepts --enable-leader-migration but never takes the migration lease (it has its own controller-manager app)',
        },
  /** In-tree GCE left Kubernetes in 1.31; OpenShift runs the external CCM by default from 4.16 (1.29), when library-go stopped gating GCP. */
  // openshift/api@release-4.15 payload-manifests/featuregates/featureGate-Default.yaml enables ExternalCloudProviderGCP: external by default from 4.15 (1.28)
  GCP: () => ({
    inTreeProvider: 'gce',
    volumePlugin: 'gce',
    lastInTreeMinor: 30,
    openshiftExternalSinceMinor: 28,
    openshiftFeatureGates: ['ExternalCloudProvider', 'ExternalCloudProviderGCP'],
    inTreeCloudConfig: true,
  }),
  /** In-tree OpenStack left Kubernetes in 1.26; OpenShift 4.12 (1.25) runs the external CCM by default. */
  OpenStack: () => ({
    inTreeProvider: 'openstack',
    volumePlugin: 'openstack',
    lastInTreeMinor: 25,
    openshiftExternalSinceMinor: 25,
    openshiftFeatureGates: ['ExternalCloudProvider'],
    inTreeCloudConfig: true,
  }),
  /** In-tree vSphere left Kubernetes in 1.30; OpenShift 4.13 (1.26) runs the external CCM by default. */
  VSphere: () => ({
    inTreeProvider: 'vsphere',
    volumePlugin: 'vsphere',
    lastInTreeMinor: 29,
    openshiftExternalSinceMinor: 26,
    openshiftFeatureGates: ['ExternalCloudProvider'],
    inTreeCloudConfig: true,
  }),
};

/** What migration allows on a spec's platform; undefined when the platform never had an in-tree provider. */
export function migrationSupportFor(spec: ClusterSpec): MigrationSupport | undefined {
  return MIGRATION_SUPPORT[spec.spec.platform]?.(spec);
}
