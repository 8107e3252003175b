import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { CLOUD_NODE_MANAGER_RULES } from './rbac-rules';
import { toK8sRule } from './upstream-ccm-rbac';
import { PlatformRole } from '../constructs/platform-role';

/** The cloud-node-manager's ServiceAccount and ClusterRole name (upstream chart). */
export const CLOUD_NODE_MANAGER = 'cloud-node-manager';

/** Properties for `UpstreamCloudNodeManager`. */
export interface UpstreamCloudNodeManagerProps {
  /** The cloud-node-manager image (spec.images.cloudNodeManagerAzure). */
  readonly image: string;
  /** Namespace of the CCM. */
  readonly namespace: string;
  /**
   * `--wait-routes`: wait for the route controller before marking a node ready (kubenet routes).
   *
   * @default false
   */
  readonly waitRoutes?: boolean;
  /**
   * Image pull Secrets.
   *
   * @default - none
   */
  readonly imagePullSecrets?: readonly string[];
  /**
   * Proxy env appended to the container.
   *
   * @default - none
   */
  readonly proxyEnv?: readonly { readonly name: string; readonly value: string }[];
}

/**
 * Azure's cloud-node-manager: a DaemonSet on every Linux node that
 * initialises its own Node from the instance metadata (the CCM runs with
 * `-cloud-node`), with its ServiceAccount and ClusterRole. It tolerates every
 * taint, as it must run on each node before the node is initialised.
 */
export class UpstreamCloudNodeManager extends Construct {
  /** Every object rendered. */
  public readonly objects: ApiObject[] = [];

  constructor(scope: Construct, id: string, props: UpstreamCloudNodeManagerProps) {
    super(scope, id);
    if (!props.image) {
      throw new Error('\'image\' of the cloud-node-manager must be a pinned image reference, got ""');
    }
    const name = 'azure-cloud-node-manager';
    const labels = { 'k8s-app': name };
    this.objects.push(new k8s.KubeServiceAccount(this, 'ServiceAccount', { metadata: { name: CLOUD_NODE_MANAGER, namespace: props.namespace } }));
    const role = new PlatformRole(this, 'ClusterRole', {
      name: CLOUD_NODE_MANAGER,
      bindingName: CLOUD_NODE_MANAGER,
      serviceAccounts: [`${props.namespace}/${CLOUD_NODE_MANAGER}`],
      rules: CLOUD_NODE_MANAGER_RULES.map(toK8sRule),
    });
    this.objects.push(role.apiObject, role.binding.apiObject);
    const pullSecrets = props.imagePullSecrets ?? [];
    this.objects.push(new k8s.KubeDaemonSet(this, 'Resource', {
      metadata: { name, namespace: props.namespace, labels: { ...labels } },
      spec: {
        revisionHistoryLimit: 3,
        selector: { matchLabels: { ...labels } },
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: k8s.IntOrString.fromNumber(1) } },
        template: {
          metadata: { labels: { ...labels }, annotations: { 'cluster-autoscaler.kubernetes.io/daemonset-pod': 'true' } },
          spec: {
            serviceAccountName: CLOUD_NODE_MANAGER,
            priorityClassName: 'system-node-critical',
            hostNetwork: true,
            dnsPolicy: 'Default',
            nodeSelector: { 'kubernetes.io/os': 'linux' },
            tolerations: [{ operator: 'Exists' }],
            ...(pullSecrets.length > 0 ? { imagePullSecrets: pullSecrets.map((n) => ({ name: n })) } : {}),
            securityContext: { seccompProfile: { type: 'RuntimeDefault' } },
            containers: [{
              name: 'cloud-node-manager',
              image: props.image,
              imagePullPolicy: 'IfNotPresent',
              args: ['--node-name=$(NODE_NAME)', `--wait-routes=${props.waitRoutes ?? false}`, '--use-instance-metadata=true', '--v=2'],
              env: [
                { name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
                ...(props.proxyEnv ?? []).map((e) => ({ ...e })),
              ],
              // no probe: the cloud-node-manager serves no port (kubernetes-sigs/cloud-provider-azure@v1.33.2
              // cmd/cloud-node-manager/app/options/options.go: defaultCloudNodeManagerPort = 0)
              resources: { requests: { cpu: k8s.Quantity.fromString('50m'), memory: k8s.Quantity.fromString('50Mi') } },
              securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
              terminationMessagePolicy: 'FallbackToLogsOnError',
            }],
          },
        },
      },
    }));
  }
}
