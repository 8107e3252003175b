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

const b64 = (text: string) => Buffer.from(text).toString('base64');
const b64url = (text: string) => Buffer.from(text).toString('base64url');
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
  // what a user copies from a Secret's data: the forms a credential takes once encoded
  ['base64 of an AWS secret access key', b64(gen(40, B64, 80))],
  ['base64url of an AWS secret access key', b64url(gen(40, B64, 81))],
  ['double base64 of an AWS secret access key', b64(b64(gen(40, B64, 82)))],
  ['HTTP Basic header', 'Authorization: Basic ' + b64('deploy:' + gen(14, ALNUM, 83))],
  ['dockerconfigjson auth', JSON.stringify({ auths: { 'quay.io': { auth: b64('robot:' + gen(16, ALNUM, 84)) } } })],
  ['dockerconfigjson, base64 as in a Secret', b64(JSON.stringify({ auths: { 'quay.io': { auth: b64('robot:' + gen(16, ALNUM, 85)) } } }))],
  // shapes of the platforms we support, and of the tools beside them
  ['DigitalOcean personal access token', 'dop_v1_' + gen(64, HEX, 86)],
  ['DigitalOcean OAuth token', 'doo_v1_' + gen(64, HEX, 87)],
  ['DigitalOcean refresh token', 'dor_v1_' + gen(64, HEX, 88)],
  ['Alibaba Cloud AccessKey ID', 'LTAI' + gen(20, ALNUM, 89)],
  ['Vault legacy service token', 's.' + gen(23, ALNUM, 90) + '7'],
  ['kubeadm bootstrap token', gen(6, LOWER + DIGITS, 91) + '.' + gen(15, LOWER, 92) + '4'],
];

/** The credentials of the corpus in an encoded form (base64, HTTP Basic, dockerconfigjson), by name: decoded by the input checks only. */
export const ENCODED = CREDENTIALS.filter(([name]) => /base64|Basic|dockerconfigjson/.test(name)).map(([name]) => name);

/**
 * [name, key, value]: a literal under a key whose words name a credential,
 * the last word qualifying it (`_ENV`, `_HEADER`, `_VERSION`, `_POLICY`), or
 * an Alibaba key over a 30-character AccessKey secret. Only the key tells.
 */
export const KEY_NAMED: readonly [string, string, string][] = [
  ['a password behind _ENV', 'DB_PASSWORD_ENV', gen(14, ALNUM, 93)],
  ['a bearer token behind _HEADER', 'AUTH_HEADER', 'Bearer ' + gen(24, ALNUM, 94)],
  ['a token behind _VERSION', 'API_TOKEN_VERSION', gen(12, ALNUM, 95)],
  ['a password behind _POLICY', 'PASSWORD_POLICY', gen(6, LOWER, 96) + '-' + gen(6, ALNUM, 97) + '-99'],
  ['an Alibaba Cloud AccessKey secret', 'ALIBABA_CLOUD_ACCESS_KEY_SECRET', gen(30, ALNUM, 98)],
];

const ROOTS = tls.rootCertificates;
const ISRG = ROOTS.find((p) => new X509Certificate(p).subject.includes('CN=ISRG Root X1'))!;
/** The public key of ISRG Root X1: the same on every machine with this Node. */
const ISRG_KEY = new X509Certificate(ISRG).publicKey;

/** An SSH public key of an algorithm: its base64 blob starts with the algorithm's name (RFC 4253 section 6.6), then seeded bytes. */
function sshPublicKey(algorithm: string, bytes: number, seed: number): string {
  const name = Buffer.from(algorithm);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(name.length);
  return `${algorithm} ${Buffer.concat([length, name, Buffer.from(gen(bytes, ALNUM, seed))]).toString('base64')}`;
}

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
  // public material recognised by its structure
  ['an eksctl IRSA role ARN', 'arn:aws:iam::123456789012:role/eksctl-prod-addon-iamserviceaccount-kube-Role1-1A2B3C4D5E6F7'],
  ['an AWS CDK role ARN', 'arn:aws:iam::123456789012:role/ClusterStack-CcmServiceAccountRoleB3A1E9C4-Xk7Pq2Lm9Rt4'],
  ['an SSH public key', sshPublicKey('ssh-ed25519', 32, 99) + ' ops@example.com'],
  ['an SSH host key line', 'node1.example.com ' + sshPublicKey('ecdsa-sha2-nistp256', 104, 100)],
  ['a PEM public key (SPKI)', ISRG_KEY.export({ type: 'spki', format: 'pem' }).toString()],
  ['a PEM public key (PKCS#1)', ISRG_KEY.export({ type: 'pkcs1', format: 'pem' }).toString()],
  ['a PGP public key block', pem('PGP PUBLIC KEY BLOCK', 'mQINBF' + gen(400, B64, 101))],
  ['a CRL', pem('X509 CRL', 'MIIB' + gen(300, B64, 102))],
  ['a JWKS', JSON.stringify({ keys: [ISRG_KEY.export({ format: 'jwk' })] })],
  ['a subresource-integrity hash (sha384)', 'sha384-' + Buffer.from(gen(48, ALNUM, 103)).toString('base64')],
  ['a subresource-integrity hash (sha512)', 'sha512-' + Buffer.from(gen(64, ALNUM, 104)).toString('base64')],
];
