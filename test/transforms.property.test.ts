import fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import { CLOUD_CONFIG_PLATFORMS, CloudConfigContext, transformCloudConfig } from '../src/cloud-config';
import { isUserError } from '../src/util/user-error';
import { parseGoIni } from '../src/cloud-config/go-ini';

/** Runs a transform; undefined when it refuses the input with its typed error (anything else fails the property). */
function attempt(platform: (typeof CLOUD_CONFIG_PLATFORMS)[number], source: string, context: CloudConfigContext = {}) {
  try {
    return transformCloudConfig(platform, source, context);
  } catch (e) {
    if (isUserError(e, 'cloud-config')) {
      return undefined;
    }
    throw e;
  }
}

const INI_KEYS = [
  'secret-name',
  'secret-namespace',
  'region',
  'use-octavia',
  'max-shared-lb',
  'lb-provider',
  'cloud',
  'use-clouds',
  'server',
  'port',
  'datacenters',
  'insecure-flag',
  'user',
  'ca-file',
  'ip-family',
  'zone',
];
const iniText = fc
  .array(
    fc.oneof(
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          '[Global]',
          '[LoadBalancer]',
          '[BlockStorage]',
          '[Networking]',
          '[VirtualCenter "vc1"]',
          '[Labels]',
          '[Nodes]',
          '# c',
          '',
        ),
      },
      {
        weight: 5,
        arbitrary: fc
          .tuple(
            fc.constantFrom(...INI_KEYS),
            fc.oneof(
              { weight: 3, arbitrary: fc.constantFrom('openstack-credentials', 'kube-system', 'true', '443', 'DC1,DC2', '"quoted"', 'a;b', 'x y') },
              { weight: 1, arbitrary: fc.string() },
            ),
          )
          .map(([k, v]) => `${k} = ${v}`),
      },
      { weight: 1, arbitrary: fc.string() },
    ),
    { maxLength: 10 },
  )
  .map((lines) => lines.join('\n'));

const jsonText = fc
  .dictionary(
    fc.constantFrom(
      'cloud',
      'CLOUD',
      'vmType',
      'tenantId',
      'subscriptionId',
      'resourceGroup',
      'clusterServiceLoadBalancerHealthProbeMode',
      'location',
      'useInstanceMetadata',
    ),
    fc.oneof(fc.constantFrom('AzurePublicCloud', 'azurepubliccloud', 'AzureChinaCloud', 'vmss', '', 'x'), fc.boolean(), fc.integer()),
  )
  .map((o) => JSON.stringify(o));

const vsphereYaml = fc
  .record(
    {
      global: fc.record(
        { port: fc.nat(65535), insecureFlag: fc.boolean(), datacenters: fc.array(fc.constantFrom('DC1', 'DC2')) },
        { requiredKeys: [] },
      ),
      vcenter: fc.dictionary(
        fc.constantFrom('vc1', 'vc2'),
        fc.record({ server: fc.constantFrom('vc1', 'vc2'), datacenters: fc.array(fc.constantFrom('DC1', 'DC3')) }, { requiredKeys: [] }),
      ),
    },
    { requiredKeys: [] },
  )
  .map((o) => JSON.stringify(o));

const vsphereContext: CloudConfigContext = {
  vsphere: {
    platformSpec: {
      vcenters: [{ server: 'vc1', port: 443, datacenters: ['DC1'] }],
      failureDomains: [
        { server: 'vc1', topology: { datacenter: 'DC1' } },
        { server: 'vc1', topology: { datacenter: 'DC2' } },
      ],
      nodeNetworking: { internal: { networkSubnetCidr: ['10.0.0.0/24'] } },
    },
    serviceNetwork: ['172.30.0.0/16', 'fd02::/112'],
    apiServerInternalIPs: ['10.0.0.5'],
  },
};

describe('every transform, on arbitrary input', () => {
  test.each([...CLOUD_CONFIG_PLATFORMS])('%s returns a result or its typed error, never anything else', (platform) => {
    fc.assert(
      fc.property(fc.oneof(iniText, jsonText, vsphereYaml, fc.string(), fc.string({ unit: 'binary' })), (text) => {
        attempt(platform, text, platform === 'VSphere' ? vsphereContext : {});
      }),
      { numRuns: 300 },
    );
  });
});

describe('outputs re-parse and transforming twice equals transforming once', () => {
  test('OpenStack', () => {
    fc.assert(
      fc.property(iniText, (text) => {
        const once = attempt('OpenStack', text);
        if (!once) {
          return;
        }
        expect(() => parseGoIni(once.config)).not.toThrow();
        const twice = transformCloudConfig('OpenStack', once.config);
        expect(twice.config).toBe(once.config);
        expect(twice.warnings).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });

  test.each(['Azure', 'AzureStackHub'] as const)('%s', (platform) => {
    fc.assert(
      fc.property(jsonText, (text) => {
        const once = attempt(platform, text);
        if (!once) {
          return;
        }
        expect(typeof JSON.parse(once.config)).toBe('object');
        expect(transformCloudConfig(platform, once.config).config).toBe(once.config);
      }),
      { numRuns: 1000 },
    );
  });

  test.each([
    ['without an Infrastructure spec', {}],
    ['with vCenters, failure domains and dual-stack', vsphereContext],
  ])('vSphere %s', (_name, context) => {
    fc.assert(
      fc.property(fc.oneof(vsphereYaml, iniText), (text) => {
        const once = attempt('VSphere', text, context);
        if (!once) {
          return;
        }
        expect(typeof parseYaml(once.config)).toBe('object');
        expect(transformCloudConfig('VSphere', once.config, context).config).toBe(once.config);
      }),
      { numRuns: 1000 },
    );
  });
});
