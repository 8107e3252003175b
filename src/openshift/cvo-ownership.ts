/**
 * Who writes each object on an OpenShift cluster: the cluster-version
 * operator (CVO) applies every manifest of the release payload that no
 * `ClusterVersion` `spec.overrides` entry marks `unmanaged`, replacing any
 * difference on each sync (openshift/cluster-version-operator@6e719331fb58
 * lib/resourceapply/rbac.go, lib/resourcemerge/rbac.go). For each object
 * ccm-gitops renders that the payload also ships, one of:
 * - `release`: rendered exactly as the cluster's release ships it, so both
 *   writers write the same thing;
 * - `override`: rendered differently, together with the override entry that
 *   takes it from CVO.
 * Payload objects ccm-gitops does not render stay with CVO, as the release
 * ships them. Pure: no cdk8s import.
 */
import { compareMinor, parseRelease } from './release';
import { OPERAND_NAMESPACE, OPERATOR_NAMESPACE } from './constants';
import { PRUNE_PROTECTED_KINDS } from '../gitops/prune-protection';

/** The manifests folder the payload facts come from. */
export const PAYLOAD_SOURCE = 'openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c manifests/';

/** A `ClusterVersion` `spec.overrides` entry (openshift/api@2a3d73913b5a config/v1/types_cluster_version.go `ComponentOverride`). */
export interface ComponentOverride {
  readonly kind: string;
  readonly group: string;
  readonly namespace: string;
  readonly name: string;
  readonly unmanaged: true;
}

/** One object of the release payload. */
export interface PayloadObject {
  readonly kind: string;
  /** API group ("" for core). */
  readonly group: string;
  readonly namespace?: string;
  readonly name: string;
  /** The manifest file under `manifests/` (prefix `0000_26_cloud-controller-manager-operator_`). */
  readonly manifest: string;
  /**
   * The first release whose manifest equals what ccm-gitops renders (by
   * `git diff release-X.Y main -- manifests/`); `never` when ccm-gitops
   * always renders something else (pinned images instead of the payload's
   * digests).
   */
  readonly sameSince: string;
  /**
   * The object first appeared in release `sameSince`: older payloads do not
   * ship it, so CVO does not write it there and it needs no override.
   *
   * @default false
   */
  readonly addedIn?: boolean;
  /**
   * Earlier versions of ccm-gitops overrode it on releases before this one (they rendered a newer
   * release's content there): the override may still be set, so it stays among the entries a mode
   * change or the way back replaces.
   *
   * @default - never overridden where it is now rendered as the release ships it
   */
  readonly overriddenBefore?: string;
}

const CCM = 'cloud-controller-manager';
const OP_SA = 'cluster-cloud-controller-manager';
const RBAC = 'rbac.authorization.k8s.io';
const CRED = 'cloudcredential.openshift.io';
const CREDS_NS = 'openshift-cloud-credential-operator';

function p(manifest: string, sameSince: string, kind: string, group: string, name: string, namespace?: string, addedIn?: boolean): PayloadObject {
  return { kind, group, name, namespace, manifest, sameSince, ...(addedIn ? { addedIn } : {}) };
}

/**
 * Every object of the payload's `manifests/` at main (release-4.23, 5.0 and
 * 5.1 have the same files). `sameSince` from the diff of each release branch
 * against main: release-4.22 lacks the create/update/patch of Role
 * openshift-config-managed and the hostaccess ClusterRoleBinding, and has
 * fewer GCP permissions; release-4.21 also lacks the metrics rules of both
 * ClusterRoles, the webhook port of the metrics Service and two Azure
 * permissions; release-4.19 has no default-deny NetworkPolicies; release-4.18
 * no Role kube-system of the operator; release-4.17 no admission-policy rule
 * of the operator. All but Azure's permissions are rendered per release.
 */
