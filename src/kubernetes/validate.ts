/**
 * Checks of a `kubernetes` distribution spec beyond its schema: fields that
 * only OpenShift reads, the provider's config and image, and the knob
 * combinations that cannot work. Each problem names the field and the fix.
 * Pure: no cdk8s import.
 */
import { kubernetesPlatforms, UPSTREAM_PROVIDERS, UpstreamProvider, upstreamProviderFor } from './providers';
import { KubernetesProblem } from './provider';
import { bindAddress, workloadShape } from './workload-plan';
import { confinedToControlPlane, schedulingPlan } from './scheduling';
import { flagTableFor, isKnownFlag, knownFlagsHint } from './flags';
import { acceptedControllers, controllerNamesFor, enablingItem, refusedControllers } from './controllers';
import { keyHoldsCredential } from '../secrets/detector';
import { extraArgsProblems } from '../cluster-spec/shapes';
import { minorOf } from '../migration/phases';
import { PLATFORM_SPEC_SECTIONS, PlatformSectionKey } from '../cluster-spec/sections/platforms';
import { ClusterSpec } from '../cluster-spec/schema';
import { KubernetesSection } from '../cluster-spec/sections/kubernetes';
import { imageTag, minorSkewProblem } from '../util/version-skew';

export type { KubernetesProblem } from './provider';

/** Flags a typed knob renders: extraArgs may not set them (the knob changes RBAC, mounts or probes too). */
export const KNOB_FLAGS: Readonly<Record<string, string>> = {
  'cloud-provider': 'spec.platform',
  'cloud-config': 'spec.kubernetes.cloudConfig (or spec.cloudConfig.file)',
  'cluster-name': 'spec.kubernetes.clusterName',
  controllers: 'spec.kubernetes.controllers',
  'configure-cloud-routes': 'spec.kubernetes.configureCloudRoutes',
  'allocate-node-cidrs': 'spec.kubernetes.allocateNodeCidrs',
  'cluster-cidr': 'spec.kubernetes.clusterCIDR',
  'use-service-account-credentials': 'spec.kubernetes.useServiceAccountCredentials',
  'leader-elect': 'spec.kubernetes.leaderElect',
  'leader-elect-resource-namespace': 'spec.kubernetes.namespace',
  'bind-address': 'spec.kubernetes.secureServing.bindAddress',
  'secure-port': 'spec.kubernetes.secureServing.port',
  'tls-cipher-suites': 'spec.tls',
  'tls-min-version': 'spec.tls',
  'enable-leader-migration': 'spec.migration',
  'leader-migration-config': 'spec.migration',
};

/** Namespaces every cluster has, besides kube-system (which the renderer leaves unlabelled). */
const SHARED_NAMESPACES: readonly string[] = ['default', 'kube-public', 'kube-node-lease'];

/** The server TLS directory of the distributions that have no /etc/kubernetes/pki, by scheduling preset. */
const RANCHER_TLS_DIRS: Readonly<Record<string, string>> = {
  rke2: '/var/lib/rancher/rke2/server/tls',
  k3s: '/var/lib/rancher/k3s/server/tls',
};

/** OpenShift-only fields of the spec, with why. */
const OPENSHIFT_ONLY: readonly [string, string][] = [
  ['infrastructureName', 'the OpenShift Infrastructure name'],
  ['network', 'read by the OpenShift cloud-config transforms'],
  ['openshift', 'the OpenShift release and feature set'],
];

/** Problems of a spec with `distribution: kubernetes`. */
export function kubernetesProblems(spec: ClusterSpec): KubernetesProblem[] {
  const problems = distributionFieldProblems(spec);
  const provider = upstreamProviderFor(spec.spec.platform);
  const k = spec.spec.kubernetes;
  if (!k || !provider) {
    return problems;
  }
  problems.push(
    ...providerInputProblems(spec, provider, k),
    ...workloadProblems(spec, provider, k),
    ...listProblems(spec, provider, k),
    ...outputProblems(spec, k),
  );
  // one error per flag: a flag a knob owns, or one that looks like a credential, is refused above already
  const reported = new Set(problems.map((p) => p.path.join('.')));
  problems.push(...unknownFlagProblems(spec).filter((p) => !reported.has(p.path.join('.'))));
  problems.push(...unknownControllerProblems(spec));
  return problems;
}

