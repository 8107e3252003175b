import * as path from 'path';
import { App } from 'cdk8s';
import * as fc from 'fast-check';
import { parseAllDocuments, stringify } from 'yaml';
import { ClusterChart } from '../src/pipeline/cluster-chart';
import { bundleYaml, kustomization, RenderedObject, toYaml } from '../src/gitops/layout';
import { canEmitFast, emitterStats, emitYaml, EMITTER_YAML_OPTIONS } from '../src/gitops/yaml-emitter';
import { renderFleet } from '../src/pipeline/render';
import { loadFleet } from '../src/fleet/load';

/** What the `yaml` package writes (its 1.1 schema, plus the 1.2 core tests): the reference the emitter must match byte for byte. */
const reference = (value: unknown): string => stringify(value, EMITTER_YAML_OPTIONS);

/** GIVEN value WHEN emitted THEN the same bytes as the `yaml` package (message shows both). */
function expectIdentical(value: unknown): void {
  const ours = emitYaml(value);
  const theirs = reference(value);
  if (ours !== theirs) {
    throw new Error(`emitYaml differs from yaml stringify for ${JSON.stringify(value)}:\n--- emitYaml\n${ours}--- yaml\n${theirs}`);
  }
}

/** Strings that hit each rule of yaml's stringifyString (YAML 1.1 tags, indicators, quoting, block scalars). */
const TRICKY_STRINGS: readonly string[] = [
  // empty and whitespace
  '',
  ' ',
  '  ',
  '\t',
  '\n',
  '\n\n',
  ' \n',
  '\n ',
  '\t\n',
  'a ',
  ' a',
  '\ta',
  'a\t',
  'a  b',
  'a\tb',
  // YAML 1.1 null / bool
  '~',
  'null',
  'Null',
  'NULL',
  'nULL',
  'y',
  'Y',
  'n',
  'N',
  'yes',
  'Yes',
  'YES',
  'yEs',
  'no',
  'No',
  'NO',
  'on',
  'On',
  'ON',
  'off',
  'Off',
  'OFF',
  'true',
  'True',
  'TRUE',
  'tRUE',
  'false',
  'False',
  'FALSE',
  'yes please',
  'o',
  'f',
  't',
  // YAML 1.1 numbers
  '0',
  '00',
  '007',
  '0o7',
  '0o17',
  '08',
  '0b101',
  '0b2',
  '0x1F',
  '0xg',
  '-0x1f',
  '+1',
  '-1',
  '1_000',
  '1__0',
  '_1',
  '1_',
  '1.5',
  '.5',
  '5.',
  '.',
  '-.',
  '1e5',
  'e5',
  'E5',
  '1E+5',
  '1.5e-3',
  '.e1',
  '1e',
  '+.inf',
  '-.Inf',
  '.INF',
  '.inf',
  '.nan',
  '.NaN',
  '.NAN',
  '.Nan',
  'inf',
  'nan',
  'NaN',
  'Infinity',
  '1:20',
  '1:20:30',
  '190:20:30.15',
  '1:60',
  '1:5:',
  ':1',
  '1:2a',
  '1,000',
  '1.2.3',
  '0.1.0',
  '1e21',
  '-0',
  // timestamps
  '2001-12-14',
  '2001-12-14t21:59:43.10-05:00',
  '2001-12-14 21:59:43.10 -5',
  '2001-1-1',
  '2001-12-14T21:59:43Z',
  '20011214',
  // merge key
  '<<',
  '<<<',
  '< <',
  '=',
  // indicators
  '-',
  '?',
  ':',
  '- a',
  '? a',
  ': a',
  '-a',
  '?a',
  ':a',
  'a:',
  'a::',
  'a: b',
  'a:b',
  'a :b',
  '#',
  '#a',
  'a#b',
  'a #b',
  'a\t#b',
  '&a',
  '*a',
  '!a',
  '!!str',
  '{',
  '}',
  '[',
  ']',
  '{}',
  '[]',
  ',',
  ',a',
  'a,b',
  '|',
  '|-',
  '>',
  '>-',
  "'",
  '"',
  "'a'",
  '"a"',
  '%',
  '%YAML 1.1',
  '@a',
  '`a',
  'a@b',
  'a`b',
  'a|b',
  'a>b',
  'a!b',
  'a&b',
  'a*b',
  'a%b',
  'a{b}',
  'a[b]',
  "it's",
  'say "hi"',
  `both ' and "`,
  `"'`,
  "''",
  '""',
  // document markers
  '---',
  '--- a',
  '---a',
  '...',
  '...a',
  'a\n---',
  'a\n...\nb',
  '%a\nb',
  'a\n%b',
  '----',
  '.. .',
  // multi-line
  'a\nb',
  'a\nb\n',
  'a\nb\n\n',
  'a\nb\n\n\n',
  '\na',
  '\n\na',
  ' a\nb',
  '  a\n b\n',
  'a\n b',
  'a \nb',
  'a\n\tb',
  'a\t\nb',
  'a\n\nb',
  'a\n\n\nb\n',
  'a\n ',
  'a\n\t',
  'a\n \n',
  '\n a',
  'a\n# b',
  'a\n- b',
  'a\r\nb',
  'a\rb',
  '[Global]\nZone = x\n',
  'line one is long enough to pass forty characters\nline two',
  'x'.repeat(45) + '\n\n y "q"',
  'cert:\n-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
  // control characters, unicode
  '\u0000',
  'a\u0001b',
  '\u0007',
  '\b',
  '\f',
  '\u000b',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u00a0',
  'a\u00a0b',
  '\u2028',
  '\u2029',
  '\ud800',
  'a\udc00b',
  '😀',
  'ünïcödé',
  '日本語',
  '\ufeffbom',
  'a\\b',
  '\\n',
  'a\\',
  'tab\there',
  '"\n"',
  "'\n'",
  // long
  'x'.repeat(1100),
  `${'word '.repeat(100)}end`,
  `${'y'.repeat(2000)} #`,
  // typical Kubernetes
  'v1',
  'apps/v1',
  'registry.k8s.io/provider-aws/cloud-controller-manager:v1.30.0',
  '--cloud-provider=aws',
  '--v=2',
  'quay.io/openshift/aws-ccm@sha256:aaaa',
  'node-role.kubernetes.io/control-plane',
  '10257',
  'IfNotPresent',
  '*',
  '*.yaml',
  'argocd.argoproj.io/sync-wave',
  '"-1"',
  '-1',
  'system:cloud-controller-manager',
  'https://example.com/a?b=c#d',
  '0.0.0.0:10258',
];

