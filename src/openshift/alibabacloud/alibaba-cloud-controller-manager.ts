import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { CloudControllerManagerDeployment } from '../cloud-controller-manager-deployment';
import { CommonOperands } from '../common-operands';
import { CCM_SERVICE_ACCOUNT, CLOUD_CONF_CONFIG_MAP, OPERAND_NAMESPACE } from '../constants';
import { OperandProps } from '../operand-props';
import { PlatformRole } from '../../constructs/platform-role';
import { LEADER_ELECTION_FLAGS, standardTolerations } from '../pod-conventions';

/** The annotations of the release-4.16 Alibaba Role and ClusterRole (no capability annotation then). */
const INCLUDE_ANNOTATIONS: Readonly<Record<string, string>> = {
  'include.release.openshift.io/self-managed-high-availability': 'true',
  'include.release.openshift.io/single-node-developer': 'true',
};

/** Properties for `AlibabaCloudControllerManager`. */
export interface AlibabaCloudControllerManagerProps extends OperandProps {
  /** The Alibaba Cloud CCM image (images.json `cloudControllerManagerAlibaba`). */
  readonly image: string;
}

/**
 * Alibaba Cloud, from the operator's last shipped assets (release-4.16,
 * openshift/cluster-cloud-controller-manager-operator@24c7c9ce1910 pkg/cloud/alibaba/; tech preview, removed from the operator since): the
 * `alibaba-cloud-controller-manager` Deployment, its Role and ClusterRole,
 * `cloud-conf`, and the PDB and Service every platform gets.
 *
 * The Alibaba CCM is not built on the Kubernetes cloud-provider app: it takes
 * no `--tls-*` flags (the TLS profile does not apply) and serves a plain-HTTP
 * health endpoint on 127.0.0.1:10258. It authenticates with the control-plane
 * instance RAM role: there is no CredentialsRequest, and an AccessKey in the
 * cloud config is refused.
 */
export class AlibabaCloudControllerManager extends Construct {
  /** The Deployment. */
  public readonly deployment: CloudControllerManagerDeployment;

  constructor(scope: Construct, id: string, props: AlibabaCloudControllerManagerProps) {
    super(scope, id);
    const common = new CommonOperands(this, 'Common', { platformType: 'AlibabaCloud', ...props, shape: 'release-4.16' });
    this.deployment = new CloudControllerManagerDeployment(this, 'Deployment', {
      name: 'alibaba-cloud-controller-manager',
      platformLabel: 'AlibabaCloud',
      image: props.image,
      binary: '/bin/alibaba-cloud-controller-manager',
      flags: [
        '--allow-untagged-cloud=true',
        ...LEADER_ELECTION_FLAGS,
        '--cloud-provider=alicloud',
        '--use-service-account-credentials=true',
        '--cloud-config=/etc/alibaba/config/cloud-config.conf',
        '--feature-gates=ServiceNodeExclusion=true',
        '--configure-cloud-routes=false',
        '--allocate-node-cidrs=false',
        '--metrics-bind-addr=0',
      ],
      volumes: [{ name: 'cloud-config', configMap: { name: CLOUD_CONF_CONFIG_MAP, items: [{ key: 'cloud.conf', path: 'cloud-config.conf' }] } }],
      volumeMounts: [{ name: 'cloud-config', mountPath: '/etc/alibaba/config', readOnly: true }],
      livenessProbe: {
        httpGet: { host: '127.0.0.1', path: '/healthz', port: k8s.IntOrString.fromNumber(10258), scheme: 'HTTP' },
        initialDelaySeconds: 15,
        timeoutSeconds: 15,
        failureThreshold: 8,
      },
      tolerations: standardTolerations(),
      // openshift/cluster-cloud-controller-manager-operator@release-4.16 pkg/cloud/alibaba/assets/alibaba-cloud-controller-manager-deployment.yaml
      mountOrder: ['host-etc-kube', 'trusted-ca', 'cloud-config'],
      volumeOrder: ['host-etc-kube', 'trusted-ca', 'cloud-config'],
      cpu: '200m',
      memory: '50Mi',
      mountedConfig: { configMaps: { [CLOUD_CONF_CONFIG_MAP]: common.cloudConfData() } },
      singleReplica: props.singleReplica,
      proxy: props.proxy,
    });
    const self = `${OPERAND_NAMESPACE}/${CCM_SERVICE_ACCOUNT}`;
    new PlatformRole(this, 'Role', {
      name: 'alibaba-cloud-controller-manager',
      namespace: OPERAND_NAMESPACE,
      rules: [
        { apiGroups: [''], resources: ['endpoints'], verbs: ['get', 'list', 'watch', 'update', 'create'] },
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'create', 'update'] },
      ],
      bindingName: 'alibaba-cloud-controller-manager:alibaba-cloud-controller-manager',
      serviceAccounts: [self],
      annotations: INCLUDE_ANNOTATIONS,
    });
    new PlatformRole(this, 'ClusterRole', {
      name: 'alibaba-cloud-controller-manager',
      rules: [
        { apiGroups: [''], resources: ['endpoints'], verbs: ['get', 'list', 'watch', 'update'] },
        { apiGroups: [''], resources: ['nodes', 'nodes/status', 'services', 'services/status'], verbs: ['patch'] },
      ],
      bindingName: 'alibaba-cloud-controller-manager:alibaba-cloud-controller-manager',
      serviceAccounts: [self],
      annotations: INCLUDE_ANNOTATIONS,
    });
  }
}