/** The spec's fields beyond `spec.kubernetes`: the provider, the section itself, and what only OpenShift reads. */
function distributionFieldProblems(spec: ClusterSpec): KubernetesProblem[] {
  const problems: KubernetesProblem[] = [];
  const s = spec.spec;
  const at = (path: (string | number)[], message: string) => problems.push({ path, message });
  const provider = upstreamProviderFor(s.platform);
  if (!provider) {
    at(
      ['spec', 'platform'],
      `"${s.platform}" is rendered for distribution openshift only; the kubernetes distribution renders ${kubernetesPlatforms().join(', ')}`,
    );
  }
  const k = s.kubernetes;
  if (!k) {
    at(
      ['spec', 'kubernetes'],
      'is required with distribution kubernetes; set at least spec.kubernetes.version (the cluster\'s Kubernetes minor, e.g. "1.33")',
    );
    return problems;
  }
  if (s.managementMode !== 'gitops') {
    at(
      ['spec', 'managementMode'],
      `"${s.managementMode}" is OpenShift's operator mode; distribution kubernetes renders the CCM directly: remove the field or set "gitops"`,
    );
  }
  for (const [field, why] of OPENSHIFT_ONLY) {
    if ((s as Record<string, unknown>)[field] !== undefined) {
      at(['spec', field], `is ${why} and is not read with distribution kubernetes; remove it`);
    }
  }
  for (const key of Object.keys(PLATFORM_SPEC_SECTIONS) as PlatformSectionKey[]) {
    if ((s as Record<string, unknown>)[key] !== undefined) {
      at(
        ['spec', key],
        `is read by the OpenShift cloud-config transform and is not read with distribution kubernetes; put these settings in the cloud config file`,
      );
    }
  }
  if (s.featureGates.enabled.length > 0 || s.featureGates.disabled.length > 0) {
    at(
      ['spec', 'featureGates'],
      'lists OpenShift FeatureGate status, which distribution kubernetes does not read; pass upstream gates as spec.kubernetes.extraArgs.feature-gates',
    );
  }
  if (s.cloudConfig?.extraKeys) {
    at(
      ['spec', 'cloudConfig', 'extraKeys'],
      'are keys of the OpenShift cloud-conf ConfigMap; with distribution kubernetes mount other files with spec.kubernetes.extraVolumes',
    );
  }
  return problems;
}

