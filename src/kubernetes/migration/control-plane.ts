/**
 * The control-plane side of a phase for clusters whose control plane is not
 * run by an operator: kubeadm configuration, a Cluster API
 * KubeadmControlPlane JSON patch, and the flag list for hand-run static pods.
 * Pure: no cdk8s import.
 */
import { stringify } from 'yaml';
import {
  ComponentFlags,
  KCM_CONTROLLERS_WITHOUT_NODE_IPAM,
  KCM_LEADER_MIGRATION_PATH,
  KUBEADM_DEFAULT_CONTROLLERS,
  kubeApiserverFlags,
  kubeControllerManagerFlags,
  kubeletFlags,
  MigrationInput,
  withoutControllers,
  withoutGates,
} from '../../migration/flags';
import { MigrationPhase, nextPhase, phaseSequence, previousPhase } from '../../migration/phases';
import { leaderMigrationConfigYaml } from '../../migration/leader-migration-config';
import { phasePlan } from '../../migration/phase-plan';
import { isUserError, UserError } from '../../util/user-error';

/** The forms the control-plane change is printed in. */
export const CONTROL_PLANE_FORMATS = ['kubeadm', 'cluster-api', 'static-pod'] as const;
export type ControlPlaneFormat = (typeof CONTROL_PLANE_FORMATS)[number];

/** The Cluster API versions of KubeadmControlPlane the patch is written for. */
export const CLUSTER_API_VERSIONS = ['v1beta1', 'v1beta2'] as const;
export type ClusterApiVersion = (typeof CLUSTER_API_VERSIONS)[number];

/** The name of the kube-controller-manager extraVolume carrying the leader-migration file. */
export const LEADER_MIGRATION_VOLUME = 'leader-migration';

/**
 * The kubeadm configuration API a kubeadm of this minor reads:
 * `v1beta2` up to 1.21 (`v1beta3` arrived in 1.22; `v1beta2` was removed in
 * 1.27, kubernetes/kubernetes PR #114540; kubeadm 1.26 still migrates v1beta2 files), `v1beta3` from 1.22 to 1.30,
 * `v1beta4` from 1.31 (kubernetes/website content/en/docs/reference/config-api/kubeadm-config.v1beta4.md).
 */
export function kubeadmApiVersion(kubernetesMinor: number): string {
  return `kubeadm.k8s.io/${kubernetesMinor <= 21 ? 'v1beta2' : kubernetesMinor <= 30 ? 'v1beta3' : 'v1beta4'}`;
}

/** `--name=value` / `--name` → [name, value]. */
function splitFlag(flag: string): [string, string] {
  const body = flag.replace(/^--/, '');
  const eq = body.indexOf('=');
  return eq < 0 ? [body, 'true'] : [body.slice(0, eq), body.slice(eq + 1)];
}

function argMap(flags: ComponentFlags): Record<string, string> {
  return Object.fromEntries(flags.flags.map(splitFlag));
}

/** kubeadm v1beta4 and Cluster API v1beta2 list extra args as name/value pairs; older versions as a map. */
function extraArgs(flags: ComponentFlags, list: boolean): Record<string, string> | { name: string; value: string }[] {
  const map = argMap(flags);
  return list ? Object.entries(map).map(([name, value]) => ({ name, value })) : map;
}

function leaderMigrationVolume(input: MigrationInput): object[] {
  return phasePlan(input).kcm.config
    ? [{ name: LEADER_MIGRATION_VOLUME, hostPath: KCM_LEADER_MIGRATION_PATH, mountPath: KCM_LEADER_MIGRATION_PATH, readOnly: true, pathType: 'File' }]
    : [];
}

