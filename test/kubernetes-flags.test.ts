import { UPSTREAM_PROVIDERS } from '../src/kubernetes/providers';
import { flagTable, flagTableFor, flagTableTags } from '../src/kubernetes/flags';
import { CLOUD_PROVIDER_FLAGS } from '../src/kubernetes/flags/cloud-provider.data';
import { BINARY_FLAGS } from '../src/kubernetes/flags/binaries.data';
import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'yaml';
import { loadFleet } from '../src/fleet/load';
import { fleetProblems, kubernetesSpec, useTempDir, writeFile } from './helpers';

/** The images the examples pin, by tag (clusters/kubernetes/defaults.yaml). */
const PINNED: Record<string, string> = parse(fs.readFileSync(path.resolve(__dirname, '..', 'clusters', 'kubernetes', 'defaults.yaml'), 'utf8')).spec
  .images;
const tagOf = (key: string) => PINNED[key].split(':').pop();

describe('kubernetes flags: the flag set of each binary at its pinned tag', () => {
  test('every provider but Alibaba (its own list) has a table at the tag the examples pin, and the Azure cloud-node-manager too', () => {
    // GIVEN the providers of src/kubernetes/providers.ts
    const missing = Object.values(UPSTREAM_PROVIDERS)
      .filter((p) => !p.knownFlags && !flagTable(`${p.name}@${tagOf(p.imageKey)}`))
      .map((p) => p.name);
    // THEN each binary's set was read at the pinned tag
    expect(missing).toEqual([]);
    expect(flagTable(`azure-cloud-node-manager@${tagOf('cloudNodeManagerAzure')}`)).toBeDefined();
  });

  test('every base of a binary is a k8s.io/cloud-provider version that was read, and every table cites its sources pinned', () => {
    expect(Object.values(BINARY_FLAGS).filter((b) => b.base && !CLOUD_PROVIDER_FLAGS[b.base]).length).toBe(0);
    for (const key of Object.keys(BINARY_FLAGS)) {
      const t = flagTable(key)!;
      expect(t.sources.length).toBeGreaterThan(0);
      expect(t.sources.filter((s) => !/^[\w.-]+\/[\w.-]+@[\w./-]+ \S/.test(s))).toEqual([]);
    }
  });

  test("flags added per minor follow the tag: webhooks from k8s.io/cloud-provider 1.27 on, klog's file flags gone with 1.26", () => {
    // GIVEN the two OpenStack tags read (go.mod k8s.io/cloud-provider v0.25.10 and v0.36.0)
    expect(flagTableTags('openstack').sort()).toEqual(['v1.25.6', 'v1.36.0']);
    const old = flagTable('openstack@v1.25.6')!.flags;
    const cur = flagTable('openstack@v1.36.0')!.flags;
    // THEN each has the flags of its own library version
    expect([old.includes('webhook-secure-port'), cur.includes('webhook-secure-port')]).toEqual([false, true]);
    expect([old.includes('log_dir'), cur.includes('log_dir')]).toEqual([true, false]);
    expect([old.includes('user-agent'), cur.includes('user-agent')]).toEqual([true, true]);
  });

  test('a binary with its own command has its own set: vSphere without the logging-format flags, the Azure cloud-node-manager without leader election', () => {
    expect(flagTable('vsphere@v1.36.0')!.flags).toEqual(expect.arrayContaining(['node-labels', 'is-legacy-paravirtual', 'v', 'vmodule']));
    expect(flagTable('vsphere@v1.36.0')!.flags).not.toContain('logging-format');
    expect(flagTable('azure-cloud-node-manager@v1.33.2')!.flags).toEqual(
      expect.arrayContaining(['node-name', 'wait-routes', 'use-instance-metadata']),
    );
    expect(flagTable('azure-cloud-node-manager@v1.33.2')!.flags).not.toContain('leader-elect');
  });

  test('a digest-only pin uses the one tag read; a tag that was not read is not checked', () => {
    expect(flagTableFor('aws', undefined)?.key).toBe('aws@v1.35.0');
    expect(flagTableFor('openstack', undefined)).toBeUndefined();
    expect(flagTableFor('aws', 'v1.99.0')).toBeUndefined();
  });
});

