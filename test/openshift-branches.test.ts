/**
 * Every OpenShift platform x release x mode ccm-gitops renders, compared object by object and field by
 * field with what that release's branch of openshift/cluster-cloud-controller-manager-operator ships and
 * renders (test/oracle/openshift-branches: facts read from release-4.16 … release-4.23 at pinned commits).
 * Releases the product refuses today are listed in REFUSED_TODAY; the deviations docs/deviations.md
 * documents in DEVIATIONS; contradictions found and not yet fixed in FINDINGS. Each table fails when an
 * entry stops being true, so it shrinks as the product changes.
 */
import * as fs from 'fs';
import * as path from 'path';
import { App } from 'cdk8s';
import { ClusterChart } from '../src/pipeline/cluster-chart';
import { checkSpec } from '../src/fleet/load';
import { manifestIn, olderPayloadObjects, PAYLOAD_OBJECTS } from '../src/openshift/cvo-ownership';
import { platformFactsFor } from '../src/openshift/platform-facts';
import { parsedSpec, platformSpec, preparedCluster } from './helpers';
import { BRANCH_RELEASES, branch, BRANCHES, PAYLOAD_PREFIX } from './oracle/openshift-branches';
import { idOf } from './oracle/openshift-branches/facts';
import { branchDiffs } from './oracle/openshift-branches/compare';
import { cloudConfDiffs } from './oracle/openshift-branches/cloud-conf';
import { DEVIATIONS } from './openshift-deviations';

type Obj = Record<string, any>;
type Mode = 'gitops' | 'operator';

const MODES: readonly Mode[] = ['gitops', 'operator'];

/**
 * The platform x release x mode the product refuses today (spec.openshift.release): nothing. Remove an entry when the product renders it: the comparison
 * then covers it.
 */
const REFUSED_TODAY: Readonly<Record<string, Readonly<Record<Mode, readonly string[]>>>> = {
  '4.16': { gitops: [], operator: [] },
  '4.17': { gitops: [], operator: [] },
  '4.18': { gitops: [], operator: [] },
  '4.19': { gitops: [], operator: [] },
  '4.20': { gitops: [], operator: [] },
  '4.21': { gitops: [], operator: [] },
};

/**
 * Where the product contradicts the release branch today (not documented as a deviation). Fix the
 * product, then remove the entry.
 */
const FINDINGS: readonly string[] = [];

function platformSpecOf(platform: string, minor: string, mode: Mode): Obj {
  const stack = platform === 'AzureStackHub';
  return platformSpec(stack ? 'Azure' : platform, 'c', {
    managementMode: mode,
    openshift: { release: `${minor}.1` },
    ...(stack ? { azure: { cloudName: 'AzureStackCloud' }, cloudConfig: { file: 'c.json', extraKeys: { endpoints: 'e.json' } } } : {}),
    // the Infrastructure names the cloud config, as an installer-made cluster's does (AWS before 4.19 writes cloud-conf only then)
    ...(platform === 'AWS' ? { cloudConfig: { file: 'c.conf' } } : {}),
  });
}

/** The cloud config each compared cluster reads (openshift-config/cloud-provider-config). */
const sourceOf = (platform: string): string =>
  platform === 'AzureStackHub'
    ? '{"location":"local"}\n'
    : platform === 'Azure'
      ? '{"cloud":"AzurePublicCloud"}\n'
      : platform === 'OpenStack'
        ? // What the installer writes: the legacy credential keys at the values the operator accepts.
          '[Global]\nsecret-name = openstack-credentials\nsecret-namespace = kube-system\n'
        : platform === 'VSphere'
          ? // A legacy INI with a vCenter: the YAML written has keys whose order differs per release.
            '[Global]\nsecret-name = vsphere-creds\nsecret-namespace = kube-system\ninsecure-flag = 1\n\n[VirtualCenter "vc1.example.com"]\ndatacenters = dc1\n'
          : '[Global]\n';

/**
 * What ccm-gitops renders for that cluster, in process, its cloud config through the product's transform as `prepare`
 * runs it (`chart`, `facts`: from another module registry in the mutation tests).
 */
