/**
 * Served APIs: whether the API server of a Kubernetes minor serves each rendered object's
 * apiVersion/kind (and its fields, with default feature gates), so a sync cannot fail with
 * "no matches for kind". OpenShift clusters are checked at the minor their release ships.
 *
 * Built-in kinds come from test/oracle/field-versions.ts (kubernetes/api per minor); the few
 * built-in kinds that table does not cover are listed in {@link EXTRA_SERVED} with their
 * source. OpenShift's own API groups are served by the payload's CRDs and aggregated APIs on
 * every release the gate table knows; they do not follow the Kubernetes minor.
 *
 * Pure: no cdk8s import.
 */
import { fieldProblems, isTabled, kindKey, KindKey } from './field-versions';

/** A built-in kind outside field-versions.data.json: the minors that serve it by default. */
export interface ServedKind {
  /** First minor serving it by default (beta APIs are off by default from 1.24, KEP-3136). */
  readonly since: number;
  readonly source: string;
}

/** Built-in kinds the field table does not cover (kind-level check only). */
export const EXTRA_SERVED: Readonly<Record<KindKey, ServedKind>> = {
  // v1beta1 (1.28) and v1alpha1 (1.26) are off by default; v1 is GA in 1.30.
  'admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy': {
    since: 30,
    source: 'kubernetes/api@v0.30.0 admissionregistration/v1/types.go (+k8s:prerelease-lifecycle-gen:introduced=1.30; absent at v0.29.0)',
  },
  'admissionregistration.k8s.io/v1 ValidatingAdmissionPolicyBinding': {
    since: 30,
    source: 'kubernetes/api@v0.30.0 admissionregistration/v1/types.go (absent at v0.29.0)',
  },
  'networking.k8s.io/v1 NetworkPolicy': { since: 21, source: 'kubernetes/api@v0.21.0 networking/v1/types.go' },
};

/**
 * API groups an OpenShift 4 payload serves itself: config.openshift.io and operator.openshift.io
 * (openshift/api@release-4.11 config/v1/types_feature.go, types_cluster_operator.go,
 * operator/v1/types_kubecontrollermanager.go), machineconfiguration.openshift.io
 * (openshift/machine-config-operator install/…_01_machineconfig.crd.yaml), cloudcredential.openshift.io
 * (openshift/cloud-credential-operator manifests/…_crd.yaml), monitoring.coreos.com (the monitoring stack).
 */
export const OPENSHIFT_SERVED_GROUPS: readonly string[] = [
  'config.openshift.io',
  'operator.openshift.io',
  'machineconfiguration.openshift.io',
  'cloudcredential.openshift.io',
  'monitoring.coreos.com',
];

type Obj = { apiVersion?: string; kind?: string; metadata?: { name?: string; namespace?: string } };

const groupOf = (apiVersion = ''): string => (apiVersion.includes('/') ? apiVersion.split('/')[0] : '');

/**
 * The rendered objects an OpenShift cluster whose release ships Kubernetes 1.`minor` does not
 * serve, one readable line each (`<apiVersion Kind> <ns/name>[ <field>]: <why>`), sorted.
 */
export function openshiftServedProblems(objects: readonly Obj[], minor: number): string[] {
  const lines: string[] = [];
  for (const o of objects) {
    const key = kindKey(o);
    const name = `${o.metadata?.namespace ? o.metadata.namespace + '/' : ''}${o.metadata?.name ?? '?'}`;
    if (OPENSHIFT_SERVED_GROUPS.includes(groupOf(o.apiVersion))) {
      continue;
    }
    const extra = EXTRA_SERVED[key];
    if (extra) {
      if (minor < extra.since) {
        lines.push(`${key} ${name}: not served by Kubernetes 1.${minor} (served from 1.${extra.since}; ${extra.source})`);
      }
      continue;
    }
    if (!isTabled(key)) {
      lines.push(`${key} ${name}: no served-API fact for this kind: add it to EXTRA_SERVED (test/oracle/served-apis.ts) with its source`);
      continue;
    }
    for (const p of fieldProblems(o, minor)) {
      lines.push(`${p.kind} ${p.name}${p.path ? ` ${p.path}` : ''}: ${p.reason}`);
    }
  }
  return [...new Set(lines)].sort();
}
