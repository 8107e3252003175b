import { refuseCredentials } from '../src/cloud-config/pass-through';
import { ExportedObject, importLiveCluster } from '../src/import/live-cluster';
import { checkSpec } from '../src/fleet/load';
import { clusterSpecSchema } from '../src/cluster-spec/schema';
import { awsSpec, parsedSpec } from './helpers';

function infrastructure(platformStatus: Record<string, unknown>): ExportedObject {
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'Infrastructure',
    metadata: { name: 'cluster' },
    spec: { cloudConfig: { name: 'cloud-provider-config', key: 'config' } },
    status: { infrastructureName: 'prod-eu-1-ab12c', controlPlaneTopology: 'HighlyAvailable', platformStatus },
  };
}

const gcpConfig: ExportedObject = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'cloud-provider-config', namespace: 'openshift-config' },
  data: { config: '[global]\nproject-id = p\n' },
};

function apiServer(spec: Record<string, unknown>): ExportedObject {
  return { apiVersion: 'config.openshift.io/v1', kind: 'APIServer', metadata: { name: 'cluster' }, spec };
}

/**
 * An Azure Stack Hub `endpoints` key as the installer writes it: the
 * go-autorest `azure.Environment` JSON (github.com/Azure/go-autorest
 * autorest/azure/environments.go `Environment`), whose `tokenAudience` is the
 * resource manager audience URL.
 */
const ASH_ENDPOINTS = JSON.stringify({
  name: 'AzureStackCloud',
  managementPortalURL: 'https://portal.local.azurestack.external/',
  serviceManagementEndpoint: 'https://management.adminlocal.azurestack.external/12345678-1234-1234-1234-123456789012',
  resourceManagerEndpoint: 'https://management.local.azurestack.external/',
  activeDirectoryEndpoint: 'https://login.microsoftonline.com/',
  galleryEndpoint: 'https://providers.local.azurestack.external:30016/',
  graphEndpoint: 'https://graph.windows.net/',
  storageEndpointSuffix: 'local.azurestack.external',
  keyVaultDNSSuffix: 'vault.local.azurestack.external',
  tokenAudience: 'https://management.adminlocal.azurestack.external/12345678-1234-1234-1234-123456789012',
  resourceIdentifiers: { graph: 'https://graph.windows.net/', keyVault: 'https://vault.azure.net', storage: 'https://storage.azure.com/' },
});

describe('item 7: import and validation accept real clusters', () => {
  test('GIVEN a real Azure Stack Hub endpoints JSON WHEN checked for credentials THEN it passes: tokenAudience is a URL, not a credential', () => {
    expect(() => refuseCredentials('Azure', ASH_ENDPOINTS)).not.toThrow();
  });

  test('GIVEN the same JSON with a clientSecret WHEN checked THEN it is still refused', () => {
    expect(() => refuseCredentials('Azure', JSON.stringify({ ...JSON.parse(ASH_ENDPOINTS), aadClientSecret: 'x' }))).toThrow(
      '"aadClientSecret" holds a credential',
    );
  });

  test('GIVEN an Azure Stack Hub export WHEN imported THEN the endpoints key is kept', () => {
    const result = importLiveCluster([
      infrastructure({ type: 'Azure', azure: { cloudName: 'AzureStackCloud' } }),
      { ...gcpConfig, data: { config: '{"cloud":"AzureStackCloud"}', endpoints: ASH_ENDPOINTS } },
    ]);
    expect(result.files.map((f) => f.name)).toEqual(['prod-eu-1.cloud.conf', 'prod-eu-1.endpoints']);
  });

  test.each(['eusc-de-east-1', 'us-gov-west-1', 'cn-north-1', 'us-isob-east-1', 'eu-central-1'])(
    'AWS region %s is accepted (Infrastructure status.platformStatus.aws.region has no pattern)',
    (region) => {
      // openshift/api@2a3d73913b5a config/v1/types_infrastructure.go AWSPlatformStatus.Region: no validation marker
      expect(clusterSpecSchema.safeParse(awsSpec('a', { aws: { region } })).success).toBe(true);
    },
  );

  test('AWS region with white space or upper case is refused', () => {
    expect(clusterSpecSchema.safeParse(awsSpec('a', { aws: { region: 'US East 1' } })).success).toBe(false);
  });

  test('GIVEN tlsAdherence omitted (NoOpinion) and a Modern profile WHEN imported THEN Intermediate (no spec.tls) with a warning', () => {
    // openshift/api config/v1 TLSAdherencePolicyNoOpinion = "" (omitted); library-go ShouldHonorClusterTLSProfile("") is false
    const result = importLiveCluster([infrastructure({ type: 'GCP' }), gcpConfig, apiServer({ tlsSecurityProfile: { type: 'Modern' } })]);
    expect(result.spec.spec.tls).toBeUndefined();
    expect(result.warnings).toContain(
      'APIServer spec.tlsSecurityProfile "Modern" is not imported: tlsAdherence is not set, so the operator and its operands use the Intermediate profile ' +
        '(library-go ShouldHonorClusterTLSProfile); set tlsAdherence: StrictAllComponents on the cluster to apply it',
    );
  });

  test('GIVEN tlsAdherence LegacyAdheringComponentsOnly WHEN imported THEN Intermediate', () => {
    const result = importLiveCluster([
      infrastructure({ type: 'GCP' }),
      gcpConfig,
      apiServer({ tlsAdherence: 'LegacyAdheringComponentsOnly', tlsSecurityProfile: { type: 'Modern' } }),
    ]);
    expect(result.spec.spec.tls).toBeUndefined();
  });

  test('GIVEN tlsAdherence StrictAllComponents WHEN imported THEN the Modern profile', () => {
    const result = importLiveCluster([
      infrastructure({ type: 'GCP' }),
      gcpConfig,
      apiServer({ tlsAdherence: 'StrictAllComponents', tlsSecurityProfile: { type: 'Modern' } }),
    ]);
    expect(result.spec.spec.tls).toEqual({ profile: 'Modern' });
  });
});

