import { loadFleet } from '../src/fleet/load';
import { fleetProblems, platformSpec, useTempDir, writeFile } from './helpers';

const dir = useTempDir();

describe('platform inputs in the cluster spec: validation', () => {
  test('Azure Stack Hub needs the endpoints file as cloud-conf key "endpoints"', () => {
    // GIVEN an ASH spec without extraKeys.endpoints
    writeFile(dir(), 'c.yaml', platformSpec('Azure', 'c', { azure: { cloudName: 'AzureStackCloud' }, cloudConfig: { file: 'c.json' } }));
    writeFile(dir(), 'c.json', '{}');
    // THEN the field is named with the fix
    expect(fleetProblems(dir())).toEqual([
      'c.yaml:26: spec.cloudConfig.extraKeys.endpoints: is required for Azure Stack Hub (spec.azure.cloudName AzureStackCloud): the CCM and node manager read the ' +
        'Azure Stack environment from cloud-conf key "endpoints"; point it at the endpoints JSON of the cloud-provider-config ConfigMap',
    ]);
  });

  test('an unknown Azure cloud lists the clouds', () => {
    writeFile(dir(), 'c.yaml', platformSpec('Azure', 'c', { azure: { cloudName: 'AzureMoonCloud' } }));
    expect(fleetProblems(dir())[0]).toMatch(
      /^c\.yaml:\d+: spec\.azure\.cloudName: "AzureMoonCloud" is not allowed; expected one of: AzurePublicCloud, AzureUSGovernmentCloud, AzureChinaCloud, AzureGermanCloud, AzureStackCloud/,
    );
  });

  test('extra cloud-conf keys are read, sorted, and passed to cloud-conf unchanged', () => {
    writeFile(
      dir(),
      'c.yaml',
      platformSpec('Azure', 'c', {
        azure: { cloudName: 'AzureStackCloud' },
        cloudConfig: { file: 'c.json', extraKeys: { endpoints: 'e.json', 'ca-bundle.pem': 'ca.pem' } },
      }),
    );
    writeFile(dir(), 'c.json', '{}');
    writeFile(dir(), 'e.json', '{"name":"AzureStackCloud"}\n');
    writeFile(dir(), 'ca.pem', '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    const [cluster] = loadFleet(dir()).clusters;
    expect(cluster.cloudConfExtraData).toEqual({
      'ca-bundle.pem': '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
      endpoints: '{"name":"AzureStackCloud"}\n',
    });
    expect(Object.keys(cluster.cloudConfExtraData!)).toEqual(['ca-bundle.pem', 'endpoints']);
    expect(cluster.cloudConf).toBe('{\n  "cloud": "AzureStackCloud",\n  "vmType": "standard"\n}\n');
  });

  test('an extra key named cloud.conf, a private key, or a credential in an extra file is refused', () => {
    writeFile(dir(), 'a.yaml', platformSpec('GCP', 'a', { cloudConfig: { file: 'a.conf', extraKeys: { 'cloud.conf': 'x' } } }));
    writeFile(dir(), 'a.conf', '');
    writeFile(dir(), 'b.yaml', platformSpec('GCP', 'b', { cloudConfig: { file: 'a.conf', extraKeys: { 'tls.key': 'k.pem' } } }));
    writeFile(dir(), 'k.pem', '-----BEGIN RSA PRIVATE KEY-----\nabc\n-----END RSA PRIVATE KEY-----\n');
    writeFile(dir(), 'c.yaml', platformSpec('GCP', 'c', { cloudConfig: { file: 'a.conf', extraKeys: { extra: 's.json' } } }));
    writeFile(dir(), 's.json', '{"clientSecret": "hunter2"}');
    expect(fleetProblems(dir())).toEqual([
      'a.yaml:27: spec.cloudConfig.extraKeys.cloud.conf: is the key of the cloud config itself; use spec.cloudConfig.file',
      'k.pem: cluster b: holds a private key; remove it: cloud-conf is committed to git and never carries credentials',
      's.json: cluster c: "clientSecret" holds a credential; remove it: the GCP cloud controller manager reads its credentials from Secret ' +
        'openshift-cloud-controller-manager/gcp-ccm-cloud-credentials, which the cloud-credential-operator creates from CredentialsRequest openshift-gcp-ccm, ' +
        'and credentials never go into git',
    ]);
  });

  test('a vSphere failure domain on an unlisted vCenter, and a vCenter listed twice', () => {
    writeFile(
      dir(),
      'c.yaml',
      platformSpec('VSphere', 'c', {
        vsphere: {
          vcenters: [
            { server: 'vc1', datacenters: ['dc1'] },
            { server: 'vc1', datacenters: ['dc2'] },
          ],
          failureDomains: [{ name: 'a', region: 'r', zone: 'z', server: 'vc9', topology: { datacenter: 'dc1' } }],
        },
      }),
    );
    expect(fleetProblems(dir())).toEqual([
      'c.yaml:29: spec.vsphere.vcenters.1.server: "vc1" is listed twice; keep one entry per vCenter',
      'c.yaml:36: spec.vsphere.failureDomains.0.server: "vc9" is not one of spec.vsphere.vcenters ("vc1", "vc1"); add the vCenter or fix the server',
    ]);
  });

  test('vSphere inputs reach the transform: vCenters, zones, node networking, dual-stack VIP exclusions', () => {
    writeFile(
      dir(),
      'c.yaml',
      platformSpec('VSphere', 'c', {
        cloudConfig: { file: 'c.conf' },
        network: { serviceNetwork: ['172.30.0.0/16', 'fd02::/112'] },
        vsphere: {
          vcenters: [{ server: 'vc1', port: 443, datacenters: ['dc1'] }],
          failureDomains: [
            { name: 'a', region: 'r', zone: 'za', server: 'vc1', topology: { datacenter: 'dc1' } },
            { name: 'b', region: 'r', zone: 'zb', server: 'vc1', topology: { datacenter: 'dc2' } },
          ],
          nodeNetworking: { internal: { networkSubnetCidr: ['10.0.0.0/16'] } },
          apiServerInternalIPs: ['10.0.0.5'],
          ingressIPs: ['10.0.0.6'],
        },
      }),
    );
    writeFile(dir(), 'c.conf', '[Global]\ninsecure-flag = 1\n');
    const [cluster] = loadFleet(dir()).clusters;
    // Release 4.22 (the spec's) writes the fields in the Go structs' order, as gopkg.in/yaml.v2 does.
    expect(cluster.cloudConf).toBe(
      [
        'global:',
        '  insecureFlag: true',
        '  ipFamily:',
        '  - ipv4',
        '  - ipv6',
        'vcenter:',
        '  vc1:',
        '    server: vc1',
        '    port: 443',
        '    datacenters:',
        '    - dc1',
        '    - dc2',
        'labels:',
        '  zone: openshift-zone',
        '  region: openshift-region',
        'nodes:',
        '  internalNetworkSubnetCidr: 10.0.0.0/16',
        '  excludeInternalNetworkSubnetCidr: 10.0.0.5/32,10.0.0.6/32,fd69::2/128',
        '  excludeExternalNetworkSubnetCidr: 10.0.0.5/32,10.0.0.6/32,fd69::2/128',
        '',
      ].join('\n'),
    );
  });

  test('a bad CIDR or IP is reported at its field', () => {
    writeFile(
      dir(),
      'c.yaml',
      platformSpec('VSphere', 'c', {
        network: { serviceNetwork: ['172.30.0.0/33'] },
        vsphere: { vcenters: [{ server: 'vc1', datacenters: ['dc1'] }], ingressIPs: ['10.0.0.300'] },
      }),
    );
    expect(fleetProblems(dir()).map((p) => p.replace(/^c\.yaml:\d+: /, ''))).toEqual([
      'spec.network.serviceNetwork.0: "172.30.0.0/33": is not a CIDR (address/prefix)',
      'spec.vsphere.ingressIPs.0: "10.0.0.300": is not an IP address',
    ]);
  });

  test('IBM credentials given as a file path are not credentials', () => {
    writeFile(dir(), 'c.yaml', platformSpec('IBMCloud', 'c', { cloudConfig: { file: 'c.conf' } }));
    writeFile(dir(), 'c.conf', '[provider]\ng2Credentials = /etc/vpc/ibmcloud_api_key\n');
    expect(loadFleet(dir()).clusters[0].cloudConf).toBe('[provider]\ng2Credentials = /etc/vpc/ibmcloud_api_key\n');
  });

  test('a password given as a path is still a credential', () => {
    writeFile(dir(), 'c.yaml', platformSpec('IBMCloud', 'c', { cloudConfig: { file: 'c.conf' } }));
    writeFile(dir(), 'c.conf', '[provider]\npassword = /not-a-path\n');
    expect(fleetProblems(dir())[0]).toContain("c.conf:2: cluster c: 'password' (line 2) holds a credential");
  });
});
