/**
 * The one secret detector. Every string that can reach git (rendered
 * manifests, cloud-conf) or a terminal (error messages) goes through it:
 * spec URLs, cloud configs of every platform, extra keys, imported values,
 * values echoed in errors. A finding carries the reason and where, never the
 * value itself.
 *
 * Rules (docs/gitops.md lists them with their positive and negative cases):
 * 1. URL userinfo: any `user:password@`, a token as user name, percent-encoded
 *    forms; `ssh://git@host` and `git@host:path` (a plain login name) pass.
 * 2. PEM blocks holding a private key, also base64-encoded.
 * 3. Key names that hold a credential, as words of the key (`pwd`, `auth`,
 *    `api.key`, `OS_PW`, `aadClientSecret`); keys ending in a reference word
 *    (`secretName`, `token-url`, `tokenAudience`) only locate one, and keys
 *    ending in `file`/`path` must hold a path, not a literal.
 * 4. Tokens of known shapes anywhere (ghp_, github_pat_, glpat-, AKIA/ASIA,
 *    xox?-, JWTs, Google API keys, Slack/Stripe keys).
 * 5. Base64 material: a long base64 value that decodes to one of the above,
 *    or a long random-looking base64 blob.
 */

/** What was found (never the value). */
export interface SecretFinding {
  /** Why it is a secret, e.g. "a GitHub personal access token". */
  readonly reason: string;
}

/** Token shapes of well-known issuers: [pattern, reason]. */
const TOKEN_SHAPES: readonly [RegExp, string][] = [
  [/\bgh[pousr]_[A-Za-z0-9]{20,}/, 'a GitHub token'],
  [/\bgithub_pat_[A-Za-z0-9_]{20,}/, 'a GitHub fine-grained token'],
  [/\bglpat-[A-Za-z0-9_-]{20,}/, 'a GitLab personal access token'],
  [/\b(AKIA|ASIA)[0-9A-Z]{16}\b/, 'an AWS access key ID'],
  [/\bxox[abposr]-[A-Za-z0-9-]{10,}/, 'a Slack token'],
  [/\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/, 'a JSON Web Token'],
  [/\bAIza[0-9A-Za-z_-]{35}\b/, 'a Google API key'],
  [/\b[sr]k_live_[0-9A-Za-z]{16,}/, 'a Stripe secret key'],
  [/\bnpm_[A-Za-z0-9]{36}\b/, 'an npm token'],
];

/** A PEM block that holds key material (certificates are public and pass). */
const PRIVATE_PEM = /-----BEGIN ([A-Z0-9]+ )*(PRIVATE KEY|ENCRYPTED PRIVATE KEY)( BLOCK)?-----|-----BEGIN OPENSSH PRIVATE KEY-----|-----BEGIN PGP PRIVATE KEY BLOCK-----/;

/** Words of a key name that mean it holds a credential. */
const SECRET_WORDS = new Set([
  'password', 'passwd', 'pwd', 'pw', 'pass', 'passphrase', 'secret', 'secrets', 'token', 'tokens', 'apikey', 'credential', 'credentials', 'creds',
  'auth', 'bearer', 'privatekey', 'accesskey', 'sas',
]);
/** Word pairs of a key name that mean it holds a credential (`api.key`, `private-key`, `access_key`, `client-secret`). */
const SECRET_PAIRS: readonly [string, string][] = [['api', 'key'], ['private', 'key'], ['access', 'key'], ['secret', 'key'], ['account', 'key'], ['shared', 'key'], ['master', 'key']];
/** Last words of a key that only name or locate a credential. */
const REFERENCE_WORDS = new Set(['name', 'names', 'namespace', 'ref', 'reference', 'type', 'source', 'mode', 'url', 'uri', 'endpoint', 'audience', 'id', 'kind',
  'length', 'ttl', 'expiry', 'expiration', 'env', 'required', 'enabled', 'policy', 'format', 'version', 'scope', 'scopes', 'header', 'body', 'provider', 'plugin']);
/** Last words of a key that locate a credential in a file: the value must then be a path. */
const PATH_WORDS = new Set(['file', 'path', 'dir', 'directory', 'filename', 'location']);

/** Words of a key name: split on separators and camelCase, lower-cased (`aadClientSecret` → aad, client, secret; `OS_PW` → os, pw). */
export function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '')
    .map((w) => w.toLowerCase());
}

/** How a key name relates to credentials. */
export type KeyClass = 'secret' | 'secret-file' | 'plain';

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
  if (REFERENCE_WORDS.has(last)) {
    return 'plain';
  }
  return 'secret';
}

/** True when a key name looks like it holds a credential. */
export function looksLikeSecretKey(name: string): boolean {
  return classifyKey(name) === 'secret';
}

/** Whether a value is a file path (`/etc/x`, `./x`, `../x`, `~/x`, `dir/x`, Windows `C:\x`). */
export function isPathValue(value: string): boolean {
  return /^(\/|\.{1,2}\/|~\/|[A-Za-z]:\\)\S*$/.test(value) || /^[^\s:@]+\/[^\s:@]+$/.test(value);
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
  for (const [re, reason] of TOKEN_SHAPES) {
    if (re.test(text)) {
      return { reason };
    }
  }
  return undefined;
}

