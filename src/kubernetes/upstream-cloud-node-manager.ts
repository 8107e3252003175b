import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { CLOUD_NODE_MANAGER_RULES } from './rbac-rules';
import { toK8sRule } from './upstream-ccm-rbac';
import { mergeArgs } from './workload-plan';
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
  /**
   * Requests and limits.
   *
   * @default - requests 50m / 50Mi, no limits
   */
  readonly resources?: {
    readonly requests?: { readonly cpu?: string; readonly memory?: string };
    readonly limits?: { readonly cpu?: string; readonly memory?: string };
  };
  /**
   * Tolerations.
   *
   * @default - every taint (it must run on each node before the node is initialised)
   */
  readonly tolerations?: readonly k8s.Toleration[];
  /**
   * Flags merged over the rendered ones.
   *
   * @default - none
   */
  readonly extraArgs?: Readonly<Record<string, string | number | boolean>>;
  /**
   * Also a HostProcess DaemonSet on the Windows nodes.
   *
   * @default false
   */
  readonly windows?: boolean;
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
    this.objects.push(new k8s.KubeServiceAccount(this, 'ServiceAccount', { metadata: { name: CLOUD_NODE_MANAGER, namespace: props.namespace } }));
    const role = new PlatformRole(this, 'ClusterRole', {
      name: CLOUD_NODE_MANAGER,
      bindingName: CLOUD_NODE_MANAGER,
      serviceAccounts: [`${props.namespace}/${CLOUD_NODE_MANAGER}`],
      rules: CLOUD_NODE_MANAGER_RULES.map(toK8sRule),
    });
    this.objects.push(role.apiObject, role.binding.apiObject);
    const pullSecrets = props.imagePullSecrets ?? [];
    const flags = mergeArgs(
      ['--node-name=$(NODE_NAME)', `--wait-routes=${props.waitRoutes ?? false}`, '--use-instance-metadata=true', '--v=2'],
      props.extraArgs ?? {},
    );
    const quantities = (q: { cpu?: string; memory?: string } | undefined) =>
      Object.fromEntries(
        Object.entries(q ?? {})
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => [k, k8s.Quantity.fromString(v)]),
      );
    const requests = {
      cpu: '50m',
      memory: '50Mi',
      ...Object.fromEntries(Object.entries(props.resources?.requests ?? {}).filter(([, v]) => v !== undefined)),
    };
    const resources: k8s.ResourceRequirements = {
      requests: quantities(requests),
      ...(props.resources?.limits && Object.values(props.resources.limits).some((v) => v !== undefined)
        ? { limits: quantities(props.resources.limits) }
        : {}),
    };
    const tolerations = (props.tolerations ?? [{ operator: 'Exists' }]).map((t) => ({ ...t }));
    const env = [{ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }, ...(props.proxyEnv ?? []).map((e) => ({ ...e }))];
    const daemonSet = (id: string, dsName: string, podSpec: Partial<k8s.PodSpec>, container: Partial<k8s.Container>) => {
      const labels = { 'k8s-app': dsName };
      return new k8s.KubeDaemonSet(this, id, {
        metadata: { name: dsName, namespace: props.namespace, labels: { ...labels } },
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
              ...podSpec,
              tolerations,
              ...(pullSecrets.length > 0 ? { imagePullSecrets: pullSecrets.map((n) => ({ name: n })) } : {}),
              containers: [
                {
                  name: 'cloud-node-manager',
                  image: props.image,
                  imagePullPolicy: 'IfNotPresent',
                  ...container,
                  env: env.map((e) => ({ ...e })),
                  // no probe: the cloud-node-manager serves no port (kubernetes-sigs/cloud-provider-azure@v1.33.2
                  // cmd/cloud-node-manager/app/options/options.go: defaultCloudNodeManagerPort = 0)
                  resources,
                  terminationMessagePolicy: 'FallbackToLogsOnError',
                },
              ],
            },
          },
        },
      });
    };
    this.objects.push(
      daemonSet(
        'Resource',
        name,
        {
          dnsPolicy: 'Default',
          nodeSelector: { 'kubernetes.io/os': 'linux' },
          securityContext: { seccompProfile: { type: 'RuntimeDefault' } },
        },
        {
          args: flags,
          securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
        },
      ),
    );
    if (props.windows) {
      // A HostProcess container on the host network, as the upstream chart's cloud-node-manager-windows; the binary is
      // started from the container's mount point (containerd 1.7+ gives HostProcess containers their ServiceAccount
      // token, so the chart's kube-proxy kubeconfig workaround for kubernetes/kubernetes#104562 is not needed).
      this.objects.push(
        daemonSet(
          'Windows',
          `${name}-windows`,
          {
            nodeSelector: { 'kubernetes.io/os': 'windows' },
            securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\system' } },
          },
          {
            command: ['powershell.exe', '-Command', `& "$env:CONTAINER_SANDBOX_MOUNT_POINT/cloud-node-manager.exe" ${flags.join(' ')}`],
          },
        ),
      );
    }
  }
}
