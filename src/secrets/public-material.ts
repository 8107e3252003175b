// Public material the secret detector (detector.ts) removes before its rules scan a text: each kind is recognised by its structure.
import { createPublicKey } from 'crypto';
import { withoutCertificates } from './token-spans';

/**
 * IAM role ARNs, any role name: `arn:<partition>:iam::<12-digit account>:role/<path and name>`,
 * the value of the `eks.amazonaws.com/role-arn` ServiceAccount annotation
 * (aws/amazon-eks-pod-identity-webhook@v0.5.5 README.md). eksctl and the AWS
 * CDK generate names with random-looking suffixes.
 */
const ROLE_ARN = /\barn:aws[a-z-]*:iam::\d{12}:role\/[\w+=,.@/-]+/g;

/**
 * SSH public keys (authorized_keys and known_hosts lines): an algorithm name,
 * then base64 whose first field is the same name (RFC 4253 section 6.6, a
 * uint32 length then the name).
 */
const SSH_PUBLIC_KEY = /\b((?:ssh|ecdsa|sk)-[a-z0-9@.-]+) +(AAAA[A-Za-z0-9+/]+={0,2})/g;

/** Subresource-integrity hashes (W3C SRI): `sha256-`, `sha384-`, `sha512-` then the base64 digest of 32, 48 or 64 bytes. */
const SRI_HASH = /\bsha(256|384|512)-([A-Za-z0-9+/]+={0,2})/g;

/** PEM blocks of public material: a public key that parses, a PGP public key block, a CRL. The body has no `-`, so a block ends at the next BEGIN or END line. */
const PUBLIC_PEM = /-----BEGIN ((?:RSA )?PUBLIC KEY|PGP PUBLIC KEY BLOCK|X509 CRL)-----[A-Za-z0-9+/=\s:\\,.()]*?-----END \1-----/g;

/** JWK members of private or symmetric keys (RFC 7518 sections 6.2.2, 6.3.2, 6.4.1). */
const PRIVATE_JWK_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

function sshKeyNamesItself(name: string, blob: string): boolean {
  const bytes = Buffer.from(blob, 'base64');
  return bytes.length > 4 + name.length && bytes.readUInt32BE(0) === name.length && bytes.toString('latin1', 4, 4 + name.length) === name;
}

function isPublicPem(label: string, block: string): boolean {
  if (!label.endsWith('PUBLIC KEY')) {
    return true; // PGP public key blocks and CRLs: no parser at hand; their label says public, and the other rules still read what is left
  }
  try {
    return createPublicKey(block.replace(/\\n/g, '\n').replace(/^[ \t]+/gm, '')).type === 'public';
  } catch {
    return false;
  }
}

/** The JWKs of a JSON text: one key, or a set under `keys`; undefined when the text is not one. */
function jwks(text: string): Record<string, unknown>[] | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') || !trimmed.includes('"kty"')) {
    return undefined;
  }
  try {
    const data = JSON.parse(trimmed) as Record<string, unknown>;
    const keys = Array.isArray(data.keys) ? (data.keys as unknown[]) : [data];
    return keys.every((k) => k !== null && typeof k === 'object' && typeof (k as Record<string, unknown>).kty === 'string')
      ? (keys as Record<string, unknown>[])
      : undefined;
  } catch {
    return undefined;
  }
}

/** Whether parsed data is one JWK with public members only (RFC 7517 section 4: `kty` names the key type). */
export function isPublicJwkObject(value: object): boolean {
  const k = value as Record<string, unknown>;
  return typeof k.kty === 'string' && !PRIVATE_JWK_MEMBERS.some((m) => m in k);
}

/** Whether a text is a JWK or JWKS holding private or symmetric key members. */
export function isPrivateJwk(text: string): boolean {
  return (jwks(text) ?? []).some((k) => PRIVATE_JWK_MEMBERS.some((m) => m in k));
}

/** Removes a match by keeping its line breaks only, so line numbers stay right. */
const blank = (match: string) => match.replace(/[^\r\n]/g, '');

/**
 * The text with its public material removed: certificates, public keys,
 * PGP public key blocks, CRLs, role ARNs, SSH public keys, SRI hashes and a
 * JWKS with public members only. Each regular expression starts at a fixed
 * literal and reads classes that end at the first character outside them.
 */
export function withoutPublicMaterial(text: string): string {
  const keys = jwks(text);
  if (keys && !isPrivateJwk(text)) {
    return blank(text);
  }
  return withoutCertificates(text)
    .replace(PUBLIC_PEM, (block: string, label: string) => (isPublicPem(label, block) ? blank(block) : block))
    .replace(ROLE_ARN, blank)
    .replace(SSH_PUBLIC_KEY, (m: string, name: string, blob: string) => (sshKeyNamesItself(name, blob) ? blank(m) : m))
    .replace(SRI_HASH, (m: string, bits: string, digest: string) => (Buffer.from(digest, 'base64').length * 8 === Number(bits) ? blank(m) : m));
}
