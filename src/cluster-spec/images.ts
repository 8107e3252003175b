/**
 * The keys of the operator's `images.json` (ConfigMap
 * `openshift-cloud-controller-manager-operator/cloud-controller-manager-images`),
 * plus the upstream-only DigitalOcean and Equinix Metal CCMs of the
 * kubernetes distribution, and {@link KUBE_RBAC_PROXY_IMAGE_KEY}. A cluster
 * spec pins each image it needs under its key.
 */
export const IMAGE_KEYS = [
  'cloudControllerManagerOperator',
  'cloudControllerManagerAWS',
  'cloudControllerManagerAzure',
  'cloudNodeManagerAzure',
  'cloudControllerManagerGCP',
  'cloudControllerManagerIBM',
  'cloudControllerManagerOpenStack',
  'cloudControllerManagerPowerVS',
  'cloudControllerManagerVSphere',
  'cloudControllerManagerNutanix',
  'cloudControllerManagerAlibaba',
  'cloudControllerManagerDigitalOcean',
  'cloudControllerManagerEquinixMetal',
  'kubeRbacProxy',
] as const;

export type ImageKey = (typeof IMAGE_KEYS)[number];

/** The image of the operator itself, needed in `operator` management mode. */
export const OPERATOR_IMAGE_KEY: ImageKey = 'cloudControllerManagerOperator';

/**
 * Not a key of `images.json`: the payload's `kube-rbac-proxy` image, which the operator Deployment of release-4.21
 * and earlier runs as its metrics sidecar (openshift/cluster-cloud-controller-manager-operator@6148c0cc (release-4.21)
 * manifests/image-references). Needed in `operator` mode before 4.22; never written into `images.json`.
 */
export const KUBE_RBAC_PROXY_IMAGE_KEY: ImageKey = 'kubeRbacProxy';

/**
 * An image reference without its digest, as distribution/reference parses it
 * (distribution/reference@v0.6.0 regexp.go): an optional registry host
 * (components of letters, digits and inner `-`, dot-separated, optional port),
 * then lower-case path components joined by `.`, `_`, `__` or `-` runs, then
 * an optional tag. Upper-case paths, a leading `-`, an empty name (`:1.0`) and
 * non-ASCII characters (zero-width spaces) do not match. (Bracketed IPv6
 * registry hosts, which regexp.go also accepts, are not.)
 */
const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const PATH_COMPONENT = '[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*';
const IMAGE_REFERENCE = new RegExp(
  `^(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*(?::[0-9]+)?/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*(?::[\\w][\\w.-]{0,127})?$`,
);

/**
 * Checks that an image reference is pinned: it must carry a digest
 * (`@sha256:<64 hex>`) or an explicit tag other than `latest`.
 *
 * @returns a problem description, or undefined when the reference is fine
 */
export function imagePinProblem(ref: string): string | undefined {
  if (/\s/.test(ref) || ref.length === 0) {
    return 'is not an image reference';
  }
  const beforeDigest = ref.includes('@') ? ref.slice(0, ref.indexOf('@')) : ref;
  if (!IMAGE_REFERENCE.test(beforeDigest) || beforeDigest.replace(/:[^/:]*$/, '').length > 255) {
    return 'is not a valid image reference ([registry[:port]/]lower-case/path[:tag][@sha256:digest], ASCII only)';
  }
  const digestAt = ref.indexOf('@');
  if (digestAt >= 0) {
    const digest = ref.slice(digestAt + 1);
    return /^sha256:[0-9a-f]{64}$/.test(digest) ? undefined : `has a malformed digest "${digest}" (expected sha256:<64 hex digits>)`;
  }
  const lastSlash = ref.lastIndexOf('/');
  const colon = ref.indexOf(':', lastSlash + 1);
  if (colon < 0) {
    return 'is not pinned (no tag or digest)';
  }
  const tag = ref.slice(colon + 1);
  if (tag === 'latest') {
    return 'is pinned to the moving tag "latest"';
  }
  return /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/.test(tag) ? undefined : `has an invalid tag "${tag}"`;
}
