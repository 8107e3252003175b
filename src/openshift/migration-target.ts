import { CCM_SERVICE_ACCOUNT, OPERAND_NAMESPACE } from './constants';
import { CCM_PLATFORM_LABEL } from './pod-conventions';
import { MigrationTarget } from '../migration/target';

/**
 * The OpenShift side of a migration: the CCM Deployment of the platform in
 * openshift-cloud-controller-manager, labelled with the platform label.
 */
export const OPENSHIFT_MIGRATION_TARGET: MigrationTarget = {
  ccmNamespace: OPERAND_NAMESPACE,
  ccmServiceAccount: CCM_SERVICE_ACCOUNT,
  isCcmWorkload: (o) => (o.kind === 'Deployment' || o.kind === 'DaemonSet')
    && (o.metadata as { labels?: Record<string, string> }).labels?.[CCM_PLATFORM_LABEL] !== undefined,
  ccmWorkload: 'deployment/cloud-controller-manager',
};
