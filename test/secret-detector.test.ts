import fc from 'fast-check';
import * as fs from 'fs';
import * as path from 'path';
import { isUserError } from '../src/util/user-error';
import { CloudConfigPlatform, transformCloudConfig } from '../src/cloud-config';
import { runCli } from '../src/cli';
import { classifyKey, redact, secretInValue, urlCredentials, urlsWithUserInfo } from '../src/secrets/detector';
import { awsSpec, captureIo, fleetProblems, platformSpec, useTempDir, writeFile } from './helpers';

/**
 * The one secret detector, over real-world configs per platform: every
 * positive case is refused, every negative case passes, and no message
 * prints the secret.
 */

const PEM = '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7bq0\n-----END RSA PRIVATE KEY-----';
const GH = `ghp_${'a1B2c3D4e5'.repeat(4)}`;
const B64_PEM = Buffer.from(`${PEM}\n`).toString('base64');

/** [platform, case, config text, refused?] */
const CLOUD_CONFIGS: [CloudConfigPlatform, string, string, boolean][] = [
  // GCP (INI, gcfg)
  [
    'GCP',
    'token-url is an endpoint, not a token',
    '[global]\nproject-id = p\ntoken-url = https://oauth2.googleapis.com/token\ntoken-body = {"a":"b"}\n',
    false,
  ],
  ['GCP', 'a private key pasted in', `[global]\nproject-id = p\n${PEM}\n`, true],
  ['GCP', 'api.key', '[global]\napi.key = AbCdEf123\n', true],
  ['GCP', 'a GitHub token as a value', `[global]\nnode-tags = ${GH}\n`, true],
  // IBM Cloud / Power VS (INI)
  [
    'IBMCloud',
    'g2Credentials is a file path',
    '[global]\nversion = 1.1.0\n[kubernetes]\nconfig-file = ""\n[provider]\naccountID = 1\ng2Credentials = /etc/vpc/ibmcloud_api_key\n',
    false,
  ],
  ['IBMCloud', 'a private key', `[provider]\ng2ResourceGroupName = rg\n${PEM}\n`, true],
  ['IBMCloud', 'an API key literal', '[provider]\ng2ApiKey = 0123456789abcdef\n', true],
  ['PowerVS', 'a private key', `[global]\nversion = 1.1.0\n${PEM}\n`, true],
  ['PowerVS', 'auth', '[provider]\nauth = abc\n', true],
  // Nutanix (JSON)
  [
    'Nutanix',
    'credentialRef names a Secret',
    '{"prismCentral":{"address":"pc.example.com","port":9440,"credentialRef":{"kind":"Secret","name":"nutanix-creds","namespace":"openshift-cloud-controller-manager"}}}',
    false,
  ],
  ['Nutanix', 'a private key in a value', `{"prismCentral":{"address":"pc","tls":${JSON.stringify(PEM)}}}`, true],
  ['Nutanix', 'pwd', '{"prismCentral":{"address":"pc","pwd":"hunter2"}}', true],
  ['Nutanix', 'base64 of a private key', `{"prismCentral":{"address":"pc","caData":"${B64_PEM}"}}`, true],
  // Alibaba Cloud
  ['AlibabaCloud', 'plain settings', '[Global]\nregion = cn-hangzhou\nvpcid = vpc-123\n', false],
  ['AlibabaCloud', 'a private key', `[Global]\nregion = cn-hangzhou\n${PEM}\n`, true],
  ['AlibabaCloud', 'accessKeySecret', '[Global]\naccessKeyID = LTAI\naccessKeySecret = s3cr3t\n', true],
  // OpenStack (INI)
  [
    'OpenStack',
    'auth-url and secret-name only locate',
    '[Global]\nauth-url = https://keystone.example.com:5000/v3\nsecret-name = openstack-credentials\nsecret-namespace = kube-system\n',
    false,
  ],
  ['OpenStack', 'OS_PW', '[Global]\nOS_PW = hunter2\n', true],
  ['OpenStack', 'application-credential-secret', '[Global]\napplication-credential-id = 1\napplication-credential-secret = s\n', true],
  // AWS
  ['AWS', 'an access key ID as a value', '[Global]\nZone = us-east-1a\nRoleARN = AKIAABCDEFGHIJKLMNOP\n', true],
  ['AWS', 'plain settings', '[Global]\nZone = us-east-1a\nKubernetesClusterID = c\n', false],
  // Azure (JSON)
  [
    'Azure',
    'client ID and managed identity',
    '{"cloud":"AzurePublicCloud","aadClientId":"00000000-0000-0000-0000-000000000000","useManagedIdentityExtension":true}',
    false,
  ],
  ['Azure', 'aadClientSecret', '{"cloud":"AzurePublicCloud","aadClientSecret":"x"}', true],
  ['Azure', 'a JWT in a value', '{"cloud":"AzurePublicCloud","resourceGroup":"eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.sig"}', true],
  // vSphere (YAML and INI)
  [
    'VSphere',
    'secretName and secretNamespace',
    'global:\n  secretName: vsphere-creds\n  secretNamespace: kube-system\nvcenter:\n  vc:\n    server: vc.example.com\n    datacenters: [dc]\n',
    false,
  ],
  ['VSphere', 'passwordFile holds a literal', '[Global]\nsecret-name = x\n[VirtualCenter "vc"]\npasswordFile = hunter2\n', true],
  ['VSphere', 'passwordFile holds a path', '[Global]\nsecret-name = x\n[VirtualCenter "vc"]\ndatacenters = dc\n', false],
];

