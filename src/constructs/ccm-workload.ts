import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { CONFIG_HASH_ANNOTATION, configHash, MountedConfig } from './config-hash';

/** Name of the CCM container in every CCM pod (both distributions). */
export const CCM_CONTAINER_NAME = 'cloud-controller-manager';

/**
 * The one CCM container of the pod. Lists are rendered as given: an empty
 * list renders `[]`, an omitted one is left out.
 */
export interface CcmContainerProps {
  /** The CCM image (a pinned reference). */
  readonly image: string;
  /**
   * The container command.
   *
   * @default - the image's ENTRYPOINT
   */
  readonly command?: readonly string[];
  /**
   * The container args.
   *
   * @default - none
   */
  readonly args?: readonly string[];
  /**
   * Env vars.
   *
   * @default - none
   */
  readonly env?: readonly k8s.EnvVar[];
  /** The ports (the secure or health port). */
  readonly ports: readonly k8s.ContainerPort[];
  /**
   * Liveness probe.
   *
   * @default - none
   */
  readonly livenessProbe?: k8s.Probe;
  /** Requests (and limits, where given). */
  readonly resources: k8s.ResourceRequirements;
  /**
   * Container security context.
   *
   * @default - none
   */
  readonly securityContext?: k8s.SecurityContext;
  /**
   * Volume mounts.
   *
   * @default - none
   */
  readonly volumeMounts?: readonly k8s.VolumeMount[];
}

/**
 * The pod of a control-plane CCM, as both distributions render it: the
 * distribution's construct decides every value, this builds the one shape.
 */
export interface CcmPodTemplateProps {
  /** Pod labels. */
  readonly labels: Readonly<Record<string, string>>;
  /**
   * Pod annotations; the config-hash annotation is added after them.
   *
   * @default - only the config hash
   */
  readonly annotations?: Readonly<Record<string, string>>;
  /** ConfigMaps and Secrets the pods mount whose content is known; hashed into `CONFIG_HASH_ANNOTATION`. */
  readonly mountedConfig: MountedConfig;
  /** The CCM's ServiceAccount. */
  readonly serviceAccountName: string;
  /** Whether the pod runs in the host's network namespace. */
  readonly hostNetwork: boolean;
  /**
   * DNS policy.
   *
   * @default - the Kubernetes default (ClusterFirst)
   */
  readonly dnsPolicy?: string;
  /**
   * Priority class.
   *
   * @default - none
   */
  readonly priorityClassName?: string;
  /**
   * Node selector.
   *
   * @default - none
   */
  readonly nodeSelector?: Readonly<Record<string, string>>;
  /**
   * Required node affinity.
   *
   * @default - none
   */
  readonly nodeAffinity?: k8s.NodeAffinity;
  /**
   * Labels of the pods to keep off the node's hostname (required anti-affinity,
   * one CCM pod per node).
   *
   * @default - no anti-affinity
   */
  readonly antiAffinityLabels?: Readonly<Record<string, string>>;
  /** Tolerations. */
  readonly tolerations: readonly k8s.Toleration[];
  /**
   * Termination grace period in seconds.
   *
   * @default - the Kubernetes default (30)
   */
  readonly terminationGracePeriodSeconds?: number;
  /**
   * Init containers.
   *
   * @default - none
   */
  readonly initContainers?: readonly k8s.Container[];
  /**
   * Names of image pull Secrets.
   *
   * @default - none
   */
  readonly imagePullSecrets?: readonly string[];
  /**
   * Pod security context.
   *
   * @default - none
   */
  readonly securityContext?: k8s.PodSecurityContext;
  /** The CCM container. */
  readonly container: CcmContainerProps;
  /**
   * Volumes.
   *
   * @default - none
   */
  readonly volumes?: readonly k8s.Volume[];
}

/** Required anti-affinity on the hostname over `matchLabels`. */
export function ccmHostnameAntiAffinity(matchLabels: Readonly<Record<string, string>>): k8s.PodAntiAffinity {
  return {
    requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { ...matchLabels } } }],
  };
}

/**
 * The pod template of a control-plane CCM: one container named
 * `cloud-controller-manager` (`IfNotPresent`, `FallbackToLogsOnError`), its
 * placement, and the config-hash annotation, so a change of mounted content
 * rolls the pods. Pure: builds typed structs, adds nothing to a scope.
 */
