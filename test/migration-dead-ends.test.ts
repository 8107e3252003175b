/**
 * A migration phase from which no later phase may be rendered is refused: it
 * would leave the cluster where it can go neither forward nor, on OpenShift,
 * through the update that the refusal of the next phase recommends (the
 * leader-migration override keeps the kube-controller-manager operator
 * Upgradeable=False: openshift/library-go@release-4.12
 * pkg/operator/unsupportedconfigoverridescontroller/unsupportedconfigoverrides_controller.go).
 */
import { checkSpec } from '../src/fleet/load';
import { parsedSpec, platformSpec } from './helpers';

function phaseProblems(platform: string, release: string, kubernetesVersion: string, phase: string): string[] {
  const problems = checkSpec(parsedSpec(platformSpec(platform, 'p', { openshift: { release }, migration: { phase, kubernetesVersion } })));
  return problems.filter((p) => p.path.join('.') === 'spec.migration.phase').map((p) => p.message);
}

describe('dead-end phases are refused', () => {
  test.each([
    { platform: 'VSphere', release: '4.12.0', k8s: '1.25', next: '4.13' },
    { platform: 'OpenStack', release: '4.11.0', k8s: '1.24', next: '4.12' },
  ])(
    'GIVEN $platform at $release WHEN leader-migration-kcm is checked THEN it is refused: every later phase is, and its override blocks the update to $next',
    ({ platform, release, k8s, next }) => {
      expect(phaseProblems(platform, release, k8s, 'leader-migration-kcm')).toEqual([
        `"leader-migration-kcm" leads nowhere on OpenShift ${release.slice(0, 4)}: every later phase deploys the cloud controller manager, which is refused on this release ` +
          `(its operator renders other ${platform} operands than ccm-gitops renders), and the leader-migration override keeps the kube-controller-manager operator Upgradeable=False, ` +
          `which blocks the update to OpenShift ${next} that moves ${platform} to its CCM; set phase to "in-tree" (or remove spec.migration) and update the cluster to ${next}`,
      ]);
    },
  );

  test.each([
    ['AWS', '4.13.0', '1.26'],
    ['GCP', '4.11.0', '1.24'],
  ])('GIVEN %s at %s WHEN leader-migration-kcm is checked THEN it is accepted: its CCM phases render', (platform, release, k8s) => {
    expect(phaseProblems(platform, release, k8s, 'leader-migration-kcm')).toEqual([]);
  });

  test('GIVEN vSphere at 4.12.0 WHEN in-tree is checked THEN it is accepted: it changes nothing yet', () => {
    expect(phaseProblems('VSphere', '4.12.0', '1.25', 'in-tree')).toEqual([]);
  });
});