const TRICKY_KEYS: readonly string[] = [
  ...TRICKY_STRINGS.filter((s) => s.length < 100),
  'k'.repeat(1020),
  'k'.repeat(1030),
  '"'.repeat(600),
  '\u0001'.repeat(300),
];

describe('emitYaml writes exactly what the yaml package writes', () => {
  test('GIVEN each tricky string as a top-level value, a nested value, a list item, a nested list item and a key WHEN emitted THEN identical', () => {
    for (const s of TRICKY_STRINGS) {
      expectIdentical({ s });
      expectIdentical({ a: { b: { s } } });
      expectIdentical([s]);
      expectIdentical({ l: [s, [s], { s }] });
      expectIdentical([[{ x: [s] }]]);
    }
    for (const k of TRICKY_KEYS) {
      expectIdentical({ [k]: 1 });
      expectIdentical({ a: { [k]: 'v' } });
      expectIdentical([{ [k]: [k] }]);
    }
  });

  test.each<[string, unknown]>([
    ['empty map', {}],
    ['empty list', []],
    ['empty collections as values and items', { a: {}, b: [], c: [{}, [], [[]], [{}]], d: { e: {} } }],
    ['null and undefined in maps and lists', { a: null, b: undefined, c: [null, undefined], d: { e: undefined } }],
    ['sparse list', [1, , 3]], // eslint-disable-line no-sparse-arrays
    ['numbers', { a: 0, b: -0, c: 1.5, d: -1.5e-7, e: 1e21, f: 1e-7, g: NaN, h: Infinity, i: -Infinity, j: 2 ** 53, k: 0.1 + 0.2, l: 100, m: -3 }],
    ['booleans', { t: true, f: false, l: [true, false] }],
    ['nested lists', [[1, [2, [3, []]]], [[{ a: [[]] }]]]],
    ['maps in lists in maps', { a: [{ b: 1, c: [{ d: 2, e: { f: [3] } }] }] }],
    ['integer-like keys (JS key order)', { b: 1, 2: 'two', a: 3, 1: 'one' }],
    ['multi-line values at several depths', { a: 'x\ny\n', b: { c: ['p\nq', { d: '  lead\nx\n\n' }] } }],
    ['top-level list of scalars', ['a', 1, null, true, 'yes']],
    [
      'a Kubernetes ConfigMap',
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'cloud-conf', namespace: 'openshift-cloud-controller-manager', annotations: { 'argocd.argoproj.io/sync-wave': '-1' } },
        data: { 'cloud.conf': '[Global]\nZone = a\n', empty: '' },
      },
    ],
  ])('GIVEN %s WHEN emitted THEN identical', (_name, value) => {
    expectIdentical(value);
  });

  test('GIVEN values the fast path does not write (class instances, Map, Date, bigint, top-level scalars, `<<`, keys over 1024 characters) WHEN emitted THEN it falls back to the yaml package, still identical', () => {
    class Thing {
      readonly a = 1;
    }
    class Reversed extends Array<unknown> {
      *[Symbol.iterator](): ArrayIterator<unknown> {
        yield* [...this.values()].reverse();
      }
    }
    const unsupported: unknown[] = [
      new Thing(),
      { a: Reversed.from(['x', 'y']) },
      { a: new Map([['k', 1]]) },
      { a: new Set([1]) },
      { a: new Date(0) },
      { a: 1n },
      'top',
      1,
      null,
      true,
      { '<<': 1 },
      { a: '<<' },
      ['<<'],
      { ['k'.repeat(1030)]: 1 },
      { ['\u0001'.repeat(300)]: 1 },
    ];
    for (const value of unsupported) {
      expect([value, canEmitFast(value)]).toEqual([value, false]);
      expectIdentical(value);
    }
  });

  test('GIVEN random JSON data with adversarial strings and keys WHEN emitted THEN identical (property)', () => {
    const str = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...TRICKY_STRINGS) },
      { weight: 2, arbitrary: fc.string() },
      { weight: 2, arbitrary: fc.string({ unit: 'binary' }) },
      {
        weight: 2,
        arbitrary: fc.string({
          unit: fc.constantFrom('a', ' ', '\n', '\t', ':', '#', '-', '"', "'", '0', '.', 'e', '_', '|', '%', '\u0085', '\u2028'),
        }),
      },
      { weight: 1, arbitrary: fc.array(fc.constantFrom(...TRICKY_STRINGS), { maxLength: 4 }).map((parts) => parts.join('')) },
      {
        weight: 1,
        arbitrary: fc.tuple(fc.constantFrom(...TRICKY_STRINGS), fc.constantFrom('', ' ', '\n', '\n\n', 'x', '\t')).map(([a, b]) => a + b),
      },
    );
    const scalar = fc.oneof(
      str,
      str,
      fc.double(),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
      fc.constantFrom(0, -0, 1e21, NaN, Infinity, -Infinity),
    );
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('list'), tie('map')),
      list: fc.array(tie('value'), { maxLength: 4 }),
      map: fc.dictionary(str, tie('value'), { maxKeys: 4 }),
    }));
    const doc = fc.oneof(fc.dictionary(str, value, { maxKeys: 6 }), fc.array(value, { maxLength: 6 }));
    fc.assert(
      fc.property(doc, (d) => {
        expectIdentical(d);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('the example fleet', () => {
  const clusters = path.join(__dirname, '..', 'clusters');
  const fleet = loadFleet(clusters);

  test('GIVEN every object each example cluster renders WHEN emitted THEN identical to the yaml package AND written by the fast path', () => {
    let count = 0;
    for (const cluster of fleet.clusters) {
      const objects = new ClusterChart(new App({ outdir: 'unused' }), 'c', { cluster }).toJson() as RenderedObject[];
      for (const obj of objects) {
        expectIdentical(obj);
        expect(canEmitFast(obj)).toBe(true);
        count++;
      }
    }
    expect(count).toBeGreaterThan(100);
  });

  test('GIVEN every YAML document of the rendered example fleet (objects, kustomizations, GitOps engine objects) WHEN read back and emitted THEN identical AND written by the fast path', () => {
    let count = 0;
    for (const file of renderFleet(fleet).filter((f) => f.path.endsWith('.yaml'))) {
      for (const doc of parseAllDocuments(file.content, { version: '1.1' })) {
        const value = doc.toJS();
        expectIdentical(value);
        expect(canEmitFast(value)).toBe(true);
        count++;
      }
    }
    expect(count).toBeGreaterThan(100);
  });
});

describe('layout uses the emitter', () => {
  const obj = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'n', namespace: 'ns', annotations: { 'argocd.argoproj.io/sync-wave': '1' } },
    data: { on: 'yes', conf: 'a\nb\n' },
  } as RenderedObject;

  test('GIVEN an object WHEN toYaml THEN the yaml package bytes, through the fast path', () => {
    const before = emitterStats.fast;
    expect(toYaml(obj)).toBe(stringify(obj, EMITTER_YAML_OPTIONS));
    expect(emitterStats.fast).toBe(before + 1);
  });

  test('GIVEN resources WHEN kustomization THEN what cdk8s Yaml.stringify wrote (yaml stringify, one document, aliases on), through the fast path', () => {
    const resources = ['a.yaml', 'yes', '1.0', 'b c.yaml'];
    const before = emitterStats.fast;
    expect(kustomization(resources)).toBe(
      stringify(
        { apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', resources },
        { keepUndefined: true, lineWidth: 0, version: '1.1' },
      ),
    );
    expect(emitterStats.fast).toBe(before + 1);
  });

  test('GIVEN two objects WHEN bundleYaml THEN the yaml package documents joined by ---', () => {
    const other = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns' } } as RenderedObject;
    const { annotations: _a, ...metadata } = obj.metadata as { annotations?: unknown; name: string };
    expect(bundleYaml([obj, other])).toBe(
      [stringify(other, EMITTER_YAML_OPTIONS), stringify({ ...obj, metadata }, EMITTER_YAML_OPTIONS)].join('---\n'),
    );
  });
});
