/**
 * The handover of one OpenShift cluster as reviewed output (`HANDOVER.md`):
 * which payload objects are rendered as the release ships them, which are
 * taken from the cluster-version operator (CVO) with a `ClusterVersion`
 * `spec.overrides` entry, the scale-down of the operator, and the way back.
 * Pure: no cdk8s import.
 */
import {
  CLUSTER_OPERATOR,
  ClusterOwnership,
  ComponentOverride,
  manifestLabelIn,
  ObjectIdentity,
  olderPayloadObjects,
  OPERATOR_DEPLOYMENT,
  OverrideIdentity,
  payloadSource,
  PayloadObject,
} from './cvo-ownership';
import { parseRelease, releaseAtLeast } from './release';
import { platformFactsFor } from './platform-facts';
import { PlatformType } from '../cluster-spec/schema';

/** File name of the handover, in the cluster's output folder. */
export const HANDOVER_FILE = 'HANDOVER.md';

/** CVO's condition while any override is unmanaged (openshift/cluster-version-operator@6e719331fb58 pkg/payload/precondition/clusterversion/upgradeable.go). */
export const OVERRIDES_UPGRADEABLE_MESSAGE =
  'Disabling ownership via cluster version overrides prevents upgrades between minor or major versions. ' +
  'Please remove overrides before requesting a minor or major version update.';

/**
 * The first release whose CVO lets a patch update through while overrides are set (a warning);
 * before it the Upgradeable precondition refuses every update (openshift/cluster-version-operator@release-4.22
 * and @release-4.21 pkg/payload/precondition/clusterversion/upgradeable.go).
 */
export const PATCH_UPDATE_WITH_OVERRIDES_SINCE = '4.22';

/** What the handover needs besides the ownership decisions. */
export interface HandoverInput {
  readonly cluster: string;
  readonly mode: 'gitops' | 'operator';
  readonly release?: string;
  readonly engine: 'argocd' | 'flux' | 'plain';
  /** The rendered folder in the repository, e.g. `dist/aws-prod-1`. */
  readonly outputPath: string;
  readonly ownership: ClusterOwnership;
  /** Argo CD only: the root Application that applies the cluster's Application (`ccm-root.<cluster>` or a hub's `ccm-fleet`). */
  readonly argocdRoot?: string;
  /** The cluster's platform, where the advice depends on it. */
  readonly platform?: string;
}

function id(o: { kind: string; namespace?: string; name: string }): string {
  return `${o.kind} ${o.namespace ? `${o.namespace}/` : ''}${o.name}`;
}

/**
 * The command that sets `set` as ccm-gitops' overrides and keeps the cluster's own: it drops only the
 * entries naming an object of `ours` (every override ccm-gitops may set, in either mode), so a mode
 * change neither leaves the other mode's entries behind nor deletes overrides ccm-gitops never set.
 */
export function setOverridesCommand(set: readonly ComponentOverride[], ours: readonly OverrideIdentity[]): string {
  const program =
    '.spec.overrides = ([(.spec.overrides // [])[] | select([.kind, (.group // ""), (.namespace // ""), .name] as $k | any($ours[]; . == $k) | not)] + $set)';
  return `oc get clusterversion version -o json | jq --argjson ours '${JSON.stringify(ours)}' --argjson set '${JSON.stringify(set)}' '${program}' | oc replace -f -`;
}

/** `kind.group/name`, as `oc` names an object. */
function resourceRef(o: ObjectIdentity): string {
  const group = o.apiVersion.includes('/') ? `.${o.apiVersion.split('/')[0]}` : '';
  return `${o.kind.toLowerCase()}${group}/${o.metadata.name}`;
}

/**
 * The commands that take the operands out of the GitOps engine's hands without deleting them, one per
 * namespace (cluster-scoped first): Argo CD forgets an object without its tracking label (2.x default)
 * and annotation (3.x default); Flux's garbage collection skips an object annotated prune disabled and
 * drops it from its inventory. Undefined for a plain pipeline, which prunes nothing. `undo` gives
 * Flux's commands that remove the mark again (only for Flux: Argo CD re-adds its tracking itself).
 */
export function releaseOperandsCommands(engine: HandoverInput['engine'], operands: readonly ObjectIdentity[], undo = false): string[] | undefined {
  if (engine === 'plain' || operands.length === 0) {
    return undefined;
  }
  const byNamespace = new Map<string, string[]>();
  for (const o of operands) {
    const ns = o.metadata.namespace ?? '';
    byNamespace.set(ns, [...(byNamespace.get(ns) ?? []), resourceRef(o)]);
  }
  const out: string[] = [];
  for (const ns of [...byNamespace.keys()].sort()) {
    const target = `${ns ? `-n ${ns} ` : ''}${byNamespace.get(ns)!.join(' ')}`;
    if (engine === 'argocd') {
      out.push(`oc label ${target} app.kubernetes.io/instance-`, `oc annotate ${target} argocd.argoproj.io/tracking-id-`);
    } else {
      out.push(
        undo
          ? `oc annotate ${target} kustomize.toolkit.fluxcd.io/prune-`
          : `oc annotate --overwrite ${target} kustomize.toolkit.fluxcd.io/prune=disabled`,
      );
    }
  }
  return out;
}

