/**
 * TLS settings of the CCM serving endpoints, as the operator derives them from
 * the `APIServer/cluster` TLS profile (reference: operator §2.5).
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
