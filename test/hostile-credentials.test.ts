import { X509Certificate } from 'crypto';
import * as tls from 'tls';
import * as fs from 'fs';
import * as path from 'path';
import { passThroughCloudConfig } from '../src/cloud-config/pass-through';
import { SPEC_FIELDS_NAMED_LIKE_CREDENTIALS } from '../src/fleet/yaml-source';
import { classifyKey, findSecretInData, findSecretInIni, redact, secretInPair, secretInValue } from '../src/secrets/detector';
import { gen } from './secretlint/corpus';
import { errorOf, fleetProblems, kubernetesSpec, platformSpec, renderSpec, useTempDir, writeFile } from './helpers';

/**
 * Credentials refused by what they are once decoded, shapes of the platforms
 * we support, and key names read word by word. Credential-shaped strings are
 * generated (test/secretlint/corpus.ts), so no literal here looks like one.
 */

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const B64 = `${ALNUM}+/`;
const HEX = '0123456789abcdef';

const AWS_SECRET = gen(40, B64, 101);
const b64 = (s: string) => Buffer.from(s).toString('base64');
const b64url = (s: string) => Buffer.from(s).toString('base64url');

describe('credentials are decoded before they are classified', () => {
  test.each([
    ['base64 of an AWS secret access key', b64(AWS_SECRET)],
    ['base64url of an AWS secret access key', b64url(AWS_SECRET)],
    ['double base64 of an AWS secret access key', b64(b64(AWS_SECRET))],
  ])('GIVEN %s WHEN checked as a value THEN it is refused as base64-encoded', (_name, value) => {
    expect(secretInValue(value)).toEqual({ reason: 'base64-encoded random-looking base64 token' });
  });

  test('GIVEN an HTTP Basic header, with and without its name WHEN checked THEN it is refused as Basic credentials', () => {
    const basic = `Basic ${b64(`deploy:${gen(14, ALNUM, 102)}`)}`;
    expect(secretInValue(basic)).toEqual({ reason: 'HTTP Basic credentials' });
    expect(secretInValue(`Authorization: ${basic}`)).toEqual({ reason: 'HTTP Basic credentials' });
  });

  test('GIVEN a dockerconfigjson auth value, alone and as a whole blob, plain and encoded WHEN checked THEN it is refused', () => {
    const auth = b64(`robot:${gen(16, ALNUM, 103)}`);
    const blob = JSON.stringify({ auths: { 'quay.io': { auth } } });
    expect(secretInValue(auth)).toEqual({ reason: 'base64-encoded user:password' });
    expect(secretInValue(blob)).toEqual({ reason: 'base64-encoded user:password' });
    expect(secretInValue(b64(blob))).toEqual({ reason: 'base64-encoded user:password' });
    expect(findSecretInData({ note: { '.dockerconfigjson': b64(blob) } })).toEqual({
      reason: '".dockerconfigjson" holds base64-encoded user:password',
      key: 'note..dockerconfigjson',
    });
  });

  test('GIVEN a base64 value in an INI cloud config WHEN checked THEN its line is named', () => {
    expect(findSecretInIni(`[Global]\nzone = a\nnode-tags = ${b64(AWS_SECRET)}\n`)).toEqual({
      reason: '"node-tags" holds base64-encoded random-looking base64 token',
      key: 'node-tags',
      line: 3,
    });
  });

  test('GIVEN ordinary base64 that decodes to prose or binary WHEN checked THEN nothing is found', () => {
    expect(secretInValue(b64('the quick brown fox jumps over the lazy dog again'))).toBeUndefined();
    expect(secretInValue(b64('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"}}'))).toBeUndefined();
    expect(secretInValue('Basic realm')).toBeUndefined();
  });
});