function suspend(input: HandoverInput): string {
  const name = `ccm-${input.cluster}`;
  switch (input.engine) {
    case 'argocd':
      // A root with self-heal re-applies the child as git has it, automated sync included (argoproj/argo-cd#3895).
      return (
        "turn off automated sync of the root Application first, then of the cluster's (a root with self-heal re-applies its child's sync policy from git): " +
        `\`argocd app set ${input.argocdRoot ?? '<root>'} --sync-policy none\` then \`argocd app set ${name} --sync-policy none\``
      );
    case 'flux':
      return `suspend the cluster's Flux Kustomizations (\`flux suspend kustomization ${name}-<stage>\` for each stage in \`${input.outputPath}/gitops\`)`;
    default:
      return 'stop applying the folder from your pipeline';
  }
}

function payloadLine(o: PayloadObject, manifest: string): string {
  return `| ${id(o)} | \`${manifest}\` |`;
}

const WAY_BACK_UPDATE =
  "take the way back below (it removes ccm-gitops' overrides), update, set `spec.openshift.release` and the pinned images to the new release's " +
  '(with a migration, `spec.migration.kubernetesVersion` to the Kubernetes minor it ships), merge, and hand over again';

/**
 * A FeatureGate the tree renders, or the cluster's own, with a `…NoUpgrade` feature set: it cannot be turned
 * off and keeps the cluster `Upgradeable=False` (cluster-config-operator's FeatureGatesUpgradeable), so no way
 * back makes a minor update possible (openshift/api@release-4.18 config/v1/types_feature.go: "CANNOT BE UNDONE
 * and PREVENTS UPGRADES").
 */
function noUpgradeNote(own: ClusterOwnership): string {
  return own.noUpgradeFeatureSet
    ? ` ${own.noUpgradeFeatureSetOwn ? "The cluster's" : 'The rendered'} FeatureGate sets \`${own.noUpgradeFeatureSet}\`, which cannot be turned off and refuses minor updates for good, overrides or not: only z-stream updates remain.`
    : '';
}

/** What a z-stream and a minor update do to this cluster, and what the user does. */
function updatesSection(input: HandoverInput): string[] {
  const out = ['## Updates', ''];
  const overrides = input.ownership.overrides.length > 0;
  if (!overrides) {
    out.push(
      '- **Z-stream and minor updates**: nothing is taken from CVO, so updates run as on any cluster. ' +
        'Afterwards set `spec.openshift.release` to the new version, merge and sync.',
      '',
    );
    return out;
  }
  const patchPasses = input.release !== undefined && releaseAtLeast(input.release, PATCH_UPDATE_WITH_OVERRIDES_SINCE);
  if (!patchPasses) {
    out.push(
      `- **Z-stream update** (4.Y.z to 4.Y.z'): the CVO of ${input.release ? `release ${input.release}` : 'a release before 4.22'} refuses every update while an override is set ` +
        `(precondition \`ClusterVersionOverridesSet\`; from 4.22 it lets z-streams through): ${WAY_BACK_UPDATE}. ` +
        'Do not force it: `--force` also skips the release signature check.',
    );
  } else if (input.mode === 'gitops') {
    out.push(
      "- **Z-stream update** (4.Y.z to 4.Y.z'): CVO accepts it with a warning (`ClusterVersionOverridesSet`), skips the overridden objects " +
        '(the operator Deployment stays at 0 replicas; ClusterOperator `cloud-controller-manager` keeps the version and conditions the operator last reported) ' +
        'and applies the rest of the payload, so the update completes. The cloud controller manager keeps the images pinned in the spec: ' +
        "then set `spec.openshift.release` to the new version (and the images to the new release's), merge and sync.",
    );
  } else {
    out.push(
      "- **Z-stream update** (4.Y.z to 4.Y.z'): CVO accepts it with a warning (`ClusterVersionOverridesSet`) and applies the payload up to runlevel 0000_26. " +
        `There it waits ("Cluster operator cloud-controller-manager is updating versions"): the operator Deployment is overridden and reports \`RELEASE_VERSION\` ${input.release}, ` +
        "so nothing after it (machine-config and the nodes included) updates yet. Start the update (`oc adm upgrade --to=<4.Y.z'>`), " +
        "then set `spec.openshift.release` to the new version and the pinned images to the new release's, merge and sync: " +
        'the operator restarts, reports the new version, and the update continues. Do not bump the spec before starting the update: ' +
        'CVO would then report the ClusterOperator at a version the cluster does not run.',
    );
  }
  out.push(
    (input.platform === undefined ? undefined : platformFactsFor(input.platform as PlatformType)?.onlyRelease?.minorUpdate) ??
      `- **Minor update** (4.Y to 4.Y+1): CVO refuses it while an override is set (\`Upgradeable=False\`, \`ClusterVersionOverridesSet\`): ${WAY_BACK_UPDATE}.` +
        noUpgradeNote(input.ownership),
    '',
  );
  return out;
}

