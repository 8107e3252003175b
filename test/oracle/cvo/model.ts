/**
 * A model of the cluster-version operator (CVO) replaying an update of one
 * OpenShift cluster, fed with what ccm-gitops rendered for it (the parsed
 * `dist/<cluster>/` tree, `HANDOVER.md` included) and a release payload.
 * Each rule is CVO's, read at openshift/cluster-version-operator@release-4.18
 * (f72d7e2c7dc8f5e0bb8687f9b9fd0c918952cbda) and checked unchanged at
 * release-4.14, release-4.21, release-4.23 and main unless said otherwise:
 *
 * - Preconditions (pkg/payload/precondition/clusterversion/upgradeable.go): any
 *   unmanaged override makes ClusterVersion `Upgradeable=False`, reason
 *   `ClusterVersionOverridesSet` (pkg/cvo/upgradeable.go
 *   `clusterVersionOverridesUpgradeable`). A minor (or major) update is then
 *   refused. A patch update is refused too while the cluster runs 4.21 or
 *   earlier; from release-4.22 (9b55234a27cfd62921270073f2464ec294132b2d) it
 *   is a non-blocking warning. `--force` turns any refusal into a warning
 *   (pkg/payload/precondition/precondition.go `Summarize`).
 * - Order (pkg/payload/task_graph.go `ByNumberAndComponent`, pkg/cvo/sync_worker.go
 *   `apply` in the updating state): manifests in file order, one node per
 *   run of files sharing `0000_<runlevel>_<component>_`, the components of
 *   a runlevel in parallel, every node of a runlevel after every node of
 *   the runlevel before. `RunGraph` visits no node after a failed one.
 * - Skips (`apply`; library-go pkg/manifest/manifest.go `Include`,
 *   `getOverrideForManifest`): a manifest matched by an unmanaged override
 *   (kind, group, name; namespace only for namespaced objects) is skipped
 *   before anything else, the ClusterOperator precreate and health check
 *   included.
 * - Create-only (lib/resourceapply/interface.go `CreateOnlyAnnotation`): CVO
 *   creates such an object when absent and never updates it.
 * - ClusterOperator waits (pkg/cvo/internal/operatorstatus.go
 *   `checkOperatorHealth`, at release-4.22 9b55234a27cfd62921270073f2464ec294132b2d
 *   and release-4.16 be820285dcf7), in this order: `Available` other than
 *   True fails the task, "Cluster operator <name> is not available"
 *   (`UpdateEffectFail`); `Degraded` other than False, an absent condition
 *   included, fails it, "Cluster operator <name> is degraded"
 *   (`UpdateEffectFailAfterInterval`; `UpdateEffectReport` only while
 *   installing); then, outside installation, while any version the manifest
 *   declares differs from the live `status.versions`, "Cluster operator
 *   <name> is updating versions" (`UpdateEffectNone`). `apply` tolerates
 *   only `UpdateEffectReport`, so in each case the node fails and the update
 *   stops there.
 *
 * Who reports a ClusterOperator's versions: its operator Deployment, running
 * the payload's pod template (so the new version) when CVO applies it; when
 * an override takes it from CVO, the Deployment the tree renders reports its
 * `RELEASE_VERSION`, and nobody reports when the handover scaled it to 0. The
 * API server ignores `status` from GitOps (status subresource), so a rendered
 * ClusterOperator reports nothing.
 */
import { parse } from 'yaml';
import { PayloadManifest, ReleasePayload } from './payload';

type Obj = Record<string, any>;

/** A `ClusterVersion` `spec.overrides` entry. */
export interface Override {
  readonly kind: string;
  readonly group: string;
  readonly namespace: string;
  readonly name: string;
  readonly unmanaged: boolean;
}

/** What the replay reads of a rendered cluster. */
export interface RenderedCluster {
  /** Every object of the rendered stages (kustomizations and GitOps objects left out). */
  readonly objects: readonly Obj[];
  /** The overrides the handover sets (its `oc patch clusterversion` line). */
  readonly overrides: readonly Override[];
  /** Deployments (namespace/name) the handover scales to 0. */
  readonly scaledToZero: readonly string[];
}

