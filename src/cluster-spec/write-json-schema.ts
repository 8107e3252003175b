// Writes schema/cluster-spec.schema.json and schema/cluster-defaults.schema.json (npm run schema). A test fails when a committed file is stale.
import * as fs from 'fs';
import * as path from 'path';
import { clusterDefaultsJsonSchema, clusterSpecJsonSchema, DEFAULTS_JSON_SCHEMA_PATH, JSON_SCHEMA_PATH } from './json-schema';

for (const [file, schema] of [
  [JSON_SCHEMA_PATH, clusterSpecJsonSchema()],
  [DEFAULTS_JSON_SCHEMA_PATH, clusterDefaultsJsonSchema()],
] as const) {
  const target = path.join(__dirname, '..', '..', '..', file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, `${JSON.stringify(schema, null, 2)}\n`);
  process.stdout.write(`wrote ${file}\n`);
}
