/**
 * The one secret detector. Every string that can reach git (rendered
 * manifests, cloud-conf) or a terminal (error messages) goes through it:
 * spec URLs, cloud configs of every platform, extra keys, imported values,
 * values echoed in errors. A finding carries the reason and where, never the
 * value itself.
 *
 * Rules (docs/security.md lists them with harmless example shapes):
 * 1. URL userinfo: any `user:password@`, a token as user name, percent-encoded
 *    forms; `ssh://git@host` and `git@host:path` (a plain login name) pass.
 *    Also `user:password@host` without a scheme (not in rendered output), and a
 *    credential parameter in a URL's query or fragment (`?token=`, `&sig=`).
 * 2. Private keys: PEM blocks, PuTTY key files, also base64-encoded.
 * 3. Key names that hold a credential, as words of the key (`pwd`, `auth`,
 *    `api.key`, `OS_PW`, `aadClientSecret`); keys ending in a reference word
 *    (`secretName`, `token-url`, `tokenAudience`) only locate one, and keys
 *    ending in `file`/`path` must hold a path, not a literal.
 * 4. Tokens of known shapes anywhere (ghp_, github_pat_, glpat-, AKIA/ASIA,
 *    xox?-, JWTs, Google API keys, Azure client secrets, and the prefixes of
 *    secretlint's recommended rules).
 * 5. Base64 material: a base64 run of 32+ characters that decodes to one of
 *    the above, or is random-looking (an AWS secret access key among them).
 *
 * Public material passes by structure: a PEM CERTIFICATE block that parses as
 * X.509 is removed before the other rules scan the text.
 *
 * Every scan is linear in its input: candidates are found with indexOf on a
 * fixed anchor (`://`, `@`, `-----BEGIN `, a token prefix) and expanded with
 * loops that stop at the first character outside their class; the regular
 * expressions left are anchored at the start with classes that cannot
 * overlap, or match one character.
 */
import {
  SecretFinding,
  Span,
  isDigit,
  isUpper,
  isLower,
  isAlnum,
  isB64,
  isSchemeChar,
  isSpace,
  isUrlChar,
  runEnd,
  tokenSpans,
  privateKeySpans,
  privateKey,
  isCertificate,
} from './token-spans';
import { isPrivateJwk, isPublicJwkObject, withoutPublicMaterial } from './public-material';
import { queryParameterSpans } from './query-credentials';
export { withoutCertificates } from './token-spans';
export type { SecretFinding } from './token-spans';
/** Words of a key name that mean it holds a credential. */
const SECRET_WORDS = new Set([
  'password',
  'passwd',
  'pwd',
  'pw',
  'pass',
  'passphrase',
  'secret',
  'secrets',
  'token',
  'tokens',
  'apikey',
  'credential',
  'credentials',
  'creds',
  'auth',
  'bearer',
  'privatekey',
  'accesskey',
  'sas',
]);
/** Word pairs of a key name that mean it holds a credential (`api.key`, `private-key`, `access_key`, `client-secret`). */
const SECRET_PAIRS: readonly [string, string][] = [
  ['api', 'key'],
  ['private', 'key'],
  ['access', 'key'],
  ['secret', 'key'],
  ['account', 'key'],
  ['shared', 'key'],
  ['master', 'key'],
];
/** Last words of a key that only name or locate a credential. */
const REFERENCE_WORDS = new Set([
  'name',
  'names',
  'namespace',
  'ref',
  'reference',
  'type',
  'source',
  'mode',
  'url',
  'uri',
  'endpoint',
  'audience',
  'id',
  'kind',
  'length',
  'ttl',
  'expiry',
  'expiration',
  'required',
  'enabled',
  'format',
  'scope',
  'scopes',
  'body',
  'provider',
  'plugin',
]);
/**
 * Last words of a key that qualify a credential (`DB_PASSWORD_ENV`,
 * `AUTH_HEADER`, `TOKEN_VERSION`, `PASSWORD_POLICY`): the value must then
 * describe, not be, the credential (see {@link describesCredential}).
 */
