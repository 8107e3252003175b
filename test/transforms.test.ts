import { parseGoIni } from '../src/cloud-config/go-ini';
import { parse as parseYaml } from 'yaml';
import { transformAzureCloudConfig, transformAzureStackHubCloudConfig } from '../src/cloud-config/azure';
import { transformCloudConfig } from '../src/cloud-config';
import { transformOpenStackCloudConfig } from '../src/cloud-config/openstack';
import { passThroughCloudConfig } from '../src/cloud-config/pass-through';
import { transformVSphereCloudConfig } from '../src/cloud-config/vsphere';
import { errorOf } from './helpers';

const OPENSTACK_DEFAULT = [
  '[Global]',
  'use-clouds  = true',
  'clouds-file = /etc/openstack/secret/clouds.yaml',
  'cloud       = openstack',
  '',
  '[LoadBalancer]',
  'max-shared-lb          = 1',
  'manage-security-groups = true',
  '',
].join('\n');

describe('OpenStack transform (openshift/enhancements cloud-provider-config-upgrade.md; operator pkg/cloud/openstack)', () => {
  test.each([
    ['empty source', ''],
    [
      '[Global] with the default credentials and [BlockStorage]',
      '[Global]\nsecret-name = openstack-credentials\nsecret-namespace = kube-system\n\n[BlockStorage]\nbs-version = v2\n',
    ],
    [
      'the same plus a [LoadBalancer] with the defaults and use-octavia',
      '[Global]\nsecret-name = openstack-credentials\nsecret-namespace = kube-system\n[BlockStorage]\ntrust-device-path = false\n' +
        '[LoadBalancer]\nmax-shared-lb = 1\nmanage-security-groups = true\nuse-octavia = false\n',
    ],
  ])('%s gives the default config', (_name, source) => {
    expect(transformOpenStackCloudConfig(source).config).toBe(OPENSTACK_DEFAULT);
  });

  test.each([
    [
      'secret-name',
      'foo',
      '\'[Global] secret-name\' is set to a non-default value "foo"; remove it or set it to "openstack-credentials": the external CCM reads credentials from the cluster\'s clouds.yaml',
    ],
    [
      'secret-namespace',
      'foo',
      '\'[Global] secret-namespace\' is set to a non-default value "foo"; remove it or set it to "kube-system": the external CCM reads credentials from the cluster\'s clouds.yaml',
    ],
    [
      'kubeconfig-path',
      'https://foo',
      "'[Global] kubeconfig-path' is set to a non-default value \"https://foo\"; remove it: the external CCM reads credentials from the cluster's clouds.yaml",
    ],
  ])('[Global] %s with a non-default value is refused, with the fix', (key, value, message) => {
    const e = errorOf(() => transformOpenStackCloudConfig(`[Global]\nregion = RegionOne\n${key} = ${value}\n`));
    expect(e.message).toBe(message);
    expect(e.line).toBe(3);
  });

  test('the legacy keys are checked in a fixed order, so the error is always the same', () => {
    expect(errorOf(() => transformOpenStackCloudConfig('[Global]\nkubeconfig-path = x\nsecret-namespace = y\nsecret-name = z\n')).message).toMatch(
      /^'\[Global\] secret-name' is set to a non-default value "z"/,
    );
  });

  test("the OpenStack enhancement's story 3: a compatible custom config keeps its load-balancer settings", () => {
    const source =
      '[Global]\nsecret-name = openstack-credentials\nsecret-namespace = kube-system\n\n[LoadBalancer]\nuse-octavia=true\nlb-provider = "amphora"\n' +
      'floating-network-id="d3deb660-4190-40a3-91f1-37326fe6ec4a"\n';
    const result = transformOpenStackCloudConfig(source);
    expect(result.config).toBe(
      [
        '[Global]',
        'use-clouds  = true',
        'clouds-file = /etc/openstack/secret/clouds.yaml',
        'cloud       = openstack',
        '',
        '[LoadBalancer]',
        'lb-provider            = amphora',
        'floating-network-id    = d3deb660-4190-40a3-91f1-37326fe6ec4a',
        'max-shared-lb          = 1',
        'manage-security-groups = true',
        '',
      ].join('\n'),
    );
    expect(result.warnings).toEqual([
      "'[Global] secret-name' (line 2) is dropped: the external CCM reads credentials from the cluster's clouds.yaml",
      "'[Global] secret-namespace' (line 3) is dropped: the external CCM reads credentials from the cluster's clouds.yaml",
      "'[LoadBalancer] use-octavia' (line 6) is dropped: the external CCM always uses Octavia",
    ]);
  });

  test('a [Global] without the legacy keys is accepted (operator deviation) and other keys and sections are kept in order', () => {
    const result = transformOpenStackCloudConfig(
      '[Global]\nregion = RegionOne\n[Networking]\npublic-network-name = ext\n[LoadBalancer]\nmax-shared-lb = 3\n',
    );
    expect(result.config).toBe(
      [
        '[Global]',
        'region      = RegionOne',
        'use-clouds  = true',
        'clouds-file = /etc/openstack/secret/clouds.yaml',
        'cloud       = openstack',
        '',
        '[Networking]',
        'public-network-name = ext',
        '',
        '[LoadBalancer]',
        'max-shared-lb          = 3',
        'manage-security-groups = true',
        '',
      ].join('\n'),
    );
    expect(result.warnings).toEqual([]);
  });

  test('user values of use-clouds, clouds-file and cloud are overridden in place, with warnings', () => {
    const result = transformOpenStackCloudConfig('[Global]\ncloud = mycloud\nuse-clouds = false\n');
    expect(result.config.split('\n').slice(0, 4)).toEqual([
      '[Global]',
      'cloud       = openstack',
      'use-clouds  = true',
      'clouds-file = /etc/openstack/secret/clouds.yaml',
    ]);
    expect(result.warnings).toEqual([
      '\'[Global] use-clouds\' = "false" (line 3) is overridden with "true": the CCM uses the cluster\'s clouds.yaml',
      '\'[Global] cloud\' = "mycloud" (line 2) is overridden with "openstack": the CCM uses the cluster\'s clouds.yaml',
    ]);
  });

  test('block storage options are dropped with a warning naming them', () => {
    expect(transformOpenStackCloudConfig('[BlockStorage]\nbs-version = v3\nignore-volume-az = true\n').warnings).toEqual([
      "section '[BlockStorage]' (line 1) is dropped with bs-version, ignore-volume-az: block storage is configured in the Cinder CSI driver",
    ]);
  });

  test.each([
    ['[Global]\npassword = hunter2\n', 'password', 2],
    ['[Global]\napplication-credential-secret = s3cr3t\n', 'application-credential-secret', 2],
  ])('a credential is refused (%#)', (source, key, line) => {
    const e = errorOf(() => transformOpenStackCloudConfig(source));
    expect(e.message).toBe(
      `'${key}' (line ${line}) holds a credential; remove it: the OpenStack cloud controller manager reads credentials from the cluster's clouds.yaml ` +
        '(Secret openstack-cloud-credentials, from the OpenStack CredentialsRequest), and credentials never go into git',
    );
  });

  test.each([
    ['[Global\nx = 1\n', 'failed to read the cloud.conf: line 1: unclosed section: [Global', 1],
    ['[Global]\njust-a-word\n', 'failed to read the cloud.conf: line 2: key-value delimiter not found: just-a-word', 2],
    [
      'region = x\n[Global]\n',
      "failed to read the cloud.conf: line 1: 'region' is outside any section; move it into its section (e.g. [Global]): " +
        "the OpenStack CCM's reader rejects keys before the first section header",
      1,
    ],
  ])('syntax errors name the line (%#)', (source, message, line) => {
    const e = errorOf(() => transformOpenStackCloudConfig(source));
    expect(e.message).toBe(message);
    expect(e.line).toBe(line);
  });

  test('comments, quotes, CRLF and inline comments are read like go-ini', () => {
    const result = transformOpenStackCloudConfig('; c\r\n[Global]\r\nregion = "Region One" ; inline\r\n# c\r\n');
    expect(result.config).toContain('region      = Region One\n');
  });
});

