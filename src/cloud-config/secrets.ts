/**
 * Key names that hold credentials in one cloud config dialect or another.
 * A cloud config is committed to git, so such keys are refused: credentials
 * come from a CredentialsRequest Secret or an existing Secret instead.
 */
const SECRET_KEY = /(pass(word|wd|phrase)?|secret|token|private[-_]?key|access[-_]?key|credential|api[-_]?key)/i;

/** Keys that only name or locate a credential (a Secret's name, a file path), which is fine to commit. */
const REFERENCE_KEY = /(name|namespace|file|path|dir|directory|ref|reference|type|source|mode)$/i;

/** Values that locate a credential instead of holding it: absolute file paths such as IBM's `g2Credentials = /etc/vpc/ibmcloud_api_key`. */
function isFileReference(key: string, value: string): boolean {
  return !/pass|secret/i.test(key) && /^\/[^\s]*$/.test(value);
}

/**
 * Keys whose names match SECRET_KEY but which hold no credential:
 * `tokenAudience` of the Azure Stack Hub `endpoints` JSON is the resource
 * manager's token audience URL (github.com/Azure/go-autorest
 * autorest/azure/environments.go `Environment.TokenAudience`).
 */
const KNOWN_NON_SECRET_KEYS: ReadonlySet<string> = new Set(['tokenAudience']);

/** True when a key name looks like it holds a credential. */
export function looksLikeSecretKey(name: string): boolean {
  return SECRET_KEY.test(name) && !REFERENCE_KEY.test(name) && !KNOWN_NON_SECRET_KEYS.has(name);
}

/**
 * The first `key = value` (or `key: value`) line of an INI-style text whose key
 * looks like a credential and whose value is not empty, with its 1-based line
 * number. Scans raw lines, so it finds keys a strict parser would reject before
 * reading them.
 */
export function findSecretLikeIniKey(text: string): { key: string; line: number } | undefined {
  const lines = text.split(/\r\n|\n|\r/);
  for (let i = 0; i < lines.length; i++) {
    const m = /^\s*([^\s=:;#[\]]+)\s*[=:]\s*(\S.*)?$/.exec(lines[i]);
    const value = (m?.[2] ?? '').trim().replace(/^["']|["']$/g, '');
    if (m && looksLikeSecretKey(m[1]) && value !== '' && !isFileReference(m[1], value)) {
      return { key: m[1], line: i + 1 };
    }
  }
  return undefined;
}

/** The path of the first key holding a non-empty credential in parsed JSON or YAML data, e.g. `prismCentral.password`. */
export function findSecretLikeField(data: unknown, prefix = ''): string | undefined {
  if (Array.isArray(data)) {
    for (let i = 0; i < data.length; i++) {
      const found = findSecretLikeField(data[i], `${prefix}[${i}]`);
      if (found) {
        return found;
      }
    }
    return undefined;
  }
  if (data !== null && typeof data === 'object') {
    for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
      const here = prefix ? `${prefix}.${key}` : key;
      if (looksLikeSecretKey(key) && value !== '' && value !== null && value !== undefined && typeof value !== 'object' && typeof value !== 'boolean'
        && !(typeof value === 'string' && isFileReference(key, value))) {
        return here;
      }
      const found = findSecretLikeField(value, here);
      if (found) {
        return found;
      }
    }
  }
  return undefined;
}
