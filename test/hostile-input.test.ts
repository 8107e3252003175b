import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { runCli } from '../src/cli';
import { loadFleet } from '../src/fleet/load';
import { SpecValidationError } from '../src/cluster-spec/errors';
import { awsSpec, captureIo, imageFor, kubernetesSpec, platformSpec, readTree, tempDir, useTempDir, writeFile } from './helpers';

/**
 * Hostile and broken inputs, table-driven: each must give one clear error
 * naming the file and the field, exit 1, print no stack trace, and leave the
 * previous output exactly as it was.
 */

type Setup = (clusters: string, root: string) => void;

const k8s = (name: string, kubernetes: Record<string, unknown> = {}, spec: Record<string, unknown> = {}) =>
  kubernetesSpec('AWS', name, kubernetes, spec, { cloudControllerManagerAWS: imageFor('cloudControllerManagerAWS') });
const text =
  (name: string, content: string): Setup =>
  (c) =>
    writeFile(c, name, content);
const spec =
  (raw: Record<string, unknown>, extra: Record<string, string> = {}): Setup =>
  (c) => {
    writeFile(c, 'c.yaml', raw);
    for (const [f, content] of Object.entries(extra)) {
      writeFile(c, f, content);
    }
  };
const HEAD = 'apiVersion: ccm-gitops.io/v1alpha1\nkind: CloudControllerManagerCluster\nmetadata:\n  name: c\n';