function render(platform: string, minor: string, mode: Mode, chart: typeof ClusterChart = ClusterChart, facts = platformFactsFor): Obj[] {
  const stack = platform === 'AzureStackHub';
  const raw = platformSpecOf(platform, minor, mode);
  const prepared = {
    ...preparedCluster(raw, facts(raw.spec.platform)!.transformCloudConfig(sourceOf(platform), parsedSpec(raw)).config),
    ...(stack ? { cloudConfExtraData: { endpoints: '{"name":"AzureStackCloud"}' } } : {}),
  };
  return new chart(new App(), 'c', { cluster: prepared }).toJson();
}

/** A diff line as FINDINGS spells it: `<platform> <release> <mode>: <diff>`, a credentials diff cut after its field name. */
function finding(platform: string, minor: string, mode: Mode, diff: string): string {
  const line = `${platform} ${minor} ${mode}: ${diff}`;
  return line
    .replace(/(openshift-gcp-ccm)( \[[^\]]*\])?: credentials .*$/, '$1: credentials')
    .replace(/(cluster-cloud-controller-manager-operator)( \[[^\]]*\])?: annotations .*$/, '$1: annotations');
}

/** The comparison's lines for one cluster, the documented deviations left out. */
function differences(platform: string, minor: string, mode: Mode, rendered: readonly Obj[]): string[] {
  return [
    ...branchDiffs(minor, platform, mode, rendered),
    ...(mode === 'gitops' ? cloudConfDiffs(minor, platform, rendered, sourceOf(platform)) : []),
  ]
    .filter((d) => !DEVIATIONS.some((v) => v.matches.test(d)))
    .map((d) => finding(platform, minor, mode, d));
}

const CASES = BRANCH_RELEASES.flatMap((minor) =>
  Object.keys(BRANCHES[minor].platforms).flatMap((platform) => MODES.map((mode) => [platform, minor, mode] as [string, string, Mode])),
);
const refused = ([platform, minor, mode]: [string, string, Mode]) => REFUSED_TODAY[minor]?.[mode].includes(platform) ?? false;

describe('every platform x release x mode rendered equals its release branch', () => {
  test.each(CASES.filter((c) => !refused(c)))(
    'GIVEN %s at %s in %s mode WHEN rendered THEN every object equals the release branch field by field (deviations and findings listed)',
    (platform, minor, mode) => {
      const expected = FINDINGS.filter((f) => f.startsWith(`${platform} ${minor} ${mode}: `));
      expect(differences(platform, minor, mode, render(platform, minor, mode))).toEqual(expected);
    },
  );

  // Empty today: every platform x release x mode renders. An entry added back is checked here.
  const NONE_REFUSED: [string, string, Mode][] = [['none', 'none', 'gitops']];
  test.each(CASES.filter(refused).length > 0 ? CASES.filter(refused) : NONE_REFUSED)(
    'GIVEN %s at %s in %s mode WHEN checked THEN the product refuses spec.openshift.release (REFUSED_TODAY)',
    (platform, minor, mode) => {
      if (platform === 'none') return expect(CASES.filter(refused)).toEqual([]);
      const problems = checkSpec(parsedSpec(platformSpecOf(platform, minor, mode)));
      expect(problems.map((p) => p.path.join('.'))).toContain('spec.openshift.release');
    },
  );

  test('GIVEN REFUSED_TODAY and FINDINGS WHEN read THEN each names a release branch and a platform it has', () => {
    for (const [minor, modes] of Object.entries(REFUSED_TODAY)) {
      for (const platforms of Object.values(modes)) {
        expect(platforms.filter((p) => branch(minor).platforms[p] === undefined)).toEqual([]);
      }
    }
    expect(FINDINGS.filter((f) => !f.startsWith('payload ') && !CASES.some(([p, m, mode]) => f.startsWith(`${p} ${m} ${mode}: `)))).toEqual([]);
  });

  test('GIVEN DEVIATIONS WHEN read THEN each names a row of docs/deviations.md and accepts a difference of some rendered cluster', () => {
    const doc = fs.readFileSync(path.join(__dirname, '..', 'docs', 'deviations.md'), 'utf8');
    expect(DEVIATIONS.filter((v) => !doc.includes(`| ${v.row} |`)).map((v) => v.row)).toEqual([]);
    const raw = CASES.filter((c) => !refused(c)).flatMap(([platform, minor, mode]) =>
      branchDiffs(minor, platform, mode, render(platform, minor, mode)),
    );
    expect(DEVIATIONS.filter((v) => !raw.some((d) => v.matches.test(d))).map((v) => v.row)).toEqual([]);
  });
});

