import { X509Certificate } from 'crypto';
import * as tls from 'tls';
import fc from 'fast-check';
import { findSecretInData, findSecretInIni, isPathValue, keyWords, redact, secretInOutput, secretInValue } from '../src/secrets/detector';

/**
 * The detector's rules on the shapes users reported: public material passes
 * by structure, credential shapes are found, and messages never carry them.
 * Credential-shaped strings are built by concatenation, so no scanner flags
 * this file.
 */

/** The public roots Node trusts (its own bundle: the same on every machine with this Node). */
const ROOTS = tls.rootCertificates;
const ISRG_ROOT_X1 = ROOTS.find((pem) => new X509Certificate(pem).subject.includes('CN=ISRG Root X1'))!;

/** The AWS documentation's example secret access key. */
const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/' + 'bPxRfiCYEXAMPLEKEY';
/** An Azure client secret of the current format: 3 characters, a digit, `Q~`, 34 more. */
const AZURE_SECRET = 'k3P' + '8Q~' + 'bT.5vX~qL2_mN9-rS4wY7zA1cE6gH0jK3u';
/** A PuTTY private key file (version 3), body made up. */
const PUTTY =
  'PuTTY-User-Key-File-' +
  '3: ssh-ed25519\nEncryption: none\nComment: ops\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5\nAAAAIA\nPrivate-Lines: 1\nAAAAIQ\nPrivate-MAC: 0a1b2c';
/** 32 distinct characters of mixed case and digits: the shortest random token found. */
const TOKEN_32 = 'Zx8Qp2Lm' + 'Vn4Rt6Yw9Kc3Hb7Jd5Fg1Ts0';
const GH = `ghp_${'a1B2c3D4e5'.repeat(4)}`;

/** A certificate that does not parse: ISRG Root X1 with one line of its body left out. */
function brokenCertificate(): string {
  const lines = ISRG_ROOT_X1.trim().split('\n');
  return [...lines.slice(0, 5), ...lines.slice(6)].join('\n');
}

describe('public material passes by structure', () => {
  test('GIVEN ISRG Root X1 WHEN checked as a value, in a cloud config and as data THEN nothing is found', () => {
    expect(ISRG_ROOT_X1).toBeDefined();
    expect(secretInValue(ISRG_ROOT_X1)).toBeUndefined();
    expect(findSecretInIni(`[Global]\nzone = a\n${ISRG_ROOT_X1}\n`)).toBeUndefined();
    expect(findSecretInData({ prismCentral: { tls: ISRG_ROOT_X1 } })).toBeUndefined();
  });

  test("GIVEN every root of Node's trust store, as one bundle and indented in YAML WHEN checked THEN nothing is found", () => {
    expect(ROOTS.length).toBeGreaterThan(100);
    expect(ROOTS.filter((pem) => secretInValue(pem) !== undefined)).toEqual([]);
    expect(secretInValue(ROOTS.join('\n'))).toBeUndefined();
    expect(
      findSecretInIni(
        `ca: |\n${ISRG_ROOT_X1.split('\n')
          .map((l) => `  ${l}`)
          .join('\n')}\n`,
      ),
    ).toBeUndefined();
  });

  test('GIVEN a certificate as raw JSON text (escaped line breaks) WHEN checked as INI-like text THEN nothing is found', () => {
    expect(findSecretInIni(JSON.stringify({ ca: ISRG_ROOT_X1 }))).toBeUndefined();
  });

  test('GIVEN a certificate in DER, base64-encoded on one line WHEN checked THEN nothing is found', () => {
    const der = new X509Certificate(ISRG_ROOT_X1).raw.toString('base64');
    expect(secretInValue(`caData: ${der}`)).toBeUndefined();
  });

  test('GIVEN a CERTIFICATE block that does not parse WHEN checked THEN it is scanned like any other text', () => {
    expect(secretInValue(brokenCertificate())).toEqual({ reason: 'a random-looking base64 token' });
    expect(findSecretInIni(`[Global]\n${brokenCertificate()}\n`)).toEqual({ reason: 'a random-looking base64 token', line: 3 });
  });

  test('GIVEN a private key labelled CERTIFICATE WHEN checked THEN the key is found', () => {
    const key = Buffer.from('-----BEGIN' + ' RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7bq0\n-----END RSA PRIVATE KEY-----\n').toString('base64');
    expect(secretInValue(`-----BEGIN CERTIFICATE-----\n${key}\n-----END CERTIFICATE-----`)).toEqual({ reason: 'a base64-encoded private key' });
  });

  test('GIVEN a real certificate and a token after it WHEN checked THEN the token is found on its line', () => {
    const before = `[Global]\n${ISRG_ROOT_X1}\n`;
    expect(findSecretInIni(`${before}node-tags = ${GH}\n`)).toEqual({
      reason: '"node-tags" holds a GitHub token',
      key: 'node-tags',
      line: before.split('\n').length,
    });
  });

  test.each([
    ['a sha256 digest', 'sha256:' + '0123456789abcdef'.repeat(4)],
    ['an image by tag and digest', 'quay.io/openshift/ccm:v4.16@sha256:' + 'fedcba9876543210'.repeat(4)],
    ['a UUID', '3f2504e0-4f89-11d3-9a0c-0305e82c3301'],
    ['an upper-case UUID', '3F2504E0-4F89-11D3-9A0C-0305E82C3301'],
    ['a SHA-1 fingerprint', Array.from({ length: 20 }, (_, i) => (i * 37 + 11).toString(16).padStart(2, '0').slice(-2).toUpperCase()).join(':')],
    ['a SHA-256 fingerprint', Array.from({ length: 32 }, (_, i) => (i * 53 + 7).toString(16).padStart(2, '0').slice(-2).toUpperCase()).join(':')],
    ["ISRG Root X1's SHA-256 fingerprint", new X509Certificate(ISRG_ROOT_X1).fingerprint256],
    ['a vCenter thumbprint', new X509Certificate(ISRG_ROOT_X1).fingerprint],
    ['an AWS role ARN', 'arn:aws:iam::123456789012:role/x'],
    ['an AWS role ARN with a path', 'arn:aws:iam::123456789012:role/openshift/ccm/OpenShiftCloudControllerManager2024'],
    [
      'an Azure resource ID',
      '/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/MyGroup/providers/Microsoft.Network/virtualNetworks/vnet',
    ],
    ['a git login', 'git@github.com:org/repo.git'],
    ['an ssh login', 'ssh://git@github.com/org/repo.git'],
    ['an e-mail address', 'ops@example.com'],
    ['a mailto link', 'mailto:ops@example.com'],
    ['a camelCase path', 'resourceGroups/MyGroup2/providers/NetworkSecurityGroups'],
    ['a 31-character token (under the threshold)', TOKEN_32.slice(0, 31)],
  ])('GIVEN %s WHEN checked as a value, an INI value and rendered output THEN nothing is found', (_name, value) => {
    expect(secretInValue(value)).toBeUndefined();
    expect(findSecretInIni(`[VirtualCenter "vc.example.com"]\nthumbprint = "${value}"\n`)).toBeUndefined();
    expect(secretInOutput(`value: "${value}"\n`)).toBeUndefined();
  });
});

