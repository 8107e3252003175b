import * as fs from 'fs';
import * as path from 'path';
import { runCli } from '../src/cli';
import { stringify } from 'yaml';
import { awsSpec, captureIo, useTempDir, writeFile } from './helpers';

// YAML alias expansion and nesting are bounded in the readers of import and diff: a clear error, exit 1 or 2, never exit 3.

const REPO = path.resolve(__dirname, '..');
const EXPORT = path.join(REPO, 'examples', 'import', 'vsphere-live');
const dir = useTempDir();

/** Nine aliases of nine aliases of ... : 9^4 nodes from a few lines. */
const ALIAS_BOMB = [
  'apiVersion: v1',
  'kind: ConfigMap',
  'metadata: {name: bomb}',
  'a: &a [x, x, x, x, x, x, x, x, x]',
  'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]',
  'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]',
  'data: [*c, *c, *c, *c, *c, *c, *c, *c, *c]',
  '',
].join('\n');

/** A ConfigMap whose data nests 150 flow lists deep. */
const DEEP = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: deep}\ndata: ${'['.repeat(150)}${']'.repeat(150)}\n`;

function run(...args: string[]): { code: number; stderr: string } {
  const c = captureIo();
  const code = runCli(args, c.io, {});
  return { code, stderr: c.stderr() };
}

describe('import', () => {
  test.each([
    ['an alias bomb', ALIAS_BOMB, 'its aliases expand past 100 nodes; write the values out instead of aliases'],
    ['nesting 150 levels deep', DEEP, 'it nests more than 100 levels deep; no exported object does'],
  ])('of an export file with %s is refused naming the file, exit 1', (_what, content, why) => {
    // GIVEN the example export and a hostile file beside it
    const from = path.join(dir(), 'export');
    fs.cpSync(EXPORT, from, { recursive: true });
    const file = writeFile(from, 'zz-hostile.yaml', content);
    // WHEN it is imported
    const out = path.join(dir(), 'clusters');
    const r = run('import', '--from', from, '--out', out);
    // THEN it is refused naming the file and the bound, and nothing is written
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`error: ${file}: ${why}; nothing was written\n`);
    expect(fs.existsSync(out)).toBe(false);
  });
});

describe('diff', () => {
  test.each([
    ['an alias bomb', ALIAS_BOMB, 'its aliases expand past 100 nodes; write the values out instead of aliases'],
    ['nesting 150 levels deep', DEEP, 'it nests more than 100 levels deep; no rendered object does'],
  ])('of a tree with %s is refused naming the file, exit 2', (_what, content, why) => {
    // GIVEN two trees, one with a hostile file
    writeFile(dir(), 'a/c/cm.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bomb}\n');
    writeFile(dir(), 'b/c/cm.yaml', content);
    // WHEN they are compared
    const r = run('diff', path.join(dir(), 'a'), path.join(dir(), 'b'));
    // THEN it is refused naming the file in the tree
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: c/cm.yaml: ${why}\n`);
  });
});

describe('a __proto__ key in a spec file', () => {
  test.each([
    ['at the top', (t: string) => `__proto__:\n  kind: Other\n${t}`],
    ['under spec', (t: string) => t.replace('spec:\n', 'spec:\n  __proto__:\n    distribution: kubernetes\n')],
    ['in a free-form map', (t: string) => t.replace('metadata:\n', 'metadata:\n  annotations:\n    __proto__: x\n')],
  ])('%s is refused naming the file and line, exit 1', (_where, edit) => {
    // GIVEN a valid spec with a __proto__ key added (JavaScript reads it as the object's prototype, or drops it)
    const text = edit(stringify(awsSpec('aws-a')));
    const file = writeFile(path.join(dir(), 'clusters'), 'a.yaml', text);
    const line = text.slice(0, text.indexOf('__proto__')).split('\n').length;
    // WHEN it is validated
    const r = run('validate-spec', path.join(dir(), 'clusters'));
    // THEN it is refused, naming the file and line of the key
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: 1 problem found\n  ${file}:${line}: has the key __proto__, which JavaScript reads as an object's prototype; remove it\n`,
    );
  });
});

/** 20,000 nested block sequences on one line. */
const DEEP_SEQUENCES = '- '.repeat(20000);
/** A ConfigMap with a __proto__ key in its data. */
const PROTO = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: proto}\ndata:\n  __proto__: x\n';