describe('Azure transform (operator pkg/cloud/azure/azure.go)', () => {
  const run = (source: string, cloudName?: string) => JSON.parse(transformAzureCloudConfig(source, { cloudName }).config);

  test('defaults: cloud from the Infrastructure (AzurePublicCloud), vmType standard, shared health probes', () => {
    expect(run('{"tenantId":"t","subscriptionId":"s","resourceGroup":"rg"}')).toEqual({
      cloud: 'AzurePublicCloud',
      tenantId: 't',
      subscriptionId: 's',
      resourceGroup: 'rg',
      vmType: 'standard',
      clusterServiceLoadBalancerHealthProbeMode: 'shared',
    });
  });

  test("the output is indented JSON with cloud first and the user's key order", () => {
    expect(transformAzureCloudConfig('{"b":1,"a":2}').config).toBe(
      '{\n  "cloud": "AzurePublicCloud",\n  "b": 1,\n  "a": 2,\n  "vmType": "standard",\n  "clusterServiceLoadBalancerHealthProbeMode": "shared"\n}\n',
    );
  });

  test('vmType vmss is kept; a user health probe mode is overridden with a warning', () => {
    const result = transformAzureCloudConfig('{"vmType":"vmss","clusterServiceLoadBalancerHealthProbeMode":"servicenodeport"}');
    expect(JSON.parse(result.config)).toEqual({ cloud: 'AzurePublicCloud', vmType: 'vmss', clusterServiceLoadBalancerHealthProbeMode: 'shared' });
    expect(result.warnings).toEqual([
      '"clusterServiceLoadBalancerHealthProbeMode" = "servicenodeport" is overridden with "shared": ' +
        'OpenShift health-checks cluster-scope Services through the shared node port',
    ]);
  });

  test.each(['AzurePublicCloud', 'AzureUSGovernmentCloud', 'AzureChinaCloud', 'AzureGermanCloud'])('cloud %s is kept', (cloud) => {
    expect(run(`{"cloud":"${cloud}"}`, cloud).cloud).toBe(cloud);
  });

  test('an empty source or an empty cloud field take the Infrastructure cloud', () => {
    expect(run('', 'AzureChinaCloud').cloud).toBe('AzureChinaCloud');
    expect(run('{"cloud":""}', 'AzureChinaCloud').cloud).toBe('AzureChinaCloud');
  });

  test('cloud names match case-insensitively and are normalized', () => {
    expect(run('{"CLOUD":"AZUREPUBLICCLOUD","VMType":"vmss"}')).toEqual({
      cloud: 'AzurePublicCloud',
      vmType: 'vmss',
      clusterServiceLoadBalancerHealthProbeMode: 'shared',
    });
  });

  test.each([
    [
      'a conflicting cloud',
      '{"cloud":"AzureChinaCloud"}',
      undefined,
      'invalid user-provided cloud.conf: "cloud" field in user-provided cloud.conf conflicts with infrastructure object; ' +
        'the config says "AzureChinaCloud", the Infrastructure says "AzurePublicCloud": remove "cloud" from the config or fix the cluster\'s cloud name',
    ],
    ['a non-string cloud', '{"cloud":1}', undefined, 'invalid user-provided cloud.conf: "cloud" field is not a string'],
    [
      'an unsupported cloud name',
      '{}',
      'AzureMoonCloud',
      'status.platformStatus.azure.cloudName: Unsupported value: "AzureMoonCloud": supported values: "AzureChinaCloud", "AzureGermanCloud", "AzurePublicCloud", "AzureStackCloud", "AzureUSGovernmentCloud"',
    ],
    [
      'Azure Stack Hub in the Azure transform',
      '{}',
      'AzureStackCloud',
      'invalid platform, expected CloudName to be AzurePublicCloud; use the Azure Stack Hub transform for AzureStackCloud',
    ],
    ['not JSON', '{"a":', undefined, 'failed to read the cloud.conf: Unexpected end of JSON input; the Azure cloud config is a JSON object'],
    ['a JSON list', '[1]', undefined, 'failed to read the cloud.conf: the Azure cloud config must be a JSON object'],
    [
      'keys differing only in case',
      '{"CLOUD":"AzurePublicCloud","cloud":0}',
      undefined,
      'failed to read the cloud.conf: keys "CLOUD" and "cloud" differ only in case; keep one: the cloud provider reads them as the same field',
    ],
    [
      'a client secret',
      '{"aadClientId":"id","aadClientSecret":"s3cr3t"}',
      undefined,
      '"aadClientSecret" holds a credential; remove it: the credentials injector adds the client credentials at pod start ' +
        'from the azure-cloud-credentials Secret (Azure CredentialsRequest), and credentials never go into git',
    ],
  ])('%s is refused', (_name, source, cloudName, message) => {
    expect(errorOf(() => transformAzureCloudConfig(source, { cloudName })).message).toBe(message);
  });

  test('a certificate path is not taken for a credential', () => {
    expect(run('{"aadClientCertPath":"/etc/azure/cert.pfx"}').aadClientCertPath).toBe('/etc/azure/cert.pfx');
  });
});