export const PAYLOAD_OBJECTS: readonly PayloadObject[] = [
  p('00_namespace.yaml', '4.16', 'Namespace', '', OPERATOR_NAMESPACE),
  p('00_namespace.yaml', '4.16', 'Namespace', '', OPERAND_NAMESPACE),
  p('01_images.configmap.yaml', 'never', 'ConfigMap', '', 'cloud-controller-manager-images', OPERATOR_NAMESPACE),
  p('02_rbac_operator.yaml', '4.16', 'ServiceAccount', '', OP_SA, OPERATOR_NAMESPACE),
  // rules added in 4.18 and 4.22; OperatorRbac renders each release's rules
  p('02_rbac_operator.yaml', '4.16', 'ClusterRole', RBAC, 'system:openshift:operator:cloud-controller-manager'),
  p('02_rbac_operator.yaml', '4.16', 'ClusterRoleBinding', RBAC, 'system:openshift:operator:cloud-controller-manager'),
  p('02_rbac_operator.yaml', '4.16', 'Role', RBAC, OP_SA, OPERATOR_NAMESPACE),
  p('02_rbac_operator.yaml', '4.16', 'RoleBinding', RBAC, OP_SA, OPERATOR_NAMESPACE),
  p('02_rbac_operator.yaml', '4.16', 'Role', RBAC, OP_SA, 'openshift-config'),
  p('02_rbac_operator.yaml', '4.16', 'RoleBinding', RBAC, OP_SA, 'openshift-config'),
  // changed in 4.23 (create/update/patch); OperatorRbac renders each release's rules
  p('02_rbac_operator.yaml', '4.16', 'Role', RBAC, OP_SA, 'openshift-config-managed'),
  p('02_rbac_operator.yaml', '4.16', 'RoleBinding', RBAC, OP_SA, 'openshift-config-managed'),
  // first shipped in 4.19 (PAYLOAD_PARTS_SINCE.operatorKubeSystemRole)
  p('02_rbac_operator.yaml', '4.19', 'Role', RBAC, OP_SA, 'kube-system', true),
  p('02_rbac_operator.yaml', '4.19', 'RoleBinding', RBAC, OP_SA, 'kube-system', true),
  p('02_rbac_operator.yaml', '4.16', 'RoleBinding', RBAC, OP_SA, OPERAND_NAMESPACE),
  p(
    '02_rbac_operator.yaml',
    '4.23',
    'ClusterRoleBinding',
    RBAC,
    'system:openshift:scc:hostaccess:cloud-controller-manager-operator',
    undefined,
    true,
  ),
  p('03_rbac_provider.yaml', '4.16', 'ServiceAccount', '', CCM, OPERAND_NAMESPACE),
  p('03_rbac_provider.yaml', '4.16', 'Role', RBAC, CCM, OPERAND_NAMESPACE),
  p('03_rbac_provider.yaml', '4.16', 'RoleBinding', RBAC, CCM, OPERAND_NAMESPACE),
  p('03_rbac_provider.yaml', '4.16', 'Role', RBAC, CCM, 'kube-system'),
  p('03_rbac_provider.yaml', '4.16', 'RoleBinding', RBAC, CCM, 'kube-system'),
  // metrics rules added in 4.22; ProviderRbac renders each release's rules
  p('03_rbac_provider.yaml', '4.16', 'ClusterRole', RBAC, CCM),
  p('03_rbac_provider.yaml', '4.16', 'ClusterRoleBinding', RBAC, CCM),
  p('03_rbac_provider.yaml', '4.16', 'RoleBinding', RBAC, 'cloud-controller-manager:apiserver-authentication-reader', 'kube-system'),
  p('03_rbac_provider.yaml', '4.16', 'ServiceAccount', '', 'cloud-node-manager', OPERAND_NAMESPACE),
  p('03_rbac_provider.yaml', '4.16', 'ClusterRole', RBAC, 'cloud-node-manager'),
  p('03_rbac_provider.yaml', '4.16', 'ClusterRoleBinding', RBAC, 'cloud-node-manager'),
  p('04_rbac_provider_openstack.yaml', '4.16', 'ServiceAccount', '', CCM, 'kube-system'),
  p('04_rbac_provider_openstack.yaml', '4.16', 'ClusterRole', RBAC, 'openstack-cloud-controller-manager'),
  p('04_rbac_provider_openstack.yaml', '4.16', 'ClusterRoleBinding', RBAC, 'openstack-cloud-controller-manager'),
  // ports changed in 4.22; OperatorMetricsService renders each release's ports
  p('05_metrics-service.yaml', '4.16', 'Service', '', 'cloud-controller-manager-operator', OPERATOR_NAMESPACE),
  p('10_networkpolicy-default-deny.yaml', '4.20', 'NetworkPolicy', 'networking.k8s.io', 'default-deny', OPERATOR_NAMESPACE, true),
  p('10_networkpolicy-default-deny.yaml', '4.20', 'NetworkPolicy', 'networking.k8s.io', 'default-deny', OPERAND_NAMESPACE, true),
  p('13_credentialsrequest-openstack.yaml', '4.16', 'CredentialsRequest', CRED, 'openshift-openstack-cloud-controller-manager', CREDS_NS),
  p('14_credentialsrequest-azure.yaml', '4.22', 'CredentialsRequest', CRED, 'openshift-azure-cloud-controller-manager', CREDS_NS),
  p('15_credentialsrequest-ibm.yaml', '4.16', 'CredentialsRequest', CRED, 'openshift-ibm-cloud-controller-manager', CREDS_NS),
  p('15_credentialsrequest-powervs.yaml', '4.16', 'CredentialsRequest', CRED, 'openshift-powervs-cloud-controller-manager', CREDS_NS),
  // 13 permissions added in 4.23; the GCP facts render each release's list (earlier versions rendered 4.23's everywhere)
  { ...p('16_credentialsrequest-gcp.yaml', '4.16', 'CredentialsRequest', CRED, 'openshift-gcp-ccm', CREDS_NS), overriddenBefore: '4.23' },
  p('17_credentialsrequest-vsphere.yaml', '4.16', 'CredentialsRequest', CRED, 'openshift-vsphere-cloud-controller-manager', CREDS_NS),
  p('18_credentialsrequest-nutanix.yaml', '4.16', 'CredentialsRequest', CRED, 'openshift-nutanix-cloud-controller-manager', CREDS_NS),
  p('50_deployment.yaml', 'never', 'Deployment', 'apps', 'cluster-cloud-controller-manager-operator', OPERATOR_NAMESPACE),
  p('60_clusteroperator.yaml', '4.16', 'ClusterOperator', 'config.openshift.io', CCM),
];