/** The payload file names the product gives release `minor`'s payload objects, against the branch head's files. */
function payloadFileDiffs(
  minor: string,
  own: Pick<typeof import('../src/openshift/cvo-ownership'), 'PAYLOAD_OBJECTS' | 'olderPayloadObjects' | 'manifestIn'>,
): string[] {
  const files = new Map(branch(minor).payload.map((p) => [p.id, p.file.replace(PAYLOAD_PREFIX, '')]));
  const named = new Map(
    [...own.PAYLOAD_OBJECTS, ...own.olderPayloadObjects(minor)]
      .map((o) => [idOf({ apiVersion: o.group ? `${o.group}/v1` : 'v1', kind: o.kind, metadata: o }), own.manifestIn(o, minor)] as const)
      .filter((e): e is readonly [string, string] => e[1] !== undefined),
  );
  return [
    ...[...named]
      .filter(([id, f]) => files.get(id) !== f)
      .map(([id, f]) =>
        files.has(id)
          ? `payload ${minor}: ${id} named ${f}, release-${minor} has it in ${files.get(id)}`
          : `payload ${minor}: ${id} named ${f}, release-${minor} does not ship it`,
      ),
    ...[...files]
      .filter(([id]) => !named.has(id))
      .map(([id, f]) => `payload ${minor}: ${id} (${f}) shipped by release-${minor}, unknown to the product`),
  ];
}

describe('payload file names per release', () => {
  test.each([...BRANCH_RELEASES])(
    'GIVEN release %s WHEN the product names the payload file of each payload object THEN it is the branch head file holding that object (findings listed)',
    (minor) => {
      expect(payloadFileDiffs(minor, { PAYLOAD_OBJECTS, olderPayloadObjects, manifestIn })).toEqual(
        FINDINGS.filter((f) => f.startsWith(`payload ${minor}: `)),
      );
    },
  );
});

/**
 * Mutations of the product's per-release tables, each in its own module registry: the comparison must
 * report each one (a wrong fact in a table fails the oracle, not only the product's own tests).
 */
