import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { OPERAND_NAMESPACE } from './constants';
import { CCM_PLATFORM_LABEL } from './pod-conventions';
import { PlatformType } from '../cluster-spec/schema';

/** Properties for `CloudControllerManagerService`. */
export interface CloudControllerManagerServiceProps {
  /** Platform type; names the Service `<lower-case type>-cloud-controller-manager` and selects its pods. */
  readonly platformType: PlatformType;
  /**
   * `release-4.16`: the Service as release 4.16 generated it, with the
   * `webhooks` port 10260 (…@release-4.16 pkg/cloud/common/resources.go getService);
   * used for Alibaba Cloud, whose operands exist only in 4.16.
   *
   * @default "main"
   */
  readonly shape?: 'main' | 'release-4.16';
}

/**
 * The ClusterIP Service on port 10258 the operator adds to every platform
 * (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/cloud/common/resources.go) so the host port the CCM pods declare has
 * EndpointSlices. Written as `apiVersion: v1` (the operator's Go type says
 * `core/v1`).
 */
export class CloudControllerManagerService extends Construct {
  /** The Service object. */
  public readonly apiObject: ApiObject;

  constructor(scope: Construct, id: string, props: CloudControllerManagerServiceProps) {
    super(scope, id);
    const name = `${props.platformType.toLowerCase()}-cloud-controller-manager`;
    this.apiObject = new k8s.KubeService(this, 'Resource', {
      metadata: { name, namespace: OPERAND_NAMESPACE, labels: { 'k8s-app': name } },
      spec: {
        type: 'ClusterIP',
        ports:
          props.shape === 'release-4.16'
            ? [
                { name: 'https', port: 10258 },
                { name: 'webhooks', port: 10260, targetPort: k8s.IntOrString.fromNumber(10260) },
              ]
            : [{ name: 'https', port: 10258, protocol: 'TCP' }],
        selector: { [CCM_PLATFORM_LABEL]: props.platformType },
        sessionAffinity: 'None',
      },
    });
  }
}
