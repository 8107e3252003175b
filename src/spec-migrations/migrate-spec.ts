import { isMap, isSeq, parseDocument } from 'yaml';
import { INTERMEDIATE_TLS, resolveTlsProfile, tlsFlags, TlsProfileType, TlsVersion } from '../cluster-spec/tls';

/**
 * A change to the `ccm-gitops.io/v1alpha1` spec that `ccm-gitops migrate-spec`
 * converts (docs/versioning.md). Each has the version that made it, the
 * fields it retired and a pure conversion of the spec's YAML document.
 */
export interface SpecMigration {
  /** Short identifier, e.g. `tls-profile`. */
  readonly id: string;
  /** The ccm-gitops version whose schema no longer accepts the old form. */
  readonly since: string;
  /** What changed, for the report. */
  readonly summary: string;
  /** Retired field paths (dotted), with the message the validator gives when it meets one. */
  readonly retiredFields: Readonly<Record<string, string>>;
}

/**
 * The TLS change (commit "Every OpenShift platform: … TLS profiles", 0.1.0):
 * `spec.tls.{minVersion, cipherSuites}` (IANA names; the Intermediate list
 * when no suites were given below TLS 1.3) became the APIServer's
 * `spec.tls.{profile, minTLSVersion, ciphers}`.
 */
export const TLS_PROFILE_MIGRATION: SpecMigration = {
  id: 'tls-profile',
  since: '0.1.0',
  summary: 'spec.tls.minVersion/cipherSuites became spec.tls.profile (Old, Intermediate, Modern, or Custom with minTLSVersion and ciphers)',
  retiredFields: {
    'spec.tls.minVersion':
      'was replaced by spec.tls.profile (and minTLSVersion with profile Custom) in ccm-gitops 0.1.0; run `ccm-gitops migrate-spec --write <file>` to convert it',
    'spec.tls.cipherSuites':
      'was replaced by spec.tls.ciphers with profile Custom in ccm-gitops 0.1.0; run `ccm-gitops migrate-spec --write <file>` to convert it',
  },
};

/** Every conversion `migrate-spec` applies, oldest first. */
export const SPEC_MIGRATIONS: readonly SpecMigration[] = [TLS_PROFILE_MIGRATION];

/** The validator's message for a field an earlier form of the spec had, if `path` is one. */
export function retiredFieldMessage(path: readonly (string | number)[]): string | undefined {
  const key = path.filter((p) => typeof p === 'string').join('.');
  for (const m of SPEC_MIGRATIONS) {
    if (m.retiredFields[key]) {
      return m.retiredFields[key];
    }
  }
  return undefined;
}

/** The new TLS setting for the old `{minVersion, cipherSuites}`: the same `--tls-*` flags. */
export function convertLegacyTls(old: { readonly minVersion?: TlsVersion; readonly cipherSuites?: readonly string[] }): {
  profile: TlsProfileType;
  minTLSVersion?: TlsVersion;
  ciphers?: string[];
} {
  const minVersion = old.minVersion ?? 'VersionTLS12';
  const cipherSuites = old.cipherSuites ?? INTERMEDIATE_TLS.cipherSuites;
  const flags = tlsFlags({ minVersion, cipherSuites }).join(' ');
  // the built-in profile rendering the same flags, Intermediate (the default) first
  for (const profile of ['Intermediate', 'Modern', 'Old'] as const) {
    if (tlsFlags(resolveTlsProfile({ profile })).join(' ') === flags) {
      return { profile };
    }
  }
  return { profile: 'Custom', minTLSVersion: minVersion, ciphers: [...cipherSuites] };
}

/** What `migrateSpecText` did to one file. */
export interface MigrationResult {
  /** The converted text (the input when nothing changed). */
  readonly text: string;
  /** One line per conversion applied, e.g. `spec.tls: {minVersion: VersionTLS12} → {profile: Intermediate}`. */
  readonly changes: string[];
}

/**
 * Converts one spec or defaults file written for an earlier form of
 * `v1alpha1` to the current one, keeping comments and the order of the
 * other fields. Pure; text that needs no conversion comes back unchanged.
 */
export function migrateSpecText(text: string): MigrationResult {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) {
    return { text, changes: [] };
  }
  const changes: string[] = [];
  const tls = doc.getIn(['spec', 'tls'], true);
  if (isMap(tls) && (tls.has('minVersion') || tls.has('cipherSuites'))) {
    const minVersion = tls.get('minVersion') as TlsVersion | undefined;
    const suitesNode = tls.get('cipherSuites', true);
    const cipherSuites = isSeq(suitesNode) ? (suitesNode.toJSON() as string[]) : undefined;
    const converted = convertLegacyTls({ minVersion, cipherSuites });
    const before = `{${[minVersion !== undefined ? `minVersion: ${minVersion}` : '', cipherSuites ? `cipherSuites: [${cipherSuites.join(', ')}]` : ''].filter((s) => s).join(', ')}}`;
    const after = `{profile: ${converted.profile}${converted.minTLSVersion ? `, minTLSVersion: ${converted.minTLSVersion}` : ''}${converted.ciphers ? `, ciphers: [${converted.ciphers.join(', ')}]` : ''}}`;
    const map = tls;
    map.delete('minVersion');
    map.delete('cipherSuites');
    map.set('profile', converted.profile);
    if (converted.minTLSVersion) {
      map.set('minTLSVersion', converted.minTLSVersion);
    }
    if (converted.ciphers) {
      map.set('ciphers', doc.createNode(converted.ciphers));
    }
    changes.push(`spec.tls: ${before} → ${after} (${TLS_PROFILE_MIGRATION.id}, ${TLS_PROFILE_MIGRATION.since})`);
  }
  return changes.length === 0 ? { text, changes } : { text: doc.toString({ lineWidth: 0 }), changes };
}