describe('kubernetes flags: extraArgs the binary does not know are refused', () => {
  const dir = useTempDir();
  const images = (overrides: Record<string, string> = {}) => ({ ...PINNED, ...overrides });

  test.each([
    [
      'AWS: a misspelt flag names the closest known ones',
      kubernetesSpec('AWS', 'k', { version: '1.35', extraArgs: { 'node-monitor-priod': '5s', tags: 'team=a' } }, {}, images()),
      [
        'c.yaml:22: spec.kubernetes.extraArgs.node-monitor-priod: is not a flag of the AWS CCM at v1.35.0, which exits on an unknown flag; closest known flags: node-monitor-period (83 known)',
      ],
    ],
    [
      'OpenStack v1.25.6: a flag its k8s.io/cloud-provider (v0.25.10) does not have yet',
      kubernetesSpec(
        'OpenStack',
        'k',
        { extraArgs: { 'webhook-secure-port': 0 } },
        {},
        images({ cloudControllerManagerOpenStack: 'registry.k8s.io/provider-os/openstack-cloud-controller-manager:v1.25.6' }),
      ),
      [
        'c.yaml:22: spec.kubernetes.extraArgs.webhook-secure-port: is not a flag of the OpenStack CCM at v1.25.6, which exits on an unknown flag; closest known flags: authentication-token-webhook-cache-ttl, authorization-webhook-cache-authorized-ttl, authorization-webhook-cache-unauthorized-ttl, permit-port-sharing, secure-port (77 known)',
      ],
    ],
    [
      'Azure cloud-node-manager: its own extraArgs against its own binary',
      kubernetesSpec('Azure', 'k', { cloudNodeManager: { extraArgs: { 'wait-route': true, 'node-name': 'x' } } }, {}, images()),
      [
        'c.yaml:23: spec.kubernetes.cloudNodeManager.extraArgs.wait-route: is not a flag of the Azure cloud-node-manager at v1.33.2, which exits on an unknown flag; closest known flags: wait-routes (44 known)',
      ],
    ],
  ])('%s', (_name, spec, expected) => {
    // GIVEN a spec whose extraArgs name a flag the binary at the pinned tag does not register
    writeFile(dir(), 'c.yaml', spec);
    // THEN one error names the file, the field, the flag and the known flags nearest to it
    expect(fleetProblems(dir())).toEqual(expected);
  });

  test.each([
    [
      'OpenStack v1.36.0 takes the webhook flags',
      kubernetesSpec('OpenStack', 'k', { extraArgs: { 'webhook-secure-port': 0, 'user-agent': 'corp' } }, {}, images()),
    ],
    [
      'GCP takes its provider flags',
      kubernetesSpec('GCP', 'k', { extraArgs: { 'enable-multi-project': true, 'cidr-allocator-type': 'CloudAllocator' } }, {}, images()),
    ],
    [
      'a tag whose flag set was not read is not checked',
      kubernetesSpec(
        'AWS',
        'k',
        { extraArgs: { 'some-new-flag': 1 } },
        {},
        images({ cloudControllerManagerAWS: 'registry.k8s.io/provider-aws/cloud-controller-manager:v1.36.0' }),
      ),
    ],
  ])('%s', (_name, spec) => {
    writeFile(dir(), 'c.yaml', spec);
    expect(fleetProblems(dir()).filter((p) => p.includes('extraArgs'))).toEqual([]);
  });
});

