/**
 * Key names that hold credentials in one cloud config dialect or another.
 * A cloud config is committed to git, so such keys are refused: credentials
 * come from a CredentialsRequest Secret or an existing Secret instead.
 */
const SECRET_KEY = /(pass(word|wd)?|secret|token|private[-_]?key|access[-_]?key|credential|api[-_]?key)/i;

/** True when a key name looks like it holds a credential. */
export function looksLikeSecretKey(name: string): boolean {
  return SECRET_KEY.test(name);
}

/**
 * The first `key = value` line of an INI-style text whose key looks like a
 * credential, with its 1-based line number. Scans raw lines, so it finds keys
 * a strict parser would reject before reading them.
 */
export function findSecretLikeIniKey(text: string): { key: string; line: number } | undefined {
  const lines = text.split(/\r\n|\n|\r/);
  for (let i = 0; i < lines.length; i++) {
    const m = /^\s*([^\s=;#[\]]+)\s*=/.exec(lines[i]);
    if (m && looksLikeSecretKey(m[1])) {
      return { key: m[1], line: i + 1 };
    }
  }
  return undefined;
}