describe('secret detector: real-world cloud configs per platform', () => {
  test.each(CLOUD_CONFIGS)('%s: %s', (platform, _name, text, refused) => {
    // GIVEN a cloud config  WHEN its transform runs
    let error: unknown;
    try {
      transformCloudConfig(platform, text);
    } catch (e) {
      error = e;
    }
    // THEN it is refused exactly when it holds a credential, and the message never holds the secret
    if (refused) {
      expect(isUserError(error, 'cloud-config')).toBe(true);
      const message = (error as Error).message;
      for (const secret of ['hunter2', 'MIIEpAIBAAKCAQEA7bq0', GH, 's3cr3t', 'AbCdEf123', 'AKIAABCDEFGHIJKLMNOP', B64_PEM.slice(0, 20)]) {
        expect(message).not.toContain(secret);
      }
    } else if (error !== undefined) {
      expect(isUserError(error, 'cloud-config')).toBe(true);
      expect((error as Error).message).not.toMatch(/credential|private key|token/);
    }
  });
});

describe('secret detector: URLs', () => {
  test.each([
    ['https://ghp_x@github.com/org/repo.git', true],
    [`https://${GH}@github.com/org/repo.git`, true],
    ['ssh://git:pw@git.example.com/repo.git', true],
    ['http://user:pw@proxy:3128', true],
    ['http://token@proxy:3128', true],
    ['http://user%3Apw@proxy:3128', true],
    ['https://ci-bot:ghp_abc@github.com/x.git', true],
    ['ssh://git@github.com/org/repo.git', false],
    ['git@github.com:org/repo.git', false],
    ['https://github.com/org/repo.git', false],
    ['https://oauth2.googleapis.com/token', false],
    ['https://management.local.azurestack.external/', false],
  ])('%s → refused: %s', (url, refused) => {
    expect(urlCredentials(url) !== undefined).toBe(refused);
  });
});

describe('secret detector: key names', () => {
  test.each([
    ['password', 'secret'],
    ['pwd', 'secret'],
    ['auth', 'secret'],
    ['api.key', 'secret'],
    ['OS_PW', 'secret'],
    ['aadClientSecret', 'secret'],
    ['aadClientCertPassword', 'secret'],
    ['accessKeySecret', 'secret'],
    ['token', 'secret'],
    ['passwordFile', 'secret-file'],
    ['secretsDirectory', 'secret-file'],
    ['token-url', 'plain'],
    ['tokenAudience', 'plain'],
    ['secretName', 'plain'],
    ['secret-namespace', 'plain'],
    ['auth-url', 'plain'],
    ['credentialRef', 'plain'],
    ['aadClientId', 'plain'],
    ['authorization-always-allow-paths', 'plain'],
    ['aadFederatedTokenFile', 'secret-file'],
    ['application-credential-id', 'plain'],
    ['bypass', 'plain'],
    ['region', 'plain'],
  ])('%s is %s', (key, kind) => {
    expect(classifyKey(key)).toBe(kind);
  });

  test.each([
    ['sha256:' + 'a'.repeat(64), false],
    ['quay.io/openshift/ccm@sha256:' + 'ab'.repeat(32), false],
    ['/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/MyGroup/providers/Microsoft.Network/virtualNetworks/vnet', false],
    ['dGhpcyBpcyBub3QgYSBzZWNyZXQgYXQgYWxsIGp1c3QgdGV4dA==', false],
    [B64_PEM, true],
    ['xoxb-1234567890-abcdefghij', true],
    ['glpat-abcdefghij1234567890', true],
  ])('value %s → secret: %s', (value, secret) => {
    expect(secretInValue(value) !== undefined).toBe(secret);
  });

  test('redact keeps the host and drops the userinfo, keys and tokens', () => {
    expect(redact(`got "https://ci-bot:${GH}@github.com/x.git" and ${GH}`)).toBe('got "https://<redacted>@github.com/x.git" and <redacted token>');
    expect(redact(`x ${PEM} y`)).toBe('x <redacted private key> y');
  });
});