/** The image and the cloud config the provider reads, and its own checks (`UpstreamProvider.specProblems`, `ownKnobs`). */
function providerInputProblems(spec: ClusterSpec, provider: UpstreamProvider, k: KubernetesSection): KubernetesProblem[] {
  const problems: KubernetesProblem[] = [];
  const s = spec.spec;
  const at = (path: (string | number)[], message: string) => problems.push({ path, message });
  // image
  if (!s.images[provider.imageKey]) {
    at(
      ['spec', 'images', provider.imageKey],
      `is required for platform ${s.platform}; pin the upstream image by digest or explicit tag (ccm-gitops never derives it from the Kubernetes version)`,
    );
  }
  if (provider.cloudNodeManager && k.cloudNodeManager.enabled && !s.images.cloudNodeManagerAzure) {
    at(
      ['spec', 'images', 'cloudNodeManagerAzure'],
      'is required for the Azure cloud-node-manager DaemonSet; pin it, or set spec.kubernetes.cloudNodeManager.enabled: false',
    );
  }

  const skew = imageSkew(provider, s.images[provider.imageKey], k.version);
  if (skew?.newer) {
    at(['spec', 'images', provider.imageKey], skew.message);
  }

  // cloud config
  const c = k.cloudConfig;
  if (c?.existingSecret && c.existingConfigMap) {
    at(['spec', 'kubernetes', 'cloudConfig'], 'names both existingSecret and existingConfigMap; keep one');
  }
  if (s.cloudConfig?.file !== undefined) {
    if (!provider.config.inline) {
      at(
        ['spec', 'cloudConfig', 'file'],
        `is refused for ${s.platform}: its ${provider.config.what} always holds a credential; create a Secret and name it in spec.kubernetes.cloudConfig.existingSecret`,
      );
    } else if (c?.existingSecret || c?.existingConfigMap) {
      at(['spec', 'cloudConfig', 'file'], 'is set together with spec.kubernetes.cloudConfig; use the inline file or the existing object, not both');
    }
  }
  if (c?.hostPath && (c.existingSecret || c.existingConfigMap || s.cloudConfig?.file !== undefined)) {
    at(
      ['spec', 'kubernetes', 'cloudConfig', 'hostPath'],
      'is set together with another config source; keep one of hostPath, existingSecret, existingConfigMap or spec.cloudConfig.file',
    );
  }
  if (c?.hostPath && provider.config.envVar) {
    at(
      ['spec', 'kubernetes', 'cloudConfig', 'hostPath'],
      `is refused for ${s.platform}: its ${provider.config.what} is read from the env var ${provider.config.envVar}; name a Secret in existingSecret`,
    );
  }
  if (c?.key && c.hostPath) {
    at(['spec', 'kubernetes', 'cloudConfig', 'key'], 'applies to existingSecret or existingConfigMap, not to hostPath; remove it');
  }
  problems.push(...(provider.specProblems?.(spec) ?? []), ...otherProvidersKnobProblems(spec, provider, k));
  if (k.cloudNodeManager.windows && provider.cloudNodeManager && k.cloudNodeManager.enabled && minorOf(k.version) < 26) {
    at(
      ['spec', 'kubernetes', 'cloudNodeManager', 'windows'],
      `needs Windows HostProcess containers, GA in Kubernetes 1.26; spec.kubernetes.version is "${k.version}": upgrade first or set windows: false`,
    );
  }
  if (c?.existingConfigMap && !provider.config.configMapAllowed) {
    at(
      ['spec', 'kubernetes', 'cloudConfig', 'existingConfigMap'],
      `is refused for ${s.platform}: its ${provider.config.what} is a credential; keep it in a Secret (existingSecret)`,
    );
  }
  return problems;
}

