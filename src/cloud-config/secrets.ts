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
