// Runs secretlint's recommended rules (@secretlint/core with
// @secretlint/secretlint-rule-preset-recommend, both pinned in package.json)
// over texts given as a JSON array on standard input; prints, for each text,
// the rule ids that reported it and the milliseconds the lint took. Never the
// messages: they quote the secret. A separate Node process: both packages are
// ESM with an async API, which jest's CommonJS runtime does not load.
import { lintSource } from '@secretlint/core';
import { creator } from '@secretlint/secretlint-rule-preset-recommend';
import { readFileSync } from 'node:fs';

const texts = JSON.parse(readFileSync(0, 'utf8'));
const config = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: creator }] };
const results = [];
for (const content of texts) {
  const start = process.hrtime.bigint();
  const result = await lintSource({ source: { filePath: '/corpus/value.txt', content, contentType: 'text' }, options: { config, maskSecrets: true } });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  results.push({ rules: [...new Set(result.messages.map((m) => m.ruleId))].sort(), ms });
}
process.stdout.write(JSON.stringify(results));
