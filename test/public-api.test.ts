import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as ts from 'typescript';
import * as api from '../src/index';

const REPO = path.resolve(__dirname, '..');
const read = (f: string): string => fs.readFileSync(path.join(REPO, f), 'utf8');

/** The names docs/api.md's "Supported API" documents: the values (first column of its tables) and the types ("Types:" lines). */
function documentedApi(): { values: string[]; types: string[] } {
  const doc = read('docs/api.md');
  const supported = doc.slice(doc.indexOf('## Supported API'));
  const values = [...supported.matchAll(/^\| (.*?) \| /gm)]
    .flatMap((m) => [...m[1].matchAll(/`([A-Za-z_]+)/g)].map((n) => n[1]))
    .filter((n) => n !== 'name');
  const types = [...supported.matchAll(/^Types: (.*)$/gm)].flatMap((m) => [...m[1].matchAll(/`([A-Za-z_]+)`/g)].map((n) => n[1]));
  return { values: [...new Set(values)].sort(), types: [...new Set(types)].sort() };
}

/** What src/index.ts exports, read by TypeScript's parser: every name, and which are type-only. */
function indexExports(): { values: string[]; types: string[]; starExports: string[] } {
  const source = ts.createSourceFile('index.ts', read('src/index.ts'), ts.ScriptTarget.Latest, true);
  const values: string[] = [];
  const types: string[] = [];
  const starExports: string[] = [];
  for (const st of source.statements) {
    if (!ts.isExportDeclaration(st)) {
      continue;
    }
    if (!st.exportClause || !ts.isNamedExports(st.exportClause)) {
      starExports.push(st.getText(source));
      continue;
    }
    for (const e of st.exportClause.elements) {
      (st.isTypeOnly || e.isTypeOnly ? types : values).push(e.name.text);
    }
  }
  return { values: values.sort(), types: types.sort(), starExports };
}

describe('the package root exports the documented API, and nothing else', () => {
  test('GIVEN docs/api.md WHEN its supported names are read THEN there are names of each kind (the parse found the tables)', () => {
    const { values, types } = documentedApi();
    expect(values.length).toBeGreaterThan(40);
    expect(types.length).toBeGreaterThan(15);
  });

  test('GIVEN src/index.ts WHEN TypeScript parses it THEN it names each export (no `export *`): its values and types are the documented ones', () => {
    const documented = documentedApi();
    const exported = indexExports();
    expect(exported.starExports).toEqual([]);
    expect(exported.values).toEqual(documented.values);
    expect(exported.types).toEqual(documented.types);
  });

  test('GIVEN the package root loaded WHEN its runtime exports are listed THEN they are the documented values', () => {
    expect(Object.keys(api).sort()).toEqual(documentedApi().values);
  });
});

describe('synthesize: what `ccm-gitops synth` writes, in memory', () => {
  /** The committed dist/ (written by `npm run synth` from clusters/): path -> content. */
  const committedDist = (): Map<string, string> => {
    const out = new Map<string, string>();
    const walk = (rel: string): void => {
      for (const e of fs.readdirSync(path.join(REPO, 'dist', rel), { withFileTypes: true })) {
        const r = rel === '' ? e.name : `${rel}/${e.name}`;
        if (e.isDirectory()) {
          walk(r);
        } else {
          out.set(r, fs.readFileSync(path.join(REPO, 'dist', r), 'utf8'));
        }
      }
    };
    walk('');
    return out;
  };
  const asMap = (files: readonly { path: string; content: string }[]): Map<string, string> =>
    new Map([...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)).map((f) => [f.path, f.content]));

  test('GIVEN the example fleet clusters/ and an output folder that does not exist WHEN synthesize runs THEN its files are the committed dist/, every cluster is rendered and nothing is written', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'synthesize-'));
    const out = path.join(tmp, 'dist');
    const dist = committedDist();

    const result = api.synthesize({ clusters: path.join(REPO, 'clusters'), out });

    expect(result.files.map((f) => f.path).sort()).toEqual([...dist.keys()].sort());
    expect(asMap(result.files)).toEqual(dist);
    const summarized: string[] = JSON.parse(dist.get('.fleet.json')!).clusters.map((c: { name: string }) => c.name);
    expect(result.clusters).toBe(summarized.length);
    expect([...result.rendered].sort()).toEqual([...summarized].sort());
    expect(result.warnings.length).toBeGreaterThan(0);
    for (const w of result.warnings) {
      expect([w.file.startsWith(path.join(REPO, 'clusters') + path.sep), summarized.some((c) => w.message.startsWith(`cluster ${c}: `))]).toEqual([
        true,
        true,
      ]);
    }
    expect(fs.existsSync(out)).toBe(false);
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('GIVEN dist/ copied as the output WHEN synthesize runs with only one cluster THEN only that cluster is rendered, the files are still the committed dist/ and the copy is unchanged', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'synthesize-only-'));
    const out = path.join(tmp, 'dist');
    fs.cpSync(path.join(REPO, 'dist'), out, { recursive: true });
    const dist = committedDist();

    const result = api.synthesize({ clusters: path.join(REPO, 'clusters'), out, only: ['aws-prod-1'] });

    expect(result.rendered).toEqual(['aws-prod-1']);
    expect(asMap(result.files)).toEqual(dist);
    expect(fs.readFileSync(path.join(out, 'aws-prod-1', 'kustomization.yaml'), 'utf8')).toBe(dist.get('aws-prod-1/kustomization.yaml'));
    fs.rmSync(tmp, { recursive: true, force: true });
  });
});