describe('kubernetes controllers: names the binary does not know are refused', () => {
  const dir = useTempDir();
  const images = (overrides: Record<string, string> = {}) => ({ ...PINNED, ...overrides });
  const OS_1_25 = { cloudControllerManagerOpenStack: 'registry.k8s.io/provider-os/openstack-cloud-controller-manager:v1.25.6' };

  test.each([
    [
      'AWS: a typo names nothing close, so the accepted names are listed',
      kubernetesSpec('AWS', 'k', { version: '1.35', controllers: ['*', '-route', 'bogus'] }, {}, images()),
      [
        'c.yaml:24: spec.kubernetes.controllers.2: "bogus" is not a controller of the AWS CCM at v1.35.0, which exits at start ("is not in the list of known controllers"); use one of cloud-node, cloud-node-controller, cloud-node-lifecycle, cloud-node-lifecycle-controller, node-route-controller, route, service, service-lb-controller, tagging (prefix "-" to turn one off), or "*"',
      ],
    ],
    [
      'AWS: a "-controller" suffix its tagging controller lacks is refused, the name offered',
      kubernetesSpec('AWS', 'k', { version: '1.35', controllers: ['*', '-tagging-controller'] }, {}, images()),
      [
        'c.yaml:23: spec.kubernetes.controllers.1: "tagging-controller" is not a controller of the AWS CCM at v1.35.0, which exits at start ("is not in the list of known controllers"); use "tagging" (prefix "-" to turn it off)',
      ],
    ],
    [
      'DigitalOcean passes no aliases: the short name is refused and the full one offered',
      kubernetesSpec('DigitalOcean', 'k', { version: '1.36', controllers: ['*', '-route'] }, {}, images()),
      [
        'c.yaml:23: spec.kubernetes.controllers.1: "route" is not a controller of the DigitalOcean CCM at v0.1.68, which exits at start ("is not in the list of known controllers"); use "node-route-controller" (prefix "-" to turn it off)',
      ],
    ],
    [
      'OpenStack v1.25.6 predates the full names: the full name is refused and the short one offered',
      kubernetesSpec('OpenStack', 'k', { controllers: ['cloud-node-controller', 'service'] }, {}, images(OS_1_25)),
      [
        'c.yaml:22: spec.kubernetes.controllers.0: "cloud-node-controller" is not a controller of the OpenStack CCM at v1.25.6, which exits at start ("is not in the list of known controllers"); use "cloud-node" (prefix "-" to turn it off)',
      ],
    ],
  ])('%s', (_name, spec, expected) => {
    // GIVEN a spec whose controllers name one the binary at the pinned tag neither has nor aliases
    writeFile(dir(), 'c.yaml', spec);
    // THEN one error names the file, the item, the name and the closest accepted one
    expect(fleetProblems(dir())).toEqual(expected);
  });

  test.each([
    [
      'Nutanix with the full names',
      kubernetesSpec('Nutanix', 'k', { controllers: ['cloud-node-controller', 'cloud-node-lifecycle-controller'] }, {}, images()),
    ],
    [
      'AWS with an alias, "-" and a disabled-by-default one',
      kubernetesSpec('AWS', 'k', { version: '1.35', controllers: ['*', '-route', 'tagging'] }, {}, images()),
    ],
    ['OpenStack v1.25.6 with its short names', kubernetesSpec('OpenStack', 'k', { controllers: ['cloud-node', '-route'] }, {}, images(OS_1_25))],
  ])('%s: accepted', (_name, spec) => {
    // GIVEN a spec whose controllers the binary knows
    writeFile(dir(), 'c.yaml', spec);
    // THEN it loads
    expect(() => loadFleet(dir())).not.toThrow();
  });
});

describe('kubernetes controllers: GCP node IPAM enabled by a user list without allocateNodeCidrs', () => {
  const dir = useTempDir();
  const images = () => ({ ...PINNED });

  test.each([
    ['"*" enables it', ['*', 'cloud-node-controller'], 0, '"*"'],
    ['its alias enables it before "*"', ['cloud-node-controller', 'nodeipam'], 1, '"nodeipam"'],
  ])('%s: refused, naming the item and both fixes', (_name, controllers, index, item) => {
    // GIVEN GCP, whose node IPAM controller returns an error at start unless --allocate-node-cidrs=true
    writeFile(dir(), 'c.yaml', kubernetesSpec('GCP', 'k', { version: '1.34', controllers }, {}, images()));
    // WHEN the fleet is validated THEN the list is refused at the item that turns the controller on
    expect(fleetProblems(dir()).map((p) => p.replace(/^c\.yaml:\d+: /, ''))).toEqual([
      `spec.kubernetes.controllers.${index}: ${item} turns on node-ipam-controller, which makes the GCP CCM exit at start without allocateNodeCidrs ("the AllocateNodeCIDRs is not enabled"); add "-node-ipam-controller" before it, or set allocateNodeCidrs: true with clusterCIDR`,
    ]);
  });

  test.each([
    ['turned off', { controllers: ['*', '-nodeipam'] }],
    ['turned off before "*"', { controllers: ['-node-ipam-controller', '*'] }],
    ['not named and no "*"', { controllers: ['cloud-node-controller', 'service-lb-controller'] }],
    ['with allocateNodeCidrs', { controllers: ['*'], allocateNodeCidrs: true, clusterCIDR: ['10.244.0.0/16'] }],
  ])('%s: accepted', (_name, knobs) => {
    // GIVEN a list that leaves node IPAM off, or node IPAM with its flag THEN it loads
    writeFile(dir(), 'c.yaml', kubernetesSpec('GCP', 'k', { version: '1.34', ...knobs }, {}, images()));
    expect(() => loadFleet(dir())).not.toThrow();
  });
});

