import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { CcmWorkloadPlan, EnvVar, MountedVolume } from './workload-plan';
import { MountedConfig } from '../constructs/config-hash';
import { addCcmWorkload, ccmPodTemplate } from '../constructs/ccm-workload';

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
 * node) or a DaemonSet on the control-plane nodes, rendered from its plan
 * through the neutral shape (`ccmPodTemplate`, `addCcmWorkload` in
 * src/constructs/ccm-workload.ts).
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
    this.apiObject = addCcmWorkload(this, 'Resource', {
      kind: plan.kind,
      name: plan.name,
      namespace: plan.namespace,
      labels: plan.selector,
      selector: plan.selector,
      replicas: plan.kind === 'Deployment' ? plan.replicas : undefined,
      revisionHistoryLimit: 3,
      // host network + one pod per node: a surge pod has nowhere to go, so replace one at a time
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: k8s.IntOrString.fromNumber(0), maxUnavailable: k8s.IntOrString.fromNumber(1) } },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: k8s.IntOrString.fromNumber(1) } },
      template: podTemplate(plan, props.mountedConfig),
    });
  }
}

function podTemplate(plan: CcmWorkloadPlan, mountedConfig: MountedConfig): k8s.PodTemplateSpec {
  const s = plan.scheduling;
  const resources: k8s.ResourceRequirements = {
    requests: Object.fromEntries(Object.entries(plan.requests).map(([k, v]) => [k, k8s.Quantity.fromString(v)])),
    ...(plan.limits ? { limits: Object.fromEntries(Object.entries(plan.limits).map(([k, v]) => [k, k8s.Quantity.fromString(v)])) } : {}),
  };
  return ccmPodTemplate({
    labels: plan.podLabels,
    annotations: plan.podAnnotations,
    mountedConfig,
    serviceAccountName: plan.serviceAccountName,
    priorityClassName: plan.priorityClassName,
    hostNetwork: plan.hostNetwork,
    dnsPolicy: plan.dnsPolicy,
    nodeSelector: s.nodeSelector,
    nodeAffinity: s.nodeAffinity ? (plainCopy(s.nodeAffinity) as k8s.NodeAffinity) : undefined,
    antiAffinityLabels: plan.antiAffinity ? plan.selector : undefined,
    tolerations: s.tolerations.map((t) => ({ ...t })),
    imagePullSecrets: plan.imagePullSecrets.length > 0 ? plan.imagePullSecrets : undefined,
    securityContext: { seccompProfile: { type: 'RuntimeDefault' } },
    container: {
      image: plan.image,
      command: plan.command,
      args: plan.args,
      env: plan.env.length > 0 ? plan.env.map(toEnv) : undefined,
      ports: [{ name: plan.probe.scheme === 'HTTPS' ? 'https' : 'healthz', containerPort: plan.port, protocol: 'TCP' }],
      livenessProbe: {
        httpGet: {
          path: plan.probe.path,
          port: k8s.IntOrString.fromNumber(plan.port),
          scheme: plan.probe.scheme,
          ...(plan.probe.host ? { host: plan.probe.host } : {}),
        },
        initialDelaySeconds: 20,
        periodSeconds: 10,
        timeoutSeconds: 5,
        failureThreshold: 3,
      },
      resources,
      securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
      volumeMounts: plan.volumes.length > 0 ? plan.volumes.map(toMount) : undefined,
    },
    volumes: plan.volumes.length > 0 ? plan.volumes.map(toVolume) : undefined,
  });
}

function toEnv(e: EnvVar): k8s.EnvVar {
  return plainCopy(e);
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
