import { X509Certificate } from 'crypto';
import * as tls from 'tls';

/**
 * A corpus of credential shapes and public material for the secret detector
 * and its oracle (secretlint). Credentials are generated here from a seeded
 * sequence, so no literal in the repository looks like one.
 */

/** A deterministic string of `n` characters of an alphabet (a linear congruential sequence from `seed`). */
export function gen(n: number, alphabet: string, seed: number): string {
  let x = seed >>> 0;
  let out = '';
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out += alphabet[(x >>> 8) % alphabet.length];
  }
  return out;
}

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const B64URL = `${ALNUM}_-`;
const B64 = `${ALNUM}+/`;
const HEX = '0123456789abcdef';

const pem = (label: string, body: string) => `-----BEGIN ${label}-----\n${body.match(/.{1,64}/g)!.join('\n')}\n-----END ${label}-----\n`;

/** [name, text]: each holds one credential. */
export const CREDENTIALS: readonly [string, string][] = [
  ['AWS access key ID', 'AKIA' + gen(16, UPPER + DIGITS, 1)],
  ['AWS secret access key, bare', 'wJalrXUtnFEMI/K7MDENG/' + 'bPxRfiCYEXAMPLEKEY'],
  ['AWS secret access key, in a config', 'aws_secret_access_key = ' + gen(40, B64, 2)],
  ['GitHub classic token', 'ghp_' + gen(36, ALNUM, 3)],
  ['GitHub fine-grained token', 'github_pat_' + gen(82, `${ALNUM}_`, 4)],
  ['GitLab token', 'glpat-' + gen(20, B64URL, 5)],
  ['Slack bot token', 'xoxb-' + gen(12, DIGITS, 6) + '-' + gen(12, DIGITS, 7) + '-' + gen(24, ALNUM, 8)],
  ['Slack app token', 'xapp-1-' + gen(11, UPPER + DIGITS, 9) + '-' + gen(13, DIGITS, 10) + '-' + gen(64, HEX, 11)],
  ['Slack webhook', 'https://hooks.slack.com/services/T' + gen(8, UPPER + DIGITS, 12) + '/B' + gen(8, UPPER + DIGITS, 13) + '/' + gen(24, ALNUM, 14)],
  ['npm token', 'npm_' + gen(36, ALNUM, 15)],
  ['npm token in .npmrc', '//registry.npmjs.org/:_authToken=npm_' + gen(36, ALNUM, 16)],
  ['basic auth URL', 'https://deploy:' + gen(12, ALNUM, 17) + '@example.com/path'],
  ['OpenAI key (old)', 'sk-' + gen(20, ALNUM, 18) + 'T3BlbkFJ' + gen(20, ALNUM, 19)],
  ['OpenAI project key', 'sk-proj-' + gen(74, B64URL, 20) + 'T3BlbkFJ' + gen(74, B64URL, 21)],
  ['Anthropic key', 'sk-ant-api03-' + gen(93, B64URL, 22) + 'AA'],
  ['Groq key', 'gsk_' + gen(52, ALNUM, 23)],
  ['Hugging Face token', 'hf_' + gen(34, UPPER + LOWER, 24)],
  ['Linear key', 'lin_api_' + gen(40, ALNUM, 25)],
  ['Notion token', 'ntn_' + gen(11, DIGITS, 26) + gen(35, ALNUM, 27)],
  ['SendGrid key', 'SG.' + gen(22, `${ALNUM}_`, 28) + '.' + gen(43, `${ALNUM}_`, 29)],
  ['Shopify token', 'shpat_' + gen(32, HEX, 30)],
  ['Stripe live key', 'sk_live_' + gen(24, ALNUM, 31)],
  ['Stripe test key', 'sk_test_' + gen(24, ALNUM, 32)],
  ['GitHub app installation token', 'ghs_' + gen(8, DIGITS, 33) + '_' + gen(20, B64URL, 34) + '.' + gen(40, B64URL, 35) + '.' + gen(20, B64URL, 36)],
  ['Grafana Cloud token', 'glc_' + gen(48, B64, 37) + '=='],
  ['Grafana service account token', 'glsa_' + gen(32, ALNUM, 38) + '_' + gen(8, HEX, 39)],
  ['1Password service account token', 'ops_eyJ' + gen(120, B64, 40) + 'fQ=='],
  ['MongoDB URL', 'mongodb+srv://app:' + gen(16, ALNUM, 41) + '@cluster0.example.net/db'],
  ['PostgreSQL URL', 'postgresql://app:' + gen(16, ALNUM, 42) + '@db.example.com:5432/app'],
  ['MySQL URL', 'jdbc:mysql://app:' + gen(16, ALNUM, 43) + '@db.example.com:3306/app'],
  ['Vault token', 'hvs.' + gen(95, B64URL, 44)],
  ['Vercel token', 'vcp_' + gen(24, ALNUM, 45)],
  ['Databricks token', 'dapi' + gen(32, HEX, 46)],
  ['Docker token', 'dckr_pat_' + gen(27, B64URL, 47)],
  ['Figma token', 'figd_' + gen(40, B64URL, 48)],
  ['Cloudflare token', 'cfut_' + gen(40, ALNUM, 49) + gen(8, HEX, 50)],
  ['Tailscale key', 'tskey-auth-' + gen(12, ALNUM, 51) + '-' + gen(30, ALNUM, 52)],
  ['RSA private key', pem('RSA PRIVATE KEY', 'MIIEpAIBAAKCAQEA' + gen(300, B64, 53))],
  ['OpenSSH private key', pem('OPENSSH PRIVATE KEY', 'b3BlbnNzaC1rZXktdjE' + gen(300, B64, 54))],
  [
    'GCP service account key',
    JSON.stringify({ type: 'service_account', private_key: pem('PRIVATE KEY', 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC' + gen(300, B64, 55)) }),
  ],
  [
    'PuTTY private key',
    'PuTTY-User-Key-File-' + '3: ssh-ed25519\nEncryption: none\nPrivate-Lines: 1\n' + gen(44, B64, 56) + '\nPrivate-MAC: ' + gen(64, HEX, 57),
  ],
  ['Azure client secret', gen(3, ALNUM, 58) + '8Q~' + gen(34, `${ALNUM}_~.-`, 59)],
  ['Google API key', 'AIza' + gen(35, B64URL, 60)],
  ['JSON Web Token', 'eyJ' + gen(30, B64URL, 61) + '.eyJ' + gen(60, B64URL, 62) + '.' + gen(43, B64URL, 63)],
  ['random token, 32 characters', gen(32, ALNUM, 64)],
  ['user:password@host without a scheme', 'vc-admin:' + gen(12, ALNUM, 65) + '@vcenter.example.com'],
];

const ROOTS = tls.rootCertificates;
const ISRG = ROOTS.find((p) => new X509Certificate(p).subject.includes('CN=ISRG Root X1'))!;

/** [name, text]: public material and ordinary values, never a credential. */
export const PUBLIC: readonly [string, string][] = [
  ['ISRG Root X1', ISRG],
  ["Node's trust store, one bundle", ROOTS.join('\n')],
  ['a certificate in a JSON cloud config', JSON.stringify({ cloud: 'AzureStackCloud', caBundle: ISRG })],
  ['a sha256 digest', 'sha256:' + gen(64, HEX, 70)],
  ['an image by digest', 'quay.io/openshift/origin-aws-cloud-controller-manager@sha256:' + gen(64, HEX, 71)],
  ['an image by tag and digest', 'registry.k8s.io/provider-aws/cloud-controller-manager:v1.31.0@sha256:' + gen(64, HEX, 72)],
  ['a UUID', '3f2504e0-4f89-11d3-9a0c-0305e82c3301'],
  ['a SHA-1 fingerprint', new X509Certificate(ISRG).fingerprint],
  ['a SHA-256 fingerprint', new X509Certificate(ISRG).fingerprint256],
  ['a vCenter thumbprint', `[VirtualCenter "vc.example.com"]\nthumbprint = "${new X509Certificate(ISRG).fingerprint}"`],
  ['an AWS role ARN', 'arn:aws:iam::123456789012:role/x'],
  ['an AWS account ID', 'aws_account_id = 123456789012'],
  [
    'an Azure resource ID',
    '/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/MyGroup/providers/Microsoft.Network/virtualNetworks/vnet',
  ],
  ['a git remote', 'git@github.com:org/fleet.git'],
  ['an ssh URL', 'ssh://git@github.com/org/fleet.git'],
  ['a URL', 'https://oauth2.googleapis.com/token'],
  ['an e-mail address', 'ops@example.com'],
  ['a path', '/etc/kubernetes/cloud.conf'],
  ['base64 of text', Buffer.from('this is not a secret at all, just text').toString('base64')],
  ['a CamelCase setting', 'useManagedIdentityExtensionForAllNodes2'],
];
