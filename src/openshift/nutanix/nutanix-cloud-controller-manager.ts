import { Construct } from 'constructs';
import { CloudControllerManagerDeployment } from '../cloud-controller-manager-deployment';
import { CommonOperands } from '../common-operands';
import { CLOUD_CONF_CONFIG_MAP, OPERAND_NAMESPACE } from '../constants';
import { OperandProps } from '../operand-props';
import { PlatformRole } from '../../constructs/platform-role';
import { LEADER_ELECTION_FLAGS } from '../pod-conventions';
import { releaseTlsFlags } from '../release-operands';
import { NUTANIX_CREDENTIALS_SECRET } from './facts';

/** The identity the Nutanix cloud provider's own client runs as. */
const CLOUD_PROVIDER_IDENTITY = 'kube-system/cloud-provider-nutanix';

/** Properties for `NutanixCloudControllerManager`. */
export interface NutanixCloudControllerManagerProps extends OperandProps {
  /** The Nutanix CCM image (images.json `cloudControllerManagerNutanix`). */
  readonly image: string;
  /** Infrastructure `status.infrastructureName` (the `--cluster-name`). */
  readonly infrastructureName: string;
}

/**
 * Everything the operator renders for Nutanix (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/cloud/nutanix/): the
 * `nutanix-cloud-controller-manager` Deployment, which reads Prism
 * credentials from Secret `nutanix-credentials` through the API and its
 * config as `nutanix_config.json`, the Role and ClusterRole of the cloud
 * provider's own identity (`kube-system/cloud-provider-nutanix`),
 * `cloud-conf`, the PDB and the Service.
 */
export class NutanixCloudControllerManager extends Construct {
  /** The Deployment. */
  public readonly deployment: CloudControllerManagerDeployment;

  constructor(scope: Construct, id: string, props: NutanixCloudControllerManagerProps) {
    super(scope, id);
    if (!props.infrastructureName) {
      throw new Error('\'infrastructureName\' must be set for Nutanix, got ""');
    }
    const common = new CommonOperands(this, 'Common', { platformType: 'Nutanix', ...props });
    this.deployment = new CloudControllerManagerDeployment(this, 'Deployment', {
      name: 'nutanix-cloud-controller-manager',
      platformLabel: 'Nutanix',
      image: props.image,
      binary: '/bin/nutanix-cloud-controller-manager',
      flags: [
        '--v=3',
        '--cloud-provider=nutanix',
        '--cloud-config=/etc/cloud/nutanix_config.json',
        '--controllers=*',
        '--configure-cloud-routes=false',
        '--cluster-name=$(OCP_INFRASTRUCTURE_NAME)',
        '--use-service-account-credentials=true',
        ...LEADER_ELECTION_FLAGS,
        ...releaseTlsFlags(props.release, props.tls, 'nutanix'),
        '--secure-port=0',
      ],
      env: [
        { name: 'OCP_INFRASTRUCTURE_NAME', value: props.infrastructureName },
        { name: 'NUTANIX_SECRET_NAMESPACE', value: OPERAND_NAMESPACE },
        { name: 'NUTANIX_SECRET_NAME', value: NUTANIX_CREDENTIALS_SECRET },
        { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
      ],
      volumes: [{ name: 'nutanix-config', configMap: { name: CLOUD_CONF_CONFIG_MAP, items: [{ key: 'cloud.conf', path: 'nutanix_config.json' }] } }],
      volumeMounts: [{ name: 'nutanix-config', mountPath: '/etc/cloud', readOnly: true }],
      // openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/cloud/nutanix/assets/cloud-controller-manager-deployment.yaml
      mountOrder: ['nutanix-config', 'host-etc-kube', 'trusted-ca'],
      volumeOrder: ['nutanix-config', 'trusted-ca', 'host-etc-kube'],
      cpu: '200m',
      memory: '128Mi',
      mountedConfig: { configMaps: { [CLOUD_CONF_CONFIG_MAP]: common.cloudConfData() } },
      singleReplica: props.singleReplica,
      proxy: props.proxy,
    });
    new PlatformRole(this, 'CredentialsRole', {
      name: 'nutanix-cloud-controller-manager',
      namespace: OPERAND_NAMESPACE,
      rules: [{ apiGroups: [''], resources: ['secrets', 'configmaps'], verbs: ['get', 'list', 'watch'] }],
      bindingName: 'nutanix-cloud-controller-manager:nutanix-cloud-controller-manager',
      serviceAccounts: [CLOUD_PROVIDER_IDENTITY],
    });
    new PlatformRole(this, 'NodesRole', {
      name: 'nutanix-cloud-controller-manager',
      rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch', 'patch'] }],
      bindingName: 'nutanix-cloud-controller-manager:nutanix-cloud-controller-manager',
      serviceAccounts: [CLOUD_PROVIDER_IDENTITY],
    });
  }
}