describe('item 4: import reads the release from a ClusterVersion export', () => {
  const clusterVersion = (status: Record<string, unknown>): ExportedObject => ({
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: { name: 'version' },
    status,
  });

  test('GIVEN ClusterVersion status.desired.version WHEN imported THEN spec.openshift.release', () => {
    const result = importLiveCluster([
      infrastructure({ type: 'GCP' }),
      gcpConfig,
      clusterVersion({
        desired: { version: '4.22.3' },
        history: [
          { state: 'Partial', version: '4.22.3' },
          { state: 'Completed', version: '4.21.9' },
        ],
      }),
    ]);
    expect(result.spec.spec.openshift).toEqual({ release: '4.22.3' });
    expect(checkSpec(parsedSpec(result.spec)).filter((p) => p.path[1] === 'openshift')).toEqual([]);
  });

  test('GIVEN a ClusterVersion without desired WHEN imported THEN the last Completed history entry', () => {
    const result = importLiveCluster([
      infrastructure({ type: 'GCP' }),
      gcpConfig,
      clusterVersion({
        history: [
          { state: 'Partial', version: '4.22.3' },
          { state: 'Completed', version: '4.21.9' },
        ],
      }),
    ]);
    expect(result.spec.spec.openshift).toEqual({ release: '4.21.9' });
  });

  test('GIVEN a FeatureGate with spec.featureSet TechPreviewNoUpgrade WHEN imported THEN spec.openshift.featureSet', () => {
    const result = importLiveCluster([
      infrastructure({ type: 'GCP' }),
      gcpConfig,
      clusterVersion({ desired: { version: '4.23.0' } }),
      {
        apiVersion: 'config.openshift.io/v1',
        kind: 'FeatureGate',
        metadata: { name: 'cluster' },
        spec: { featureSet: 'TechPreviewNoUpgrade' },
        status: { featureGates: [{ version: '4.23.0', enabled: [], disabled: [] }] },
      },
    ]);
    expect(result.spec.spec.openshift).toEqual({ release: '4.23.0', featureSet: 'TechPreviewNoUpgrade' });
  });

  test('GIVEN no ClusterVersion WHEN imported THEN a warning says the release is required and how to export or read it', () => {
    const result = importLiveCluster([infrastructure({ type: 'GCP' }), gcpConfig]);
    expect(result.spec.spec.openshift).toBeUndefined();
    expect(result.warnings).toContain(
      'no ClusterVersion "version" in the export: spec.openshift.release is required and not known; ' +
        'add the file to the export folder (oc get clusterversion version -o yaml > clusterversion.yaml) and import again, ' +
        "or set it to what oc get clusterversion version -o jsonpath='{.status.desired.version}' prints",
    );
  });
});

describe('an export of a 4.16, 4.18 or 4.20 cluster goes through import, validate-spec and rendering', () => {
  const images: ExportedObject = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'cloud-controller-manager-images', namespace: 'openshift-cloud-controller-manager-operator' },
    data: {
      'images.json': JSON.stringify({
        cloudControllerManagerOperator: 'quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:' + '1'.repeat(64),
        cloudControllerManagerGCP: 'quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:' + '2'.repeat(64),
      }),
    },
  };

  test.each(['4.16.40', '4.18.22', '4.20.3'])(
    'GIVEN a GCP export at %s WHEN imported THEN spec.openshift.release is that version and validate-spec finds no problem',
    (version) => {
      const cv: ExportedObject = {
        apiVersion: 'config.openshift.io/v1',
        kind: 'ClusterVersion',
        metadata: { name: 'version' },
        status: { desired: { version } },
      };
      const result = importLiveCluster([infrastructure({ type: 'GCP', gcp: { projectID: 'p', region: 'europe-west1' } }), gcpConfig, images, cv]);
      expect(result.spec.spec.openshift).toEqual({ release: version });
      expect(checkSpec(parsedSpec(result.spec as Record<string, any>)).map((p) => `${p.path.join('.')}: ${p.message}`)).toEqual([]);
    },
  );
});
