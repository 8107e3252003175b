import { Construct } from 'constructs';
import { CloudControllerManagerDeployment } from '../cloud-controller-manager-deployment';
import { CommonOperands } from '../common-operands';
import { ManagedCloudConfigMap } from '../managed-cloud-config-map';
import { CCM_SERVICE_ACCOUNT, CLOUD_CONF_CONFIG_MAP, OPERAND_NAMESPACE } from '../constants';
import { OperandProps } from '../operand-props';
import { PlatformRole } from '../../constructs/platform-role';
import { PlatformRoleBinding } from '../../constructs/platform-role-binding';
import { LEADER_ELECTION_FLAGS } from '../pod-conventions';
import { operandRenders, releaseTlsFlags } from '../release-operands';
import { VSPHERE_CREDENTIALS_SECRET } from './facts';

/** The node label the CCM sets with `VSphereMixedNodeEnv`. */
export const VSPHERE_PLATFORM_NODE_LABEL = 'node.openshift.io/platform-type=vsphere';
/** The identity the vSphere cloud provider's own client runs as (created by the CCM with `--use-service-account-credentials`). */
const CLOUD_PROVIDER_IDENTITY = 'kube-system/vsphere-cloud-controller-manager';

/** Properties for `VSphereCloudControllerManager`. */
export interface VSphereCloudControllerManagerProps extends OperandProps {
  /** The vSphere CCM image (images.json `cloudControllerManagerVSphere`). */
  readonly image: string;
  /** Infrastructure `status.infrastructureName` (the `--cluster-name`). */
  readonly infrastructureName: string;
  /**
   * Value of `--feature-gates` (see `upstreamFeatureGatesFlag`); the flag is left out when empty.
   *
   * @default ""
   */
  readonly featureGates?: string;
  /**
   * Label nodes `node.openshift.io/platform-type=vsphere` (feature gate `VSphereMixedNodeEnv`).
   *
   * @default false
   */
  readonly mixedNodeEnv?: boolean;
  /**
   * Feature gate `VSphereMultiVCenterDay2`: also write the cloud config to
   * `openshift-config-managed/kube-cloud-config`, as the operator does.
   *
   * @default false
   */
  readonly multiVCenterDay2?: boolean;
}

/**
 * Everything the operator renders for vSphere (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/cloud/vsphere/): the
 * `vsphere-cloud-controller-manager` Deployment, which reads the vCenter
 * credentials from Secret `vsphere-cloud-credentials` through the API, the
 * Role and ClusterRole of the cloud provider's own identity
 * (`kube-system/vsphere-cloud-controller-manager`) with its bindings to them
 * and to the shared `cloud-controller-manager` roles, `cloud-conf`, the PDB
 * and the Service.
 *
 * Left out: the operator's unmounted optional `secret-vccm` volume, which
 * exists only to put the credentials into its config hash; the CCM watches
 * the Secret, so a rotation needs no restart.
 */
export class VSphereCloudControllerManager extends Construct {
  /** The Deployment. */
  public readonly deployment: CloudControllerManagerDeployment;

