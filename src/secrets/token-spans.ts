// The character classes, token shapes, private keys and certificates the secret detector (detector.ts) scans for.
import { X509Certificate } from 'crypto';

/** What was found (never the value). */
export interface SecretFinding {
  /** Why it is a secret, e.g. "a GitHub personal access token". */
  readonly reason: string;
}

/** A span of a text: [start, end). */
export interface Span {
  readonly start: number;
  readonly end: number;
  readonly reason: string;
}

// Character classes by code, so the scanning loops need no regular expression.
export function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
export function isUpper(c: number): boolean {
  return c >= 0x41 && c <= 0x5a;
}
export function isLower(c: number): boolean {
  return c >= 0x61 && c <= 0x7a;
}
export function isAlnum(c: number): boolean {
  return isDigit(c) || isUpper(c) || isLower(c);
}
/** `\w` of a regular expression: [A-Za-z0-9_]. */
function isWord(c: number): boolean {
  return isAlnum(c) || c === 0x5f;
}
/** [A-Za-z0-9_-]: base64url. */
function isB64Url(c: number): boolean {
  return isWord(c) || c === 0x2d;
}
/** [A-Za-z0-9+/_-]: the characters of base64 and base64url. */
export function isB64(c: number): boolean {
  return isB64Url(c) || c === 0x2b || c === 0x2f;
}
/** [0-9A-Z] */
function isUpperAlnum(c: number): boolean {
  return isDigit(c) || isUpper(c);
}
/** [A-Za-z0-9_~.-]: the characters of an Azure client secret. */
function isAzureSecretChar(c: number): boolean {
  return isB64Url(c) || c === 0x7e || c === 0x2e;
}
/** [a-z0-9+.-], either case: a URL scheme after its first letter. */
export function isSchemeChar(c: number): boolean {
  return isAlnum(c) || c === 0x2b || c === 0x2e || c === 0x2d;
}
/** `\s` of a regular expression. */
export function isSpace(c: number): boolean {
  return (
    (c >= 0x09 && c <= 0x0d) ||
    c === 0x20 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}
/** [^\s"'<>]: what a URL runs over in free text. */
export function isUrlChar(c: number): boolean {
  return !isSpace(c) && c !== 0x22 && c !== 0x27 && c !== 0x3c && c !== 0x3e;
}

/** Where the run of characters of a class starting at `from` ends, looking at most `max` characters. */
export function runEnd(text: string, from: number, inClass: (c: number) => boolean, max = Infinity): number {
  let i = from;
  const stop = Math.min(text.length, from + max);
  while (i < stop && inClass(text.charCodeAt(i))) {
    i++;
  }
  return i;
}

/** `\b` at position i of a text. */
function wordBoundary(text: string, i: number): boolean {
  const before = i > 0 && isWord(text.charCodeAt(i - 1));
  const after = i < text.length && isWord(text.charCodeAt(i));
  return before !== after;
}

/**
 * A token shape: literal prefixes (each starts with a word character and
 * follows a word boundary), then a body of a class with at least `min`
 * characters; `exact` bodies must end at a word boundary. Bodies are read
 * greedily, as the regular expression each one replaces.
 */
interface TokenShape {
  readonly prefixes: readonly string[];
  readonly body: (c: number) => boolean;
  readonly min: number;
  readonly exact?: boolean;
  readonly reason: string;
}

/** [A-Za-z] */
function isAlpha(c: number): boolean {
  return isUpper(c) || isLower(c);
}
/** [0-9a-fA-F] */
function isHex(c: number): boolean {
  return isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

/**
 * Token shapes of well-known issuers (JWTs and Azure client secrets have their
 * own readers below). Prefixes and shortest bodies as the rules of
 * secretlint/secretlint@v13.1.0 packages/@secretlint/secretlint-rule-preset-recommend
 * (the oracle of test/secretlint-oracle.test.ts), read as open runs.
 */
const TOKEN_SHAPES: readonly TokenShape[] = [
  { prefixes: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'], body: isWord, min: 20, reason: 'a GitHub token' },
  { prefixes: ['github_pat_'], body: isWord, min: 20, reason: 'a GitHub fine-grained token' },
  { prefixes: ['glpat-'], body: isB64Url, min: 20, reason: 'a GitLab personal access token' },
  { prefixes: ['AKIA', 'ASIA'], body: isUpperAlnum, min: 16, exact: true, reason: 'an AWS access key ID' },
  {
    prefixes: ['xoxa-', 'xoxb-', 'xoxp-', 'xoxo-', 'xoxs-', 'xoxr-', 'xapp-'],
    body: (c) => isAlnum(c) || c === 0x2d,
    min: 10,
    reason: 'a Slack token',
  },
  { prefixes: ['hooks.slack.com/services/'], body: (c) => isAlnum(c) || c === 0x2f, min: 20, reason: 'a Slack webhook URL' },
  { prefixes: ['AIza'], body: isB64Url, min: 35, exact: true, reason: 'a Google API key' },
  { prefixes: ['sk_live_', 'rk_live_', 'sk_test_', 'rk_test_'], body: isAlnum, min: 16, reason: 'a Stripe secret key' },
  { prefixes: ['npm_'], body: isAlnum, min: 36, exact: true, reason: 'an npm token' },
  { prefixes: ['sk-proj-', 'sk-svcacct-', 'sk-admin-'], body: isB64Url, min: 58, reason: 'an OpenAI API key' },
  { prefixes: ['sk-ant-'], body: isB64Url, min: 90, reason: 'an Anthropic API key' },
  { prefixes: ['gsk_'], body: isAlnum, min: 52, reason: 'a Groq API key' },
  { prefixes: ['hf_'], body: isAlpha, min: 34, reason: 'a Hugging Face token' },
  { prefixes: ['lin_api_'], body: isWord, min: 32, reason: 'a Linear API key' },
  { prefixes: ['ntn_'], body: isAlnum, min: 46, reason: 'a Notion token' },
  { prefixes: ['SG.'], body: (c) => isB64Url(c) || c === 0x2e, min: 40, reason: 'a SendGrid API key' },
  { prefixes: ['shpat_', 'shppa_', 'shpca_', 'shpss_'], body: isAlnum, min: 32, reason: 'a Shopify token' },
  { prefixes: ['glc_'], body: isB64, min: 32, reason: 'a Grafana Cloud token' },
  { prefixes: ['glsa_'], body: isWord, min: 41, reason: 'a Grafana service account token' },
  { prefixes: ['ops_eyJ'], body: (c) => isB64(c) || c === 0x3d, min: 100, reason: 'a 1Password service account token' },
  { prefixes: ['hvs.', 'hvb.', 'hvr.'], body: isB64Url, min: 90, reason: 'a HashiCorp Vault token' },
  { prefixes: ['vcp_', 'vci_', 'vca_', 'vcr_', 'vck_'], body: isAlnum, min: 20, reason: 'a Vercel token' },
  { prefixes: ['dapi'], body: isHex, min: 32, reason: 'a Databricks token' },
  { prefixes: ['dckr_pat_'], body: isB64Url, min: 27, reason: 'a Docker personal access token' },
  { prefixes: ['figd_'], body: isB64Url, min: 40, reason: 'a Figma token' },
  { prefixes: ['cfk_', 'cfut_', 'cfat_'], body: isAlnum, min: 48, reason: 'a Cloudflare token' },
  { prefixes: ['tskey-'], body: isB64Url, min: 30, reason: 'a Tailscale key' },
  // gitleaks/gitleaks@5eda8a05dbe02223ae62588cf247cc95c9f211c9 cmd/generate/config/rules/digitalocean.go: 64 lower-case hex after the prefix
  { prefixes: ['dop_v1_', 'doo_v1_', 'dor_v1_'], body: isLowerHex, min: 64, exact: true, reason: 'a DigitalOcean token' },
  // gitleaks/gitleaks@7c56229a9a0ba367cdffdd45e0034274f68dd470 cmd/generate/config/rules/alibaba.go: LTAI then 20 letters or digits
  { prefixes: ['LTAI'], body: isAlnum, min: 20, exact: true, reason: 'an Alibaba Cloud AccessKey ID' },
];

/** [0-9a-f] */
function isLowerHex(c: number): boolean {
  return isDigit(c) || (c >= 0x61 && c <= 0x66);
}
/** [a-z0-9] */
function isLowerAlnum(c: number): boolean {
  return isDigit(c) || isLower(c);
}

/**
 * Vault legacy service tokens, `s.` then 24 letters or digits standing alone
 * with a digit among them (gitleaks/gitleaks@81fc668f98e21eb044ec9646283137022d82e669
 * cmd/generate/config/rules/hashicorp_vault.go allows letters only: code such as `s.makeKubeConfigController`),
 * and kubeadm bootstrap tokens, 6 then 16 of [a-z0-9] around a dot
 * (kubernetes/cluster-bootstrap@v0.31.0 token/api/types.go `BootstrapTokenPattern`)
 * standing alone, not inside a host name, with a digit in the secret half.
 */
function dottedTokenSpans(text: string, first: boolean): Span[] {
  const spans: Span[] = [];
  for (let dot = text.indexOf('.'); dot >= 0; dot = text.indexOf('.', dot + 1)) {
    const before = dot > 0 ? text.charCodeAt(dot - 1) : 0;
    if (before === 0x73 && (dot < 2 || !isDottedChar(text.charCodeAt(dot - 2)))) {
      const end = runEnd(text, dot + 1, isAlnum);
      if (end - dot - 1 === 24 && !isDottedChar(text.charCodeAt(end)) && hasDigit(text, dot + 1, end)) {
        spans.push({ start: dot - 1, end, reason: 'a HashiCorp Vault token' });
      }
    } else if (dot >= 6 && runStart(text, dot) === dot - 6 && (dot === 6 || !isDottedChar(text.charCodeAt(dot - 7)))) {
      const end = runEnd(text, dot + 1, isLowerAlnum);
      if (end - dot - 1 === 16 && !isDottedChar(text.charCodeAt(end)) && hasDigit(text, dot + 1, end)) {
        spans.push({ start: dot - 6, end, reason: 'a Kubernetes bootstrap token' });
      }
    }
    if (first && spans.length > 0) {
      return spans;
    }
  }
  return spans;
}
/** [A-Za-z0-9_.-]: what continues a word, a host name or a dotted path. */
function isDottedChar(c: number): boolean {
  return isWord(c) || c === 0x2e || c === 0x2d;
}
/** Where the run of [a-z0-9] ending at `end` starts, looking back at most 7 characters. */
function runStart(text: string, end: number): number {
  let i = end;
  while (i > 0 && end - i < 7 && isLowerAlnum(text.charCodeAt(i - 1))) {
    i--;
  }
  return i;
}
function hasDigit(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    if (isDigit(text.charCodeAt(i))) {
      return true;
    }
  }
  return false;
}

/** The spans of one token shape in a text; `first` stops at the first. */
function shapeSpans(text: string, shape: TokenShape, first: boolean): Span[] {
  const spans: Span[] = [];
  for (const prefix of shape.prefixes) {
    for (let i = text.indexOf(prefix); i >= 0; i = text.indexOf(prefix, i + 1)) {
      if (!wordBoundary(text, i)) {
        continue;
      }
      const from = i + prefix.length;
      // an exact body reads its length only; an open one reads the whole run (bounded by the next prefix's search)
      const end = runEnd(text, from, shape.body, shape.exact ? shape.min : Infinity);
      if (end - from < shape.min || (shape.exact && !wordBoundary(text, end))) {
        continue;
      }
      spans.push({ start: i, end, reason: shape.reason });
      if (first) {
        return spans;
      }
      i = end - 1;
    }
  }
  return spans;
}

/**
 * JSON Web Tokens (`eyJ….eyJ….sig`, as `\beyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]*`).
 * A candidate that fails fails for every later `eyJ` in the same run (same
 * run end, shorter segment), so the search goes on after that run: linear.
 */
function jwtSpans(text: string, first: boolean): Span[] {
  const spans: Span[] = [];
  for (let i = text.indexOf('eyJ'); i >= 0;) {
    if (!wordBoundary(text, i)) {
      i = text.indexOf('eyJ', i + 1);
      continue;
    }
    const header = runEnd(text, i + 3, isB64Url);
    let next = header;
    if (header - (i + 3) >= 8 && text.charCodeAt(header) === 0x2e && text.startsWith('eyJ', header + 1)) {
      const payload = runEnd(text, header + 4, isB64Url);
      if (payload - (header + 4) >= 8 && text.charCodeAt(payload) === 0x2e) {
        const end = runEnd(text, payload + 1, isB64Url);
        spans.push({ start: i, end, reason: 'a JSON Web Token' });
        if (first) {
          return spans;
        }
        next = end;
      }
    }
    i = text.indexOf('eyJ', Math.max(next, i + 1));
  }
  return spans;
}

/**
 * Azure AD client secrets of the current format: 3 characters, a digit,
 * `Q~`, then 31 to 34 more, of [A-Za-z0-9_~.-], standing alone (as
 * gitleaks/gitleaks@v8.18.4 config/gitleaks.toml `azure-ad-client-secret`).
 */
function azureSecretSpans(text: string, first: boolean): Span[] {
  const spans: Span[] = [];
  for (let q = text.indexOf('Q~'); q >= 0; q = text.indexOf('Q~', q + 1)) {
    const start = q - 4;
    if (start < 0 || !isDigit(text.charCodeAt(q - 1)) || (start > 0 && isAzureSecretChar(text.charCodeAt(start - 1)))) {
      continue;
    }
    if (runEnd(text, start, isAzureSecretChar, 3) !== q - 1) {
      continue;
    }
    const end = runEnd(text, q + 2, isAzureSecretChar, 35);
    if (end - (q + 2) >= 31 && end - (q + 2) <= 34 && !(end < text.length && isAzureSecretChar(text.charCodeAt(end)))) {
      spans.push({ start, end, reason: 'an Azure client secret' });
      if (first) {
        return spans;
      }
    }
  }
  return spans;
}

/**
 * Whether a text holds any prefix of {@link TOKEN_SHAPES}: one pass over it,
 * where the shapes would each search it once per prefix (most texts hold none).
 */
const ANY_TOKEN_PREFIX = new RegExp(TOKEN_SHAPES.flatMap((s) => s.prefixes.map((p) => p.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))).join('|'));

/** Every token of a known shape in a text, or the first one. */
export function tokenSpans(text: string, first: boolean): Span[] {
  const spans: Span[] = [];
  for (const shape of ANY_TOKEN_PREFIX.test(text) ? TOKEN_SHAPES : []) {
    spans.push(...shapeSpans(text, shape, first));
    if (first && spans.length > 0) {
      return spans;
    }
  }
  spans.push(...jwtSpans(text, first));
  if (first && spans.length > 0) {
    return spans;
  }
  spans.push(...azureSecretSpans(text, first));
  if (first && spans.length > 0) {
    return spans;
  }
  spans.push(...dottedTokenSpans(text, first));
  return spans;
}

/** The label of a PEM BEGIN line that holds key material: `RSA PRIVATE KEY`, `ENCRYPTED PRIVATE KEY`, `OPENSSH PRIVATE KEY`, `PGP PRIVATE KEY BLOCK`. */
const PRIVATE_LABEL = /^(?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?$/;
/** Longest PEM label read (real ones are under 30 characters). */
const MAX_PEM_LABEL = 64;

/** The spans of private key material: PEM blocks from their BEGIN line to their END line (or the end of the text), PuTTY key files. */
export function privateKeySpans(text: string, first: boolean): Span[] {
  const spans: Span[] = [];
  for (let i = text.indexOf('-----BEGIN '); i >= 0; i = text.indexOf('-----BEGIN ', i + 1)) {
    const labelStart = i + '-----BEGIN '.length;
    const close = text.indexOf('-----', labelStart);
    if (close < 0) {
      break;
    }
    if (close - labelStart > MAX_PEM_LABEL || !PRIVATE_LABEL.test(text.slice(labelStart, close))) {
      continue;
    }
    const endLine = text.indexOf('-----END ', close + 5);
    const endClose = endLine < 0 ? -1 : text.indexOf('-----', endLine + '-----END '.length);
    const end = endClose < 0 ? text.length : endClose + 5;
    spans.push({ start: i, end, reason: 'a private key (PEM block)' });
    if (first) {
      return spans;
    }
    i = end - 1;
  }
  // PuTTY's .ppk format (PuTTY-User-Key-File-2: and -3:), as putty sshpubk.c; the file ends with its Private-MAC line
  for (let i = text.indexOf('PuTTY-User-Key-File-'); i >= 0; i = text.indexOf('PuTTY-User-Key-File-', i + 1)) {
    const version = i + 'PuTTY-User-Key-File-'.length;
    if (!isDigit(text.charCodeAt(version)) || text.charCodeAt(version + 1) !== 0x3a) {
      continue;
    }
    const mac = text.indexOf('Private-MAC:', version);
    const macEnd = mac < 0 ? -1 : text.indexOf('\n', mac);
    const end = mac < 0 || macEnd < 0 ? text.length : macEnd;
    spans.push({ start: i, end, reason: 'a PuTTY private key' });
    if (first) {
      return spans;
    }
    i = end - 1;
  }
  return spans;
}

/** The first private key in a text. */
export function privateKey(text: string): SecretFinding | undefined {
  const [span] = privateKeySpans(text, true);
  return span ? { reason: span.reason } : undefined;
}

/** Whether a PEM block (or DER bytes) is an X.509 certificate, by parsing it. */
export function isCertificate(material: string | Buffer): boolean {
  try {
    new X509Certificate(material);
    return true;
  } catch {
    return false;
  }
}

const CERT_BEGIN = '-----BEGIN CERTIFICATE-----';
const CERT_END = '-----END CERTIFICATE-----';

/**
 * The text with every PEM CERTIFICATE block that parses as X.509 replaced by
 * its line breaks only (line numbers stay right). A block that does not parse
 * stays, to be scanned like any other text. Linear: the END line of a BEGIN is
 * searched once per run of BEGINs (the innermost BEGIN before it opens the block).
 */
export function withoutCertificates(text: string): string {
  let begin = text.indexOf(CERT_BEGIN);
  if (begin < 0) {
    return text;
  }
  const parts: string[] = [];
  let kept = 0;
  let end = -1;
  while (begin >= 0) {
    if (end < begin) {
      end = text.indexOf(CERT_END, begin + CERT_BEGIN.length);
      if (end < 0) {
        break;
      }
    }
    const nextBegin = text.indexOf(CERT_BEGIN, begin + CERT_BEGIN.length);
    if (nextBegin >= 0 && nextBegin < end) {
      begin = nextBegin;
      continue;
    }
    const blockEnd = end + CERT_END.length;
    const block = text.slice(begin, blockEnd);
    if (isCertificate(pemLines(block))) {
      parts.push(text.slice(kept, begin), block.replace(/[^\r\n]/g, ''));
      kept = blockEnd;
    }
    begin = nextBegin;
  }
  parts.push(text.slice(kept));
  return parts.join('');
}

/** A PEM block as OpenSSL reads it: one line per line, no indentation (YAML blocks indent), `\\n` escapes (raw JSON) made line breaks. */
function pemLines(block: string): string {
  return block
    .replace(/\\n/g, '\n')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .join('\n');
}
