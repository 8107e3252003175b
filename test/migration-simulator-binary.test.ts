/**
 * The simulator reads `--controllers` and `--feature-gates` as the binaries do
 * (k8s.io/cloud-provider@v0.28.0, k8s.io/component-base@v0.31.0; see the rules in
 * test/oracle/leader-migration/simulator.ts).
 */
import { Controller, controllerEnabled, lockedGateRefused, simulate, SimScenario } from './oracle/leader-migration/simulator';

describe('--controllers as the binary reads it', () => {
  test.each([
    // the old names are aliases of the canonical ones from 1.28
    ['service', 28, '*,-service', false],
    ['service', 28, '*,-service-lb-controller', false],
    ['node-ipam', 28, '-nodeipam,*', false],
    ['node-ipam', 27, '*,-nodeipam', false],
    // the first entry naming the controller decides
    ['service', 28, 'service,-service-lb-controller', true],
    // without `*`, only what is named runs
    ['route', 28, 'service', false],
    ['route', 28, '*', true],
    ['cloud-node-lifecycle', 26, 'cloud-node-lifecycle', true],
  ] as [Controller, number, string, boolean][])('%s at 1.%d with --controllers=%s: on is %s', (c, minor, value, on) => {
    // GIVEN a controller, a minor and a --controllers value WHEN the binary reads it THEN the controller is on or off
    expect(controllerEnabled(c, minor, value)).toBe(on);
  });

  test('a CCM started with --controllers=*,-service leaves the service controller to nobody once the KCMs are external', () => {
    // GIVEN external KCMs and a CCM that turns the service controller off by its old name at 1.28
    const sc: SimScenario = {
      kcmMinor: 28,
      ccmMinor: 28,
      kcmBaseFlags: ['--allocate-node-cidrs=false'],
      kcm: { flags: ['--cloud-provider=external'] },
      ccm: { flags: ['--configure-cloud-routes=false', '--controllers=*,-service'] },
      ccmStrategy: 'RollingUpdate',
      required: ['service', 'cloud-node-lifecycle'],
      steps: [],
    };
    // WHEN it runs THEN the service controller runs nowhere, the node lifecycle controller in the CCM
    expect(simulate(sc).violations.map((v) => `${v.kind} ${v.controller}`)).toEqual(['none-after-settling service']);
  });
});

describe('a locked feature gate set to another value stops the binary', () => {
  test.each([
    ['DisableCloudProviders=false', 30, false],
    ['DisableCloudProviders=false', 31, true],
    ['Foo=true,DisableKubeletCloudCredentialProviders=false', 32, true],
    ['DisableCloudProviders=true', 31, false],
    ['', 31, false],
  ] as [string, number, boolean][])('--feature-gates=%s at 1.%d: refused is %s', (gates, minor, refused) => {
    expect(lockedGateRefused(gates, minor)).toBe(refused);
  });

  test.each([
    [30, ['kube-system/kube-controller-manager']],
    [31, []],
  ])('an external KCM keeping --feature-gates=DisableCloudProviders=false at 1.%d holds %j', (minor, leases) => {
    // GIVEN an external KCM whose gate an earlier phase set, and a CCM that runs every cloud controller
    const sc: SimScenario = {
      kcmMinor: minor,
      ccmMinor: minor,
      kcmBaseFlags: ['--allocate-node-cidrs=false'],
      kcm: { flags: ['--cloud-provider=external', '--feature-gates=DisableCloudProviders=false'] },
      ccm: { flags: ['--configure-cloud-routes=false'] },
      ccmStrategy: 'RollingUpdate',
      steps: [],
    };
    // WHEN it starts THEN at 1.31 it exits at start-up and never holds its lease
    expect([...simulate(sc).settled.leases['kube-controller-manager']]).toEqual(leases);
  });
});