/** [case, setup, what stderr must contain (file, line and field where the input has them)] */
const CASES: [string, Setup, string][] = [
  // malformed YAML
  ['unclosed flow sequence', text('c.yaml', `${HEAD}spec: [a, b\n`), 'c.yaml:6: is not valid YAML:'],
  ['tab indentation', text('c.yaml', `${HEAD}spec:\n\tplatform: AWS\n`), 'c.yaml:6: is not valid YAML:'],
  ['duplicate key', text('c.yaml', `${HEAD}spec:\n  platform: AWS\n  platform: GCP\n`), 'c.yaml:7: is not valid YAML: Map keys must be unique'],
  ['two documents', text('c.yaml', `${HEAD}---\n${HEAD}`), 'c.yaml:5: holds more than one YAML document; put one cluster spec per file'],
  ['empty file', text('c.yaml', ''), 'c.yaml: is empty; write a CloudControllerManagerCluster spec'],
  ['a scalar', text('c.yaml', 'hello\n'), 'c.yaml: must be a YAML mapping, got "hello"'],
  ['a list', text('c.yaml', '- a\n- b\n'), 'c.yaml: must be a YAML mapping, got a list (["a","b"])'],
  ['binary content', text('c.yaml', `${HEAD}\u0000\u0001`), 'c.yaml: is binary (contains NUL bytes); inputs must be UTF-8 text'],
  ['not UTF-8 text at all', (c) => fs.writeFileSync(path.join(c, 'c.yaml'), Buffer.from([0xff, 0xfe, 0x00, 0x41])), 'c.yaml: is binary'],
  // resource exhaustion
  [
    'alias bomb',
    text(
      'c.yaml',
      `${HEAD}a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n`,
    ),
    'c.yaml: cannot be read: Excessive alias count',
  ],
  ['a file over 1 MiB', text('c.yaml', `${HEAD}spec:\n  x: "${'a'.repeat(1024 * 1024)}"\n`), 'c.yaml: is 1048681 bytes, over the 1048576-byte limit'],
  [
    'deep nesting beyond the parser',
    text('c.yaml', `${HEAD}spec: ${'['.repeat(20000)}${']'.repeat(20000)}\n`),
    'c.yaml: nests deeper than the YAML reader can follow',
  ],
  ['deep nesting within the parser', text('c.yaml', `${HEAD}spec: ${'['.repeat(40)}${']'.repeat(40)}\n`), 'c.yaml: nests more than 16 levels deep'],
  [
    'a huge cloud config',
    spec(awsSpec('c', { cloudConfig: { file: 'c.conf' } }), { 'c.conf': `[Global]\n${'#'.repeat(1100 * 1024)}\n` }),
    'c.conf: is 1126410 bytes, over the 1048576-byte limit',
  ],
  // envelope and types
  ['wrong apiVersion', spec({ ...awsSpec('c'), apiVersion: 'v1' }), 'c.yaml:1: apiVersion:'],
  ['wrong kind', spec({ ...awsSpec('c'), kind: 'Deployment' }), 'c.yaml:2: kind:'],
  ['no metadata.name', spec({ ...awsSpec('c'), metadata: {} }), 'c.yaml:3: metadata.name: is required'],
  ['upper-case name', spec(awsSpec('Prod_1')), 'c.yaml:4: metadata.name: "Prod_1" is not a DNS-1123 label'],
  ['name longer than 40', spec(awsSpec('a'.repeat(41))), `c.yaml:4: metadata.name: "${'a'.repeat(41)}" is longer than 40 characters`],
  ['name with a dot', spec(awsSpec('prod.1')), 'c.yaml:4: metadata.name: "prod.1" is not a DNS-1123 label'],
  [
    'a number as the name',
    text('c.yaml', 'apiVersion: ccm-gitops.io/v1alpha1\nkind: CloudControllerManagerCluster\nmetadata:\n  name: 42\nspec: {}\n'),
    'c.yaml:4: metadata.name: expected string, got number 42',
  ],
  [
    'unknown top-level field',
    spec({ ...awsSpec('c'), status: {} }),
    'c.yaml:13: status: unknown field; remove it (known fields: apiVersion, kind, metadata, spec)',
  ],
  ['misspelt spec field', spec(awsSpec('c', { platfrom: 'AWS' })), 'c.yaml:11: spec.platfrom: unknown field; did you mean "platform"?'],
  ['images as a list', spec(awsSpec('c', { images: ['x'] })), 'c.yaml:9: spec.images: expected object, got a list (["x"])'],
  [
    'replicas as a string',
    spec(k8s('c', { workload: { kind: 'Deployment', replicas: 'two' } })),
    'c.yaml:14: spec.kubernetes.workload.replicas: expected number, got "two"',
  ],
  ['unknown platform', spec(awsSpec('c', { platform: 'Moon' })), 'c.yaml:7: spec.platform: "Moon" is not allowed; expected one of:'],
  [
    'unknown distribution',
    spec(awsSpec('c', { distribution: 'eks' })),
    'c.yaml:6: spec.distribution: "eks" is not allowed; expected one of: openshift, kubernetes',
  ],
  [
    'duplicate names in two files',
    (c) => {
      writeFile(c, 'a.yaml', awsSpec('same'));
      writeFile(c, 'b/b.yaml', awsSpec('same'));
    },
    'a.yaml:4: metadata.name: "same" is also used by',
  ],
  [
    'a defaults file that names a cluster',
    (c) => {
      writeFile(c, 'defaults.yaml', { apiVersion: 'ccm-gitops.io/v1alpha1', kind: 'CloudControllerManagerDefaults', metadata: { name: 'x' } });
      writeFile(c, 'c.yaml', awsSpec('c'));
    },
    'defaults.yaml:4: metadata.name: cannot be set in a defaults file',
  ],
  // images
  [
    'an image on "latest"',
    spec(awsSpec('c', { images: { cloudControllerManagerAWS: 'quay.io/x/ccm:latest' } })),
    'c.yaml:10: spec.images.cloudControllerManagerAWS: "quay.io/x/ccm:latest" is pinned to the moving tag "latest"',
  ],
  [
    'an image with a malformed digest',
    spec(awsSpec('c', { images: { cloudControllerManagerAWS: 'quay.io/x/ccm@sha256:abc' } })),
    'c.yaml:10: spec.images.cloudControllerManagerAWS: "quay.io/x/ccm@sha256:abc" has a malformed digest',
  ],
  ['an unpinned image', spec(awsSpec('c', { images: { cloudControllerManagerAWS: 'quay.io/x/ccm' } })), 'is not pinned (no tag or digest)'],
  // file references
  ['cloud config ../../etc/passwd', spec(awsSpec('c', { cloudConfig: { file: '../../etc/passwd' } })), 'spec.cloudConfig.file: "../../etc/passwd"'],
  [
    'cloud config absolute path',
    spec(awsSpec('c', { cloudConfig: { file: '/etc/passwd' } })),
    'c.yaml: spec.cloudConfig.file: "/etc/passwd" is an absolute path',
  ],
  [
    'cloud config symlink leaving the folder',
    (c, root) => {
      fs.writeFileSync(path.join(root, 'outside.conf'), '[Global]\n');
      fs.symlinkSync(path.join(root, 'outside.conf'), path.join(c, 'c.conf'));
      writeFile(c, 'c.yaml', awsSpec('c', { cloudConfig: { file: 'c.conf' } }));
    },
    'c.yaml: spec.cloudConfig.file: "c.conf" resolves outside the clusters directory',
  ],
  [
    'spec symlink leaving the folder',
    (c, root) => {
      writeFile(root, 'outside.yaml', awsSpec('c'));
      fs.symlinkSync(path.join(root, 'outside.yaml'), path.join(c, 'c.yaml'));
    },
    'c.yaml: is a symbolic link to a file outside the clusters directory',
  ],
  ['cloud config missing', spec(awsSpec('c', { cloudConfig: { file: 'nope.conf' } })), 'c.yaml: spec.cloudConfig.file: "nope.conf" does not exist'],
  [
    'cloud config is a folder',
    (c) => {
      fs.mkdirSync(path.join(c, 'dir.conf'));
      writeFile(c, 'c.yaml', awsSpec('c', { cloudConfig: { file: 'dir.conf' } }));
    },
    'dir.conf: is not a regular file',
  ],
  [
    'extra key traversal',
    spec(platformSpec('Azure', 'c', { cloudConfig: { file: 'c.json', extraKeys: { endpoints: '../../../etc/hosts' } } }), {
      'c.json': '{"cloud": "AzurePublicCloud"}',
    }),
    'spec.cloudConfig.extraKeys.endpoints: "../../../etc/hosts"',
  ],
  // secrets
  [
    'a credential in a cloud config',
    spec(awsSpec('c', { cloudConfig: { file: 'c.conf' } }), { 'c.conf': '[Global]\nSecretAccessKey = abc123\n' }),
    'c.conf:2: cluster c:',
  ],
  [
    'a private key in an extra key',
    spec(platformSpec('GCP', 'c', { cloudConfig: { file: 'c.conf', extraKeys: { 'tls.key': 'k.pem' } } }), {
      'c.conf': '[global]\n',
      'k.pem': '-----BEGIN RSA PRIVATE KEY-----\nMII\n-----END RSA PRIVATE KEY-----\n',
    }),
    'k.pem: cluster c: holds a private key',
  ],
  [
    'a proxy with credentials',
    spec(awsSpec('c', { proxy: { httpsProxy: 'http://user:pass@proxy:3128' } })),
    'c.yaml:12: spec.proxy.httpsProxy: embeds credentials',
  ],
  [
    'a repository URL with credentials',
    spec(awsSpec('c', { gitops: { engine: 'argocd', repoURL: 'https://user:token@git.example.com/x.git' } })),
    'c.yaml:13: spec.gitops.repoURL: embeds credentials',
  ],
  [
    'a GitOps path leaving the repository',
    spec(awsSpec('c', { gitops: { path: '../../other' } })),
    'c.yaml:12: spec.gitops.path: "../../other" must be a relative path inside the repository',
  ],
  [
    'a literal token in kubernetes env',
    spec(k8s('c', { extraEnv: [{ name: 'API_TOKEN', value: 'abcdef' }] })),
    'c.yaml:14: spec.kubernetes.extraEnv.0.value: "API_TOKEN" looks like a credential',
  ],
  [
    'a credential in a kubernetes flag',
    spec(k8s('c', { extraArgs: { password: 'hunter2' } })),
    'c.yaml:13: spec.kubernetes.extraArgs.password: looks like a credential',
  ],
  // unsupported combinations
  [
    'leader migration on a platform that never had an in-tree provider',
    spec(platformSpec('Nutanix', 'c', { cloudConfig: { file: 'c.json' }, migration: { phase: 'leader-migration-kcm', kubernetesVersion: '1.27' } }), {
      'c.json': '{}',
    }),
    'spec.migration.phase: "leader-migration-kcm" is not possible on Nutanix',
  ],
  [
    'in-tree AWS on a Kubernetes without it',
    spec(awsSpec('c', { migration: { phase: 'in-tree', kubernetesVersion: '1.29' } })),
    'spec.migration.kubernetesVersion: "1.29"',
  ],
  [
    'a migration version that is not a version',
    spec(awsSpec('c', { migration: { phase: 'in-tree', kubernetesVersion: '1.x' } })),
    'c.yaml:13: spec.migration.kubernetesVersion: "1.x" is not a Kubernetes minor version',
  ],
  [
    'an OpenShift-only platform on kubernetes',
    spec(k8s('c', {}, { platform: 'PowerVS' })),
    'c.yaml:7: spec.platform: "PowerVS" is rendered for distribution openshift only',
  ],
  [
    'a kubernetes-only platform on OpenShift',
    spec(awsSpec('c', { platform: 'DigitalOcean' })),
    'c.yaml:7: spec.platform: "DigitalOcean" is not rendered for distribution openshift; it is rendered with distribution kubernetes',
  ],
  ['Custom TLS without a version', spec(awsSpec('c', { tls: { profile: 'Custom' } })), 'spec.tls.minTLSVersion: is required with profile Custom'],
  [
    'a gate both enabled and disabled',
    spec(awsSpec('c', { featureGates: { enabled: ['Foo'], disabled: ['Foo'] } })),
    'spec.featureGates.enabled.0: "Foo" is listed as both enabled and disabled',
  ],
  // every parser bounded (cloud configs too), linear parse time
  [
    'a JSON cloud config nested 400,000 levels (Azure)',
    spec(platformSpec('Azure', 'c', { cloudConfig: { file: 'c.json' } }), {
      'c.json': `{"cloud":"AzurePublicCloud","x":${'['.repeat(400000)}${']'.repeat(400000)}}`,
    }),
    'c.json: cluster c: failed to read the cloud.conf: it nests 400001 levels deep, over the limit of 64',
  ],
  [
    'a JSON cloud config nested 400,000 levels (Nutanix)',
    spec(platformSpec('Nutanix', 'c', { cloudConfig: { file: 'c.json' } }), { 'c.json': `{"x":${'['.repeat(400000)}${']'.repeat(400000)}}` }),
    'c.json: cluster c: failed to read the cloud.conf: it nests 400001 levels deep, over the limit of 64',
  ],
  [
    'a YAML alias bomb in a vSphere cloud config',
    spec(platformSpec('VSphere', 'c', { cloudConfig: { file: 'c.conf' } }), {
      'c.conf':
        'global:\n  a: &a [x, x, x, x, x, x, x, x, x, x]\n  b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n  c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n  d: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n',
    }),
    'c.conf: cluster c: failed to read the cloud.conf: its YAML aliases expand to more than 50 nodes',
  ],
  [
    'a __proto__ key in an Azure JSON cloud config',
    spec(platformSpec('Azure', 'c', { cloudConfig: { file: 'c.json' } }), { 'c.json': '{"cloud":"AzurePublicCloud","__proto__":{"x":1}}' }),
    'c.json: cluster c: failed to read the cloud.conf: "__proto__" is a key JavaScript reads as an object\'s prototype; remove it',
  ],
  [
    'a __proto__ key in a vSphere YAML cloud config',
    spec(platformSpec('VSphere', 'c', { cloudConfig: { file: 'c.conf' } }), { 'c.conf': 'global:\n  __proto__:\n    insecureFlag: true\n' }),
    'c.conf: cluster c: failed to read the cloud.conf: "global.__proto__" is a key JavaScript reads as an object\'s prototype; remove it',
  ],
  [
    'a __proto__ key in a pass-through JSON cloud config (Nutanix)',
    spec(platformSpec('Nutanix', 'c', { cloudConfig: { file: 'c.json' } }), { 'c.json': '{"prismCentral":{"__proto__":{"x":1}}}' }),
    'c.json: cluster c: failed to read the cloud.conf: "prismCentral.__proto__" is a key JavaScript reads as an object\'s prototype; remove it',
  ],
  [
    'a vSphere YAML cloud config nested 80 block mappings deep',
    spec(platformSpec('VSphere', 'c', { cloudConfig: { file: 'c.conf' } }), {
      'c.conf': `global:\n${Array.from({ length: 80 }, (_v, i) => `${'  '.repeat(i + 1)}k${i}:\n`).join('')}${'  '.repeat(81)}v: 1\n`,
    }),
    'c.conf: cluster c: failed to read the cloud.conf: it nests more than 64 levels deep, over the limit of 64',
  ],
  [
    'a vSphere YAML cloud config of 20,000 nested sequences',
    spec(platformSpec('VSphere', 'c', { cloudConfig: { file: 'c.conf' } }), { 'c.conf': `global:\n  a:\n    ${'- '.repeat(20000)}x\n` }),
    'c.conf: cluster c: failed to read the cloud.conf: it nests more than 64 levels deep, over the limit of 64',
  ],
  ['a spec of 20,000 nested sequences', text('c.yaml', '- '.repeat(20000)), 'c.yaml: nests deeper than the YAML reader can follow'],
  [
    'a defaults file of 20,000 nested sequences',
    spec(awsSpec('c'), { 'defaults.yaml': '- '.repeat(20000) }),
    'defaults.yaml: nests deeper than the YAML reader can follow',
  ],
  [
    'a spec with 3,000 keys (refused before any quadratic walk)',
    text('c.yaml', `${HEAD}spec:\n${Array.from({ length: 3000 }, (_v, i) => `  k${i}: 1\n`).join('')}`),
    'c.yaml: has 3005 keys and list items, over the limit of 2000',
  ],
  [
    'a duplicate key found in linear time',
    text('c.yaml', `${HEAD}spec:\n  a: 1\n  b: 2\n  a: 3\n`),
    'c.yaml:8: is not valid YAML: Map keys must be unique',
  ],
  [
    'Azure 1e400 (would become null)',
    spec(platformSpec('Azure', 'c', { cloudConfig: { file: 'c.json' } }), {
      'c.json': '{"cloud":"AzurePublicCloud","cloudProviderRateLimitQPS":1e400}',
    }),
    'c.json: cluster c: failed to read the cloud.conf: "cloudProviderRateLimitQPS" is a number outside the float64 range',
  ],
  [
    'Latin-1 bytes in a cloud config',
    (c) => {
      writeFile(c, 'c.yaml', awsSpec('c', { cloudConfig: { file: 'c.conf' } }));
      fs.writeFileSync(path.join(c, 'c.conf'), Buffer.from('[Global]\nZone = caf\xe9\n', 'latin1'));
    },
    'c.conf:2: is not UTF-8 text (byte 0xE9 at offset 19, e.g. Latin-1); save it as UTF-8',
  ],
  // never skip silently
  [
    'a FIFO named like a spec',
    (c) => {
      writeFile(c, 'a.yaml', awsSpec('a'));
      execFileSync('mkfifo', [path.join(c, 'b.yaml')]);
    },
    'b.yaml: is not a regular file (a FIFO, socket or device)',
  ],
  [
    'an upper-case .YAML spec',
    (c) => {
      writeFile(c, 'a.yaml', awsSpec('a'));
      writeFile(c, 'B.YAML', awsSpec('b'));
    },
    'B.YAML: has an upper-case extension; synth reads *.yaml and *.yml only',
  ],
  [
    'a symbolic link to a folder',
    (c, root) => {
      writeFile(c, 'a.yaml', awsSpec('a'));
      writeFile(root, 'elsewhere/b.yaml', awsSpec('b'));
      fs.symlinkSync(path.join(root, 'elsewhere'), path.join(c, 'linked'));
    },
    'linked: is a symbolic link to a folder; synth does not follow folder links',
  ],
  [
    'defaults.yaml and defaults.yml in one folder',
    (c) => {
      const d = { apiVersion: 'ccm-gitops.io/v1alpha1', kind: 'CloudControllerManagerDefaults', spec: {} };
      writeFile(c, 'defaults.yaml', d);
      writeFile(c, 'defaults.yml', d);
      writeFile(c, 'a.yaml', awsSpec('a'));
    },
    'defaults.yml: is beside defaults.yaml; keep one defaults file per folder',
  ],
  // secrets: refused, never echoed
  [
    'a token as the repoURL user',
    spec(awsSpec('c', { gitops: { engine: 'argocd', repoURL: 'https://ghp_x@github.com/o/r.git' } })),
    'spec.gitops.repoURL: embeds credentials (a user name or token before the host)',
  ],
  [
    'ssh://git:pw@ in repoURL',
    spec(awsSpec('c', { gitops: { engine: 'flux', repoURL: 'ssh://git:pw@git.example.com/r.git' } })),
    'spec.gitops.repoURL: embeds credentials (user:password@)',
  ],
  [
    'credentials in destinationServer',
    spec(
      awsSpec('c', {
        gitops: {
          engine: 'argocd',
          repoURL: 'https://g.example.com/r.git',
          argocd: { topology: 'hub', project: 'p', destinationServer: 'https://u:p@api.x:6443' },
        },
      }),
    ),
    'spec.gitops.argocd.destinationServer: embeds credentials (user:password@)',
  ],
  [
    'a token as the proxy user',
    spec(awsSpec('c', { proxy: { httpProxy: 'http://token@proxy:3128' } })),
    'spec.proxy.httpProxy: embeds credentials (a user name or token before the host)',
  ],
  [
    'percent-encoded proxy credentials',
    spec(awsSpec('c', { proxy: { httpsProxy: 'http://user%3Apw@proxy:3128' } })),
    'spec.proxy.httpsProxy: embeds credentials (user:password@)',
  ],
  [
    'a private key in a GCP cloud config',
    spec(platformSpec('GCP', 'c', { cloudConfig: { file: 'c.conf' } }), {
      'c.conf': '[global]\n-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n',
    }),
    "c.conf:2: cluster c: 'a private key (PEM block)' (line 2) holds a credential",
  ],
  [
    'passwordFile = hunter2 (a literal, not a path)',
    spec(platformSpec('VSphere', 'c', { cloudConfig: { file: 'c.conf' } }), {
      'c.conf': '[Global]\nsecret-name = s\n[VirtualCenter "vc"]\npasswordFile = hunter2\n',
    }),
    "passwordFile' (line 4) holds a credential",
  ],
  [
    'pwd in a Nutanix cloud config',
    spec(platformSpec('Nutanix', 'c', { cloudConfig: { file: 'c.json' } }), { 'c.json': '{"prismCentral":{"address":"pc","pwd":"x"}}' }),
    'c.json: cluster c: "prismCentral.pwd" holds a credential',
  ],
  // strings that reach rendered objects are checked here, not by the API server
  [
    'an image with an empty name',
    spec(awsSpec('c', { images: { cloudControllerManagerAWS: ':1.0' } })),
    'spec.images.cloudControllerManagerAWS: ":1.0" is not a valid image reference',
  ],
  [
    'an image starting with "-"',
    spec(awsSpec('c', { images: { cloudControllerManagerAWS: '-quay.io/x:1' } })),
    'spec.images.cloudControllerManagerAWS: "-quay.io/x:1" is not a valid image reference',
  ],
  [
    'an upper-case image repository',
    spec(awsSpec('c', { images: { cloudControllerManagerAWS: 'quay.io/OpenShift/ccm:1' } })),
    'spec.images.cloudControllerManagerAWS: "quay.io/OpenShift/ccm:1" is not a valid image reference',
  ],
  [
    'a zero-width space in an image',
    spec(awsSpec('c', { images: { cloudControllerManagerAWS: 'quay.io/x\u200b/ccm:1' } })),
    'spec.images.cloudControllerManagerAWS: holds U+200B (a zero-width character); this field takes printable ASCII only',
  ],
  [
    'a label value with a newline',
    spec({ ...awsSpec('c'), metadata: { name: 'c', labels: { team: 'a\nb' } } }),
    'metadata.labels.team: holds U+000A (a line break or control character); this field takes one line of printable ASCII: remove it',
  ],
  [
    'a ConfigMap key ".."',
    spec(platformSpec('Azure', 'c', { cloudConfig: { file: 'c.json', extraKeys: { '..': 'e.json' } } }), {
      'c.json': '{"cloud":"AzurePublicCloud"}',
      'e.json': '{}',
    }),
    'spec.cloudConfig.extraKeys...: ".." is not a ConfigMap key',
  ],
  // every field has a shape: credentials and invisible text are named, never shown
  [
    'a schemeless user:password@ proxy',
    spec(awsSpec('c', { proxy: { httpProxy: ['user:', 'pw', '@proxy.example.com:3128'].join('') } })),
    'c.yaml:12: spec.proxy.httpProxy: embeds credentials (user:password@); rendered env vars are committed to git',
  ],
  [
    'registry credentials in an image',
    spec(awsSpec('c', { images: { cloudControllerManagerAWS: ['admin:', 'pw', '@registry.example.com/ccm:v1'].join('') } })),
    'c.yaml:10: spec.images.cloudControllerManagerAWS: embeds registry credentials (a user before the registry host); registry credentials go in an imagePullSecret',
  ],
  [
    'a right-to-left override in the Flux namespace',
    spec(awsSpec('c', { gitops: { flux: { namespace: 'flux\u202esystem' } } })),
    'c.yaml:13: spec.gitops.flux.namespace: holds U+202E (a bidirectional control); this field takes printable ASCII only',
  ],
  [
    'a second flag hidden in a flag value',
    spec(k8s('c', { extraArgs: { v: '2 --kubeconfig=/x' } })),
    'c.yaml:13: spec.kubernetes.extraArgs.v: holds another flag after white space; one flag per entry',
  ],
  [
    'extraArgs with a newline',
    spec(k8s('c', { extraArgs: { v: '2\n--kubeconfig=/x' } })),
    'spec.kubernetes.extraArgs.v: holds U+000A (a line break or control character); this field takes one line of printable ASCII: remove it',
  ],
];