describe('Azure Stack Hub transform (operator pkg/cloud/azurestack/azurestack.go)', () => {
  test('{} gets the cloud and vmType standard; vmss is kept', () => {
    expect(JSON.parse(transformAzureStackHubCloudConfig('{}').config)).toEqual({ cloud: 'AzureStackCloud', vmType: 'standard' });
    expect(JSON.parse(transformAzureStackHubCloudConfig('{"vmType":"vmss"}').config)).toEqual({ cloud: 'AzureStackCloud', vmType: 'vmss' });
  });

  test('no health probe mode is set', () => {
    expect(JSON.parse(transformAzureStackHubCloudConfig('{}').config).clusterServiceLoadBalancerHealthProbeMode).toBeUndefined();
  });

  test('another cloud is refused', () => {
    expect(errorOf(() => transformAzureStackHubCloudConfig('{}', { cloudName: 'AzurePublicCloud' })).message).toBe(
      'invalid platform, expected CloudName to be AzureStackCloud, got "AzurePublicCloud"; use the Azure transform for other clouds',
    );
  });
});

describe('vSphere transform (operator pkg/cloud/vsphere/vsphere_config_transformer.go)', () => {
  const INI = '[Global]\nserver = 0.0.0.0\nport = 443\nuser = user\ninsecure-flag = true\ndatacenters = us-west\nca-file = /some/path/to/a/ca.pem\n';

  test('legacy INI becomes CPI YAML: sorted keys, lists unindented (library-go reader case, without the password)', () => {
    expect(transformVSphereCloudConfig(INI).config).toBe(
      [
        'global:',
        '  caFile: /some/path/to/a/ca.pem',
        '  datacenters:',
        '  - us-west',
        '  insecureFlag: true',
        '  port: 443',
        '  server: 0.0.0.0',
        '  user: user',
        '',
      ].join('\n'),
    );
  });

  test('virtual centers, labels and nodes map to their YAML sections; the server defaults to the section name', () => {
    const source =
      '[Global]\nsecret-name = vsphere-creds\nsecret-namespace = kube-system\n' +
      '[VirtualCenter "vc1.example.com"]\ndatacenters = DC1, DC2\nport = 443\nip-family = ipv6\n' +
      '[Labels]\nzone = k8s-zone\nregion = k8s-region\n' +
      '[Nodes]\ninternal-network-subnet-cidr = 10.0.0.0/24\n' +
      '[Workspace]\nserver = vc1.example.com\n';
    const result = transformVSphereCloudConfig(source);
    expect(parseYaml(result.config)).toEqual({
      global: { secretName: 'vsphere-creds', secretNamespace: 'kube-system' },
      vcenter: { 'vc1.example.com': { datacenters: ['DC1', 'DC2'], ipFamily: ['ipv6'], port: 443, server: 'vc1.example.com' } },
      labels: { region: 'k8s-region', zone: 'k8s-zone' },
      nodes: { internalNetworkSubnetCidr: '10.0.0.0/24' },
    });
    expect(result.warnings).toEqual(["section '[Workspace]' (line 13) is not read by the vSphere cloud controller manager; dropped"]);
  });

  test('YAML input is read (field names case-insensitively) and written back sorted; unknown fields are dropped with a warning', () => {
    const result = transformVSphereCloudConfig('vcenter:\n  vc1:\n    Server: vc1\n    datacenters: [DC1]\nglobal:\n  port: 443\n  bogus: 1\n');
    expect(result.config).toBe('global:\n  port: 443\nvcenter:\n  vc1:\n    datacenters:\n    - DC1\n    server: vc1\n');
    expect(result.warnings).toEqual(['"global.bogus" is not a vSphere cloud provider field; dropped']);
  });

  test('failure domains add their datacenters, and several set the OpenShift zone and region labels', () => {
    const result = transformVSphereCloudConfig('global:\n  port: 443\nlabels:\n  zone: mine\n', {
      platformSpec: {
        vcenters: [{ server: 'vc1', port: 443, datacenters: ['DC1'] }],
        failureDomains: [
          { name: 'a', server: 'vc1', topology: { datacenter: 'DC1' } },
          { name: 'b', server: 'vc1', topology: { datacenter: 'DC2' } },
          { name: 'c', server: 'vc1', topology: { datacenter: 'DC3' } },
        ],
      },
    });
    expect(parseYaml(result.config)).toEqual({
      global: { port: 443 },
      labels: { region: 'openshift-region', zone: 'openshift-zone' },
      vcenter: { vc1: { datacenters: ['DC1', 'DC2', 'DC3'], port: 443, server: 'vc1' } },
    });
    expect(result.warnings).toEqual([
      '"labels.zone" = "mine" is overridden with "openshift-zone": with several failure domains OpenShift uses its own tag categories',
    ]);
  });

  test('one failure domain keeps the user labels', () => {
    const result = transformVSphereCloudConfig('labels:\n  zone: mine\n', {
      platformSpec: { vcenters: [{ server: 'vc1', datacenters: ['DC1'] }], failureDomains: [{ server: 'vc1', topology: { datacenter: 'DC1' } }] },
    });
    expect(parseYaml(result.config).labels).toEqual({ zone: 'mine' });
  });

  test("vCenters are the Infrastructure's: removed ones go, user settings of remaining ones stay (operator deviation)", () => {
    const source =
      'vcenter:\n  old:\n    server: old\n  vc1:\n    server: vc1\n    insecureFlag: true\n    thumbprint: "AB:CD"\n    datacenters: [X]\n';
    const result = transformVSphereCloudConfig(source, { platformSpec: { vcenters: [{ server: 'vc1', datacenters: ['DC1'] }] } });
    expect(parseYaml(result.config).vcenter).toEqual({ vc1: { datacenters: ['DC1'], insecureFlag: true, server: 'vc1', thumbprint: 'AB:CD' } });
    expect(result.warnings).toEqual(['vCenter "old" is not in the Infrastructure\'s vcenters; dropped']);
  });

  test('a failure domain on an unlisted vCenter adds it instead of crashing (operator nil-pointer bug)', () => {
    const result = transformVSphereCloudConfig('global: {}\n', {
      platformSpec: {
        vcenters: [{ server: 'vc1', datacenters: ['DC1'] }],
        failureDomains: [{ name: 'x', server: 'vc2', topology: { datacenter: 'DC9' } }],
      },
    });
    expect(parseYaml(result.config).vcenter.vc2).toEqual({ datacenters: ['DC9'], server: 'vc2' });
    expect(result.warnings).toEqual(['failure domain "x" is on vCenter "vc2", which the Infrastructure\'s vcenters do not list; added']);
  });

  test('dual stack: IP families follow the service network and the VIPs are excluded from node addresses', () => {
    const result = transformVSphereCloudConfig('global: {}\n', {
      platformSpec: {
        vcenters: [{ server: 'vc1', datacenters: ['DC1'] }],
        nodeNetworking: { internal: { networkSubnetCidr: ['10.0.0.0/24', 'fd00::/64'] } },
      },
      serviceNetwork: ['fd02::/112', '172.30.0.0/16'],
      apiServerInternalIPs: ['10.0.0.5', 'fd00::5'],
      ingressIPs: ['10.0.0.6'],
    });
    const cfg = parseYaml(result.config);
    expect(cfg.global.ipFamily).toEqual(['ipv6', 'ipv4']);
    expect(cfg.nodes).toEqual({
      internalNetworkSubnetCidr: '10.0.0.0/24,fd00::/64',
      excludeInternalNetworkSubnetCidr: '10.0.0.5/32,fd00::5/128,10.0.0.6/32,fd69::2/128',
      excludeExternalNetworkSubnetCidr: '10.0.0.5/32,fd00::5/128,10.0.0.6/32,fd69::2/128',
    });
  });

  test('single-stack IPv4 leaves ipFamily alone; IPv6 single stack sets ipv6', () => {
    const spec = { vcenters: [{ server: 'vc1', datacenters: ['DC1'] }] };
    expect(parseYaml(transformVSphereCloudConfig('global: {}\n', { platformSpec: spec, serviceNetwork: ['172.30.0.0/16'] }).config).global).toEqual(
      {},
    );
    expect(
      parseYaml(transformVSphereCloudConfig('global: {}\n', { platformSpec: spec, serviceNetwork: ['fd02::/112'] }).config).global.ipFamily,
    ).toEqual(['ipv6']);
  });

  test('user [Nodes] settings survive when the Infrastructure sets no node networking (operator deviation)', () => {
    const result = transformVSphereCloudConfig('nodes:\n  internalVmNetworkName: vm-net\n', {
      platformSpec: { vcenters: [{ server: 'vc1', datacenters: ['DC1'] }] },
    });
    expect(parseYaml(result.config).nodes).toEqual({ internalVmNetworkName: 'vm-net' });
  });

  test.each([
    ['an empty config', '  \n', 'failed to read the cloud.conf: vSphere config is empty; give the vSphere cloud config (YAML, or the legacy INI)'],
    ['":"', ':', 'failed to read the cloud.conf: ini config parsing failed: line 1: expected a section header or a variable name, got ":"'],
    [
      'a negative global port',
      '[Global]\nport = -1\n',
      'failed to read the cloud.conf: can not create CPIConfig, invalid global port parameter: parsed int bigger than zero',
    ],
    [
      'a negative vCenter port',
      '[VirtualCenter "vc"]\nport = -1\n',
      'failed to read the cloud.conf: invalid port parameter for vc vc: parsed int bigger than zero',
    ],
    [
      'a non-numeric port',
      '[Global]\nport = https\n',
      'failed to read the cloud.conf: can not parse vCenter port from ini config: strconv.ParseInt: parsing "https": invalid syntax',
    ],
    [
      'a YAML field of the wrong type',
      'global:\n  insecureFlag: "yes"\n',
      'failed to read the cloud.conf: "global.insecureFlag" must be true or false, got "yes"',
    ],
    [
      'an INI password',
      INI + 'password = password\n',
      "'password' (line 8) holds a credential; remove it: the vSphere cloud controller manager reads vCenter credentials from " +
        'the vsphere-cloud-credentials Secret (vSphere CredentialsRequest, or an existing Secret), and credentials never go into git',
    ],
    [
      'a YAML password',
      'vcenter:\n  vc1:\n    password: x\n',
      '"vcenter.vc1.password" holds a credential; remove it: the vSphere cloud controller manager reads vCenter credentials from ' +
        'the vsphere-cloud-credentials Secret (vSphere CredentialsRequest, or an existing Secret), and credentials never go into git',
    ],
  ])('%s is refused', (_name, source, message) => {
    expect(errorOf(() => transformVSphereCloudConfig(source)).message).toBe(message);
  });
});