/** A ConfigMap whose `password` hides behind `!!binary`, and one whose `token` carries a tag of the user's own. */
const BINARY = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\ndata:\n  password: !!binary ${Buffer.from('hunter2-hunter2').toString('base64')}\n`;
const CUSTOM_TAG = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: t}\ndata:\n  token: !vault hunter2-hunter2\n';
const BINARY_WHY = (what: string) =>
  `"data.password" (line 5) has the tag !!binary, whose bytes no check reads; ${what} holds text: remove the tag, and keep credentials in a Secret`;
const CUSTOM_WHY =
  '"data.token" (line 5) has a custom tag on a key that names a credential; remove the value: credentials never go into git, keep them in a Secret';

describe('import: more hostile export files', () => {
  test.each([
    ['20,000 nested sequences', DEEP_SEQUENCES, 'it nests more than 100 levels deep; no exported object does'],
    ['a __proto__ key', PROTO, "has the key __proto__, which JavaScript reads as an object's prototype; remove it"],
    ['!!binary on a password', BINARY, BINARY_WHY('an exported object')],
    ['a custom tag on a token', CUSTOM_TAG, CUSTOM_WHY],
  ])('%s is refused naming the file, exit 1, nothing written', (_what, content, why) => {
    // GIVEN the example export and a hostile file beside it
    const from = path.join(dir(), 'export');
    fs.cpSync(EXPORT, from, { recursive: true });
    const file = writeFile(from, 'zz-hostile.yaml', content);
    // WHEN it is imported
    const out = path.join(dir(), 'clusters');
    const r = run('import', '--from', from, '--out', out);
    // THEN it is refused naming the file, and nothing is written
    expect(r.stderr).toBe(`error: ${file}: ${why}; nothing was written\n`);
    expect(r.code).toBe(1);
    expect(fs.existsSync(out)).toBe(false);
  });
});

describe('diff: more hostile trees', () => {
  test.each([
    ['20,000 nested sequences', DEEP_SEQUENCES, 'it nests more than 100 levels deep; no rendered object does'],
    ['a __proto__ key', PROTO, "has the key __proto__, which JavaScript reads as an object's prototype; remove it"],
    ['!!binary on a password', BINARY, BINARY_WHY('a rendered object')],
    ['a custom tag on a token', CUSTOM_TAG, CUSTOM_WHY],
  ])('%s is refused naming the file, exit 2', (_what, content, why) => {
    // GIVEN two trees, one with a hostile file
    writeFile(dir(), 'a/c/cm.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: proto}\n');
    writeFile(dir(), 'b/c/cm.yaml', content);
    // WHEN they are compared
    const r = run('diff', path.join(dir(), 'a'), path.join(dir(), 'b'));
    // THEN it is refused naming the file in the tree
    expect(r.stderr).toBe(`error: c/cm.yaml: ${why}\n`);
    expect(r.code).toBe(2);
  });
});

describe('cloud configs (cloud-config transform, and a spec cloudConfig.file)', () => {
  const deepMapping = (levels: number) =>
    `global:\n${Array.from({ length: levels }, (_, i) => `${'  '.repeat(i + 1)}k${i}:\n`).join('')}${'  '.repeat(levels + 1)}v: 1\n`;
  test.each([
    [
      'Azure',
      'a __proto__ key',
      '{"cloud": "AzurePublicCloud", "__proto__": {"x": 1}}',
      'failed to read the cloud.conf: "__proto__" is a key JavaScript reads as an object\'s prototype; remove it',
    ],
    [
      'Nutanix',
      'a __proto__ key',
      '{"prismCentral": {"__proto__": {"x": 1}}}',
      'failed to read the cloud.conf: "prismCentral.__proto__" is a key JavaScript reads as an object\'s prototype; remove it',
    ],
    [
      'AlibabaCloud',
      'a __proto__ key',
      'global:\n  __proto__:\n    region: x\n',
      'failed to read the cloud.conf: "global.__proto__" is a key JavaScript reads as an object\'s prototype; remove it',
    ],
    [
      'VSphere',
      'a __proto__ key',
      'global:\n  __proto__:\n    insecureFlag: true\n',
      'failed to read the cloud.conf: "global.__proto__" is a key JavaScript reads as an object\'s prototype; remove it',
    ],
    [
      'AlibabaCloud',
      '80 nested mappings',
      deepMapping(80),
      'failed to read the cloud.conf: it nests more than 64 levels deep, over the limit of 64; a cloud config is a few levels deep',
    ],
    [
      'VSphere',
      '80 nested mappings',
      deepMapping(80),
      'failed to read the cloud.conf: it nests more than 64 levels deep, over the limit of 64; a cloud config is a few levels deep',
    ],
    [
      'AlibabaCloud',
      '20,000 nested sequences',
      `global:\n  a:\n    ${DEEP_SEQUENCES}x\n`,
      'failed to read the cloud.conf: it nests more than 64 levels deep, over the limit of 64; a cloud config is a few levels deep',
    ],
    [
      'VSphere',
      '20,000 nested sequences',
      `global:\n  a:\n    ${DEEP_SEQUENCES}x\n`,
      'failed to read the cloud.conf: it nests more than 64 levels deep, over the limit of 64; a cloud config is a few levels deep',
    ],
  ])('%s: %s is refused with one error, exit 2', (platform, _what, config, why) => {
    // GIVEN a hostile cloud config on standard input
    const c = captureIo();
    // WHEN it is transformed
    const code = runCli(['cloud-config', 'transform', '--platform', platform], { ...c.io, in: () => config }, {});
    // THEN one error, exit 2, nothing on standard output
    expect(c.stderr()).toBe(`error: ${why}\n`);
    expect(code).toBe(2);
    expect(c.stdout()).toBe('');
  });
});
