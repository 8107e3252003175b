import { Construct } from 'constructs';
import { AzureCloudNodeManager } from './azure-cloud-node-manager';
import { AzureCloudProviderRbac } from './azure-cloud-provider-rbac';
import {
  azureCloudConfVolume,
  azureCredentialEnv,
  azureCredentialsMounted,
  azureCredentialsMount,
  azureCredentialsVolume,
  azureInjectCredentials,
  boundServiceAccountTokenMount,
  boundServiceAccountTokenVolume,
  emptyDirVolume,
} from './credentials-injector';
import { CloudControllerManagerDeployment } from '../cloud-controller-manager-deployment';
import { CommonOperands } from '../common-operands';
import { CLOUD_CONF_CONFIG_MAP, CNM_SERVICE_ACCOUNT, OPERAND_NAMESPACE } from '../constants';
import { OperandProps } from '../operand-props';
import { LEADER_ELECTION_FLAGS } from '../pod-conventions';
import { operandRenders, releaseTlsFlags } from '../release-operands';
import { changedAnnotationVariables, ValidatingAdmissionPolicy } from '../validating-admission-policy';

/** Service annotation whose value the Azure admission policy checks. */
export const AZURE_TCP_IDLE_TIMEOUT_ANNOTATION = 'service.beta.kubernetes.io/azure-load-balancer-tcp-idle-timeout';

/** Properties for `AzureCloudControllerManager`. */
export interface AzureCloudControllerManagerProps extends OperandProps {
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
 * Everything the operator renders for Azure public, US Government, China and
 * German clouds (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/cloud/azure/): the CCM Deployment with the credentials
 * injector merging `azure-cloud-credentials` into the config, the
 * `azure-cloud-node-manager` DaemonSet, the platform RBAC, the node-admission
 * policy (a node manager may only update its own Node) and the TCP idle
 * timeout policy, `cloud-conf`, the PDB and the Service.
 */
export class AzureCloudControllerManager extends Construct {
  /** The CCM Deployment. */
  public readonly deployment: CloudControllerManagerDeployment;
  /** The node manager DaemonSet. */
  public readonly nodeManager: AzureCloudNodeManager;

  constructor(scope: Construct, id: string, props: AzureCloudControllerManagerProps) {
    super(scope, id);
    if (!props.infrastructureName) {
      throw new Error('\'infrastructureName\' must be set for Azure, got ""');
    }
    const common = new CommonOperands(this, 'Common', { platformType: 'Azure', ...props });
    // The release's own form where it differs (OPERAND_PARTS_SINCE): release-4.18 and earlier pass the credentials as env.
    const release = props.release;
    const mounted = azureCredentialsMounted(release);
    this.deployment = new CloudControllerManagerDeployment(this, 'Deployment', {
      name: 'azure-cloud-controller-manager',
      platformLabel: 'Azure',
      image: props.image,
      binary: '/bin/azure-cloud-controller-manager',
      flags: [
        '--v=3',
        '--cloud-config=$(CLOUD_CONFIG)',
        '--cloud-provider=azure',
        '--concurrent-service-syncs=10',
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
        { name: 'CLOUD_CONFIG', value: '/etc/kubernetes-cloud-config/cloud.conf' },
        { name: 'OCP_INFRASTRUCTURE_NAME', value: props.infrastructureName },
        ...(mounted ? [] : [azureCredentialEnv('AZURE_FEDERATED_TOKEN_FILE', 'azure_federated_token_file', true)]),
      ],
      initContainers: [azureInjectCredentials(props.operatorImage, 'config-accm', release)],
      volumes: [
        azureCloudConfVolume(false),
        ...(mounted ? [azureCredentialsVolume()] : []),
        boundServiceAccountTokenVolume(),
        emptyDirVolume('merged-cloud-config'),
      ],
      volumeMounts: [
        { name: 'merged-cloud-config', mountPath: '/etc/kubernetes-cloud-config', readOnly: true },
        ...(mounted ? [azureCredentialsMount()] : []),
        boundServiceAccountTokenMount(),
      ],
      // openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/cloud/azure/assets/cloud-controller-manager-deployment.yaml
      mountOrder: ['host-etc-kube', 'merged-cloud-config', 'cloud-sa-volume', 'trusted-ca', 'bound-sa-token'],
      volumeOrder: ['config-accm', 'cloud-sa-volume', 'trusted-ca', 'host-etc-kube', 'bound-sa-token', 'merged-cloud-config'],
      cpu: '200m',
      memory: '50Mi',
      mountedConfig: { configMaps: { [CLOUD_CONF_CONFIG_MAP]: common.cloudConfData() } },
      singleReplica: props.singleReplica,
      proxy: props.proxy,
    });
    this.nodeManager = new AzureCloudNodeManager(this, 'NodeManager', {
      image: props.nodeManagerImage,
      operatorImage: props.operatorImage,
      mountedConfig: {},
      proxy: props.proxy,
      release,
    });
    new AzureCloudProviderRbac(this, 'Rbac', { release });

    if (operandRenders(release, 'azureNodeAdmissionPolicy')) {
      this.nodeAdmissionPolicy();
    }
    if (operandRenders(release, 'azureServiceAnnotationPolicy')) {
      this.tcpIdleTimeoutPolicy();
    }
  }

