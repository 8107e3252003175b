import { Construct } from 'constructs';
import { CloudControllerManagerDeployment } from '../cloud-controller-manager-deployment';
import { CommonOperands } from '../common-operands';
import { CLOUD_CONF_CONFIG_MAP } from '../constants';
import { OperandProps } from '../operand-props';
import { PlatformRole } from '../../constructs/platform-role';
import { LEADER_ELECTION_FLAGS } from '../pod-conventions';
import { changedAnnotationVariables, ValidatingAdmissionPolicy } from '../validating-admission-policy';
import { GCP_CREDENTIALS_SECRET } from './facts';
import { operandRenders, releaseTlsFlags } from '../release-operands';
import { releaseContainerShape } from '../release-container-shape';

/** Service annotation whose value the GCP admission policy checks. */
export const GCP_NETWORK_TIER_ANNOTATION = 'cloud.google.com/network-tier';

/** Properties for `GcpCloudControllerManager`. */
export interface GcpCloudControllerManagerProps extends OperandProps {
  /** The GCP CCM image (images.json `cloudControllerManagerGCP`). */
  readonly image: string;
  /** Infrastructure `status.infrastructureName` (the `--cluster-name`). */
  readonly infrastructureName: string;
}

/**
 * Everything the operator renders for GCP (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/cloud/gcp/): the
 * `gcp-cloud-controller-manager` Deployment with the service-account key of
 * `gcp-ccm-cloud-credentials`, the ClusterRole the cloud provider's own
 * identity (`kube-system/cloud-provider`) needs for events and Service
 * status, the network-tier admission policy, `cloud-conf`, the PDB and the
 * Service.
 */
export class GcpCloudControllerManager extends Construct {
  /** The Deployment. */
  public readonly deployment: CloudControllerManagerDeployment;

  constructor(scope: Construct, id: string, props: GcpCloudControllerManagerProps) {
    super(scope, id);
    if (!props.infrastructureName) {
      throw new Error('\'infrastructureName\' must be set for GCP, got ""');
    }
    const common = new CommonOperands(this, 'Common', { platformType: 'GCP', ...props });
    const release = props.release;
    // The release's own form where it differs in data (OPERAND_PARTS_SINCE): a migration runs on releases before 4.22.
    this.deployment = new CloudControllerManagerDeployment(this, 'Deployment', {
      name: 'gcp-cloud-controller-manager',
      platformLabel: 'GCP',
      image: props.image,
      binary: '/bin/gcp-cloud-controller-manager',
      flags: [
        '--v=3',
        '--cloud-config=$(CLOUD_CONFIG)',
        '--cloud-provider=gce',
        ...(operandRenders(release, 'gcpConcurrentServiceSyncs') ? ['--concurrent-service-syncs=10'] : []),
        '--controllers=*,-nodeipam',
        '--configure-cloud-routes=false',
        '--use-service-account-credentials=true',
        '--bind-address=127.0.0.1',
        '--cluster-name=$(OCP_INFRASTRUCTURE_NAME)',
        ...LEADER_ELECTION_FLAGS,
        ...releaseTlsFlags(release, props.tls),
        ...(operandRenders(release, 'securePortOff') ? ['--secure-port=0'] : []),
      ],
      env: [
        { name: 'CLOUD_CONFIG', value: '/etc/kubernetes-cloud-config/cloud.conf' },
        { name: 'OCP_INFRASTRUCTURE_NAME', value: props.infrastructureName },
        { name: 'GOOGLE_APPLICATION_CREDENTIALS', value: '/etc/cloud-sa/service_account.json' },
      ],
      volumes: [
        { name: 'config-gccm', configMap: { name: CLOUD_CONF_CONFIG_MAP, items: [{ key: 'cloud.conf', path: 'cloud.conf' }] } },
        { name: 'cloud-sa-volume', secret: { secretName: GCP_CREDENTIALS_SECRET } },
      ],
      volumeMounts: [
        { name: 'config-gccm', mountPath: '/etc/kubernetes-cloud-config', readOnly: true },
        { name: 'cloud-sa-volume', mountPath: '/etc/cloud-sa', readOnly: true },
      ],
      cpu: '200m',
      memory: '128Mi',
      mountedConfig: { configMaps: { [CLOUD_CONF_CONFIG_MAP]: common.cloudConfData() } },
      singleReplica: props.singleReplica,
      leaderMigration: props.leaderMigration,
      proxy: props.proxy,
    });
    releaseContainerShape(this.deployment.apiObject, release, !operandRenders(release, 'gcpWorkloadAnnotation'));
    if (operandRenders(release, 'gcpClusterRole')) {
      this.cloudProviderRole();
    }
    if (operandRenders(release, 'gcpAdmissionPolicy')) {
      this.networkTierPolicy();
    }
  }

  /** The ClusterRole the cloud provider's own identity needs for events and Service status (…@release-4.16 pkg/cloud/gcp/assets/). */
  private cloudProviderRole(): void {
    new PlatformRole(this, 'CloudProviderRole', {
      name: 'gcp-cloud-controller-manager',
      rules: [
        { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch', 'update'] },
        { apiGroups: [''], resources: ['services/status'], verbs: ['patch', 'update'] },
      ],
      bindingName: 'gcp-cloud-controller-manager:cloud-provider',
      serviceAccounts: ['kube-system/cloud-provider'],
    });
  }

  /** The network-tier admission policy (…@release-4.19 pkg/cloud/gcp/assets/validating-admission-policy*.yaml). */
  private networkTierPolicy(): void {
    new ValidatingAdmissionPolicy(this, 'NetworkTierPolicy', {
      name: 'network-tier-annotation-validation-policy',
      bindingName: 'network-tier-annotation-binding',
      spec: {
        matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['services'] }] },
        variables: changedAnnotationVariables(GCP_NETWORK_TIER_ANNOTATION, 'NetworkTier'),
        validations: [
          {
            expression: "!variables.valueHasChanged || variables.networkTierValue in ['Standard', 'Premium']\n",
            message: `The annotation '${GCP_NETWORK_TIER_ANNOTATION}', if specified, must be either 'Standard' or 'Premium'.`,
          },
        ],
      },
    });
  }
}