/** Reads a rendered cluster from its files (path relative to `dist/<cluster>/` → content). */
export function readRenderedCluster(files: Readonly<Record<string, string>>): RenderedCluster {
  const objects = Object.entries(files)
    .filter(([p]) => /^0[0-9]-[^/]+\/[^/]+\.yaml$/.test(p) && !p.endsWith('/kustomization.yaml'))
    .map(([, content]) => parse(content) as Obj);
  const handover = files['HANDOVER.md'] ?? '';
  // The hand over's command sets `$set` as ccm-gitops' overrides (the cluster's own are kept, none here).
  const set = /oc get clusterversion version -o json \| jq --argjson ours '[^']*' --argjson set '([^']*)'/.exec(handover);
  const overrides: Override[] = set ? JSON.parse(set[1]) : [];
  const scaledToZero = [...handover.matchAll(/oc -n (\S+) scale deployment (\S+) --replicas=0/g)].map((m) => `${m[1]}/${m[2]}`);
  return { objects, overrides, scaledToZero };
}

/** library-go `getOverrideForManifest` with `Unmanaged`. */
export function isOverridden(m: PayloadManifest, overrides: readonly Override[]): boolean {
  return overrides.some(
    (o) => o.unmanaged && o.kind === m.kind && o.group === m.group && o.name === m.name && (m.namespace ? o.namespace === m.namespace : true),
  );
}

const RUNLEVEL = /^0000_(\d+)_([a-zA-Z0-9]+(-[a-zA-Z0-9]+)*?)_/;

/** One node of the update graph: consecutive files of one runlevel and component. */
export interface GraphNode {
  readonly runlevel: string;
  readonly component: string;
  readonly manifests: readonly PayloadManifest[];
}

/** `ByNumberAndComponent`: the nodes, grouped by runlevel, in payload order. */
export function updateGraph(payload: ReleasePayload): GraphNode[][] {
  const levels: GraphNode[][] = [];
  for (const m of payload.manifests) {
    const match = RUNLEVEL.exec(m.file);
    const runlevel = match ? `0000_${match[1]}` : m.file;
    const component = match ? match[2] : m.file;
    let level = levels[levels.length - 1];
    if (!level || level[0].runlevel !== runlevel) {
      level = [];
      levels.push(level);
    }
    const last = level[level.length - 1];
    if (last && last.component === component) {
      (last.manifests as PayloadManifest[]).push(m);
    } else {
      level.push({ runlevel, component, manifests: [m] });
    }
  }
  return levels;
}

/** What a precondition check says about an update. */
export interface Precondition {
  readonly result: 'pass' | 'warn' | 'block';
  readonly reason?: string;
}

function minorOf(version: string): [number, number] {
  const [major, minor] = version.split('.').map(Number);
  return [major, minor];
}

/**
 * The FeatureGate `cluster`'s feature set a rendered cluster sets, if it renders one. `""` is Default
 * (openshift/api@8b086e6b9eb9 config/v1/types_feature.go `Default FeatureSet = ""`, as cluster-config-operator
 * release-4.22 vendors it); ccm-gitops' spec spells it `Default`.
 */
export function renderedFeatureSet(cluster: Pick<RenderedCluster, 'objects'>): string | undefined {
  const gate = cluster.objects.find((o) => o.kind === 'FeatureGate' && o.metadata?.name === 'cluster');
  return gate === undefined ? undefined : String(gate.spec?.featureSet ?? '');
}

/**
 * The `Upgradeable=False` reasons of the ClusterOperators of a rendered cluster, one per ClusterOperator:
 * - `cloud-controller-manager` on Alibaba Cloud: its operator sets it on itself, reason `PlatformTechPreview`, when the
 *   Infrastructure's platform is AlibabaCloud (openshift/cluster-cloud-controller-manager-operator@d721cd62b5edec3f1b0b7a61b3e6e2af50bb71bc
 *   (release-4.16) pkg/controllers/clusteroperator_controller.go); with the operator scaled to 0 its ClusterOperator keeps
 *   it. The tree names the platform by the CCM Deployment it renders (gitops mode); operator mode renders none, so
 *   `platform` says it.
 * - `config-operator` for any FeatureGate feature set but Default: cluster-config-operator's
 *   FeatureUpgradeableController sets its condition `FeatureGatesUpgradeable=False`, reason
 *   `RestrictedFeatureGates_<featureSet>` (openshift/cluster-config-operator@e0c2428e4618493ad9db0681e3b91444746ddf2c
 *   (release-4.22) pkg/operator/featureupgradablecontroller/feature_upgradeable_controller.go `newUpgradeableCondition`;
 *   the same at release-4.16 441d29c92b17, release-4.23 a02c879931c6 lets OKD through on an OKD (SCOS) build only,
 *   which this model leaves out), and library-go's status controller unions every `*Upgradeable` condition into the
 *   ClusterOperator's `Upgradeable`, the reason prefixed with the condition's type
 *   (openshift/library-go@72bf34f474bc pkg/operator/status/condition.go `unionReason`, status_controller.go).
 *   A NoUpgrade feature set cannot be set back (the FeatureGate CRD's `x-kubernetes-validations`), so the way back
 *   does not lift it.
 *
 * `featureSet`: the cluster's own FeatureGate feature set when the tree renders none (`spec.openshift.featureSet`);
 * `platform`: the Infrastructure's `status.platformStatus.type`.
 */
export function notUpgradeableOperatorReasons(cluster: Pick<RenderedCluster, 'objects'>, featureSet?: string, platform?: string): string[] {
  const alibaba =
    platform === 'AlibabaCloud' ||
    cluster.objects.some(
      (o) => o.kind === 'Deployment' && o.metadata?.labels?.['infrastructure.openshift.io/cloud-controller-manager'] === 'AlibabaCloud',
    );
  const set = renderedFeatureSet(cluster) ?? featureSet ?? '';
  return [...(alibaba ? ['PlatformTechPreview'] : []), ...(set !== '' && set !== 'Default' ? [`FeatureGates_RestrictedFeatureGates_${set}`] : [])];
}

/**
 * The Upgradeable precondition of the CVO running `from`, for an update to `to`. ClusterVersion's
 * Upgradeable=False takes the reason of its one failing check, else `MultipleReasons`
 * (openshift/cluster-version-operator@be820285dcf7b0ca4a712192ccb47fd0c843ea02 (release-4.16) pkg/cvo/upgradeable.go;
 * one not-upgradeable ClusterOperator gives its own reason). A ClusterOperator's Upgradeable=False blocks
 * minor updates only.
 */
export function upgradeablePrecondition(
  from: string,
  to: string,
  overrides: readonly Override[],
  force = false,
  operatorReasons: readonly string[] = [],
): Precondition {
  const overridden = overrides.some((o) => o.unmanaged);
  const reasons = [
    ...(overridden ? ['ClusterVersionOverridesSet'] : []),
    ...(operatorReasons.length > 0 ? [operatorReasons.length === 1 ? operatorReasons[0] : 'ClusterOperatorsNotUpgradeable'] : []),
  ];
  if (reasons.length === 0) {
    return { result: 'pass' };
  }
  const reason = reasons.length === 1 ? reasons[0] : 'MultipleReasons';
  const [fM, fm] = minorOf(from);
  const [tM, tm] = minorOf(to);
  const patchOnly = fM === tM && fm === tm;
  if (patchOnly && !overridden) {
    return { result: 'pass' };
  }
  const patchAllowed = patchOnly && (fM > 4 || fm >= 22);
  const result = patchAllowed || force ? 'warn' : 'block';
  return { result, reason };
}

/**
 * The conditions a ClusterOperator's operator reports (`True`/`False`/`Unknown`; absent when not set). A running
 * operator reports Available=True and Degraded=False unless {@link replayUpdate}'s `health` says otherwise; a
 * ClusterOperator nobody writes keeps what it last had.
 */
export interface OperatorHealth {
  readonly available?: string;
  readonly degraded?: string;
}

const HEALTHY: OperatorHealth = { available: 'True', degraded: 'False' };

/** Where an update stopped. */
export interface Stall {
  readonly runlevel: string;
  readonly component: string;
  readonly manifest: string;
  readonly reason: string;
}

/** The outcome of replaying one update. */
export interface UpdateReplay {
  readonly precondition: Precondition;
  /** Undefined when the update completed (or was refused before it started). */
  readonly stall?: Stall;
  /** Manifests CVO applied (created or updated), in order. */
  readonly applied: readonly string[];
  /** Manifests skipped because an override takes them from CVO. */
  readonly skipped: readonly string[];
  /** Manifests never reached because a node before them failed. */
  readonly notReached: readonly string[];
}

function findObject(objects: readonly Obj[], kind: string, namespace: string, name: string): Obj | undefined {
  return objects.find((o) => o.kind === kind && o.metadata?.name === name && (o.metadata?.namespace ?? '') === namespace);
}

/** The version the operator Deployment reports after CVO's pass so far, or undefined when nobody reports. */
function reportedVersion(m: PayloadManifest, cluster: RenderedCluster, payload: ReleasePayload, overrides: readonly Override[]): string | undefined {
  const reporter = m.reportedBy;
  if (!reporter) {
    return undefined;
  }
  const deployment = payload.manifests.find((d) => d.kind === 'Deployment' && d.namespace === reporter.namespace && d.name === reporter.name);
  if (deployment && !isOverridden(deployment, overrides)) {
    return payload.version;
  }
  const rendered = findObject(cluster.objects, 'Deployment', reporter.namespace, reporter.name);
  if (!rendered) {
    return cluster.scaledToZero.includes(`${reporter.namespace}/${reporter.name}`) ? undefined : payload.version;
  }
  if (rendered.spec?.replicas === 0) {
    return undefined;
  }
  const env = (rendered.spec?.template?.spec?.containers ?? []).flatMap((c: Obj) => c.env ?? []);
  return env.find((e: Obj) => e.name === 'RELEASE_VERSION')?.value;
}

/**
 * Replays an update of the cluster from release `from` to `payload`: the
 * precondition, then the graph node by node until one fails.
 */
export function replayUpdate(
  cluster: RenderedCluster,
  from: string,
  payload: ReleasePayload,
  opts: {
    readonly force?: boolean;
    /** The cluster's own FeatureGate feature set when the tree renders none. */
    readonly featureSet?: string;
    /** The Infrastructure's platform type (operator mode renders no CCM Deployment that names it). */
    readonly platform?: string;
    /** ClusterOperator name → the conditions it reports, where not healthy. */
    readonly health?: Readonly<Record<string, OperatorHealth>>;
  } = {},
): UpdateReplay {
  const overrides = cluster.overrides;
  const precondition = upgradeablePrecondition(
    from,
    payload.version,
    overrides,
    opts.force,
    notUpgradeableOperatorReasons(cluster, opts.featureSet, opts.platform),
  );
  const applied: string[] = [];
  const skipped: string[] = [];
  const notReached: string[] = [];
  if (precondition.result === 'block') {
    return { precondition, applied, skipped, notReached: payload.manifests.map((m) => m.file) };
  }
  let stall: Stall | undefined;
  for (const level of updateGraph(payload)) {
    if (stall) {
      notReached.push(...level.flatMap((n) => n.manifests.map((m) => m.file)));
      continue;
    }
    for (const node of level) {
      let failed = false;
      for (const m of node.manifests) {
        if (failed) {
          notReached.push(m.file);
          continue;
        }
        if (isOverridden(m, overrides)) {
          skipped.push(m.file);
          continue;
        }
        applied.push(m.file);
        if (m.kind !== 'ClusterOperator') {
          continue;
        }
        const health = opts.health?.[m.name] ?? HEALTHY;
        const reported = reportedVersion(m, cluster, payload, overrides);
        const undone = (m.versions ?? []).filter((v) => v.version !== reported);
        const reason =
          health.available !== 'True'
            ? `Cluster operator ${m.name} is not available`
            : health.degraded !== 'False'
              ? `Cluster operator ${m.name} is degraded`
              : undone.length > 0
                ? `Cluster operator ${m.name} is updating versions: ${undone.map((v) => `${v.name} ${reported === undefined ? 'reported by nobody' : `from ${reported}`} to ${v.version}`).join(', ')}`
                : undefined;
        if (reason !== undefined) {
          failed = true;
          stall ??= { runlevel: node.runlevel, component: node.component, manifest: m.file, reason };
        }
      }
    }
  }
  return { precondition, stall, applied, skipped, notReached };
}
