import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { OPERATOR_NAMESPACE, RELEASE_ANNOTATIONS } from './constants';
import { payloadHas } from './release-payload';

/** Properties for `OperatorMetricsService`. */
export interface OperatorMetricsServiceProps {
  /**
   * The cluster's OpenShift release: before 4.22 the Service has the one port `https` of the
   * kube-rbac-proxy sidecar (`PAYLOAD_PARTS_SINCE.operatorServesMetrics`).
   *
   * @default - the current release's ports
   */
  readonly release?: string;
}

/**
 * The operator's headless metrics and webhook Service (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c manifests/0000_26_cloud-controller-manager-operator_05_metrics-service.yaml). The
 * service-ca operator creates its serving certificate Secret from the
 * annotation. Rendered in `operator` mode only.
 */
export class OperatorMetricsService extends Construct {
  /** The Service object. */
  public readonly apiObject: ApiObject;

  constructor(scope: Construct, id: string, props: OperatorMetricsServiceProps = {}) {
    super(scope, id);
    this.apiObject = new k8s.KubeService(this, 'Resource', {
      metadata: {
        name: 'cloud-controller-manager-operator',
        namespace: OPERATOR_NAMESPACE,
        labels: { app: 'cloud-manager-operator' },
        annotations: { ...RELEASE_ANNOTATIONS, 'service.alpha.openshift.io/serving-cert-secret-name': 'cloud-controller-manager-operator-tls' },
      },
      spec: {
        type: 'ClusterIP',
        clusterIp: 'None',
        ports: payloadHas(props.release, 'operatorServesMetrics')
          ? [
              { name: 'metrics', port: 9258, targetPort: k8s.IntOrString.fromString('metrics') },
              { name: 'webhook', port: 9443, targetPort: k8s.IntOrString.fromString('webhook') },
            ]
          : [{ name: 'https', port: 9258, targetPort: k8s.IntOrString.fromString('https') }],
        selector: { 'k8s-app': 'cloud-manager-operator' },
        sessionAffinity: 'None',
      },
    });
  }
}