/** The workload's shape, placement, serving and metrics. */
function workloadProblems(spec: ClusterSpec, provider: UpstreamProvider, k: KubernetesSection): KubernetesProblem[] {
  const problems: KubernetesProblem[] = [];
  const s = spec.spec;
  const at = (path: (string | number)[], message: string) => problems.push({ path, message });
  // workload
  const shape = workloadShape(provider, k, s.controlPlaneTopology === 'SingleReplica');
  if (shape.kind === 'DaemonSet') {
    if (k.workload.replicas !== undefined) {
      at(
        ['spec', 'kubernetes', 'workload', 'replicas'],
        'applies to a Deployment only; a DaemonSet runs one pod per matching node: remove it or set workload.kind: Deployment',
      );
    }
    if (k.workload.podDisruptionBudget) {
      at(['spec', 'kubernetes', 'workload', 'podDisruptionBudget'], 'applies to a Deployment only; remove it or set workload.kind: Deployment');
    }
  } else if (k.workload.podDisruptionBudget && (shape.replicas ?? 1) < 2) {
    at(
      ['spec', 'kubernetes', 'workload', 'podDisruptionBudget'],
      `with ${shape.replicas} replica would block every node drain; set replicas to 2 or more, or remove it`,
    );
  }
  const replicas = shape.replicas ?? 1;
  const placement = schedulingPlan(k.scheduling.preset, k.scheduling.extraTolerations, k.scheduling.nodeSelector, provider.anyNode !== undefined);
  if (shape.kind === 'Deployment' && replicas > 1 && s.controlPlaneTopology === 'SingleReplica' && confinedToControlPlane(placement)) {
    // each replica needs a control-plane node of its own (required hostname anti-affinity; the host-network port)
    at(
      ['spec', 'kubernetes', 'workload', 'replicas'],
      `is ${replicas} with controlPlaneTopology SingleReplica: each replica needs a control-plane node of its own, so ${replicas - 1} would stay Pending; set 1 or remove it (the default there is 1)`,
    );
  }
  if (!k.leaderElect && (shape.kind === 'DaemonSet' || (shape.replicas ?? 1) > 1)) {
    at(
      ['spec', 'kubernetes', 'leaderElect'],
      `is false with ${shape.kind === 'DaemonSet' ? 'a DaemonSet' : `${shape.replicas} replicas`}: several CCMs would reconcile at once; keep leader election, or run one Deployment replica`,
    );
  }
  if (k.configureCloudRoutes && !k.clusterCIDR && provider.framework === 'cloud-provider') {
    // kubernetes/cloud-provider app/core.go startRouteController: without a parsable --cluster-cidr the controller fails to start and the CCM exits
    at(
      ['spec', 'kubernetes', 'clusterCIDR'],
      'is required with configureCloudRoutes: true (the route controller exits without --cluster-cidr); set the pod network CIDR(s), or set configureCloudRoutes: false',
    );
  }
  if (k.allocateNodeCidrs && !k.clusterCIDR) {
    at(['spec', 'kubernetes', 'clusterCIDR'], 'is required with allocateNodeCidrs: true; set the pod network CIDR(s)');
  }
  if (!k.hostNetwork && k.secureServing.bindAddress === '127.0.0.1') {
    at(
      ['spec', 'kubernetes', 'secureServing', 'bindAddress'],
      '"127.0.0.1" off the host network leaves the port unreachable for the kubelet\'s probe; remove it or set hostNetwork: true',
    );
  }
  if (k.metrics.serviceMonitor && !k.metrics.enabled) {
    at(['spec', 'kubernetes', 'metrics', 'serviceMonitor'], 'needs metrics.enabled: true (the ServiceMonitor selects the metrics Service)');
  }
  if (k.metrics.scraper && !k.metrics.enabled) {
    at(['spec', 'kubernetes', 'metrics', 'scraper'], 'needs metrics.enabled: true');
  }
  if (k.metrics.enabled && bindAddress(k) === '127.0.0.1') {
    at(
      ['spec', 'kubernetes', 'secureServing', 'bindAddress'],
      '"127.0.0.1" with metrics.enabled: a Service cannot reach a loopback port; remove it (metrics bind 0.0.0.0)',
    );
  }
  if (provider.framework === 'controller-runtime') {
    const why = `the ${s.platform} CCM is built on controller-runtime, not k8s.io/cloud-provider`;
    if (k.useServiceAccountCredentials) {
      at(['spec', 'kubernetes', 'useServiceAccountCredentials'], `is not supported: ${why}; remove it`);
    }
    if (k.secureServing.port !== undefined || k.secureServing.bindAddress !== undefined) {
      at(['spec', 'kubernetes', 'secureServing'], `is not supported: ${why} and serves a plain HTTP health probe; remove it`);
    }
    if (k.metrics.enabled) {
      at(['spec', 'kubernetes', 'metrics', 'enabled'], `is not supported: ${why} (its metrics listener is off, --metrics-bind-addr=0); remove it`);
    }
  }
  return problems;
}

