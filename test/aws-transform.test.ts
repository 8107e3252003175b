import { AWS_NLB_SECURITY_GROUP_GATE, transformAwsCloudConfig } from '../src/cloud-config/aws';
import { quoteGcfgValue } from '../src/cloud-config/gcfg';
import { errorOf } from './helpers';

const DEFAULT_OUTPUT = [
  '[Global]',
  'DisableSecurityGroupIngress                     = false',
  'ClusterServiceLoadBalancerHealthProbeMode       = Shared',
  'ClusterServiceSharedLoadBalancerHealthProbePort = 0',
  '',
].join('\n');

describe('AWS transform: the operator test cases (operator pkg/cloud/aws/aws_config_transformer.go tests)', () => {
  test.each([
    ['default source', '[Global]\n   \n'],
    ['completely empty source', ''],
  ])('%s gives the default config', (_name, source) => {
    // WHEN
    const result = transformAwsCloudConfig(source);
    // THEN
    expect(result.config).toBe(DEFAULT_OUTPUT);
    expect(result.warnings).toEqual([]);
  });

  test('existing configuration keeps user values in field order', () => {
    const result = transformAwsCloudConfig('[Global]\nDisableSecurityGroupIngress = true\nZone = Foo\n');
    expect(result.config).toBe(
      [
        '[Global]',
        'Zone                                            = Foo',
        'DisableSecurityGroupIngress                     = true',
        'ClusterServiceLoadBalancerHealthProbeMode       = Shared',
        'ClusterServiceSharedLoadBalancerHealthProbePort = 0',
        '',
      ].join('\n'),
    );
  });

  test('existing service overrides are re-aligned and kept after [Global]', () => {
    const source = [
      '[Global]',
      'DisableSecurityGroupIngress = true',
      'Zone = Foo',
      '[ServiceOverride "1"]',
      'Service = ec2',
      'Region = us-west-2',
      'URL = https://ec2.foo.bar',
      'SigningRegion = signing_region',
      '[ServiceOverride "2"]',
      'Service = s3',
      'Region = us-west-1',
      'URL = https://s3.foo.bar',
      'SigningRegion = signing_region',
    ].join('\n');
    expect(transformAwsCloudConfig(source).config).toBe(
      [
        '[Global]',
        'Zone                                            = Foo',
        'DisableSecurityGroupIngress                     = true',
        'ClusterServiceLoadBalancerHealthProbeMode       = Shared',
        'ClusterServiceSharedLoadBalancerHealthProbePort = 0',
        '',
        '[ServiceOverride "1"]',
        'Service       = ec2',
        'Region        = us-west-2',
        'URL           = https://ec2.foo.bar',
        'SigningRegion = signing_region',
        '',
        '[ServiceOverride "2"]',
        'Service       = s3',
        'Region        = us-west-1',
        'URL           = https://s3.foo.bar',
        'SigningRegion = signing_region',
        '',
      ].join('\n'),
    );
  });

  test('feature gate AWSServiceLBNetworkSecurityGroup enabled sets NLBSecurityGroupMode = Managed', () => {
    const result = transformAwsCloudConfig('[Global]\nDisableSecurityGroupIngress = true\nZone = Foo\n', {
      enabledFeatureGates: [AWS_NLB_SECURITY_GROUP_GATE],
    });
    expect(result.config.split('\n')).toContain('NLBSecurityGroupMode                            = Managed');
  });

  test('feature gate not enabled leaves NLBSecurityGroupMode out', () => {
    const result = transformAwsCloudConfig('[Global]\nZone = Foo\n', { enabledFeatureGates: ['SomethingElse'] });
    expect(result.config).not.toContain('NLBSecurityGroupMode');
  });

  test.each([
    ['ipv4 then ipv6', ['ipv4', 'ipv6']],
    ['ipv6 then ipv4', ['ipv6', 'ipv4']],
  ])('NodeIPFamilies %s are written as repeated keys in order', (_name, families) => {
    const source = `[Global]\n${families.map((f) => `NodeIPFamilies = ${f}`).join('\n')}\n`;
    expect(transformAwsCloudConfig(source).config).toBe(
      [
        '[Global]',
        'DisableSecurityGroupIngress                     = false',
        ...families.map((f) => `NodeIPFamilies                                  = ${f}`),
        'ClusterServiceLoadBalancerHealthProbeMode       = Shared',
        'ClusterServiceSharedLoadBalancerHealthProbePort = 0',
        '',
      ].join('\n'),
    );
  });
});