describe('secret detector: spec fields through the loader', () => {
  const dir = useTempDir();
  test.each([
    [
      'a token as user in repoURL',
      {
        gitops: {
          engine: 'argocd',
          repoURL: 'https://ghp_x@github.com/org/fleet.git',
          argocd: { destinationServer: 'https://api.c.example.com:6443' },
        },
      },
      'spec.gitops.repoURL: embeds credentials',
    ],
    [
      'ssh://git:pw@ in repoURL',
      {
        gitops: {
          engine: 'argocd',
          repoURL: 'ssh://git:pw@git.example.com/fleet.git',
          argocd: { destinationServer: 'https://api.c.example.com:6443' },
        },
      },
      'spec.gitops.repoURL: embeds credentials',
    ],
    [
      'credentials in destinationServer',
      {
        gitops: {
          engine: 'argocd',
          repoURL: 'https://git.example.com/fleet.git',
          argocd: { destinationServer: 'https://admin:pw@api.c.example.com:6443' },
        },
      },
      'spec.gitops.argocd.destinationServer: embeds credentials',
    ],
    ['a token as proxy user', { proxy: { httpProxy: 'http://token@proxy:3128' } }, 'spec.proxy.httpProxy: embeds credentials'],
    ['percent-encoded proxy credentials', { proxy: { httpsProxy: 'http://user%3Apw@proxy:3128' } }, 'spec.proxy.httpsProxy: embeds credentials'],
    ['a GitHub token in a label', {}, 'metadata.labels.owner: holds a GitHub token'],
  ])('%s', (_name, spec, expected) => {
    const raw = awsSpec('c', spec);
    if (_name.includes('label')) {
      raw.metadata.labels = { owner: GH };
    }
    writeFile(dir(), 'c.yaml', raw);
    const problems = fleetProblems(dir());
    expect(problems.join('\n')).toContain(expected);
    expect(problems.join('\n')).not.toMatch(/ghp_|:pw@|user%3Apw|token@/);
  });

  test('validate-spec never echoes a URL with credentials', () => {
    // GIVEN a repoURL that is not a git URL and carries a token
    writeFile(dir(), 'c.yaml', awsSpec('c', { gitops: { engine: 'argocd', repoURL: `ftp://ci-bot:${GH}@github.com/x.git` } }));
    // WHEN validate-spec runs
    const cap = captureIo();
    const code = runCli(['validate-spec', path.join(dir(), 'c.yaml')], cap.io, {});
    // THEN it fails without printing the token
    expect(code).toBe(1);
    expect(cap.stderr()).toContain('spec.gitops.repoURL: embeds credentials');
    expect(cap.stderr()).not.toContain(GH);
  });

  test('a private key in the main cloud config of a pass-through platform is refused with file and line', () => {
    writeFile(dir(), 'c.conf', `[global]\nproject-id = p\n${PEM}\n`);
    writeFile(dir(), 'c.yaml', platformSpec('GCP', 'c', { cloudConfig: { file: 'c.conf' } }));
    expect(fleetProblems(dir())).toEqual([
      "c.conf:3: cluster c: 'a private key (PEM block)' (line 3) holds a credential; remove it: the GCP cloud controller manager reads its credentials from Secret openshift-cloud-controller-manager/gcp-ccm-cloud-credentials, which the cloud-credential-operator creates from CredentialsRequest openshift-gcp-ccm, and credentials never go into git",
    ]);
  });
});

describe('secret detector: the last guard over rendered files', () => {
  const dir = useTempDir();
  test.each([
    ['without', undefined],
    ['with', 'cache'],
  ])('a token in kept output (synth --only) is refused, nothing written, %s the caches', (_w, cache) => {
    const env = cache ? { CCM_GITOPS_CACHE_DIR: path.join(dir(), cache) } : {};
    // GIVEN a rendered fleet whose output for cluster b was edited by hand to hold a token
    writeFile(dir(), 'c/a.yaml', awsSpec('a'));
    writeFile(dir(), 'c/b.yaml', awsSpec('b'));
    const out = path.join(dir(), 'dist');
    expect(runCli(['synth', '--clusters', path.join(dir(), 'c'), '--out', out, '-q'], captureIo().io, env)).toBe(0);
    const file = path.join(out, 'b', 'kustomization.yaml');
    fs.appendFileSync(file, `# ${GH}\n`);
    // WHEN only a is rendered (b's files are kept)
    const cap = captureIo();
    const code = runCli(['synth', '--clusters', path.join(dir(), 'c'), '--out', out, '--only', 'a'], cap.io, env);
    // THEN synth refuses without printing the token
    expect(code).toBe(1);
    expect(cap.stderr()).toBe(
      'error: b/kustomization.yaml would hold a GitHub token; nothing was written. Find the input that carries it (spec, cloud config, kept output) and remove it\n',
    );
  });
});

describe('secret detector: URLs with user info, found line by line', () => {
  test('finds exactly what one expression over the whole text finds', () => {
    // GIVEN texts made of URL parts, user info, quotes, blanks and newlines
    const part = fc.constantFrom(
      'https://',
      'git+ssh://',
      'x://',
      '://',
      'user',
      ':pw',
      '@',
      'host',
      '/path',
      ' ',
      '\n',
      '"',
      '<',
      'a',
      '9',
      '.',
      '-',
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        // WHEN scanned line by line, THEN the matches are those of the expression over the whole text
        expect(urlsWithUserInfo(text)).toEqual(text.match(/[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]*@[^\s"'<>]*/gi) ?? []);
      }),
      { numRuns: 2000 },
    );
  });
});