describe('shapes of the platforms we support', () => {
  test.each([
    ['a DigitalOcean personal access token', 'dop_v1_' + gen(64, HEX, 104), 'a DigitalOcean token'],
    ['a DigitalOcean OAuth token', 'doo_v1_' + gen(64, HEX, 105), 'a DigitalOcean token'],
    ['a DigitalOcean refresh token', 'dor_v1_' + gen(64, HEX, 106), 'a DigitalOcean token'],
    ['an Alibaba Cloud AccessKey ID', 'LTAI' + gen(20, ALNUM, 107), 'an Alibaba Cloud AccessKey ID'],
    ['a Vault legacy service token', 's.' + gen(23, ALNUM, 108) + '7', 'a HashiCorp Vault token'],
    ['a kubeadm bootstrap token', gen(6, LOWER + DIGITS, 109) + '.' + gen(15, LOWER, 110) + '4', 'a Kubernetes bootstrap token'],
  ])('GIVEN %s WHEN checked alone and in a sentence THEN it is refused by its shape', (_name, token, reason) => {
    expect(secretInValue(token)).toEqual({ reason });
    expect(secretInValue(`use ${token} here`)).toEqual({ reason });
  });

  test('GIVEN an Alibaba Cloud AccessKey secret (30 characters) under an Alibaba key WHEN checked THEN it is refused', () => {
    expect(secretInPair('ALIBABA_CLOUD_KEY', gen(30, ALNUM, 111))).toEqual({ reason: '"ALIBABA_CLOUD_KEY" holds an Alibaba Cloud AccessKey secret' });
  });

  test.each([
    ['a host name', 'abcdef.kubernetesservice'],
    ['a dotted word pair', 'status.lastTransitionTime'],
    ['a Vault-like word', 's.makeKubeConfigController'],
    ['a longer host', 'abc123.node01abcdefghijk.example.com'],
  ])('GIVEN %s WHEN checked THEN no shape is found', (_name, text) => {
    expect(secretInValue(text)).toBeUndefined();
  });
});

describe('the key-name rule reads every word of the name', () => {
  test.each([
    ['DB_PASSWORD_ENV', 'hunter2hunter'],
    ['AUTH_HEADER', `Bearer ${gen(24, ALNUM, 112)}`],
    ['API_TOKEN_VERSION', 'x9Kp2Lq7'],
    ['PASSWORD_POLICY', 'p4ss-W0rd-99'],
  ])('GIVEN %s holding a literal WHEN checked THEN it is refused by its name', (key, value) => {
    expect(secretInPair(key, value)?.reason).toMatch(new RegExp(`^"${key}" holds`));
  });

  test.each([
    ['DB_PASSWORD_ENV', 'DB_PASSWORD'],
    ['TOKEN_VERSION', 'v2'],
    ['TOKEN_VERSION', '2.1.0'],
    ['PASSWORD_POLICY', 'strict'],
    ['AUTH_HEADER', 'X-Auth-Token'],
    ['tokenSecretName', 'ccm-creds'],
    ['auth-mode', 'managed-identity'],
    ['secretRequired', 'true'],
  ])('GIVEN %s = %s (a name, a version, a word) WHEN checked THEN nothing is found', (key, value) => {
    expect(secretInPair(key, value)).toBeUndefined();
  });
});

