import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { ccmLeaderMigrationFlags } from '../migration/flags';
import { MountedConfig } from '../constructs/config-hash';
import { addCcmWorkload, ccmPodTemplate } from '../constructs/ccm-workload';
import { CCM_SERVICE_ACCOUNT, OPERAND_NAMESPACE } from './constants';
import { CcmLeaderMigrationMount } from './operand-props';
import {
  bashCommand,
  CCM_PLATFORM_LABEL,
  CONTROL_PLANE_NODE_SELECTOR,
  hostEtcKubeMount,
  hostEtcKubeVolume,
  MANAGEMENT_WORKLOAD_ANNOTATION,
  ProxySettings,
  proxyEnv,
  requests,
  standardTolerations,
  trustedCaMount,
  trustedCaVolumes,
  waitForTrustBundle,
  hasCloudCaBundle,
} from './pod-conventions';

/** Properties for `CloudControllerManagerDeployment`. */
export interface CloudControllerManagerDeploymentProps {
  /** Deployment name, e.g. `gcp-cloud-controller-manager`; also the `k8s-app` label. */
  readonly name: string;
  /** Value of the `infrastructure.openshift.io/cloud-controller-manager` label: the platform type. */
  readonly platformLabel: string;
  /** The CCM image. */
  readonly image: string;
  /** Path of the CCM binary in the image, run with `exec` after the API server URL preamble. */
  readonly binary: string;
  /** Flags of the CCM, in order. */
  readonly flags: readonly string[];
  /**
   * Container env before the proxy variables.
   *
   * @default - none
   */
  readonly env?: readonly k8s.EnvVar[];
  /**
   * Platform volumes; `trusted-ca` and `host-etc-kube` are added.
   *
   * @default - none
   */
  readonly volumes?: readonly k8s.Volume[];
  /**
   * Platform mounts of the CCM container; `trusted-ca` and `host-etc-kube` are added.
   *
   * @default - none
   */
  readonly volumeMounts?: readonly k8s.VolumeMount[];
  /**
   * Init containers that run before `wait-for-trust-bundle` (e.g. the Azure credentials injector).
   *
   * @default - none
   */
  readonly initContainers?: readonly k8s.Container[];
  /** CPU request, e.g. `200m`. */
  readonly cpu: string;
  /** Memory request, e.g. `50Mi`. */
  readonly memory: string;
  /**
   * Liveness probe of the CCM container.
   *
   * @default - none
   */
  readonly livenessProbe?: k8s.Probe;
  /**
   * Pod termination grace period in seconds.
   *
   * @default - the Kubernetes default (30)
   */
  readonly terminationGracePeriodSeconds?: number;
  /**
   * Tolerations.
   *
   * @default - the standard set (`standardTolerations()`)
   */
  readonly tolerations?: readonly k8s.Toleration[];
  /** ConfigMaps and Secrets the pods mount whose content the generator knows; hashed into the pod template. */
  readonly mountedConfig: MountedConfig;
  /**
   * One replica instead of two (single-replica control planes).
   *
   * @default false
   */
  readonly singleReplica?: boolean;
  /**
   * Proxy env appended to the CCM container (not to init containers).
   *
   * @default - no proxy
   */
  readonly proxy?: ProxySettings;
  /**
   * Leader migration: the lease namespace becomes the KCM's, the migration
   * flags are added and the configuration is mounted (its content is part of
   * the config hash, so a new owner restarts the pods).
   *
   * @default - no leader migration
   */
  readonly leaderMigration?: CcmLeaderMigrationMount;
  /**
   * Order of the CCM container's mounts, by volume name, as the operator's
   * asset lists them (names not listed follow, in their given order).
   *
   * @default - platform mounts, then trusted-ca, then host-etc-kube
   */
  readonly mountOrder?: readonly string[];
  /**
   * Order of the pod's volumes, by name, as the operator's asset lists them.
   *
   * @default - platform volumes, then trusted-ca, then host-etc-kube
   */
  readonly volumeOrder?: readonly string[];
}

/** Items sorted by the position of their name in `order`; names not in it keep their order, after the listed ones. */
export function inOperatorOrder<T extends { readonly name: string }>(items: readonly T[], order?: readonly string[]): T[] {
  if (!order) {
    return [...items];
  }
  const rank = (i: T) => (order.includes(i.name) ? order.indexOf(i.name) : order.length);
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => rank(a.item) - rank(b.item) || a.index - b.index)
    .map((x) => x.item);
}

