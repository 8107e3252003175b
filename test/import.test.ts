import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'yaml';
import { runCli } from '../src/cli';
import { ExportedObject, importLiveCluster, defaultName } from '../src/import/live-cluster';
import { isUserError } from '../src/util/user-error';
import { loadFleet } from '../src/fleet/load';
import { RELEASE_REQUIRED_MESSAGE } from '../src/openshift/release-problems';
import { captureIo, readTree, useTempDir, writeFile } from './helpers';

const REPO = path.resolve(__dirname, '..');
const dir = useTempDir();

function infrastructure(platformStatus: Record<string, unknown>, extra: Record<string, unknown> = {}): ExportedObject {
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'Infrastructure',
    metadata: { name: 'cluster' },
    spec: { cloudConfig: { name: 'cloud-provider-config', key: 'config' } },
    status: { infrastructureName: 'prod-eu-1-ab12c', controlPlaneTopology: 'HighlyAvailable', platformStatus, ...extra },
  };
}

function cloudProviderConfig(data: Record<string, string>): ExportedObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cloud-provider-config', namespace: 'openshift-config' }, data };
}

function proxy(httpProxy: string): ExportedObject {
  return { apiVersion: 'config.openshift.io/v1', kind: 'Proxy', metadata: { name: 'cluster' }, status: { httpProxy } };
}

function importError(objects: ExportedObject[]): string {
  try {
    importLiveCluster(objects);
  } catch (e) {
    if (isUserError(e, 'import')) {
      return e.message;
    }
    throw e;
  }
  throw new Error("expected a user error of kind 'import'");
}

