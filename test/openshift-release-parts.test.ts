import { App } from 'cdk8s';
import { transformAwsCloudConfig } from '../src/cloud-config/aws';
import { ClusterChart } from '../src/pipeline/cluster-chart';
import { checkSpec, loadFleet } from '../src/fleet/load';
import { AWS_PLATFORM_FACTS } from '../src/openshift/aws/facts';
import * as fs from 'fs';
import * as path from 'path';
import { supportTableMarkdown, supportTableRows } from '../src/openshift/support-table';
import { parsedSpec, platformSpec, preparedCluster, useTempDir, writeFile } from './helpers';

type Obj = Record<string, any>;

/** The objects gitops mode renders for `platform` at `release`, outside a migration. */
function render(platform: string, release: string, extra: Record<string, unknown> = {}): Obj[] {
  return new ClusterChart(new App(), 'c', { cluster: preparedCluster(platformSpec(platform, 'p', { openshift: { release }, ...extra })) }).toJson();
}

function releaseProblems(platform: string, release: string, extra: Record<string, unknown> = {}): string[] {
  return checkSpec(parsedSpec(platformSpec(platform, 'p', { openshift: { release }, ...extra })))
    .filter((p) => p.path.join('.') === 'spec.openshift.release')
    .map((p) => p.message);
}

const ccmContainer = (objects: Obj[]): Obj =>
  objects.find((o) => o.kind === 'Deployment' && o.metadata.namespace === 'openshift-cloud-controller-manager')!.spec.template.spec.containers[0];
const flagsOf = (objects: Obj[]): string[] =>
  (ccmContainer(objects).command[2] as string)
    .split('\n')
    .map((l) => l.trim().replace(/ \\$/, ''))
    .filter((l) => l.startsWith('-'));
const kinds = (objects: Obj[]): string[] => objects.map((o) => `${o.kind}/${o.metadata.name}`);
const service = (objects: Obj[]): Obj => objects.find((o) => o.kind === 'Service' && o.metadata.namespace === 'openshift-cloud-controller-manager')!;

const RELEASES = ['4.16.9', '4.17.2', '4.18.3', '4.19.5', '4.20.3', '4.21.5'];

