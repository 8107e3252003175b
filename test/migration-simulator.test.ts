/**
 * The leader-migration protocol simulator (test/oracle/leader-migration/)
 * against the phase changes ccm-gitops plans: every interleaving of lease
 * acquisitions, one-by-one restarts, CCM rollouts and leader failovers, for
 * 3 KCMs and 2 CCMs.
 */
import { MigrationInput, phaseSequence, adjacentTransitions } from '../src/migration';
import { migrationProblems, StepContext, transitionSteps } from '../src/fleet/migration-targets';
import { MIGRATION_SUPPORT } from '../src/migration/support';
import { formatViolation, simulate, SimScenario } from './oracle/leader-migration/simulator';
import { kubernetesCcmBase, OPENSHIFT_CCM_BASE, upstreamCcmControllers } from './oracle/leader-migration/scenario';
import { planScenario } from './helpers/plan-scenario';

/** A v1 LeaderMigrationConfiguration naming one owner for the six controller names (what the 2019-draft design wrote for both sides). */
function sharedFile(component: string): string {
  const names = ['route', 'service', 'cloud-node-lifecycle', 'node-route-controller', 'service-lb-controller', 'cloud-node-lifecycle-controller'];
  return (
    [
      'apiVersion: controllermanager.config.k8s.io/v1',
      'kind: LeaderMigrationConfiguration',
      'leaderName: cloud-provider-extraction-migration',
      'controllerLeaders:',
      ...names.flatMap((n) => [`  - name: ${n}`, `    component: ${component}`]),
    ].join('\n') + '\n'
  );
}

const OLD_CCM_LM = [
  '--configure-cloud-routes=false',
  '--leader-elect=true',
  '--leader-elect-resource-namespace=kube-system',
  '--enable-leader-migration',
  '--leader-migration-config=/etc/leader-migration/config.yaml',
];
const OLD_KCM_LM = [
  '--cloud-provider=aws',
  '--leader-elect=true',
  '--leader-elect-resource-namespace=kube-system',
  '--enable-leader-migration',
  '--leader-migration-config=/etc/kubernetes/static-pod-certs/leader-migration/config.yaml',
];

