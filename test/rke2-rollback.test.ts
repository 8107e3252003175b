/**
 * An RKE2 server configuration is merged into the existing keys, so a phase
 * that goes back to the in-tree provider must say which entries the external
 * phase added are removed: a kubelet left with `cloud-provider=external` next
 * to `cloud-provider-name` waits for a CCM that is gone.
 */
import { rancherConfig } from '../src/kubernetes/migration/control-plane';
import { MigrationPhase } from '../src/migration';
import { migrationInput } from './helpers';

const removals = (phase: MigrationPhase) =>
  /^# Remove if present: (.*)\.$/m.exec(rancherConfig(migrationInput('AWS', { phase, kubernetesMinor: 26, ccmMinor: 26 }), 'rke2')!)?.[1] ?? '';

describe('RKE2 rollback removes what the external phases added', () => {
  test.each(['leader-migration-ccm', 'leader-migration-kcm', 'in-tree'] as const)(
    'GIVEN AWS on RKE2 back in phase %s WHEN its config is printed THEN the external kubelet and KCM arguments are removed',
    (phase) => {
      // GIVEN/WHEN the server config of a phase a rollback from external-leader-migration reaches
      // THEN it removes the kubelet-arg and kube-controller-manager-arg entries the external phases set
      expect(removals(phase)).toContain(
        'the kubelet-arg entry cloud-provider=external; the kube-controller-manager-arg entries cloud-provider=external, external-cloud-volume-plugin and cloud-config (RKE2 passes cloud-provider-name and cloud-provider-config itself)',
      );
    },
  );

  test('GIVEN AWS on RKE2 in external WHEN its config is printed THEN it does not remove its own kubelet argument', () => {
    expect(removals('external')).not.toContain('the kubelet-arg entry cloud-provider=external');
  });
});
