import { Construct } from 'constructs';
import { CloudControllerManagerDeployment } from '../cloud-controller-manager-deployment';
import { CommonOperands } from '../common-operands';
import { CLOUD_CONF_CONFIG_MAP } from '../constants';
import { OperandProps } from '../operand-props';
import { LEADER_ELECTION_FLAGS, standardTolerations } from '../pod-conventions';
import { releaseTlsFlags } from '../release-operands';
import { OPENSTACK_CREDENTIALS_SECRET } from './facts';

/** Properties for `OpenStackCloudControllerManager`. */
export interface OpenStackCloudControllerManagerProps extends OperandProps {
  /** The OpenStack CCM image (images.json `cloudControllerManagerOpenStack`). */
  readonly image: string;
  /** Infrastructure `status.infrastructureName` (the `--cluster-name`). */
  readonly infrastructureName: string;
  /**
   * Value of `--feature-gates` (see `upstreamFeatureGatesFlag`); the flag is left out when empty.
   *
   * @default ""
   */
  readonly featureGates?: string;
}

/**
 * Everything the operator renders for OpenStack (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/cloud/openstack/): the
 * `openstack-cloud-controller-manager` Deployment reading `clouds.yaml` from
 * `openstack-cloud-credentials`, `cloud-conf`, the PDB and the Service (the
 * OpenStack RBAC is part of the static set).
 *
 * Fixed: `serviceAccountName` instead of the deprecated `serviceAccount`; the
 * standard tolerations (with the NoExecute entries, so a pod leaves an
 * unreachable node after 120 s instead of 300 s) plus `CriticalAddonsOnly`;
 * no empty `--feature-gates=`.
 */
export class OpenStackCloudControllerManager extends Construct {
  /** The Deployment. */
  public readonly deployment: CloudControllerManagerDeployment;

  constructor(scope: Construct, id: string, props: OpenStackCloudControllerManagerProps) {
    super(scope, id);
    if (!props.infrastructureName) {
      throw new Error('\'infrastructureName\' must be set for OpenStack, got ""');
    }
    const common = new CommonOperands(this, 'Common', { platformType: 'OpenStack', ...props });
    this.deployment = new CloudControllerManagerDeployment(this, 'Deployment', {
      name: 'openstack-cloud-controller-manager',
      platformLabel: 'OpenStack',
      image: props.image,
      binary: '/usr/bin/openstack-cloud-controller-manager',
      flags: [
        '--v=1',
        '--cloud-config=$(CLOUD_CONFIG)',
        '--cloud-provider=openstack',
        '--cluster-name=$(OCP_INFRASTRUCTURE_NAME)',
        '--use-service-account-credentials=true',
        '--configure-cloud-routes=false',
        '--bind-address=127.0.0.1',
        ...LEADER_ELECTION_FLAGS,
        ...(props.featureGates ? [`--feature-gates=${props.featureGates}`] : []),
        ...releaseTlsFlags(props.release, props.tls),
        '--secure-port=0',
      ],
      env: [
        { name: 'CLOUD_CONFIG', value: '/etc/openstack/config/cloud.conf' },
        { name: 'OCP_INFRASTRUCTURE_NAME', value: props.infrastructureName },
      ],
      volumes: [
        { name: 'secret-occm', secret: { secretName: OPENSTACK_CREDENTIALS_SECRET, items: [{ key: 'clouds.yaml', path: 'clouds.yaml' }] } },
        { name: 'cloud-config', configMap: { name: CLOUD_CONF_CONFIG_MAP, items: [{ key: 'cloud.conf', path: 'cloud.conf' }] } },
      ],
      volumeMounts: [
        { name: 'secret-occm', mountPath: '/etc/openstack/secret', readOnly: true },
        { name: 'cloud-config', mountPath: '/etc/openstack/config', readOnly: true },
      ],
      tolerations: [{ key: 'CriticalAddonsOnly', operator: 'Exists' }, ...standardTolerations()],
      // openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/cloud/openstack/assets/deployment.yaml
      mountOrder: ['host-etc-kube', 'secret-occm', 'cloud-config', 'trusted-ca'],
      volumeOrder: ['host-etc-kube', 'secret-occm', 'trusted-ca', 'cloud-config'],
      cpu: '200m',
      memory: '50Mi',
      mountedConfig: { configMaps: { [CLOUD_CONF_CONFIG_MAP]: common.cloudConfData() } },
      singleReplica: props.singleReplica,
      leaderMigration: props.leaderMigration,
      proxy: props.proxy,
    });
  }
}