const QUALIFIER_WORDS = new Set(['env', 'header', 'version', 'policy']);
/** Last words of a key that locate a credential in a file: the value must then be a path. */
const PATH_WORDS = new Set(['file', 'path', 'dir', 'directory', 'filename', 'location']);

/**
 * Words of a key name: split on separators and camelCase, lower-cased
 * (`aadClientSecret` → aad, client, secret; `OS_PW` → os, pw; `ABCDef` → abc, def).
 * One pass over the characters: a key can be as long as its file.
 */
export function keyWords(key: string): string[] {
  const words: string[] = [];
  let start = -1;
  for (let i = 0; i <= key.length; i++) {
    const c = i < key.length ? key.charCodeAt(i) : 0;
    if (!isAlnum(c)) {
      if (start >= 0) {
        words.push(key.slice(start, i).toLowerCase());
        start = -1;
      }
      continue;
    }
    if (start >= 0) {
      const prev = key.charCodeAt(i - 1);
      // a new word at `aB` / `1B`, and at the last capital of a run followed by a small letter (`ABCDef`)
      if (isUpper(c) && (isLower(prev) || isDigit(prev) || (isUpper(prev) && i + 1 < key.length && isLower(key.charCodeAt(i + 1))))) {
        words.push(key.slice(start, i).toLowerCase());
        start = i;
      }
    } else {
      start = i;
    }
  }
  return words;
}

/** How a key name relates to credentials. */
export type KeyClass = 'secret' | 'secret-file' | 'secret-qualifier' | 'plain';

/** Classifies a key name: `secret` holds a credential, `secret-file` locates one in a file (its value must be a path), `plain` anything else. */
export function classifyKey(key: string): KeyClass {
  const words = keyWords(key);
  if (words.length === 0) {
    return 'plain';
  }
  const has = words.some((w) => SECRET_WORDS.has(w)) || SECRET_PAIRS.some(([a, b]) => words.some((w, i) => w === a && words[i + 1] === b));
  if (!has) {
    return 'plain';
  }
  const last = words[words.length - 1];
  if (PATH_WORDS.has(last)) {
    return 'secret-file';
  }
  if (QUALIFIER_WORDS.has(last)) {
    return 'secret-qualifier';
  }
  if (REFERENCE_WORDS.has(last)) {
    return 'plain';
  }
  return 'secret';
}

/** Whether a key's value is a credential by the key's words: a credential word last, or a qualifier (`_ENV`, `_HEADER`) over a literal. */
export function keyHoldsCredential(key: string, value: string): boolean {
  const kind = classifyKey(key);
  return kind === 'secret' || (kind === 'secret-qualifier' && !describesCredential(value.trim()));
}

/** True when a key name looks like it holds a credential. */
export function looksLikeSecretKey(name: string): boolean {
  return classifyKey(name) === 'secret';
}

/**
 * Whether a value under a qualifying key describes a credential rather than
 * holds one: a variable name (`DB_PASSWORD`), lower-case words (`strict`),
 * a version (`v2`, `2.1.0`), a boolean or a header name (`X-Auth-Token`).
 */
export function describesCredential(value: string): boolean {
  return /^(?:[A-Z][A-Z0-9_]*|[a-z]+(?:[-_][a-z]+)*|v?\d+(?:\.\d+){0,3}|[A-Z][a-z]*(?:-[A-Z][a-z]*)+)$/.test(value);
}

/** Whether a value is a file path (`/etc/x`, `./x`, `../x`, `~/x`, `dir/x`, Windows `C:\\x`). */
export function isPathValue(value: string): boolean {
  if (/^(\/|\.{1,2}\/|~\/|[A-Za-z]:\\)\S*$/.test(value)) {
    return true;
  }
  // `dir/x`: no blank, `:` or `@`, and a `/` with something on both sides (one pass, no backtracking over the slashes)
  const slash = value.indexOf('/', 1);
  return slash > 0 && slash < value.length - 1 && /^[^\s:@]+$/.test(value);
}

