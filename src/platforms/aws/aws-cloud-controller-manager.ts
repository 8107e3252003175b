import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { CloudConfConfigMap } from '../../openshift/cloud-conf-config-map';
import { CloudControllerManagerPodDisruptionBudget } from '../../openshift/cloud-controller-manager-pod-disruption-budget';
import { CloudControllerManagerService } from '../../openshift/cloud-controller-manager-service';
import { configHash } from '../../openshift/config-hash';
import { CCM_SERVICE_ACCOUNT, CLOUD_CONF_CONFIG_MAP, CONFIG_HASH_ANNOTATION, OPERAND_NAMESPACE } from '../../openshift/constants';
import {
  bashCommand, CCM_PLATFORM_LABEL, CONTROL_PLANE_NODE_SELECTOR, hostEtcKubeMount, hostEtcKubeVolume, hostnameAntiAffinity,
  LEADER_ELECTION_FLAGS, MANAGEMENT_WORKLOAD_ANNOTATION, ProxySettings, proxyEnv, requests, standardTolerations, trustedCaMount, trustedCaVolume, waitForTrustBundle,
} from '../../openshift/pod-conventions';
import { ValidatingAdmissionPolicy } from '../../openshift/validating-admission-policy';
import { INTERMEDIATE_TLS, tlsFlags, TlsVersion } from '../../spec/tls';

/** Annotation whose changes the AWS admission policy refuses. */
export const AWS_LOAD_BALANCER_TYPE_ANNOTATION = 'service.beta.kubernetes.io/aws-load-balancer-type';

/** Properties for `AwsCloudControllerManager`. */
export interface AwsCloudControllerManagerProps {
  /** The AWS CCM image (images.json `cloudControllerManagerAWS`). */
  readonly image: string;
  /** The transformed `cloud.conf` (see `transformAwsCloudConfig`). */
  readonly cloudConf: string;
  /**
   * Single-replica control plane: one replica and no PodDisruptionBudget.
   *
   * @default false
   */
  readonly singleReplica?: boolean;
  /**
   * Proxy settings appended as env to the CCM container.
   *
   * @default - no proxy
   */
  readonly proxy?: ProxySettings;
  /**
   * TLS settings of the serving endpoint.
   *
   * @default - the Intermediate profile
   */
  readonly tls?: { readonly minVersion: TlsVersion; readonly cipherSuites?: readonly string[] };
}

/**
 * Everything the operator renders for AWS (reference §2.4.1): the
 * `aws-cloud-controller-manager` Deployment, the admission policy that
 * freezes the load-balancer type of existing Services, the `cloud-conf`
 * ConfigMap, and the PodDisruptionBudget (not on single-replica control
 * planes) and Service on 10258. The AWS CCM uses the control-plane instance
 * profile: no credentials Secret is mounted.
 */
export class AwsCloudControllerManager extends Construct {
  /** The Deployment. */
  public readonly deployment: ApiObject;
  /** The `cloud-conf` ConfigMap. */
  public readonly cloudConf: CloudConfConfigMap;

  constructor(scope: Construct, id: string, props: AwsCloudControllerManagerProps) {
    super(scope, id);
    if (!props.image) {
      throw new Error('\'image\' must be a pinned image reference, got ""');
    }
    const name = 'aws-cloud-controller-manager';
    const labels = { 'k8s-app': name, [CCM_PLATFORM_LABEL]: 'AWS' };
    const tls = props.tls ?? INTERMEDIATE_TLS;

    this.cloudConf = new CloudConfConfigMap(this, 'CloudConf', { cloudConf: props.cloudConf });

    const flags = [
      '--cloud-config=$(CLOUD_CONFIG)',
      '--cloud-provider=aws',
      '--use-service-account-credentials=true',
      '--configure-cloud-routes=false',
      ...LEADER_ELECTION_FLAGS,
      ...tlsFlags({ minVersion: tls.minVersion, cipherSuites: tls.cipherSuites ?? INTERMEDIATE_TLS.cipherSuites }),
      '--secure-port=0',
      '-v=2',
    ];

    this.deployment = new k8s.KubeDeployment(this, 'Resource', {
      metadata: { name, namespace: OPERAND_NAMESPACE, labels: { ...labels } },
      spec: {
        replicas: props.singleReplica ? 1 : 2,
        selector: { matchLabels: { ...labels } },
        strategy: { type: 'Recreate' },
        template: {
          metadata: {
            labels: { ...labels },
            annotations: {
              ...MANAGEMENT_WORKLOAD_ANNOTATION,
              [CONFIG_HASH_ANNOTATION]: configHash({ configMaps: { [CLOUD_CONF_CONFIG_MAP]: this.cloudConf.data } }),
            },
          },
          spec: {
            hostNetwork: true,
            serviceAccountName: CCM_SERVICE_ACCOUNT,
            priorityClassName: 'system-cluster-critical',
            nodeSelector: { ...CONTROL_PLANE_NODE_SELECTOR },
            affinity: hostnameAntiAffinity({ ...labels }),
            tolerations: standardTolerations(),
            initContainers: [waitForTrustBundle(props.image)],
            containers: [{
              name: 'cloud-controller-manager',
              image: props.image,
              imagePullPolicy: 'IfNotPresent',
              command: bashCommand('/bin/aws-cloud-controller-manager', flags),
              env: [{ name: 'CLOUD_CONFIG', value: '/etc/kubernetes-cloud-config/cloud.conf' }, ...proxyEnv(props.proxy)],
              ports: [{ containerPort: 10258, name: 'https', protocol: 'TCP' }],
              resources: requests('200m', '50Mi'),
              terminationMessagePolicy: 'FallbackToLogsOnError',
              volumeMounts: [
                { name: 'config-accm', mountPath: '/etc/kubernetes-cloud-config', readOnly: true },
                trustedCaMount(),
                hostEtcKubeMount(),
              ],
            }],
            volumes: [
              { name: 'config-accm', configMap: { name: CLOUD_CONF_CONFIG_MAP, items: [{ key: 'cloud.conf', path: 'cloud.conf' }] } },
              trustedCaVolume(),
              hostEtcKubeVolume(),
            ],
          },
        },
      },
    });

    const key = `'${AWS_LOAD_BALANCER_TYPE_ANNOTATION}'`;
    new ValidatingAdmissionPolicy(this, 'LoadBalancerTypePolicy', {
      name: 'openshift-cloud-controller-manager-cloud-provider-aws',
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['UPDATE'], resources: ['services'] }] },
        variables: [
          { name: 'typeIsSet', expression: `has(object.metadata.annotations) && ${key} in object.metadata.annotations` },
          { name: 'typeWasSet', expression: `has(oldObject.metadata.annotations) && ${key} in oldObject.metadata.annotations` },
        ],
        validations: [{
          expression: `variables.typeIsSet == variables.typeWasSet && (!variables.typeIsSet || object.metadata.annotations[${key}] == oldObject.metadata.annotations[${key}])`,
          message: `The annotation '${AWS_LOAD_BALANCER_TYPE_ANNOTATION}' may not be added, removed, or have its value changed. Changing the type of an existing load balancer is not supported.`,
          reason: 'Invalid',
        }],
      },
    });

    if (!props.singleReplica) {
      new CloudControllerManagerPodDisruptionBudget(this, 'PodDisruptionBudget', { platformType: 'AWS' });
    }
    new CloudControllerManagerService(this, 'Service', { platformType: 'AWS' });
  }
}
