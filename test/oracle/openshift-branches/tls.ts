/**
 * The `--tls-*` values the operator of release-4.22 and later writes for a cluster that sets no TLS profile.
 * Read, pinned, from openshift/cluster-cloud-controller-manager-operator@b99c3d88b0e7 (release-4.22) and @bc52198c1c3c
 * (release-4.23): pkg/config/config.go ComposeConfig writes `TLSVersionToNameOrDie(MinVersion)` and, below TLS 1.3,
 * `CipherSuitesToNamesOrDie(CipherSuites)` joined by commas; pkg/tls/tls.go falls back to
 * `configv1.TLSProfiles[DefaultTLSProfileType]` (Intermediate); vendor/github.com/openshift/controller-runtime-common/pkg/tls/tls.go
 * NewTLSConfigFromProfile keeps the profile's order, mapping each OpenSSL name through
 * vendor/github.com/openshift/library-go/pkg/crypto/crypto.go openSSLToIANACiphersMap; the Intermediate profile is
 * vendor/github.com/openshift/api/config/v1/types_tlssecurityprofile.go (nine names, TLS 1.3's three first, no DHE).
 * Never imports from `src/`.
 */

/** `--tls-min-version` of the Intermediate profile. */
export const DEFAULT_TLS_MIN_VERSION = 'VersionTLS12';

/** `--tls-cipher-suites` of the Intermediate profile, in its order. */
export const DEFAULT_TLS_CIPHER_SUITES: readonly string[] = [
  'TLS_AES_128_GCM_SHA256',
  'TLS_AES_256_GCM_SHA384',
  'TLS_CHACHA20_POLY1305_SHA256',
  'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256',
  'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
  'TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384',
  'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384',
  'TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256',
  'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256',
];

/** A flag of the branch's facts with the default profile's value where the operator fills the TLS profile in. */
export function withDefaultTls(flag: string, filledIn: string): string {
  if (flag === `--tls-min-version=${filledIn}`) {
    return `--tls-min-version=${DEFAULT_TLS_MIN_VERSION}`;
  }
  if (flag === `--tls-cipher-suites=${filledIn}`) {
    return `--tls-cipher-suites=${DEFAULT_TLS_CIPHER_SUITES.join(',')}`;
  }
  return flag;
}
