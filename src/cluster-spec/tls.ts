/**
 * TLS settings of the CCM serving endpoints, as the operator derives them from
 * the `APIServer/cluster` TLS profile (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/tls/tls.go).
 */

/** TLS versions by the names Kubernetes components accept for `--tls-min-version`. */
export const TLS_VERSIONS = ['VersionTLS10', 'VersionTLS11', 'VersionTLS12', 'VersionTLS13'] as const;
export type TlsVersion = (typeof TLS_VERSIONS)[number];

/** The IANA cipher suite names Go's crypto/tls (and so `--tls-cipher-suites`) accepts. */
export const TLS_CIPHER_SUITES = [
  'TLS_AES_128_GCM_SHA256',
  'TLS_AES_256_GCM_SHA384',
  'TLS_CHACHA20_POLY1305_SHA256',
  'TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA',
  'TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256',
  'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256',
  'TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA',
  'TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384',
  'TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305',
  'TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256',
  'TLS_ECDHE_ECDSA_WITH_RC4_128_SHA',
  'TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA',
  'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA',
  'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256',
  'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
  'TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA',
  'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384',
  'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305',
  'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256',
  'TLS_ECDHE_RSA_WITH_RC4_128_SHA',
  'TLS_RSA_WITH_3DES_EDE_CBC_SHA',
  'TLS_RSA_WITH_AES_128_CBC_SHA',
  'TLS_RSA_WITH_AES_128_CBC_SHA256',
  'TLS_RSA_WITH_AES_128_GCM_SHA256',
  'TLS_RSA_WITH_AES_256_CBC_SHA',
  'TLS_RSA_WITH_AES_256_GCM_SHA384',
  'TLS_RSA_WITH_RC4_128_SHA',
] as const;
export type TlsCipherSuite = (typeof TLS_CIPHER_SUITES)[number];

/**
 * The Intermediate profile, which the operator uses when the cluster sets no
 * profile: TLS 1.2 and the cipher list of openshift/api's Intermediate profile
 * mapped to IANA names.
 */
export const INTERMEDIATE_TLS: { readonly minVersion: TlsVersion; readonly cipherSuites: readonly TlsCipherSuite[] } = {
  minVersion: 'VersionTLS12',
  cipherSuites: [
    'TLS_AES_128_GCM_SHA256',
    'TLS_AES_256_GCM_SHA384',
    'TLS_CHACHA20_POLY1305_SHA256',
    'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256',
    'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
    'TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384',
    'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384',
    'TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256',
    'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256',
  ],
};

/**
 * The `--tls-*` flags for a TLS setting. As in the operator, the cipher list
 * is passed only when the minimum version is below TLS 1.3 (TLS 1.3 suites are
 * not configurable in Go).
 */
export function tlsFlags(tls: { readonly minVersion: TlsVersion; readonly cipherSuites: readonly string[] }): string[] {
  const flags: string[] = [];
  if (tls.minVersion !== 'VersionTLS13' && tls.cipherSuites.length > 0) {
    flags.push(`--tls-cipher-suites=${tls.cipherSuites.join(',')}`);
  }
  flags.push(`--tls-min-version=${tls.minVersion}`);
  return flags;
}

/** The TLS security profile types of `APIServer.spec.tlsSecurityProfile.type`. */
export const TLS_PROFILE_TYPES = ['Old', 'Intermediate', 'Modern', 'Custom'] as const;
export type TlsProfileType = (typeof TLS_PROFILE_TYPES)[number];

/**
 * OpenSSL cipher names (as the APIServer TLS profiles spell them) mapped to
 * the IANA names Go accepts, as library-go's crypto package maps them. Names
 * missing here (the DHE suites, some SHA-384/SHA-256 CBC suites) have no Go
 * implementation and are left out of the rendered list, as the operator does.
 */