/** The merged lists: extraArgs, extraEnv and extraVolumes. */
function listProblems(spec: ClusterSpec, provider: UpstreamProvider, k: KubernetesSection): KubernetesProblem[] {
  const problems: KubernetesProblem[] = [];
  const s = spec.spec;
  const at = (path: (string | number)[], message: string) => problems.push({ path, message });
  // merged lists
  const knobs = Object.keys(k.extraArgs)
    .filter((name) => KNOB_FLAGS[name] !== undefined)
    .sort();
  for (const name of knobs) {
    at(['spec', 'kubernetes', 'extraArgs', name], `is rendered from ${KNOB_FLAGS[name]}; set it there (it changes more than the flag)`);
  }
  // both flag maps render as --name=value: no credential, one flag per entry
  const flags = Object.fromEntries(Object.entries(k.extraArgs).filter(([name]) => KNOB_FLAGS[name] === undefined));
  problems.push(...extraArgsProblems(['spec', 'kubernetes', 'extraArgs'], flags));
  problems.push(...extraArgsProblems(['spec', 'kubernetes', 'cloudNodeManager', 'extraArgs'], k.cloudNodeManager.extraArgs));
  const envNames = new Set<string>();
  k.extraEnv.forEach((e, i) => {
    const sources = e.valueFrom ? Object.values(e.valueFrom).filter((v) => v !== undefined).length : 0;
    if ((e.value !== undefined) === (e.valueFrom !== undefined) || (e.valueFrom && sources !== 1)) {
      at(
        ['spec', 'kubernetes', 'extraEnv', i],
        `"${e.name}" must have exactly one of value or valueFrom (with one of secretKeyRef, configMapKeyRef, fieldRef)`,
      );
    } else if (e.value !== undefined && e.value !== '' && keyHoldsCredential(e.name, e.value)) {
      at(
        ['spec', 'kubernetes', 'extraEnv', i, 'value'],
        `"${e.name}" looks like a credential; env values are committed to git: use valueFrom.secretKeyRef`,
      );
    }
    // a variable set from a pod field is what the binary's grants follow (Nutanix scopes its informers to POD_NAMESPACE)
    const fromPod = provider?.env?.find((v) => v.name === e.name && v.fieldPath !== undefined);
    if (fromPod) {
      at(
        ['spec', 'kubernetes', 'extraEnv', i, 'name'],
        `"${e.name}" is set from the pod's ${fromPod.fieldPath}, where the ${s.platform} CCM's Role is granted; another value leaves the CCM without access there: remove it (to run elsewhere, set spec.kubernetes.namespace)`,
      );
    }
    if (envNames.has(e.name)) {
      at(['spec', 'kubernetes', 'extraEnv', i, 'name'], `"${e.name}" is listed twice; keep one`);
    }
    envNames.add(e.name);
  });
  const volumeNames = new Set<string>();
  const mountPaths = new Set<string>();
  k.extraVolumes.forEach((v, i) => {
    const sources = [v.secret, v.configMap, v.hostPath, v.emptyDir ? true : undefined].filter((x) => x !== undefined).length;
    if (sources !== 1) {
      at(['spec', 'kubernetes', 'extraVolumes', i], `"${v.name}" must have exactly one of secret, configMap, hostPath or emptyDir`);
    }
    if (volumeNames.has(v.name)) {
      at(['spec', 'kubernetes', 'extraVolumes', i, 'name'], `"${v.name}" is listed twice; keep one`);
    }
    if (mountPaths.has(v.mountPath)) {
      at(['spec', 'kubernetes', 'extraVolumes', i, 'mountPath'], `"${v.mountPath}" is mounted twice; give each volume its own path`);
    }
    volumeNames.add(v.name);
    mountPaths.add(v.mountPath);
  });
  return problems;
}

/** The output mode, the migration's version, the namespace and the host certificates. */
function outputProblems(spec: ClusterSpec, k: KubernetesSection): KubernetesProblem[] {
  const problems: KubernetesProblem[] = [];
  const s = spec.spec;
  const at = (path: (string | number)[], message: string) => problems.push({ path, message });
  // output
  if (k.output.mode === 'manifest-dir' && s.gitops.engine !== 'plain') {
    at(
      ['spec', 'gitops', 'engine'],
      `"${s.gitops.engine}" cannot apply output mode manifest-dir: k3s/RKE2 apply server/manifests themselves; set engine plain or output.mode plain`,
    );
  }
  if (k.output.mode === 'cluster-resource-set') {
    const seen = new Set<string>();
    k.output.clusterResourceSet.resources.forEach((r, i) => {
      const where = ['spec', 'kubernetes', 'output', 'clusterResourceSet', 'resources', i];
      if (seen.has(`${r.kind}/${r.name}`)) {
        at(where, `${r.kind} "${r.name}" is listed twice; list each once`);
      } else if (r.kind === 'ConfigMap' && r.name.startsWith(`ccm-${spec.metadata.name}-`)) {
        at(where, `ConfigMap "${r.name}" is a name the renderer gives its own stage ConfigMaps (ccm-${spec.metadata.name}-<stage>); rename it`);
      }
      seen.add(`${r.kind}/${r.name}`);
    });
  }
  if (s.migration && s.migration.kubernetesVersion !== k.version) {
    at(
      ['spec', 'migration', 'kubernetesVersion'],
      `"${s.migration.kubernetesVersion}" differs from spec.kubernetes.version "${k.version}"; both name the control plane's minor: make them equal`,
    );
  }
  // a namespace the renderer creates gets the PodSecurity level its pods need; one every cluster has would admit any pod there at it
  if (SHARED_NAMESPACES.includes(k.namespace)) {
    at(
      ['spec', 'kubernetes', 'namespace'],
      `"${k.namespace}" is a namespace every cluster has and other workloads use; the renderer labels its namespace with the PodSecurity level the CCM needs (privileged on the host network), which would admit every pod there at that level: use kube-system or a namespace of its own`,
    );
  }
  // kubelet refuses a missing hostPath of type Directory, and RKE2 and k3s keep their certificates elsewhere
  const rancherTls = RANCHER_TLS_DIRS[k.scheduling.preset];
  if (k.hostCertificates && rancherTls) {
    at(
      ['spec', 'kubernetes', 'hostCertificates'],
      `mounts the node's /etc/kubernetes/pki (hostPath type Directory), which ${k.scheduling.preset} nodes lack (their certificates are in ${rancherTls}): the pod never starts; remove it and mount ${rancherTls} with spec.kubernetes.extraVolumes (hostPath) where a CA file is needed`,
    );
  }
  return problems;
}