function removals(input: MigrationInput): string[] {
  const parts: [string, ComponentFlags][] = [
    ['kube-controller-manager', kubeControllerManagerFlags(input)],
    ['kube-apiserver', kubeApiserverFlags(input)],
    ['kubelet', kubeletFlags(input)],
  ];
  const lines = parts.flatMap(([c, f]) => [
    ...(f.remove.length > 0 ? [`# ${c}: remove ${f.remove.join(', ')} if present`] : []),
    ...(f.removeGates ? [`# ${c}: remove ${f.removeGates.join(', ')} from feature-gates if present ${KEEP_GATES('argument')}`] : []),
    ...(f.removeControllers
      ? [
          `# ${c}: remove ${f.removeControllers.join(', ')} from controllers if present (keep the other entries; drop the argument if only kubeadm's default ${KUBEADM_DEFAULT_CONTROLLERS} is left)`,
        ]
      : []),
  ]);
  if (input.support && !input.support.noLeaderMigration && !phasePlan(input).kcm.config && input.phase !== 'in-tree') {
    lines.push(
      `# kube-controller-manager: remove the "${LEADER_MIGRATION_VOLUME}" extraVolume (${KCM_LEADER_MIGRATION_PATH}, pathType File) and the file itself if present`,
    );
  } else if (input.phase === 'in-tree' && input.support && !input.support.noLeaderMigration) {
    lines.push(
      `# kube-controller-manager: remove the "${LEADER_MIGRATION_VOLUME}" extraVolume (${KCM_LEADER_MIGRATION_PATH}, pathType File) if present`,
    );
  }
  return lines;
}

/** How a gate entry is dropped from a `--feature-gates` list that may hold others. */
const KEEP_GATES = (what: string) => `(keep the other gates; drop the ${what} if none is left)`;

/**
 * The comma-list arguments a phase trims rather than sets: each with the entries
 * it drops, and the value that means the argument goes (nothing left, or
 * kubeadm's own default, which a removed `controllers` argument falls back to).
 */
const TRIMMED: readonly (readonly [string, (f: ComponentFlags, value: string) => string, string])[] = [
  ['feature-gates', (f, value) => (f.removeGates ? withoutGates(value, f.removeGates) : value), ''],
  ['controllers', (f, value) => (f.removeControllers ? withoutControllers(value, f.removeControllers) : value), KUBEADM_DEFAULT_CONTROLLERS],
];

/** Each trimmed argument of `flags` whose value changes: its name, the value as read and what is left (undefined: the argument goes). */
function trimmedArgs(flags: ComponentFlags, valueOf: (name: string) => unknown): { name: string; value: string; left?: string }[] {
  return TRIMMED.flatMap(([name, trim, gone]) => {
    const value = valueOf(name);
    if (typeof value !== 'string' || trim(flags, value) === value) {
      return [];
    }
    const left = trim(flags, value);
    return [{ name, value, ...(left === '' || left === gone ? {} : { left }) }];
  });
}

/** How kubelet flags reach nodes that already exist. */
const KUBELET_EXISTING_NODES = [
  '# Kubelet flags: nodeRegistration.kubeletExtraArgs is read only by kubeadm init and join; kubeadm upgrade does not',
  '# rewrite it. On existing nodes edit KUBELET_KUBEADM_ARGS in /var/lib/kubelet/kubeadm-flags.env and run',
  '# `systemctl restart kubelet`, one node at a time (Cluster API replaces machines instead, see its patch).',
];

function header(input: MigrationInput, what: string, extra: readonly string[] = []): string {
  return [
    `# ${what} for phase "${input.phase}" (${input.platform}, Kubernetes 1.${input.kubernetesMinor}), generated by ccm-gitops.`,
    ...removals(input),
    ...extra,
    '',
  ].join('\n');
}

