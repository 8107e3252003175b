/**
 * The `DisableCloudProviders=false` / `DisableKubeletCloudCredentialProviders=false`
 * entries the in-tree phases set at 1.29 and 1.30 are dropped by the external
 * phases in every form, other gates kept: both gates are GA and locked to true
 * from 1.31, and a locked gate set to false stops the component at start-up.
 */
import { parse } from 'yaml';
import { kubeadmConfig, kubeadmControlPlanePatch, rancherConfig, staticPodFlags } from '../src/kubernetes/migration/control-plane';
import { kubeApiserverFlags, kubeControllerManagerFlags, kubeletFlags, MigrationPhase } from '../src/migration';
import { applyPatch } from './json-patch';
import { migrationInput } from './helpers';

const KCM = '/spec/kubeadmConfigSpec/clusterConfiguration/controllerManager/extraArgs';
const KAS = '/spec/kubeadmConfigSpec/clusterConfiguration/apiServer/extraArgs';
const JOIN = '/spec/kubeadmConfigSpec/joinConfiguration/nodeRegistration/kubeletExtraArgs';

const gcp = (phase: MigrationPhase, kubernetesMinor = 30) => migrationInput('GCP', { phase, kubernetesMinor, ccmMinor: kubernetesMinor });

describe('the cloud-provider gate entries go at the switch', () => {
  test.each(['external-leader-migration', 'external'] as const)(
    'GIVEN GCP at 1.30, phase %s WHEN its flags are read THEN each component drops its gate entries',
    (phase) => {
      expect(kubeControllerManagerFlags(gcp(phase)).removeGates).toEqual(['DisableCloudProviders']);
      expect(kubeApiserverFlags(gcp(phase)).removeGates).toEqual(['DisableCloudProviders']);
      expect(kubeletFlags(gcp(phase)).removeGates).toEqual(['DisableCloudProviders', 'DisableKubeletCloudCredentialProviders']);
    },
  );

  test('GIVEN GCP at 1.28 (the gates were never set) WHEN external is read THEN no gate entry is dropped', () => {
    expect(kubeletFlags(gcp('external', 28)).removeGates ?? []).toEqual([]);
  });

  test('GIVEN external-leader-migration at 1.30 WHEN the static-pod, kubeadm and RKE2 forms are printed THEN each says to drop the entries and keep the other gates', () => {
    const input = gcp('external-leader-migration');
    expect(staticPodFlags(input)).toContain(
      '  remove DisableCloudProviders, DisableKubeletCloudCredentialProviders from --feature-gates (keep the other gates; drop the flag if none is left)',
    );
    expect(kubeadmConfig(input)).toContain(
      '# kube-apiserver: remove DisableCloudProviders from feature-gates if present (keep the other gates; drop the argument if none is left)',
    );
    expect(rancherConfig(input, 'rke2')).toContain(
      'the kubelet-arg feature-gates entries DisableCloudProviders, DisableKubeletCloudCredentialProviders (keep the other gates)',
    );
  });

  test('GIVEN a v1beta1 KubeadmControlPlane with the gates of leader-migration-ccm and one gate of its own WHEN external-leader-migration is applied THEN only its own gate is left', () => {
    // GIVEN the arg maps as leader-migration-ccm at 1.30 left them, the API server with another gate
    const current = {
      spec: {
        kubeadmConfigSpec: {
          clusterConfiguration: {
            controllerManager: { extraArgs: { 'cloud-provider': 'gce', 'feature-gates': 'DisableCloudProviders=false' } },
            apiServer: {
              extraArgs: { 'cloud-provider': 'gce', 'feature-gates': 'DisableCloudProviders=false,StructuredAuthenticationConfiguration=true' },
            },
          },
          initConfiguration: { nodeRegistration: { kubeletExtraArgs: {} } },
          joinConfiguration: {
            nodeRegistration: { kubeletExtraArgs: { 'feature-gates': 'DisableCloudProviders=false,DisableKubeletCloudCredentialProviders=false' } },
          },
        },
      },
    };
    // WHEN the external-leader-migration patch is built from it and applied
    const ops = parse(kubeadmControlPlanePatch(gcp('external-leader-migration'), 'c', 'v1beta1', current));
    const after = applyPatch(current, ops);
    // THEN the API server keeps its own gate, and the flag goes where ours were its only entries
    expect(ops).toContainEqual({
      op: 'test',
      path: `${KAS}/feature-gates`,
      value: 'DisableCloudProviders=false,StructuredAuthenticationConfiguration=true',
    });
    expect(after.spec.kubeadmConfigSpec.clusterConfiguration.apiServer.extraArgs).toEqual({
      'feature-gates': 'StructuredAuthenticationConfiguration=true',
    });
    expect(after.spec.kubeadmConfigSpec.clusterConfiguration.controllerManager.extraArgs['feature-gates']).toBeUndefined();
    expect(after.spec.kubeadmConfigSpec.joinConfiguration.nodeRegistration.kubeletExtraArgs).toEqual({ 'cloud-provider': 'external' });
  });

  test('GIVEN the v1beta1 patch printed without the object WHEN external-leader-migration at 1.30 is read THEN the gate arguments leader-migration-ccm set are removed behind tests', () => {
    const ops = parse(kubeadmControlPlanePatch(gcp('external-leader-migration'), 'c'));
    expect(ops).toEqual(
      expect.arrayContaining([
        { op: 'test', path: `${KCM}/feature-gates`, value: 'DisableCloudProviders=false' },
        { op: 'remove', path: `${KCM}/feature-gates` },
        { op: 'test', path: `${JOIN}/feature-gates`, value: 'DisableCloudProviders=false,DisableKubeletCloudCredentialProviders=false' },
        { op: 'remove', path: `${JOIN}/feature-gates` },
      ]),
    );
  });

  test('GIVEN a v1beta2 KubeadmControlPlane with gates WHEN external is applied THEN the list entry keeps the other gates', () => {
    const current = {
      spec: {
        kubeadmConfigSpec: {
          clusterConfiguration: {
            controllerManager: { extraArgs: [{ name: 'feature-gates', value: 'DisableCloudProviders=false,Other=true' }] },
            apiServer: { extraArgs: [] },
          },
          initConfiguration: { nodeRegistration: { kubeletExtraArgs: [] } },
          joinConfiguration: {
            nodeRegistration: {
              kubeletExtraArgs: [{ name: 'feature-gates', value: 'DisableKubeletCloudCredentialProviders=false,DisableCloudProviders=false' }],
            },
          },
        },
      },
    };
    const after = applyPatch(current, parse(kubeadmControlPlanePatch(gcp('external'), 'c', 'v1beta2', current))).spec.kubeadmConfigSpec;
    expect(after.clusterConfiguration.controllerManager.extraArgs).toEqual([
      { name: 'feature-gates', value: 'Other=true' },
      { name: 'cloud-provider', value: 'external' },
      { name: 'external-cloud-volume-plugin', value: 'gce' },
      { name: 'cloud-config', value: '/etc/kubernetes/cloud.conf' },
    ]);
    expect(after.joinConfiguration.nodeRegistration.kubeletExtraArgs).toEqual([{ name: 'cloud-provider', value: 'external' }]);
  });
});
