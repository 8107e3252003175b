import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import {
  azureCloudConfVolume,
  azureCredentialsMounted,
  azureCredentialsVolume,
  azureInjectCredentials,
  azureStackHubInjectCredentials,
  boundServiceAccountTokenMount,
  boundServiceAccountTokenVolume,
  emptyDirVolume,
} from './credentials-injector';
import { configHash, MountedConfig } from '../../constructs/config-hash';
import { CNM_SERVICE_ACCOUNT, CONFIG_HASH_ANNOTATION, OPERAND_NAMESPACE } from '../constants';
import {
  bashCommand,
  CNM_PLATFORM_LABEL,
  hostEtcKubeMount,
  hostEtcKubeVolume,
  MANAGEMENT_WORKLOAD_ANNOTATION,
  ProxySettings,
  proxyEnv,
  requests,
  trustedCaMount,
  trustedCaVolumes,
  waitForTrustBundle,
  hasCloudCaBundle,
} from '../pod-conventions';

/** Properties for `AzureCloudNodeManager`. */
export interface AzureCloudNodeManagerProps {
  /** The cloud node manager image (images.json `cloudNodeManagerAzure`). */
  readonly image: string;
  /** The operator image, which carries the credentials injector (images.json `cloudControllerManagerOperator`). */
  readonly operatorImage: string;
  /**
   * Azure Stack Hub: the injector reads `cloud-conf` (with the `endpoints`
   * environment file), and the node manager reads the merged config without
   * instance metadata. Otherwise the injector reads the host's cloud.conf and
   * the node manager uses instance metadata.
   *
   * @default false
   */
  readonly stackHub?: boolean;
  /** ConfigMaps the pods mount whose content is known (Azure Stack Hub: `cloud-conf`); hashed into the pod template. */
  readonly mountedConfig: MountedConfig;
  /**
   * Proxy env appended to the node manager container.
   *
   * @default - no proxy
   */
  readonly proxy?: ProxySettings;
  /**
   * The cluster's OpenShift release: before `OPERAND_PARTS_SINCE.azureCredentialsPath` the injector takes the
   * credentials as env and the pod has no `cloud-sa-volume`.
   *
   * @default - main's shape
   */
  readonly release?: string;
}

/** The tolerations of the cloud node manager: every NoSchedule taint, the infra NoExecute taint, unreachable/not-ready for 120 s. */
export function cloudNodeManagerTolerations(): k8s.Toleration[] {
  return [
    { operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node-role.kubernetes.io/infra', operator: 'Exists', effect: 'NoExecute' },
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 120 },
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 120 },
  ];
}

/**
 * DaemonSet `azure-cloud-node-manager` (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/cloud/azure/, pkg/cloud/azurestack/): one
 * pod per Linux node that initialises its Node from Azure, running as
 * `cloud-node-manager`, with the credentials injector as init container.
 */
export class AzureCloudNodeManager extends Construct {
  /** The DaemonSet object. */
  public readonly apiObject: ApiObject;

  constructor(scope: Construct, id: string, props: AzureCloudNodeManagerProps) {
    super(scope, id);
    for (const key of ['image', 'operatorImage'] as const) {
      if (!props[key]) {
        throw new Error(`'${key}' must be a pinned image reference, got ""`);
      }
    }
    const name = 'azure-cloud-node-manager';
    const cloudCa = hasCloudCaBundle(props.mountedConfig);
    const labels = { 'k8s-app': name, [CNM_PLATFORM_LABEL]: 'Azure' };
    const nodeName: k8s.EnvVar = { name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } };

    const container: k8s.Container = props.stackHub
      ? {
          name: 'cloud-node-manager',
          image: props.image,
          imagePullPolicy: 'IfNotPresent',
          command: bashCommand('/bin/azure-cloud-node-manager', [
            '--node-name=$(NODE_NAME)',
            '--wait-routes=false',
            '--use-instance-metadata=false',
            '--cloud-config=$(CLOUD_CONFIG)',
            '--v=6',
          ]),
          env: [
            nodeName,
            { name: 'AZURE_ENVIRONMENT_FILEPATH', value: '/etc/cloud-config-original/endpoints.conf' },
            { name: 'CLOUD_CONFIG', value: '/etc/cloud-config/cloud.conf' },
            ...proxyEnv(props.proxy),
          ],
          ports: [{ containerPort: 10263, name: 'https', protocol: 'TCP' }],
          resources: requests('50m', '50Mi'),
          terminationMessagePolicy: 'FallbackToLogsOnError',
          volumeMounts: [
            hostEtcKubeMount(),
            { name: 'config-accm', mountPath: '/etc/cloud-config-original', readOnly: true },
            { name: 'cloud-config', mountPath: '/etc/cloud-config', readOnly: true },
            trustedCaMount(),
          ],
        }
      : {
          name: 'cloud-node-manager',
          image: props.image,
          imagePullPolicy: 'IfNotPresent',
          command: bashCommand('/bin/azure-cloud-node-manager', [
            '--node-name=$(NODE_NAME)',
            '--wait-routes=false',
            '--enable-deprecated-beta-topology-labels',
          ]),
          env: [nodeName, ...proxyEnv(props.proxy)],
          ports: [{ containerPort: 10263, name: 'https', protocol: 'TCP' }],
          resources: requests('50m', '50Mi'),
          terminationMessagePolicy: 'FallbackToLogsOnError',
          volumeMounts: [
            { name: 'merged-cloud-config', mountPath: '/etc/kubernetes', readOnly: true },
            trustedCaMount(),
            boundServiceAccountTokenMount(),
          ],
        };
    const credentials = azureCredentialsMounted(props.release) ? [azureCredentialsVolume()] : [];
    const volumes: k8s.Volume[] = props.stackHub
      ? [hostEtcKubeVolume(), azureCloudConfVolume(true), ...credentials, ...trustedCaVolumes(cloudCa), emptyDirVolume('cloud-config')]
      : [...credentials, ...trustedCaVolumes(cloudCa), hostEtcKubeVolume(), boundServiceAccountTokenVolume(), emptyDirVolume('merged-cloud-config')];
    const injector = props.stackHub
      ? azureStackHubInjectCredentials(props.operatorImage, props.release)
      : azureInjectCredentials(props.operatorImage, 'host-etc-kube', props.release);

    this.apiObject = new k8s.KubeDaemonSet(this, 'Resource', {
      metadata: {
        name,
        namespace: OPERAND_NAMESPACE,
        labels: { ...labels, component: name, 'kubernetes.io/cluster-service': 'true' },
      },
      spec: {
        selector: { matchLabels: { ...labels } },
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: k8s.IntOrString.fromString('10%') } },
        template: {
          metadata: {
            labels: { ...labels },
            annotations: {
              'cluster-autoscaler.kubernetes.io/daemonset-pod': 'true',
              ...MANAGEMENT_WORKLOAD_ANNOTATION,
              [CONFIG_HASH_ANNOTATION]: configHash(props.mountedConfig),
            },
          },
          spec: {
            priorityClassName: 'system-node-critical',
            serviceAccountName: CNM_SERVICE_ACCOUNT,
            hostNetwork: true,
            nodeSelector: { 'kubernetes.io/os': 'linux' },
            tolerations: cloudNodeManagerTolerations(),
            initContainers: [injector, waitForTrustBundle(props.image, cloudCa)],
            containers: [container],
            volumes,
          },
        },
      },
    });
  }
}