describe('regression fixture: the shared-configuration design (ccm-gitops before leader migration; the 2019 draft KEP)', () => {
  // GIVEN what the previous design rendered for OpenShift AWS 4.13 (1.26): one file, naming the phase's owner, read by both sides
  test('in-tree → leader-migration-kcm: GitOps starts the CCM first, it takes the free migration lease and runs nothing; the KCM waits forever', () => {
    const scenario: SimScenario = {
      kcmMinor: 26,
      ccmMinor: 26,
      kcmBaseFlags: ['--allocate-node-cidrs=false'],
      ccmStrategy: 'Recreate',
      kcm: { flags: ['--cloud-provider=aws'] },
      steps: [
        {
          label: 'merge: CCM with the shared file (component kube-controller-manager)',
          ccm: { flags: OLD_CCM_LM, file: sharedFile('kube-controller-manager') },
        },
        { label: 'after merge: KCM override enables leader migration', kcm: { flags: OLD_KCM_LM, file: sharedFile('kube-controller-manager') } },
      ],
    };
    // WHEN every interleaving is explored
    const result = simulate(scenario);
    // THEN the simulator reports the gap: once settled, a CCM may hold the lease and the service controller runs nowhere
    expect(result.violations.map((v) => `${v.kind} ${v.controller}`)).toEqual([
      'none-after-settling service',
      'none-after-settling cloud-node-lifecycle',
    ]);
    expect(formatViolation(result.violations[0])).toContain('ccm0 acquires kube-system/cloud-provider-extraction-migration');
  });

  test('leader-migration-kcm → leader-migration-ccm: a KCM with the flipped file holding the lease runs nothing while the CCM waits', () => {
    const scenario: SimScenario = {
      kcmMinor: 26,
      ccmMinor: 26,
      kcmBaseFlags: ['--allocate-node-cidrs=false'],
      ccmStrategy: 'Recreate',
      kcm: { flags: OLD_KCM_LM, file: sharedFile('kube-controller-manager') },
      ccm: { flags: OLD_CCM_LM, file: sharedFile('kube-controller-manager') },
      steps: [
        {
          label: 'merge: both files flip to cloud-controller-manager (CCM ConfigMap, then the MachineConfig reboots masters one by one)',
          ccm: { flags: OLD_CCM_LM, file: sharedFile('cloud-controller-manager') },
          kcm: { flags: OLD_KCM_LM, file: sharedFile('cloud-controller-manager') },
        },
      ],
    };
    const result = simulate(scenario);
    expect(result.violations.map((v) => v.kind)).toContain('none-after-settling');
  });

  test('a KCM main lease moved by --leader-elect-resource-namespace during the roll elects two KCM leaders', () => {
    // GIVEN the KCMs elect in kube-system and the rendered flags move them to another namespace one by one
    const scenario: SimScenario = {
      kcmMinor: 26,
      ccmMinor: 26,
      kcmBaseFlags: [],
      ccmStrategy: 'Recreate',
      kcm: { flags: ['--cloud-provider=aws'] },
      steps: [
        {
          label: 'KCMs get --leader-elect-resource-namespace=cloud-migration',
          kcm: { flags: ['--cloud-provider=aws', '--leader-elect-resource-namespace=cloud-migration'] },
        },
      ],
    };
    expect(simulate(scenario).violations.map((v) => `${v.kind} ${v.controller}`)).toEqual([
      'two-at-once service',
      'two-at-once cloud-node-lifecycle',
    ]);
  });

  test('a KCM main lease renamed by --leader-elect-resource-name during the roll elects two KCM leaders: the binary reads the name', () => {
    // GIVEN the KCMs elect under kube-controller-manager and the new flags rename their main lease one by one
    const scenario: SimScenario = {
      kcmMinor: 26,
      ccmMinor: 26,
      kcmBaseFlags: [],
      ccmStrategy: 'Recreate',
      kcm: { flags: ['--cloud-provider=aws'] },
      steps: [
        { label: 'KCMs get --leader-elect-resource-name=other', kcm: { flags: ['--cloud-provider=aws', '--leader-elect-resource-name=other'] } },
      ],
    };
    // WHEN simulated THEN an old and a new KCM lead at once, each under its own main lease
    expect(simulate(scenario).violations.map((v) => `${v.kind} ${v.controller}`)).toEqual([
      'two-at-once service',
      'two-at-once cloud-node-lifecycle',
    ]);
  });
});

