import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { App, Chart } from 'cdk8s';
import { platformFor, PreparedCluster } from '../src/openshift/platforms';
import { platformSpec, preparedCluster, useTempDir } from './helpers';

type Obj = Record<string, any>;

const CLOUD_CA = '-----BEGIN CERTIFICATE-----\nMIIBcloudca\n-----END CERTIFICATE-----\n';
const INJECTED = '-----BEGIN CERTIFICATE-----\nMIIBsystem\n-----END CERTIFICATE-----\n';

function workloads(platform: string, spec: Record<string, unknown>, cloudConf: string, extra?: Record<string, string>): Obj[] {
  const prepared: PreparedCluster = { ...preparedCluster(platformSpec(platform, 'c', spec), cloudConf), cloudConfExtraData: extra };
  const chart = new Chart(new App(), 'c', { disableResourceNameHashes: true });
  platformFor(prepared.spec.spec.platform)!.renderOperands(chart, prepared);
  return chart.toJson().filter((o: Obj) => o.kind === 'Deployment' || o.kind === 'DaemonSet');
}

const VARIANTS: [string, string, Record<string, unknown>, string][] = [
  ['OpenStack', 'OpenStack', {}, '[Global]\n'],
  ['vSphere', 'VSphere', {}, 'global:\n  port: 443\n'],
  [
    'Azure Stack Hub',
    'Azure',
    { azure: { cloudName: 'AzureStackCloud' }, cloudConfig: { file: 'x', extraKeys: { endpoints: 'e', 'ca-bundle.pem': 'ca' } } },
    '{"vmType":"standard"}\n',
  ],
];

describe('item 5: the cloud-config CA reaches the trust store the CCM reads', () => {
  const dir = useTempDir();

  test.each(VARIANTS)(
    'GIVEN %s with cloud-conf key ca-bundle.pem WHEN rendered THEN every CCM/CNM pod builds its trust store from it plus the injected bundle',
    (_n, platform, spec, conf) => {
      const extra: Record<string, string> = {
        'ca-bundle.pem': CLOUD_CA,
        ...(platform === 'Azure' ? { endpoints: '{"name":"AzureStackCloud"}' } : {}),
      };
      for (const w of workloads(platform, spec, conf, extra)) {
        const pod = w.spec.template.spec;
        const volumes = Object.fromEntries(pod.volumes.map((v: Obj) => [v.name, v]));
        expect(volumes['trusted-ca']).toEqual({ name: 'trusted-ca', emptyDir: {} });
        expect(volumes['trusted-ca-injected'].configMap).toEqual({
          name: 'ccm-trusted-ca',
          items: [{ key: 'ca-bundle.crt', path: 'tls-ca-bundle.pem' }],
          optional: true,
        });
        expect(volumes['cloud-config-ca'].configMap).toEqual({ name: 'cloud-conf', items: [{ key: 'ca-bundle.pem', path: 'ca-bundle.pem' }] });
        const init = pod.initContainers.find((c: Obj) => c.name === 'wait-for-trust-bundle');
        expect(init.volumeMounts).toEqual([
          { name: 'trusted-ca-injected', mountPath: '/var/run/ccm-trust/injected', readOnly: true },
          { name: 'cloud-config-ca', mountPath: '/var/run/ccm-trust/cloud-config', readOnly: true },
          { name: 'trusted-ca', mountPath: '/etc/pki/ca-trust/extracted/pem' },
        ]);
      }
    },
  );

  test("GIVEN the init script WHEN it runs on the two bundles THEN the trust store is cloud CA, a newline, then the injected bundle (the operator's mergeCABundles order)", () => {
    // openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/controllers/trusted_ca_bundle_controller.go mergeCABundles
    const [w] = workloads('OpenStack', {}, '[Global]\n', { 'ca-bundle.pem': CLOUD_CA });
    const init = w.spec.template.spec.initContainers.find((c: Obj) => c.name === 'wait-for-trust-bundle');
    const root = dir();
    const rewrite = (s: string) =>
      s.split('/var/run/ccm-trust').join(path.join(root, 'in')).split('/etc/pki/ca-trust/extracted/pem').join(path.join(root, 'out'));
    fs.mkdirSync(path.join(root, 'in', 'injected'), { recursive: true });
    fs.mkdirSync(path.join(root, 'in', 'cloud-config'), { recursive: true });
    fs.mkdirSync(path.join(root, 'out'));
    fs.writeFileSync(path.join(root, 'in', 'injected', 'tls-ca-bundle.pem'), INJECTED);
    fs.writeFileSync(path.join(root, 'in', 'cloud-config', 'ca-bundle.pem'), CLOUD_CA);
    execFileSync('/bin/bash', ['-c', rewrite(init.command[2])], { stdio: 'pipe', timeout: 10_000 });
    expect(fs.readFileSync(path.join(root, 'out', 'tls-ca-bundle.pem'), 'utf8')).toBe(`${CLOUD_CA}\n${INJECTED}`);
  });

  test('GIVEN no ca-bundle.pem WHEN rendered THEN the injected bundle is mounted directly, as before', () => {
    const [w] = workloads('OpenStack', {}, '[Global]\n');
    const volumes = w.spec.template.spec.volumes.map((v: Obj) => v.name);
    expect(volumes).toContain('trusted-ca');
    expect(volumes).not.toContain('cloud-config-ca');
  });
});
