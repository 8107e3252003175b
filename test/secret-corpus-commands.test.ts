import { X509Certificate } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments, stringify } from 'yaml';
import { runCli } from '../src/cli';
import { secretInOutput } from '../src/secrets/detector';
import { CREDENTIALS, ENCODED, KEY_NAMED, PUBLIC } from './secretlint/corpus';
import { kubernetesSpec, platformSpec, readTree, useTempDir, writeFile } from './helpers';

/**
 * The two corpus tables run through every command that reads input: public
 * material renders where a user puts it, and no credential shape leaves by any
 * command, field, output file or message.
 */

jest.setTimeout(120_000);

interface Run {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

function cli(argv: string[], stdin?: string): Run {
  let out = '';
  let err = '';
  const code = runCli(
    argv,
    {
      out: (t) => {
        out += t;
      },
      err: (t) => {
        err += t;
      },
      in: () => stdin ?? '',
    },
    {},
  );
  return { code, out, err };
}

/**
 * Whether a text shows a credential: the whole value, or any 12-character
 * window of it with two digits and four letters (a piece of its random part;
 * fixed words such as key names and PEM labels have fewer).
 */
function shows(text: string, credential: string): boolean {
  if (text.includes(credential)) {
    return true;
  }
  for (let i = 0; i + 12 <= credential.length; i++) {
    const w = credential.slice(i, i + 12);
    if (!/\s/.test(w) && (w.match(/[0-9]/g) ?? []).length >= 2 && (w.match(/[A-Za-z]/g) ?? []).length >= 4 && text.includes(w)) {
      return true;
    }
  }
  return false;
}

function expectNowhere(credential: string, run: Run, ...folders: string[]): void {
  expect(shows(run.out, credential)).toBe(false);
  expect(shows(run.err, credential)).toBe(false);
  for (const folder of folders) {
    for (const [file, content] of Object.entries(fs.existsSync(folder) ? readTree(folder) : {})) {
      if (shows(content, credential)) {
        throw new Error(`${file} holds the credential`);
      }
    }
  }
}

const oneLine = (text: string) => !/[\r\n]/.test(text);
const SINGLE_LINE = CREDENTIALS.filter(([, c]) => oneLine(c));
const ONE_WORD = SINGLE_LINE.filter(([, c]) => !/\s/.test(c));

/** Every spec field a credential can reach, one cluster each: [file, spec, files beside it]. */
function plantedFleet(credential: string): [string, Record<string, unknown>, Record<string, string>][] {
  const k8s = (name: string, kubernetes: Record<string, unknown>) => kubernetesSpec('AWS', name, kubernetes);
  const azure = (name: string, kubernetes: Record<string, unknown>) => kubernetesSpec('Azure', name, kubernetes);
  const gcp = (name: string) => platformSpec('GCP', name, { cloudConfig: { file: `${name}.cloud.conf` } });
  const fleet: [string, Record<string, unknown>, Record<string, string>][] = [
    ['pod-annotation', k8s('pod-annotation', { podAnnotations: { 'example.com/note': credential } }), {}],
    ['sa-annotation', k8s('sa-annotation', { serviceAccount: { annotations: { 'example.com/note': credential } } }), {}],
    ['env-literal', k8s('env-literal', { extraEnv: [{ name: 'NOTE', value: credential }] }), {}],
    [
      'extra-key',
      platformSpec('GCP', 'extra-key', { cloudConfig: { file: 'extra-key.cloud.conf', extraKeys: { 'note.txt': 'extra-key.note.txt' } } }),
      { 'extra-key.cloud.conf': '[global]\nproject-id = p\n', 'extra-key.note.txt': credential },
    ],
  ];
  if (oneLine(credential)) {
    fleet.push(
      ['flag-value', k8s('flag-value', { extraArgs: { 'kube-api-burst': credential } }), {}],
      ['node-manager-flag', azure('node-manager-flag', { cloudNodeManager: { extraArgs: { 'node-status-update-frequency': credential } } }), {}],
      ['cloud-config-value', gcp('cloud-config-value'), { 'cloud-config-value.cloud.conf': `[global]\nproject-id = p\nnode-tags = ${credential}\n` }],
    );
  }
  if (!/\s/.test(credential)) {
    fleet.push([
      'cloud-config-comment',
      gcp('cloud-config-comment'),
      { 'cloud-config-comment.cloud.conf': `[global]\nproject-id = p\n; token = ${credential}\n` },
    ]);
  }
  return fleet;
}

function writeFleet(dir: string, fleet: [string, Record<string, unknown>, Record<string, string>][]): void {
  for (const [file, spec, files] of fleet) {
    writeFile(dir, `${file}.yaml`, spec);
    for (const [name, content] of Object.entries(files)) {
      writeFile(dir, name, content);
    }
  }
}

/** An OpenShift export (Infrastructure and its cloud-provider-config ConfigMap) for `import`. */
function writeExport(dir: string, platformStatus: Record<string, unknown>, data: Record<string, string>): void {
  const list = {
    apiVersion: 'v1',
    kind: 'List',
    items: [
      {
        apiVersion: 'config.openshift.io/v1',
        kind: 'Infrastructure',
        metadata: { name: 'cluster' },
        spec: { cloudConfig: { name: 'cloud-provider-config', key: 'config' } },
        status: { infrastructureName: 'corpus-1-ab12c', controlPlaneTopology: 'HighlyAvailable', platform: platformStatus.type, platformStatus },
      },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cloud-provider-config', namespace: 'openshift-config' }, data },
      { apiVersion: 'config.openshift.io/v1', kind: 'ClusterVersion', metadata: { name: 'version' }, status: { desired: { version: '4.22.3' } } },
    ],
  };
  writeFile(dir, 'export.yaml', list);
}

describe('credential shapes never leave, whatever command reads them', () => {
  const tmp = useTempDir();

  test.each(CREDENTIALS)('%s: validate-spec and synth refuse it in every field, with every file named and the value nowhere', (_name, credential) => {
    // GIVEN a fleet with the credential planted in every field it can reach, and a previous output
    const root = tmp();
    const clusters = path.join(root, 'clusters');
    const out = path.join(root, 'dist');
    const fleet = plantedFleet(credential);
    writeFleet(clusters, fleet);
    fs.mkdirSync(out);
    fs.writeFileSync(path.join(out, 'previous.txt'), 'previous output\n');
    // WHEN validate-spec reads them
    const validated = cli(['validate-spec', clusters]);
    // THEN it fails, names every planted file, and shows the value nowhere
    expect(validated.code).toBe(1);
    for (const [file] of fleet) {
      expect(validated.err).toContain(`${file}.`);
    }
    expectNowhere(credential, validated);
    // WHEN synth renders them
    const synth = cli(['synth', '--clusters', clusters, '--out', out, '--quiet', '--no-cache', '--jobs', '1']);
    // THEN it fails, writes nothing, and shows the value nowhere
    expect(synth.code).toBe(1);
    expect(readTree(out)).toEqual({ 'previous.txt': 'previous output\n' });
    expectNowhere(credential, synth, out);
  });

  test.each(SINGLE_LINE)('%s: cloud-config transform refuses it in a value and prints nothing of it', (_name, credential) => {
    // GIVEN a GCP config with the credential as a value on standard input
    // WHEN transformed
    const run = cli(['cloud-config', 'transform', '--platform', 'GCP'], `[global]\nproject-id = p\nnode-tags = ${credential}\n`);
    // THEN it is refused and shown nowhere
    expect(run.code).not.toBe(0);
    expectNowhere(credential, run);
  });

  test.each(ONE_WORD)('%s: cloud-config transform refuses it in a comment', (_name, credential) => {
    const run = cli(['cloud-config', 'transform', '--platform', 'GCP'], `[global]\nproject-id = p\n# token = ${credential}\n`);
    expect(run.code).not.toBe(0);
    expectNowhere(credential, run);
  });

  test.each(CREDENTIALS)('%s: import refuses it in the cloud-provider-config and writes nothing', (_name, credential) => {
    // GIVEN an export whose cloud-provider-config carries the credential in an extra key, and (one line) in the config
    const root = tmp();
    const from = path.join(root, 'export');
    const out = path.join(root, 'clusters');
    const data: Record<string, string> = { config: '[global]\nproject-id = p\n', 'note.txt': credential };
    writeExport(from, { type: 'GCP', gcp: { projectID: 'p', region: 'us-east1' } }, data);
    // WHEN imported
    const run = cli(['import', '--from', from, '--out', out]);
    // THEN refused, nothing written, nothing shown
    expect(run.code).not.toBe(0);
    expectNowhere(credential, run, out);
    if (oneLine(credential)) {
      writeExport(
        from,
        { type: 'GCP', gcp: { projectID: 'p', region: 'us-east1' } },
        { config: `[global]\nproject-id = p\nnode-tags = ${credential}\n` },
      );
      const inConfig = cli(['import', '--from', from, '--out', out]);
      expect(inConfig.code).not.toBe(0);
      expectNowhere(credential, inConfig, out);
    }
  });

  const URL_CREDENTIALS = CREDENTIALS.filter(([, c]) => /^[a-z+]+:\/\/[^/\s]*@/.test(c));
  test.each([
    ...URL_CREDENTIALS,
    ...ONE_WORD.filter(([, c]) => !c.includes('://') && !c.includes('@') && !c.includes('/'))
      .slice(0, 8)
      .map(([n, c]): [string, string] => [`${n} as the user`, `https://${c}@git.example.com/org/fleet.git`]),
  ])('%s: init --repo-url refuses it and writes no file holding it', (_name, url) => {
    // GIVEN an empty repository folder
    const dir = tmp();
    // WHEN init is given the URL
    const run = cli(['init', dir, '--engine', 'argocd', '--repo-url', url]);
    // THEN it is refused, and no file and no message holds it
    expect(run.code).not.toBe(0);
    expectNowhere(url, run, dir);
  });
});

/**
 * The carriers that hide a credential from a check of parsed data: a comment,
 * a tag, a query parameter. Each is planted in a spec, a cloud config, an
 * export and a rendered tree, with a one-word credential of every kind.
 */
describe('credentials in comments, behind tags and in query strings never leave either', () => {
  const tmp = useTempDir();
  // one of each family: a prefix, an encoding, a platform's shape, entropy only, and the values only a key names
  const PICKED = [
    'GitHub classic token',
    'base64 of an AWS secret access key',
    'dockerconfigjson, base64 as in a Secret',
    'DigitalOcean personal access token',
    'Alibaba Cloud AccessKey ID',
    'random token, 32 characters',
  ];
  const WORDS: [string, string][] = [
    ...ONE_WORD.filter(([n]) => PICKED.includes(n)),
    ...KEY_NAMED.filter(([, , v]) => !/\s/.test(v)).map(([n, , v]): [string, string] => [n, v]),
  ];
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  /** A spec as YAML text with `value` where its placeholder was. */
  const specText = (spec: Record<string, unknown>, value: string) => stringify(spec).replace('PLACEHOLDER', value);
  const k8s = (name: string, kubernetes: Record<string, unknown>, spec: Record<string, unknown> = {}) =>
    kubernetesSpec('AWS', name, kubernetes, spec);

  test('the carriers are planted with every family of the corpus', () => {
    // every picked shape, and every key-named value of one word (the bearer header has a blank: a comment reads it as prose)
    expect(WORDS.map(([n]) => n).sort()).toEqual([...PICKED, ...KEY_NAMED.filter(([n]) => !n.includes('HEADER')).map(([n]) => n)].sort());
  });

  test.each(WORDS)('%s: validate-spec and synth refuse it in a comment, behind a tag and in a query, and show it nowhere', (_name, credential) => {
    // GIVEN one cluster per carrier, and a previous output
    const root = tmp();
    const clusters = path.join(root, 'clusters');
    const out = path.join(root, 'dist');
    const files: Record<string, string> = {
      'spec-comment.yaml': `${stringify(k8s('spec-comment', {}))}# token: ${credential}\n`,
      'spec-inline-comment.yaml': stringify(k8s('spec-inline-comment', {})).replace(
        'kind: CloudControllerManagerCluster',
        `kind: CloudControllerManagerCluster # password: ${credential}`,
      ),
      'binary-tag.yaml': specText(k8s('binary-tag', { podAnnotations: { 'example.com/note': 'PLACEHOLDER' } }), `!!binary ${b64(credential)}`),
      'str-tag.yaml': specText(k8s('str-tag', { podAnnotations: { 'example.com/db-token': 'PLACEHOLDER' } }), `!!str ${credential}`),
      'custom-tag.yaml': specText(k8s('custom-tag', { extraEnv: [{ name: 'DB_PASSWORD', value: 'PLACEHOLDER' }] }), `!vault ${credential}`),
      'repo-query.yaml': stringify(
        k8s('repo-query', {}, { gitops: { engine: 'argocd', repoURL: `https://git.example.com/org/fleet.git?private_token=${credential}` } }),
      ),
      'proxy-query.yaml': stringify(k8s('proxy-query', {}, { proxy: { httpsProxy: `proxy.example:3128/?token=${credential}` } })),
      'yaml-config-comment.yaml': stringify(
        kubernetesSpec('VSphere', 'yaml-config-comment', {}, { cloudConfig: { file: 'yaml-config-comment.conf' } }),
      ),
      'yaml-config-comment.conf': `global:\n  port: 443\n  # password: ${credential}\n`,
      'yaml-config-tag.yaml': stringify(kubernetesSpec('VSphere', 'yaml-config-tag', {}, { cloudConfig: { file: 'yaml-config-tag.conf' } })),
      'yaml-config-tag.conf': `global:\n  port: 443\n  password: !!binary ${b64(credential)}\n`,
      'ini-inline-comment.yaml': stringify(platformSpec('GCP', 'ini-inline-comment', { cloudConfig: { file: 'ini-inline-comment.conf' } })),
      'ini-inline-comment.conf': `[global]\nproject-id = p ; token = ${credential}\n`,
    };
    for (const [name, text] of Object.entries(files)) {
      writeFile(clusters, name, text);
    }
    fs.mkdirSync(out);
    fs.writeFileSync(path.join(out, 'previous.txt'), 'previous output\n');
    // WHEN validate-spec and synth read them
    const validated = cli(['validate-spec', clusters]);
    const synth = cli(['synth', '--clusters', clusters, '--out', out, '--quiet', '--no-cache', '--jobs', '1']);
    // THEN both fail naming every planted file, write nothing, and show no piece of the value
    expect(validated.code).toBe(1);
    for (const name of Object.keys(files).filter((f) => !files[f.replace(/\.yaml$/, '.conf')])) {
      expect(validated.err).toContain(name.replace(/\.yaml$/, '.'));
    }
    expectNowhere(credential, validated);
    expect(synth.code).toBe(1);
    expect(readTree(out)).toEqual({ 'previous.txt': 'previous output\n' });
    expectNowhere(credential, synth, out);
  });

  test.each(WORDS)('%s: import and diff refuse it behind a tag, drop it from comments, and show it nowhere', (_name, credential) => {
    // GIVEN an export whose file carries the credential in a comment, and one behind a tag
    const root = tmp();
    const from = path.join(root, 'export');
    const out = path.join(root, 'clusters');
    writeExport(from, { type: 'GCP', gcp: { projectID: 'p', region: 'us-east1' } }, { config: '[global]\nproject-id = p\n' });
    fs.appendFileSync(path.join(from, 'export.yaml'), `# token: ${credential}\n`);
    // WHEN imported, THEN the comment reaches no file and no message
    const commented = cli(['import', '--from', from, '--out', out]);
    expectNowhere(credential, commented, out);
    // WHEN a tag hides it, THEN the import is refused and shows it nowhere
    writeFile(from, 'zz-tagged.yaml', `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: t}\ndata:\n  password: !!binary ${b64(credential)}\n`);
    const tagged = cli(['import', '--from', from, '--out', path.join(root, 'tagged')]);
    expect(tagged.code).toBe(1);
    expectNowhere(credential, tagged, path.join(root, 'tagged'));
    // WHEN two trees are compared, one with the credential in a comment, a tag and a query
    const cm = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  url: https://git.example.com/x.git\n';
    writeFile(root, 'a/c/cm.yaml', cm);
    writeFile(root, 'b/c/cm.yaml', `${cm.replace('x.git', `x.git?token=${credential}`)}# token: ${credential}\n`);
    writeFile(root, 't/c/cm.yaml', `${cm}  password: !!binary ${b64(credential)}\n`);
    const changed = cli(['diff', path.join(root, 'a'), path.join(root, 'b')]);
    const refused = cli(['diff', path.join(root, 'a'), path.join(root, 't')]);
    // THEN the diff reports the change without the value, and the tagged tree is refused
    expectNowhere(credential, changed);
    expect(refused.code).toBe(2);
    expectNowhere(credential, refused);
  });

  test.each(WORDS)('%s: init --repo-url refuses it as a query parameter, with or without a scheme', (_name, credential) => {
    for (const url of [
      `https://git.example.com/org/fleet.git?access_token=${credential}`,
      `git.example.com/org/fleet.git?private_token=${credential}`,
    ]) {
      const dir = tmp();
      const run = cli(['init', dir, '--engine', 'argocd', '--repo-url', url]);
      expect(run.code).not.toBe(0);
      expectNowhere(credential, run, dir);
    }
  });
});

describe('assemble copies no credential a shard output was edited to hold', () => {
  const tmp = useTempDir();
  // the last guard over rendered files knows fixed shapes only (rendered YAML is full of digests); entropy-only shapes are refused at the inputs above
  const GUARDED = CREDENTIALS.filter(([, c]) => secretInOutput(c) !== undefined);

  test('the guard over rendered files knows all the corpus but entropy-only shapes and encoded forms, refused at the inputs', () => {
    expect(CREDENTIALS.filter((c) => !GUARDED.includes(c)).map(([n]) => n)).toEqual([
      'AWS secret access key, bare',
      'AWS secret access key, in a config',
      'OpenAI key (old)',
      'random token, 32 characters',
      'user:password@host without a scheme',
      // base64 and Basic/dockerconfigjson forms: rendered YAML is full of base64 (CA bundles, digests), so only the inputs decode
      ...ENCODED,
    ]);
  });

  test.each(GUARDED)('%s: edited into a shard file, assemble refuses it and writes nothing', (_name, credential) => {
    // GIVEN a shard rendered from a one-cluster fleet, then edited to hold the credential
    const root = tmp();
    const clusters = path.join(root, 'clusters');
    const shard = path.join(root, 'shard');
    const out = path.join(root, 'dist');
    writeFile(clusters, 'k.yaml', kubernetesSpec('AWS', 'k'));
    expect(cli(['synth', '--clusters', clusters, '--out', shard, '--quiet', '--no-cache', '--jobs', '1', '--shard', '1/1']).code).toBe(0);
    const file = Object.keys(readTree(shard)).find((f) => f.startsWith('k/') && f.endsWith('.yaml'))!;
    fs.appendFileSync(path.join(shard, file), `# note: ${credential.replace(/\n/g, '\n# ')}\n`);
    // WHEN assembled
    const run = cli(['assemble', '--clusters', clusters, '--out', out, shard]);
    // THEN refused, with the value nowhere and no output written
    expect(run.code).not.toBe(0);
    expectNowhere(credential, run, out);
    expect(fs.existsSync(out) ? Object.keys(readTree(out)) : []).toEqual([]);
  });
});

describe('public material renders where a user puts it', () => {
  const tmp = useTempDir();
  // a JSON document inside an INI value is no real config; certificates in JSON are in the detector's own tests
  const ONE_LINE_PUBLIC = PUBLIC.filter(([, p]) => oneLine(p) && !/["\\]/.test(p));

  function synthOk(clusters: string, out: string): void {
    const run = cli(['synth', '--clusters', clusters, '--out', out, '--quiet', '--no-cache', '--jobs', '1']);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
  }

  function objectsIn(out: string, cluster: string): any[] {
    return Object.entries(readTree(path.join(out, cluster)))
      .filter(([f]) => f.endsWith('.yaml'))
      .flatMap(([, text]) => parseAllDocuments(text).map((d) => d.toJS()));
  }

  test.each(PUBLIC)('%s: in a pod annotation, it renders as given', (_name, value) => {
    // GIVEN the value as a pod annotation of a kubernetes cluster
    const root = tmp();
    writeFile(path.join(root, 'clusters'), 'k.yaml', kubernetesSpec('AWS', 'k', { podAnnotations: { 'example.com/note': value } }));
    // WHEN rendered
    synthOk(path.join(root, 'clusters'), path.join(root, 'dist'));
    // THEN the CCM pod carries it unchanged
    const workload = objectsIn(path.join(root, 'dist'), 'k').find((o) => o?.kind === 'DaemonSet' || o?.kind === 'Deployment');
    expect(workload.spec.template.metadata.annotations['example.com/note']).toBe(value);
  });

  test.each(PUBLIC)('%s: in a ServiceAccount annotation, an env value and an extra cloud-conf key, it renders as given', (_name, value) => {
    // GIVEN the value in a ServiceAccount annotation and an env value of a kubernetes cluster, and in an extra key of an OpenShift one
    const root = tmp();
    const clusters = path.join(root, 'clusters');
    writeFile(
      clusters,
      'k.yaml',
      kubernetesSpec('AWS', 'k', { serviceAccount: { annotations: { 'example.com/note': value } }, extraEnv: [{ name: 'NOTE', value }] }),
    );
    writeFile(clusters, 'g.yaml', platformSpec('GCP', 'g', { cloudConfig: { file: 'g.cloud.conf', extraKeys: { 'note.txt': 'g.note.txt' } } }));
    writeFile(clusters, 'g.cloud.conf', '[global]\nproject-id = p\n');
    writeFile(clusters, 'g.note.txt', value);
    // WHEN rendered
    synthOk(clusters, path.join(root, 'dist'));
    // THEN each carries it unchanged
    const k = objectsIn(path.join(root, 'dist'), 'k');
    expect(k.find((o) => o?.kind === 'ServiceAccount').metadata.annotations['example.com/note']).toBe(value);
    const workload = k.find((o) => o?.kind === 'DaemonSet' || o?.kind === 'Deployment');
    expect(workload.spec.template.spec.containers[0].env).toContainEqual({ name: 'NOTE', value });
    const cloudConf = objectsIn(path.join(root, 'dist'), 'g').find((o) => o?.kind === 'ConfigMap' && o.metadata.name === 'cloud-conf');
    expect(cloudConf.data['note.txt']).toBe(value);
  });

  test.each(PUBLIC)('%s: in an exported extra key, import writes it as given; in a rendered tree, diff reads it', (_name, value) => {
    // GIVEN an export whose cloud-provider-config carries the value in an extra key
    const root = tmp();
    const from = path.join(root, 'export');
    const clusters = path.join(root, 'clusters');
    writeExport(from, { type: 'GCP', gcp: { projectID: 'p', region: 'us-east1' } }, { config: '[global]\nproject-id = p\n', 'note.txt': value });
    // WHEN imported (exit 1: an export names no images), THEN the extra key's file holds it unchanged
    const imported = cli(['import', '--from', from, '--out', clusters, '--name', 'g']);
    expect(imported.err).not.toContain('credential');
    expect(fs.readFileSync(path.join(clusters, 'g.note.txt'), 'utf8')).toBe(value);
    // WHEN two rendered trees differ by a ConfigMap holding it, THEN diff reports the change (exit 1) and refuses nothing
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { note: 'x' } };
    writeFile(root, 'a/c/cm.yaml', cm);
    writeFile(root, 'b/c/cm.yaml', { ...cm, data: { note: value } });
    const diff = cli(['diff', path.join(root, 'a'), path.join(root, 'b')]);
    expect(diff.err).toBe('');
    expect(diff.out).toContain('ConfigMap');
    expect(diff.code).toBe(1);
  });

  test.each(PUBLIC)('%s: in a JSON and a YAML pass-through cloud config, it is kept', (_name, value) => {
    // GIVEN the value in a Nutanix JSON config (OpenShift) and an Alibaba Cloud YAML config (kubernetes)
    const root = tmp();
    const clusters = path.join(root, 'clusters');
    writeFile(clusters, 'n.yaml', platformSpec('Nutanix', 'n', { cloudConfig: { file: 'n.json' } }));
    const json = `${JSON.stringify({ prismCentral: { address: 'pc.example.com', port: 9440 }, note: value }, null, 2)}\n`;
    writeFile(clusters, 'n.json', json);
    writeFile(clusters, 'a.yaml', kubernetesSpec('AlibabaCloud', 'a', {}, { cloudConfig: { file: 'a.conf' } }));
    const yaml = `Global:\n  region: cn-hangzhou\n  note: ${JSON.stringify(value)}\n`;
    writeFile(clusters, 'a.conf', yaml);
    // WHEN rendered
    synthOk(clusters, path.join(root, 'dist'));
    // THEN each config is written as given
    const nutanix = objectsIn(path.join(root, 'dist'), 'n').find((o) => o?.kind === 'ConfigMap' && o.metadata.name === 'cloud-conf');
    expect(nutanix.data['cloud.conf']).toBe(json);
    const alibaba = objectsIn(path.join(root, 'dist'), 'a').find((o) => o?.kind === 'ConfigMap' && Object.values(o.data ?? {}).includes(yaml));
    expect(alibaba).toBeDefined();
  });

  test.each(KEY_NAMED)('%s: refused under its key in an env var, an INI and a YAML cloud config, and shown nowhere', (_name, key, value) => {
    // GIVEN the pair as an env var, an INI line and a YAML field, one cluster each
    const root = tmp();
    const clusters = path.join(root, 'clusters');
    writeFile(clusters, 'env.yaml', kubernetesSpec('AWS', 'env', { extraEnv: [{ name: key, value }] }));
    writeFile(clusters, 'ini.yaml', platformSpec('GCP', 'ini', { cloudConfig: { file: 'ini.conf' } }));
    writeFile(clusters, 'ini.conf', `[global]\nproject-id = p\n${key} = ${value}\n`);
    writeFile(clusters, 'yml.yaml', kubernetesSpec('AlibabaCloud', 'yml', {}, { cloudConfig: { file: 'yml.conf' } }));
    writeFile(clusters, 'yml.conf', `Global:\n  region: cn-hangzhou\n  ${key}: ${JSON.stringify(value)}\n`);
    // WHEN validated
    const run = cli(['validate-spec', clusters]);
    // THEN each is refused by its key, and no piece of the value is shown
    expect(run.code).toBe(1);
    for (const where of ['env.yaml', 'ini.conf', 'yml.conf']) {
      expect(run.err).toContain(where);
    }
    expect(run.err).toContain(key);
    expectNowhere(value, run);
  });

  test.each(ONE_LINE_PUBLIC)('%s: in a pass-through cloud config and through cloud-config transform, it is kept', (_name, value) => {
    // GIVEN a GCP cloud config holding the value
    const root = tmp();
    const clusters = path.join(root, 'clusters');
    writeFile(clusters, 'g.yaml', platformSpec('GCP', 'g', { cloudConfig: { file: 'g.cloud.conf' } }));
    const conf = `[global]\nproject-id = p\nnode-tags = "${value}"\n`;
    writeFile(clusters, 'g.cloud.conf', conf);
    // WHEN rendered, and when transformed alone
    synthOk(clusters, path.join(root, 'dist'));
    const run = cli(['cloud-config', 'transform', '--platform', 'GCP'], conf);
    // THEN cloud-conf holds it, and the transform prints it back
    const cloudConf = objectsIn(path.join(root, 'dist'), 'g').find((o) => o?.kind === 'ConfigMap' && o.metadata.name === 'cloud-conf');
    expect(cloudConf.data['cloud.conf']).toBe(conf);
    expect(run).toEqual({ code: 0, out: conf, err: '' });
  });
});

describe("a real Azure Stack Hub export with its CA imports, and the CA reaches the CCM's trust store", () => {
  const tmp = useTempDir();
  const ca = PUBLIC.find(([name]) => name === 'ISRG Root X1')![1];

  test('GIVEN the export WHEN imported, validated and rendered THEN cloud-conf carries the CA and every CCM pod merges it into its trust store', () => {
    // GIVEN an Azure Stack Hub Infrastructure and its cloud-provider-config with endpoints and ca-bundle.pem (a public root)
    expect(new X509Certificate(ca).subject).toContain('CN=ISRG Root X1');
    const root = tmp();
    const from = path.join(root, 'export');
    const clusters = path.join(root, 'clusters');
    const out = path.join(root, 'dist');
    const endpoints = JSON.stringify({
      name: 'AzureStackCloud',
      resourceManagerEndpoint: 'https://management.local.azurestack.external/',
      activeDirectoryEndpoint: 'https://adfs.local.azurestack.external/adfs/',
      tokenAudience: 'https://management.adfs.azurestack.local/00000000-0000-0000-0000-000000000000',
    });
    const config = JSON.stringify({
      cloud: 'AzureStackCloud',
      tenantId: '00000000-0000-0000-0000-000000000001',
      subscriptionId: '00000000-0000-0000-0000-000000000002',
      resourceGroup: 'ash-1-rg',
      location: 'local',
      vmType: 'standard',
      useInstanceMetadata: false,
    });
    writeExport(
      from,
      { type: 'Azure', azure: { cloudName: 'AzureStackCloud', resourceGroupName: 'ash-1-rg', networkResourceGroupName: 'ash-1-rg' } },
      { config, endpoints, 'ca-bundle.pem': ca },
    );
    // WHEN imported (the export has no images ConfigMap: the spec is written, and import exits 1 until the images are pinned)
    const imported = cli(['import', '--from', from, '--out', clusters, '--name', 'ash-1']);
    expect(imported.err.split('\n').filter((l) => /error|^ {2}/.test(l))).toEqual([
      `error: ccm-gitops validate-spec would refuse the spec written (3 problems); fix ${path.join(clusters, 'ash-1.yaml')}, then run ccm-gitops validate-spec ${path.join(clusters, 'ash-1.yaml')}`,
      ...['cloudControllerManagerAzure', 'cloudControllerManagerOperator', 'cloudNodeManagerAzure'].map(
        (k) =>
          `  ${path.join(clusters, 'ash-1.yaml')}:10: spec.images.${k}: is required for platform Azure in gitops mode but missing; pin it by digest (repo@sha256:...) or by an explicit tag`,
      ),
    ]);
    expect(imported.code).toBe(1);
    // THEN the CA is written as it was exported
    expect(fs.readFileSync(path.join(clusters, 'ash-1.ca-bundle.pem'), 'utf8')).toBe(ca);
    // WHEN the imported spec gets its images pinned (import cannot know them) and is validated and rendered
    const specFile = path.join(clusters, 'ash-1.yaml');
    const pinned = fs.readFileSync(specFile, 'utf8').replace(/^(\s*images:)\s*\{\}\s*$/m, '$1');
    const images = platformSpec('Azure').spec.images as Record<string, string>;
    fs.writeFileSync(
      specFile,
      /^\s*images:\s*$/m.test(pinned)
        ? pinned.replace(
            /^(\s*)images:\s*$/m,
            (_all, indent: string) =>
              `${indent}images:\n${Object.entries(images)
                .map(([k, v]) => `${indent}  ${k}: ${v}`)
                .join('\n')}`,
          )
        : `${pinned}`,
    );
    const validated = cli(['validate-spec', clusters]);
    expect(validated.err).toBe('');
    expect(validated.code).toBe(0);
    const synth = cli(['synth', '--clusters', clusters, '--out', out, '--quiet', '--no-cache', '--jobs', '1']);
    expect(synth.err).toBe('');
    expect(synth.code).toBe(0);
    // THEN cloud-conf holds the CA under ca-bundle.pem, and each CCM pod mounts it into the init container that builds the trust store
    const objects = Object.entries(readTree(path.join(out, 'ash-1')))
      .filter(([f]) => f.endsWith('.yaml'))
      .flatMap(([, t]) => parseAllDocuments(t).map((d) => d.toJS()));
    const cloudConf = objects.find((o) => o?.kind === 'ConfigMap' && o.metadata.name === 'cloud-conf');
    expect(cloudConf.data['ca-bundle.pem']).toBe(ca);
    const workloads = objects.filter((o) => o?.kind === 'Deployment' || o?.kind === 'DaemonSet');
    expect(workloads.length).toBeGreaterThan(0);
    for (const w of workloads) {
      const pod = w.spec.template.spec;
      expect(pod.volumes).toContainEqual({
        name: 'cloud-config-ca',
        configMap: { name: 'cloud-conf', items: [{ key: 'ca-bundle.pem', path: 'ca-bundle.pem' }] },
      });
      expect(pod.initContainers.find((c: any) => c.name === 'wait-for-trust-bundle').volumeMounts).toContainEqual({
        name: 'cloud-config-ca',
        mountPath: '/var/run/ccm-trust/cloud-config',
        readOnly: true,
      });
    }
  });
});

describe('a value of almost 1 MiB in any free-text field is checked in bounded time', () => {
  const tmp = useTempDir();
  // patterns that made the old expressions backtrack: scheme characters, base64 runs, "a:" pairs, "@", PEM openers
  const PATTERNS: [string, (n: number) => string][] = [
    ['scheme characters', (n) => 'a'.repeat(n)],
    ['base64 characters with slashes', (n) => 'Ab0/'.repeat(n / 4)],
    ['user:password pairs', (n) => 'a:'.repeat(n / 2)],
    ['at signs', (n) => 'a@'.repeat(n / 2)],
    ['PEM openers', (n) => '-----BEGIN '.repeat(n / 11)],
  ];
  const SIZE = 1000 * 1000;

  test.each(PATTERNS)('%s: every free-text field of a spec and a cloud config, validated at once', (_name, make) => {
    // GIVEN one cluster per free-text field, each holding a value of almost the input-file limit
    const value = make(SIZE);
    const clusters = tmp();
    const k8s = (name: string, kubernetes: Record<string, unknown>) => kubernetesSpec('AWS', name, kubernetes);
    writeFile(clusters, 'annotation.yaml', k8s('annotation', { podAnnotations: { 'example.com/note': value } }));
    writeFile(clusters, 'env.yaml', k8s('env', { extraEnv: [{ name: 'NOTE', value }] }));
    writeFile(clusters, 'flag.yaml', k8s('flag', { extraArgs: { 'kube-api-burst': value } }));
    writeFile(clusters, 'conf.yaml', platformSpec('GCP', 'conf', { cloudConfig: { file: 'conf.cloud.conf' } }));
    writeFile(clusters, 'conf.cloud.conf', `[global]\nproject-id = p\nnode-tags = ${value}\n; ${value.slice(0, SIZE / 2)}\n`);
    // WHEN validate-spec reads them all
    const run = cli(['validate-spec', clusters]);
    // THEN it answers, within the test's timeout, without echoing the value
    expect(run.code).not.toBe(2);
    expect(run.err.length).toBeLessThan(20_000);
  });
});