describe('pass-through platforms (operator pkg/cloud/cloud.go)', () => {
  test.each(['GCP', 'IBMCloud', 'PowerVS', 'Nutanix', 'AlibabaCloud'] as const)('%s keeps the config byte for byte', (platform) => {
    const source = '[global]\nproject-id = p\n  multizone = true\r\n';
    expect(transformCloudConfig(platform, source)).toEqual({ config: source, warnings: [] });
  });

  test.each([
    ['JSON', '{"prismCentral":{"address":"pc","password":"x"}}', '"prismCentral.password" holds a credential'],
    ['YAML', 'Global:\n  accessKeySecret: s\n', '"Global.accessKeySecret" holds a credential'],
    ['INI', '[Global]\napi-key = abc\n', "'api-key' (line 2) holds a credential"],
  ])('a credential in a %s config is refused', (_fmt, source, start) => {
    expect(errorOf(() => passThroughCloudConfig('Nutanix', source)).message.startsWith(start)).toBe(true);
  });

  test.each(['GCP', 'IBMCloud', 'PowerVS'] as const)(
    '%s: comments are dropped from an INI config, values and quoted comment characters kept',
    (platform) => {
      // GIVEN an INI config with whole-line and inline comments, and comment characters inside quotes
      const source =
        '[global]\n; the project\nproject-id = p ; inline\n  # indented\nnode-tags = "a;b" # c\n[other "sub;x"] ; header comment\nk = v\n';
      // WHEN it passes through
      const { config } = transformCloudConfig(platform, source);
      // THEN no comment is left and every value reads as before
      expect(config).toBe('[global]\nproject-id = p\nnode-tags = "a;b"\n[other "sub;x"]\nk = v\n');
    },
  );

  test('comments are dropped from a YAML config', () => {
    // GIVEN a YAML config with comments
    const source = '# the cluster\nGlobal:\n  # old: value\n  region: cn-hangzhou # here\n';
    // WHEN it passes through
    const { config } = transformCloudConfig('AlibabaCloud', source);
    // THEN the data is the same and no comment is left
    expect(config).toBe('Global:\n  region: cn-hangzhou\n');
  });

  test('a credential reference is fine', () => {
    expect(passThroughCloudConfig('Nutanix', '{"prismCentral":{"credentialRef":{"kind":"Secret","name":"nutanix-credentials"}}}').warnings).toEqual(
      [],
    );
  });
});