describe('import: from oc get -o yaml to a cluster spec', () => {
  test('the vSphere example export becomes a valid spec with every input the operator reads', () => {
    // GIVEN the example export (Infrastructure, a List of Network, Proxy, FeatureGate, APIServer and ConfigMaps)
    const out = dir();
    const cap = captureIo();
    // WHEN it is imported
    const code = runCli(['import', '--from', path.join(REPO, 'examples', 'import', 'vsphere-live'), '--out', out], cap.io);
    // THEN the spec and its cloud config are written and validate
    expect(code).toBe(0);
    expect(Object.keys(readTree(out)).sort()).toEqual(['vsphere-lab-7.cloud.conf', 'vsphere-lab-7.yaml']);
    const spec = parse(fs.readFileSync(path.join(out, 'vsphere-lab-7.yaml'), 'utf8'));
    expect(spec.spec).toMatchObject({
      distribution: 'openshift',
      platform: 'VSphere',
      infrastructureName: 'vsphere-lab-7-q2w3e',
      cloudConfig: { file: 'vsphere-lab-7.cloud.conf' },
      network: { serviceNetwork: ['172.30.0.0/16'] },
      proxy: {
        httpProxy: 'http://proxy.lab.example.com:3128',
        httpsProxy: 'http://proxy.lab.example.com:3128',
        noProxy: '.cluster.local,.svc,10.30.0.0/16,127.0.0.1,localhost',
      },
      featureGates: { enabled: ['VSphereMixedNodeEnv'], disabled: ['VSphereMultiVCenterDay2'] },
      tls: { profile: 'Custom', minTLSVersion: 'VersionTLS12', ciphers: ['ECDHE-ECDSA-AES128-GCM-SHA256', 'ECDHE-RSA-AES128-GCM-SHA256'] },
    });
    expect(Object.keys(spec.spec.images)).toEqual(['cloudControllerManagerOperator', 'cloudControllerManagerVSphere']);
    expect(spec.spec.vsphere.failureDomains[0].topology.datacenter).toBe('dc1');
    expect(fs.readFileSync(path.join(out, 'vsphere-lab-7.cloud.conf'), 'utf8')).toContain('[VirtualCenter "vcenter.example.com"]');
    expect(loadFleet(out).clusters.map((c) => c.spec.metadata.name)).toEqual(['vsphere-lab-7']);
    expect(cap.stdout()).toContain('next: ccm-gitops validate-spec');
  });

  test('GIVEN an import into a folder outside the current one WHEN the validate-spec command it prints runs THEN that spec is valid there too', () => {
    // GIVEN the example export imported into a temporary folder (outside the current folder, no defaults.yaml above it)
    const out = dir();
    const cap = captureIo();
    expect(runCli(['import', '--from', path.join(REPO, 'examples', 'import', 'vsphere-live'), '--out', out], cap.io)).toBe(0);
    const next = /^next: ccm-gitops (validate-spec .*)$/m.exec(cap.stdout())![1].split(' ');
    // WHEN the printed command runs
    const check = captureIo();
    const code = runCli(next, check.io);
    // THEN it accepts the spec as import did: the spec's own folder holds its cloud config
    expect({ code, stderr: check.stderr() }).toEqual({ code: 0, stderr: '' });
  });

  test('AWS: region and service endpoints from the platform status; defaults for what is missing, with warnings', () => {
    const result = importLiveCluster([
      infrastructure({ type: 'AWS', aws: { region: 'eu-west-1', serviceEndpoints: [{ name: 'ec2', url: 'https://ec2.example.com' }] } }),
      cloudProviderConfig({ config: '[Global]\n' }),
    ]);
    expect(result.name).toBe('prod-eu-1');
    expect(result.spec.spec).toEqual({
      distribution: 'openshift',
      platform: 'AWS',
      infrastructureName: 'prod-eu-1-ab12c',
      images: {},
      cloudConfig: { file: 'prod-eu-1.cloud.conf' },
      aws: { region: 'eu-west-1', serviceEndpoints: [{ name: 'ec2', url: 'https://ec2.example.com' }] },
    });
    expect(result.warnings.map((w) => w.split(':')[0])).toEqual([
      'no cloud-controller-manager-images ConfigMap in the export',
      'no FeatureGate "cluster" with status in the export',
      'no ClusterVersion "version" in the export',
      'no APIServer "cluster" in the export',
    ]);
  });

  test('Azure Stack Hub: the cloud name and the endpoints key become spec.azure and spec.cloudConfig.extraKeys', () => {
    const result = importLiveCluster([
      infrastructure({ type: 'Azure', azure: { cloudName: 'AzureStackCloud' } }),
      cloudProviderConfig({ config: '{"cloud":"AzureStackCloud"}', endpoints: '{"name":"AzureStackCloud"}' }),
    ]);
    expect(result.spec.spec.azure).toEqual({ cloudName: 'AzureStackCloud' });
    expect(result.spec.spec.cloudConfig).toEqual({ file: 'prod-eu-1.cloud.conf', extraKeys: { endpoints: 'prod-eu-1.endpoints' } });
    expect(result.files).toEqual([
      { name: 'prod-eu-1.cloud.conf', content: '{"cloud":"AzureStackCloud"}' },
      { name: 'prod-eu-1.endpoints', content: '{"name":"AzureStackCloud"}' },
    ]);
  });

  test.each([
    [
      'INI',
      'OpenStack',
      {},
      '# written by the installer\n[Global]\n; old: use-octavia = true\nregion = RegionOne ; the region\n',
      '[Global]\nregion = RegionOne\n',
    ],
    ['YAML', 'VSphere', {}, '# vCenters\nglobal:\n  # the port\n  port: 443 # https\n', 'global:\n  port: 443\n'],
  ])('a comment in the live %s cloud config is not written into the .cloud.conf the user commits', (_format, type, status, config, written) => {
    // GIVEN a live cloud-provider-config with whole-line and inline comments
    const result = importLiveCluster([infrastructure({ type, ...status }), cloudProviderConfig({ config })]);
    // THEN the written config holds the same settings and no comment
    expect(result.files.find((f) => f.name === 'prod-eu-1.cloud.conf')?.content).toBe(written);
  });

  test('a comment in another key of the live cloud-provider-config is not written into the file the user commits', () => {
    // GIVEN a live cloud-provider-config whose extra key (a CA bundle) carries comment lines
    const ca = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
    const result = importLiveCluster([
      infrastructure({ type: 'OpenStack' }),
      cloudProviderConfig({ config: '[Global]\nregion = RegionOne\n', 'ca-bundle.pem': `# Issuer: the old CA\n${ca}` }),
    ]);
    // THEN the written extra file holds the certificate and no comment
    expect(result.files.find((f) => f.name === 'prod-eu-1.ca-bundle.pem')?.content).toBe(ca);
  });

  test('single-replica topology and TLS adherence omitted (NoOpinion), which ignores the profile', () => {
    const result = importLiveCluster([
      infrastructure({ type: 'GCP' }, { controlPlaneTopology: 'SingleReplica' }),
      cloudProviderConfig({ config: '[global]\nproject-id = p\n' }),
      { apiVersion: 'config.openshift.io/v1', kind: 'APIServer', metadata: { name: 'cluster' }, spec: { tlsSecurityProfile: { type: 'Modern' } } },
    ]);
    expect(result.spec.spec.controlPlaneTopology).toBe('SingleReplica');
    expect(result.spec.spec.tls).toBeUndefined();
  });

  test.each([
    [
      'BareMetal',
      { type: 'BareMetal' },
      'platform BareMetal needs no cloud controller manager: the operator renders nothing for it and the kubelets run without --cloud-provider=external; nothing to import',
    ],
    [
      'None',
      { type: 'None' },
      'platform None needs no cloud controller manager: the operator renders nothing for it and the kubelets run without --cloud-provider=external; nothing to import',
    ],
    [
      'External with a partner CCM',
      { type: 'External', external: { cloudControllerManager: { state: 'External' } } },
      'platform External with cloudControllerManager.state External: the kubelets run with --cloud-provider=external and the platform partner supplies the cloud ' +
        "controller manager; OpenShift renders none, so there is nothing to import; deploy the partner's CCM as the partner documents",
    ],
    [
      'External without',
      { type: 'External' },
      'platform External without an external cloud controller manager: the kubelets run without a cloud provider and no CCM is needed; nothing to import',
    ],
    [
      'unknown',
      { type: 'Moon' },
      'platform Moon is not one ccm-gitops renders; supported: AWS, AlibabaCloud, Azure, GCP, IBMCloud, Nutanix, OpenStack, PowerVS, VSphere',
    ],
  ])('%s platform: a clear message and nothing imported', (_name, platformStatus, message) => {
    expect(importError([infrastructure(platformStatus)])).toBe(message);
  });

  test('missing objects and keys name what to export', () => {
    expect(importError([])).toBe('no Infrastructure "cluster" in the export; add it: oc get infrastructure cluster -o yaml');
    expect(importError([infrastructure({ type: 'AWS' })])).toBe(
      'Infrastructure spec.cloudConfig names ConfigMap openshift-config/cloud-provider-config, which is not in the export; ' +
        'add it: oc get cm -n openshift-config cloud-provider-config -o yaml',
    );
    expect(importError([infrastructure({ type: 'AWS' }), cloudProviderConfig({ other: 'x' })])).toBe(
      'key config specified in infra resource does not exist in source configmap openshift-config/cloud-provider-config',
    );
    expect(importError([infrastructure({ type: 'AWS' }, { controlPlaneTopology: 'External' })])).toContain(
      'controlPlaneTopology External (hosted control plane)',
    );
  });

  test('GIVEN an export without ClusterVersion WHEN imported THEN the files are written for editing, and the exit is 1 with the problems validate-spec would report', () => {
    // GIVEN a GCP export whose spec validate-spec refuses: no ClusterVersion (no spec.openshift.release), no images ConfigMap
    const from = dir();
    writeFile(
      from,
      'export.yaml',
      [infrastructure({ type: 'GCP' }), cloudProviderConfig({ config: '[global]\nproject-id = p\n' })].map((o) => JSON.stringify(o)).join('\n---\n'),
    );
    const out = path.join(from, 'out');
    const cap = captureIo();
    // WHEN imported
    const code = runCli(['import', '--from', from, '--out', out], cap.io);
    // THEN exit 1, the files stay for the user to complete, and the error says what validate-spec would say
    expect(code).toBe(1);
    expect(Object.keys(readTree(out)).sort()).toEqual(['prod-eu-1.cloud.conf', 'prod-eu-1.yaml']);
    const spec = path.join(out, 'prod-eu-1.yaml');
    expect(cap.stderr()).toContain(
      `error: ccm-gitops validate-spec would refuse the spec written (2 problems); fix ${spec}, then run ccm-gitops validate-spec ${spec}\n` +
        `  ${spec}:6: spec.openshift.release: ${RELEASE_REQUIRED_MESSAGE}\n` +
        `  ${spec}:10: spec.images.cloudControllerManagerGCP: is required for platform GCP in gitops mode but missing; pin it by digest (repo@sha256:...) or by an explicit tag\n`,
    );
    expect(cap.stdout()).not.toContain('next:');
  });

  test('a credential in the live cloud config is refused and nothing is written', () => {
    const from = dir();
    writeFile(
      from,
      'export.yaml',
      [infrastructure({ type: 'OpenStack' }), cloudProviderConfig({ config: '[Global]\npassword = s3cret\n' })]
        .map((o) => JSON.stringify(o))
        .join('\n---\n'),
    );
    const out = path.join(from, 'out');
    const cap = captureIo();
    expect(runCli(['import', '--from', from, '--out', out], cap.io)).toBe(1);
    expect(cap.stderr()).toBe(
      "error: ConfigMap openshift-config/cloud-provider-config: 'password' (line 2) holds a credential; remove it: the OpenStack cloud controller " +
        'manager reads its credentials from Secret openshift-cloud-controller-manager/openstack-cloud-credentials, which the cloud-credential-operator ' +
        'creates from CredentialsRequest openshift-openstack-cloud-controller-manager, and credentials never go into git; nothing was written\n',
    );
    expect(fs.existsSync(out)).toBe(false);
  });

  test('a private key in an extra key of the live config is refused', () => {
    expect(
      importError([
        infrastructure({ type: 'GCP' }),
        cloudProviderConfig({ config: '[global]\n', 'tls.key': '-----BEGIN EC PRIVATE KEY-----\nx\n-----END EC PRIVATE KEY-----\n' }),
      ]),
    ).toBe(
      'ConfigMap openshift-config/cloud-provider-config key tls.key: holds a private key; remove it: cloud-conf is committed to git and never carries credentials',
    );
  });

  test.each([
    ['Infrastructure', infrastructure({ type: 'AWS', aws: { region: 'us-east-1' } })],
    ['Proxy', proxy('http://proxy-a.example.com:3128')],
  ])('two different %s "cluster" objects in two files are refused, naming both files; nothing is written', (kind, other) => {
    // GIVEN an export whose two files hold different copies of one object
    const from = dir();
    const base = [
      infrastructure({ type: 'AWS', aws: { region: 'eu-west-1' } }),
      cloudProviderConfig({ config: '[Global]\n' }),
      proxy('http://proxy-b.example.com:3128'),
    ];
    writeFile(from, 'a.yaml', base.map((o) => JSON.stringify(o)).join('\n---\n'));
    writeFile(from, 'b.yaml', JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [other] }));
    const out = path.join(from, 'out');
    // WHEN it is imported
    const cap = captureIo();
    const code = runCli(['import', '--from', from, '--out', out], cap.io);
    // THEN import refuses to pick one, naming both files
    expect(code).toBe(1);
    expect(cap.stderr()).toBe(
      `error: the export holds two different ${kind} "cluster" objects (in ${path.join(from, 'a.yaml')} and in ${path.join(from, 'b.yaml')}); ` +
        'a cluster has one: keep the one exported from the cluster you import, and remove the other; nothing was written\n',
    );
    expect(fs.existsSync(out)).toBe(false);
  });

  test('an object exported twice, identical, is imported', () => {
    const objects = [
      infrastructure({ type: 'AWS', aws: { region: 'eu-west-1' } }),
      cloudProviderConfig({ config: '[Global]\n' }),
      proxy('http://p.example.com:3128'),
    ];
    const result = importLiveCluster([...objects, ...JSON.parse(JSON.stringify(objects))]);
    expect(result.spec.spec.proxy).toEqual({ httpProxy: 'http://p.example.com:3128' });
  });

  test('existing files are not replaced without --force', () => {
    const out = dir();
    const from = path.join(REPO, 'examples', 'import', 'vsphere-live');
    expect(runCli(['import', '--from', from, '--out', out], captureIo().io)).toBe(0);
    const cap = captureIo();
    expect(runCli(['import', '--from', from, '--out', out], cap.io)).toBe(2);
    expect(cap.stderr()).toContain('exist; pass --force to replace, or --name for another cluster name');
    expect(runCli(['import', '--from', from, '--out', out, '--force'], captureIo().io)).toBe(0);
  });

  test("the default name drops the installer's random suffix", () => {
    expect(defaultName('aws-prod-1-x7k2p')).toBe('aws-prod-1');
    expect(defaultName('short')).toBe('short');
  });
});