export function ccmPodTemplate(props: CcmPodTemplateProps): k8s.PodTemplateSpec {
  const c = props.container;
  const affinity: k8s.Affinity = {
    ...(props.nodeAffinity ? { nodeAffinity: props.nodeAffinity } : {}),
    ...(props.antiAffinityLabels ? { podAntiAffinity: ccmHostnameAntiAffinity(props.antiAffinityLabels) } : {}),
  };
  return {
    metadata: {
      labels: { ...props.labels },
      annotations: { ...props.annotations, [CONFIG_HASH_ANNOTATION]: configHash(props.mountedConfig) },
    },
    spec: {
      serviceAccountName: props.serviceAccountName,
      priorityClassName: props.priorityClassName,
      hostNetwork: props.hostNetwork,
      dnsPolicy: props.dnsPolicy,
      nodeSelector: props.nodeSelector ? { ...props.nodeSelector } : undefined,
      affinity: Object.keys(affinity).length > 0 ? affinity : undefined,
      tolerations: [...props.tolerations],
      terminationGracePeriodSeconds: props.terminationGracePeriodSeconds,
      initContainers: props.initContainers ? [...props.initContainers] : undefined,
      imagePullSecrets: props.imagePullSecrets ? props.imagePullSecrets.map((name) => ({ name })) : undefined,
      securityContext: props.securityContext,
      containers: [
        {
          name: CCM_CONTAINER_NAME,
          image: c.image,
          imagePullPolicy: 'IfNotPresent',
          command: c.command ? [...c.command] : undefined,
          args: c.args ? [...c.args] : undefined,
          env: c.env ? [...c.env] : undefined,
          ports: [...c.ports],
          livenessProbe: c.livenessProbe,
          resources: c.resources,
          securityContext: c.securityContext,
          terminationMessagePolicy: 'FallbackToLogsOnError',
          volumeMounts: c.volumeMounts ? [...c.volumeMounts] : undefined,
        },
      ],
      volumes: props.volumes ? [...props.volumes] : undefined,
    },
  };
}

/** Properties for `addCcmWorkload`. */
export interface CcmWorkloadSpec {
  /** Deployment (with `replicas` and `strategy`) or DaemonSet (with `updateStrategy`). */
  readonly kind: 'Deployment' | 'DaemonSet';
  /** Name of the workload. */
  readonly name: string;
  /** Namespace of the CCM. */
  readonly namespace: string;
  /** Labels of the workload object. */
  readonly labels: Readonly<Record<string, string>>;
  /** Selector labels. */
  readonly selector: Readonly<Record<string, string>>;
  /**
   * Deployment replicas.
   *
   * @default - not set (a DaemonSet)
   */
  readonly replicas?: number;
  /**
   * `spec.revisionHistoryLimit`.
   *
   * @default - the Kubernetes default (10)
   */
  readonly revisionHistoryLimit?: number;
  /**
   * The Deployment's `strategy`.
   *
   * @default - the Kubernetes default (RollingUpdate 25%)
   */
  readonly strategy?: k8s.DeploymentStrategy;
  /**
   * The DaemonSet's `updateStrategy`.
   *
   * @default - the Kubernetes default (RollingUpdate, maxUnavailable 1)
   */
  readonly updateStrategy?: k8s.DaemonSetUpdateStrategy;
  /** The pod template (`ccmPodTemplate`). */
  readonly template: k8s.PodTemplateSpec;
}

/**
 * Adds the CCM's Deployment or DaemonSet to `scope` as `id`: the
 * distribution's construct decides its values, this renders the object.
 */
export function addCcmWorkload(scope: Construct, id: string, spec: CcmWorkloadSpec): ApiObject {
  const metadata = { name: spec.name, namespace: spec.namespace, labels: { ...spec.labels } };
  const selector = { matchLabels: { ...spec.selector } };
  return spec.kind === 'Deployment'
    ? new k8s.KubeDeployment(scope, id, {
        metadata,
        spec: {
          replicas: spec.replicas,
          revisionHistoryLimit: spec.revisionHistoryLimit,
          selector,
          strategy: spec.strategy,
          template: spec.template,
        },
      })
    : new k8s.KubeDaemonSet(scope, id, {
        metadata,
        spec: { revisionHistoryLimit: spec.revisionHistoryLimit, selector, updateStrategy: spec.updateStrategy, template: spec.template },
      });
}
