/**
 * The `cloud.conf` ccm-gitops writes for AWS, OpenStack and vSphere, compared as exact text with what the
 * operator of each release branch writes for the same source and cluster (test/oracle/openshift-branches:
 * aws-cloud-conf.ts, openstack-cloud-conf.ts, vsphere-cloud-conf.ts, read from release-4.16 … release-4.23).
 * Each source exercises what a release changes: key order, section order, booleans, lists, keys set,
 * overridden or removed. Differences docs/deviations.md documents are listed in DEVIATIONS with their row.
 */
import * as fs from 'fs';
import * as path from 'path';
import { isUserError } from '../src/util/user-error';
import { platformFactsFor } from '../src/openshift/platform-facts';
import { parsedSpec, platformSpec } from './helpers';
import { BRANCH_RELEASES, branch } from './oracle/openshift-branches';
import { ClusterInputs, textDiffs, transformedCloudConf } from './oracle/openshift-branches/cloud-conf';

type Obj = Record<string, any>;

/** One compared cluster: a source and the spec sections the transform reads (spec.aws, spec.vsphere, spec.network). */
interface Case {
  readonly platform: 'AWS' | 'OpenStack' | 'VSphere';
  readonly name: string;
  readonly source: string;
  readonly spec?: Obj;
  /** The first minor compared, where earlier releases' output is not determined by the inputs. */
  readonly since?: number;
}

/** spec.aws with `n` service endpoints. */
function endpoints(n: number): Obj {
  return {
    aws: {
      region: 'us-gov-west-1',
      serviceEndpoints: Array.from({ length: n }, (_, i) => ({ name: `svc${i}`, url: `https://svc${i}.example.com` })),
    },
  };
}

const VCENTER = 'vc1.example.com';