  /** A node manager may only update its own Node. */
  private nodeAdmissionPolicy(): void {
    const nodeName = "'authentication.kubernetes.io/node-name'";
    new ValidatingAdmissionPolicy(this, 'NodeAdmissionPolicy', {
      name: 'openshift-cloud-controller-manager-cloud-provider-azure-node-admission',
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['UPDATE'], resources: ['nodes'] }] },
        matchConditions: [
          {
            name: 'check-only-machine-config-daemon-requests',
            expression: `request.userInfo.username == 'system:serviceaccount:${OPERAND_NAMESPACE}:${CNM_SERVICE_ACCOUNT}'`,
          },
        ],
        validations: [
          {
            expression: `has(request.userInfo.extra) && (${nodeName} in request.userInfo.extra)`,
            message: 'this user must have a "authentication.kubernetes.io/node-name" claim',
          },
          {
            expression: 'object.metadata.name == request.userInfo.extra["authentication.kubernetes.io/node-name"][0]',
            messageExpression:
              "'updates to Node ' + string(object.metadata.name) + ' may only be effected from the cloud node manager running on the same node'",
          },
        ],
      },
    });
  }

  /** The TCP idle timeout annotation of a Service is an integer from 4 to 100. */
  private tcpIdleTimeoutPolicy(): void {
    new ValidatingAdmissionPolicy(this, 'TcpIdleTimeoutPolicy', {
      name: 'azure-load-balancer-tcp-idle-timeout-annotation-validation-policy',
      bindingName: 'azure-load-balancer-tcp-idle-timeout-validation-annotation-binding',
      spec: {
        matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['services'] }] },
        variables: changedAnnotationVariables(AZURE_TCP_IDLE_TIMEOUT_ANNOTATION, 'IdleTimeout'),
        validations: [
          {
            expression: "!variables.hasIdleTimeout || !variables.valueHasChanged || variables.idleTimeoutValue.matches('^[0-9]+$')",
            message: `value for annotation '${AZURE_TCP_IDLE_TIMEOUT_ANNOTATION}' must be an integer`,
          },
          {
            expression:
              '!variables.hasIdleTimeout || !variables.valueHasChanged || (int(variables.idleTimeoutValue) >= 4 && int(variables.idleTimeoutValue) <= 100)',
            message: `value for annotation '${AZURE_TCP_IDLE_TIMEOUT_ANNOTATION}' must be no less than 4 and no more than 100`,
          },
        ],
      },
    });
  }
}
