import { Construct } from 'constructs';
import { AzureCloudNodeManager } from './azure-cloud-node-manager';
import { AzureCloudProviderRbac } from './azure-cloud-provider-rbac';
import {
  azureCloudConfVolume,
  azureCredentialsMounted,
  azureCredentialsVolume,
  azureStackHubInjectCredentials,
  emptyDirVolume,
} from './credentials-injector';
import { CloudControllerManagerDeployment } from '../cloud-controller-manager-deployment';
import { CommonOperands } from '../common-operands';
import { CLOUD_CONF_CONFIG_MAP } from '../constants';
import { OperandProps } from '../operand-props';
import { LEADER_ELECTION_FLAGS } from '../pod-conventions';
import { releaseTlsFlags } from '../release-operands';

/** Properties for `AzureStackHubCloudControllerManager`. */
export interface AzureStackHubCloudControllerManagerProps extends OperandProps {
  /** The Azure CCM image (images.json `cloudControllerManagerAzure`). */
  readonly image: string;
  /** The cloud node manager image (images.json `cloudNodeManagerAzure`). */
  readonly nodeManagerImage: string;
  /** The operator image, which carries the credentials injector (images.json `cloudControllerManagerOperator`). */
  readonly operatorImage: string;
  /** Infrastructure `status.infrastructureName` (the `--cluster-name`). */
  readonly infrastructureName: string;
}

/**
 * Everything the operator renders for Azure Stack Hub (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/cloud/azurestack/):
 * the CCM Deployment and `azure-cloud-node-manager` DaemonSet, both reading
 * the Azure Stack environment file (`cloud-conf` key `endpoints`) and a
 * config the injector merged with `azure-cloud-credentials`, the platform
 * RBAC, `cloud-conf`, the PDB and the Service. No admission policies.
 */
export class AzureStackHubCloudControllerManager extends Construct {
  /** The CCM Deployment. */
  public readonly deployment: CloudControllerManagerDeployment;
  /** The node manager DaemonSet. */
  public readonly nodeManager: AzureCloudNodeManager;

  constructor(scope: Construct, id: string, props: AzureStackHubCloudControllerManagerProps) {
    super(scope, id);
    if (!props.infrastructureName) {
      throw new Error('\'infrastructureName\' must be set for Azure Stack Hub, got ""');
    }
    if (props.cloudConfExtraData?.endpoints === undefined) {
      throw new Error("'cloudConfExtraData.endpoints' (the Azure Stack Hub environment file) must be set, got none");
    }
    const common = new CommonOperands(this, 'Common', { platformType: 'Azure', ...props });
    const mountedConfig = { configMaps: { [CLOUD_CONF_CONFIG_MAP]: common.cloudConfData() } };
    const release = props.release;
    this.deployment = new CloudControllerManagerDeployment(this, 'Deployment', {
      name: 'azure-cloud-controller-manager',
      platformLabel: 'Azure',
      image: props.image,
      binary: '/bin/azure-cloud-controller-manager',
      flags: [
        '--v=6',
        '--cloud-config=$(CLOUD_CONFIG)',
        '--cloud-provider=azure',
        '--controllers=*,-cloud-node',
        '--configure-cloud-routes=false',
        '--use-service-account-credentials=true',
        '--bind-address=127.0.0.1',
        '--cluster-name=$(OCP_INFRASTRUCTURE_NAME)',
        ...LEADER_ELECTION_FLAGS,
        ...releaseTlsFlags(release, props.tls),
        '--secure-port=0',
      ],
      env: [
        { name: 'CLOUD_CONFIG', value: '/etc/cloud-config/cloud.conf' },
        { name: 'OCP_INFRASTRUCTURE_NAME', value: props.infrastructureName },
        { name: 'AZURE_ENVIRONMENT_FILEPATH', value: '/etc/cloud-config-original/endpoints.conf' },
      ],
      initContainers: [azureStackHubInjectCredentials(props.operatorImage, release)],
      volumes: [azureCloudConfVolume(true), ...(azureCredentialsMounted(release) ? [azureCredentialsVolume()] : []), emptyDirVolume('cloud-config')],
      volumeMounts: [
        { name: 'config-accm', mountPath: '/etc/cloud-config-original', readOnly: true },
        { name: 'cloud-config', mountPath: '/etc/cloud-config', readOnly: true },
      ],
      // openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/cloud/azurestack/assets/cloud-controller-manager-deployment.yaml
      mountOrder: ['host-etc-kube', 'config-accm', 'cloud-config', 'trusted-ca'],
      volumeOrder: ['config-accm', 'host-etc-kube', 'cloud-sa-volume', 'trusted-ca', 'cloud-config'],
      cpu: '200m',
      memory: '50Mi',
      mountedConfig,
      singleReplica: props.singleReplica,
      proxy: props.proxy,
    });
    this.nodeManager = new AzureCloudNodeManager(this, 'NodeManager', {
      image: props.nodeManagerImage,
      operatorImage: props.operatorImage,
      stackHub: true,
      mountedConfig,
      proxy: props.proxy,
      release,
    });
    new AzureCloudProviderRbac(this, 'Rbac', { release });
  }
}