/** The kubeadm ClusterConfiguration, InitConfiguration and JoinConfiguration parts of a phase. */
export function kubeadmConfig(input: MigrationInput): string {
  const apiVersion = kubeadmApiVersion(input.kubernetesMinor);
  const list = apiVersion.endsWith('v1beta4');
  const kas = kubeApiserverFlags(input);
  const volumes = leaderMigrationVolume(input);
  const cluster = {
    apiVersion,
    kind: 'ClusterConfiguration',
    controllerManager: { extraArgs: extraArgs(kubeControllerManagerFlags(input), list), ...(volumes.length > 0 ? { extraVolumes: volumes } : {}) },
    ...(kas.flags.length > 0 ? { apiServer: { extraArgs: extraArgs(kas, list) } } : {}),
  };
  const kubelet = { kubeletExtraArgs: extraArgs(kubeletFlags(input), list) };
  const docs = [
    cluster,
    { apiVersion, kind: 'InitConfiguration', nodeRegistration: kubelet },
    { apiVersion, kind: 'JoinConfiguration', nodeRegistration: kubelet },
  ];
  const lmc = phasePlan(input).kcm.config;
  const file = lmc
    ? `# Write this file to ${KCM_LEADER_MIGRATION_PATH} on every control-plane node before the kube-controller-manager restarts:\n${leaderMigrationConfigYaml(lmc).trimEnd().replace(/^/gm, '#   ')}\n`
    : '';
  const merge = [
    '# Cloud-related settings only: merge them into your configuration. Append to extraVolumes (keep existing entries',
    '# such as the cloud-config mount); keep the other extraArgs.',
    ...KUBELET_EXISTING_NODES,
  ];
  return `${header(input, 'kubeadm configuration', merge)}${file}${docs.map((d) => stringify(d, { lineWidth: 0, aliasDuplicateObjects: false })).join('---\n')}`;
}

/** JSON-pointer escape of one path segment (RFC 6901). */
function pointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The value at a JSON pointer's segments, or undefined. */
function at(obj: unknown, segments: readonly string[]): unknown {
  return segments.reduce<unknown>((o, s) => (o !== null && typeof o === 'object' ? (o as Record<string, unknown>)[s] : undefined), obj);
}

/** A removal from a list: its index in the list as read (highest first), and its operations. */
interface ListRemoval {
  readonly index: number;
  readonly op: object[];
  /** The list it removes from (absent: a map key). */
  readonly path?: string;
}

/** `test` + `remove` of every entry of a list that matches, by its index in the list as read. */
function removeEntries(path: string, entries: readonly unknown[], match: (e: unknown) => boolean): ListRemoval[] {
  return entries.flatMap((e, index) =>
    match(e)
      ? [
          {
            index,
            path,
            op: [
              { op: 'test', path: `${path}/${index}`, value: e },
              { op: 'remove', path: `${path}/${index}` },
            ],
          },
        ]
      : [],
  );
}

/** The leader-migration file of a phase as a KubeadmConfigSpec `files` entry, if the KCM reads one. */
function leaderMigrationFile(input: MigrationInput): object | undefined {
  const lmc = phasePlan(input).kcm.config;
  return lmc ? { path: KCM_LEADER_MIGRATION_PATH, owner: 'root:root', permissions: '0644', content: leaderMigrationConfigYaml(lmc) } : undefined;
}

function flagsOr(flags: () => ComponentFlags): ComponentFlags {
  try {
    return flags();
  } catch (e) {
    // a component flag the minor no longer has (kind input): the phase before had none of ours to remove
    if (isUserError(e, 'input')) {
      return { flags: [], remove: [] };
    }
    throw e;
  }
}

/**
 * The phase a change to `input.phase` comes from by default: the one before it
 * (for `in-tree`, the rollback from the phase after it).
 */
function defaultFrom(input: MigrationInput): MigrationPhase | undefined {
  const sequence = phaseSequence(input.support);
  return input.phase === 'in-tree' ? nextPhase(sequence, input.phase) : previousPhase(sequence, input.phase);
}

/** The phase a rollback into `input.phase` comes from (the one after it), when that is not already the default. */
export function rollbackFrom(input: MigrationInput): MigrationPhase | undefined {
  return input.phase === 'in-tree' ? undefined : nextPhase(phaseSequence(input.support), input.phase);
}

/**
 * The Cluster API v1beta1 spec as the patch of phase `from` left it: only
 * the entries this product sets.
 */