/**
 * Payload files whose name or presence differs on older release branches (`git ls-tree release-X.Y manifests/`):
 * the operator Deployment and ClusterOperator were `11_deployment.yaml` and `12_clusteroperator.yaml` up to
 * release-4.21; the metrics Service first shipped in 4.15, the Nutanix CredentialsRequest in 4.13.
 */
const RENAMED_BEFORE: Readonly<Record<string, { readonly until: string; readonly manifest: string }>> = {
  '50_deployment.yaml': { until: '4.21', manifest: '11_deployment.yaml' },
  '60_clusteroperator.yaml': { until: '4.21', manifest: '12_clusteroperator.yaml' },
};
/**
 * release-4.22 renamed both in a z-stream (…@release-4.22 fcec1f44, merged at b99c3d88 on 2026-07-08); the first
 * 4.22.z carrying it is not known from the branch, so a 4.22 payload is named with both names.
 */
const RENAMED_IN_Z_STREAM_OF = '4.22';
const FIRST_SHIPPED: Readonly<Record<string, string>> = {
  '05_metrics-service.yaml': '4.15',
  '18_credentialsrequest-nutanix.yaml': '4.13',
};

/**
 * Objects older payloads ship that main does not: the kube-rbac-proxy ConfigMap of the operator's metrics
 * (release-4.15 … release-4.21) and the tombstone that deletes the operator Deployment of 4.8 and earlier
 * (`release.openshift.io/delete`, up to release-4.19). ccm-gitops renders neither.
 */