const CASES: readonly Case[] = [
  { platform: 'AWS', name: 'empty', source: '' },
  { platform: 'AWS', name: 'bare', source: '[Global]\n' },
  {
    platform: 'AWS',
    name: 'fields of every kind',
    source:
      '[Global]\nZone = us-east-1a\nNodeIPFamilies = ipv4\nNodeIPFamilies = ipv6\nDisableSecurityGroupIngress = true\n' +
      'ClusterServiceSharedLoadBalancerHealthProbePort = 10256\nSupportedTopologyInstanceTypePattern = c5.large\n' +
      'NLBSecurityGroupMode = Unmanaged\nUnknownKey = dropped\n\n[Unknown]\nx = y\n',
  },
  {
    platform: 'AWS',
    name: 'one override of its own',
    source:
      '[Global]\nRegion = us-east-1\n\n[ServiceOverride "1"]\nService = ec2\nRegion = us-east-1\nURL = https://ec2.example.com\nSigningRegion = us-east-1\n',
  },
  {
    platform: 'AWS',
    name: 'names in other case, a bare bool',
    source:
      '[global]\nzone = us-east-1b\nnodeipfamilies = ipv6\ndisablesecuritygroupingress\n[GLOBAL]\nRoleARN = arn:aws:iam::123456789012:role/ccm\n',
  },
  { platform: 'AWS', name: 'one service endpoint', source: '[Global]\n', spec: endpoints(1) },
  // release-4.19 and 4.20 write several overrides in Go map order: compared from 4.21, where they are sorted.
  { platform: 'AWS', name: 'two service endpoints', source: '[Global]\n', spec: endpoints(2), since: 21 },
  { platform: 'AWS', name: 'twelve service endpoints', source: '[Global]\n', spec: endpoints(12), since: 21 },
  { platform: 'OpenStack', name: 'installer', source: '[Global]\nsecret-name = openstack-credentials\nsecret-namespace = kube-system\n' },
  {
    platform: 'OpenStack',
    name: 'keys kept, set, removed',
    source:
      '[Global]\ncloud = mine\nsecret-name = openstack-credentials\nregion = regionOne\nsecret-namespace = kube-system\nkubeconfig-path =\n\n' +
      '[BlockStorage]\nignore-volume-az = true\n\n[LoadBalancer]\nuse-octavia = true\nmax-shared-lb = 5\nfloating-network-id = net1\n\n[Metadata]\nsearch-order = configDrive\n',
  },
  {
    platform: 'OpenStack',
    name: 'a kubeconfig-path of its own',
    source: '[Global]\nsecret-name = openstack-credentials\nsecret-namespace = kube-system\nkubeconfig-path = /k\n',
  },
  {
    platform: 'OpenStack',
    name: 'repeated sections and keys',
    source:
      '[Global]\nsecret-name = openstack-credentials\nsecret-namespace = kube-system\nregion = one\n\n[Metadata]\nsearch-order = a\n\n[Global]\nregion = two\nuse-clouds = false\n',
  },
  { platform: 'OpenStack', name: 'no [Global]', source: '[LoadBalancer]\nfloating-network-id = net1\n' },
  { platform: 'OpenStack', name: '[Global] without the legacy keys', source: '[Global]\nregion = regionOne\n' },
  { platform: 'VSphere', name: 'bare', source: '[Global]\n' },
  {
    platform: 'VSphere',
    name: 'every INI field',
    source:
      '[Global]\nuser-agent = x\nserver = vc0.example.com\nport = 8443\ndatacenters = dc0\nsoap-roundtrip-count = 3\nca-file = /etc/ca.pem\n' +
      'thumbprint = AA:BB\nsecrets-directory = /etc/secrets\napi-disable = true\napi-binding = :43001\n\n' +
      `[VirtualCenter "${VCENTER}"]\nserver = 10.0.0.9\nport = 443\ninsecure-flag = true\nsecret-name = vc-creds\nsecret-namespace = ns\nip-family = ipv6\n\n` +
      '[Nodes]\ninternal-vm-network-name = int-net\nexternal-network-subnet-cidr = 10.1.0.0/16\n',
  },
  {
    platform: 'VSphere',
    name: 'platform spec without a vCenter of the config',
    source: `[Global]\nsecret-name = vsphere-creds\n\n[VirtualCenter "old.example.com"]\ndatacenters = dc9\n`,
    spec: { vsphere: { vcenters: [{ server: VCENTER, datacenters: ['dc1'] }] } },
  },
  {
    platform: 'VSphere',
    name: 'legacy INI',
    source:
      '[Global]\nsecret-name = vsphere-creds\nsecret-namespace = kube-system\ninsecure-flag = 1\nport = 443\nip-family = ipv4\n\n' +
      `[Workspace]\nserver = ${VCENTER}\ndatacenter = dc1\n\n[VirtualCenter "${VCENTER}"]\ndatacenters = dc1,dc2\n\n` +
      '[Labels]\nzone = k8s-zone\nregion = k8s-region\n',
  },
  {
    platform: 'VSphere',
    name: 'vCenter names with numbers',
    source:
      '[Global]\nsecret-name = vsphere-creds\n\n[VirtualCenter "vc10.example.com"]\ndatacenters = dc1\n\n[VirtualCenter "vc9.example.com"]\ndatacenters = dc2\n',
  },
  {
    platform: 'VSphere',
    name: 'platform spec, two failure domains, dual stack',
    source: `[Global]\nsecret-name = vsphere-creds\nsecret-namespace = kube-system\n\n[VirtualCenter "${VCENTER}"]\ndatacenters = dc1\n`,
    spec: {
      network: { serviceNetwork: ['172.30.0.0/16', 'fd02::/112'] },
      vsphere: {
        vcenters: [{ server: VCENTER, port: 443, datacenters: ['dc1'] }],
        failureDomains: ['a', 'b'].map((z, i) => ({
          name: `fd-${z}`,
          region: 'r',
          zone: z,
          server: VCENTER,
          topology: { datacenter: `dc${i + 1}` },
        })),
        apiServerInternalIPs: ['192.168.1.5'],
        ingressIPs: ['192.168.1.6'],
      },
    },
  },
];

/** The cluster inputs of a case, read from its spec object here (the oracle never sees `src/`). */
function inputsOf(c: Case): ClusterInputs {
  const v = c.spec?.vsphere;
  return {
    aws: { region: c.spec?.aws?.region, serviceEndpoints: c.spec?.aws?.serviceEndpoints },
    vsphere: {
      ...(v
        ? {
            platformSpec: {
              vcenters: v.vcenters,
              failureDomains: (v.failureDomains ?? []).map((fd: Obj) => ({ server: fd.server, datacenter: fd.topology.datacenter })),
              nodeNetworking: v.nodeNetworking,
            },
          }
        : {}),
      apiServerInternalIPs: v?.apiServerInternalIPs,
      ingressIPs: v?.ingressIPs,
      serviceNetwork: c.spec?.network?.serviceNetwork,
    },
  };
}

/** What ccm-gitops writes for the case at `minor`: the text, or its refusal. */
function product(c: Case, minor: string): { text: string } | { refused: string } {
  const raw = platformSpec(c.platform, 'c', { ...c.spec, openshift: { release: `${minor}.1` } });
  try {
    return { text: platformFactsFor(raw.spec.platform)!.transformCloudConfig(c.source, parsedSpec(raw)).config };
  } catch (e) {
    if (isUserError(e, 'cloud-config')) {
      return { refused: e.message };
    }
    throw e;
  }
}

/** The differences of the product's `cloud.conf` from the release's for one case. */
function diffs(c: Case, minor: string): string[] {
  const at = `${c.platform} ${minor} ${c.name}`;
  const expected = transformedCloudConf(minor, c.platform, c.source, inputsOf(c));
  const own = product(c, minor);
  if ('refused' in own) {
    return 'refused' in expected ? [] : [`${at}: ccm-gitops refuses the source (${own.refused}), the release writes it`];
  }
  return textDiffs(at, expected, own.text);
}