/** Every platform with an in-tree provider, each distribution, each accepted version and option. */
function matrix(): { name: string; scenario: SimScenario }[] {
  const out: { name: string; scenario: SimScenario }[] = [];
  for (const [platform, supportOf] of Object.entries(MIGRATION_SUPPORT)) {
    const support = supportOf({ spec: { platform } } as never);
    if (!support) {
      continue;
    }
    for (const distribution of ['openshift', 'kubernetes']) {
      for (let minor = 21; minor <= support.lastInTreeMinor; minor++) {
        for (const nodeIpam of distribution === 'kubernetes' ? [false, true] : [false]) {
          for (const wildcard of [false, true]) {
            for (const ccmMinor of distribution === 'kubernetes' ? [minor - 1, minor] : [minor]) {
              const sequence = phaseSequence(support);
              const input: MigrationInput = {
                platform,
                support,
                phase: sequence[0],
                kubernetesMinor: minor,
                ccmMinor,
                leaderName: 'cloud-provider-extraction-migration',
                leaseNamespace: 'kube-system',
                nodeIpam,
                inTreeVolumes: true,
                wildcard,
                leaderElect: true,
                ...(distribution === 'openshift' ? { kcmConfigPath: '/etc/kubernetes/static-pod-certs/leader-migration/config.yaml' } : {}),
              };
              const accepted = sequence.every(
                (phase) =>
                  migrationProblems({
                    ...input,
                    phase,
                    distribution,
                    managementMode: 'gitops',
                    enabledFeatureGates: [],
                  }).length === 0,
              );
              if (!accepted) {
                continue;
              }
              const ctx: StepContext = {
                distribution,
                ccm: { namespace: 'kube-system', serviceAccount: 'cloud-controller-manager', workload: 'deployment/ccm' },
                featureGates: distribution === 'openshift' ? support.openshiftFeatureGates : [],
                featureSet: 'CustomNoUpgrade',
                ...(distribution === 'openshift' ? { machineConfig: '99-master-kcm-leader-migration' } : {}),
              };
              for (const [from, to] of adjacentTransitions(sequence)) {
                const irreversible =
                  distribution === 'openshift' &&
                  ((from === 'external-leader-migration' && to === 'leader-migration-ccm') || (from === 'external' && to === 'in-tree'));
                if (irreversible) {
                  continue;
                }
                out.push({
                  name: `${platform} ${distribution} 1.${minor} ccm 1.${ccmMinor}${nodeIpam ? ' nodeIpam' : ''}${wildcard ? ' wildcard' : ''}: ${from} → ${to}`,
                  scenario: planScenario(input, ctx, from, to, {
                    ccmBase:
                      distribution === 'openshift'
                        ? OPENSHIFT_CCM_BASE
                        : kubernetesCcmBase({ configureCloudRoutes: nodeIpam, allocateNodeCidrs: nodeIpam }),
                    kcmBaseFlags: nodeIpam
                      ? ['--allocate-node-cidrs=true', '--configure-cloud-routes=true', '--cluster-cidr=10.64.0.0/14']
                      : ['--allocate-node-cidrs=false'],
                    ccmStrategy: distribution === 'openshift' ? 'Recreate' : 'RollingUpdate',
                    // the kubernetes CCM runs what its upstream binary registers; the cluster needs node IPAM where the KCM allocated CIDRs
                    ...(distribution === 'kubernetes'
                      ? { ccmControllers: upstreamCcmControllers(platform), required: nodeIpam ? ['node-ipam' as const] : [] }
                      : {}),
                  }),
                });
              }
            }
          }
        }
      }
    }
  }
  return out;
}

describe('the per-side design passes the simulator on every platform, version and phase change, forward and back', () => {
  const cases = matrix();
  const cache = new Map<string, string[]>();

  test('the matrix covers every platform with an in-tree provider, both distributions and both directions', () => {
    const names = cases.map((c) => c.name);
    for (const p of ['AWS', 'Azure', 'GCP', 'OpenStack', 'VSphere']) {
      expect(names.some((n) => n.startsWith(`${p} kubernetes`))).toBe(true);
    }
    // OpenShift OpenStack and vSphere migrate by the update alone: every leader-migration phase is refused on their in-tree releases
    for (const p of ['AWS', 'Azure', 'GCP']) {
      expect(names.some((n) => n.startsWith(`${p} openshift`))).toBe(true);
    }
    for (const p of ['OpenStack', 'VSphere']) {
      expect(names.some((n) => n.startsWith(`${p} openshift`))).toBe(false);
    }
    expect(names.some((n) => n.endsWith('leader-migration-ccm → leader-migration-kcm'))).toBe(true);
    expect(names.some((n) => n.endsWith('external → external-leader-migration'))).toBe(true);
  });

  test.each(cases.map((c) => [c.name, c.scenario] as const))('%s', (_name, scenario) => {
    // GIVEN the plan's steps and the rendered configurations; WHEN every interleaving is explored
    const k = JSON.stringify(scenario);
    let found = cache.get(k);
    if (!found) {
      const r = simulate(scenario);
      found = r.violations.map(formatViolation);
      cache.set(k, found);
    }
    // THEN no migrated controller ever runs twice, and each runs exactly once when the change settles
    expect(found).toEqual([]);
  });
});

