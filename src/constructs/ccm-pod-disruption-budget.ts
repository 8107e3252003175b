import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';

/** The PodDisruptionBudget shape both distributions render for their CCM. */
export interface CcmPodDisruptionBudgetSpec {
  /** Name of the PDB. */
  readonly name: string;
  /** Namespace of the CCM. */
  readonly namespace: string;
  /** The CCM pods' selector labels. */
  readonly selector: Readonly<Record<string, string>>;
  /** The budget: pods that must stay (`minAvailable`) or may be down (`maxUnavailable`). */
  readonly budget: { readonly minAvailable: number } | { readonly maxUnavailable: number };
  /**
   * `spec.unhealthyPodEvictionPolicy` (served and on by default from Kubernetes 1.27).
   *
   * @default - not set
   */
  readonly unhealthyPodEvictionPolicy?: 'AlwaysAllow';
}

/**
 * Adds the CCM's PodDisruptionBudget to `scope` as `id`: the distribution's
 * construct names the budget, this renders the object (one shape for both).
 */
export function addCcmPodDisruptionBudget(scope: Construct, id: string, spec: CcmPodDisruptionBudgetSpec): ApiObject {
  const budget =
    'minAvailable' in spec.budget
      ? { minAvailable: k8s.IntOrString.fromNumber(spec.budget.minAvailable) }
      : { maxUnavailable: k8s.IntOrString.fromNumber(spec.budget.maxUnavailable) };
  return new k8s.KubePodDisruptionBudget(scope, id, {
    metadata: { name: spec.name, namespace: spec.namespace },
    spec: {
      ...budget,
      ...(spec.unhealthyPodEvictionPolicy ? { unhealthyPodEvictionPolicy: spec.unhealthyPodEvictionPolicy } : {}),
      selector: { matchLabels: { ...spec.selector } },
    },
  });
}
