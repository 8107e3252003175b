import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { CcmWorkloadPlan, EnvVar, MountedVolume } from './workload-plan';
import { CONFIG_HASH_ANNOTATION, configHash, MountedConfig } from '../constructs/config-hash';

/** Properties for `UpstreamCcmWorkload`. */
export interface UpstreamCcmWorkloadProps {
  /** The pod plan (`ccmWorkloadPlan`). */
  readonly plan: CcmWorkloadPlan;
  /** The content of the ConfigMaps the pods mount that ccm-gitops renders; hashed into the pod template so a change rolls the pods. */
  readonly mountedConfig: MountedConfig;
}

/**
 * The upstream CCM as a Deployment (replicas, required hostname
 * anti-affinity, a rolling update that never needs a spare control-plane
 * node) or a DaemonSet on the control-plane nodes, rendered from its plan.
 */
export class UpstreamCcmWorkload extends Construct {
  /** The Deployment or DaemonSet. */
  public readonly apiObject: ApiObject;

  constructor(scope: Construct, id: string, props: UpstreamCcmWorkloadProps) {
    super(scope, id);
    const plan = props.plan;
    if (!plan.image) {
      throw new Error(`'image' of ${plan.name} must be a pinned image reference, got ""`);
    }
    if (plan.kind === 'Deployment' && (plan.replicas === undefined || plan.replicas < 1)) {
      throw new Error(`'replicas' of Deployment ${plan.name} must be at least 1, got ${plan.replicas}`);
    }
    const metadata = { name: plan.name, namespace: plan.namespace, labels: { ...plan.selector } };
    const template: k8s.PodTemplateSpec = {
      metadata: {
        labels: { ...plan.podLabels },
        annotations: { ...plan.podAnnotations, [CONFIG_HASH_ANNOTATION]: configHash(props.mountedConfig) },
      },
      spec: podSpec(plan),
    };
    const selector = { matchLabels: { ...plan.selector } };
    this.apiObject = plan.kind === 'Deployment'
      ? new k8s.KubeDeployment(this, 'Resource', {
        metadata,
        spec: {
          replicas: plan.replicas,
          revisionHistoryLimit: 3,
          selector,
          // host network + one pod per node: a surge pod has nowhere to go, so replace one at a time
          strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: k8s.IntOrString.fromNumber(0), maxUnavailable: k8s.IntOrString.fromNumber(1) } },
          template,
        },
      })
      : new k8s.KubeDaemonSet(this, 'Resource', {
        metadata,
        spec: {
          revisionHistoryLimit: 3,
          selector,
          updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: k8s.IntOrString.fromNumber(1) } },
          template,
        },
      });
  }
}

function podSpec(plan: CcmWorkloadPlan): k8s.PodSpec {
  const s = plan.scheduling;
  const affinity: k8s.Affinity = {
    ...(s.nodeAffinity ? { nodeAffinity: plainCopy(s.nodeAffinity) as k8s.NodeAffinity } : {}),
    ...(plan.antiAffinity ? {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { ...plan.selector } } }],
      },
    } : {}),
  };
  const resources: k8s.ResourceRequirements = {
    requests: Object.fromEntries(Object.entries(plan.requests).map(([k, v]) => [k, k8s.Quantity.fromString(v)])),
    ...(plan.limits ? { limits: Object.fromEntries(Object.entries(plan.limits).map(([k, v]) => [k, k8s.Quantity.fromString(v)])) } : {}),
  };
  return {
    serviceAccountName: plan.serviceAccountName,
    priorityClassName: plan.priorityClassName,
    hostNetwork: plan.hostNetwork,
    dnsPolicy: plan.dnsPolicy,
    ...(s.nodeSelector ? { nodeSelector: { ...s.nodeSelector } } : {}),
    ...(Object.keys(affinity).length > 0 ? { affinity } : {}),
    tolerations: s.tolerations.map((t) => ({ ...t })),
    ...(plan.imagePullSecrets.length > 0 ? { imagePullSecrets: plan.imagePullSecrets.map((name) => ({ name })) } : {}),
    securityContext: { seccompProfile: { type: 'RuntimeDefault' } },
    containers: [{
      name: 'cloud-controller-manager',
      image: plan.image,
      imagePullPolicy: 'IfNotPresent',
      ...(plan.command ? { command: [...plan.command] } : {}),
      args: [...plan.args],
      ...(plan.env.length > 0 ? { env: plan.env.map(toEnv) } : {}),
      ports: [{ name: plan.probe.scheme === 'HTTPS' ? 'https' : 'healthz', containerPort: plan.port, protocol: 'TCP' }],
      livenessProbe: {
        httpGet: { path: plan.probe.path, port: k8s.IntOrString.fromNumber(plan.port), scheme: plan.probe.scheme, ...(plan.probe.host ? { host: plan.probe.host } : {}) },
        initialDelaySeconds: 20,
        periodSeconds: 10,
        timeoutSeconds: 5,
        failureThreshold: 3,
      },
      resources,
      securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
      terminationMessagePolicy: 'FallbackToLogsOnError',
      ...(plan.volumes.length > 0 ? { volumeMounts: plan.volumes.map(toMount) } : {}),
    }],
    ...(plan.volumes.length > 0 ? { volumes: plan.volumes.map(toVolume) } : {}),
  };
}

function toEnv(e: EnvVar): k8s.EnvVar {
  return plainCopy(e) as k8s.EnvVar;
}

function toMount(v: MountedVolume): k8s.VolumeMount {
  return { name: v.name, mountPath: v.mountPath, readOnly: v.readOnly, ...(v.subPath ? { subPath: v.subPath } : {}) };
}

function toVolume(v: MountedVolume): k8s.Volume {
  return { name: v.name, ...plainCopy(v.source) } as k8s.Volume;
}

/**
 * A deep copy of plain data. Not structuredClone: under jest's VM context
 * its objects come from another realm, and cdk8s drops some of their keys.
 */
function plainCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