function predecessorState(input: MigrationInput, from: MigrationPhase | undefined): object {
  if (!from) {
    return {};
  }
  const prev: MigrationInput = { ...input, phase: from };
  const kubelet = { kubeletExtraArgs: argMap(flagsOr(() => kubeletFlags(prev))) };
  const file = leaderMigrationFile(prev);
  return {
    spec: {
      kubeadmConfigSpec: {
        clusterConfiguration: {
          controllerManager: { extraArgs: argMap(flagsOr(() => kubeControllerManagerFlags(prev))), extraVolumes: leaderMigrationVolume(prev) },
          apiServer: { extraArgs: argMap(flagsOr(() => kubeApiserverFlags(prev))) },
        },
        initConfiguration: { nodeRegistration: kubelet },
        joinConfiguration: { nodeRegistration: kubelet },
        files: file ? [file] : [],
      },
    },
  };
}

/**
 * v1beta2 lists hold at least one entry (kubernetes-sigs/cluster-api@ae7ff047db499ac3858ade268ba38db8c9f128bb
 * controlplane/kubeadm/config/crd/bases/controlplane.cluster.x-k8s.io_kubeadmcontrolplanes.yaml, v1beta2:
 * `minItems: 1` on extraArgs, kubeletExtraArgs, extraVolumes and files): a list whose every entry is
 * removed, and none added, is removed whole behind a `test` of what it held, in place of its entries.
 */
function emptiedListsRemovedWhole(lists: ReadonlyMap<string, readonly unknown[]>, removes: ListRemoval[], appends: readonly object[]): void {
  for (const [path, entries] of lists) {
    const own = removes.filter((r) => r.path === path);
    const adds = appends.some((a) => (a as { path?: string }).path === path || (a as { path?: string }).path === `${path}/-`);
    if (own.length === 0 || own.length < entries.length || adds) {
      continue;
    }
    removes.splice(0, removes.length, ...removes.filter((r) => r.path !== path));
    removes.push({
      index: entries.length,
      op: [
        { op: 'test', path, value: entries },
        { op: 'remove', path },
      ],
    });
  }
}

/**
 * A Cluster API KubeadmControlPlane change as a JSON patch (RFC 6902) for
 * `kubectl patch kcp NAME --type=json`: files and extraVolumes are appended
 * with `add …/-`, so the existing cloud.conf file and mount stay; v1beta1
 * extraArgs (a map) are set key by key. v1beta2 extraArgs are a list whose
 * names must be unique (kubernetes-sigs/cluster-api@v1.11.0
 * api/bootstrap/kubeadm/v1beta2/kubeadm_types.go: `self.all(x, self.exists_one(y, x.name == y.name))`),
 * so an entry `current` (the KubeadmControlPlane as read) already has is
 * replaced by its index behind `test` operations, and one to drop is removed
 * the same way; only new names are appended. Rolling it out replaces the
 * control-plane machines one by one.
 */