/** Credentials in the userinfo of a URL (`scheme://user:pw@`, a token as user, percent-encoded forms). */
export function urlCredentials(url: string): SecretFinding | undefined {
  const m = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)@/i.exec(url.trim());
  if (!m) {
    return undefined;
  }
  const scheme = m[1].toLowerCase();
  let userinfo = m[2];
  try {
    userinfo = decodeURIComponent(userinfo);
  } catch {
    // keep the raw form
  }
  if (userinfo.includes(':')) {
    return { reason: 'user:password@' };
  }
  const shape = tokenShape(userinfo);
  if (shape) {
    return { reason: `${shape.reason.replace(/^an? /, '')} as the user name` };
  }
  if (scheme === 'ssh' || scheme === 'git+ssh') {
    // ssh://git@host: a login name; the key is elsewhere
    return highEntropy(userinfo) ? { reason: 'token as the user name' } : undefined;
  }
  return { reason: 'a user name or token before the host' };
}

/** A token of a known shape in a text. */
export function tokenShape(text: string): SecretFinding | undefined {
  const [span] = tokenSpans(text, true);
  return span ? { reason: span.reason } : undefined;
}

/** Shannon entropy in bits per character. */
function entropy(s: string): number {
  const counts = new Map<number, number>();
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

/**
 * Shortest random-looking token found: 32 characters is the shortest common
 * generated secret (older Azure client secrets, many API keys); AWS secret
 * access keys are 40. Hex digests, UUIDs and words pass: one case only.
 */
export const MIN_RANDOM_TOKEN = 32;

/** A long random-looking token: 32+ characters of a base64/base64url alphabet, mixed case and digits, high entropy (hex digests and words pass). */
function highEntropy(s: string): boolean {
  return s.length >= MIN_RANDOM_TOKEN && /^[A-Za-z0-9+/_=-]+$/.test(s) && /[a-z]/.test(s) && /[A-Z]/.test(s) && /[0-9]/.test(s) && entropy(s) >= 4.3;
}

/**
 * A path segment made of words: lower case (digits, UUIDs, hex), upper case,
 * or CamelCase words of two small letters or more (`MyGroup2`; a token's
 * `Rb7Kc9` is not).
 */
const WORD_SEGMENT = /^(?:[a-z0-9._-]+|[A-Z0-9._-]+|[A-Z]?[a-z]{2,}[0-9]*(?:[A-Z][a-z]{2,}[0-9]*)*)$/;

/**
 * Whether a base64-alphabet run with `/` is a path rather than a token: most
 * of its characters are in segments made of words (an absolute path, an Azure
 * resource ID). A token's `/` fall at random, so its segments are mixed-case
 * noise (`wJalrXUtnFEMI/K7MDENG/bPxRf…`), and one in 64 starts with `/`.
 */
function looksLikePath(run: string): boolean {
  let words = 0;
  let all = 0;
  for (const segment of run.split('/')) {
    all += segment.length;
    if (WORD_SEGMENT.test(segment)) {
      words += segment.length;
    }
  }
  return words * 2 >= all;
}

/** Where the scheme ending at the `://` at k starts: its first letter in the run of scheme characters before k (not before `from`); k when none. */
function schemeStart(text: string, k: number, from = 0): number {
  let start = k;
  while (start > from && isSchemeChar(text.charCodeAt(start - 1))) {
    start--;
  }
  while (start < k && !(isUpper(text.charCodeAt(start)) || isLower(text.charCodeAt(start)))) {
    start++;
  }
  return start;
}

/**
 * The URLs with an `@` after their `://` in a text, as the expression
 * `[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]*@[^\s"'<>]*` (gi) finds them. Found from
 * each `://`: the scheme is the run of scheme characters before it from its
 * first letter, the tail runs to the next blank, quote or angle bracket; the
 * `://` inside a tail reuse its end and its next `@`, so each character is
 * read a bounded number of times.
 */
function urlSpans(text: string): Span[] {
  const spans: Span[] = [];
  let after = 0; // the end of the last URL: a match never starts inside one
  let tailEnd = -1;
  let nextAt = -2;
  for (let k = text.indexOf('://'); k >= 0; k = text.indexOf('://', k + 1)) {
    const start = schemeStart(text, k, after);
    if (start === k) {
      continue;
    }
    if (tailEnd < k + 3) {
      tailEnd = runEnd(text, k + 3, isUrlChar);
    }
    if (nextAt !== -1 && nextAt < k + 3) {
      nextAt = text.indexOf('@', k + 3);
    }
    if (nextAt < 0 || nextAt >= tailEnd) {
      continue;
    }
    spans.push({ start, end: tailEnd, reason: 'a URL' });
    after = tailEnd;
    k = tailEnd - 1;
  }
  return spans;
}

/**
 * Each `scheme://userinfo@` of a text, at every `://` (so `x://y://u:p@h`
 * is read from `y` too): `start` of the scheme, `at` the last `@` before the
 * first `/`, `?`, `#`, blank, quote or angle bracket. The forward reads stop
 * at the next `://` (its `/`), the backward ones at the previous (its `:`).
 */
function userinfoSpans(text: string): { start: number; userinfo: number; at: number }[] {
  const found: { start: number; userinfo: number; at: number }[] = [];
  for (let k = text.indexOf('://'); k >= 0; k = text.indexOf('://', k + 1)) {
    const start = schemeStart(text, k);
    if (start === k) {
      continue;
    }
    let at = -1;
    for (let i = k + 3; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x2f || c === 0x3f || c === 0x23 || !isUrlChar(c)) {
        break;
      }
      if (c === 0x40) {
        at = i;
      }
    }
    if (at >= 0) {
      found.push({ start, userinfo: k + 3, at });
    }
  }
  return found;
}