describe('hostile and broken input: one clear error, exit 1, no stack trace, no partial output', () => {
  const dir = useTempDir();

  test('there are at least 40 cases', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40);
  });

  test.each(CASES)('%s', (_name, setup, expected) => {
    // GIVEN a previous good render in the output folder
    const root = dir();
    const good = path.join(root, 'good');
    writeFile(good, 'g.yaml', awsSpec('g'));
    const out = path.join(root, 'dist');
    expect(runCli(['synth', '--clusters', good, '--out', out, '-q'], captureIo().io, {})).toBe(0);
    const before = readTree(out);
    // AND a clusters folder with the hostile input
    const clusters = path.join(root, 'clusters');
    fs.mkdirSync(clusters);
    setup(clusters, root);
    // WHEN synth runs on it
    const cap = captureIo();
    const code = runCli(['synth', '--clusters', clusters, '--out', out], cap.io, {});
    // THEN it fails with the error naming file and field, no stack trace, and the output is untouched
    const stderr = cap.stderr().split(`${clusters}${path.sep}`).join('').split(`${root}${path.sep}`).join('');
    expect({ code, mentions: stderr.includes(expected) ? expected : stderr }).toEqual({ code: 1, mentions: expected });
    expect(stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
    expect(stderr).not.toContain('internal error');
    expect(stderr).toMatch(/^error: \d+ problems? found; nothing was written\n/);
    expect(readTree(out)).toEqual(before);
    expect(fs.readdirSync(root).filter((n) => n.startsWith('.dist'))).toEqual([]);
  });
});