describe('credential shapes are found', () => {
  test.each([
    ['an AWS secret access key', AWS_SECRET, 'a random-looking base64 token'],
    ['an AWS secret access key starting with /', '/iMi17OfOSuMNaN82' + 'HRENOd2WhVoW2dtQBaZI0vB', 'a random-looking base64 token'],
    ['an AWS secret access key with +', 'Tq8+Lm2vXn4/Rb7Kc9Wd3' + 'Hf6Jg1Ys5Zp0Aa2Ee4Ii', 'a random-looking base64 token'],
    ['a 32-character random token', TOKEN_32, 'a random-looking base64 token'],
    ['an Azure client secret', AZURE_SECRET, 'an Azure client secret'],
    ['a PuTTY private key', PUTTY, 'a PuTTY private key'],
    ['a PuTTY private key (version 2)', PUTTY.replace('File-3', 'File-2'), 'a PuTTY private key'],
    ['user:password@ before a registry', 'admin:' + 'pw@registry.example.com/img', 'credentials before a host (user:password@host)'],
    ['user:password@ before a git host', 'git:' + 'pw@host:org/fleet.git', 'credentials before a host (user:password@host)'],
    ['user:password@ before a vCenter', 'vc-admin:' + 'pw@vcenter.example.com', 'credentials before a host (user:password@host)'],
    ['percent-encoded user:password@', 'admin%3A' + 'pw@registry.example.com', 'credentials before a host (user:password@host)'],
    ['user:password@ after a URL with a scheme', 'x://y://u:' + 'p@h.example.com', 'a URL with credentials (user:password@)'],
  ])('GIVEN %s WHEN checked as a value and as an INI value THEN it is found', (_name, value, reason) => {
    expect(TOKEN_32).toHaveLength(32);
    expect(secretInValue(value)).toEqual({ reason });
    expect(findSecretInIni(`[Global]\nzone = us-east-1a\nRoleARN = ${value.split('\n')[0]}\n`)).toEqual({
      reason: `"RoleARN" holds ${reason}`,
      key: 'RoleARN',
      line: 3,
    });
  });

  test('GIVEN an AWS secret access key base64-encoded WHEN checked THEN nothing hides it', () => {
    expect(secretInValue(`key: ${AWS_SECRET} ; more`)).toEqual({ reason: 'a random-looking base64 token' });
  });

  test.each([
    ['a PuTTY private key', PUTTY, 'a PuTTY private key'],
    ['an Azure client secret', `secret: ${AZURE_SECRET}`, 'an Azure client secret'],
  ])('GIVEN %s in rendered output WHEN the last guard runs THEN it is found', (_name, text, reason) => {
    expect(secretInOutput(text)).toEqual({ reason });
  });

  test('GIVEN user:password@host without a scheme in rendered output WHEN the last guard runs THEN it passes (checked on every input instead)', () => {
    expect(secretInOutput('args: ["admin:pw@registry.example.com"]')).toBeUndefined();
  });
});