describe('gitops mode renders AWS and GCP at 4.16 to 4.21 as each release branch renders them', () => {
  test.each(RELEASES.flatMap((r) => [['AWS', r] as const, ['GCP', r] as const]))(
    'GIVEN %s at %s in gitops mode WHEN checked THEN no release problem',
    (platform, release) => {
      expect(releaseProblems(platform, release)).toEqual([]);
    },
  );

  test('GIVEN AWS at 4.15.2 (out of support) in gitops mode WHEN checked THEN one error: rendered from 4.16, older branches not compared', () => {
    expect(releaseProblems('AWS', '4.15.2')).toEqual([
      '"4.15.2": gitops mode renders the AWS cloud controller manager as the operator of release 4.16 and later renders it; ' +
        'the operator of 4.15 renders other AWS operands: those of releases before 4.16, whose branches were not compared part by part. ' +
        "Leave the cloud controller manager to the cluster's operator until the cluster runs 4.16 or later (an OpenShift update moves an in-tree platform to its CCM itself), then hand it over",
    ]);
  });

  test.each([
    ['4.16.9', true],
    ['4.18.3', true],
    ['4.19.5', false],
    ['4.21.5', false],
    ['4.22.3', false],
  ])(
    'GIVEN AWS at %s WHEN rendered THEN the CCM Service has the webhooks port 10260: %s (getService of release-4.16 to 4.18 lists it)',
    (release, webhooks) => {
      expect(service(render('AWS', release)).spec.ports).toEqual(
        webhooks
          ? [
              { name: 'https', port: 10258 },
              { name: 'webhooks', port: 10260, targetPort: 10260 },
            ]
          : [{ name: 'https', port: 10258, protocol: 'TCP' }],
      );
    },
  );

  test.each(RELEASES)('GIVEN AWS at %s WHEN rendered THEN no TLS profile flags, --secure-port=0 and no load-balancer-type policy', (release) => {
    const objects = render('AWS', release);
    const flags = flagsOf(objects);
    expect(flags.filter((f) => f.startsWith('--tls-'))).toEqual([]);
    expect(flags).toContain('--secure-port=0');
    expect(kinds(objects).filter((k) => k.startsWith('ValidatingAdmissionPolicy'))).toEqual([]);
  });

  test('GIVEN AWS at 4.18.3 and 4.19.5 WHEN rendered THEN --cloud-config and the cloud.conf mount join at 4.19', () => {
    expect(flagsOf(render('AWS', '4.18.3'))[0]).toBe('--cloud-provider=aws');
    expect(flagsOf(render('AWS', '4.19.5'))[0]).toBe('--cloud-config=$(CLOUD_CONFIG)');
  });

  test('GIVEN GCP at 4.18.3 and 4.19.5 WHEN rendered THEN the network-tier policy joins at 4.19, with no TLS profile flags on either', () => {
    const at18 = render('GCP', '4.18.3');
    const at19 = render('GCP', '4.19.5');
    expect(kinds(at18)).not.toContain('ValidatingAdmissionPolicy/network-tier-annotation-validation-policy');
    expect(kinds(at19)).toContain('ValidatingAdmissionPolicy/network-tier-annotation-validation-policy');
    expect([...flagsOf(at18), ...flagsOf(at19)].filter((f) => f.startsWith('--tls-'))).toEqual([]);
  });

  test('GIVEN GCP at 4.20.3 WHEN rendered THEN the default-deny NetworkPolicies are there; at 4.19.5 they are not', () => {
    const policies = (r: string) => kinds(render('GCP', r)).filter((k) => k.startsWith('NetworkPolicy/'));
    expect(policies('4.20.3')).toHaveLength(2);
    expect(policies('4.19.5')).toEqual([]);
  });
});

describe("the AWS cloud.conf: NodeIPFamilies as the release's operator writes it", () => {
  const SOURCE = '[Global]\nNodeIPFamilies = ipv4\nNodeIPFamilies = ipv6\n';

  test('GIVEN a dual-stack cloud.conf WHEN written with joined lists (release-4.21 and earlier) THEN one comma-separated NodeIPFamilies key, as go-ini ReflectFrom writes a slice', () => {
    expect(transformAwsCloudConfig(SOURCE, { joinLists: true }).config).toBe(
      '[Global]\nDisableSecurityGroupIngress                     = false\n' +
        'NodeIPFamilies                                  = ipv4,ipv6\n' +
        'ClusterServiceLoadBalancerHealthProbeMode       = Shared\nClusterServiceSharedLoadBalancerHealthProbePort = 0\n',
    );
  });

  test('GIVEN a dual-stack cloud.conf WHEN written as release-4.22 writes it THEN one NodeIPFamilies key per family', () => {
    expect(transformAwsCloudConfig(SOURCE).config).toBe(
      '[Global]\nDisableSecurityGroupIngress                     = false\n' +
        'NodeIPFamilies                                  = ipv4\nNodeIPFamilies                                  = ipv6\n' +
        'ClusterServiceLoadBalancerHealthProbeMode       = Shared\nClusterServiceSharedLoadBalancerHealthProbePort = 0\n',
    );
  });

  test.each([
    ['4.21.5', 'ipv4,ipv6'],
    ['4.22.3', 'ipv4\nNodeIPFamilies                                  = ipv6'],
  ])('GIVEN an AWS spec at %s WHEN its cloud.conf is transformed THEN NodeIPFamilies is written as that release writes it', (release, families) => {
    const spec = parsedSpec(platformSpec('AWS', 'p', { openshift: { release } }));
    expect(AWS_PLATFORM_FACTS.transformCloudConfig(SOURCE, spec).config).toContain(`NodeIPFamilies                                  = ${families}\n`);
  });
});