export const OPENSSL_TO_IANA: Readonly<Record<string, TlsCipherSuite>> = {
  TLS_AES_128_GCM_SHA256: 'TLS_AES_128_GCM_SHA256',
  TLS_AES_256_GCM_SHA384: 'TLS_AES_256_GCM_SHA384',
  TLS_CHACHA20_POLY1305_SHA256: 'TLS_CHACHA20_POLY1305_SHA256',
  'ECDHE-ECDSA-AES128-GCM-SHA256': 'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256': 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384': 'TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384': 'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305': 'TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256',
  'ECDHE-RSA-CHACHA20-POLY1305': 'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256',
  'ECDHE-ECDSA-AES128-SHA256': 'TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256',
  'ECDHE-RSA-AES128-SHA256': 'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256',
  'AES128-GCM-SHA256': 'TLS_RSA_WITH_AES_128_GCM_SHA256',
  'AES256-GCM-SHA384': 'TLS_RSA_WITH_AES_256_GCM_SHA384',
  'AES128-SHA256': 'TLS_RSA_WITH_AES_128_CBC_SHA256',
  'ECDHE-ECDSA-AES128-SHA': 'TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA',
  'ECDHE-RSA-AES128-SHA': 'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA',
  'ECDHE-ECDSA-AES256-SHA': 'TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA',
  'ECDHE-RSA-AES256-SHA': 'TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA',
  'AES128-SHA': 'TLS_RSA_WITH_AES_128_CBC_SHA',
  'AES256-SHA': 'TLS_RSA_WITH_AES_256_CBC_SHA',
  'DES-CBC3-SHA': 'TLS_RSA_WITH_3DES_EDE_CBC_SHA',
};

/** The built-in profiles of openshift/api (`TLSProfiles`), with their OpenSSL cipher names in order. */
export const TLS_PROFILES: Readonly<
  Record<Exclude<TlsProfileType, 'Custom'>, { readonly minTLSVersion: TlsVersion; readonly ciphers: readonly string[] }>
> = {
  Old: {
    minTLSVersion: 'VersionTLS10',
    ciphers: [
      'TLS_AES_128_GCM_SHA256',
      'TLS_AES_256_GCM_SHA384',
      'TLS_CHACHA20_POLY1305_SHA256',
      'ECDHE-ECDSA-AES128-GCM-SHA256',
      'ECDHE-RSA-AES128-GCM-SHA256',
      'ECDHE-ECDSA-AES256-GCM-SHA384',
      'ECDHE-RSA-AES256-GCM-SHA384',
      'ECDHE-ECDSA-CHACHA20-POLY1305',
      'ECDHE-RSA-CHACHA20-POLY1305',
      'DHE-RSA-AES128-GCM-SHA256',
      'DHE-RSA-AES256-GCM-SHA384',
      'DHE-RSA-CHACHA20-POLY1305',
      'ECDHE-ECDSA-AES128-SHA256',
      'ECDHE-RSA-AES128-SHA256',
      'ECDHE-ECDSA-AES128-SHA',
      'ECDHE-RSA-AES128-SHA',
      'ECDHE-ECDSA-AES256-SHA384',
      'ECDHE-RSA-AES256-SHA384',
      'ECDHE-ECDSA-AES256-SHA',
      'ECDHE-RSA-AES256-SHA',
      'DHE-RSA-AES128-SHA256',
      'DHE-RSA-AES256-SHA256',
      'AES128-GCM-SHA256',
      'AES256-GCM-SHA384',
      'AES128-SHA256',
      'AES256-SHA256',
      'AES128-SHA',
      'AES256-SHA',
      'DES-CBC3-SHA',
    ],
  },
  Intermediate: {
    minTLSVersion: 'VersionTLS12',
    ciphers: [
      'TLS_AES_128_GCM_SHA256',
      'TLS_AES_256_GCM_SHA384',
      'TLS_CHACHA20_POLY1305_SHA256',
      'ECDHE-ECDSA-AES128-GCM-SHA256',
      'ECDHE-RSA-AES128-GCM-SHA256',
      'ECDHE-ECDSA-AES256-GCM-SHA384',
      'ECDHE-RSA-AES256-GCM-SHA384',
      'ECDHE-ECDSA-CHACHA20-POLY1305',
      'ECDHE-RSA-CHACHA20-POLY1305',
      'DHE-RSA-AES128-GCM-SHA256',
      'DHE-RSA-AES256-GCM-SHA384',
    ],
  },
  Modern: {
    minTLSVersion: 'VersionTLS13',
    ciphers: ['TLS_AES_128_GCM_SHA256', 'TLS_AES_256_GCM_SHA384', 'TLS_CHACHA20_POLY1305_SHA256'],
  },
};