describe('the simulator catches each broken order or configuration (it can fail)', () => {
  const kcmLm = (file: string, provider = 'aws') => ({
    flags: [
      `--cloud-provider=${provider}`,
      '--leader-elect=true',
      '--enable-leader-migration',
      '--leader-migration-config=/etc/kubernetes/leader-migration.yaml',
    ],
    file,
  });
  const ccmLm = (file: string) => ({
    flags: [
      '--configure-cloud-routes=false',
      '--leader-elect=true',
      '--enable-leader-migration',
      '--leader-migration-config=/etc/leader-migration/config.yaml',
    ],
    file,
  });
  const base = { kcmMinor: 26, ccmMinor: 26, kcmBaseFlags: ['--allocate-node-cidrs=false'], ccmStrategy: 'Recreate' as const };

  test('the CCM with its own file deployed before the KCMs run leader migration: two at once', () => {
    const r = simulate({
      ...base,
      kcm: { flags: ['--cloud-provider=aws'] },
      steps: [
        { label: 'CCM first', ccm: ccmLm(sharedFile('cloud-controller-manager')) },
        { label: 'then KCMs', kcm: kcmLm(sharedFile('kube-controller-manager')) },
      ],
    });
    expect(r.violations.map((v) => `${v.kind} ${v.controller}`)).toEqual(['two-at-once service', 'two-at-once cloud-node-lifecycle']);
  });

  test('KCMs switched to external but still running leader migration: once settled a KCM may hold the lease and nothing runs', () => {
    const r = simulate({
      ...base,
      kcm: kcmLm(sharedFile('kube-controller-manager')),
      ccm: ccmLm(sharedFile('cloud-controller-manager')),
      steps: [
        {
          label: 'KCM external, leader migration kept',
          kcm: {
            ...kcmLm(sharedFile('kube-controller-manager')),
            flags: ['--cloud-provider=external', '--leader-elect=true', '--enable-leader-migration', '--leader-migration-config=/x'],
          },
        },
      ],
    });
    expect(r.violations.map((v) => `${v.kind} ${v.controller}`)).toEqual(['none-after-settling service', 'none-after-settling cloud-node-lifecycle']);
  });

  test('a 1.28 KCM whose file lists only the ≤1.27 names runs the controllers under its main lease as well: two at once', () => {
    const oldNames = [
      'apiVersion: controllermanager.config.k8s.io/v1',
      'kind: LeaderMigrationConfiguration',
      'leaderName: cloud-provider-extraction-migration',
      'controllerLeaders:',
      ...['route', 'service', 'cloud-node-lifecycle'].flatMap((n) => [`  - name: ${n}`, '    component: "*"']),
    ].join('\n');
    const r = simulate({ ...base, kcmMinor: 28, ccmMinor: 28, kcm: kcmLm(oldNames), steps: [{ label: 'CCM', ccm: ccmLm(oldNames) }] });
    expect(r.violations.map((v) => v.kind)).toContain('two-at-once');
  });

  test('OpenShift: removing the override before the FeatureGate puts a KCM without leader migration next to the CCM: two at once', () => {
    const r = simulate({
      ...base,
      kcm: kcmLm(sharedFile('kube-controller-manager')),
      ccm: ccmLm(sharedFile('cloud-controller-manager')),
      steps: [
        { label: 'override removed first', kcm: { flags: ['--cloud-provider=aws'] } },
        { label: 'FeatureGate', kcm: { flags: ['--cloud-provider=external'] } },
      ],
    });
    expect(r.violations.map((v) => v.kind)).toContain('two-at-once');
  });

  test('no leader migration (Azure): deploying the CCM before the KCMs are external: two at once', () => {
    const r = simulate({
      ...base,
      kcm: { flags: ['--cloud-provider=azure'] },
      steps: [
        { label: 'CCM', ccm: { flags: ['--leader-elect=true'] } },
        { label: 'KCM external', kcm: { flags: ['--cloud-provider=external'] } },
      ],
    });
    expect(r.violations.map((v) => `${v.kind} ${v.controller}`)).toContain('two-at-once service');
  });

  test('the route controller handed to a CCM with --configure-cloud-routes=false while the KCM programmed routes: runs nowhere', () => {
    const r = simulate({
      ...base,
      kcmBaseFlags: ['--allocate-node-cidrs=true', '--configure-cloud-routes=true', '--cluster-cidr=10.64.0.0/14'],
      kcm: { flags: ['--cloud-provider=gce', '--controllers=*,bootstrapsigner,tokencleaner,-nodeipam'] },
      steps: [
        { label: 'KCM external', kcm: { flags: ['--cloud-provider=external', '--controllers=*,bootstrapsigner,tokencleaner,-nodeipam'] } },
        { label: 'CCM', ccm: { flags: ['--configure-cloud-routes=false', '--leader-elect=true'] } },
      ],
    });
    expect(r.violations.map((v) => `${v.kind} ${v.controller}`)).toEqual(['none-after-settling route']);
  });

  test('a rolling CCM update that changes its lease namespace elects two CCM leaders', () => {
    const r = simulate({
      ...base,
      ccmStrategy: 'RollingUpdate',
      kcm: { flags: ['--cloud-provider=external'] },
      ccm: { flags: ['--leader-elect=true', '--leader-elect-resource-namespace=kube-system'] },
      steps: [{ label: 'CCM back to its own namespace', ccm: { flags: ['--leader-elect=true', '--leader-elect-resource-namespace=ccm'] } }],
    });
    expect(r.violations.map((v) => `${v.kind} ${v.controller}`)).toContain('two-at-once service');
  });

  test('the exploration is exhaustive, not trivial: a leader-migration phase change visits hundreds of distinct states (after symmetry reduction)', () => {
    const c = matrix().find((m) => m.name === 'AWS kubernetes 1.26 ccm 1.26: leader-migration-ccm → external-leader-migration')!;
    expect(simulate(c.scenario).states).toBeGreaterThan(300);
  });
});

