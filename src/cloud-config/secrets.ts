/**
 * Compatibility layer over the one secret detector (src/secrets/detector.ts):
 * the cloud-config transforms refuse any credential it finds. A cloud config
 * is committed to git, so credentials come from a CredentialsRequest Secret
 * or an existing Secret instead.
 */
import { findSecretInData, findSecretInIni, looksLikeSecretKey } from '../secrets/detector';

export { looksLikeSecretKey };

/**
 * The first credential of an INI-style text (by key name or by value shape),
 * with its 1-based line number; `key` is the key, or the kind of secret for a
 * line without one (a PEM block). Never the value.
 */
export function findSecretLikeIniKey(text: string): { key: string; line: number; reason: string } | undefined {
  const found = findSecretInIni(text);
  return found ? { key: found.key ?? found.reason, line: found.line ?? 1, reason: found.reason } : undefined;
}

/** The path of the first field holding a credential in parsed JSON or YAML data, e.g. `prismCentral.password`. */
export function findSecretLikeField(data: unknown): string | undefined {
  const found = findSecretInData(data);
  return found ? found.key || found.reason : undefined;
}
