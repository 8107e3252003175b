// npm run docs: writes docs/spec-reference.md from the JSON Schema.
import * as fs from 'fs';
import * as path from 'path';
import { SPEC_REFERENCE_PATH, specReferenceMarkdown } from './spec-reference';

const target = path.join(__dirname, '..', '..', '..', SPEC_REFERENCE_PATH);
fs.mkdirSync(path.dirname(target), { recursive: true });
fs.writeFileSync(target, specReferenceMarkdown());
console.log(`wrote ${SPEC_REFERENCE_PATH}`);