export const OLDER_PAYLOAD_OBJECTS: readonly (PayloadObject & { readonly shippedFrom: string; readonly shippedUntil: string })[] = [
  {
    ...p('06_kube-rbac-proxy-config.yaml', 'never', 'ConfigMap', '', 'kube-rbac-proxy', OPERATOR_NAMESPACE),
    shippedFrom: '4.15',
    shippedUntil: '4.21',
  },
  {
    ...p('10_deployment_tombstone.yaml', 'never', 'Deployment', 'apps', 'cluster-cloud-controller-manager', OPERATOR_NAMESPACE),
    shippedFrom: '4.12',
    shippedUntil: '4.19',
  },
];

/** The manifest file of a payload object in release `minor` (`X.Y`; main's without one), undefined when that release does not ship it. */
export function manifestIn(o: PayloadObject, minor?: string): string | undefined {
  if (minor === undefined) {
    return o.manifest;
  }
  const first = o.addedIn ? o.sameSince : FIRST_SHIPPED[o.manifest];
  if (first !== undefined && compareMinor(minor, first) < 0) {
    return undefined;
  }
  const renamed = RENAMED_BEFORE[o.manifest];
  return renamed && compareMinor(minor, renamed.until) <= 0 ? renamed.manifest : o.manifest;
}

/**
 * How HANDOVER.md names the manifest of a payload object in release `minor`: {@link manifestIn} (the release
 * branch's head), or both names where a z-stream of the release renamed the file.
 */
export function manifestLabelIn(o: PayloadObject, minor?: string): string | undefined {
  const manifest = manifestIn(o, minor);
  const renamed = RENAMED_BEFORE[o.manifest];
  return renamed && minor === RENAMED_IN_Z_STREAM_OF ? `${renamed.manifest} (early ${minor}.z) or ${manifest}` : manifest;
}

/** The payload objects release `minor` ships that `PAYLOAD_OBJECTS` (main's) lacks. */
export function olderPayloadObjects(minor?: string): PayloadObject[] {
  return minor === undefined
    ? []
    : OLDER_PAYLOAD_OBJECTS.filter((o) => compareMinor(minor, o.shippedFrom) >= 0 && compareMinor(minor, o.shippedUntil) <= 0);
}

/** Where the payload facts of release `minor` come from. */
export function payloadSource(minor?: string): string {
  return minor === undefined ? PAYLOAD_SOURCE : `openshift/cluster-cloud-controller-manager-operator@release-${minor} manifests/`;
}

/** The operator Deployment of the payload. */
export const OPERATOR_DEPLOYMENT: PayloadObject = PAYLOAD_OBJECTS.find((o) => o.kind === 'Deployment')!;

/** ClusterOperator `cloud-controller-manager`: its `status.versions` are what CVO waits for during an update. */
export const CLUSTER_OPERATOR: PayloadObject = PAYLOAD_OBJECTS.find((o) => o.kind === 'ClusterOperator')!;

/**
 * Why gitops mode takes the ClusterOperator from CVO: during an update CVO waits until it reports the
 * payload's versions, only the operator writes them, and an unmanaged override skips the manifest before
 * that wait (openshift/cluster-version-operator@release-4.18 pkg/cvo/sync_worker.go `apply`,
 * pkg/cvo/internal/operatorstatus.go `checkOperatorHealth`; the same at release-4.14 … release-4.23).
 */
export const CLUSTER_OPERATOR_REASON =
  'with the operator scaled to 0 nobody reports its status.versions, and CVO would stop every update at runlevel 0000_26 waiting for them';

/** The identity of a rendered object. */
export interface ObjectIdentity {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name?: string; readonly namespace?: string };
}

function groupOf(apiVersion: string): string {
  return apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
}

/** The payload object with the same group, kind, namespace and name, if any. */
export function payloadObjectFor(o: ObjectIdentity): PayloadObject | undefined {
  const group = groupOf(o.apiVersion);
  return PAYLOAD_OBJECTS.find(
    (p) => p.kind === o.kind && p.group === group && p.name === o.metadata.name && (p.namespace ?? '') === (o.metadata.namespace ?? ''),
  );
}

/** What happens to one rendered payload object. */
export interface OwnershipDecision {
  readonly object: PayloadObject;
  readonly decision: 'release' | 'override' | 'not-in-release';
  /** Why, for the handover. */
  readonly reason: string;
}

