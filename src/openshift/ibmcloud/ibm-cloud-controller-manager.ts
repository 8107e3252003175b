import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { CloudControllerManagerDeployment } from '../cloud-controller-manager-deployment';
import { CommonOperands } from '../common-operands';
import { CLOUD_CONF_CONFIG_MAP } from '../constants';
import { OperandProps } from '../operand-props';
import { LEADER_ELECTION_FLAGS } from '../pod-conventions';
import { releaseTlsFlags } from '../release-operands';
import { IBM_CREDENTIALS_SECRET } from './facts';

/** The volumes of the IBM CCM binary: all of `cloud-conf` at /etc/ibm and the credentials at /etc/vpc. */
export function ibmVolumes(): { volumes: k8s.Volume[]; volumeMounts: k8s.VolumeMount[] } {
  return {
    volumes: [
      { name: 'cloud-conf', configMap: { name: CLOUD_CONF_CONFIG_MAP, defaultMode: 420 } },
      { name: 'ibm-cloud-credentials', secret: { secretName: IBM_CREDENTIALS_SECRET, defaultMode: 420 } },
    ],
    volumeMounts: [
      { name: 'cloud-conf', mountPath: '/etc/ibm' },
      { name: 'ibm-cloud-credentials', mountPath: '/etc/vpc' },
    ],
  };
}

/** The IBM CCM flags around the leader-election and TLS flags; Power VS has no `--bind-address`. */
export function ibmFlags(bindAddress: boolean, tls: OperandProps['tls'], release: string | undefined): string[] {
  return [
    ...(bindAddress ? ['--bind-address=127.0.0.1'] : []),
    '--use-service-account-credentials=true',
    '--configure-cloud-routes=false',
    '--cloud-provider=ibm',
    '--cloud-config=/etc/ibm/cloud.conf',
    '--profiling=false',
    ...LEADER_ELECTION_FLAGS,
    ...releaseTlsFlags(release, tls, 'ibm'),
    '--v=2',
  ];
}

/** Properties for `IbmCloudControllerManager`. */
export interface IbmCloudControllerManagerProps extends OperandProps {
  /** The IBM CCM image (images.json `cloudControllerManagerIBM`). */
  readonly image: string;
  /**
   * Reach the VPC API through its public endpoint (`VPCCTL_PUBLIC_ENDPOINT`).
   *
   * @default false
   */
  readonly publicEndpoint?: boolean;
}

/**
 * Everything the operator renders for IBM Cloud (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/cloud/ibm/): the
 * `ibm-cloud-controller-manager` Deployment (the only CCM serving 10258,
 * probed there on 127.0.0.1), `cloud-conf`, and the PDB and Service, named
 * `ibmcloud-cloud-controller-manager` after the platform type.
 */
export class IbmCloudControllerManager extends Construct {
  /** The Deployment. */
  public readonly deployment: CloudControllerManagerDeployment;

  constructor(scope: Construct, id: string, props: IbmCloudControllerManagerProps) {
    super(scope, id);
    const common = new CommonOperands(this, 'Common', { platformType: 'IBMCloud', ...props });
    this.deployment = new CloudControllerManagerDeployment(this, 'Deployment', {
      name: 'ibm-cloud-controller-manager',
      platformLabel: 'IBMCloud',
      image: props.image,
      binary: '/bin/ibm-cloud-controller-manager',
      flags: ibmFlags(true, props.tls, props.release),
      env: [
        { name: 'VPCCTL_CLOUD_CONFIG', value: '/etc/ibm/cloud.conf' },
        { name: 'VPCCTL_PUBLIC_ENDPOINT', value: props.publicEndpoint ? 'true' : 'false' },
      ],
      ...ibmVolumes(),
      livenessProbe: {
        httpGet: { host: '127.0.0.1', path: '/healthz', port: k8s.IntOrString.fromNumber(10258), scheme: 'HTTPS' },
        initialDelaySeconds: 300,
        periodSeconds: 10,
        timeoutSeconds: 160,
        failureThreshold: 3,
        successThreshold: 1,
      },
      terminationGracePeriodSeconds: 90,
      // openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/cloud/ibm/assets/deployment.yaml
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
