import fc from 'fast-check';
import { AWS_NLB_SECURITY_GROUP_GATE, transformAwsCloudConfig } from '../src/cloud-config/aws';
import { isUserError } from '../src/util/user-error';
import { parseGcfg } from '../src/cloud-config/gcfg';

const KEYS = [
  'Zone',
  'region',
  'VPC',
  'SubnetID',
  'RoleARN',
  'KubernetesClusterTag',
  'DisableSecurityGroupIngress',
  'NodeIPFamilies',
  'ClusterServiceLoadBalancerHealthProbeMode',
  'ClusterServiceSharedLoadBalancerHealthProbePort',
  'ElbSecurityGroup',
  'Unknown-Key',
];

/** INI-looking text built from plausible pieces, mostly valid, some broken; usually opening with a section. */
const iniText = fc
  .tuple(
    fc.boolean(),
    fc.array(
      fc.oneof(
        {
          weight: 2,
          arbitrary: fc.constantFrom(
            '[Global]',
            '[global]',
            '[ServiceOverride "1"]',
            '[ServiceOverride "10"]',
            '[Other]',
            '[Broken',
            '; comment',
            '# comment',
            '',
            '   ',
          ),
        },
        {
          weight: 6,
          arbitrary: fc
            .tuple(
              fc.constantFrom(...KEYS),
              fc.oneof(
                {
                  weight: 3,
                  arbitrary: fc.constantFrom('true', 'false', '0', '42', 'ipv4', 'ipv6', '"quoted value"', 'a;b', 'x#y', '"a\\"b"', '\\'),
                },
                { weight: 1, arbitrary: fc.string() },
              ),
            )
            .map(([k, v]) => `${k} = ${v}`),
        },
        { weight: 1, arbitrary: fc.string() },
      ),
      { maxLength: 12 },
    ),
    fc.constantFrom('\n', '\r\n'),
  )
  .map(([section, lines, eol]) => [...(section ? ['[Global]'] : []), ...lines].join(eol));

describe('AWS transform properties', () => {
  test('any input either transforms or fails with a user error of kind "cloud-config", never anything else', () => {
    fc.assert(
      fc.property(fc.oneof(iniText, fc.string(), fc.string({ unit: 'binary' })), (text) => {
        try {
          transformAwsCloudConfig(text);
        } catch (e) {
          if (!isUserError(e, 'cloud-config')) {
            throw e;
          }
        }
      }),
      { numRuns: 2000 },
    );
  });

  test('the output always re-parses, starts with [Global] and is a fixed point of the transform', () => {
    fc.assert(
      fc.property(iniText, fc.boolean(), (text, gate) => {
        const options = { enabledFeatureGates: gate ? [AWS_NLB_SECURITY_GROUP_GATE] : [] };
        let once: string;
        try {
          once = transformAwsCloudConfig(text, options).config;
        } catch (e) {
          if (isUserError(e, 'cloud-config')) {
            return;
          }
          throw e;
        }
        expect(once.startsWith('[Global]\n')).toBe(true);
        expect(() => parseGcfg(once)).not.toThrow();
        const twice = transformAwsCloudConfig(once, options);
        expect(twice.config).toBe(once);
        expect(twice.warnings).toEqual([]);
      }),
      { numRuns: 2000 },
    );
  });
});
