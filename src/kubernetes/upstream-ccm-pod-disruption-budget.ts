import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { addCcmPodDisruptionBudget } from '../constructs/ccm-pod-disruption-budget';

/** Properties for `UpstreamCcmPodDisruptionBudget`. */
export interface UpstreamCcmPodDisruptionBudgetProps {
  /** Name (the workload's). */
  readonly name: string;
  /** Namespace of the CCM. */
  readonly namespace: string;
  /** The workload's selector labels. */
  readonly selector: Readonly<Record<string, string>>;
  /**
   * Render `unhealthyPodEvictionPolicy: AlwaysAllow` (served and on by default from Kubernetes 1.27).
   *
   * @default true
   */
  readonly unhealthyPodEvictionPolicy?: boolean;
}

/** At most one CCM replica down at a time; unhealthy pods may always be evicted so a broken rollout never blocks a drain. */
export class UpstreamCcmPodDisruptionBudget extends Construct {
  /** The PDB. */
  public readonly apiObject: ApiObject;

  constructor(scope: Construct, id: string, props: UpstreamCcmPodDisruptionBudgetProps) {
    super(scope, id);
    this.apiObject = addCcmPodDisruptionBudget(this, 'Resource', {
      name: props.name,
      namespace: props.namespace,
      budget: { maxUnavailable: 1 },
      unhealthyPodEvictionPolicy: (props.unhealthyPodEvictionPolicy ?? true) ? 'AlwaysAllow' : undefined,
      selector: props.selector,
    });
  }
}