/** The knobs of other providers a spec sets (`UpstreamProvider.ownKnobs`), by field: each read by its provider only. */
function otherProvidersKnobProblems(spec: ClusterSpec, provider: UpstreamProvider, k: KubernetesSection): KubernetesProblem[] {
  return Object.values(UPSTREAM_PROVIDERS)
    .filter((p) => p !== provider)
    .flatMap((p) => p?.ownKnobs ?? [])
    .filter((knob) => knob.isSet(k))
    .sort((a, b) => (a.field < b.field ? -1 : a.field > b.field ? 1 : 0))
    .map((knob) => ({ path: ['spec', 'kubernetes', knob.field], message: knob.refusal(spec.spec.platform) }));
}

/**
 * `spec.kubernetes.controllers` items the binary at the pinned tag does not know (its names plus
 * the aliases it passes): it exits at start. A tag whose names were not read is not checked.
 */
export function unknownControllerProblems(spec: ClusterSpec): KubernetesProblem[] {
  const provider = upstreamProviderFor(spec.spec.platform);
  const list = spec.spec.kubernetes?.controllers;
  if (!provider || !list) {
    return [];
  }
  const names = controllerNamesFor(provider.name, imageTag(spec.spec.images[provider.imageKey] ?? ''));
  if (!names) {
    return [];
  }
  const refused = refusedControllers(list, names).map((r) => ({
    path: ['spec', 'kubernetes', 'controllers', r.index],
    message:
      `"${r.name}" is not a controller of the ${spec.spec.platform} CCM at ${names.tag}, which exits at start ("is not in the list of known controllers"); ` +
      (r.closest !== undefined
        ? `use "${r.closest}" (prefix "-" to turn it off)`
        : `use one of ${acceptedControllers(names).join(', ')} (prefix "-" to turn one off), or "*"`),
  }));
  // the renderer turns a fatal node IPAM controller off itself only when the list is its own
  const ipam = provider.nodeIpamController;
  const on = ipam && !spec.spec.kubernetes?.allocateNodeCidrs ? enablingItem(list, names, ipam.name) : undefined;
  return [
    ...refused,
    ...(on && ipam
      ? [
          {
            path: ['spec', 'kubernetes', 'controllers', on.index],
            message: `"${on.item}" turns on ${ipam.name}, which makes the ${spec.spec.platform} CCM exit at start without allocateNodeCidrs ("the AllocateNodeCIDRs is not enabled"); add "-${ipam.name}" before it, or set allocateNodeCidrs: true with clusterCIDR`,
          },
        ]
      : []),
  ];
}

/**
 * The Kubernetes minor an image is built for: the provider's per-tag table
 * (go.mod at that tag), else the tag itself when the provider's tags follow
 * Kubernetes minors (`v1.NN.x`); undefined for a digest-only reference or an
 * unknown tag of another scheme.
 */
