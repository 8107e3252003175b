import { Construct } from 'constructs';
import { CloudControllerManagerDeployment } from '../cloud-controller-manager-deployment';
import { CommonOperands } from '../common-operands';
import { CLOUD_CONF_CONFIG_MAP } from '../constants';
import { OperandProps } from '../operand-props';
import { LEADER_ELECTION_FLAGS } from '../pod-conventions';
import { ValidatingAdmissionPolicy } from '../validating-admission-policy';
import { operandRenders, releaseTlsFlags } from '../release-operands';
import { releaseContainerShape } from '../release-container-shape';

/** Annotation whose changes the AWS admission policy refuses. */
export const AWS_LOAD_BALANCER_TYPE_ANNOTATION = 'service.beta.kubernetes.io/aws-load-balancer-type';

/** Properties for `AwsCloudControllerManager`. */
export interface AwsCloudControllerManagerProps extends OperandProps {
  /** The AWS CCM image (images.json `cloudControllerManagerAWS`). */
  readonly image: string;
}

/**
 * Everything the operator renders for AWS (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/cloud/aws/): the
 * `aws-cloud-controller-manager` Deployment, the admission policy that
 * freezes the load-balancer type of existing Services, the `cloud-conf`
 * ConfigMap, and the PodDisruptionBudget (not on single-replica control
 * planes) and Service on 10258. The AWS CCM uses the control-plane instance
 * profile: no credentials Secret is mounted.
 */
export class AwsCloudControllerManager extends Construct {
  /** The Deployment. */
  public readonly deployment: CloudControllerManagerDeployment;

  constructor(scope: Construct, id: string, props: AwsCloudControllerManagerProps) {
    super(scope, id);
    const release = props.release;
    // The release's own form where it differs in data (OPERAND_PARTS_SINCE): a migration runs on releases before 4.22.
    const cloudConfig = operandRenders(release, 'awsCloudConfig');
    // Before 4.19 the CCM mounts no cloud config, and the operator syncs `cloud-conf` only when the Infrastructure names one
    // (openshift/cluster-cloud-controller-manager-operator@8abb067318de (release-4.18) pkg/controllers/cloud_config_sync_controller.go
    // isCloudConfigSyncNeeded; the same at @54dce1601867 (release-4.14), @d721cd62b5ed (release-4.16))
    const withoutCloudConf = !cloudConfig && props.cloudConfigNamed === false;
    const common = new CommonOperands(this, 'Common', { platformType: 'AWS', ...props, withoutCloudConf });
    this.deployment = new CloudControllerManagerDeployment(this, 'Deployment', {
      name: 'aws-cloud-controller-manager',
      platformLabel: 'AWS',
      image: props.image,
      binary: '/bin/aws-cloud-controller-manager',
      flags: [
        ...(cloudConfig ? ['--cloud-config=$(CLOUD_CONFIG)'] : []),
        '--cloud-provider=aws',
        '--use-service-account-credentials=true',
        '--configure-cloud-routes=false',
        ...LEADER_ELECTION_FLAGS,
        ...releaseTlsFlags(release, props.tls),
        ...(operandRenders(release, 'securePortOff') ? ['--secure-port=0'] : []),
        '-v=2',
      ],
      ...(cloudConfig
        ? {
            env: [{ name: 'CLOUD_CONFIG', value: '/etc/kubernetes-cloud-config/cloud.conf' }],
            volumes: [{ name: 'config-accm', configMap: { name: CLOUD_CONF_CONFIG_MAP, items: [{ key: 'cloud.conf', path: 'cloud.conf' }] } }],
            volumeMounts: [{ name: 'config-accm', mountPath: '/etc/kubernetes-cloud-config', readOnly: true }],
          }
        : {}),
      // openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/cloud/aws/assets/deployment.yaml
      mountOrder: ['host-etc-kube', 'config-accm', 'trusted-ca'],
      volumeOrder: ['config-accm', 'trusted-ca', 'host-etc-kube'],
      cpu: '200m',
      memory: '50Mi',
      mountedConfig: cloudConfig ? { configMaps: { [CLOUD_CONF_CONFIG_MAP]: common.cloudConfData() } } : {},
      singleReplica: props.singleReplica,
      leaderMigration: props.leaderMigration,
      proxy: props.proxy,
    });
    releaseContainerShape(this.deployment.apiObject, release);
    if (!operandRenders(release, 'awsAdmissionPolicy')) {
      return;
    }

    const key = `'${AWS_LOAD_BALANCER_TYPE_ANNOTATION}'`;
    new ValidatingAdmissionPolicy(this, 'LoadBalancerTypePolicy', {
      name: 'openshift-cloud-controller-manager-cloud-provider-aws',
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['UPDATE'], resources: ['services'] }] },
        // the operator's expression as written (…@bc52198c1c3c pkg/cloud/aws/assets/validating-admission-policy.yaml)
        validations: [
          {
            expression:
              `(has(object.metadata.annotations) && ${key} in object.metadata.annotations) ==\n` +
              `  (has(oldObject.metadata.annotations) && ${key} in oldObject.metadata.annotations) &&\n` +
              `  (has(object.metadata.annotations) && ${key} in object.metadata.annotations ?\n` +
              `  object.metadata.annotations[${key}] == oldObject.metadata.annotations[${key}] : true)\n`,
            message: `The annotation '${AWS_LOAD_BALANCER_TYPE_ANNOTATION}' may not be added, removed, or have its value changed. Changing the type of an existing load balancer is not supported.`,
            reason: 'Invalid',
          },
        ],
      },
    });
  }
}
