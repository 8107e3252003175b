import { KUBERNETES_MIGRATION_CONTROL_PLANE } from './migration/migration-control-plane';
import { upstreamProviderFor } from './providers';
import { UPSTREAM_CCM_SERVICE_ACCOUNT } from './workload-plan';
import { KubernetesSection } from '../cluster-spec/sections/kubernetes';
import { PlatformType } from '../cluster-spec/schema';
import { MigrationTarget } from '../migration/target';

/**
 * The vanilla Kubernetes side of a migration: the upstream CCM workload
 * (`<provider>-cloud-controller-manager`) in `spec.kubernetes.namespace`;
 * the control plane is changed by hand (src/kubernetes/migration/).
 */
export function kubernetesMigrationTarget(platform: PlatformType, section: KubernetesSection): MigrationTarget {
  return {
    ccmNamespace: section.namespace,
    ccmServiceAccount: UPSTREAM_CCM_SERVICE_ACCOUNT,
    isCcmWorkload: (o) => (o.kind === 'Deployment' || o.kind === 'DaemonSet') && /cloud-controller-manager$/.test(o.metadata.name ?? ''),
    ccmWorkload: `${section.workload.kind === 'DaemonSet' ? 'daemonset' : 'deployment'}/${upstreamProviderFor(platform)?.name ?? 'cloud'}-cloud-controller-manager`,
    controlPlane: KUBERNETES_MIGRATION_CONTROL_PLANE,
  };
}