/** TLS settings as a spec states them: a profile, and for `Custom` its version and ciphers. */
export interface TlsProfileSetting {
  /** The profile type. */
  readonly profile: TlsProfileType;
  /** Minimum version (`Custom` only). */
  readonly minTLSVersion?: TlsVersion;
  /** Cipher names, OpenSSL or IANA (`Custom` only). */
  readonly ciphers?: readonly string[];
}

/** The flags' inputs after resolving a profile. */
export interface ResolvedTls {
  /** `--tls-min-version`. */
  readonly minVersion: TlsVersion;
  /** `--tls-cipher-suites`, IANA names (not passed with TLS 1.3). */
  readonly cipherSuites: readonly TlsCipherSuite[];
}

/** The IANA name of a cipher given by its OpenSSL or IANA name, or undefined when Go has no such suite. */
export function ianaCipher(name: string): TlsCipherSuite | undefined {
  return OPENSSL_TO_IANA[name] ?? ((TLS_CIPHER_SUITES as readonly string[]).includes(name) ? (name as TlsCipherSuite) : undefined);
}

/**
 * Resolves a profile to the minimum version and IANA cipher list, as the
 * operator does through library-go: OpenSSL names are mapped, suites Go does
 * not implement (DHE) are left out, duplicates are kept once.
 */
export function resolveTlsProfile(setting: TlsProfileSetting): ResolvedTls {
  const profile =
    setting.profile === 'Custom'
      ? { minTLSVersion: setting.minTLSVersion ?? 'VersionTLS12', ciphers: setting.ciphers ?? [] }
      : TLS_PROFILES[setting.profile];
  const suites: TlsCipherSuite[] = [];
  for (const name of profile.ciphers) {
    const suite = ianaCipher(name);
    if (suite && !suites.includes(suite)) {
      suites.push(suite);
    }
  }
  return { minVersion: profile.minTLSVersion, cipherSuites: suites };
}

/** The `--tls-*` flags of a CCM: the resolved setting, or the Intermediate profile when none is given. */
export function ccmTlsFlags(tls?: ResolvedTls): string[] {
  return tlsFlags(tls ?? INTERMEDIATE_TLS);
}

/** Cipher names of the built-in profiles that Go does not implement (left out, as the operator does). */
const UNIMPLEMENTED_PROFILE_CIPHERS: ReadonlySet<string> = new Set(TLS_PROFILES.Old.ciphers.filter((c) => !(c in OPENSSL_TO_IANA)));

/** Problems of a spec's TLS setting, as field path (below `spec.tls`) and message. */
export function tlsProblems(setting: TlsProfileSetting): { path: (string | number)[]; message: string }[] {
  const problems: { path: (string | number)[]; message: string }[] = [];
  const at = (...rest: (string | number)[]) => ['spec', 'tls', ...rest];
  if (setting.profile !== 'Custom') {
    for (const key of ['minTLSVersion', 'ciphers'] as const) {
      if (setting[key] !== undefined) {
        problems.push({
          path: at(key),
          message: `is only read with profile Custom (profile is ${setting.profile}); remove it or set spec.tls.profile: Custom`,
        });
      }
    }
    return problems;
  }
  if (setting.minTLSVersion === undefined) {
    problems.push({
      path: at('minTLSVersion'),
      message: 'is required with profile Custom; set VersionTLS12 (the Intermediate minimum) or another version',
    });
    return problems;
  }
  if (setting.minTLSVersion === 'VersionTLS13') {
    return problems;
  }
  const ciphers = setting.ciphers ?? [];
  ciphers.forEach((name, i) => {
    if (!ianaCipher(name) && !UNIMPLEMENTED_PROFILE_CIPHERS.has(name)) {
      problems.push({
        path: at('ciphers', i),
        message: `"${name}" is not a TLS cipher suite name; use OpenSSL names as the APIServer profile does (e.g. ECDHE-RSA-AES128-GCM-SHA256) or IANA names (e.g. TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256)`,
      });
    }
  });
  if (problems.length === 0 && resolveTlsProfile(setting).cipherSuites.length === 0) {
    problems.push({
      path: at('ciphers'),
      message: `lists no cipher suite Go implements, so ${setting.minTLSVersion} connections could not be served; add at least one ECDHE suite, e.g. ECDHE-RSA-AES128-GCM-SHA256`,
    });
  }
  return problems;
}