describe('INI edge cases across transforms', () => {
  test('a repeated section merges into the first, later keys winning (go-ini and gcfg alike)', () => {
    expect(transformOpenStackCloudConfig('[Global]\nregion = A\n[Networking]\nx = 1\n[Global]\nregion = B\nzone = z\n').config).toContain(
      '[Global]\nregion      = B\nzone        = z\nuse-clouds  = true\n',
    );
    expect(transformCloudConfig('AWS', '[Global]\nZone = a\n[Global]\nZone = b\nVPC = v\n').config).toContain(
      'Zone                                            = b\nVPC                                             = v\n',
    );
  });

  test('sections in odd order: [LoadBalancer] before [Global] keeps its place, [Global] keeps its own', () => {
    const config = transformOpenStackCloudConfig('[LoadBalancer]\nlb-method = ROUND_ROBIN\n[Global]\nregion = A\n').config;
    expect(config.split('\n').filter((l) => l.startsWith('['))).toEqual(['[LoadBalancer]', '[Global]']);
  });

  test('unicode and very long values survive', () => {
    const long = 'ü'.repeat(5000);
    expect(transformOpenStackCloudConfig(`[Global]\nregion = Région-${long}\n`).config).toContain(`region      = Région-${long}\n`);
    expect(parseYaml(transformVSphereCloudConfig(`[Global]\nserver = vc-ä.example.com\n`).config).global.server).toBe('vc-ä.example.com');
  });

  test('a value is read as go-ini reads it: inline comment first, then one pair of surrounding quotes', () => {
    // GIVEN values whose quotes and comment characters go-ini@v1.67.0 parser.go readValue decodes in that order
    const sections = parseGoIni('[Global]\nregion = "RegionOne" ; the region\nzone = \'a\' # c\nport = \'#\nq = "\nraw = `a;b#c`\nlong = a\\\n  b\n');
    // THEN each value is what go-ini returns
    expect(sections[0].entries.map((e) => [e.key, e.value])).toEqual([
      ['region', 'RegionOne'],
      ['zone', 'a'],
      ['port', "'"],
      ['q', '"'],
      ['raw', 'a;b#c'],
      ['long', 'ab'],
    ]);
  });

  test('transforming twice equals transforming once for a lone quote before a comment (property-test counterexample)', () => {
    // GIVEN the input fast-check found: go-ini reads `'#` as a lone quote
    const once = transformOpenStackCloudConfig("[Global]\nport = '#\n").config;
    // THEN the quote is kept, and a second pass reads it back unchanged
    expect(once).toContain("port        = '\n");
    expect(transformOpenStackCloudConfig(once).config).toBe(once);
  });

  test.each([
    ['a comment character inside quotes', '[Global]\nregion = "a;b"\n', 'region', 2],
    ['an escaped quote', '[Global]\nregion = r\n[Networking]\nname = "x\\"y"\n', 'name', 4],
    ['a backslash', '[Global]\nca-file = C:\\certs\\ca.pem\n', 'ca-file', 2],
    ['a comment character in backticks', '[Global]\nregion = `a#b`\n', 'region', 2],
  ])("a value the CCM's gcfg reader would read differently is refused: %s", (_name, source, key, line) => {
    // WHEN the transform reads a value that holds \\, ", #, ; or a control character once decoded
    // THEN it is refused, naming the section, key and line
    const section = line === 4 ? 'Networking' : 'Global';
    expect(() => transformOpenStackCloudConfig(source)).toThrow(
      `'[${section}] ${key}' (line ${line}) holds a backslash, a double quote, '#', ';' or a control character: ` +
        'the operator reads this file with go-ini and the CCM reads cloud-conf with gcfg, which read these characters differently, so the value cannot be carried over unchanged; remove them',
    );
  });
});