/** Credentials in the URLs of a text: in the userinfo, or as a query or fragment parameter. */
function urlFinding(text: string): SecretFinding | undefined {
  for (const { start, at } of userinfoSpans(text)) {
    const found = urlCredentials(text.slice(start, at + 1));
    if (found) {
      return { reason: `a URL with credentials (${found.reason})` };
    }
  }
  const [query] = queryCredentialSpans(text, true);
  return query ? { reason: `a URL with credentials (${query.reason})` } : undefined;
}

/** The value of each credential parameter in the query or fragment of the URLs of a text (see query-credentials.ts). */
export function queryCredentialSpans(text: string, first: boolean): Span[] {
  return queryParameterSpans(text, first, (name) => classifyKey(name) === 'secret');
}

/** Characters that end the userinfo of a schemeless `user:password@host` read backwards from its `@`. */
function endsUserinfo(c: number): boolean {
  return (
    isSpace(c) ||
    c === 0x40 ||
    c === 0x2f ||
    c === 0x22 ||
    c === 0x27 ||
    c === 0x60 ||
    c === 0x3c ||
    c === 0x3e ||
    c === 0x28 ||
    c === 0x29 ||
    c === 0x5b ||
    c === 0x5d ||
    c === 0x7b ||
    c === 0x7d ||
    c === 0x2c ||
    c === 0x3b ||
    c === 0x5c ||
    c === 0x7c
  );
}
/** [A-Za-z0-9._~%+-]: a login name. */
function isUserChar(c: number): boolean {
  return isAlnum(c) || c === 0x2e || c === 0x5f || c === 0x7e || c === 0x25 || c === 0x2b || c === 0x2d;
}
/** [A-Za-z0-9.-]: a host name. */
function isHostChar(c: number): boolean {
  return isAlnum(c) || c === 0x2e || c === 0x2d;
}
/** Schemes written `scheme:user@host` without `//`: their user is the part after the colon. */
const SCHEMES_WITHOUT_SLASHES = new Set(['mailto', 'sip', 'sips', 'xmpp']);