describe('property: the spec loader never crashes', () => {
  const SPEC_KEYS = [
    'apiVersion',
    'kind',
    'metadata',
    'spec',
    'distribution',
    'platform',
    'images',
    'kubernetes',
    'migration',
    'cloudConfig',
    'name',
  ];
  const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
    v: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constantFrom(null, true, 0, -1, 1.5, '', 'AWS', 'kubernetes', 'openshift', '1.33', 'external', '../x', '/etc/passwd', 'a'.repeat(300)),
      fc.string(),
      fc.array(tie('v'), { maxLength: 4 }),
      fc.dictionary(fc.oneof(fc.constantFrom(...SPEC_KEYS), fc.string()), tie('v'), { maxKeys: 5 }),
    ),
  })).v;

  test('arbitrary YAML-able data gives a spec or a SpecValidationError, never another exception', () => {
    const root = tempDir();
    try {
      fc.assert(
        fc.property(value, fc.boolean(), (data, asText) => {
          fs.rmSync(path.join(root, 'c'), { recursive: true, force: true });
          fs.mkdirSync(path.join(root, 'c'));
          fs.writeFileSync(
            path.join(root, 'c', 'c.yaml'),
            asText ? (typeof data === 'string' ? data : (JSON.stringify(data) ?? '')) : stringify(data),
          );
          try {
            loadFleet(path.join(root, 'c'));
          } catch (e) {
            if (!(e instanceof SpecValidationError)) {
              throw e;
            }
            for (const issue of e.issues) {
              expect(issue.message.length).toBeGreaterThan(0);
              expect(issue.file).toContain('c.yaml');
            }
          }
        }),
        { numRuns: 300, seed: 42 },
      );
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  test('mutations of a valid kubernetes spec give a spec or field errors, never another exception', () => {
    const root = tempDir();
    const base = k8s('c', { workload: { kind: 'Deployment', replicas: 2 }, extraArgs: { v: 3 } });
    const paths = [
      ['spec', 'kubernetes', 'workload', 'replicas'],
      ['spec', 'kubernetes', 'extraArgs'],
      ['spec', 'kubernetes', 'scheduling'],
      ['spec', 'platform'],
      ['spec', 'kubernetes', 'extraEnv'],
      ['spec', 'kubernetes', 'output'],
      ['spec', 'migration'],
      ['metadata', 'name'],
      ['spec', 'kubernetes', 'version'],
    ];
    try {
      fc.assert(
        fc.property(fc.constantFrom(...paths), value, (at, v) => {
          const raw = JSON.parse(JSON.stringify(base));
          let node = raw;
          for (const key of at.slice(0, -1)) {
            node = node[key] ??= {};
          }
          node[at[at.length - 1]] = v;
          fs.rmSync(path.join(root, 'c'), { recursive: true, force: true });
          writeFile(path.join(root, 'c'), 'c.yaml', raw);
          try {
            loadFleet(path.join(root, 'c'));
          } catch (e) {
            if (!(e instanceof SpecValidationError)) {
              throw e;
            }
          }
        }),
        { numRuns: 300, seed: 7 },
      );
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
