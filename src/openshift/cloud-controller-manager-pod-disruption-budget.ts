import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { OPERAND_NAMESPACE } from './constants';
import { CCM_PLATFORM_LABEL } from './pod-conventions';
import { pdbSetsEvictionPolicy } from './release-operands';
import { PlatformType } from '../cluster-spec/schema';
import { addCcmPodDisruptionBudget } from '../constructs/ccm-pod-disruption-budget';

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
  /**
   * The cluster's release: `unhealthyPodEvictionPolicy` only where its operator sets it (`pdbSetsEvictionPolicy`).
   *
   * @default - main's shape
   */
  readonly release?: string;
}

/**
 * The PodDisruptionBudget the operator adds to every platform with more than
 * one control-plane replica (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/cloud/common/resources.go): one pod must stay, and
 * unhealthy pods may always be evicted.
 */
export class CloudControllerManagerPodDisruptionBudget extends Construct {
  /** The PDB object. */
  public readonly apiObject: ApiObject;

  constructor(scope: Construct, id: string, props: CloudControllerManagerPodDisruptionBudgetProps) {
    super(scope, id);
    this.apiObject = addCcmPodDisruptionBudget(this, 'Resource', {
      name: `${props.platformType.toLowerCase()}-cloud-controller-manager`,
      namespace: OPERAND_NAMESPACE,
      budget: { minAvailable: 1 },
      unhealthyPodEvictionPolicy: props.shape === 'release-4.16' || !pdbSetsEvictionPolicy(props.release) ? undefined : 'AlwaysAllow',
      selector: { [CCM_PLATFORM_LABEL]: props.platformType },
    });
  }
}