describe('public material passes by structure', () => {
  // public keys of Node's trust store: the same on every machine with this Node
  const keyOf = (cn: string) =>
    new X509Certificate(tls.rootCertificates.find((pem) => new X509Certificate(pem).subject.includes(`CN=${cn}`))!).publicKey;
  const rsa = { publicKey: keyOf('ISRG Root X1') };
  const ec = { publicKey: keyOf('ISRG Root X2') };
  test.each([
    ['an eksctl IRSA role ARN', 'arn:aws:iam::123456789012:role/eksctl-prod-addon-iamserviceaccount-kube-Role1-1A2B3C4D5E6F7'],
    ['an AWS CDK role ARN', 'arn:aws:iam::123456789012:role/ClusterStack-CcmServiceAccountRoleB3A1E9C4-Xk7Pq2Lm9Rt4'],
    ['an SSH public key', `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${gen(43, B64, 113)} ops@example.com`],
    ['an SSH host key line', `node1.example.com ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBB${gen(88, B64, 114)}=`],
    ['a PEM public key (RSA)', rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString()],
    ['a PEM public key (PKCS#1)', rsa.publicKey.export({ type: 'pkcs1', format: 'pem' }).toString()],
    ['a JWKS of public keys', JSON.stringify({ keys: [rsa.publicKey.export({ format: 'jwk' }), ec.publicKey.export({ format: 'jwk' })] })],
    ['a subresource-integrity hash (sha384)', `sha384-${Buffer.from(gen(48, ALNUM, 115)).toString('base64')}`],
    ['a subresource-integrity hash (sha512)', `sha512-${Buffer.from(gen(64, ALNUM, 116)).toString('base64')}`],
  ])('GIVEN %s WHEN checked as a value and in data THEN nothing is found', (_name, value) => {
    expect(secretInValue(value)).toBeUndefined();
    expect(findSecretInData({ metadata: { annotations: { 'example.com/public': value } } })).toBeUndefined();
  });

  test('GIVEN a JWKS parsed as data (a JSON config or extra key) WHEN checked THEN its public members pass, a private member does not', () => {
    const jwks = { keys: [rsa.publicKey.export({ format: 'jwk' }), ec.publicKey.export({ format: 'jwk' })] };
    expect(findSecretInData(jwks)).toBeUndefined();
    expect(findSecretInData({ auth: { jwks } })).toBeUndefined();
    const withPrivate = { keys: [{ ...jwks.keys[0], d: gen(342, ALNUM, 124) }] };
    // a key with a private member is read member by member: the first random-looking one is named
    expect(findSecretInData(withPrivate)).toEqual({ reason: '"n" holds a random-looking base64 token', key: 'keys[0].n' });
  });

  test('GIVEN a JWK with its private members WHEN checked THEN it is refused', () => {
    const jwk = JSON.stringify({
      ...rsa.publicKey.export({ format: 'jwk' }),
      d: gen(342, ALNUM, 117),
      p: gen(171, ALNUM, 118),
      q: gen(171, ALNUM, 119),
    });
    expect(secretInValue(jwk)).toEqual({ reason: 'a private JSON Web Key' });
  });
});

describe('comments never reach dist/ on either distribution', () => {
  const dir = useTempDir();
  const configOf = (objects: any[]) => objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name !== 'leader-migration')?.data;

  test.each([
    [
      'an OpenStack INI config with whole-line and inline comments',
      'OpenStack',
      '[Global]\n; region = old\nregion = r1 ; the region\n# auth-url = https://old.example.com\n[LoadBalancer]\nlb-provider = "a;b" # quoted\n',
      { 'cloud.conf': '[Global]\nregion = r1\n[LoadBalancer]\nlb-provider = "a;b"\n' },
    ],
    [
      'an AWS INI config with a commented-out key',
      'AWS',
      '[Global]\nZone = us-east-1a\n; KubernetesClusterTag = old\n',
      { 'cloud.conf': '[Global]\nZone = us-east-1a\n' },
    ],
    [
      'a vSphere YAML config with comments, the first line one of them',
      'VSphere',
      '# the vCenter\nglobal:\n  port: 443 # TLS\n  # insecureFlag: true\n  secretNamespace: kube-system\nvcenter:\n  vc1:\n    server: vc.example.com/#frag\n',
      { 'vsphere.conf': 'global:\n  port: 443\n  secretNamespace: kube-system\nvcenter:\n  vc1:\n    server: vc.example.com/#frag\n' },
    ],
  ])('GIVEN %s on distribution kubernetes WHEN rendered THEN the ConfigMap holds the settings without a comment', (_name, platform, source, data) => {
    const objects = renderSpec(dir(), kubernetesSpec(platform, 'k', {}, { cloudConfig: { file: 'c.conf' } }), { 'c.conf': source });
    expect(configOf(objects)).toEqual(data);
  });

  test('GIVEN a kubernetes cloud config of comments only WHEN loaded THEN it is refused as empty, not replaced by the default Secret', () => {
    writeFile(dir(), 'c.conf', '# [Global]\n; region = r1\n');
    writeFile(dir(), 'c.yaml', kubernetesSpec('OpenStack', 'k', {}, { cloudConfig: { file: 'c.conf' } }));
    expect(fleetProblems(dir())).toEqual([
      "c.conf: cluster k: holds only comments; fill it, or remove spec.cloudConfig.file to read the provider's existing config object",
    ]);
  });

  test('GIVEN an OpenShift extra cloud-conf key with comments WHEN rendered THEN the key holds no comment', () => {
    const spec = platformSpec('GCP', 'g', { cloudConfig: { file: 'g.conf', extraKeys: { 'extra.conf': 'extra.conf' } } });
    const objects = renderSpec(dir(), spec, { 'g.conf': '[global]\nproject-id = p\n', 'extra.conf': '# old\n[x]\nk = v ; inline\n' });
    const cm = objects.find((o) => o.kind === 'ConfigMap' && o.data?.['extra.conf'] !== undefined);
    expect(cm.data['extra.conf']).toBe('[x]\nk = v\n');
  });
});