describe('AWS transform: service endpoints from the Infrastructure (cluster-config-operator pre-step)', () => {
  test('each endpoint becomes a ServiceOverride signed for the region', () => {
    // GIVEN
    const endpoints = [
      { name: 'ec2', url: 'https://ec2.example.com' },
      { name: 'elasticloadbalancing', url: 'https://elb.example.com' },
    ];
    // WHEN
    const result = transformAwsCloudConfig('[Global]\nZone = a\n', { region: 'us-east-2', serviceEndpoints: endpoints });
    // THEN
    expect(result.config).toBe(
      [
        '[Global]',
        'Zone                                            = a',
        'DisableSecurityGroupIngress                     = false',
        'ClusterServiceLoadBalancerHealthProbeMode       = Shared',
        'ClusterServiceSharedLoadBalancerHealthProbePort = 0',
        '',
        '[ServiceOverride "0"]',
        'Service       = ec2',
        'Region        = us-east-2',
        'URL           = https://ec2.example.com',
        'SigningRegion = us-east-2',
        '',
        '[ServiceOverride "1"]',
        'Service       = elasticloadbalancing',
        'Region        = us-east-2',
        'URL           = https://elb.example.com',
        'SigningRegion = us-east-2',
        '',
      ].join('\n'),
    );
  });

  test('endpoints without a region fail with the operator error', () => {
    const e = errorOf(() => transformAwsCloudConfig('', { serviceEndpoints: [{ name: 'ec2', url: 'https://x' }] }));
    expect(e.message).toBe(
      'status.platformStatus.aws.region: Required value: region is required to be set for AWS platform; ' +
        'set spec.aws.region when spec.aws.serviceEndpoints is set',
    );
  });

  test('user overrides plus endpoints fail with the operator error and the line of the first override', () => {
    const e = errorOf(() =>
      transformAwsCloudConfig('[Global]\n[ServiceOverride "0"]\nService = ec2\n', {
        region: 'us-east-1',
        serviceEndpoints: [{ name: 'ec2', url: 'https://x' }],
      }),
    );
    expect(e.message).toBe(
      'invalid user provided cloud.conf: user provided cloud.conf and infrastructure object both include service overrides; ' +
        'remove the [ServiceOverride] sections from the cloud config or spec.aws.serviceEndpoints from the spec',
    );
    expect(e.line).toBe(2);
  });
});

