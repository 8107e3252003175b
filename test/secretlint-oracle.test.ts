import { execFileSync } from 'child_process';
import * as path from 'path';
import { findSecretInIni, secretInOutput, secretInPair, secretInValue } from '../src/secrets/detector';
import { CREDENTIALS, ENCODED, KEY_NAMED, PUBLIC } from './secretlint/corpus';

/**
 * secretlint's recommended rules (pinned devDependencies) as an independent
 * oracle: every credential of the corpus it finds, the detector finds too,
 * and the detector passes all public material. secretlint runs in its own
 * Node process (ESM, async API): test/secretlint/run.mjs.
 */

/** The rule ids secretlint reports for each text. */
function secretlint(texts: readonly string[]): string[][] {
  const out = execFileSync(process.execPath, [path.join(__dirname, 'secretlint', 'run.mjs')], {
    input: JSON.stringify(texts),
    cwd: path.join(__dirname, '..'),
  });
  return (JSON.parse(out.toString()) as { rules: string[] }[]).map((r) => r.rules);
}

const TIMEOUT_MS = 20_000;

describe('secretlint as an oracle', () => {
  let found: string[][];
  let publicFound: string[][];
  beforeAll(() => {
    found = secretlint(CREDENTIALS.map(([, text]) => text));
    publicFound = secretlint(PUBLIC.map(([, text]) => text));
  }, TIMEOUT_MS);

  test('GIVEN the credential corpus WHEN secretlint checks it THEN it finds all but the shapes it has no rule for', () => {
    const missed = CREDENTIALS.filter((_, i) => found[i].length === 0).map(([name]) => name);
    expect(missed).toEqual([
      'AWS access key ID',
      'AWS secret access key, bare',
      '1Password service account token',
      'PuTTY private key',
      'Azure client secret',
      'Google API key',
      'JSON Web Token',
      'random token, 32 characters',
      'user:password@host without a scheme',
      // encoded forms and the shapes of the platforms we support: no recommended rule decodes base64 or knows these prefixes
      ...ENCODED,
      'DigitalOcean personal access token',
      'DigitalOcean OAuth token',
      'DigitalOcean refresh token',
      'Alibaba Cloud AccessKey ID',
      'Vault legacy service token',
      'kubeadm bootstrap token',
    ]);
  });

  test('GIVEN every credential secretlint finds WHEN the detector checks it as a value and as a config THEN it finds it too', () => {
    const byOracle = CREDENTIALS.filter((_, i) => found[i].length > 0);
    expect(byOracle.length).toBeGreaterThan(30);
    expect(byOracle.filter(([, text]) => secretInValue(text) === undefined).map(([name]) => name)).toEqual([]);
    expect(byOracle.filter(([, text]) => findSecretInIni(text) === undefined).map(([name]) => name)).toEqual([]);
  });

  test('GIVEN the credential corpus WHEN the detector checks it THEN it finds every one', () => {
    expect(CREDENTIALS.filter(([, text]) => secretInValue(text) === undefined).map(([name]) => name)).toEqual([]);
  });

  test.each(KEY_NAMED)('GIVEN %s WHEN the detector checks the pair and the config line THEN the key names it', (_name, key, value) => {
    expect(secretInPair(key, value)?.reason).toMatch(new RegExp(`^"${key}" holds `));
    expect(findSecretInIni(`[Global]\n${key} = ${value}\n`)).toMatchObject({ key, line: 2 });
  });

  test('GIVEN public material WHEN secretlint and the detector check it THEN neither finds anything', () => {
    expect(PUBLIC.filter((_, i) => publicFound[i].length > 0).map(([name]) => name)).toEqual([]);
    expect(
      PUBLIC.filter(([, text]) => secretInValue(text) !== undefined || findSecretInIni(text) !== undefined || secretInOutput(text) !== undefined).map(
        ([name]) => name,
      ),
    ).toEqual([]);
  });
});
