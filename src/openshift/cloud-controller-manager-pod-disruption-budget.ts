import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { OPERAND_NAMESPACE } from './constants';
import { CCM_PLATFORM_LABEL } from './pod-conventions';
import { PlatformType } from '../cluster-spec/schema';

/** Properties for `CloudControllerManagerPodDisruptionBudget`. */
export interface CloudControllerManagerPodDisruptionBudgetProps {
  /** Platform type; names the PDB `<lower-case type>-cloud-controller-manager` and selects its pods. */
  readonly platformType: PlatformType;
  /**
   * `release-4.16`: the PDB as release 4.16 generated it, without
   * `unhealthyPodEvictionPolicy` (…@release-4.16 pkg/cloud/common/resources.go getPDB).
   *
   * @default "main"
   */
  readonly shape?: 'main' | 'release-4.16';
}

/**
 * The PodDisruptionBudget the operator adds to every platform with more than
 * one control-plane replica (reference §2.1 step 6): one pod must stay, and
 * unhealthy pods may always be evicted.
 */
export class CloudControllerManagerPodDisruptionBudget extends Construct {
  /** The PDB object. */
  public readonly apiObject: ApiObject;

  constructor(scope: Construct, id: string, props: CloudControllerManagerPodDisruptionBudgetProps) {
    super(scope, id);
    this.apiObject = new k8s.KubePodDisruptionBudget(this, 'Resource', {
      metadata: { name: `${props.platformType.toLowerCase()}-cloud-controller-manager`, namespace: OPERAND_NAMESPACE },
      spec: {
        minAvailable: k8s.IntOrString.fromNumber(1),
        unhealthyPodEvictionPolicy: props.shape === 'release-4.16' ? undefined : 'AlwaysAllow',
        selector: { matchLabels: { [CCM_PLATFORM_LABEL]: props.platformType } },
      },
    });
  }
}