describe('a credential a YAML file hides from its parsed data is refused', () => {
  const dir = useTempDir();
  const GH = 'ghp_' + gen(36, ALNUM, 120);
  const SECRET_TEXT = gen(16, ALNUM, 121);
  const spec = (tail: string, nameLine = '  name: k') =>
    `apiVersion: ccm-gitops.io/v1alpha1\nkind: CloudControllerManagerCluster\nmetadata:\n${nameLine}\nspec:\n  distribution: kubernetes\n  platform: AWS\n  kubernetes:\n    version: "1.33"\n${tail}`;
  const problemsOf = (text: string) => {
    writeFile(dir(), 'c.yaml', text);
    return fleetProblems(dir());
  };
  const COMMENT_FIX = 'remove it: comments are committed to git with the spec, and credentials never go into git';
  // a spec that names its distribution and platform: the fix says where that platform's credentials belong
  const AWS_HOME =
    'the AWS cloud controller manager authenticates with the instance profile, or with IRSA (a role ARN in spec.kubernetes.serviceAccount.annotations), and credentials never go into git';
  const SPEC_COMMENT_FIX = `remove it: comments are committed to git with the spec; ${AWS_HOME}`;

  test.each([
    ['a commented-out password after a field', spec('', `  name: k # password: ${SECRET_TEXT}`), 4, '"password" holds a credential'],
    ['a token in a whole-line comment', spec(`    # the old one was ${GH}\n`), 10, 'a GitHub token'],
    ['base64 of a secret access key in a comment', spec(`    # aws_secret: ${b64(AWS_SECRET)}\n`), 10, '"aws_secret" holds a credential'],
  ])('GIVEN %s in a spec WHEN validated THEN the line is named with what it looks like, never the value', (_name, text, line, reason) => {
    const problems = problemsOf(text);
    expect(problems).toEqual([`c.yaml:${line}: a comment looks like a credential (${reason}); ${SPEC_COMMENT_FIX}`]);
    expect(problems.join('\n')).not.toContain(SECRET_TEXT.slice(0, 12));
  });

  test('GIVEN a credential in a comment of a defaults file WHEN validated THEN the defaults file and line are named', () => {
    writeFile(dir(), 'defaults.yaml', `apiVersion: ccm-gitops.io/v1alpha1\nkind: CloudControllerManagerClusterDefaults\n# token: ${SECRET_TEXT}\n`);
    writeFile(dir(), 'c.yaml', spec(''));
    expect(fleetProblems(dir())).toContain(`defaults.yaml:3: a comment looks like a credential ("token" holds a credential); ${COMMENT_FIX}`);
  });

  test.each([
    ['a spec field commented out', '    # useServiceAccountCredentials: true\n'],
    ['a Secret named in a comment', '    # existingSecret: ccm-creds\n'],
    ['prose about a password', '    # the password lives in the Secret ccm-creds, never here\n'],
    ['a URL', '    # see https://github.com/kubernetes/cloud-provider-aws/blob/v1.33.0/README.md#configuration\n'],
  ])('GIVEN %s in a comment WHEN validated THEN the comment passes', (_name, comment) => {
    expect(problemsOf(spec(comment)).filter((p) => p.includes('comment'))).toEqual([]);
  });

  test.each([
    [
      '!!binary on an annotation',
      `    podAnnotations:\n      example.com/note: !!binary ${b64(AWS_SECRET)}\n`,
      'c.yaml:11: spec.kubernetes.podAnnotations.example.com/note: has the tag !!binary, whose bytes no check reads; a spec holds text: remove the tag; ' +
        'the AWS cloud controller manager authenticates with the instance profile, or with IRSA (a role ARN in spec.kubernetes.serviceAccount.annotations), and credentials never go into git',
    ],
    [
      '!!str on a credential-named annotation',
      `    podAnnotations:\n      example.com/db-token: !!str ${SECRET_TEXT}\n`,
      'c.yaml:11: spec.kubernetes.podAnnotations.example.com/db-token: has the tag !!str on a key that names a credential; remove the value: ' +
        'the AWS cloud controller manager authenticates with the instance profile, or with IRSA (a role ARN in spec.kubernetes.serviceAccount.annotations), and credentials never go into git',
    ],
    [
      'a custom tag on a credential-named key',
      `    extraEnv:\n      - name: X\n        password: !vault ${SECRET_TEXT}\n`,
      'c.yaml:12: spec.kubernetes.extraEnv.password: has a custom tag on a key that names a credential; remove the value: ' +
        'the AWS cloud controller manager authenticates with the instance profile, or with IRSA (a role ARN in spec.kubernetes.serviceAccount.annotations), and credentials never go into git',
    ],
  ])('GIVEN %s WHEN validated THEN it is refused, never showing the value', (_name, tail, problem) => {
    const problems = problemsOf(spec(tail));
    expect(problems).toEqual([problem]);
    expect(problems.join('\n')).not.toMatch(/Buffer|data":\[/);
  });

  test('GIVEN the spec fields named like credentials WHEN compared with the schema THEN they are the same', () => {
    const schema = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'schema', 'cluster-spec.schema.json'), 'utf8'));
    const names = new Set<string>();
    const stack: unknown[] = [schema];
    while (stack.length > 0) {
      const node = stack.pop();
      if (node !== null && typeof node === 'object') {
        const props = (node as { properties?: Record<string, unknown> }).properties;
        Object.keys(props ?? {}).forEach((k) => names.add(k));
        stack.push(...Object.values(node));
      }
    }
    expect([...SPEC_FIELDS_NAMED_LIKE_CREDENTIALS].sort()).toEqual([...names].filter((k) => classifyKey(k) !== 'plain').sort());
  });

  const FLOOR =
    "the VSphere cloud controller manager reads its credentials from a Secret (created from the platform's CredentialsRequest), and credentials never go into git";
  test.each([
    [
      'a commented-out password',
      `global:\n  port: 443\n  # password: ${SECRET_TEXT}\n`,
      `a comment (line 3) looks like a credential ("password" holds a credential); remove it: ${FLOOR}`,
    ],
    [
      '!!binary on a password',
      `global:\n  password: !!binary ${b64(SECRET_TEXT)}\n`,
      `"global.password" (line 2) has the tag !!binary, which hides its value from the credential checks; remove the value: ${FLOOR}`,
    ],
    [
      '!!binary on any key',
      `global:\n  note: !!binary ${b64(AWS_SECRET)}\n`,
      `"global.note" (line 2) has the tag !!binary, which hides its value from the credential checks; remove the value: ${FLOOR}`,
    ],
  ])('GIVEN a YAML cloud config with %s WHEN passed through THEN it is refused with its line', (_name, source, message) => {
    expect(errorOf(() => passThroughCloudConfig('VSphere', source)).message).toBe(message);
  });
});

