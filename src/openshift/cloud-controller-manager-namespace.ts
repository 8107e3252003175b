import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { RELEASE_ANNOTATIONS } from './constants';

/** Properties for `CloudControllerManagerNamespace`. */
export interface CloudControllerManagerNamespaceProps {
  /** Namespace name. */
  readonly name: string;
}

/**
 * One of the operator's two namespaces (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c manifests/0000_26_cloud-controller-manager-operator_00_namespace.yaml): run-level 0 (no SCC
 * admission), cluster monitoring on, privileged pod security, no default node
 * selector, management workload partitioning.
 */
export class CloudControllerManagerNamespace extends Construct {
  /** The Namespace object. */
  public readonly apiObject: ApiObject;

  constructor(scope: Construct, id: string, props: CloudControllerManagerNamespaceProps) {
    super(scope, id);
    this.apiObject = new k8s.KubeNamespace(this, 'Resource', {
      metadata: {
        name: props.name,
        annotations: {
          ...RELEASE_ANNOTATIONS,
          'openshift.io/node-selector': '',
          'workload.openshift.io/allowed': 'management',
        },
        labels: {
          'openshift.io/run-level': '0',
          'openshift.io/cluster-monitoring': 'true',
          'pod-security.kubernetes.io/enforce': 'privileged',
          'pod-security.kubernetes.io/audit': 'privileged',
          'pod-security.kubernetes.io/warn': 'privileged',
        },
      },
    });
  }
}