/** The decisions for one cluster. */
export interface ClusterOwnership {
  /** Rendered objects the payload also ships, in payload order. */
  readonly rendered: readonly OwnershipDecision[];
  /** Payload objects not rendered: CVO keeps applying them (in gitops mode the operator Deployment, overridden and scaled to 0, and the ClusterOperator, overridden, excepted). */
  readonly notRendered: readonly PayloadObject[];
  /** The `spec.overrides` entries, sorted by kind, namespace, name. */
  readonly overrides: readonly ComponentOverride[];
  /** Whether the operator Deployment is scaled to 0 (gitops mode). */
  readonly scaleDownOperator: boolean;
  /**
   * Every override ccm-gitops may set on this release in either mode (identities): the entries a mode
   * change replaces; any other entry is the cluster's own and stays.
   */
  readonly ccmOverrides: readonly OverrideIdentity[];
  /**
   * Rendered objects the payload does not ship and GitOps may prune (the operands the operator renders
   * in operator mode), sorted.
   */
  readonly operands: readonly ObjectIdentity[];
  /** The feature set of a rendered FeatureGate that blocks minor updates (`CustomNoUpgrade`, `TechPreviewNoUpgrade`), if any. */
  readonly noUpgradeFeatureSet?: string;
  /** Whether that feature set is the cluster's own (`spec.openshift.featureSet`), not the rendered FeatureGate's. */
  readonly noUpgradeFeatureSetOwn?: boolean;
}

/** The identity of a `spec.overrides` entry: kind, group, namespace ("" when cluster-scoped), name. */
export type OverrideIdentity = readonly [kind: string, group: string, namespace: string, name: string];

/**
 * Every override ccm-gitops may set on `release` in either mode: the operator Deployment and the
 * ClusterOperator, the payload objects it always renders differently, and those the release ships
 * differently (objects it does not ship need none). Without a release, every object changed after 4.16.
 */
export function ccmOverrideIdentities(release?: string): OverrideIdentity[] {
  const minor = release ? parseRelease(release).minor : undefined;
  return PAYLOAD_OBJECTS.filter(
    (o) =>
      o === OPERATOR_DEPLOYMENT ||
      o === CLUSTER_OPERATOR ||
      o.sameSince === 'never' ||
      (!o.addedIn && (minor === undefined ? o.sameSince !== '4.16' : compareMinor(minor, o.sameSince) < 0)) ||
      (o.overriddenBefore !== undefined && (minor === undefined || compareMinor(minor, o.overriddenBefore) < 0)),
  )
    .map((o) => overrideOf(o))
    .sort(compareOverrides)
    .map((o) => [o.kind, o.group, o.namespace, o.name] as const);
}

function overrideOf(o: PayloadObject): ComponentOverride {
  return { kind: o.kind, group: o.group, namespace: o.namespace ?? '', name: o.name, unmanaged: true };
}

