import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { CloudControllerManagerDeployment } from '../cloud-controller-manager-deployment';
import { CommonOperands } from '../common-operands';
import { CLOUD_CONF_CONFIG_MAP } from '../constants';
import { OperandProps } from '../operand-props';
import { ibmFlags, ibmVolumes } from '../ibmcloud/ibm-cloud-controller-manager';

/** Properties for `PowerVsCloudControllerManager`. */
export interface PowerVsCloudControllerManagerProps extends OperandProps {
  /** The Power VS CCM image (images.json `cloudControllerManagerPowerVS`). */
  readonly image: string;
}

/**
 * Everything the operator renders for Power VS (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/cloud/powervs/): the
 * `powervs-cloud-controller-manager` Deployment running the IBM CCM binary
 * (no `--bind-address`, public VPC endpoint), `cloud-conf`, the PDB and the
 * Service.
 */
export class PowerVsCloudControllerManager extends Construct {
  /** The Deployment. */
  public readonly deployment: CloudControllerManagerDeployment;

  constructor(scope: Construct, id: string, props: PowerVsCloudControllerManagerProps) {
    super(scope, id);
    const common = new CommonOperands(this, 'Common', { platformType: 'PowerVS', ...props });
    this.deployment = new CloudControllerManagerDeployment(this, 'Deployment', {
      name: 'powervs-cloud-controller-manager',
      platformLabel: 'PowerVS',
      image: props.image,
      binary: '/bin/ibm-cloud-controller-manager',
      flags: ibmFlags(false, props.tls, props.release),
      env: [
        { name: 'VPCCTL_CLOUD_CONFIG', value: '/etc/ibm/cloud.conf' },
        { name: 'ENABLE_VPC_PUBLIC_ENDPOINT', value: 'true' },
      ],
      ...ibmVolumes(),
      livenessProbe: {
        httpGet: { path: '/healthz', port: k8s.IntOrString.fromNumber(10258), scheme: 'HTTPS' },
        initialDelaySeconds: 300,
        timeoutSeconds: 160,
      },
      terminationGracePeriodSeconds: 90,
      // openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/cloud/powervs/assets/deployment.yaml
      mountOrder: ['host-etc-kube', 'cloud-conf', 'ibm-cloud-credentials', 'trusted-ca'],
      volumeOrder: ['trusted-ca', 'host-etc-kube', 'cloud-conf', 'ibm-cloud-credentials'],
      cpu: '75m',
      memory: '60Mi',
      mountedConfig: { configMaps: { [CLOUD_CONF_CONFIG_MAP]: common.cloudConfData() } },
      singleReplica: props.singleReplica,
      proxy: props.proxy,
    });
  }
}