/**
 * A CCM Deployment with the conventions the operator gives every platform
 * (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/cloud/<platform>/assets/): labels equal to the selector, `Recreate`, two replicas
 * (one on single-replica topology), host network on the control plane with
 * hostname anti-affinity, `system-cluster-critical`, the API server URL
 * preamble, port 10258, the trust bundle and the host's /etc/kubernetes
 * mounted read-only, requests without limits, and the config-hash annotation.
 * Each platform supplies its binary, flags, env, volumes and requests. The
 * pod and Deployment shape is the neutral one (`ccmPodTemplate`,
 * `addCcmWorkload` in src/constructs/ccm-workload.ts).
 */
export class CloudControllerManagerDeployment extends Construct {
  /** The Deployment object. */
  public readonly apiObject: ApiObject;

  constructor(scope: Construct, id: string, props: CloudControllerManagerDeploymentProps) {
    super(scope, id);
    if (!props.image) {
      throw new Error(`'image' of ${props.name} must be a pinned image reference, got ""`);
    }
    if (props.flags.length === 0) {
      throw new Error(`'flags' of ${props.name} must list the CCM flags, got none`);
    }
    const lm = props.leaderMigration;
    if (lm && !lm.configPath.startsWith(`${lm.mountPath}/`)) {
      throw new Error(
        `'leaderMigration.configPath' must be inside 'leaderMigration.mountPath' ${JSON.stringify(lm.mountPath)}, got ${JSON.stringify(lm.configPath)}`,
      );
    }
    const flags = lm ? ccmLeaderMigrationFlags(props.flags, lm) : props.flags;
    const mounted: MountedConfig = lm
      ? { ...props.mountedConfig, configMaps: { ...props.mountedConfig.configMaps, [lm.configMapName]: lm.configMapData } }
      : props.mountedConfig;
    const lmVolumes: k8s.Volume[] = lm ? [{ name: 'leader-migration', configMap: { name: lm.configMapName } }] : [];
    const lmMounts: k8s.VolumeMount[] = lm ? [{ name: 'leader-migration', mountPath: lm.mountPath, readOnly: true }] : [];
    const labels = { 'k8s-app': props.name, [CCM_PLATFORM_LABEL]: props.platformLabel };
    const cloudCa = hasCloudCaBundle(props.mountedConfig);
    const template = ccmPodTemplate({
      labels,
      annotations: MANAGEMENT_WORKLOAD_ANNOTATION,
      mountedConfig: mounted,
      hostNetwork: true,
      serviceAccountName: CCM_SERVICE_ACCOUNT,
      priorityClassName: 'system-cluster-critical',
      nodeSelector: CONTROL_PLANE_NODE_SELECTOR,
      antiAffinityLabels: labels,
      tolerations: props.tolerations ?? standardTolerations(),
      terminationGracePeriodSeconds: props.terminationGracePeriodSeconds,
      initContainers: [...(props.initContainers ?? []), waitForTrustBundle(props.image, cloudCa)],
      container: {
        image: props.image,
        command: bashCommand(props.binary, flags),
        env: [...(props.env ?? []), ...proxyEnv(props.proxy)],
        ports: [{ containerPort: 10258, name: 'https', protocol: 'TCP' }],
        resources: requests(props.cpu, props.memory),
        livenessProbe: props.livenessProbe,
        volumeMounts: inOperatorOrder([...(props.volumeMounts ?? []), ...lmMounts, trustedCaMount(), hostEtcKubeMount()], props.mountOrder),
      },
      volumes: inOperatorOrder([...(props.volumes ?? []), ...lmVolumes, ...trustedCaVolumes(cloudCa), hostEtcKubeVolume()], props.volumeOrder),
    });
    this.apiObject = addCcmWorkload(this, 'Resource', {
      kind: 'Deployment',
      name: props.name,
      namespace: OPERAND_NAMESPACE,
      labels,
      selector: labels,
      replicas: props.singleReplica ? 1 : 2,
      strategy: { type: 'Recreate' },
      template,
    });
  }
}