describe("the plan gives the simulator's assumption a check", () => {
  test('every step that restarts the KCMs or applies the CCM has a check that its rollout completed, so the next step waits for it', () => {
    // GIVEN the plan's steps of every phase change the matrix explores
    const missing: string[] = [];
    for (const [platform, distribution] of [
      ['AWS', 'openshift'],
      ['AWS', 'kubernetes'],
      ['Azure', 'openshift'],
      ['Azure', 'kubernetes'],
    ] as const) {
      const support = MIGRATION_SUPPORT[platform]!({ spec: { platform } } as never)!;
      const base: MigrationInput = {
        platform,
        support,
        phase: 'in-tree',
        kubernetesMinor: 26,
        ccmMinor: 26,
        leaderName: 'cloud-provider-extraction-migration',
        leaseNamespace: 'kube-system',
        nodeIpam: false,
        inTreeVolumes: true,
        wildcard: false,
        leaderElect: true,
      };
      const ctx: StepContext = {
        distribution,
        ccm: { namespace: 'kube-system', serviceAccount: 'cloud-controller-manager', workload: 'deployment/ccm' },
        featureGates: ['ExternalCloudProvider'],
        featureSet: 'CustomNoUpgrade',
        machineConfig: 'mc',
      };
      for (const [from, to] of adjacentTransitions(phaseSequence(support))) {
        // WHEN the steps are listed
        const steps = transitionSteps({ ...base, phase: to }, ctx, from, to).steps;
        for (const [i, step] of steps.entries()) {
          // THEN a KCM roll is confirmed on every instance, a CCM change by its rollout or removal; a KCM roll the next
          // step supersedes at once (the revision check only: the operator rolls every node to the latest revision) is not waited for
          const superseded = steps[i + 1]?.kcm !== undefined && step.checks.some((c) => /newest kube-controller-manager revision/.test(c.check));
          if (step.kcm && !superseded && !step.checks.some((c) => /every kube-controller-manager/.test(c.check))) {
            missing.push(`${platform} ${distribution} ${from} → ${to}: ${step.action}`);
          }
          if (step.ccm && !step.checks.some((c) => /CCM is rolled out|no CCM pod is left/.test(c.check))) {
            missing.push(`${platform} ${distribution} ${from} → ${to}: ${step.action}`);
          }
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
