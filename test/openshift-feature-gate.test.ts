import { StepContext, transitionSteps } from '../src/fleet/migration-targets';
import { customNoUpgradeSelection, DEFAULT_FEATURE_SETS } from '../src/openshift/migration/default-feature-gates';
import { migrationInput } from './helpers';

describe("the CustomNoUpgrade FeatureGate keeps the release's Default gates", () => {
  test("GIVEN GCP on 4.14 WHEN the selection is made THEN every 4.14 Default gate stays on, the external gates are added and Default's disabled gate stays off", () => {
    // WHEN
    const sel = customNoUpgradeSelection('4.14', ['ExternalCloudProvider', 'ExternalCloudProviderGCP']);
    // THEN: completeFeatureGates would otherwise turn AzureWorkloadIdentity, CloudDualStackNodeIPs, PrivateHostedZoneAWS, BuildCSIVolumes off
    expect(sel).toEqual({
      enabled: [
        'AlibabaPlatform',
        'AzureWorkloadIdentity',
        'BuildCSIVolumes',
        'CloudDualStackNodeIPs',
        'ExternalCloudProvider',
        'ExternalCloudProviderAzure',
        'ExternalCloudProviderExternal',
        'ExternalCloudProviderGCP',
        'PrivateHostedZoneAWS',
      ],
      disabled: ['RetroactiveDefaultStorageClass'],
    });
  });

  test('GIVEN a gate Default disables WHEN it is one of the gates to turn on THEN it leaves the disabled list', () => {
    expect(customNoUpgradeSelection('4.10', ['ExternalCloudProvider', 'CSIMigrationAWS'])!.disabled).toEqual([
      'CSIMigrationAzureDisk',
      'CSIMigrationAzureFile',
      'CSIMigrationGCE',
      'CSIMigrationOpenStack',
      'CSIMigrationvSphere',
    ]);
  });

  test('GIVEN a release the table does not know WHEN the selection is asked THEN there is none', () => {
    expect(customNoUpgradeSelection('4.8', ['ExternalCloudProvider'])).toBeUndefined();
    expect(Object.keys(DEFAULT_FEATURE_SETS)).toEqual(['4.9', '4.10', '4.11', '4.12', '4.13', '4.14']);
  });

  test("GIVEN Azure on 4.13 going in-tree → external WHEN the steps are planned THEN the FeatureGate patch carries 4.13's Default lists and the Azure gates", () => {
    // GIVEN
    const ctx: StepContext = {
      distribution: 'openshift',
      ccm: {
        namespace: 'openshift-cloud-controller-manager',
        serviceAccount: 'azure-cloud-controller-manager',
        workload: 'deployment/azure-cloud-controller-manager',
      },
      featureGates: ['ExternalCloudProvider', 'ExternalCloudProviderAzure'],
      featureSet: 'CustomNoUpgrade',
    };
    // WHEN
    const steps = transitionSteps(
      migrationInput('Azure', { phase: 'external', kubernetesMinor: 26, ccmMinor: 26 }),
      ctx,
      'in-tree',
      'external',
    ).steps;
    // THEN
    const patch = steps.find((s) => s.command?.startsWith('oc patch featuregate'))!.command;
    expect(patch).toBe(
      'oc patch featuregate cluster --type=merge -p \'{"spec":{"featureSet":"CustomNoUpgrade","customNoUpgrade":{' +
        '"enabled":["APIPriorityAndFairness","DownwardAPIHugePages","ExternalCloudProvider","ExternalCloudProviderAzure","RotateKubeletServerCertificate"],' +
        '"disabled":["RetroactiveDefaultStorageClass"]}}}\'',
    );
  });
});