function compareOverrides(a: ComponentOverride, b: ComponentOverride): number {
  const ka = `${a.kind}\u0000${a.namespace}\u0000${a.name}`;
  const kb = `${b.kind}\u0000${b.namespace}\u0000${b.name}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/**
 * The per-object decisions of a cluster: every rendered payload object is
 * `release` when the cluster's release ships the same content, else
 * `override`; without a named release, objects that changed after 4.16 are
 * overridden (the release might be older). In gitops mode the operator
 * Deployment is not rendered but overridden and scaled to 0, so that it
 * stops rendering the operands GitOps now owns, and the ClusterOperator it
 * reported on is overridden too, so that updates do not wait for it.
 */
export function clusterOwnership(
  rendered: readonly ObjectIdentity[],
  opts: { readonly mode: 'gitops' | 'operator'; readonly release?: string; readonly featureSet?: string },
): ClusterOwnership {
  const minor = opts.release ? parseRelease(opts.release).minor : undefined;
  const decisions: OwnershipDecision[] = [];
  const seen = new Set<PayloadObject>();
  for (const o of rendered) {
    const payload = payloadObjectFor(o);
    if (!payload || seen.has(payload)) {
      continue;
    }
    seen.add(payload);
    if (opts.mode === 'gitops' && payload === CLUSTER_OPERATOR) {
      decisions.push({ object: payload, decision: 'override', reason: CLUSTER_OPERATOR_REASON });
    } else if (payload.sameSince === 'never') {
      decisions.push({ object: payload, decision: 'override', reason: "pinned images and settings from the spec instead of the payload's" });
    } else if (minor === undefined) {
      decisions.push(
        payload.sameSince === '4.16' || payload.addedIn
          ? {
              object: payload,
              decision: 'release',
              reason: payload.addedIn ? `as every release that ships it (${payload.sameSince} on) ships it` : 'as every release since 4.16 ships it',
            }
          : {
              object: payload,
              decision: 'override',
              reason: `the payload's content changed in ${payload.sameSince}; name spec.openshift.release to drop this override on ${payload.sameSince} or later`,
            },
      );
    } else if (compareMinor(minor, payload.sameSince) >= 0) {
      decisions.push({ object: payload, decision: 'release', reason: `as release ${minor} ships it` });
    } else if (payload.addedIn) {
      decisions.push({
        object: payload,
        decision: 'not-in-release',
        reason: `release ${minor} does not ship it (added in ${payload.sameSince}); only GitOps writes it`,
      });
    } else {
      decisions.push({
        object: payload,
        decision: 'override',
        reason: `release ${minor} ships a different (or no) ${payload.kind}; ccm-gitops renders the ${payload.sameSince}+ content`,
      });
    }
  }
  const order = (o: PayloadObject) => PAYLOAD_OBJECTS.indexOf(o);
  decisions.sort((a, b) => order(a.object) - order(b.object));
  const scaleDownOperator = opts.mode === 'gitops';
  const overrides = decisions.filter((d) => d.decision === 'override').map((d) => overrideOf(d.object));
  if (scaleDownOperator && !seen.has(OPERATOR_DEPLOYMENT)) {
    overrides.push(overrideOf(OPERATOR_DEPLOYMENT));
  }
  // Not rendered, the ClusterOperator still needs its override (CLUSTER_OPERATOR_REASON).
  if (scaleDownOperator && !seen.has(CLUSTER_OPERATOR)) {
    overrides.push(overrideOf(CLUSTER_OPERATOR));
  }
  const operands = rendered
    .filter((o) => !payloadObjectFor(o) && !PRUNE_PROTECTED_KINDS.includes(o.kind))
    .map((o) => ({
      apiVersion: o.apiVersion,
      kind: o.kind,
      metadata: { name: o.metadata.name, ...(o.metadata.namespace ? { namespace: o.metadata.namespace } : {}) },
    }))
    .sort((a, b) => {
      const ka = `${a.metadata.namespace ?? ''}\u0000${a.kind}\u0000${a.metadata.name}`;
      const kb = `${b.metadata.namespace ?? ''}\u0000${b.kind}\u0000${b.metadata.name}`;
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    });
  const renderedSet = (rendered as readonly (ObjectIdentity & { readonly spec?: { readonly featureSet?: unknown } })[]).find(
    (o) => o.kind === 'FeatureGate',
  )?.spec?.featureSet;
  // cluster-config-operator keeps config-operator Upgradeable=False for a NoUpgrade set, rendered or the cluster's own.
  const own = typeof renderedSet !== 'string' && opts.featureSet?.endsWith('NoUpgrade') === true;
  const featureSet = own ? opts.featureSet : renderedSet;
  return {
    ...(typeof featureSet === 'string' && featureSet.endsWith('NoUpgrade') ? { noUpgradeFeatureSet: featureSet } : {}),
    ...(own ? { noUpgradeFeatureSetOwn: true } : {}),
    rendered: decisions,
    notRendered: PAYLOAD_OBJECTS.filter((o) => !seen.has(o)),
    overrides: overrides.sort(compareOverrides),
    scaleDownOperator,
    ccmOverrides: ccmOverrideIdentities(opts.release),
    operands,
  };
}