describe('gitops mode renders IBM Cloud, Power VS, Nutanix and OpenStack at 4.16 to 4.21 as each release branch renders them', () => {
  // pkg/cloud/{ibm,powervs}/assets/deployment.yaml and pkg/cloud/nutanix/assets/cloud-controller-manager-deployment.yaml at
  // openshift/cluster-cloud-controller-manager-operator@6148c0cc (release-4.21), the same list on release-4.16 to 4.20
  const NINE =
    '--tls-cipher-suites=TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,' +
    'TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,' +
    'TLS_AES_128_GCM_SHA256,TLS_CHACHA20_POLY1305_SHA256,TLS_AES_256_GCM_SHA384';
  const SIX =
    '--tls-cipher-suites=TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,' +
    'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256';
  const PLATFORMS = ['IBMCloud', 'PowerVS', 'Nutanix', 'OpenStack'];

  test.each(RELEASES.flatMap((r) => PLATFORMS.map((p) => [p, r] as const)))(
    'GIVEN %s at %s in gitops mode WHEN checked THEN no release problem',
    (platform, release) => {
      expect(releaseProblems(platform, release)).toEqual([]);
    },
  );

  test.each([
    ['IBMCloud', '4.16.9', [NINE]],
    ['IBMCloud', '4.21.5', [NINE]],
    ['PowerVS', '4.18.3', [NINE]],
    ['Nutanix', '4.20.3', [SIX]],
    ['OpenStack', '4.20.3', []],
  ])('GIVEN %s at %s WHEN rendered THEN the TLS flags are the hard-coded list of that release, or none', (platform, release, tls) => {
    expect(flagsOf(render(platform, release)).filter((f) => f.startsWith('--tls-'))).toEqual(tls);
  });

  test.each(PLATFORMS)('GIVEN %s at 4.22.3 WHEN rendered THEN the TLS flags come from the TLS profile', (platform) => {
    expect(
      flagsOf(render(platform, '4.22.3'))
        .filter((f) => f.startsWith('--tls-'))
        .map((f) => f.split('=')[0]),
    ).toEqual(['--tls-cipher-suites', '--tls-min-version']);
  });

  test('GIVEN OpenStack at 4.18.3 WHEN rendered THEN the Service has the webhooks port; Nutanix at 4.19.5 has not', () => {
    expect(service(render('OpenStack', '4.18.3')).spec.ports.map((p: Obj) => p.port)).toEqual([10258, 10260]);
    expect(service(render('Nutanix', '4.19.5')).spec.ports.map((p: Obj) => p.port)).toEqual([10258]);
  });
});

describe('gitops mode renders vSphere at 4.16 to 4.21 as each release branch renders it', () => {
  const VSPHERE = {
    vsphere: {
      vcenters: [{ server: 'vc1', datacenters: ['DC1'] }],
      failureDomains: [
        {
          name: 'fd1',
          region: 'r',
          zone: 'z',
          server: 'vc1',
          topology: { datacenter: 'DC1', computeCluster: '/DC1/host/c', networks: ['n'], datastore: '/DC1/datastore/d' },
        },
      ],
    },
  };
  const envNames = (objects: Obj[]): string[] => ccmContainer(objects).env.map((e: Obj) => e.name);

  test.each(RELEASES)('GIVEN vSphere at %s in gitops mode WHEN checked THEN no release problem', (release) => {
    expect(releaseProblems('VSphere', release, VSPHERE)).toEqual([]);
  });

  test.each([
    ['4.16.9', false],
    ['4.20.3', false],
    ['4.21.5', true],
    ['4.22.3', true],
  ])('GIVEN vSphere at %s WHEN rendered THEN the ADDITIONAL_NODE_LABELS env is there: %s (release-4.21 added it)', (release, labels) => {
    const objects = render('VSphere', release, VSPHERE);
    expect(envNames(objects).includes('ADDITIONAL_NODE_LABELS')).toBe(labels);
  });

  test('GIVEN vSphere at 4.20.3 WHEN rendered THEN no TLS flags and --secure-port=0 last, as release-4.20 writes them', () => {
    expect(flagsOf(render('VSphere', '4.20.3', VSPHERE)).slice(-2)).toEqual(['--use-service-account-credentials=true', '--secure-port=0']);
  });
});

