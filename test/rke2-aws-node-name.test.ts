/**
 * RKE2 on AWS names a node after its EC2 metadata hostname only while
 * `cloud-provider-name: aws` is set; the change that removes it pins
 * `node-name` on servers and agents, or every node re-registers under its OS hostname.
 */
import { parse } from 'yaml';
import { rancherConfig } from '../src/kubernetes/migration/control-plane';
import { MigrationPhase } from '../src/migration';
import { migrationInput } from './helpers';

const aws = (phase: MigrationPhase) => migrationInput('AWS', { phase, kubernetesMinor: 26, ccmMinor: 26 });
const PIN =
  '# AWS: cloud-provider-name: aws named each node after its EC2 metadata hostname; in this same change set node-name on every server AND agent ' +
  "to that node's current name (kubectl get nodes; the instance's private DNS name), or the node re-registers under its OS hostname as a new Node.";

describe('RKE2 on AWS keeps its node names when cloud-provider-name goes', () => {
  test.each(['external-leader-migration', 'external'] as const)(
    'GIVEN AWS on RKE2, phase %s WHEN its config is printed THEN node-name is pinned in the same change',
    (phase) => {
      // GIVEN/WHEN the RKE2 server config of an external phase on AWS
      const text = rancherConfig(aws(phase), 'rke2')!;
      // THEN the removal of cloud-provider-name comes with the node-name pin, for servers and agents
      expect(text).toContain('cloud-provider-name');
      expect(text).toContain(PIN);
    },
  );

  test('GIVEN AWS on RKE2 in leader-migration-ccm WHEN its config is printed THEN nothing is pinned yet', () => {
    expect(rancherConfig(aws('leader-migration-ccm'), 'rke2')).not.toContain('node-name');
  });

  test('GIVEN GCP on RKE2 going external WHEN its config is printed THEN no pin is asked for (the in-tree GCE provider does not rename nodes in RKE2)', () => {
    const text = rancherConfig(migrationInput('GCP', { phase: 'external-leader-migration', kubernetesMinor: 28, ccmMinor: 28 }), 'rke2')!;
    expect(text).not.toContain('node-name');
    expect(parse(text)).not.toHaveProperty('node-name');
  });
});
