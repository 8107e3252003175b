import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { InlineCloudConfigMap } from './inline-cloud-config-map';
import { podSecurityLabels, podSecurityLevel, strictestAdmitting } from './pod-security';
import { upstreamProviderFor } from './providers';
import { ccmRbac, leaderLease } from './rbac-rules';
import { UpstreamCcmMetrics } from './upstream-ccm-metrics';
import { UpstreamCcmPodDisruptionBudget } from './upstream-ccm-pod-disruption-budget';
import { UpstreamCcmRbac } from './upstream-ccm-rbac';
import { fieldServed } from './field-versions';
import { UpstreamCcmWorkload } from './upstream-ccm-workload';
import { UpstreamCloudNodeManager } from './upstream-cloud-node-manager';
import { ccmWorkloadPlan, CcmWorkloadPlan } from './workload-plan';
import { ccmLeaderMigrationMount } from '../migration/cluster-migration';
import { PreparedCluster } from '../cluster/prepared-cluster';
import { proxyEnv } from '../cluster-spec/proxy';
import { resolveTlsProfile } from '../cluster-spec/tls';

/** Properties for `KubernetesCloudControllerManager`. */
export interface KubernetesCloudControllerManagerProps {
  /** The validated cluster (distribution kubernetes). */
  readonly cluster: PreparedCluster;
}

/**
 * Everything an upstream CCM needs on a vanilla cluster: its namespace (when
 * not kube-system), ServiceAccount and RBAC profile, the inline cloud config
 * (non-secret only), the Deployment or DaemonSet, its PDB, the metrics
 * Service / ServiceMonitor, and Azure's cloud-node-manager.
 */
export class KubernetesCloudControllerManager extends Construct {
  /** The pod plan the workload was rendered from. */
  public readonly plan: CcmWorkloadPlan;

  constructor(scope: Construct, id: string, props: KubernetesCloudControllerManagerProps) {
    super(scope, id);
    const { spec } = props.cluster;
    const s = spec.spec;
    const section = s.kubernetes;
    const provider = upstreamProviderFor(s.platform);
    if (!section || !provider) {
      throw new Error(
        `'spec.kubernetes' and a kubernetes provider are required, got platform "${s.platform}"${section ? '' : ' without spec.kubernetes'}`,
      );
    }
    const inline = props.cluster.cloudConf !== '';
    const lm = ccmLeaderMigrationMount(props.cluster.migration);
    this.plan = ccmWorkloadPlan({
      provider,
      section,
      image: s.images[provider.imageKey] ?? '',
      singleReplica: s.controlPlaneTopology === 'SingleReplica',
      inlineCloudConfig: inline,
      proxy: s.proxy,
      tls: resolveTlsProfile(s.tls),
      leaderMigration: lm,
    });
    const plan = this.plan;
    const namespace =
      section.namespace !== 'kube-system' ? new k8s.KubeNamespace(this, 'Namespace', { metadata: { name: section.namespace } }) : undefined;
    new UpstreamCcmRbac(this, 'Rbac', {
      namespace: plan.namespace,
      serviceAccountName: plan.serviceAccountName,
      serviceAccountLabels: section.serviceAccount.labels,
      serviceAccountAnnotations: section.serviceAccount.annotations,
      rbac: ccmRbac({
        provider,
        useServiceAccountCredentials: section.useServiceAccountCredentials,
        namespace: plan.namespace,
        serviceAccount: plan.serviceAccountName,
        leaderLease: leaderLease(provider, plan.flags, plan.namespace) ?? null,
        flags: plan.flags,
        features: section.equinixMetalLoadBalancer ? [`equinix-lb:${section.equinixMetalLoadBalancer}`] : [],
        configSecretNamespaces: inline && plan.cloudConfig?.rendered ? provider.configSecretNamespaces?.(props.cluster.cloudConf) : undefined,
      }),
      authenticationReader: provider.authenticationReader || section.metrics.enabled,
    });
    const configMaps: Record<string, Record<string, string>> = {};
    if (inline && plan.cloudConfig?.rendered) {
      new InlineCloudConfigMap(this, 'CloudConfig', {
        name: plan.cloudConfig.name,
        namespace: plan.namespace,
        key: plan.cloudConfig.key,
        content: props.cluster.cloudConf,
      });
      configMaps[plan.cloudConfig.name] = { [plan.cloudConfig.key]: props.cluster.cloudConf };
    }
    if (lm) {
      configMaps[lm.configMapName] = { ...lm.configMapData };
    }
    new UpstreamCcmWorkload(this, 'Workload', { plan, mountedConfig: { configMaps } });
    if (plan.podDisruptionBudget) {
      new UpstreamCcmPodDisruptionBudget(this, 'PodDisruptionBudget', {
        name: plan.name,
        namespace: plan.namespace,
        selector: plan.selector,
        unhealthyPodEvictionPolicy: fieldServed('PodDisruptionBudget.spec.unhealthyPodEvictionPolicy', section.version),
      });
    }
    if (section.metrics.enabled) {
      new UpstreamCcmMetrics(this, 'Metrics', {
        name: plan.name,
        namespace: plan.namespace,
        selector: plan.selector,
        port: plan.port,
        serviceMonitor: section.metrics.serviceMonitor,
        scraper: section.metrics.scraper,
      });
    }
    if (provider.cloudNodeManager && section.cloudNodeManager.enabled) {
      new UpstreamCloudNodeManager(this, 'CloudNodeManager', {
        image: s.images.cloudNodeManagerAzure ?? '',
        namespace: plan.namespace,
        waitRoutes: section.configureCloudRoutes,
        imagePullSecrets: section.imagePullSecrets,
        proxyEnv: proxyEnv(s.proxy),
        resources: section.cloudNodeManager.resources,
        tolerations: section.cloudNodeManager.tolerations,
        extraArgs: section.cloudNodeManager.extraArgs,
        windows: section.cloudNodeManager.windows,
      });
    }
    if (namespace) {
      // the namespace we render gets the Pod Security level its pods need (hostNetwork makes it privileged);
      // kube-system is the cluster's own and keeps the cluster's admission defaults
      const pods = this.node
        .findAll()
        .filter((c): c is ApiObject => c instanceof ApiObject && (c.kind === 'Deployment' || c.kind === 'DaemonSet'))
        .map((o) => (o.toJson() as { spec: { template: { spec: Record<string, unknown> } } }).spec.template.spec);
      for (const [key, value] of Object.entries(podSecurityLabels(strictestAdmitting(pods.map(podSecurityLevel))))) {
        namespace.metadata.addLabel(key, value);
      }
    }
  }
}