  constructor(scope: Construct, id: string, props: VSphereCloudControllerManagerProps) {
    super(scope, id);
    if (!props.infrastructureName) {
      throw new Error('\'infrastructureName\' must be set for vSphere, got ""');
    }
    const common = new CommonOperands(this, 'Common', { platformType: 'VSphere', ...props });
    if (props.multiVCenterDay2) {
      new ManagedCloudConfigMap(this, 'ManagedCloudConfig', { data: common.cloudConfData() });
    }
    const nodeLabels = props.mixedNodeEnv ? VSPHERE_PLATFORM_NODE_LABEL : '';
    this.deployment = new CloudControllerManagerDeployment(this, 'Deployment', {
      name: 'vsphere-cloud-controller-manager',
      platformLabel: 'VSphere',
      image: props.image,
      binary: '/bin/vsphere-cloud-controller-manager',
      flags: [
        '--v=3',
        '--cloud-config=$(CLOUD_CONFIG)',
        '--cloud-provider=vsphere',
        '--controllers=*',
        '--configure-cloud-routes=false',
        '--bind-address=127.0.0.1',
        '--cluster-name=$(OCP_INFRASTRUCTURE_NAME)',
        ...LEADER_ELECTION_FLAGS,
        ...(props.featureGates ? [`--feature-gates=${props.featureGates}`] : []),
        '--use-service-account-credentials=true',
        ...(nodeLabels ? ['--node-labels="$(ADDITIONAL_NODE_LABELS)"'] : []),
        ...releaseTlsFlags(props.release, props.tls),
        '--secure-port=0',
      ],
      env: [
        { name: 'CLOUD_CONFIG', value: '/etc/kubernetes-cloud-config/cloud.conf' },
        { name: 'OCP_INFRASTRUCTURE_NAME', value: props.infrastructureName },
        { name: 'VSPHERE_SECRET_NAMESPACE', value: OPERAND_NAMESPACE },
        { name: 'VSPHERE_SECRET_NAME', value: VSPHERE_CREDENTIALS_SECRET },
        { name: 'ENABLE_ALPHA_DUAL_STACK', value: 'true' },
        ...(operandRenders(props.release, 'vsphereNodeLabelsEnv') ? [{ name: 'ADDITIONAL_NODE_LABELS', value: nodeLabels }] : []),
      ],
      volumes: [{ name: 'config-vccm', configMap: { name: CLOUD_CONF_CONFIG_MAP, items: [{ key: 'cloud.conf', path: 'cloud.conf' }] } }],
      volumeMounts: [{ name: 'config-vccm', mountPath: '/etc/kubernetes-cloud-config', readOnly: true }],
      // openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/cloud/vsphere/assets/cloud-controller-manager-deployment.yaml
      mountOrder: ['host-etc-kube', 'config-vccm', 'trusted-ca'],
      volumeOrder: ['config-vccm', 'secret-vccm', 'trusted-ca', 'host-etc-kube'],
      cpu: '200m',
      memory: '128Mi',
      mountedConfig: { configMaps: { [CLOUD_CONF_CONFIG_MAP]: common.cloudConfData() } },
      singleReplica: props.singleReplica,
      leaderMigration: props.leaderMigration,
      proxy: props.proxy,
    });
    new PlatformRole(this, 'CredentialsRole', {
      name: 'vsphere-cloud-controller-manager',
      namespace: OPERAND_NAMESPACE,
      rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch'] }],
      bindingName: 'vsphere-cloud-controller-manager:vsphere-cloud-controller-manager',
      serviceAccounts: [CLOUD_PROVIDER_IDENTITY],
    });
    new PlatformRoleBinding(this, 'LeaseRoleBinding', {
      name: 'vsphere-cloud-controller-manager:cloud-controller-manager',
      namespace: OPERAND_NAMESPACE,
      roleKind: 'Role',
      roleName: CCM_SERVICE_ACCOUNT,
      serviceAccounts: [CLOUD_PROVIDER_IDENTITY],
    });
    new PlatformRole(this, 'NodesRole', {
      name: 'vsphere-cloud-controller-manager',
      rules: [
        { apiGroups: [''], resources: ['nodes'], verbs: ['update'] },
        { apiGroups: [''], resources: ['nodes/status'], verbs: ['patch'] },
      ],
      bindingName: 'vsphere-cloud-controller-manager:vsphere-cloud-controller-manager',
      serviceAccounts: [CLOUD_PROVIDER_IDENTITY],
    });
    new PlatformRoleBinding(this, 'SharedClusterRoleBinding', {
      name: 'vsphere-cloud-controller-manager:cloud-controller-manager',
      roleKind: 'ClusterRole',
      roleName: CCM_SERVICE_ACCOUNT,
      serviceAccounts: [CLOUD_PROVIDER_IDENTITY],
    });
  }
}
