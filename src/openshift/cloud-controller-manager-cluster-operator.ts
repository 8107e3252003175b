import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { RELEASE_ANNOTATIONS } from './constants';
import { ClusterOperator } from '../../imports/clusteroperators-config.openshift.io';

/**
 * ClusterOperator `cloud-controller-manager` (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c manifests/0000_26_cloud-controller-manager-operator_60_clusteroperator.yaml). The operator's
 * manifest also carries `status.versions` and `status.relatedObjects`; they
 * are left out because the API server ignores status on create and update
 * (status subresource), so from git they would only mislead. The operator
 * writes them at run time in `operator` mode.
 */
export class CloudControllerManagerClusterOperator extends Construct {
  /** The ClusterOperator object. */
  public readonly apiObject: ApiObject;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.apiObject = new ClusterOperator(this, 'Resource', {
      metadata: {
        name: 'cloud-controller-manager',
        annotations: { ...RELEASE_ANNOTATIONS, 'exclude.release.openshift.io/internal-openshift-hosted': 'true' },
      },
      spec: {},
    });
  }
}
