// Writes schema/cluster-spec.schema.json (npm run schema). A test fails when the committed file is stale.
import * as fs from 'fs';
import * as path from 'path';
import { clusterSpecJsonSchema, JSON_SCHEMA_PATH } from './json-schema';

const target = path.join(__dirname, '..', '..', '..', JSON_SCHEMA_PATH);
fs.mkdirSync(path.dirname(target), { recursive: true });
fs.writeFileSync(target, `${JSON.stringify(clusterSpecJsonSchema(), null, 2)}\n`);
process.stdout.write(`wrote ${JSON_SCHEMA_PATH}\n`);
