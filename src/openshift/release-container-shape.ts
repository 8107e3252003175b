import { ApiObject, JsonPatch } from 'cdk8s';
import { operandRenders } from './release-operands';

/** JSON-pointer form of the pod's management-workload annotation key. */
const MANAGEMENT_WORKLOAD_ANNOTATION_POINTER = '/spec/template/metadata/annotations/target.workload.openshift.io~1management';

/**
 * Gives a CCM Deployment the container shape of `release` where the neutral pod shape is main's:
 * before 4.16 the operator's CCM container has no `terminationMessagePolicy`
 * (openshift/cluster-cloud-controller-manager-operator@release-4.15 pkg/cloud/aws/assets/deployment.yaml,
 * pkg/cloud/gcp/assets/cloud-controller-manager.yaml). `withoutWorkloadAnnotation` drops the pod's
 * management-workload annotation (GCP before 4.14).
 */
export function releaseContainerShape(deployment: ApiObject, release: string | undefined, withoutWorkloadAnnotation = false): void {
  if (!operandRenders(release, 'terminationMessagePolicy')) {
    deployment.addJsonPatch(JsonPatch.remove('/spec/template/spec/containers/0/terminationMessagePolicy'));
  }
  if (withoutWorkloadAnnotation) {
    deployment.addJsonPatch(JsonPatch.remove(MANAGEMENT_WORKLOAD_ANNOTATION_POINTER));
  }
}
