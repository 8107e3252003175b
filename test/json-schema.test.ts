import * as fs from 'fs';
import * as path from 'path';
import Ajv2020 from 'ajv/dist/2020';
import { parseAllDocuments } from 'yaml';
import {
  clusterDefaultsJsonSchema,
  clusterSpecJsonSchema,
  DEFAULTS_JSON_SCHEMA_PATH,
  DEFAULTS_SCHEMA_KIND,
  JSON_SCHEMA_PATH,
} from '../src/cluster-spec/json-schema';
import { DEFAULTS_KIND } from '../src/fleet/load';
import { scaffold } from '../src/init/scaffold';
import { PLATFORM_TYPES } from '../src/cluster-spec/schema';
import { IMAGE_KEYS } from '../src/cluster-spec/images';
import { listSpecFiles } from '../src/fleet/load';

const REPO = path.resolve(__dirname, '..');

describe('published JSON Schema', () => {
  const schema = clusterSpecJsonSchema() as any;

  test('the committed file is generated from the spec types (regenerate with npm run schema)', () => {
    const committed = fs.readFileSync(path.join(REPO, JSON_SCHEMA_PATH), 'utf8');
    expect(committed).toBe(`${JSON.stringify(schema, null, 2)}\n`);
    expect(fs.readFileSync(path.join(REPO, DEFAULTS_JSON_SCHEMA_PATH), 'utf8')).toBe(`${JSON.stringify(clusterDefaultsJsonSchema(), null, 2)}\n`);
  });

  test('it is strict and carries the fields users need; under spec nothing is required (defaults may provide it)', () => {
    const spec = schema.properties.spec;
    expect(schema.additionalProperties).toBe(false);
    expect(spec.additionalProperties).toBe(false);
    expect(schema.required).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
    expect(schema.properties.metadata.required).toEqual(['name']);
    expect(spec.required).toBeUndefined();
    expect(Object.keys(spec.properties.images.properties)).toEqual([...IMAGE_KEYS]);
    expect(spec.properties.controlPlaneTopology.default).toBe('HighlyAvailable');
    expect(spec.properties.gitops.properties.engine.enum).toEqual(['argocd', 'flux', 'plain']);
  });

  test('every example spec points editors at the schema', () => {
    const specs = [
      ...listSpecFiles(path.join(REPO, 'clusters')),
      ...listSpecFiles(path.join(REPO, 'examples', 'clusters')),
      path.join(REPO, 'clusters', 'defaults.yaml'),
      path.join(REPO, 'clusters', 'us-east-1', 'defaults.yaml'),
    ];
    expect(specs.length).toBeGreaterThanOrEqual(5);
    for (const file of specs) {
      const first = fs.readFileSync(file, 'utf8').split('\n')[0];
      const schemaFile = path.basename(file) === 'defaults.yaml' ? DEFAULTS_JSON_SCHEMA_PATH : JSON_SCHEMA_PATH;
      const rel = path.relative(path.dirname(file), path.join(REPO, schemaFile)).split(path.sep).join('/');
      expect(first).toBe(`# yaml-language-server: $schema=${rel}`);
    }
  });
});

const COMPILED = new Map<object, ReturnType<Ajv2020['compile']>>();

/** Problems an editor shows for a YAML file: each document checked against the schema its modeline names (yaml-language-server). */
export function editorProblems(file: string, text: string, schemaFor: (modeline: string) => object): string[] {
  const m = /^# yaml-language-server: \$schema=(\S+)$/m.exec(text);
  if (!m) {
    return [`${file}: no schema modeline`];
  }
  const schema = schemaFor(m[1]);
  const validate = COMPILED.get(schema) ?? new Ajv2020({ allErrors: true, strict: false }).compile(schema);
  COMPILED.set(schema, validate);
  return parseAllDocuments(text).flatMap((doc) =>
    validate(doc.toJS()) ? [] : (validate.errors ?? []).map((e) => `${file}: ${e.instancePath || '/'} ${e.message}`),
  );
}

describe('editor schemas: what init writes and the example fleet are clean in the editor', () => {
  const schemas: Record<string, object> = {
    'cluster-spec.schema.json': clusterSpecJsonSchema(),
    'cluster-defaults.schema.json': clusterDefaultsJsonSchema(),
  };
  const schemaFor = (modeline: string): object => schemas[path.posix.basename(modeline)];

  test('GIVEN the scaffold of every distribution and platform WHEN each YAML is checked against the schema its modeline names THEN it has no problem', () => {
    const every = { distributions: ['openshift', 'kubernetes'] as const, platforms: [...PLATFORM_TYPES] };
    // each fleet model: Argo CD per cluster, an Argo CD hub, Flux with an SSH repository
    const files = [
      ...scaffold(every).files,
      ...scaffold({ ...every, topology: 'hub' }).files,
      ...scaffold({ ...every, engine: 'flux', repoURL: 'ssh://git@git.example.com/platform/fleet.git' }).files,
    ];
    const yamls = files.filter((f) => f.path.startsWith('clusters/') && f.path.endsWith('.yaml'));
    expect(yamls.map((f) => f.path)).toEqual(
      expect.arrayContaining([
        'clusters/defaults.yaml',
        'clusters/openshift/defaults.yaml',
        'clusters/kubernetes/defaults.yaml',
        'clusters/openshift/aws-example-1.yaml',
      ]),
    );
    expect(yamls.flatMap((f) => editorProblems(f.path, f.content, schemaFor))).toEqual([]);
    // defaults files name the defaults schema, cluster specs the cluster spec's
    expect(yamls.map((f) => [f.path, /\$schema=\S*\/(\S+)$/m.exec(f.content)![1]])).toEqual(
      yamls.map((f) => [f.path, f.path.endsWith('/defaults.yaml') ? 'cluster-defaults.schema.json' : 'cluster-spec.schema.json']),
    );
  });

  test('GIVEN the example fleet WHEN each spec and defaults file is checked as an editor does THEN it has no problem', () => {
    const files = [
      ...listSpecFiles(path.join(REPO, 'clusters')),
      path.join(REPO, 'clusters/defaults.yaml'),
      path.join(REPO, 'clusters/us-east-1/defaults.yaml'),
      path.join(REPO, 'clusters/kubernetes/defaults.yaml'),
    ].filter((f) => f.endsWith('.yaml'));
    expect(files.flatMap((f) => editorProblems(path.relative(REPO, f), fs.readFileSync(f, 'utf8'), schemaFor))).toEqual([]);
  });

  test('GIVEN a defaults file with a misspelt field or a name WHEN checked THEN the editor shows it (the defaults schema is strict)', () => {
    const text = `# yaml-language-server: $schema=cluster-defaults.schema.json\napiVersion: ccm-gitops.io/v1alpha1\nkind: ${DEFAULTS_KIND}\nmetadata:\n  name: x\nspec:\n  platfrom: AWS\n`;
    expect(editorProblems('d.yaml', text, schemaFor)).toEqual([
      'd.yaml: /metadata must NOT have additional properties',
      'd.yaml: /spec must NOT have additional properties',
    ]);
    expect(DEFAULTS_SCHEMA_KIND).toBe(DEFAULTS_KIND);
  });
});