/**
 * `user:password@host` without a scheme (`admin:pw@registry.example.com/img`,
 * `git:pw@host:org/repo.git`): from each `@`, the userinfo before it (up to a
 * blank, `/`, quote, bracket or `@`, so each character is read once) must hold
 * a colon after a login name with a letter, and a host must follow: with a dot,
 * or followed by `:` or `/`. `git@host:org/repo.git` (no password), an e-mail
 * address, `mailto:` and an image's `name:tag@sha256:…` pass.
 */
function schemelessSpans(text: string, first: boolean): Span[] {
  const spans: Span[] = [];
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', at + 1)) {
    let from = at;
    while (from > 0 && !endsUserinfo(text.charCodeAt(from - 1))) {
      from--;
    }
    const userinfo = text.slice(from, at);
    let colon = userinfo.indexOf(':');
    let separator = 1;
    if (colon < 0) {
      colon = userinfo.search(/%3a/i);
      separator = 3;
    }
    if (colon < 0 || colon + separator >= userinfo.length) {
      continue; // no password
    }
    let user = colon;
    while (user > 0 && isUserChar(userinfo.charCodeAt(user - 1))) {
      user--;
    }
    const login = userinfo.slice(user, colon);
    if (!/[A-Za-z]/.test(login) || SCHEMES_WITHOUT_SLASHES.has(login.toLowerCase())) {
      continue;
    }
    const hostEnd = runEnd(text, at + 1, isHostChar);
    const host = text.slice(at + 1, hostEnd);
    const follow = text.charCodeAt(hostEnd);
    if (host === '' || !isAlnum(host.charCodeAt(0)) || !(host.includes('.') || follow === 0x3a || follow === 0x2f)) {
      continue;
    }
    if (follow === 0x3a && /^(sha\d+|md5)$/i.test(host)) {
      continue; // an image's tag then digest: name:tag@sha256:…
    }
    spans.push({ start: from + user, end: at, reason: 'credentials before a host (user:password@host)' });
    if (first) {
      return spans;
    }
  }
  return spans;
}

/** The runs of a text that may be base64: [A-Za-z0-9+/_-] then up to two `=`, as `[A-Za-z0-9+/_-]{32,}={0,2}` (g). */
function base64Runs(text: string, min: number): string[] {
  const runs: string[] = [];
  for (let i = 0; i < text.length;) {
    if (!isB64(text.charCodeAt(i))) {
      i++;
      continue;
    }
    let end = runEnd(text, i, isB64);
    if (end - i >= min) {
      end = runEnd(text, end, (c) => c === 0x3d, 2);
      runs.push(text.slice(i, end));
    }
    i = end;
  }
  return runs;
}

/** Key material inside a decoded base64 text. */
function decodedSecret(decoded: string): SecretFinding | undefined {
  return privateKey(decoded) ?? tokenShape(decoded) ?? urlFinding(decoded) ?? firstReason(schemelessSpans(decoded, true));
}

function firstReason(spans: Span[]): SecretFinding | undefined {
  return spans.length > 0 ? { reason: spans[0].reason } : undefined;
}