export function kubeadmControlPlanePatch(
  input: MigrationInput,
  name = 'CLUSTER-control-plane',
  capi: ClusterApiVersion = 'v1beta1',
  current?: unknown,
  from: MigrationPhase | undefined = defaultFrom(input),
): string {
  const list = capi === 'v1beta2';
  if (list && current === undefined) {
    // asked for without the KubeadmControlPlane it applies to
    throw new UserError(
      'usage',
      'Cluster API v1beta2 lists extra args by name and rejects a second entry of a name, so the patch replaces existing entries by index: give the KubeadmControlPlane as `kubectl get kubeadmcontrolplane NAME -o yaml` prints it',
    );
  }
  const base = '/spec/kubeadmConfigSpec';
  // v1beta1 without the object: the state the neighbouring phase's patch left, so what it added is removed behind tests
  const state = current ?? predecessorState(input, from);
  // without the object, a rollback's state holds only the entries the later phase's patch set
  const rollback = current === undefined && from !== undefined && from !== defaultFrom(input);
  const ops: object[] = [];
  const removes: ListRemoval[] = [];
  const appends: object[] = [];
  /** Each list as read, by path (v1beta2 refuses a list emptied by the removals). */
  const lists = new Map<string, readonly unknown[]>();
  const args = (path: string, flags: ComponentFlags) => {
    const existing = at(state, path.split('/').slice(1));
    if (!list) {
      const map = existing !== null && typeof existing === 'object' && !Array.isArray(existing) ? (existing as Record<string, unknown>) : {};
      for (const [k, v] of Object.entries(argMap(flags))) {
        ops.push({ op: 'add', path: `${path}/${pointer(k)}`, value: v });
      }
      const trimmed = trimmedArgs(flags, (k) => map[k]);
      for (const { name: k, value, left } of trimmed) {
        const at = `${path}/${k}`;
        ops.push({ op: 'test', path: at, value }, left === undefined ? { op: 'remove', path: at } : { op: 'replace', path: at, value: left });
      }
      // a rollback drops what the later phase set, not what the earlier one did: every key of ours its state has and this phase does not
      const wanted = argMap(flags);
      const dropped = rollback
        ? Object.keys(map).filter((k) => !(k in wanted) && !trimmed.some((t) => t.name === k))
        : flags.remove.map((f) => f.replace(/^--/, ''));
      for (const k of dropped) {
        if (k in map) {
          // a map key has no index: the test still fails the patch if the value changed since
          removes.push({
            index: 0,
            op: [
              { op: 'test', path: `${path}/${pointer(k)}`, value: map[k] },
              { op: 'remove', path: `${path}/${pointer(k)}` },
            ],
          });
        }
      }
      return;
    }
    const entries = Array.isArray(existing) ? (existing as { name?: unknown; value?: unknown }[]) : [];
    lists.set(path, entries);
    const added: object[] = [];
    for (const [k, v] of Object.entries(argMap(flags))) {
      const i = entries.findIndex((e) => e?.name === k);
      if (i < 0) {
        added.push({ op: 'add', path: `${path}/-`, value: { name: k, value: v } });
      } else if (entries[i].value !== v) {
        // the test fails the whole patch if the list changed since it was read
        ops.push({ op: 'test', path: `${path}/${i}`, value: entries[i] }, { op: 'replace', path: `${path}/${i}/value`, value: v });
      }
    }
    for (const flag of flags.remove) {
      removes.push(...removeEntries(path, entries, (e) => (e as { name?: unknown })?.name === flag.replace(/^--/, '')));
    }
    for (const { name: k, left } of trimmedArgs(flags, (n) => entries.find((e) => e?.name === n)?.value)) {
      const g = entries.findIndex((e) => e?.name === k);
      if (left === undefined) {
        removes.push(...removeEntries(path, entries, (e) => e === entries[g]));
      } else {
        ops.push({ op: 'test', path: `${path}/${g}`, value: entries[g] }, { op: 'replace', path: `${path}/${g}/value`, value: left });
      }
    }
    appends.push(...(added.length > 0 && !Array.isArray(existing) ? [{ op: 'add', path, value: [] }] : []), ...added);
  };
  /** One list entry of the phase (or none): kept when equal, replaced behind a test when changed, removed when gone. */
  const entry = (path: string, match: (e: unknown) => boolean, wanted: object | undefined) => {
    const existing = at(state, path.split('/').slice(1));
    const entries: unknown[] = Array.isArray(existing) ? existing : [];
    lists.set(path, entries);
    const i = entries.findIndex(match);
    if (!wanted) {
      removes.push(...removeEntries(path, entries, match));
    } else if (current !== undefined && !Array.isArray(existing)) {
      // the object as read has no such list: "add …/-" would fail the whole patch, so the list is added with the entry
      appends.push({ op: 'add', path, value: [wanted] });
    } else if (i < 0 || current === undefined) {
      // without the object the entry is appended, as the phase needs it: a missing leader-migration file stops the KCM
      appends.push({ op: 'add', path: `${path}/-`, value: wanted });
    } else if (JSON.stringify(entries[i]) !== JSON.stringify(wanted)) {
      ops.push({ op: 'test', path: `${path}/${i}`, value: entries[i] }, { op: 'replace', path: `${path}/${i}`, value: wanted });
    }
  };
  const kcmArgs = `${base}/clusterConfiguration/controllerManager/extraArgs`;
  const provider = at(state, [...kcmArgs.split('/').slice(1), 'cloud-provider']);
  if (current === undefined && typeof provider === 'string') {
    // the KCM's provider tells the phases apart: from any other phase than `from` this test fails the patch as a whole
    ops.push({ op: 'test', path: `${kcmArgs}/cloud-provider`, value: provider });
  }
  args(kcmArgs, kubeControllerManagerFlags(input));
  entry(
    `${base}/clusterConfiguration/controllerManager/extraVolumes`,
    (e) => (e as { name?: unknown })?.name === LEADER_MIGRATION_VOLUME,
    leaderMigrationVolume(input)[0],
  );
  const kas = kubeApiserverFlags(input);
  if (kas.flags.length > 0 || kas.remove.length > 0 || list) {
    args(`${base}/clusterConfiguration/apiServer/extraArgs`, kas);
  }
  args(`${base}/initConfiguration/nodeRegistration/kubeletExtraArgs`, kubeletFlags(input));
  args(`${base}/joinConfiguration/nodeRegistration/kubeletExtraArgs`, kubeletFlags(input));
  entry(`${base}/files`, (e) => (e as { path?: unknown })?.path === KCM_LEADER_MIGRATION_PATH, leaderMigrationFile(input));
  if (list) {
    emptiedListsRemovedWhole(lists, removes, appends);
  }
  // highest index first, so each removal leaves the lower indices of its list in place
  ops.push(...removes.sort((a, b) => b.index - a.index).flatMap((r) => r.op), ...appends);
  const notes = [
    `# Cluster API ${capi} KubeadmControlPlane ${name}: kubectl patch kubeadmcontrolplane ${name} --type=json --patch-file THIS-FILE`,
    '# (a JSON patch: files and extraVolumes are appended with "add …/-", so existing entries stay;',
    ...(list
      ? [
          '# extra args already present are replaced by index behind "test" operations, built from the KubeadmControlPlane as read:',
          '# if it changed since, the patch fails as a whole; read it again and regenerate).',
        ]
      : [
          '# a path whose parent map does not exist yet needs an "add" of {} first; a key already set is replaced, not duplicated;',
          '# what the phase before set and this one drops is removed behind "test" operations).',
        ]),
    ...(current === undefined
      ? [
          ...(from
            ? [
                `# Written for the KubeadmControlPlane of phase "${from}"${rollback ? ' (a rollback)' : ''}: from any other phase its "test" operations fail it as a whole.`,
              ]
            : []),
          '# The patch is the whole state of the phase: skip "add …/-" entries an earlier phase already appended (same value),',
          '# e.g. the leader-migration file and extraVolume are the same in leader-migration-kcm and leader-migration-ccm.',
          `# List entries to drop are removed by index, here as ${from ? `the patch of "${from}"` : "the previous phase's patch"} left the lists: if yours hold others`,
          `# (a cloud-config mount), the "test" fails the patch as a whole; regenerate it with --current from`,
          `# kubectl get kubeadmcontrolplane ${name} -o yaml`,
        ]
      : [
          '# Entries an earlier phase appended (the leader-migration file and extraVolume) are not appended again; list',
          '# entries to drop are removed by index behind "test" operations, from the KubeadmControlPlane as read.',
        ]),
    '# Kubelets: the KubeadmControlPlane rollout replaces control-plane machines; for workers create a new',
    '# KubeadmConfigTemplate with the same kubeletExtraArgs and point each MachineDeployment at it (templates are immutable).',
  ];
  return `${header(input, `Cluster API KubeadmControlPlane JSON patch (${capi})`, notes)}${stringify(ops, { lineWidth: 0, aliasDuplicateObjects: false })}`;
}

