/**
 * The kubernetes distribution's phase changes: who runs node IPAM in each
 * phase, which provider can take it, the RKE2/k3s steps, the CCM's minor, the
 * Cluster API v1beta2 patch and the order of the Azure switch.
 */
import { controlPlaneMarkdown } from '../src/kubernetes/control-plane-plan';
import { staticPodFlags } from '../src/kubernetes/migration/control-plane';
import { runCli } from '../src/cli';
import { MigrationPhase } from '../src/migration';
import { captureIo, kubernetesSpec, migrationInput, parsedSpec } from './helpers';

const GCP_IPAM = { version: '1.28', clusterName: 'kubernetes', allocateNodeCidrs: true, configureCloudRoutes: true, clusterCIDR: ['10.64.0.0/14'] };

function gcpControlPlane(phase: MigrationPhase): string {
  const section = parsedSpec(kubernetesSpec('GCP', 'c', GCP_IPAM, { migration: { phase, kubernetesVersion: '1.28', nodeIpam: true } })).spec.kubernetes!;
  return controlPlaneMarkdown({ clusterName: 'c', platform: 'GCP', section, migration: migrationInput('GCP', { phase, kubernetesMinor: 28, ccmMinor: 28, nodeIpam: true }), outputPath: 'dist/c' });
}

describe('node IPAM stays with kube-controller-manager until a CCM that runs it takes over', () => {
  test.each(['in-tree', 'leader-migration-kcm', 'leader-migration-ccm'] as const)('GCP with nodeIpam, phase %s: CONTROL-PLANE.md never turns the KCM\'s node IPAM off', (phase) => {
    // GIVEN a GCP cluster moving node IPAM, in a phase where the KCM still runs it (alone, or under the migration lease)
    // WHEN its CONTROL-PLANE.md is written
    const text = gcpControlPlane(phase);
    // THEN nothing tells the KCM to stop allocating node CIDRs
    expect(text).not.toContain('-nodeipam');
    expect(text).not.toContain('--allocate-node-cidrs=false');
    expect(text).toContain(phase === 'leader-migration-ccm'
      ? 'Node IPAM runs under the migration lease: both files list it, and whichever controller manager holds the lease runs it; kube-controller-manager keeps its node IPAM controller and `--allocate-node-cidrs=true` in this phase.'
      : 'Node IPAM stays with kube-controller-manager in this phase (no CCM runs yet): keep its `--allocate-node-cidrs=true` and its `--controllers` list as they are.');
  });

  test.each(['external-leader-migration', 'external'] as const)('GCP with nodeIpam, phase %s: the KCM drops node IPAM and keeps kubeadm\'s bootstrap-token controllers', (phase) => {
    // GIVEN the phases where the CCM runs node IPAM
    // WHEN CONTROL-PLANE.md is written
    const text = gcpControlPlane(phase);
    // THEN the KCM's --controllers keeps bootstrapsigner and tokencleaner, and the "*,-nodeipam" form appears nowhere
    expect(text).toContain('Node IPAM runs in the CCM: kube-controller-manager runs `--controllers=*,bootstrapsigner,tokencleaner,-nodeipam` (below), so only the CCM assigns pod CIDRs.');
    expect(text).toContain('  --controllers=*,bootstrapsigner,tokencleaner,-nodeipam');
    expect(text).toContain('controllers: "*,bootstrapsigner,tokencleaner,-nodeipam"');
    expect(text).not.toContain('*,-nodeipam');
  });

  test('the static-pod form explains --controllers only where the KCM hands node IPAM over', () => {
    // GIVEN GCP with nodeIpam; WHEN the static-pod flags of each phase are printed
    const of = (phase: MigrationPhase) => staticPodFlags(migrationInput('GCP', { phase, kubernetesMinor: 28, ccmMinor: 28, nodeIpam: true }));
    // THEN the in-tree phases have no --controllers line; the external ones name kubeadm's list without node IPAM
    expect(of('leader-migration-kcm')).not.toContain('--controllers');
    expect(of('external')).toContain('--controllers: *,bootstrapsigner,tokencleaner,-nodeipam is kubeadm\'s default list without node IPAM; if yours differs, keep it and append -nodeipam.');
  });

  test('migration control-plane --phase leader-migration-kcm --node-ipam leaves the KCM\'s node IPAM on', () => {
    // GIVEN the CLI for GCP 1.28 with node IPAM moving
    const cap = captureIo();
    // WHEN it prints the static-pod change of leader-migration-kcm
    expect(runCli(['migration', 'control-plane', '--platform', 'GCP', '--phase', 'leader-migration-kcm', '--kubernetes-version', '1.28', '--node-ipam'], cap.io)).toBe(0);
    // THEN no flag turns the KCM's node IPAM off
    expect(cap.stdout()).not.toContain('-nodeipam');
    expect(cap.stdout()).not.toContain('--allocate-node-cidrs=false');
    expect(cap.stdout()).not.toContain('--controllers');
  });
});

test('a cluster that never ran in-tree, with node CIDRs allocated by the CCM, has the KCM drop node IPAM in its flags', () => {
  // GIVEN a GCP cluster without a migration whose CCM allocates node CIDRs
  const section = parsedSpec(kubernetesSpec('GCP', 'c', GCP_IPAM)).spec.kubernetes!;
  // WHEN its CONTROL-PLANE.md is written
  const text = controlPlaneMarkdown({ clusterName: 'c', platform: 'GCP', section, outputPath: 'dist/c' });
  // THEN the KCM's flags carry the --controllers value the note points to
  expect(text).toContain('kube-controller-manager (/etc/kubernetes/manifests/kube-controller-manager.yaml):\n  --cloud-provider=external\n  --controllers=*,bootstrapsigner,tokencleaner,-nodeipam\n');
});