/** A difference docs/deviations.md documents (its row named). */
const DEVIATIONS: readonly { readonly row: string; readonly matches: RegExp }[] = [
  {
    row: 'AWS `[ServiceOverride]` order',
    matches:
      /^AWS 4\.\d+ twelve service endpoints: cloud\.conf line \d+ "\[ServiceOverride \\"2\\"\]", the release writes "\[ServiceOverride \\"10\\"\]"$/,
  },
  {
    row: 'OpenStack `[Global]` without `secret-name` / `secret-namespace`',
    matches:
      /^OpenStack 4\.\d+ \[Global\] without the legacy keys: the release refuses the source \('\[Global\] secret-name' is set to a non-default value\)/,
  },
];

/** Where the product contradicts the release today. Fix the product, then remove the entry. */
const FINDINGS: readonly string[] = [];

const RUNS = CASES.flatMap((c) =>
  BRANCH_RELEASES.filter((m) => branch(m).platforms[c.platform] !== undefined && Number(m.split('.')[1]) >= (c.since ?? 0)).map(
    (m) => [c.platform, m, c.name, c] as const,
  ),
);

describe('cloud.conf written exactly as each release writes it', () => {
  test.each(RUNS)(
    'GIVEN %s %s source "%s" WHEN transformed THEN cloud.conf is the release\'s text (deviations and findings listed)',
    (_p, minor, _n, c) => {
      const own = diffs(c, minor).filter((d) => !DEVIATIONS.some((v) => v.matches.test(d)));
      expect(own).toEqual(FINDINGS.filter((f) => f.startsWith(`${c.platform} ${minor} ${c.name}: `)));
    },
  );

  test('GIVEN DEVIATIONS WHEN read THEN each names a row of docs/deviations.md and accepts a difference of some case', () => {
    const doc = fs.readFileSync(path.join(__dirname, '..', 'docs', 'deviations.md'), 'utf8');
    expect(DEVIATIONS.filter((v) => !doc.includes(`| ${v.row} |`)).map((v) => v.row)).toEqual([]);
    const all = RUNS.flatMap(([, minor, , c]) => diffs(c, minor));
    expect(DEVIATIONS.filter((v) => !all.some((d) => v.matches.test(d))).map((v) => v.row)).toEqual([]);
  });
});

/** Mutations of the product's per-release cloud.conf facts, each in its own module registry: the comparison must report each. */
describe('a mutated per-release cloud.conf fact of src/ fails the comparison', () => {
  /** The differences for one case when `part` of OPERAND_PARTS_SINCE is moved to `since`. */
  function withPart(part: string, since: string, c: Case, minor: string): string[] {
    let out: string[] = [];
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh copy inside jest.isolateModules, mutated by the test
      const parts = (require('../src/openshift/release-operands') as typeof import('../src/openshift/release-operands')).OPERAND_PARTS_SINCE;
      (parts as Record<string, string>)[part] = since;
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the same registry's facts read the mutated table
      const facts = (require('../src/openshift/platform-facts') as typeof import('../src/openshift/platform-facts')).platformFactsFor;
      const raw = platformSpec(c.platform, 'c', { ...c.spec, openshift: { release: `${minor}.1` } });
      const own = facts(raw.spec.platform)!.transformCloudConfig(c.source, parsedSpec(raw)).config;
      out = textDiffs(`${c.platform} ${minor} ${c.name}`, transformedCloudConf(minor, c.platform, c.source, inputsOf(c)), own);
    });
    return out;
  }
  const every = CASES.find((c) => c.name === 'fields of every kind')!;

  test.each([
    ['awsTopologyInstanceTypePattern', '4.19', '4.19', 'line 7 "SupportedTopologyInstanceTypePattern            = c5.large", the release writes ""'],
    ['awsNlbSecurityGroupModeField', '4.20', '4.20', 'line 8 "NLBSecurityGroupMode                            = Unmanaged", the release writes ""'],
    [
      'awsNodeIpFamiliesPerKey',
      '4.21',
      '4.21',
      'line 4 "NodeIPFamilies                                  = ipv4", the release writes "NodeIPFamilies                                  = ipv4,ipv6"',
    ],
    [
      'awsConfigTransformer',
      '4.20',
      '4.19',
      'line 2 "Zone = us-east-1a", the release writes "Zone                                            = us-east-1a"',
    ],
  ] as const)(
    'GIVEN OPERAND_PARTS_SINCE.%s moved to %s WHEN AWS %s is compared THEN the first differing line is reported',
    (part, since, minor, line) => {
      expect(withPart(part, since, every, minor)).toEqual([`AWS ${minor} fields of every kind: cloud.conf ${line}`]);
    },
  );
});