/** The flags of each static pod (and the kubelet) in a phase, for control planes run by hand. */
export function staticPodFlags(input: MigrationInput): string {
  const parts: [string, string, ComponentFlags][] = [
    ['kube-controller-manager', '/etc/kubernetes/manifests/kube-controller-manager.yaml', kubeControllerManagerFlags(input)],
    ['kube-apiserver', '/etc/kubernetes/manifests/kube-apiserver.yaml', kubeApiserverFlags(input)],
    ['kubelet', 'the kubelet flags or KUBELET_EXTRA_ARGS', kubeletFlags(input)],
  ];
  const lines = [`Phase "${input.phase}" (${input.platform}, Kubernetes 1.${input.kubernetesMinor}): cloud-related flags per component.`, ''];
  for (const [component, where, flags] of parts) {
    lines.push(`${component} (${where}):`);
    lines.push(...(flags.flags.length === 0 ? ['  (no cloud flags)'] : flags.flags.map((f) => `  ${f}`)));
    lines.push(...flags.remove.map((f) => `  remove ${f}`));
    lines.push(...(flags.removeGates ? [`  remove ${flags.removeGates.join(', ')} from --feature-gates ${KEEP_GATES('flag')}`] : []));
    // a hand-run KCM keeps its --controllers flag: without it the default "*" would also drop kubeadm's bootstrap-token controllers
    lines.push(
      ...(flags.removeControllers ? [`  remove ${flags.removeControllers.join(', ')} from --controllers (keep the other entries)`] : []),
      '',
    );
  }
  if (parts[0][2].flags.some((f) => f.startsWith('--controllers='))) {
    // only where the KCM hands node IPAM over; "*,-nodeipam" alone would also drop kubeadm's bootstrap-token controllers
    lines.push(
      `--controllers: ${KCM_CONTROLLERS_WITHOUT_NODE_IPAM} is kubeadm's default list without node IPAM; if yours differs, keep it and append -nodeipam.`,
      '',
    );
  }
  const lmc = phasePlan(input).kcm.config;
  if (lmc) {
    lines.push(
      `${KCM_LEADER_MIGRATION_PATH} (mount it read-only into the kube-controller-manager pod at the same path):`,
      ...leaderMigrationConfigYaml(lmc)
        .trimEnd()
        .split('\n')
        .map((l) => `  ${l}`),
      '',
    );
  }
  return lines.join('\n');
}