describe('INI comments and section headers', () => {
  test.each([
    ['a password commented out with ;', '[Global]\n; password = hunter2\n', { reason: '"password" holds a credential', key: 'password', line: 2 }],
    ['a token commented out with #', '[Global]\n# token = abc123\n', { reason: '"token" holds a credential', key: 'token', line: 2 }],
    ['a GitHub token in a comment', `[Global]\n# old: ${GH}\n`, { reason: '"old" holds a GitHub token', key: 'old', line: 2 }],
    ['a password in a section name', '[global "password=x"]\nzone = a\n', { reason: '"password" holds a credential', key: 'password', line: 1 }],
    [
      'a padded base64 token alone on a line (read as a key)',
      `[Global]\n${'glc_' + 'Zx8Qp2Lm'.repeat(5)}==\n`,
      { reason: 'a Grafana Cloud token', line: 2 },
    ],
    [
      'credentials in a vCenter section name',
      '[VirtualCenter "vc-admin:pw@vcenter.example.com"]\ndatacenters = dc\n',
      { reason: 'credentials before a host (user:password@host)', line: 1 },
    ],
  ])('GIVEN %s WHEN the INI text is checked THEN it is found', (_name, text, expected) => {
    expect(findSecretInIni(text)).toEqual(expected);
  });

  test.each([
    ['prose about a password', '[Global]\n# password: set it in the Secret named below\nsecret-name = creds\n'],
    ['a commented file path', '[Global]\n; passwordFile = /etc/vsphere/password\n'],
    ['a section name with a host', '[VirtualCenter "vc.example.com"]\ndatacenters = dc\n'],
  ])('GIVEN %s WHEN the INI text is checked THEN nothing is found', (_name, text) => {
    expect(findSecretInIni(text)).toBeUndefined();
  });
});

describe('keys of parsed data', () => {
  test('GIVEN a token as a key of parsed data WHEN searched THEN it is found, named by where it is, never by the key', () => {
    expect(findSecretInData({ prismCentral: { [GH]: 'x' } })).toEqual({ reason: 'a key holds a GitHub token', key: 'prismCentral' });
  });
});

describe('redact: messages never carry credentials', () => {
  test.each([
    ['user:password@host without a scheme', 'pull admin:' + 'pw@registry.example.com/img failed', 'pull <redacted>@registry.example.com/img failed'],
    ['a git remote without a scheme', 'clone git:' + 'pw@host:org/fleet.git', 'clone <redacted>@host:org/fleet.git'],
    ['a GitHub token as URL user', `repo "https://${GH}@github.com/org/x.git"`, 'repo "https://<redacted>@github.com/org/x.git"'],
    ['a GitHub token and a path as URL user', `https://x:${GH}/a@github.com`, 'https://x:<redacted token>/a@github.com'],
    ['a nested URL', 'x://y://u:' + 'p@h', 'x://y://<redacted>@h'],
    ['an Azure client secret', `secret ${AZURE_SECRET} refused`, 'secret <redacted token> refused'],
    ['a PuTTY key', `got ${PUTTY}\nnext`, 'got <redacted private key>\nnext'],
    [
      'overlapping token shapes (a Slack token running into a GitLab one)',
      `key ${'xoxb-' + '1234567890-glpat-'}abcdefghij_klmnopqrstu end`,
      'key <redacted token> end',
    ],
    ['a git login (kept)', 'git@github.com:org/repo.git', 'git@github.com:org/repo.git'],
    ['an image by tag and digest (kept)', 'ccm:v4.16@sha256:abc', 'ccm:v4.16@sha256:abc'],
  ])('GIVEN %s WHEN redacted THEN %s', (_name, text, expected) => {
    expect(redact(text)).toBe(expected);
  });
});

describe('linear rewrites keep the old results', () => {
  const params = { numRuns: 3000, seed: 20261127 };
  test('keyWords splits as the regular expressions did', () => {
    const old = (key: string) =>
      key
        .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
        .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
        .split(/[^A-Za-z0-9]+/)
        .filter((w) => w !== '')
        .map((w) => w.toLowerCase());
    const part = fc.constantFrom('a', 'B', 'c', 'D', '1', '_', '-', '.', 'AB', 'Ab', 'aB', 'OS', 'Pw');
    fc.assert(
      fc.property(fc.array(part, { maxLength: 20 }), (parts) => {
        const key = parts.join('');
        expect(keyWords(key)).toEqual(old(key));
      }),
      params,
    );
  });

  test('isPathValue answers as the regular expressions did', () => {
    const old = (v: string) => /^(\/|\.{1,2}\/|~\/|[A-Za-z]:\\)\S*$/.test(v) || /^[^\s:@]+\/[^\s:@]+$/.test(v);
    const part = fc.constantFrom('/', 'a', '.', '~', 'C:\\', ':', '@', ' ', 'x/y', '..');
    fc.assert(
      fc.property(fc.array(part, { maxLength: 12 }), (parts) => {
        const value = parts.join('');
        expect(isPathValue(value)).toBe(old(value));
      }),
      params,
    );
  });
});
