/**
 * The simulator starts an RKE2 or k3s kube-controller-manager as the
 * distribution does: its own flags first, the server configuration's
 * `kube-controller-manager-arg` over them (test/oracle/leader-migration/trees.ts `rancherKcm`).
 */
import { controlPlaneKcm, rancherKcm } from './oracle/leader-migration/trees';

describe('RKE2 and k3s start the KCM with their own flags', () => {
  test('GIVEN k3s with its embedded CCM WHEN started THEN node CIDRs are allocated from 10.42.0.0/16 and the cloud controllers are left to that CCM', () => {
    expect(rancherKcm({}, 'k3s')).toEqual([
      '--allocate-node-cidrs=true',
      '--cluster-cidr=10.42.0.0/16',
      '--configure-cloud-routes=false',
      '--controllers=*,-service,-route,-cloud-node-lifecycle',
    ]);
  });

  test('GIVEN k3s with disable-cloud-controller, a cluster-cidr and extra args WHEN started THEN the extra args replace the defaults by name', () => {
    const doc = {
      'disable-cloud-controller': true,
      'cluster-cidr': '10.100.0.0/16',
      'kube-controller-manager-arg': ['cloud-provider=external', 'allocate-node-cidrs=false', 'enable-leader-migration'],
    };
    expect(rancherKcm(doc, 'k3s')).toEqual([
      '--allocate-node-cidrs=false',
      '--cluster-cidr=10.100.0.0/16',
      '--cloud-provider=external',
      '--enable-leader-migration=true',
    ]);
  });

  test('GIVEN RKE2 with cloud-provider-name WHEN started THEN the provider comes first and its embedded CCM is off, so routes stay on', () => {
    expect(rancherKcm({ 'cloud-provider-name': 'aws', 'kube-controller-manager-arg': ['leader-elect=true'] }, 'rke2')).toEqual([
      '--cloud-provider=aws',
      '--cloud-config=',
      '--allocate-node-cidrs=true',
      '--cluster-cidr=10.42.0.0/16',
      '--leader-elect=true',
    ]);
  });

  test('GIVEN RKE2 without cloud-provider-name nor disable-cloud-controller WHEN started THEN its embedded CCM keeps service, route and node lifecycle', () => {
    expect(rancherKcm({ 'kube-controller-manager-arg': ['cloud-provider=external'] }, 'rke2')).toEqual([
      '--allocate-node-cidrs=true',
      '--cluster-cidr=10.42.0.0/16',
      '--configure-cloud-routes=false',
      '--controllers=*,-service,-route,-cloud-node-lifecycle',
      '--cloud-provider=external',
    ]);
  });

  test('GIVEN a k3s section writing the leader-migration file where the flag points WHEN read THEN the in-process KCM reads it without a mount', () => {
    const text = [
      '## k3s',
      '',
      '```yaml',
      '# Write this file to /etc/kubernetes/lm.yaml on every server before it restarts:',
      '#   kind: LeaderMigrationConfiguration',
      'disable-cloud-controller: true',
      'kube-controller-manager-arg:',
      '  - enable-leader-migration',
      '  - leader-migration-config=/etc/kubernetes/lm.yaml',
      '```',
      '',
    ].join('\n');
    expect(controlPlaneKcm(text).file).toBe('kind: LeaderMigrationConfiguration\n');
    // AND the same section as RKE2 without a kube-controller-manager-extra-mount leaves the static pod without it
    expect(controlPlaneKcm(text.replace('## k3s', '## RKE2')).file).toBeUndefined();
  });
});