/**
 * RKE2 with `cloud-provider-name: aws` sets the node name from the EC2 metadata
 * hostname (rancher/rke2@003f022f81d2 pkg/rke2/rke2_linux.go `initStaticPodExecutor`);
 * without it the kubelet takes the OS hostname and the node registers again as a new Node.
 */
const RKE2_AWS_NODE_NAME =
  '# AWS: cloud-provider-name: aws named each node after its EC2 metadata hostname; in this same change set node-name on every server AND agent ' +
  "to that node's current name (kubectl get nodes; the instance's private DNS name), or the node re-registers under its OS hostname as a new Node.";

/** The RKE2 or k3s server config key of each component's extra flags (rancher/rke2@v1.26.15+rke2r1 pkg/cli/cmds/server.go). */
const RANCHER_ARG_KEYS = {
  'kube-controller-manager': 'kube-controller-manager-arg',
  'kube-apiserver': 'kube-apiserver-arg',
  kubelet: 'kubelet-arg',
} as const;

/**
 * The cloud part of `/etc/rancher/<rke2|k3s>/config.yaml` in a phase: RKE2
 * names an in-tree provider with `cloud-provider-name` / `cloud-provider-config`
 * (it passes both to the kubelet, kube-apiserver and kube-controller-manager:
 * rancher/rke2@v1.26.15+rke2r1 pkg/podexecutor/staticpod.go), the other flags as
 * `*-arg` entries, and mounts the KCM's leader-migration file with
 * `kube-controller-manager-extra-mount` (pkg/cli/cmds/root.go; its KCM is a
 * static pod); its own CCM is disabled only once ours runs. k3s removes the
 * in-tree cloud providers (k3s-io/k3s@00993dc README.md "What have you removed
 * from upstream Kubernetes?"), so only its external phases have a form;
 * undefined for the others.
 */
