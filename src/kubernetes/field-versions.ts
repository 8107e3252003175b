/**
 * The first Kubernetes minor whose API server accepts (and acts on) each
 * field the `kubernetes` distribution renders only from some version on.
 * A field below its minor is left out, so the stage applies on every
 * supported version. Pure: no cdk8s import.
 */
import { minorOf } from '../migration/phases';

/** A field gated by the cluster's version, with the source of the boundary. */
export interface FieldVersion {
  /** The first minor (`1.NN`) that serves the field and enables it by default. */
  readonly since: string;
  readonly source: string;
}

/** Gated fields by `Kind.path`. */
export const FIELD_VERSIONS = {
  /**
   * Alpha (gate PDBUnhealthyPodEvictionPolicy off) in 1.26, beta and on in 1.27, GA in 1.31: below 1.27 the
   * field is dropped or the object rejected by strict field validation.
   */
  'PodDisruptionBudget.spec.unhealthyPodEvictionPolicy': {
    since: '1.27',
    source:
      'kubernetes/website content/en/docs/reference/command-line-tools-reference/feature-gates/PDBUnhealthyPodEvictionPolicy.md; kubernetes/enhancements keps/sig-apps/3017-pod-healthy-policy-for-pdb',
  },
} as const satisfies Record<string, FieldVersion>;

export type GatedField = keyof typeof FIELD_VERSIONS;

/** Whether a cluster at `version` (`1.NN`) accepts `field`. */
export function fieldServed(field: GatedField, version: string): boolean {
  return minorOf(version) >= minorOf(FIELD_VERSIONS[field].since);
}
