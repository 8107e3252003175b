import { createHash } from 'crypto';

/** The pod-template annotation holding `configHash` of what the pods mount (both distributions). */
export const CONFIG_HASH_ANNOTATION = 'ccm-gitops.io/config-hash';

/** The ConfigMap and Secret contents a pod template mounts, by object name. */
export interface MountedConfig {
  /** ConfigMap data by ConfigMap name. */
  readonly configMaps?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Secret data by Secret name (only for Secrets the generator renders; it renders none today). */
  readonly secrets?: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

/**
 * sha256 over the canonical JSON (sorted keys) of `{configMaps, secrets}`,
 * the same shape the operator hashes into `operator.openshift.io/config-hash`.
 * A change of any mounted content changes the pod template, which rolls the pods.
 */
export function configHash(config: MountedConfig): string {
  return createHash('sha256')
    .update(canonicalJson({ configMaps: config.configMaps ?? {}, secrets: config.secrets ?? {} }))
    .digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) {
    return `[${value.map(canonicalJson).join(',')}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}
