import { Construct } from 'constructs';
import { CloudControllerManagerClusterOperator } from './cloud-controller-manager-cluster-operator';
import { CloudControllerManagerNamespace } from './cloud-controller-manager-namespace';
import { OPERAND_NAMESPACE, OPERATOR_NAMESPACE } from './constants';
import { DefaultDenyNetworkPolicy } from './default-deny-network-policy';
import { OpenStackRbac } from './openstack-rbac';
import { platformFactsFor } from './platform-facts';
import { OperatorDeployment } from './operator-deployment';
import { OperatorImagesConfigMap } from './operator-images-config-map';
import { OperatorMetricsService } from './operator-metrics-service';
import { OperatorRbac } from './operator-rbac';
import { ProviderRbac } from './provider-rbac';
import { TrustedCaConfigMap } from './trusted-ca-config-map';
import { ProxySettings } from './pod-conventions';
import { PlatformType } from '../cluster-spec/schema';
import { KUBE_RBAC_PROXY_IMAGE_KEY } from '../cluster-spec/images';
import { payloadHas } from './release-payload';

/** Who renders the operands. */
export type ManagementMode = 'gitops' | 'operator';

/** Properties for `OpenShiftStaticSet`. */
export interface OpenShiftStaticSetProps {
  /** The cluster's platform; gates the platform-specific static RBAC. */
  readonly platformType: PlatformType;
  /**
   * `gitops`: this generator renders the operands; `operator`: the in-cluster
   * operator does, so its Deployment, images ConfigMap, RBAC and metrics
   * Service are rendered.
   *
   * @default "gitops"
   */
  readonly managementMode?: ManagementMode;
  /**
   * Images by images.json key (`operator` mode).
   *
   * @default - none
   */
  readonly images?: Readonly<Record<string, string | undefined>>;
  /**
   * Whether the platform runs a cloud node manager DaemonSet.
   *
   * @default false
   */
  readonly cloudNodeManager?: boolean;
  /**
   * Proxy settings for the operator (`operator` mode).
   *
   * @default - no proxy
   */
  readonly proxy?: ProxySettings;
  /**
   * The cluster's OpenShift release (`spec.openshift.release`); required in
   * `operator` mode, where the operator reports it. Before 4.20 the payload
   * has no default-deny NetworkPolicies, and none are rendered.
   *
   * @default - none
   */
  readonly release?: string;
}

/**
 * The operator's static manifests (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c manifests/) for one cluster: both
 * namespaces, their default-deny NetworkPolicies, the operand RBAC, the
 * OpenStack RBAC (OpenStack clusters only), the `ccm-trusted-ca` ConfigMap
 * and the ClusterOperator; in `operator` mode also the operator's RBAC,
 * metrics Service, images ConfigMap and Deployment. The platform's
 * CredentialsRequest is rendered by the platform.
 */
export class OpenShiftStaticSet extends Construct {
  constructor(scope: Construct, id: string, props: OpenShiftStaticSetProps) {
    super(scope, id);
    const mode = props.managementMode ?? 'gitops';
    new CloudControllerManagerNamespace(this, 'OperatorNamespace', { name: OPERATOR_NAMESPACE });
    new CloudControllerManagerNamespace(this, 'OperandNamespace', { name: OPERAND_NAMESPACE });
    if (payloadHas(props.release, 'defaultDenyNetworkPolicies')) {
      new DefaultDenyNetworkPolicy(this, 'OperatorNamespaceDefaultDeny', { namespace: OPERATOR_NAMESPACE });
      new DefaultDenyNetworkPolicy(this, 'OperandNamespaceDefaultDeny', { namespace: OPERAND_NAMESPACE });
    }
    new ProviderRbac(this, 'ProviderRbac', { cloudNodeManager: props.cloudNodeManager, release: props.release });
    if (platformFactsFor(props.platformType)?.kubeSystemServiceAccountRbac) {
      new OpenStackRbac(this, 'OpenStackRbac');
    }
    new CloudControllerManagerClusterOperator(this, 'ClusterOperator');
    if (mode === 'gitops') {
      // In operator mode the operator's config-sync controller builds ccm-trusted-ca itself.
      new TrustedCaConfigMap(this, 'TrustedCa');
      return;
    }
    const image = props.images?.cloudControllerManagerOperator;
    if (!image) {
      throw new Error("'images.cloudControllerManagerOperator' is required in operator mode, got none");
    }
    if (!props.release) {
      throw new Error("'spec.openshift.release' is required in operator mode, got none");
    }
    new OperatorRbac(this, 'OperatorRbac', { release: props.release });
    new OperatorMetricsService(this, 'MetricsService', { release: props.release });
    // kube-rbac-proxy is the Deployment's own sidecar image, not an images.json key.
    const { [KUBE_RBAC_PROXY_IMAGE_KEY]: kubeRbacProxyImage, ...operandImages } = props.images ?? {};
    const images = new OperatorImagesConfigMap(this, 'Images', { images: operandImages });
    new OperatorDeployment(this, 'Operator', {
      image,
      imagesData: images.data,
      proxy: props.proxy,
      releaseVersion: props.release,
      kubeRbacProxyImage: payloadHas(props.release, 'operatorServesMetrics') ? undefined : kubeRbacProxyImage,
    });
  }
}
