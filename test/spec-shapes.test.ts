import { awsSpec, fleetProblems, imageFor, kubernetesSpec, platformSpec, useTempDir, writeFile } from './helpers';
import { loadFleet } from '../src/fleet/load';
import {
  codePoint,
  commandItemProblem,
  GIT_REF,
  imageHasUserinfo,
  qualifiedNameProblem,
  textProblems,
  userinfoProblem,
} from '../src/cluster-spec/shapes';

/**
 * Every spec field has a shape: annotation and label keys, flags, URLs,
 * images, printable text and the Kubernetes length limits. Each case writes
 * one spec and expects exactly the listed problems (file and field, line
 * left out), none of which shows the planted value.
 */

const dir = useTempDir();

/** Credential-shaped strings, built so that no fixture holds one whole. */
const PW = ['hun', 'ter2'].join('');
const GH_TOKEN = ['gh', 'p_', 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8'].join('');

const k8s = (kubernetes: Record<string, unknown> = {}, spec: Record<string, unknown> = {}) =>
  kubernetesSpec('AWS', 'c', kubernetes, spec, { cloudControllerManagerAWS: imageFor('cloudControllerManagerAWS') });
const azure = (kubernetes: Record<string, unknown>) =>
  kubernetesSpec(
    'Azure',
    'c',
    kubernetes,
    {},
    { cloudControllerManagerAzure: imageFor('cloudControllerManagerAzure'), cloudNodeManagerAzure: imageFor('cloudNodeManagerAzure') },
  );
const hub = (argocd: Record<string, unknown>) =>
  awsSpec('c', {
    gitops: { engine: 'argocd', repoURL: 'https://git.example.com/fleet.git', argocd: { topology: 'hub', project: 'ccm', ...argocd } },
  });

/** The problems of a fleet of one spec, `c.yaml:LINE: ` cut to `c.yaml: `. */
function problemsOf(spec: Record<string, unknown>): string[] {
  const root = dir();
  writeFile(root, 'c.yaml', spec);
  return fleetProblems(root).map((p) => p.replace(/^c\.yaml:\d+: /, 'c.yaml: '));
}

const TEXT_FIX = 'this field takes printable ASCII only (look-alike letters and invisible characters hide what a reviewer sees): retype it';
const FREE_FIX = 'invisible characters hide what a reviewer sees: remove it';

/** [case, spec, exact problems, text that must not appear in any message] */
const REFUSED: [string, Record<string, unknown>, string[], string?][] = [
  // 1. annotation and label keys
  [
    'an annotation key with a space',
    k8s({ podAnnotations: { 'a b': 'x' } }),
    [
      'c.yaml: spec.kubernetes.podAnnotations.a b: "a b" is not an annotation key (at most 63 letters, digits, "-", "_", "." between alphanumerics, optional "prefix/")',
    ],
  ],
  [
    'an annotation key "a: b"',
    k8s({ serviceAccount: { annotations: { 'a: b': 'x' } } }),
    [
      'c.yaml: spec.kubernetes.serviceAccount.annotations.a: b: "a: b" is not an annotation key (at most 63 letters, digits, "-", "_", "." between alphanumerics, optional "prefix/")',
    ],
  ],
  [
    'an annotation key with an upper-case prefix',
    k8s({ podAnnotations: { 'Example.com/x': 'y' } }),
    [
      'c.yaml: spec.kubernetes.podAnnotations.Example.com/x: "Example.com/x" is not an annotation key: its prefix before "/" is not a DNS-1123 subdomain (at most 253 lower-case letters, digits, "-" and ".")',
    ],
  ],
  [
    'an annotation key naming a password',
    k8s({ podAnnotations: { 'example.com/db-password': PW } }),
    [
      'c.yaml: spec.kubernetes.podAnnotations.example.com/db-password: names a credential; annotation values are committed to git; reference a Secret instead',
    ],
    PW,
  ],
  [
    'a ServiceAccount annotation naming an AWS secret key',
    k8s({ serviceAccount: { annotations: { 'example.com/aws-secret-access-key': PW } } }),
    [
      'c.yaml: spec.kubernetes.serviceAccount.annotations.example.com/aws-secret-access-key: names a credential; annotation values are committed to git; reference a Secret instead',
    ],
    PW,
  ],
  [
    'a label key naming a token',
    k8s({ podLabels: { 'example.com/api-token': 'abc' } }),
    ['c.yaml: spec.kubernetes.podLabels.example.com/api-token: names a credential; label values are committed to git; reference a Secret instead'],
  ],
  [
    'annotations over 256 KiB together',
    k8s({
      podAnnotations: {
        'example.com/a': 'x y '.repeat(17000),
        'example.com/b': 'x y '.repeat(17000),
        'example.com/c': 'x y '.repeat(17000),
        'example.com/d': 'x y '.repeat(17000),
      },
    }),
    [
      "c.yaml: spec.kubernetes.podAnnotations: hold 272052 bytes, over the API server's limit of 262144 bytes (256 KiB) for all annotations of one object; keep large data in a ConfigMap",
    ],
  ],
  [
    'a token in an annotation value',
    k8s({ podAnnotations: { 'example.com/note': `see ${GH_TOKEN}` } }),
    [
      'c.yaml: spec.kubernetes.podAnnotations.example.com/note: holds a GitHub token; remove it: everything in a spec is rendered into git; ' +
        'the AWS cloud controller manager authenticates with the instance profile, or with IRSA (a role ARN in spec.kubernetes.serviceAccount.annotations), ' +
        'and credentials never go into git',
    ],
    GH_TOKEN,
  ],

  // 2. flags
  [
    'a flag name with "--"',
    k8s({ extraArgs: { '--v': '2' } }),
    ['c.yaml: spec.kubernetes.extraArgs.--v: "--v" is not a flag name (lower-case letters, digits and "-"; write it without "--" and without "=")'],
  ],
  [
    'a flag name with "="',
    k8s({ extraArgs: { 'v=2': '' } }),
    ['c.yaml: spec.kubernetes.extraArgs.v=2: "v=2" is not a flag name (lower-case letters, digits and "-"; write it without "--" and without "=")'],
  ],
  [
    'a credential-named flag',
    k8s({ extraArgs: { 'kube-api-password': PW } }),
    [
      'c.yaml: spec.kubernetes.extraArgs.kube-api-password: looks like a credential; flags are committed to git: put it in a Secret and mount it (spec.kubernetes.extraVolumes)',
    ],
    PW,
  ],
  [
    'a credential-named cloud-node-manager flag',
    azure({ cloudNodeManager: { extraArgs: { 'azure-client-secret': PW } } }),
    [
      'c.yaml: spec.kubernetes.cloudNodeManager.extraArgs.azure-client-secret: looks like a credential; flags are committed to git: put it in a Secret and mount it (spec.kubernetes.extraVolumes)',
    ],
    PW,
  ],
  [
    'a second flag in a flag value',
    k8s({ extraArgs: { v: `2 --password=${PW}` } }),
    ['c.yaml: spec.kubernetes.extraArgs.v: holds another flag after white space; one flag per entry: give each flag its own key'],
    PW,
  ],
  [
    'a second flag in a cloud-node-manager flag value',
    azure({ cloudNodeManager: { extraArgs: { v: '2\t-kubeconfig=/x' } } }),
    [
      `c.yaml: spec.kubernetes.cloudNodeManager.extraArgs.v: holds U+0009 (a line break or control character); this field takes one line of printable ASCII: remove it`,
    ],
  ],
  [
    'a credential-named flag in the command',
    k8s({ command: ['/bin/ccm', `--cloud-api-password=${PW}`] }),
    [
      'c.yaml: spec.kubernetes.command.1: names a credential; the command is committed to git: put it in a Secret and mount it (spec.kubernetes.extraVolumes)',
    ],
    PW,
  ],
  [
    'a credential-named flag in the command, any value',
    k8s({ command: ['/bin/ccm', '--token=/x'] }),
    [
      'c.yaml: spec.kubernetes.command.1: names a credential; the command is committed to git: put it in a Secret and mount it (spec.kubernetes.extraVolumes)',
    ],
  ],
  [
    'two flags in one command item',
    k8s({ command: ['/bin/ccm', '--v=2 --kubeconfig=/x'] }),
    ['c.yaml: spec.kubernetes.command.1: holds another flag after white space; one flag per item: give each flag its own item'],
  ],
  [
    'a shell line as a command item',
    k8s({ command: ['sh -c ccm'] }),
    ['c.yaml: spec.kubernetes.command.0: is not a path, a binary name or one --name=value flag; give each word its own item'],
  ],

  // 3. URLs
  [
    'user:password@ in a vCenter server',
    platformSpec('VSphere', 'c', {
      cloudConfig: { file: 'c.conf' },
      vsphere: { vcenters: [{ server: `administrator:${PW}@vc.example.com`, datacenters: ['dc1'] }] },
    }),
    [
      'c.yaml: spec.vsphere.vcenters.0.server: embeds credentials (user:password@); give the vCenter host name only; its credentials go in the vSphere credentials Secret',
    ],
    PW,
  ],
  [
    'a schemeless user:password@ destination server',
    hub({ destinationServer: `admin:${PW}@api.example.com:6443` }),
    [
      'c.yaml: spec.gitops.argocd.destinationServer: embeds credentials (user:password@); register the cluster in Argo CD (a cluster Secret) and give only its API server URL',
    ],
    PW,
  ],
  [
    'a destination server that is not a URL',
    hub({ destinationServer: 'not a url at all' }),
    [
      'c.yaml: spec.gitops.argocd.destinationServer: "not a url at all" is not a URL; give the API server URL as registered in Argo CD, e.g. https://api.cluster.example.com:6443',
    ],
  ],
  [
    'a per-cluster destination server that is not a URL',
    awsSpec('c', { gitops: { engine: 'argocd', repoURL: 'https://git.example.com/fleet.git', argocd: { destinationServer: 'not a url at all' } } }),
    [
      'c.yaml: spec.gitops.argocd.destinationServer: "not a url at all" is not a URL; give the API server URL as registered in Argo CD, e.g. https://api.cluster.example.com:6443',
    ],
  ],
  [
    'an http:// destination server',
    hub({ destinationServer: 'http://api.example.com:6443' }),
    [
      'c.yaml: spec.gitops.argocd.destinationServer: "http://api.example.com:6443" is not an https:// URL; give the API server URL as registered in Argo CD, e.g. https://api.cluster.example.com:6443',
    ],
  ],
  [
    'a schemeless user:password@ proxy',
    awsSpec('c', { proxy: { httpProxy: `user:${PW}@proxy.example.com:3128` } }),
    [
      'c.yaml: spec.proxy.httpProxy: embeds credentials (user:password@); rendered env vars are committed to git, so use a proxy that authorises the cluster by address',
    ],
    PW,
  ],
  [
    'a proxy user behind backslashes (WHATWG URL)',
    awsSpec('c', { proxy: { httpsProxy: `https:\\\\user:${PW}@proxy.example.com` } }),
    [
      'c.yaml: spec.proxy.httpsProxy: embeds credentials (user:password@); rendered env vars are committed to git, so use a proxy that authorises the cluster by address',
    ],
    PW,
  ],
  [
    'a user in a noProxy entry',
    awsSpec('c', { proxy: { noProxy: `.cluster.local,user:${PW}@10.0.0.1` } }),
    ['c.yaml: spec.proxy.noProxy: embeds credentials (user:password@); list host names, domains and CIDRs only'],
    PW,
  ],
  [
    'a user name without password in an https repoURL',
    awsSpec('c', { gitops: { engine: 'flux', repoURL: 'https://git@github.com/org/fleet.git' } }),
    [
      'c.yaml: spec.gitops.repoURL: embeds credentials (a user name or token before the host); give the engine a repository Secret instead (spec.gitops.flux.secretRef, or an Argo CD repository credential)',
    ],
  ],
  [
    'credentials in an AWS service endpoint',
    awsSpec('c', { aws: { region: 'us-east-1', serviceEndpoints: [{ name: 'ec2', url: `https://user:${PW}@ec2.example.com` }] } }),
    [
      'c.yaml: spec.aws.serviceEndpoints.0.url: embeds credentials (user:password@); give the endpoint URL only; the CCM authenticates with its own credentials',
    ],
    PW,
  ],

  // 4. images
  [
    'registry credentials in an image',
    awsSpec('c', { images: { cloudControllerManagerAWS: `admin:${PW}@registry.example.com/ccm:v1` } }),
    [
      'c.yaml: spec.images.cloudControllerManagerAWS: embeds registry credentials (a user before the registry host); registry credentials go in an imagePullSecret (spec.kubernetes.imagePullSecrets), never in the image reference',
    ],
    PW,
  ],

  // 5. invisible and confusable text
  [
    'a Cyrillic i in a repository host',
    awsSpec('c', { gitops: { engine: 'flux', repoURL: 'https://g\u0456thub.com/org/fleet.git' } }),
    [`c.yaml: spec.gitops.repoURL: holds U+0456 (a non-ASCII character); ${TEXT_FIX}`],
    '\u0456',
  ],
  [
    'a Cyrillic o in a proxy',
    awsSpec('c', { proxy: { httpsProxy: 'http://pr\u043exy.example.com:3128' } }),
    [`c.yaml: spec.proxy.httpsProxy: holds U+043E (a non-ASCII character); ${TEXT_FIX}`],
    '\u043e',
  ],
  [
    'a no-break space after a revision',
    awsSpec('c', { gitops: { revision: 'main\u00a0' } }),
    [`c.yaml: spec.gitops.revision: holds U+00A0 (a no-break or special space); ${TEXT_FIX}`],
    '\u00a0',
  ],
  [
    'a right-to-left override in a namespace',
    k8s({ namespace: 'kube\u202esystem' }),
    [`c.yaml: spec.kubernetes.namespace: holds U+202E (a bidirectional control); ${TEXT_FIX}`],
    '\u202e',
  ],
  [
    'a bidi isolate in an image',
    awsSpec('c', { images: { cloudControllerManagerAWS: `quay.io/x/ccm:v1\u2066` } }),
    [`c.yaml: spec.images.cloudControllerManagerAWS: holds U+2066 (a bidirectional control); ${TEXT_FIX}`],
    '\u2066',
  ],
  [
    'a byte-order mark in a feature gate',
    awsSpec('c', { featureGates: { enabled: ['\ufeffFoo'] } }),
    [`c.yaml: spec.featureGates.enabled.0: holds U+FEFF (a zero-width character); ${TEXT_FIX}`],
    '\ufeff',
  ],
  [
    'a zero-width joiner in a flag value',
    k8s({ extraArgs: { v: '2\u200d' } }),
    [`c.yaml: spec.kubernetes.extraArgs.v: holds U+200D (a zero-width character); ${TEXT_FIX}`],
    '\u200d',
  ],
  [
    'a narrow no-break space in a path',
    awsSpec('c', { gitops: { path: 'dist/\u202fc' } }),
    [`c.yaml: spec.gitops.path: holds U+202F (a no-break or special space); ${TEXT_FIX}`],
    '\u202f',
  ],
  [
    'a zero-width space in a label key',
    k8s({ podLabels: { 'te\u200bam': 'a' } }),
    [`c.yaml: spec.kubernetes.podLabels: a key holds U+200B (a zero-width character); ${TEXT_FIX}`],
    '\u200b',
  ],
  [
    'a token under a key with a look-alike letter',
    k8s({ podAnnotations: { 'example.com/n\u043ete': GH_TOKEN } }),
    [`c.yaml: spec.kubernetes.podAnnotations: a key holds U+043E (a non-ASCII character); ${TEXT_FIX}`],
    GH_TOKEN,
  ],
  [
    'a bidi override in an annotation value (free text)',
    k8s({ podAnnotations: { 'example.com/note': 'ok \u202e' } }),
    [`c.yaml: spec.kubernetes.podAnnotations.example.com/note: holds U+202E (a bidirectional control); ${FREE_FIX}`],
    '\u202e',
  ],
  [
    'a word joiner in an env literal (free text)',
    k8s({ extraEnv: [{ name: 'REGION', value: 'eu\u2060west' }] }),
    [`c.yaml: spec.kubernetes.extraEnv.0.value: holds U+2060 (a zero-width character); ${FREE_FIX}`],
    '\u2060',
  ],

  // 6. Argo CD, Flux and Kubernetes limits
  [
    'a revision with ".."',
    awsSpec('c', { gitops: { revision: 'main..x' } }),
    [
      'c.yaml: spec.gitops.revision: "main..x" is not a git ref (a branch, tag or commit as git check-ref-format accepts it: no white space, "..", "~^:?*[\\", "@{", trailing "/" or ".", or ".lock" ending); ' +
        'set the branch, tag or commit the GitOps engine should follow',
    ],
  ],
  [
    'a revision with a space',
    awsSpec('c', { gitops: { revision: 'main x' } }),
    [
      'c.yaml: spec.gitops.revision: "main x" is not a git ref (a branch, tag or commit as git check-ref-format accepts it: no white space, "..", "~^:?*[\\", "@{", trailing "/" or ".", or ".lock" ending); ' +
        'set the branch, tag or commit the GitOps engine should follow',
    ],
  ],
  [
    'a revision over 255 characters',
    awsSpec('c', { gitops: { revision: 'r'.repeat(256) } }),
    [
      `c.yaml: spec.gitops.revision: "${'r'.repeat(76)}... is longer than 255 characters (a git ref); set the branch, tag or commit the GitOps engine should follow`,
    ],
  ],
  [
    'an Argo CD project with a newline',
    awsSpec('c', { gitops: { argocd: { project: 'ccm\nx' } } }),
    ['c.yaml: spec.gitops.argocd.project: holds U+000A (a line break or control character); this field takes one line of printable ASCII: remove it'],
  ],
  [
    'an Argo CD project with an underscore',
    awsSpec('c', { gitops: { argocd: { project: 'my_project' } } }),
    ['c.yaml: spec.gitops.argocd.project: "my_project" is not an Argo CD project name (a DNS-1123 subdomain)'],
  ],
  [
    'an Argo CD namespace of 64 characters',
    awsSpec('c', { gitops: { argocd: { namespace: 'n'.repeat(64) } } }),
    [`c.yaml: spec.gitops.argocd.namespace: "${'n'.repeat(64)}" is longer than 63 characters (a DNS-1123 label)`],
  ],
  [
    'a Flux namespace of 64 characters',
    awsSpec('c', { gitops: { flux: { namespace: 'n'.repeat(64) } } }),
    [`c.yaml: spec.gitops.flux.namespace: "${'n'.repeat(64)}" is longer than 63 characters (a DNS-1123 label)`],
  ],
  [
    'a kubernetes namespace of 64 characters',
    k8s({ namespace: 'n'.repeat(64) }),
    [`c.yaml: spec.kubernetes.namespace: "${'n'.repeat(64)}" is longer than 63 characters (a DNS-1123 label)`],
  ],
  [
    'a Flux secretRef of 300 characters',
    awsSpec('c', { gitops: { flux: { secretRef: 's'.repeat(300) } } }),
    [`c.yaml: spec.gitops.flux.secretRef: "${'s'.repeat(76)}... is longer than 253 characters (a DNS-1123 subdomain)`],
  ],
  [
    'an image pull secret of 254 characters',
    k8s({ imagePullSecrets: ['p'.repeat(254)] }),
    [`c.yaml: spec.kubernetes.imagePullSecrets.0: "${'p'.repeat(76)}... is longer than 253 characters (a DNS-1123 subdomain)`],
  ],
];

describe('spec shapes: each planted value is refused with its field, never shown', () => {
  // a rest parameter: jest hands a done callback to a test function with more parameters than its row has values
  test.each(REFUSED)('%s', (...row) => {
    const [, spec, expected, hidden] = row;
    // GIVEN a spec with one planted value
    // WHEN the fleet is loaded
    const found = problemsOf(spec);
    // THEN exactly these problems are reported, and the value is in none of them
    expect(found).toEqual(expected);
    if (hidden !== undefined) {
      expect(found.join('\n')).not.toContain(hidden);
    }
  });
});

/** [case, spec] that must load without a problem. */
const ACCEPTED: [string, Record<string, unknown>][] = [
  ['an ssh:// repoURL with a login name', awsSpec('c', { gitops: { engine: 'flux', repoURL: 'ssh://git@github.com/org/fleet.git' } })],
  ['an scp-like git@host:path repoURL', awsSpec('c', { gitops: { engine: 'flux', repoURL: 'git@github.com:org/fleet.git' } })],
  ['a revision with a slash', awsSpec('c', { gitops: { revision: 'release/4.20' } })],
  ['a Flux secretRef with dots (a Secret name)', awsSpec('c', { gitops: { flux: { secretRef: 'git.credentials' } } })],
  [
    'letters of any script in free text',
    k8s({ podAnnotations: { 'example.com/site': 'Zürich – Москва' }, extraEnv: [{ name: 'GREETING', value: 'café' }] }),
  ],
  [
    'qualified annotation keys',
    k8s({ podAnnotations: { 'eks.amazonaws.com/role-arn': 'arn:aws:iam::1:role/x', 'azure.workload.identity/client-id': 'x' } }),
  ],
  ['numeric, boolean and path flags', k8s({ extraArgs: { v: 2, 'kube-api-qps': '50', profiling: false, 'tls-cert-file': '/etc/ccm/tls.crt' } })],
  ['a command of a binary and flags', k8s({ command: ['/bin/openstack-cloud-controller-manager', '--v=2', '-x'] })],
  [
    'a destination server at the in-cluster URL',
    awsSpec('c', {
      gitops: { engine: 'argocd', repoURL: 'https://git.example.com/f.git', argocd: { destinationServer: 'https://kubernetes.default.svc' } },
    }),
  ],
];

describe('spec shapes: what passes', () => {
  test.each(ACCEPTED)('%s', (_name, spec) => {
    // GIVEN a spec of valid shapes
    const root = dir();
    writeFile(root, 'c.yaml', spec);
    // WHEN it is loaded THEN it loads
    expect(loadFleet(root).clusters.map((c) => c.spec.metadata.name)).toEqual(['c']);
  });
});

describe('spec shapes: the pure functions', () => {
  test('git refs as git check-ref-format reads them', () => {
    // GIVEN refs git accepts and refs it refuses WHEN matched THEN only the first pass
    expect(['main', 'v1.2.3', 'release/4.20', 'a1b2c3d', 'HEAD', 'feature/x-y_z'].filter((r) => !GIT_REF.test(r))).toEqual([]);
    expect(
      [
        '@',
        '.hidden',
        'a/.b',
        'a..b',
        'a//b',
        'a/',
        'a.',
        'x.lock',
        'x.lock/y',
        'a@{1}',
        'a b',
        'a~1',
        'a^',
        'a:b',
        'a?',
        'a*',
        'a[',
        'a\\b',
        '/a',
      ].filter((r) => GIT_REF.test(r)),
    ).toEqual([]);
  });

  test('userinfo: ssh login names pass where allowed, everything else is refused', () => {
    // GIVEN URLs and hosts WHEN checked THEN the kind of credential is named
    expect(userinfoProblem('ssh://git@host/x', { ssh: true })).toBeUndefined();
    expect(userinfoProblem('git@host:org/x.git', { ssh: true })).toBeUndefined();
    expect(userinfoProblem('git@host:org/x.git')).toBe('a user name before the host');
    expect(userinfoProblem('git:pw@host:org/x.git', { ssh: true })).toBe('user:password@');
    expect(userinfoProblem('u:p@host', { host: true })).toBe('user:password@');
    expect(userinfoProblem('u@host', { host: true })).toBe('a user name before the host');
    expect(userinfoProblem('u:p@host')).toBeUndefined();
    expect(userinfoProblem('https:\\\\u:p@host', { host: true })).toBe('user:password@');
  });

  test('image userinfo is told from a digest', () => {
    expect(imageHasUserinfo(`quay.io/x@sha256:${'a'.repeat(64)}`)).toBe(false);
    expect(imageHasUserinfo(`ccm:v1@sha256:${'a'.repeat(64)}`)).toBe(false);
    expect(imageHasUserinfo('quay.io/x@sha256:abc')).toBe(false);
    expect(imageHasUserinfo('admin:pw@registry.example.com/ccm:v1')).toBe(true);
    expect(imageHasUserinfo('admin@registry.example.com/ccm:v1')).toBe(true);
    expect(imageHasUserinfo('admin:pw@registry')).toBe(true);
  });

  test('qualified names: prefix at most 253, name at most 63', () => {
    expect(qualifiedNameProblem(`${'a'.repeat(253)}/${'b'.repeat(63)}`, 'label')).toBeUndefined();
    expect(qualifiedNameProblem(`${'a'.repeat(254)}/b`, 'label')).toMatch(/prefix/);
    expect(qualifiedNameProblem('b'.repeat(64), 'annotation')).toMatch(/^is not an annotation key/);
  });

  test('command items', () => {
    expect(commandItemProblem('/usr/bin/ccm')).toBeUndefined();
    expect(commandItemProblem('--cloud-config=/etc/cloud.conf')).toBeUndefined();
    expect(commandItemProblem('a=b')).toMatch(/^is not a path/);
  });

  test('text: a new field is not free text by default; a lone surrogate is named', () => {
    // GIVEN an unknown field with a look-alike letter and a lone surrogate WHEN walked THEN both are named by code point
    expect(textProblems({ spec: { somethingNew: 'x\u0430', other: 'a\ud800' } })).toEqual([
      { path: ['spec', 'somethingNew'], message: `holds U+0430 (a non-ASCII character); ${TEXT_FIX}` },
      { path: ['spec', 'other'], message: `holds U+D800 (an unpaired surrogate); ${TEXT_FIX}` },
    ]);
    expect(codePoint(0x1f600)).toBe('U+1F600');
  });
});