describe('kubernetes flags: registrations under a condition, per OS, and on the Go flag set', () => {
  const dir = useTempDir();
  const images = () => ({ ...PINNED });

  test('the log-json-* flags exist only where the binary registers the json format (Equinix Metal), not for the other k8s.io/cloud-provider binaries', () => {
    // GIVEN component-base's addFlags registers them only when "json" is in the log registry
    const json = ['log-json-info-buffer-size', 'log-json-split-stream'];
    // THEN Equinix Metal (main.go imports logs/json/register) has them, the others do not
    expect(json.filter((f) => flagTable('equinix-metal@v3.8.1')!.flags.includes(f))).toEqual(json);
    for (const key of ['aws@v1.35.0', 'gcp@v35.0.0', 'openstack@v1.36.0', 'nutanix@v0.5.2', 'digitalocean@v0.1.68', 'vsphere@v1.36.0']) {
      expect([key, json.filter((f) => flagTable(key)!.flags.includes(f))]).toEqual([key, []]);
    }
  });

  test("Azure's log-format (log.BindCLIFlags) and vSphere's Go flag.CommandLine flags are known; windows-service only for the Windows cloud-node-manager", () => {
    expect(flagTable('azure@v1.33.2')!.flags).toContain('log-format');
    expect(flagTable('vsphere@v1.36.0')!.flags).toEqual(
      expect.arrayContaining(['enable-vpc-mode', 'pod-ip-pool-type', 'enable-service-annotation-propagation', 'is-legacy-paravirtual']),
    );
    expect(flagTable('azure-cloud-node-manager@v1.33.2')!.flags).not.toContain('windows-service');
    expect(flagTable('azure-cloud-node-manager-windows@v1.33.2')!.flags).toContain('windows-service');
  });

  test.each([
    [
      'AWS: log-json-split-stream (no json format registered)',
      kubernetesSpec('AWS', 'k', { version: '1.35', extraArgs: { 'log-json-split-stream': true } }, {}, images()),
      [
        'c.yaml:22: spec.kubernetes.extraArgs.log-json-split-stream: is not a flag of the AWS CCM at v1.35.0, which exits on an unknown flag; closest known flags: log-text-split-stream (83 known)',
      ],
    ],
    [
      'Azure cloud-node-manager (Linux): windows-service',
      kubernetesSpec('Azure', 'k', { cloudNodeManager: { extraArgs: { 'windows-service': true } } }, {}, images()),
      [
        'c.yaml:23: spec.kubernetes.cloudNodeManager.extraArgs.windows-service: is a flag of the Windows cloud-node-manager only (registered in a //go:build windows file); the Linux DaemonSet takes the same extraArgs and its binary at v1.33.2 exits on an unknown flag: remove it',
      ],
    ],
  ])('%s: refused', (_name, spec, expected) => {
    // GIVEN extraArgs with a flag the binary registers only under a condition it does not meet
    writeFile(dir(), 'c.yaml', spec);
    // THEN one error names the file, the field and the flag
    expect(fleetProblems(dir())).toEqual(expected);
  });

  test.each([
    ['Azure: log-format', kubernetesSpec('Azure', 'k', { extraArgs: { 'log-format': 'json' } }, {}, images())],
    [
      'vSphere: enable-vpc-mode and pod-ip-pool-type',
      kubernetesSpec('VSphere', 'k', { version: '1.36', extraArgs: { 'enable-vpc-mode': true, 'pod-ip-pool-type': 'Private' } }, {}, images()),
    ],
    ['Equinix Metal: log-json-split-stream', kubernetesSpec('EquinixMetal', 'k', { extraArgs: { 'log-json-split-stream': true } }, {}, images())],
  ])('%s: accepted', (_name, spec) => {
    // GIVEN extraArgs with a flag the binary registers at its tag THEN the spec loads
    writeFile(dir(), 'c.yaml', spec);
    expect(() => loadFleet(dir())).not.toThrow();
  });
});

describe("kubernetes flags: the product's tables against the oracle's, read from the same sources", () => {
  // test/oracle/ccm-flags.data.json is the oracle's own copy: a table edited by hand in src/ (a flag added or dropped) differs
  const ORACLE: Record<string, { flags: string[] }> = JSON.parse(fs.readFileSync(path.join(__dirname, 'oracle', 'ccm-flags.data.json'), 'utf8'));

  test('every binary the product checks has the same flag set in the oracle', () => {
    expect(Object.keys(BINARY_FLAGS).sort()).toEqual(Object.keys(ORACLE).sort());
    for (const key of Object.keys(BINARY_FLAGS)) {
      expect([key, flagTable(key)!.flags]).toEqual([key, ORACLE[key].flags]);
    }
  });
});