export function rancherConfig(input: MigrationInput, distro: 'rke2' | 'k3s'): string | undefined {
  const plan = phasePlan(input);
  const external = plan.kcm.flags.flags.includes('--cloud-provider=external');
  if (distro === 'k3s' && !external) {
    return undefined;
  }
  const doc: Record<string, unknown> = {};
  if (plan.ccm.deployed) {
    doc['disable-cloud-controller'] = true;
  }
  const parts: [keyof typeof RANCHER_ARG_KEYS, ComponentFlags][] = [
    ['kube-controller-manager', plan.kcm.flags],
    ['kube-apiserver', plan.apiServer()],
    ['kubelet', plan.kubelet()],
  ];
  for (const [component, flags] of parts) {
    const args = flags.flags.filter((f) => external || !/^--cloud-(provider|config)=/.test(f)).map((f) => f.replace(/^--/, ''));
    if (!external) {
      // in-tree: RKE2 passes the provider and its config to every component itself
      doc['cloud-provider-name'] = input.support?.inTreeProvider;
      const config = flags.flags.find((f) => f.startsWith('--cloud-config='));
      if (config) {
        doc['cloud-provider-config'] = config.slice('--cloud-config='.length);
      }
    }
    if (args.length > 0) {
      doc[RANCHER_ARG_KEYS[component]] = args;
    }
  }
  // the KCM static pod sees only what is mounted: its leader-migration file, and the cloud config once RKE2 no longer mounts it
  const externalConfig = external ? plan.kcm.flags.flags.find((f) => f.startsWith('--cloud-config='))?.slice('--cloud-config='.length) : undefined;
  const mounts = [plan.kcm.config ? plan.kcm.path : undefined, distro === 'rke2' ? externalConfig : undefined].filter(
    (m): m is string => m !== undefined,
  );
  if (mounts.length > 0) {
    doc['kube-controller-manager-extra-mount'] = mounts.map((m) => `${m}:${m}:ro`);
  }
  const removals = [
    ...(external && input.support ? ['cloud-provider-name', 'cloud-provider-config'] : []),
    // the config is merged into the existing keys: on the way back the external phases' arguments would outlive them
    ...(!external && input.support
      ? [
          'the kubelet-arg entry cloud-provider=external; the kube-controller-manager-arg entries cloud-provider=external, external-cloud-volume-plugin and cloud-config (RKE2 passes cloud-provider-name and cloud-provider-config itself)',
        ]
      : []),
    ...parts.flatMap(([component, flags]) =>
      flags.removeGates ? [`the ${RANCHER_ARG_KEYS[component]} feature-gates entries ${flags.removeGates.join(', ')} (keep the other gates)`] : [],
    ),
    ...(plan.kcm.flags.removeControllers
      ? [`the kube-controller-manager-arg controllers entries ${plan.kcm.flags.removeControllers.join(', ')} (keep the other entries)`]
      : []),
    ...(!plan.kcm.config && input.support && !input.support.noLeaderMigration
      ? [
          'the kube-controller-manager-arg entries enable-leader-migration and leader-migration-config',
          `the kube-controller-manager-extra-mount of ${plan.kcm.path}`,
        ]
      : []),
  ];
  const file = plan.kcm.file
    ? `# Write this file to ${plan.kcm.path} on every server before it restarts:\n${plan.kcm.file.trimEnd().replace(/^/gm, '#   ')}\n`
    : '';
  const name = distro === 'rke2' ? 'RKE2' : 'k3s';
  return (
    [
      `# ${name} server configuration for phase "${input.phase}" (${input.platform}, Kubernetes 1.${input.kubernetesMinor}), generated by ccm-gitops:`,
      '# merge into the existing keys, then restart one server at a time.',
      ...(removals.length > 0 ? [`# Remove if present: ${removals.join('; ')}.`] : []),
      ...(distro === 'rke2' && external && input.support?.inTreeProvider === 'aws' ? [RKE2_AWS_NODE_NAME] : []),
      '',
    ].join('\n') +
    file +
    stringify(doc, { lineWidth: 0 })
  );
}

/** The control-plane change in one format. */
export function controlPlaneChange(
  input: MigrationInput,
  format: ControlPlaneFormat,
  capi: ClusterApiVersion = 'v1beta1',
  current?: unknown,
): string {
  switch (format) {
    case 'kubeadm':
      return kubeadmConfig(input);
    case 'cluster-api': {
      const name = (at(current, ['metadata', 'name']) as string | undefined) ?? undefined;
      return kubeadmControlPlanePatch(input, typeof name === 'string' ? name : undefined, capi, current);
    }
    case 'static-pod':
      return staticPodFlags(input);
  }
}