describe('a mutated per-release table of src/ fails the comparison', () => {
  /** A module as the current `jest.isolateModules` registry loads it: a fresh copy the test may mutate. */
  function fresh<T>(modulePath: string): T {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh copy inside jest.isolateModules, mutated by the test
    return require(modulePath) as T;
  }

  /** Runs `mutate` on fresh copies of the product's modules, then the comparison of one cluster. */
  function mutated(mutate: () => void, platform: string, minor: string, mode: Mode): string[] {
    let diffs: string[] = [];
    jest.isolateModules(() => {
      mutate();
      const { ClusterChart: chart } = fresh<typeof import('../src/pipeline/cluster-chart')>('../src/pipeline/cluster-chart');
      const facts = fresh<typeof import('../src/openshift/platform-facts')>('../src/openshift/platform-facts').platformFactsFor;
      diffs = differences(platform, minor, mode, render(platform, minor, mode, chart, facts));
    });
    return diffs;
  }

  test("GIVEN the AWS load-balancer-type admission policy's first release moved from 4.22 to 4.23 WHEN AWS 4.22 is compared THEN both policy objects are reported missing", () => {
    const diffs = mutated(
      () => {
        const parts = fresh<typeof import('../src/openshift/release-operands')>('../src/openshift/release-operands').OPERAND_PARTS_SINCE;
        (parts as Record<string, string>).awsAdmissionPolicy = '4.23';
      },
      'AWS',
      '4.22',
      'gitops',
    );
    expect(diffs).toEqual([
      'AWS 4.22 gitops: admissionregistration.k8s.io/ValidatingAdmissionPolicy /openshift-cloud-controller-manager-cloud-provider-aws: the operator of release-4.22 renders it on AWS, ccm-gitops does not',
      'AWS 4.22 gitops: admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding /openshift-cloud-controller-manager-cloud-provider-aws: the operator of release-4.22 renders it on AWS, ccm-gitops does not',
    ]);
  });

  test('GIVEN the leader-election lease duration flag changed to 138s WHEN GCP 4.23 is compared THEN the flag is reported missing and the changed one extra', () => {
    const diffs = mutated(
      () => {
        const flags = fresh<typeof import('../src/openshift/pod-conventions')>('../src/openshift/pod-conventions').LEADER_ELECTION_FLAGS as string[];
        flags[flags.indexOf('--leader-elect-lease-duration=137s')] = '--leader-elect-lease-duration=138s';
      },
      'GCP',
      '4.23',
      'gitops',
    );
    const at =
      'GCP 4.23 gitops: apps/Deployment openshift-cloud-controller-manager/gcp-cloud-controller-manager ' +
      '[openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c release-4.23 pkg/cloud/gcp/assets/cloud-controller-manager.yaml] container cloud-controller-manager';
    expect(diffs).toEqual([
      `${at}: flags missing --leader-elect-lease-duration=137s`,
      `${at}: flags the release does not pass --leader-elect-lease-duration=138s`,
    ]);
  });

  test("GIVEN the operator's kube-rbac-proxy era moved from before 4.22 to before 4.16 WHEN AWS 4.21 operator mode is compared THEN the Deployment, Service and ClusterRole are reported", () => {
    const diffs = mutated(
      () => {
        const parts = fresh<typeof import('../src/openshift/release-payload')>('../src/openshift/release-payload').PAYLOAD_PARTS_SINCE;
        (parts as Record<string, string>).operatorServesMetrics = '4.16';
      },
      'AWS',
      '4.21',
      'operator',
    );
    expect(diffs.map((d) => d.replace(/ \[.*$/, ''))).toEqual([
      'AWS 4.21 operator: rbac.authorization.k8s.io/ClusterRole /system:openshift:operator:cloud-controller-manager',
      'AWS 4.21 operator: /Service openshift-cloud-controller-manager-operator/cloud-controller-manager-operator',
      ...Array<string>(6).fill(
        'AWS 4.21 operator: apps/Deployment openshift-cloud-controller-manager-operator/cluster-cloud-controller-manager-operator',
      ),
    ]);
  });

  test("GIVEN the Azure injectors' --creds-path moved back to 4.18 WHEN Azure 4.18 is compared THEN each injector's flags, env and mounts, the CCM's env and both pods' volumes are reported", () => {
    const diffs = mutated(
      () => {
        const parts = fresh<typeof import('../src/openshift/release-operands')>('../src/openshift/release-operands').OPERAND_PARTS_SINCE;
        (parts as Record<string, string>).azureCredentialsPath = '4.18';
      },
      'Azure',
      '4.18',
      'gitops',
    );
    const injector = diffs.filter((d) => d.includes(' init container azure-inject-credentials: '));
    expect(injector.map((d) => d.replace(/^.* init container azure-inject-credentials: (flags [a-z ]+|[a-z]+) .*$/, '$1'))).toEqual([
      'flags the release does not pass',
      'env',
      'mounts',
      'flags the release does not pass',
      'env',
      'mounts',
    ]);
    expect(injector[0]).toMatch(/flags the release does not pass --creds-path=\/etc\/azure\/credentials$/);
    expect(injector[1]).toMatch(/env \[\], the release has \[AZURE_CLIENT_ID AZURE_CLIENT_SECRET AZURE_FEDERATED_TOKEN_FILE AZURE_TENANT_ID\]$/);
    expect(diffs.filter((d) => !d.includes(' init container '))).toHaveLength(4);
  });

  test('GIVEN the Azure permissions of 4.21 moved to 4.22 WHEN Azure 4.21 is compared THEN the CredentialsRequest is reported', () => {
    const diffs = mutated(
      () => {
        const since = fresh<typeof import('../src/openshift/azure/facts')>('../src/openshift/azure/facts').AZURE_CCM_PERMISSIONS_SINCE as Record<
          string,
          string[]
        >;
        since['4.22'] = [...since['4.22'], ...since['4.21']];
        delete since['4.21'];
      },
      'Azure',
      '4.21',
      'gitops',
    );
    expect(diffs.map((d) => d.replace(/ \[[^\]]*\]: credentials .*$/, ': credentials'))).toEqual([
      'Azure 4.21 gitops: cloudcredential.openshift.io/CredentialsRequest openshift-cloud-credential-operator/openshift-azure-cloud-controller-manager: credentials',
    ]);
  });

  test.each([
    [
      'the first two ciphers of the Intermediate profile swapped',
      (p: { ciphers: string[] }) => void p.ciphers.splice(0, 2, p.ciphers[1], p.ciphers[0]),
      '--tls-cipher-suites',
    ],
    ['the Intermediate minimum lowered to TLS 1.1', (p: { minTLSVersion: string }) => void (p.minTLSVersion = 'VersionTLS11'), '--tls-min-version'],
  ] as const)('GIVEN %s WHEN Azure 4.22 is compared THEN the TLS flag value is reported, not only its presence', (_what, mutate, flag) => {
    const diffs = mutated(
      () => {
        const profiles = fresh<typeof import('../src/cluster-spec/tls')>('../src/cluster-spec/tls').TLS_PROFILES as unknown as Record<
          string,
          unknown
        >;
        mutate(profiles.Intermediate as { ciphers: string[]; minTLSVersion: string });
      },
      'Azure',
      '4.22',
      'gitops',
    );
    expect(
      diffs.map((d) => d.replace(/^.* container cloud-controller-manager: (flags missing|flags the release does not pass) (--[a-z-]+)=.*$/, '$1 $2')),
    ).toEqual([`flags missing ${flag}`, `flags the release does not pass ${flag}`]);
  });

  test("GIVEN GCP's cloud config no longer passed through unchanged WHEN GCP 4.18 is compared THEN cloud-conf's cloud.conf is reported against the source", () => {
    const diffs = mutated(
      () => {
        const gcp = fresh<typeof import('../src/openshift/gcp/facts')>('../src/openshift/gcp/facts').GCP_PLATFORM_FACTS as {
          transformCloudConfig: unknown;
        };
        gcp.transformCloudConfig = (source: string) => ({ config: `${source}multizone = true\n`, warnings: [] });
      },
      'GCP',
      '4.18',
      'gitops',
    );
    expect(diffs.filter((d) => d.includes('/cloud-conf '))).toEqual([
      'GCP 4.18 gitops: /ConfigMap openshift-cloud-controller-manager/cloud-conf [pkg/cloud/cloud.go release-4.18]: cloud.conf "[Global]\\nmultizone = true\\n", the release writes the source unchanged "[Global]\\n"',
    ]);
  });

  test.each(['Azure', 'AzureStackHub'])(
    'GIVEN the %s cloud config passed through unchanged WHEN 4.20 is compared THEN the vmType, and the cloud (Azure Stack Hub) or health probe mode (Azure) the release sets, are reported',
    (platform) => {
      const diffs = mutated(
        () => {
          const azure = fresh<typeof import('../src/openshift/azure/facts')>('../src/openshift/azure/facts').AZURE_PLATFORM_FACTS as {
            transformCloudConfig: unknown;
          };
          azure.transformCloudConfig = (source: string) => ({ config: source, warnings: [] });
        },
        platform,
        '4.20',
        'gitops',
      );
      expect(diffs.filter((d) => d.includes('/cloud-conf ')).map((d) => d.replace(/^.*\]: /, ''))).toEqual([
        // Azure Stack Hub's source names no cloud: the cluster-config-operator's step sets it.
        ...(platform === 'AzureStackHub' ? ['cloud.conf cloud undefined, the release writes "AzureStackCloud"'] : []),
        'cloud.conf vmType undefined, the release writes "standard"',
        ...(platform === 'Azure' ? ['cloud.conf clusterServiceLoadBalancerHealthProbeMode undefined, the release writes "shared"'] : []),
      ]);
    },
  );

  test.each([
    ['AWS', '4.18', 'awsConfigTransformer', 'cloud.conf line 2 "DisableSecurityGroupIngress                     = false", the release writes ""'],
    ['VSphere', '4.22', 'vsphereSortedYaml', 'cloud.conf line 7 "    datacenters:", the release writes "    server: vc1.example.com"'],
  ] as const)(
    "GIVEN %s's cloud.conf form of %s given to every release (OPERAND_PARTS_SINCE.%s = 4.16) WHEN compared THEN the first differing line of cloud-conf is reported",
    (platform, minor, part, diff) => {
      const diffs = mutated(
        () => {
          const parts = fresh<typeof import('../src/openshift/release-operands')>('../src/openshift/release-operands').OPERAND_PARTS_SINCE;
          (parts as Record<string, string>)[part] = '4.16';
        },
        platform,
        minor,
        'gitops',
      );
      expect(diffs).toEqual([
        `${platform} ${minor} gitops: /ConfigMap openshift-cloud-controller-manager/cloud-conf [pkg/cloud/cloud.go release-${minor}]: ${diff}`,
      ]);
    },
  );

  /** The module and export of each transforming platform's facts. */
  const FACTS = {
    AWS: ['../src/openshift/aws/facts', 'AWS_PLATFORM_FACTS'],
    OpenStack: ['../src/openshift/openstack/facts', 'OPENSTACK_PLATFORM_FACTS'],
    VSphere: ['../src/openshift/vsphere/facts', 'VSPHERE_PLATFORM_FACTS'],
  } as const;

  test.each([
    [
      'AWS',
      '4.21',
      'a changed key',
      (t: string) => t.replace('= Shared', '= Local'),
      'line 3 "ClusterServiceLoadBalancerHealthProbeMode       = Local", the release writes "ClusterServiceLoadBalancerHealthProbeMode       = Shared"',
    ],
    [
      'AWS',
      '4.22',
      'a dropped key',
      (t: string) => t.replace(/^DisableSecurityGroupIngress .*\n/m, ''),
      'line 2 "ClusterServiceLoadBalancerHealthProbeMode       = Shared", the release writes "DisableSecurityGroupIngress                     = false"',
    ],
    [
      'OpenStack',
      '4.16',
      'a dropped key',
      (t: string) => t.replace(/^manage-security-groups .*\n/m, ''),
      'line 8 "", the release writes "manage-security-groups = true"',
    ],
    [
      'OpenStack',
      '4.23',
      'a reordered section',
      (t: string) => `${t.split('\n\n')[1]}\n${t.split('\n\n')[0]}\n`,
      'line 1 "[LoadBalancer]", the release writes "[Global]"',
    ],
    [
      'VSphere',
      '4.19',
      'a changed key',
      (t: string) => t.replace('secretNamespace: kube-system', 'secretNamespace: default'),
      'line 4 "  secretNamespace: default", the release writes "  secretNamespace: kube-system"',
    ],
    [
      'VSphere',
      '4.23',
      'a reordered section',
      (t: string) => t.replace(/^(global:\n(?: {2}.*\n)*)(vcenter:\n(?: {2}.*\n|- .*\n)*)$/, '$2$1'),
      'line 1 "vcenter:", the release writes "global:"',
    ],
  ] as const)(
    'GIVEN %s %s cloud.conf written with %s WHEN compared THEN the first differing line is reported',
    (platform, minor, _what, mutate, diff) => {
      const diffs = mutated(
        () => {
          const [file, name] = FACTS[platform];
          const facts = (
            fresh<Record<string, unknown>>(file) as Record<
              string,
              { transformCloudConfig: (...a: unknown[]) => { config: string; warnings: string[] } }
            >
          )[name];
          const original = facts.transformCloudConfig.bind(facts);
          facts.transformCloudConfig = (...a: unknown[]) => {
            const r = original(...a);
            return { ...r, config: mutate(r.config) };
          };
        },
        platform,
        minor,
        'gitops',
      );
      expect(diffs).toEqual([
        `${platform} ${minor} gitops: /ConfigMap openshift-cloud-controller-manager/cloud-conf [pkg/cloud/cloud.go release-${minor}]: cloud.conf ${diff}`,
      ]);
    },
  );

  test('GIVEN the payload file of the operator ClusterRole renamed WHEN release 4.21 is compared THEN the name is reported against the branch file', () => {
    let diffs: string[] = [];
    jest.isolateModules(() => {
      const own = fresh<typeof import('../src/openshift/cvo-ownership')>('../src/openshift/cvo-ownership');
      const role = own.PAYLOAD_OBJECTS.find((o) => o.kind === 'ClusterRole' && o.name === 'system:openshift:operator:cloud-controller-manager')!;
      (role as { manifest: string }).manifest = '02_rbac.yaml';
      diffs = payloadFileDiffs('4.21', own);
    });
    expect(diffs).toEqual([
      'payload 4.21: rbac.authorization.k8s.io/ClusterRole /system:openshift:operator:cloud-controller-manager named 02_rbac.yaml, release-4.21 has it in 02_rbac_operator.yaml',
    ]);
  });
});