export function imageMinor(provider: UpstreamProvider, image: string): string | undefined {
  const tag = imageTag(image);
  if (tag === undefined) {
    return undefined;
  }
  const known = provider.tagMinors[tag];
  if (known) {
    return known.minor;
  }
  const m = /^v?1\.(0|[1-9][0-9]*)\.[0-9]+/.exec(tag);
  return provider.tagsFollowKubernetes && m ? `1.${m[1]}` : undefined;
}

/** The version-skew problem of the CCM image against spec.kubernetes.version; `newer` is an error, an older image a warning. */
export function imageSkew(
  provider: UpstreamProvider,
  image: string | undefined,
  apiServerMinor: string,
): { newer: boolean; message: string } | undefined {
  const minor = image ? imageMinor(provider, image) : undefined;
  if (!image || minor === undefined) {
    return undefined;
  }
  const problem = minorSkewProblem('cloud-controller-manager', minor, apiServerMinor);
  if (!problem) {
    return undefined;
  }
  const newer = Number(minor.split('.')[1]) > Number(apiServerMinor.split('.')[1]);
  return { newer, message: `"${image}" is built for Kubernetes ${minor}: ${problem}` };
}

/** Warnings of a valid `kubernetes` distribution spec: an image more than one minor older than the API server; routes the CCM may not program. */
export function kubernetesWarnings(spec: ClusterSpec): string[] {
  const provider = upstreamProviderFor(spec.spec.platform);
  const k = spec.spec.kubernetes;
  if (!provider || !k) {
    return [];
  }
  const skew = imageSkew(provider, spec.spec.images[provider.imageKey], k.version);
  const warnings = skew && !skew.newer ? [`spec.images.${provider.imageKey}: ${skew.message}`] : [];
  if (k.configureCloudRoutes && provider.routesNeed) {
    warnings.push(
      `spec.kubernetes.configureCloudRoutes: is true but the ${spec.spec.platform} CCM programs routes only ${provider.routesNeed.what}; without that its route controller never starts and pods on other nodes are unreachable: check it, or set configureCloudRoutes to false and let the CNI route`,
    );
  }
  if (k.namespace !== 'kube-system') {
    warnings.push(
      `spec.kubernetes.namespace: "${k.namespace}" is rendered as a Namespace labelled with the Pod Security level the CCM's pods need (privileged on the host network or with host paths); if it already exists, every other pod in it is admitted at that level and its own Pod Security labels are replaced: give the CCM a namespace of its own`,
    );
  }
  warnings.push(...replicaWarnings(provider, spec));
  return [...warnings, ...apiServerEnvWarnings(spec)];
}

/** Control-plane nodes of a highly available control plane (kubeadm's and the distributions' HA layouts). */
const HA_CONTROL_PLANE_NODES = 3;

/** More Deployment replicas kept on the control plane than it has nodes: the rest stay Pending (one per node). */
function replicaWarnings(provider: UpstreamProvider, spec: ClusterSpec): string[] {
  const k = spec.spec.kubernetes!;
  const shape = workloadShape(provider, k, spec.spec.controlPlaneTopology === 'SingleReplica');
  const replicas = shape.replicas ?? 1;
  const placement = schedulingPlan(k.scheduling.preset, k.scheduling.extraTolerations, k.scheduling.nodeSelector, provider.anyNode !== undefined);
  if (shape.kind !== 'Deployment' || replicas <= HA_CONTROL_PLANE_NODES || !confinedToControlPlane(placement)) {
    return [];
  }
  return [
    `spec.kubernetes.workload.replicas: is ${replicas} and each replica needs a control-plane node of its own (required anti-affinity on the hostname, the host network port); a highly available control plane has ${HA_CONTROL_PLANE_NODES} nodes, so ${replicas - HA_CONTROL_PLANE_NODES} would stay Pending unless the cluster has ${replicas}: set ${HA_CONTROL_PLANE_NODES} or fewer, or schedule off the control plane (spec.kubernetes.scheduling.nodeSelector)`,
  ];
}

/**
 * A loopback KUBERNETES_SERVICE_HOST under the kubeadm preset: client-go verifies the API server
 * certificate against that host, and kubeadm puts loopback only in the etcd certificates
 * (kubernetes/kubernetes@025f2834a128 cmd/kubeadm/app/util/pkiutil/pki_helpers.go GetAPIServerAltNames).
 * A warning, not an error: an administrator may have added it to apiServer.certSANs.
 */