/** Base64 material in a text: a run that decodes to a secret (itself decoded again, to a bound), or a random-looking one (a DER certificate passes). */
function base64Material(text: string, depth: number): SecretFinding | undefined {
  for (const blob of base64Runs(text, MIN_AUTH_BASE64)) {
    const decoded = decodeBase64(blob);
    if (decoded !== undefined && USER_PASSWORD.test(decoded)) {
      return { reason: 'base64-encoded user:password' };
    }
    if (blob.length < MIN_RANDOM_TOKEN) {
      continue;
    }
    if (decoded !== undefined) {
      const inner = depth < MAX_DECODE_DEPTH ? secretInText(decoded, depth + 1) : decodedSecret(decoded);
      if (inner) {
        return {
          reason: inner.reason.startsWith('a private key')
            ? 'a base64-encoded private key'
            : `base64-encoded ${inner.reason.replace(/^an? /, '').replace(/^base64-encoded /, '')}`,
        };
      }
      continue; // encoded text, not key material
    }
    if (highEntropy(blob) && !(blob.includes('/') && looksLikePath(blob))) {
      if (blob.length >= 300 && isCertificate(Buffer.from(blob.replace(/-/g, '+').replace(/_/g, '/'), 'base64'))) {
        continue; // a certificate in DER, base64-encoded: public
      }
      return { reason: 'a random-looking base64 token' };
    }
  }
  return undefined;
}

/** Secret material in one value, whatever its key: a private key, a known token, URL credentials, or base64 of any of these (decoded twice at most). */
export function secretInValue(value: string): SecretFinding | undefined {
  return secretInText(value, 0);
}

/** How many times base64 is decoded inside base64: a Secret's `data:` of a dockerconfigjson holds `auth`, itself base64. */
const MAX_DECODE_DEPTH = 2;

function secretInText(value: string, depth: number): SecretFinding | undefined {
  if (isPrivateJwk(value)) {
    return { reason: 'a private JSON Web Key' };
  }
  const text = withoutPublicMaterial(value);
  return (
    privateKey(text) ??
    tokenShape(text) ??
    urlFinding(text) ??
    firstReason(schemelessSpans(text, true)) ??
    basicCredentials(text) ??
    base64Material(text, depth)
  );
}

/**
 * HTTP Basic credentials (RFC 7617): `Basic ` then base64 of `user:password`,
 * with or without the `Authorization:` header name. Found from each `Basic `.
 */
function basicCredentials(text: string): SecretFinding | undefined {
  for (let i = text.indexOf('Basic '); i >= 0; i = text.indexOf('Basic ', i + 1)) {
    const from = runEnd(text, i + 6, (c) => c === 0x20);
    const end = runEnd(text, runEnd(text, from, isB64), (c) => c === 0x3d, 2);
    const decoded = end - from >= 4 ? decodeBase64(text.slice(from, end)) : undefined;
    if (decoded !== undefined && USER_PASSWORD.test(decoded)) {
      return { reason: 'HTTP Basic credentials' };
    }
  }
  return undefined;
}

/** `user:password`, the whole of a decoded Basic or dockerconfigjson `auth` value. */
const USER_PASSWORD_SHAPE = /^[\w.@+\\-]+:\S+$/;
const USER_PASSWORD = { test: (s: string) => USER_PASSWORD_SHAPE.test(s) && /[A-Za-z]/.test(s.slice(0, s.indexOf(':'))) };
/** Shortest base64 read for a `user:password` pair: a dockerconfigjson `auth` of a short name and password. */
const MIN_AUTH_BASE64 = 16;

function decodeBase64(blob: string): string | undefined {
  const normal = blob.replace(/-/g, '+').replace(/_/g, '/');
  const text = Buffer.from(normal, 'base64').toString('latin1');
  return /^[\x09\x0a\x0d\x20-\x7e]+$/.test(text) ? text : undefined;
}

/**
 * Key words that name Alibaba Cloud, whose AccessKey secrets are 30 letters
 * and digits (gitleaks/gitleaks@7c56229a9a0ba367cdffdd45e0034274f68dd470
 * cmd/generate/config/rules/alibaba.go): too short for the random-token rule.
 */
const ALIBABA_WORDS = ['alibaba', 'aliyun', 'alicloud'];

/**
 * Whether a `key = value` pair holds a credential: by the key's words (a
 * literal where a file path belongs counts too) or by the value's shape.
 */
