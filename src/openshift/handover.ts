/**
 * The handover of one OpenShift cluster as reviewed output (`HANDOVER.md`):
 * which payload objects are rendered as the release ships them, which are
 * taken from the cluster-version operator (CVO) with a `ClusterVersion`
 * `spec.overrides` entry, the scale-down of the operator, and the way back.
 * Pure: no cdk8s import.
 */
import { CLUSTER_OPERATOR, ClusterOwnership, ComponentOverride, OPERATOR_DEPLOYMENT, PAYLOAD_SOURCE, PayloadObject } from './cvo-ownership';
import { releaseAtLeast } from './release';

/** File name of the handover, in the cluster's output folder. */
export const HANDOVER_FILE = 'HANDOVER.md';

/** CVO's condition while any override is unmanaged (openshift/cluster-version-operator@main pkg/payload/precondition/clusterversion/upgradeable.go). */
export const OVERRIDES_UPGRADEABLE_MESSAGE = 'Disabling ownership via cluster version overrides prevents upgrades between minor or major versions. '
  + 'Please remove overrides before requesting a minor or major version update.';

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
}

function id(o: { kind: string; namespace?: string; name: string }): string {
  return `${o.kind} ${o.namespace ? `${o.namespace}/` : ''}${o.name}`;
}

/** The merge patch that sets exactly these overrides (one line, as it is pasted). */
export function overridesPatch(overrides: readonly ComponentOverride[]): string {
  return JSON.stringify({ spec: { overrides } });
}

function suspend(input: HandoverInput): string {
  const name = `ccm-${input.cluster}`;
  switch (input.engine) {
    case 'argocd':
      return `turn off automated sync of the cluster's Argo CD Applications (\`argocd app set <app> --sync-policy none\` for each Application of \`${input.outputPath}/gitops\`)`;
    case 'flux':
      return `suspend the cluster's Flux Kustomizations (\`flux suspend kustomization ${name}-<stage>\` for each stage in \`${input.outputPath}/gitops\`)`;
    default:
      return 'stop applying the folder from your pipeline';
  }
}

function payloadLine(o: PayloadObject): string {
  return `| ${id(o)} | \`${o.manifest}\` |`;
}

const WAY_BACK_UPDATE = 'take the way back below, update, set `spec.openshift.release` to the new version, merge, and hand over again';

/** What a z-stream and a minor update do to this cluster, and what the user does. */
function updatesSection(input: HandoverInput): string[] {
  const out = ['## Updates', ''];
  const overrides = input.ownership.overrides.length > 0;
  if (!overrides) {
    out.push('- **Z-stream and minor updates**: nothing is taken from CVO, so updates run as on any cluster. '
      + 'Afterwards set `spec.openshift.release` to the new version, merge and sync.', '');
    return out;
  }
  const patchPasses = input.release !== undefined && releaseAtLeast(input.release, PATCH_UPDATE_WITH_OVERRIDES_SINCE);
  if (!patchPasses) {
    out.push(`- **Z-stream update** (4.Y.z to 4.Y.z'): the CVO of ${input.release ? `release ${input.release}` : 'a release before 4.22'} refuses every update while an override is set `
      + `(precondition \`ClusterVersionOverridesSet\`; from 4.22 it lets z-streams through): ${WAY_BACK_UPDATE}. `
      + 'Do not force it: `--force` also skips the release signature check.');
  } else if (input.mode === 'gitops') {
    out.push('- **Z-stream update** (4.Y.z to 4.Y.z\'): CVO accepts it with a warning (`ClusterVersionOverridesSet`), skips the overridden objects '
      + '(the operator Deployment stays at 0 replicas; ClusterOperator `cloud-controller-manager` keeps the version and conditions the operator last reported) '
      + 'and applies the rest of the payload, so the update completes. The cloud controller manager keeps the images pinned in the spec: '
      + 'then set `spec.openshift.release` to the new version (and the images to the new release\'s), merge and sync.');
  } else {
    out.push('- **Z-stream update** (4.Y.z to 4.Y.z\'): CVO accepts it with a warning (`ClusterVersionOverridesSet`) and applies the payload up to runlevel 0000_26. '
      + `There it waits ("Cluster operator cloud-controller-manager is updating versions"): the operator Deployment is overridden and reports \`RELEASE_VERSION\` ${input.release}, `
      + 'so nothing after it (machine-config and the nodes included) updates yet. Start the update (`oc adm upgrade --to=<4.Y.z\'>`), '
      + 'then set `spec.openshift.release` to the new version and the pinned images to the new release\'s, merge and sync: '
      + 'the operator restarts, reports the new version, and the update continues. Do not bump the spec before starting the update: '
      + 'CVO would then report the ClusterOperator at a version the cluster does not run.');
  }
  out.push(`- **Minor update** (4.Y to 4.Y+1): CVO refuses it while an override is set (\`Upgradeable=False\`, \`ClusterVersionOverridesSet\`): ${WAY_BACK_UPDATE}.`, '');
  return out;
}