describe('the support table users read', () => {
  test('GIVEN docs/operator-handover.md WHEN read THEN it holds the support table written from the tables in src/', () => {
    const page = fs.readFileSync(path.join(__dirname, '..', 'docs', 'operator-handover.md'), 'utf8');
    expect(page).toContain(`${supportTableMarkdown()}\n`);
  });

  test('GIVEN the support table WHEN read THEN 4.20 is EUS, renders all nine platforms in gitops mode and in operator mode, and takes the way back before any update', () => {
    expect(supportTableRows().find((r) => r[0].startsWith('4.20'))).toEqual([
      '4.20 (EUS)',
      'AWS, Azure, Azure Stack Hub, GCP, IBM Cloud, Power VS, OpenStack, vSphere, Nutanix',
      'AWS, Azure, Azure Stack Hub, GCP, IBM Cloud, Power VS, OpenStack, vSphere, Nutanix',
      'z-stream: way back first; minor: way back first; EUS-to-EUS: way back first',
    ]);
  });

  test.each([
    ['AWS', '4.16.9'],
    ['Nutanix', '4.20.3'],
    ['GCP', '4.18.3'],
  ])('GIVEN %s at %s in operator mode WHEN checked THEN no release problem, as the table says', (platform, release) => {
    expect(releaseProblems(platform, release, { managementMode: 'operator' })).toEqual([]);
  });

  test('GIVEN AWS at 4.15.2 in operator mode WHEN checked THEN one error: payloads before 4.16 were not compared', () => {
    expect(releaseProblems('AWS', '4.15.2', { managementMode: 'operator' })).toContainEqual(
      '"4.15.2": operator mode renders the AWS payload of release 4.16 and later; the payloads before 4.16 were not compared with their release branches part by part. ' +
        'Leave the operator to the cluster-version operator until the cluster runs 4.16 or later, then hand it over',
    );
  });
});

describe("operator mode renders each release's operator", () => {
  const operatorObjects = (release: string): Obj[] => render('AWS', release, { managementMode: 'operator' });
  const operator = (objects: Obj[]): Obj =>
    objects.find((o) => o.metadata.name === 'cluster-cloud-controller-manager-operator' && o.kind === 'Deployment')!;

  test('GIVEN AWS at 4.21.5 in operator mode WHEN rendered THEN the operator runs the kube-rbac-proxy sidecar of release-4.21 with the pinned image', () => {
    const objects = operatorObjects('4.21.5');
    const pod = operator(objects).spec.template.spec;
    expect(pod.containers.map((c: Obj) => c.name)).toEqual(['cluster-cloud-controller-manager', 'config-sync-controllers', 'kube-rbac-proxy']);
    expect(pod.containers[2].image).toMatch(/kube-rbac-proxy|@sha256:/);
    expect(pod.containers[0].command[2]).toContain('--metrics-bind-address=127.0.0.1:9257');
    expect(pod.containers[0].command[2]).not.toContain('--webhook-port');
    expect(pod.volumes.map((v: Obj) => v.name)).toEqual(['images', 'host-etc-kube', 'auth-proxy-config', 'cloud-controller-manager-operator-tls']);
    const images = JSON.parse(objects.find((o) => o.metadata.name === 'cloud-controller-manager-images')!.data['images.json']);
    expect(Object.keys(images)).not.toContain('kubeRbacProxy');
  });

  test('GIVEN AWS at 4.18.3 in operator mode without spec.images.kubeRbacProxy WHEN checked THEN one error naming the field and where to read it', () => {
    const spec = platformSpec('AWS', 'p', { managementMode: 'operator', openshift: { release: '4.18.3' } });
    delete spec.spec.images.kubeRbacProxy;
    const problems = checkSpec(parsedSpec(spec)).filter((p) => p.path.join('.') === 'spec.images.kubeRbacProxy');
    expect(problems.map((p) => p.message)).toEqual([
      "is required in operator mode on release 4.18.3, whose operator Deployment runs a kube-rbac-proxy sidecar (until 4.21); pin the cluster's own, read with: " +
        'oc get deployment -n openshift-cloud-controller-manager-operator cluster-cloud-controller-manager-operator -o jsonpath=\'{.spec.template.spec.containers[?(@.name=="kube-rbac-proxy")].image}\'',
    ]);
  });
});