/** Shannon entropy in bits per character. */
function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const c of s) {
    counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

/** A long random-looking token: 32+ characters of a base64/base64url alphabet, mixed case and digits, high entropy (hex digests and words pass). */
function highEntropy(s: string): boolean {
  return s.length >= 32 && /^[A-Za-z0-9+/_=-]+$/.test(s) && /[a-z]/.test(s) && /[A-Z]/.test(s) && /[0-9]/.test(s) && entropy(s) >= 4.3;
}

/** Secret material in one value, whatever its key: a private key, a known token, URL credentials, or base64 of any of these. */
export function secretInValue(value: string): SecretFinding | undefined {
  if (PRIVATE_PEM.test(value)) {
    return { reason: 'a private key (PEM block)' };
  }
  const shape = tokenShape(value);
  if (shape) {
    return shape;
  }
  for (const url of value.match(/[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi) ?? []) {
    const found = urlCredentials(url);
    if (found) {
      return { reason: `a URL with credentials (${found.reason})` };
    }
  }
  for (const blob of value.match(/[A-Za-z0-9+/_-]{40,}={0,2}/g) ?? []) {
    const decoded = decodeBase64(blob);
    if (decoded !== undefined) {
      if (PRIVATE_PEM.test(decoded)) {
        return { reason: 'a base64-encoded private key' };
      }
      const inner = tokenShape(decoded) ?? (/[a-z][a-z0-9+.-]*:\/\/\S*@/i.test(decoded) ? urlCredentials(decoded.match(/[a-z][a-z0-9+.-]*:\/\/\S*/i)![0]) : undefined);
      if (inner) {
        return { reason: `base64-encoded ${inner.reason.replace(/^an? /, '')}` };
      }
      continue; // encoded text, not key material
    }
    if (highEntropy(blob) && (!blob.includes('/') || blob.endsWith('='))) {
      return { reason: 'a random-looking base64 token' };
    }
  }
  return undefined;
}

function decodeBase64(blob: string): string | undefined {
  const normal = blob.replace(/-/g, '+').replace(/_/g, '/');
  const text = Buffer.from(normal, 'base64').toString('latin1');
  return /^[\x09\x0a\x0d\x20-\x7e]+$/.test(text) ? text : undefined;
}

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

/**
 * The first credential in an INI-like text (`key = value`, `key: value`):
 * by key and by value shape, plus PEM blocks anywhere. Scans raw lines, so it
 * finds keys a strict parser would reject before reading them.
 */
export function findSecretInIni(text: string): LocatedFinding | undefined {
  const lines = text.split(/\r\n|\n|\r/);
  for (let i = 0; i < lines.length; i++) {
    if (/^\s*[#;]/.test(lines[i])) {
      continue;
    }
    const m = /^\s*([^\s=:;#[\]]+)\s*[=:]\s*(\S.*)?$/.exec(lines[i]);
    if (m) {
      const found = secretInPair(m[1], m[2] ?? '');
      if (found) {
        return { ...found, key: m[1], line: i + 1 };
      }
    } else {
      const found = secretInValue(lines[i]);
      if (found) {
        return { ...found, line: i + 1 };
      }
    }
  }
  return undefined;
}

/** The first credential in parsed JSON or YAML data, with the field path (e.g. `prismCentral.password`). Iterative: depth cannot exhaust the stack. */
export function findSecretInData(data: unknown): LocatedFinding | undefined {
  const stack: [unknown, string][] = [[data, '']];
  while (stack.length > 0) {
    const [value, here] = stack.shift()!;
    if (Array.isArray(value)) {
      value.forEach((v, i) => stack.push([v, `${here}[${i}]`]));
    } else if (value !== null && typeof value === 'object') {
      for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
        const at = here ? `${here}.${key}` : key;
        if (typeof v === 'string' || typeof v === 'number') {
          const found = secretInPair(key, String(v));
          if (found) {
            return { ...found, key: at };
          }
        } else {
          stack.push([v, at]);
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

/** Replaces secret material in a text for messages: URL userinfo, PEM blocks, known tokens. */
export function redact(text: string): string {
  return text
    .replace(/([a-z][a-z0-9+.-]*:\/\/)([^/?#\s"'@]*)@/gi, (all, scheme: string, userinfo: string) => (urlCredentials(`${scheme}${userinfo}@x`) ? `${scheme}<redacted>@` : all))
    .replace(/-----BEGIN [^-]*PRIVATE KEY[^-]*-----[\s\S]*?(-----END [^-]*-----|$)/g, '<redacted private key>')
    .replace(new RegExp(TOKEN_SHAPES.map(([re]) => re.source).join('|'), 'g'), '<redacted token>');
}

/**
 * The last guard over rendered files: private keys, known tokens and URL
 * credentials (no entropy heuristics: rendered YAML holds digests and IDs).
 */
export function secretInOutput(text: string): SecretFinding | undefined {
  if (PRIVATE_PEM.test(text)) {
    return { reason: 'a private key (PEM block)' };
  }
  const shape = tokenShape(text);
  if (shape) {
    return shape;
  }
  for (const url of urlsWithUserInfo(text)) {
    const found = urlCredentials(url);
    if (found) {
      return { reason: `a URL with credentials (${found.reason})` };
    }
  }
  return undefined;
}

/** A URL with an `@` after its `://`; it never spans whitespace, so never a line. */
const URL_WITH_AT = /[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]*@[^\s"'<>]*/gi;

/**
 * The matches of {@link URL_WITH_AT} in a text, found line by line and only
 * in lines that hold both `://` and `@`: the same matches as over the whole
 * text (a match holds no newline), without running the expression over the
 * large fleet files (FLEET.md, .fleet.json) character by character.
 */
export function urlsWithUserInfo(text: string): string[] {
  const urls: string[] = [];
  for (let at = text.indexOf('://'); at >= 0;) {
    const start = text.lastIndexOf('\n', at) + 1;
    const newline = text.indexOf('\n', at);
    const end = newline < 0 ? text.length : newline;
    const line = text.slice(start, end);
    if (line.includes('@')) {
      urls.push(...(line.match(URL_WITH_AT) ?? []));
    }
    at = newline < 0 ? -1 : text.indexOf('://', end);
  }
  return urls;
}