/** `HANDOVER.md` of one cluster. */
export function handoverMarkdown(input: HandoverInput): string {
  const { ownership: own } = input;
  const out: string[] = [];
  const release = input.release ? `release ${input.release}` : 'no release named (spec.openshift.release)';
  out.push(`# Handover: ${input.cluster}`, '');
  out.push(`Mode \`${input.mode}\`, ${release}. Generated from the spec; review it with the rendered objects.`, '');
  out.push('The cluster-version operator (CVO) applies every manifest of the release payload '
    + `(${PAYLOAD_SOURCE}) that no \`ClusterVersion\` \`spec.overrides\` entry marks unmanaged, and replaces any difference. `
    + 'Each rendered object the payload also ships is either rendered exactly as the release ships it, or taken from CVO by an override below.', '');

  out.push('## Rendered objects the release payload also ships', '');
  if (own.rendered.length === 0) {
    out.push('None.', '');
  } else {
    out.push('| object | decision | why |', '|---|---|---|');
    for (const d of own.rendered) {
      const label = { 'release': 'as the release ships it', 'override': '**override**', 'not-in-release': 'GitOps only' }[d.decision];
      out.push(`| ${id(d.object)} | ${label} | ${d.reason} |`);
    }
    out.push('');
  }
  const kept = own.notRendered.filter((o) => !(own.scaleDownOperator && (o === OPERATOR_DEPLOYMENT || o === CLUSTER_OPERATOR)));
  out.push('## Payload objects not rendered', '');
  out.push('CVO keeps applying these as the release ships them; ccm-gitops does not write them.', '');
  out.push('| object | manifest |', '|---|---|', ...kept.map(payloadLine), '');

  out.push('## ClusterVersion overrides', '');
  if (own.overrides.length === 0) {
    out.push('None: nothing is taken from CVO, and upgrades are not blocked.', '');
  } else {
    out.push('| kind | group | namespace | name |', '|---|---|---|---|');
    for (const o of own.overrides) {
      out.push(`| ${o.kind} | ${o.group || '""'} | ${o.namespace || '""'} | ${o.name} |`);
    }
    out.push('', `While any override is unmanaged, CVO reports \`Upgradeable=False\` (reason \`ClusterVersionOverridesSet\`): "${OVERRIDES_UPGRADEABLE_MESSAGE}"`, '');
  }
  out.push(...updatesSection(input));

  out.push('## Hand over', '');
  const steps: string[] = [];
  steps.push('Check that the cluster has no overrides of its own (the patch below replaces the list): '
    + '`oc get clusterversion version -o jsonpath=\'{.spec.overrides}\'` prints nothing. If it prints entries, add them to the patch.');
  if (own.overrides.length > 0) {
    steps.push(`Take the objects from CVO:\n\n   \`\`\`sh\n   oc patch clusterversion version --type=merge -p '${overridesPatch(own.overrides)}'\n   \`\`\``);
  }
  if (own.scaleDownOperator) {
    steps.push('Stop the operator, so that it no longer renders the operands:\n\n'
      + `   \`\`\`sh\n   oc -n ${OPERATOR_DEPLOYMENT.namespace} scale deployment ${OPERATOR_DEPLOYMENT.name} --replicas=0\n   \`\`\``);
  }
  steps.push(`Review \`oc diff -k ${input.outputPath}\`: names, labels and selectors match the operator's, so workloads are updated in place, not recreated.`);
  steps.push(input.engine === 'plain' ? `Apply the stages in order (\`oc apply -k ${input.outputPath}/<stage>\`).` : 'Let the GitOps engine sync.');
  if (input.mode === 'gitops') {
    steps.push(`Check that the lease moved to a pod of the new ReplicaSet: \`oc -n openshift-cloud-controller-manager get lease cloud-controller-manager -o jsonpath='{.spec.holderIdentity}'\`.`);
  }
  steps.forEach((s, i) => out.push(`${i + 1}. ${s}`));
  out.push('');

  out.push('## Way back', '');
  const back: string[] = [];
  back.push(`Stop GitOps writing: ${suspend(input)}.`);
  if (own.overrides.length > 0) {
    back.push('Give the objects back to CVO (it restores the release\'s content'
      + (own.scaleDownOperator ? ' and the operator Deployment with 1 replica; the operator re-renders the operands in place' : '')
      + '):\n\n   ```sh\n   oc patch clusterversion version --type=json -p \'[{"op":"remove","path":"/spec/overrides"}]\'\n   ```');
  }
  back.push(input.mode === 'gitops'
    ? 'Set `spec.managementMode: operator` (or remove the cluster from the fleet), merge, and resume syncing: GitOps prunes the operand objects it no longer renders; the operator recreates them within its resync.'
    : 'Remove the cluster from the fleet (or stop applying it) and resume: CVO owns everything again.');
  back.forEach((s, i) => out.push(`${i + 1}. ${s}`));
  out.push('');
  return out.join('\n');
}
