import * as fs from 'fs';
import * as path from 'path';
import { clusterSpecJsonSchema, JSON_SCHEMA_PATH } from '../src/cluster-spec/json-schema';
import { IMAGE_KEYS } from '../src/cluster-spec/images';
import { listSpecFiles } from '../src/fleet/load';

const REPO = path.resolve(__dirname, '..');

describe('published JSON Schema', () => {
  const schema = clusterSpecJsonSchema() as any;

  test('the committed file is generated from the spec types (regenerate with npm run schema)', () => {
    const committed = fs.readFileSync(path.join(REPO, JSON_SCHEMA_PATH), 'utf8');
    expect(committed).toBe(`${JSON.stringify(schema, null, 2)}\n`);
  });

  test('it is strict and carries the fields users need', () => {
    const spec = schema.properties.spec;
    expect(schema.additionalProperties).toBe(false);
    expect(spec.additionalProperties).toBe(false);
    expect(schema.required).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
    expect(spec.required).toEqual(['distribution', 'platform', 'images']);
    expect(Object.keys(spec.properties.images.properties)).toEqual([...IMAGE_KEYS]);
    expect(spec.properties.controlPlaneTopology.default).toBe('HighlyAvailable');
    expect(spec.properties.gitops.properties.engine.enum).toEqual(['argocd', 'flux', 'plain']);
  });

  test('every example spec points editors at the schema', () => {
    const specs = [...listSpecFiles(path.join(REPO, 'clusters')), ...listSpecFiles(path.join(REPO, 'examples', 'clusters')),
      path.join(REPO, 'clusters', 'defaults.yaml'), path.join(REPO, 'clusters', 'us-east-1', 'defaults.yaml')];
    expect(specs.length).toBeGreaterThanOrEqual(5);
    for (const file of specs) {
      const first = fs.readFileSync(file, 'utf8').split('\n')[0];
      const rel = path.relative(path.dirname(file), path.join(REPO, JSON_SCHEMA_PATH)).split(path.sep).join('/');
      expect(first).toBe(`# yaml-language-server: $schema=${rel}`);
    }
  });
});