describe('phase external on a release whose operators already run the CCM', () => {
  test.each([
    ['AWS', '4.14.30', '1.27', '4.14'],
    ['AWS', '4.20.3', '1.33', '4.14'],
    ['GCP', '4.17.2', '1.30', '4.15'],
    ['GCP', '4.21.5', '1.34', '4.15'],
  ])(
    'GIVEN %s at %s with migration phase external WHEN checked THEN one error on spec.migration.phase: nothing to migrate, remove spec.migration',
    (platform, release, k8s, since) => {
      const problems = checkSpec(
        parsedSpec(platformSpec(platform, 'p', { openshift: { release }, migration: { phase: 'external', kubernetesVersion: k8s } })),
      );
      expect(problems.filter((p) => p.path.join('.') === 'spec.migration.phase').map((p) => p.message)).toEqual([
        `"external": OpenShift ${release.split('.').slice(0, 2).join('.')} runs the external CCM on ${platform} by default (since ${since}): the release's operators have already moved the cluster to it, ` +
          "so there is no migration, and a migration's way back and MIGRATION.md steps do not apply; remove spec.migration",
      ]);
    },
  );

  test('GIVEN AWS at 4.13.0 with migration phase external WHEN checked THEN no phase problem: 4.13 still runs the in-tree provider', () => {
    const problems = checkSpec(
      parsedSpec(platformSpec('AWS', 'p', { openshift: { release: '4.13.0' }, migration: { phase: 'external', kubernetesVersion: '1.26' } })),
    );
    expect(problems.filter((p) => p.path.join('.') === 'spec.migration.phase')).toEqual([]);
  });
});

describe('spec.tls before 4.22, whose operators pass no TLS profile to the CCM', () => {
  const dir = useTempDir();

  /** The warnings loading one spec of `platform` at `release` with `tls` gives. */
  function warnings(platform: string, release: string, tls: Record<string, unknown>): string[] {
    writeFile(dir(), 'c.yaml', platformSpec(platform, 'c', { openshift: { release }, tls }));
    return loadFleet(dir()).warnings.map((w) => w.message);
  }

  test.each([
    ['AWS', '4.20.3', "the CCM's own defaults (no --tls-* flag)"],
    ['Azure', '4.18.3', "the CCM's own defaults (no --tls-* flag)"],
    ['IBMCloud', '4.16.9', 'the hard-coded list of 9 cipher suites in --tls-cipher-suites'],
    ['Nutanix', '4.21.5', 'the hard-coded list of 6 cipher suites in --tls-cipher-suites'],
  ])(
    'GIVEN %s at %s with spec.tls.profile Modern WHEN loaded THEN one warning: no effect, what the release uses instead, from when it counts',
    (platform, release, instead) => {
      const minor = release.split('.').slice(0, 2).join('.');
      expect(warnings(platform, release, { profile: 'Modern' })).toEqual([
        `cluster c: spec.tls.profile "Modern" has no effect on OpenShift ${release}: the operator of ${minor} passes no TLS profile to the CCM, which serves with ${instead}; ` +
          'the profile takes effect from 4.22 (--tls-cipher-suites / --tls-min-version)',
      ]);
    },
  );

  test.each([
    ['AWS', '4.22.3', { profile: 'Modern' }],
    ['AWS', '4.20.3', {}],
  ])('GIVEN %s at %s with spec.tls %j WHEN loaded THEN no TLS warning', (platform, release, tls) => {
    expect(warnings(platform, release, tls).filter((w) => w.includes('spec.tls'))).toEqual([]);
  });
});