describe('tokens in query strings are refused, naming the parameter only', () => {
  const dir = useTempDir();
  const TOKEN = gen(24, ALNUM, 122);
  const SAS = encodeURIComponent(b64(gen(32, ALNUM, 123)));

  test.each([
    ['a token', `https://git.example.com/org/fleet.git?token=${TOKEN}`, 'token'],
    ['an OAuth access token after another parameter', `https://git.example.com/org/fleet?ref=main&access_token=${TOKEN}`, 'access_token'],
    ['a GitLab private token', `https://gitlab.example.com/api/v4/projects?private_token=${TOKEN}`, 'private_token'],
    ['an Azure SAS signature', `https://acct.blob.core.windows.net/c/b?sv=2022-11-02&se=2030-01-01&sr=b&sp=r&sig=${SAS}`, 'sig'],
    ['an S3 presigned signature', `https://b.s3.amazonaws.com/k?X-Amz-Date=20300101T000000Z&X-Amz-Signature=${gen(64, HEX, 124)}`, 'X-Amz-Signature'],
    ['an API key', `https://maps.example.com/api?key=${TOKEN}`, 'key'],
    ['an access token in the fragment', `https://app.example.com/cb#access_token=${TOKEN}&token_type=bearer`, 'access_token'],
    ['a token after a schemeless proxy host and port', `proxy.example:3128/?token=${TOKEN}`, 'token'],
    ['a token right after a schemeless host and port', `proxy.example:3128?access_token=${TOKEN}`, 'access_token'],
    ['a token after a schemeless host and path', `git.example.com/org/fleet.git?private_token=${TOKEN}`, 'private_token'],
  ])('GIVEN a URL with %s WHEN checked THEN it is refused by the parameter name', (_name, url, param) => {
    expect(secretInValue(url)).toEqual({ reason: `a URL with credentials (a credential in the query string ("${param}"))` });
    expect(redact(`cannot reach ${url} now`)).not.toContain(TOKEN.slice(0, 12));
  });

  test.each([
    ['a plain query', 'https://git.example.com/org/fleet.git?ref=main&depth=1'],
    ['a token switch', 'https://proxy.example.com/?token=true'],
    ['a token from a variable', 'https://git.example.com/fleet.git?token=${GIT_TOKEN}'],
    ['an empty token', 'https://git.example.com/fleet.git?token='],
    ['a parameter naming a token', 'https://sts.example.com/?tokenType=jwt&audience=sts.amazonaws.com'],
    ['a schemeless host with a plain query', 'proxy.example:3128/?ref=main'],
    ['a sentence with a question', 'is token=x? no'],
  ])('GIVEN %s WHEN checked THEN nothing is found', (_name, url) => {
    expect(secretInValue(url)).toBeUndefined();
  });

  test.each([
    [
      'spec.gitops.repoURL',
      { gitops: { engine: 'argocd', repoURL: `https://git.example.com/org/fleet.git?private_token=${TOKEN}` } },
      'c.yaml:23: spec.gitops.repoURL: embeds credentials (a credential in the query string ("private_token")); give the engine a repository Secret instead (spec.gitops.flux.secretRef, or an Argo CD repository credential)',
    ],
    [
      'spec.proxy.httpsProxy',
      { proxy: { httpsProxy: `http://proxy.example.com:3128/?access_token=${TOKEN}` } },
      'c.yaml:22: spec.proxy.httpsProxy: embeds credentials (a credential in the query string ("access_token")); rendered env vars are committed to git, so use a proxy that authorises the cluster by address',
    ],
    [
      'a schemeless spec.proxy.httpProxy',
      { proxy: { httpProxy: `proxy.example:3128/?token=${TOKEN}` } },
      'c.yaml:22: spec.proxy.httpProxy: embeds credentials (a credential in the query string ("token")); rendered env vars are committed to git, so use a proxy that authorises the cluster by address',
    ],
    [
      'a schemeless spec.proxy.httpsProxy with user:password',
      { proxy: { httpsProxy: `proxy:${TOKEN}@proxy.example:3128` } },
      'c.yaml:22: spec.proxy.httpsProxy: embeds credentials (user:password@); rendered env vars are committed to git, so use a proxy that authorises the cluster by address',
    ],
  ])('GIVEN a token in the query of %s WHEN validated THEN the field is named, never the value', (_field, section, problem) => {
    writeFile(dir(), 'c.yaml', kubernetesSpec('AWS', 'k', {}, section));
    const problems = fleetProblems(dir());
    expect(problems).toEqual([problem]);
    expect(problems.join('\n')).not.toContain(TOKEN.slice(0, 12));
  });
});