/** `HANDOVER.md` of one cluster. */
export function handoverMarkdown(input: HandoverInput): string {
  const { ownership: own } = input;
  const out: string[] = [];
  const release = input.release ? `release ${input.release}` : 'no release named (spec.openshift.release)';
  const minor = input.release ? parseRelease(input.release).minor : undefined;
  out.push(`# Handover: ${input.cluster}`, '');
  out.push(`Mode \`${input.mode}\`, ${release}. Generated from the spec; review it with the rendered objects.`, '');
  out.push(
    'The cluster-version operator (CVO) applies every manifest of the release payload ' +
      `(${payloadSource(minor)}) that no \`ClusterVersion\` \`spec.overrides\` entry marks unmanaged, and replaces any difference. ` +
      'Each rendered object the payload also ships is either rendered exactly as the release ships it, or taken from CVO by an override below.',
    '',
  );

  out.push('## Rendered objects the release payload also ships', '');
  if (own.rendered.length === 0) {
    out.push('None.', '');
  } else {
    out.push('| object | decision | why |', '|---|---|---|');
    for (const d of own.rendered) {
      const label = { release: 'as the release ships it', override: '**override**', 'not-in-release': 'GitOps only' }[d.decision];
      out.push(`| ${id(d.object)} | ${label} | ${d.reason} |`);
    }
    out.push('');
  }
  const kept = own.notRendered.filter((o) => !(own.scaleDownOperator && (o === OPERATOR_DEPLOYMENT || o === CLUSTER_OPERATOR)));
  out.push('## Payload objects not rendered', '');
  out.push('CVO keeps applying these as the release ships them; ccm-gitops does not write them.', '');
  // The release's own file names: older payloads name and hold some files differently.
  const lines = [...kept.map((o) => [o, manifestLabelIn(o, minor)] as const), ...olderPayloadObjects(minor).map((o) => [o, o.manifest] as const)]
    .filter((e): e is readonly [PayloadObject, string] => e[1] !== undefined)
    .sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0))
    .map(([o, m]) => payloadLine(o, m));
  out.push('| object | manifest |', '|---|---|', ...lines, '');

  out.push('## ClusterVersion overrides', '');
  if (own.overrides.length === 0) {
    out.push('None: nothing is taken from CVO, and upgrades are not blocked.', '');
  } else {
    out.push('| kind | group | namespace | name |', '|---|---|---|---|');
    for (const o of own.overrides) {
      out.push(`| ${o.kind} | ${o.group || '""'} | ${o.namespace || '""'} | ${o.name} |`);
    }
    out.push(
      '',
      `While any override is unmanaged, CVO reports \`Upgradeable=False\` (reason \`ClusterVersionOverridesSet\`): "${OVERRIDES_UPGRADEABLE_MESSAGE}"`,
      '',
    );
  }
  out.push(...updatesSection(input));

  out.push('## Hand over', '');
  const steps: string[] = [];
  steps.push(
    `If GitOps already applies this folder (you are changing \`spec.managementMode\`), keep it from writing until the sync step below: ${suspend(input)}; merge the change while it is stopped.`,
  );
  steps.push(
    `Take the objects from CVO, keeping the overrides the cluster has of its own (only ccm-gitops' entries, of either mode, are replaced${own.overrides.length === 0 ? '; this mode sets none' : ''}):` +
      `\n\n   \`\`\`sh\n   ${setOverridesCommand(own.overrides, own.ccmOverrides)}\n   \`\`\``,
  );
  if (own.scaleDownOperator) {
    steps.push(
      'Stop the operator, so that it no longer renders the operands:\n\n' +
        `   \`\`\`sh\n   oc -n ${OPERATOR_DEPLOYMENT.namespace} scale deployment ${OPERATOR_DEPLOYMENT.name} --replicas=0\n   \`\`\``,
    );
  }
  steps.push(
    `Review \`oc diff -k ${input.outputPath}\`: names, labels and selectors match the operator's, so workloads are updated in place, not recreated.`,
  );
  const unmark = input.mode === 'gitops' && input.engine === 'flux' ? releaseOperandsCommands('flux', own.operands, true) : undefined;
  if (unmark) {
    // Flux applies with server-side apply, which never removes an annotation another field manager set.
    steps.push(
      'If a way back marked the operands `kustomize.toolkit.fluxcd.io/prune=disabled`, remove the mark, or Flux never prunes them again ' +
        '(its server-side apply keeps an annotation set by hand):\n\n' +
        `   \`\`\`sh\n${unmark.map((c) => `   ${c}`).join('\n')}\n   \`\`\``,
    );
  }
  steps.push(
    input.engine === 'plain'
      ? `Apply the stages in order (\`oc apply -k ${input.outputPath}/<stage>\`).`
      : input.engine === 'argocd'
        ? `Let the GitOps engine sync: \`argocd app set ${input.argocdRoot ?? '<root>'} --sync-policy automated --auto-prune --self-heal\` ` +
          `(the root re-applies the Application \`ccm-${input.cluster}\` from git, automated sync included). ` +
          'On a first hand over, bootstrap the root only now (`oc apply -k` of its `root` folder under `_fleet/argocd/`, see docs/gitops.md): ' +
          'applied earlier, it would sync the operands before the overrides and the scale-down, and the operator and Argo CD would fight.'
        : 'Let the GitOps engine sync (resume it if you stopped it).',
  );
  if (input.mode === 'gitops') {
    steps.push(
      `Check that the lease moved to a pod of the new ReplicaSet: \`oc -n openshift-cloud-controller-manager get lease cloud-controller-manager -o jsonpath='{.spec.holderIdentity}'\`.`,
    );
  } else {
    steps.push(
      `Check that the operator runs and reports: \`oc -n ${OPERATOR_DEPLOYMENT.namespace} rollout status deployment/${OPERATOR_DEPLOYMENT.name} --timeout=10m\` ` +
        'and `oc wait clusteroperator/cloud-controller-manager --for=condition=Available=True --timeout=10m`.',
    );
  }
  steps.forEach((s, i) => out.push(`${i + 1}. ${s}`));
  out.push('');

  out.push('## Way back', '');
  const back: string[] = [];
  back.push(`Stop GitOps writing: ${suspend(input)}.`);
  const toCvo =
    "give the objects back to CVO, keeping the overrides the cluster has of its own (CVO restores the release's content" +
    (own.scaleDownOperator ? ' and the operator Deployment with 1 replica; the operator takes the operands over in place' : '') +
    `):\n\n   \`\`\`sh\n   ${setOverridesCommand([], own.ccmOverrides)}\n   \`\`\`\n\n   then remove the cluster from the fleet.`;
  if (input.mode === 'gitops') {
    const release = releaseOperandsCommands(input.engine, own.operands);
    if (release) {
      back.push(
        'Take the operands out of GitOps without deleting them, so that no merge prunes a running cloud controller manager ' +
          '(the operator takes them over in place once it runs):\n\n' +
          `   \`\`\`sh\n${release.map((c) => `   ${c}`).join('\n')}\n   \`\`\``,
      );
    }
    // The operator's cloud-config sync reads the ConfigMap Infrastructure spec.cloudConfig names (AWS and Azure through
    // openshift-config-managed/kube-cloud-config, which cluster-config-operator copies from it) and rewrites cloud-conf
    // (openshift/cluster-cloud-controller-manager-operator@01ef6f183d459b8c063324e525803b89fd3684b9 pkg/controllers/cloud_config_sync_controller.go).
    const infra = (field: string) => `$(oc get infrastructure cluster -o jsonpath='{.spec.cloudConfig.${field}}')`;
    back.push(
      'Put the cloud config the spec holds where the operator reads it: the operator renders `cloud-conf` from that ConfigMap, not from git, ' +
        'so a setting made only in the spec would be lost (skip the step if the spec has no `cloudConfig`):\n\n' +
        `   \`\`\`sh\n   oc -n openshift-config set data configmap/${infra('name')} --from-file=${infra('key')}=<spec.cloudConfig.file>\n   \`\`\``,
    );
    back.push(
      'Set `spec.managementMode: operator` and merge while GitOps is stopped, then follow **Hand over** in the new `HANDOVER.md`: ' +
        "it sets the operator mode's overrides (the operator Deployment stays taken from CVO, with the images pinned in the spec) and resumes GitOps, " +
        'which brings the operator back; it re-renders the operands in place. ' +
        `Or, to hand everything to the release instead, ${toCvo}`,
    );
  } else {
    back.push(
      `To hand everything to the release, ${toCvo} ` +
        'To move to gitops mode instead, set `spec.managementMode: gitops`, merge while GitOps is stopped, and follow **Hand over** in the new `HANDOVER.md`.',
    );
  }
  back.forEach((s, i) => out.push(`${i + 1}. ${s}`));
  out.push('');
  return out.join('\n');
}
