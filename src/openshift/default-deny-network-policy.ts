import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { RELEASE_ANNOTATIONS } from './constants';

/** Properties for `DefaultDenyNetworkPolicy`. */
export interface DefaultDenyNetworkPolicyProps {
  /** Namespace the policy applies to. */
  readonly namespace: string;
}

/**
 * NetworkPolicy `default-deny` (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c manifests/0000_26_cloud-controller-manager-operator_10_networkpolicy-default-deny.yaml): all ingress and egress denied
 * for non-hostNetwork pods. The CCM and operator pods use the host network and
 * are not affected.
 */
export class DefaultDenyNetworkPolicy extends Construct {
  /** The NetworkPolicy object. */
  public readonly apiObject: ApiObject;

  constructor(scope: Construct, id: string, props: DefaultDenyNetworkPolicyProps) {
    super(scope, id);
    this.apiObject = new k8s.KubeNetworkPolicy(this, 'Resource', {
      metadata: { name: 'default-deny', namespace: props.namespace, annotations: { ...RELEASE_ANNOTATIONS } },
      spec: { podSelector: {}, policyTypes: ['Ingress', 'Egress'] },
    });
  }
}