export function secretInPair(key: string, value: string): SecretFinding | undefined {
  const v = value.trim().replace(/^["']|["']$/g, '');
  if (v === '') {
    return undefined;
  }
  const kind = classifyKey(key);
  if (kind === 'secret' && !(isPathValue(v) && v.startsWith('/') && !/pass|secret|pwd/i.test(key))) {
    return { reason: `"${key}" holds a credential` };
  }
  if (kind === 'secret-qualifier' && !describesCredential(v)) {
    return { reason: `"${key}" holds a credential` };
  }
  if (ALIBABA_WORDS.some((w) => keyWords(key).includes(w)) && /^[A-Za-z0-9]{30}$/.test(v) && /[0-9]/.test(v) && /[A-Za-z]/.test(v)) {
    return { reason: `"${key}" holds an Alibaba Cloud AccessKey secret` };
  }
  if (kind === 'secret-file' && !isPathValue(v)) {
    return { reason: `"${key}" names a file but holds a literal, not a path` };
  }
  const found = secretInValue(v);
  return found ? { reason: `"${key}" holds ${found.reason}` } : undefined;
}

/** A finding in a text with its 1-based line. */
export interface LocatedFinding extends SecretFinding {
  /** 1-based line, when known. */
  readonly line?: number;
  /** Key or field path, when known. */
  readonly key?: string;
}

/** `key = value` or `key: value` on one line; anchored, with classes that cannot overlap, so linear on a line of any length. */
const INI_PAIR = /^\s*([^\s=:;#[\]]+)\s*[=:]\s*(\S.*)?$/;
/** A comment line: its marker. */
const INI_COMMENT = /^\s*[#;]/;
/** A section header, `[section "subsection"]`. */
const INI_SECTION = /^\s*\[(.*)\]\s*$/;

/**
 * The first credential in an INI-like text (`key = value`, `key: value`):
 * by key and by value shape, plus PEM blocks anywhere. Scans raw lines, so it
 * finds keys a strict parser would reject before reading them. Comment lines
 * are read too (a credential commented out is still in git): a commented
 * `key = value` counts by its key only when the value is one word (prose such
 * as `# password: set it in the Secret` passes). Section headers are read for
 * `key=value` pairs in their names (`[global "password=x"]`). Certificates that
 * parse are removed first.
 */
export function findSecretInIni(text: string): LocatedFinding | undefined {
  const lines = withoutPublicMaterial(text).split(/\r\n|\n|\r/);
  for (let i = 0; i < lines.length; i++) {
    const found = lines[i].trim() === '' ? undefined : iniLineSecret(lines[i]);
    if (found) {
      return { ...found, line: i + 1 };
    }
  }
  return undefined;
}

/** The credential of one INI line, with its key when it has one. */
function iniLineSecret(line: string): { reason: string; key?: string } | undefined {
  const comment = INI_COMMENT.exec(line);
  const body = comment ? line.slice(comment[0].length) : line;
  const section = comment ? null : INI_SECTION.exec(body);
  if (section) {
    for (const part of section[1].split(/["'\s]+/)) {
      const eq = part.search(/[=:]/);
      const found = eq > 0 ? secretInPair(part.slice(0, eq), part.slice(eq + 1)) : undefined;
      if (found) {
        return { ...found, key: part.slice(0, eq) };
      }
    }
    return secretInValue(body);
  }
  const m = INI_PAIR.exec(body);
  if (m && !(comment && /\s/.test((m[2] ?? '').trim()))) {
    const found = secretInPair(m[1], m[2] ?? '');
    // a token with `=` padding alone on a line reads as a key: the key is then the secret, never named
    return found ? { ...found, key: m[1] } : secretInValue(m[1]);
  }
  return secretInValue(body);
}

/** The first credential in parsed JSON or YAML data, with the field path (e.g. `prismCentral.password`). Iterative: depth cannot exhaust the stack. */
export function findSecretInData(data: unknown): LocatedFinding | undefined {
  // a queue read by index: Array.shift would move the whole queue each time
  const queue: [unknown, string][] = [[data, '']];
  for (let next = 0; next < queue.length; next++) {
    const [value, here] = queue[next];
    if (Array.isArray(value)) {
      value.forEach((v, i) => queue.push([v, `${here}[${i}]`]));
    } else if (value !== null && typeof value === 'object') {
      if (isPublicJwkObject(value)) {
        continue; // a public key: its modulus and coordinates are random-looking by nature
      }
      for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
        const inKey = secretInValue(key);
        if (inKey) {
          // the key is the secret: the finding names where it is, never the key
          return { reason: `a key holds ${inKey.reason}`, key: here };
        }
        const at = here ? `${here}.${key}` : key;
        if (typeof v === 'string' || typeof v === 'number') {
          const found = secretInPair(key, String(v));
          if (found) {
            return { ...found, key: at };
          }
        } else {
          queue.push([v, at]);
        }
      }
    } else if (typeof value === 'string') {
      const found = secretInValue(value);
      if (found) {
        return { ...found, key: here };
      }
    }
  }
  return undefined;
}

/** A text with spans replaced; overlapping spans (two shapes over one token) become one replacement covering both. */
function replaceSpans(text: string, spans: readonly Span[], by: (span: Span) => string): string {
  if (spans.length === 0) {
    return text;
  }
  const parts: string[] = [];
  let kept = 0;
  for (const span of [...spans].sort((x, y) => x.start - y.start || y.end - x.end)) {
    if (span.start < kept) {
      kept = Math.max(kept, span.end);
      continue;
    }
    parts.push(text.slice(kept, span.start), by(span));
    kept = span.end;
  }
  parts.push(text.slice(kept));
  return parts.join('');
}

/** The userinfo of each `scheme://userinfo@` of a text that {@link urlCredentials} refuses. */
function urlUserinfoSpans(text: string): Span[] {
  return userinfoSpans(text)
    .filter(({ start, at }) => urlCredentials(text.slice(start, at + 1)) !== undefined)
    .map(({ userinfo, at }) => ({ start: userinfo, end: at, reason: 'URL userinfo' }));
}

/**
 * Replaces secret material in a text for messages: URL userinfo (with or
 * without a scheme), credential query parameters, private keys, known tokens. Keeps the host, so a message
 * still says where.
 */
export function redact(text: string): string {
  let out = replaceSpans(text, urlUserinfoSpans(text), () => '<redacted>');
  out = replaceSpans(out, queryCredentialSpans(out, false), () => '<redacted>');
  out = replaceSpans(out, schemelessSpans(out, false), () => '<redacted>');
  out = replaceSpans(out, privateKeySpans(out, false), () => '<redacted private key>');
  return replaceSpans(out, tokenSpans(out, false), () => '<redacted token>');
}

/**
 * The last guard over rendered files: private keys (PEM, PuTTY), known tokens
 * and URL credentials. No entropy heuristics (rendered YAML holds digests and
 * IDs) and no schemeless `user:password@host` (rendered scripts and image
 * references hold `name:tag@host`-like text; every input is checked for it
 * before rendering).
 */
export function secretInOutput(text: string): SecretFinding | undefined {
  const key = privateKey(text);
  if (key) {
    return key;
  }
  const shape = tokenShape(text);
  if (shape) {
    return shape;
  }
  return urlFinding(text);
}

/**
 * The URLs with an `@` after their `://` in a text, as the expression
 * `[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]*@[^\s"'<>]*` (gi) finds them, in one
 * linear pass (the expression retries each start of a long run of scheme
 * characters: quadratic). A match never spans whitespace, so never a line.
 */
export function urlsWithUserInfo(text: string): string[] {
  return urlSpans(text).map((s) => text.slice(s.start, s.end));
}
