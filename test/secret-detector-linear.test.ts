import { holdsCredentials, redactMessage } from '../src/secrets/message-redaction';
import {
  findSecretInData,
  findSecretInIni,
  isPathValue,
  keyWords,
  redact,
  secretInOutput,
  secretInPair,
  secretInValue,
  urlsWithUserInfo,
} from '../src/secrets/detector';

/**
 * Every scan of the detector is linear: 1 MiB hostile values (long runs of
 * what each rule expands over) finish well inside the timeout. A quadratic
 * scan of 1 MiB takes minutes, so a regression fails on the 20 s timeout; no
 * test asserts a time.
 */

const MIB = 1024 * 1024;
const TIMEOUT_MS = 20_000;

/** A text of about 1 MiB made of one piece repeated, with a tail. */
function hostile(piece: string, tail = ''): string {
  return piece.repeat(Math.ceil((MIB - tail.length) / piece.length)) + tail;
}

const HOSTILE: [string, string][] = [
  ['scheme characters', hostile('a')],
  ['scheme characters, then ://', hostile('a+.-', '://x')],
  ['scheme characters before each ://', hostile('ab+.-c', '://u:p@')],
  ['URLs with no delimiter', hostile('a://')],
  ['schemeless hosts with a path and no query', hostile('a.b:1/')],
  ['schemeless hosts after = and :', hostile('=a.b:a.b=', '/?token=x')],
  ['schemeless queries of credential parameters', `a.b:1/${hostile('?token=x&sig=y')}`],
  ['URLs with @', hostile('a://b@')],
  ['a URL tail of @', `x://${hostile('@')}`],
  ['base64 characters', hostile('A')],
  ['base64 characters with / and +', hostile('Ab0+/')],
  ['base64 of base64', Buffer.from(hostile('QUJD')).toString('base64')],
  ['JWT headers', hostile('-eyJ')],
  ['JWT headers without boundaries', hostile('eyJa')],
  ['JWT headers and payloads', hostile('-eyJabcdefgh.eyJ')],
  ['token prefixes', hostile('ghp_xoxb-glpat-' + 'AKIAAIzanpm_sk_live_github_pat_')],
  ['Azure secret anchors', hostile('1Q~')],
  ['a: pairs', hostile('a:', '@host.example.com')],
  ['a: pairs with @', hostile('a:a@')],
  ['percent-encoded colons', hostile('a%3A', '@h.example.com')],
  ['@', hostile('@')],
  ['PEM BEGIN lines', hostile('-----BEGIN ')],
  ['PEM BEGIN labels', hostile('-----BEGIN A ')],
  ['private key BEGIN lines', hostile('-----BEGIN RSA PRIVATE KEY')],
  ['certificate BEGIN lines', hostile('-----BEGIN CERTIFICATE-----\n', '-----END CERTIFICATE-----')],
  ['certificate END lines', hostile('-----END CERTIFICATE-----\n')],
  ['a certificate of 1 MiB', `-----BEGIN CERTIFICATE-----\n${hostile('QUJD\n')}-----END CERTIFICATE-----`],
  ['PuTTY headers', hostile('PuTTY-User-Key-File-3:')],
  ['slashes', hostile('a/', ' ')],
  ['capitals (a key)', hostile('A', 'b')],
  ['camelCase (a key)', hostile('aB')],
  ['section brackets', hostile('[a "b=', ']')],
  ['comment markers', hostile('#;')],
  ['blanks', hostile(' \t')],
  ['line breaks', hostile('\n')],
  ['= before each user', hostile('=a')],
  ['query parameters', `https://h.example.com/?${hostile('token=a&')}`],
  ['query openers after a scheme', hostile('a://?a=')],
  ['long parameter names', `https://h.example.com/?${hostile('aB')}=x`],
];

describe('every scan is linear on 1 MiB hostile values', () => {
  test.each(HOSTILE)(
    'GIVEN %s WHEN every scan of the detector runs THEN each completes',
    (_name, value) => {
      expect(value.length).toBeGreaterThanOrEqual(MIB);
      // WHEN: the value alone, as an INI value, as INI text, as a key, as data, in a message, in rendered output
      const results = [
        secretInValue(value),
        findSecretInIni(`[global]\nnode-tags = ${value}\n`),
        findSecretInIni(value),
        secretInPair(value, 'x'),
        secretInPair('node-tags', value),
        findSecretInData({ global: { 'node-tags': value } }),
        secretInOutput(value),
      ];
      // THEN each answers (a finding or none) and the other scans return
      for (const r of results) {
        expect(r === undefined || typeof r.reason === 'string').toBe(true);
      }
      expect(typeof redact(value)).toBe('string');
      expect(typeof redactMessage(value)).toBe('string');
      expect(typeof holdsCredentials(value)).toBe('boolean');
      expect(Array.isArray(urlsWithUserInfo(value))).toBe(true);
      expect(typeof isPathValue(value)).toBe('boolean');
      expect(Array.isArray(keyWords(value))).toBe(true);
    },
    TIMEOUT_MS,
  );

  test(
    'GIVEN parsed data with 500,000 list items WHEN searched THEN it completes with nothing found',
    () => {
      expect(findSecretInData({ tags: new Array(500_000).fill('a') })).toBeUndefined();
    },
    TIMEOUT_MS,
  );
});