describe('AWS transform: reading like gcfg', () => {
  test('overrides are ordered numerically, not as strings (operator deviation)', () => {
    const source = '[ServiceOverride "10"]\nService = a\n[ServiceOverride "2"]\nService = b\n[ServiceOverride "x"]\nService = c\n';
    const headers = transformAwsCloudConfig(source)
      .config.split('\n')
      .filter((l) => l.startsWith('['));
    expect(headers).toEqual(['[Global]', '[ServiceOverride "2"]', '[ServiceOverride "10"]', '[ServiceOverride "x"]']);
  });

  test('section and key names are case-insensitive; the last value of a single-valued key wins', () => {
    const result = transformAwsCloudConfig('[global]\nzone = a\nZONE = b\ndisablesecuritygroupingress = yes\n');
    expect(result.config).toContain('Zone                                            = b\n');
    expect(result.config).toContain('DisableSecurityGroupIngress                     = true\n');
  });

  test('comments, inline comments, CRLF line endings and quoted values', () => {
    const result = transformAwsCloudConfig(
      '; leading comment\r\n[Global]\r\n# another\r\nZone = us-east-1a ; inline\r\nElbSecurityGroup = " sg-1 "\r\n',
    );
    expect(result.config).toContain('Zone                                            = us-east-1a\n');
    expect(result.config).toContain('ElbSecurityGroup                                = " sg-1 "\n');
  });

  test('a blank boolean means true; bool words are accepted in any case', () => {
    expect(transformAwsCloudConfig('[Global]\nDisableSecurityGroupIngress\n').config).toContain(
      'DisableSecurityGroupIngress                     = true',
    );
    expect(transformAwsCloudConfig('[Global]\nDisableSecurityGroupIngress = OFF\n').config).toContain(
      'DisableSecurityGroupIngress                     = false',
    );
  });

  test('a blank NodeIPFamilies resets the list', () => {
    const result = transformAwsCloudConfig('[Global]\nNodeIPFamilies = ipv4\nNodeIPFamilies\nNodeIPFamilies = ipv6\n');
    expect(result.config.match(/NodeIPFamilies/g)).toHaveLength(1);
    expect(result.config).toContain('NodeIPFamilies                                  = ipv6');
  });

  test('the shared health probe port is parsed as an integer', () => {
    expect(transformAwsCloudConfig('[Global]\nClusterServiceSharedLoadBalancerHealthProbePort = 10256\n').config).toContain(
      'ClusterServiceSharedLoadBalancerHealthProbePort = 10256',
    );
  });

  test('a user health probe mode is kept', () => {
    expect(transformAwsCloudConfig('[Global]\nClusterServiceLoadBalancerHealthProbeMode = ServiceNodePort\n').config).toContain(
      'ClusterServiceLoadBalancerHealthProbeMode       = ServiceNodePort',
    );
  });

  test('unknown keys and sections are dropped with a warning naming each', () => {
    const result = transformAwsCloudConfig('[Global]\nDisableStrictZoneCheck = true\n[Workspace]\nserver = x\n');
    expect(result.config).toBe(DEFAULT_OUTPUT);
    expect(result.warnings).toEqual([
      "'[Global] DisableStrictZoneCheck' (line 2) is not an AWS cloud provider option; dropped",
      "section '[Workspace]' (line 3) is not an AWS cloud provider section; dropped",
    ]);
  });

  test('overriding a user NLBSecurityGroupMode is reported', () => {
    const result = transformAwsCloudConfig('[Global]\nNLBSecurityGroupMode = Unmanaged\n', { enabledFeatureGates: [AWS_NLB_SECURITY_GROUP_GATE] });
    expect(result.config).toContain('NLBSecurityGroupMode                            = Managed');
    expect(result.warnings).toEqual([
      '\'[Global] NLBSecurityGroupMode\' = "Unmanaged" is overridden with "Managed" because feature gate AWSServiceLBNetworkSecurityGroup is enabled',
    ]);
  });

  test('values gcfg would misread are written quoted and escaped', () => {
    expect(quoteGcfgValue('plain-value')).toBe('plain-value');
    expect(quoteGcfgValue('https://x/#frag')).toBe('"https://x/#frag"');
    expect(quoteGcfgValue('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(quoteGcfgValue(' padded ')).toBe('" padded "');
    const result = transformAwsCloudConfig('[Global]\nRoleARN = "arn:aws:iam::1:role/x;y"\n');
    expect(result.config).toContain('RoleARN                                         = "arn:aws:iam::1:role/x;y"');
    // and reading the output back gives the same value
    expect(transformAwsCloudConfig(result.config).config).toBe(result.config);
  });

  test('transforming the output again changes nothing', () => {
    const once = transformAwsCloudConfig('[Global]\nZone = a\nNodeIPFamilies = ipv6\n[ServiceOverride "3"]\nService = ec2\n', {
      enabledFeatureGates: [AWS_NLB_SECURITY_GROUP_GATE],
    });
    expect(transformAwsCloudConfig(once.config, { enabledFeatureGates: [AWS_NLB_SECURITY_GROUP_GATE] }).config).toBe(once.config);
  });

  test('unicode and very long values are kept', () => {
    const long = 'x'.repeat(10000);
    const result = transformAwsCloudConfig(`[Global]\nKubernetesClusterTag = ${long}\nZone = zöne-ü\n`);
    expect(result.config).toContain(`KubernetesClusterTag                            = ${long}\n`);
    expect(result.config).toContain('Zone                                            = zöne-ü\n');
  });
});

describe('AWS transform: errors', () => {
  test.each([
    [
      'a variable before any section',
      'Zone = a\n',
      1,
      'failed to read the cloud.conf: failed to parse INI file: line 1: expected section header before variable "Zone"',
    ],
    [
      'a broken section header',
      '[Global\nZone = a\n',
      1,
      'failed to read the cloud.conf: failed to parse INI file: line 1: invalid section header "[Global"',
    ],
    [
      'a line that is no variable',
      '[Global]\n= a\n',
      2,
      'failed to read the cloud.conf: failed to parse INI file: line 2: expected a section header or a variable name, got "= a"',
    ],
    [
      'an unterminated quote',
      '[Global]\nZone = "a\n',
      2,
      'failed to read the cloud.conf: failed to parse INI file: line 2: unterminated quoted value',
    ],
    [
      'an invalid boolean',
      '[Global]\nDisableSecurityGroupIngress = maybe\n',
      2,
      'failed to read the cloud.conf: failed to parse INI file: line 2: [Global] DisableSecurityGroupIngress: failed to parse "maybe" as bool; use true or false',
    ],
    [
      'an invalid integer',
      '[Global]\nClusterServiceSharedLoadBalancerHealthProbePort = 80a\n',
      2,
      'failed to read the cloud.conf: failed to parse INI file: line 2: [Global] ClusterServiceSharedLoadBalancerHealthProbePort: failed to parse "80a" as int; use a whole number',
    ],
    [
      'a string variable without a value',
      '[Global]\nZone\n',
      2,
      'failed to read the cloud.conf: failed to parse INI file: line 2: [Global] Zone: missing value; write "Zone = <value>"',
    ],
  ])('%s', (_name, source, line, message) => {
    const e = errorOf(() => transformAwsCloudConfig(source));
    expect(e.message).toBe(message);
    expect(e.line).toBe(line);
  });

  test.each([
    ['[Global]\naws_secret_access_key = abc\n', 'aws_secret_access_key', 2],
    ['[Credentials]\nPassword = hunter2\n', 'Password', 2],
    ['[Global]\nZone = a\nsession-token = t\n', 'session-token', 3],
  ])('a credential-like key (%#) is refused, not passed through', (source, key, line) => {
    const e = errorOf(() => transformAwsCloudConfig(source));
    expect(e.message).toBe(
      `'${key}' (line ${line}) looks like a credential; remove it: ` +
        'the AWS cloud controller manager authenticates with the instance profile, and credentials never go into git',
    );
    expect(e.line).toBe(line);
  });
});