export function apiServerEnvWarnings(spec: ClusterSpec): string[] {
  const k = spec.spec.kubernetes;
  if (!k || k.scheduling.preset !== 'kubeadm') {
    return [];
  }
  return k.extraEnv.flatMap((e, i) =>
    e.name === 'KUBERNETES_SERVICE_HOST' && typeof e.value === 'string' && /^(127\.|::1$|\[::1\]$|localhost$)/i.test(e.value)
      ? [
          `spec.kubernetes.extraEnv.${i}: KUBERNETES_SERVICE_HOST=${e.value} is not in the API server certificate kubeadm issues, so every API call fails TLS verification; ` +
            'remove it (kube-proxy serves the kubernetes Service before a CNI runs) or point it at the controlPlaneEndpoint host, or add it to the ClusterConfiguration apiServer.certSANs',
        ]
      : [],
  );
}

/** Problems of an inline cloud config that the RBAC depends on, by the provider's own checks (`UpstreamProvider.cloudConfigProblems`). */
export function kubernetesCloudConfigProblems(spec: ClusterSpec, cloudConf: string): KubernetesProblem[] {
  return upstreamProviderFor(spec.spec.platform)?.cloudConfigProblems?.(spec, cloudConf) ?? [];
}

/**
 * extraArgs the binary does not know, CCM and Azure cloud-node-manager, at the image tag the spec
 * pins (the flag set changes per tag): each binary exits on an unknown flag (cobra and pflag
 * ExitOnError). Alibaba's set is UpstreamProvider.knownFlags, the others' flags/ (read per tag).
 * A tag whose set was not read is not checked.
 */
export function unknownFlagProblems(spec: ClusterSpec): KubernetesProblem[] {
  const provider = upstreamProviderFor(spec.spec.platform);
  const k = spec.spec.kubernetes;
  if (!provider || !k) {
    return [];
  }
  const tag = imageTag(spec.spec.images[provider.imageKey] ?? '');
  const known = provider.knownFlags;
  // Alibaba's list holds one tag: only that tag (or a digest-only pin of it) is checked
  const ccm = known
    ? tag === undefined || tag === known.tag
      ? { tag: known.tag, flags: known.flags }
      : undefined
    : flagTableFor(provider.name, tag);
  const problems = unknownIn(ccm, k.extraArgs, ['spec', 'kubernetes', 'extraArgs'], `${spec.spec.platform} CCM`);
  if (provider.cloudNodeManager && k.cloudNodeManager.enabled) {
    const cnmTag = imageTag(spec.spec.images.cloudNodeManagerAzure ?? '');
    const cnm = flagTableFor(`${provider.name}-cloud-node-manager`, cnmTag);
    // the Linux and the Windows DaemonSet take the same extraArgs: a flag only the Windows binary registers stops the Linux one
    const windows = flagTableFor(`${provider.name}-cloud-node-manager-windows`, cnmTag);
    problems.push(
      ...unknownIn(cnm, k.cloudNodeManager.extraArgs, ['spec', 'kubernetes', 'cloudNodeManager', 'extraArgs'], 'Azure cloud-node-manager').map((p) =>
        windows && isKnownFlag(String(p.path[p.path.length - 1]), windows.flags)
          ? {
              ...p,
              message: `is a flag of the Windows cloud-node-manager only (registered in a //go:build windows file); the Linux DaemonSet takes the same extraArgs and its binary at ${windows.tag} exits on an unknown flag: remove it`,
            }
          : p,
      ),
    );
  }
  return problems;
}

function unknownIn(
  table: { tag: string; flags: readonly string[] } | undefined,
  extraArgs: Record<string, unknown>,
  path: string[],
  what: string,
): KubernetesProblem[] {
  if (!table) {
    return [];
  }
  return Object.keys(extraArgs)
    .filter((name) => !isKnownFlag(name, table.flags))
    .map((name) => ({
      path: [...path, name],
      message: `is not a flag of the ${what} at ${table.tag}, which exits on an unknown flag; ${knownFlagsHint(name, table.flags)}`,
    }));
}
