/**
 * The flag changes of each control-plane component in each migration phase
 * (kubernetes/enhancements@64765b4b0238 keps/sig-cloud-provider/2436-controller-manager-leader-migration/README.md;
 * openshift/enhancements@e91105bda6aa enhancements/cloud-integration/out-of-tree-provider-support.md "Kubelet", "Kube Controller Manager").
 * Pure: no cdk8s import.
 */
import {
  ANY_COMPONENT,
  buildLeaderMigrationConfig,
  CLOUD_CONTROLLER_MANAGER,
  KUBE_CONTROLLER_MANAGER,
  LeaderMigrationConfiguration,
} from './leader-migration-config';
import { UserError } from '../util/user-error';
import { externalIn, kcmLeaderMigrationIn, ccmLeaderMigrationIn, MigrationPhase, MigrationSupport } from './phases';

/** Everything the phase logic needs about one cluster's migration. */
export interface MigrationInput {
  /** The platform type, for messages. */
  readonly platform: string;
  /** What the platform allows; undefined when it never had an in-tree provider. */
  readonly support?: MigrationSupport;
  /** The phase to render. */
  readonly phase: MigrationPhase;
  /** The kube-controller-manager minor (1.NN → NN). */
  readonly kubernetesMinor: number;
  /** The CCM's k8s.io/controller-manager minor. */
  readonly ccmMinor: number;
  /** The migration Lease name. */
  readonly leaderName: string;
  /** The namespace both controller managers elect leaders in. */
  readonly leaseNamespace: string;
  /** Node IPAM moves to the CCM. */
  readonly nodeIpam: boolean;
  /**
   * The distribution starts the KCM allocating node CIDRs, so with an in-tree
   * provider it also programs cloud routes (RKE2: `--allocate-node-cidrs=true` always).
   */
  readonly kcmAllocatesNodeCidrs?: boolean;
  /** Keep the in-tree volume plugins in the KCM after the switch. */
  readonly inTreeVolumes: boolean;
  /** Use `component: "*"` (whoever holds the lease) instead of naming the owner. */
  readonly wildcard: boolean;
  /** The KCM runs with `--leader-elect=true`. */
  readonly leaderElect: boolean;
  /**
   * Where the kube-controller-manager pod reads the leader-migration file.
   *
   * @default KCM_LEADER_MIGRATION_PATH
   */
  readonly kcmConfigPath?: string;
}

/** Where the leader migration file lives on a control-plane host and in the KCM pod (kubeadm, static pods). */
export const KCM_LEADER_MIGRATION_PATH = '/etc/kubernetes/leader-migration.yaml';
/** Where the in-tree cloud config lives on hosts (kubeadm convention). */
export const HOST_CLOUD_CONFIG_PATH = '/etc/kubernetes/cloud.conf';
/** The alpha gate of leader migration: needed on 1.21 only, gone from 1.27. */
export const LEADER_MIGRATION_GATE = 'ControllerManagerLeaderMigration';

/** The cloud flags of one component in one phase. */
export interface ComponentFlags {
  /** The flags this phase runs with (cloud-related ones only), in order. */
  readonly flags: readonly string[];
  /** Flag names (`--name`) the previous phase had and this one must drop. */
  readonly remove: readonly string[];
  /** Gate names an earlier phase set in `--feature-gates` and this one drops, the other gates kept. */
  readonly removeGates?: readonly string[];
  /** Entries an earlier phase set in `--controllers` and this one drops, the other entries kept. */
  readonly removeControllers?: readonly string[];
}

/**
 * The gate entries the in-tree phases of 1.29 and 1.30 set that an external
 * phase of those minors drops (no 1.31 component starts with them): both gates are GA and locked to true from 1.31
 * (kubernetes/kubernetes@20b2eef9fca7 pkg/features/versioned_kube_features.go), and
 * a locked gate set to false is a start-up error ("cannot set feature gate …,
 * feature is locked to true", k8s.io/component-base featuregate), so the next upgrade would not start.
 */
function gatesToDrop(input: MigrationInput, component: 'kcm' | 'kubelet' | 'kas'): { removeGates?: readonly string[] } {
  if (!input.support || !externalIn(input.phase) || input.kubernetesMinor < 29 || input.kubernetesMinor > 30) {
    return {};
  }
  return { removeGates: component === 'kubelet' ? ['DisableCloudProviders', 'DisableKubeletCloudCredentialProviders'] : ['DisableCloudProviders'] };
}

/** A comma-separated flag value without the entries `drop` names, in its order. */
function withoutEntries(value: string, drop: (entry: string) => boolean): string {
  return value
    .split(',')
    .filter((entry) => entry.trim() !== '' && !drop(entry.trim()))
    .join(',');
}

/** A `--feature-gates` value without the named gates, in its order. */
export function withoutGates(value: string, names: readonly string[]): string {
  return withoutEntries(value, (entry) => names.includes(entry.split('=')[0].trim()));
}

/** A `--controllers` value without the named entries (exact items such as `-nodeipam`), in its order. */
export function withoutControllers(value: string, items: readonly string[]): string {
  return withoutEntries(value, (entry) => items.includes(entry));
}

/**
 * The kube-controller-manager's own LeaderMigrationConfiguration: the migrated
 * controllers assigned to `kube-controller-manager` (or `"*"`), in the phases
 * where the KCMs run leader migration. A controller manager that holds the
 * migration lease runs only the controllers its own file assigns to it
 * (kubernetes/controller-manager@v0.30.0 pkg/leadermigration/migrator.go
 * `NewLeaderMigrator`: `leader.Component == component || leader.Component == "*"`),
 * so each side needs its own file (kubernetes/website
 * content/en/docs/tasks/administer-cluster/controller-manager-leader-migration.md).
 */
export function kcmLeaderMigrationConfig(input: MigrationInput): LeaderMigrationConfiguration | undefined {
  if (!kcmLeaderMigrationIn(input.phase) || !input.support || input.support.noLeaderMigration) {
    return undefined;
  }
  return buildLeaderMigrationConfig({
    kubernetesMinor: input.kubernetesMinor,
    leaderName: input.leaderName,
    component: input.wildcard ? ANY_COMPONENT : KUBE_CONTROLLER_MANAGER,
    nodeIpam: input.nodeIpam,
  });
}

/**
 * The CCM's own LeaderMigrationConfiguration: the migrated controllers
 * assigned to `cloud-controller-manager` (or `"*"`), in the phases where the
 * CCM runs leader migration. Its API version is the one the CCM's
 * k8s.io/controller-manager decodes (by `ccmMinor`).
 */
export function ccmLeaderMigrationConfig(input: MigrationInput): LeaderMigrationConfiguration | undefined {
  if (!ccmLeaderMigrationIn(input.phase) || !input.support || input.support.noLeaderMigration) {
    return undefined;
  }
  return buildLeaderMigrationConfig({
    kubernetesMinor: input.ccmMinor,
    leaderName: input.leaderName,
    component: input.wildcard ? ANY_COMPONENT : CLOUD_CONTROLLER_MANAGER,
    nodeIpam: input.nodeIpam,
  });
}

/** Whether the in-tree provider of 1.29–1.30 must be re-enabled (DisableCloudProviders is on by default there). */
function needsCloudProvidersGate(input: MigrationInput): boolean {
  return !externalIn(input.phase) && input.kubernetesMinor >= 29;
}

function gates(input: MigrationInput, component: 'kcm' | 'kubelet' | 'kas'): string[] {
  const list: string[] = [];
  if (needsCloudProvidersGate(input)) {
    list.push('DisableCloudProviders=false');
    if (component === 'kubelet') {
      // KEP-2395: DisableKubeletCloudCredentialProviders is on by default from 1.29; an in-tree
      // kubelet would lose its registry credentials (ECR/GCR/ACR) without it
      list.push('DisableKubeletCloudCredentialProviders=false');
    }
  }
  if (component === 'kcm' && kcmLeaderMigrationIn(input.phase) && input.kubernetesMinor === 21) {
    list.push(`${LEADER_MIGRATION_GATE}=true`);
  }
  return list.length > 0 ? [`--feature-gates=${list.join(',')}`] : [];
}

/**
 * The `--controllers` value of a KCM that no longer allocates node CIDRs:
 * kubeadm's default list (kubernetes/kubernetes cmd/kubeadm/app/phases/controlplane/manifests.go
 * `getControllerManagerCommand`: `"controllers": "*,bootstrapsigner,tokencleaner"`) with
 * `-nodeipam`: replacing it by `*,-nodeipam` would turn off the bootstrap-token
 * controllers kubeadm joins rely on.
 */
export const KCM_CONTROLLERS_WITHOUT_NODE_IPAM = '*,bootstrapsigner,tokencleaner,-nodeipam';
/** kubeadm's own `--controllers` default, which a removed `controllers` extra arg falls back to. */
export const KUBEADM_DEFAULT_CONTROLLERS = '*,bootstrapsigner,tokencleaner';
/** The `--controllers` item that turns node IPAM off in the KCM. */
export const NO_NODE_IPAM = '-nodeipam';

/**
 * The phases before the external ones give node IPAM back to the KCM: on the
 * way back from an external phase its `-nodeipam` goes, or no one allocates pod CIDRs.
 */
function nodeIpamBack(input: MigrationInput): { removeControllers?: readonly string[] } {
  return input.nodeIpam ? { removeControllers: [NO_NODE_IPAM] } : {};
}

/**
 * kube-controller-manager: in-tree provider, then in-tree with leader
 * migration and its own file, then external without leader migration (with
 * the in-tree volume plugin if asked). It never gets
 * `--leader-elect-resource-namespace`: that flag moves the KCM's main lease
 * too, and during a roll the KCMs with and without it would elect two leaders.
 */
export function kubeControllerManagerFlags(input: MigrationInput): ComponentFlags {
  const support = input.support;
  if (!support) {
    return { flags: ['--cloud-provider=external', ...(input.nodeIpam ? [`--controllers=${KCM_CONTROLLERS_WITHOUT_NODE_IPAM}`] : [])], remove: [] };
  }
  const cloudConfig = support.inTreeCloudConfig ? [`--cloud-config=${HOST_CLOUD_CONFIG_PATH}`] : [];
  const lmFlags = ['--enable-leader-migration', '--leader-migration-config'];
  if (externalIn(input.phase)) {
    const volumes = input.inTreeVolumes ? [`--external-cloud-volume-plugin=${support.volumePlugin}`, ...cloudConfig] : [];
    return {
      flags: ['--cloud-provider=external', ...volumes, ...(input.nodeIpam ? [`--controllers=${KCM_CONTROLLERS_WITHOUT_NODE_IPAM}`] : [])],
      remove: [...lmFlags, ...(input.inTreeVolumes || !support.inTreeCloudConfig ? [] : ['--cloud-config'])],
      ...gatesToDrop(input, 'kcm'),
    };
  }
  const base = [`--cloud-provider=${support.inTreeProvider}`, ...cloudConfig, ...gates(input, 'kcm')];
  if (!kcmLeaderMigrationIn(input.phase) || support.noLeaderMigration) {
    return { flags: base, remove: lmFlags, ...nodeIpamBack(input) };
  }
  return {
    flags: [
      ...base,
      '--leader-elect=true',
      '--enable-leader-migration',
      `--leader-migration-config=${input.kcmConfigPath ?? KCM_LEADER_MIGRATION_PATH}`,
    ],
    remove: [],
    ...nodeIpamBack(input),
  };
}

/** kubelet: in-tree until the switch, then `--cloud-provider=external` without a cloud config. */
export function kubeletFlags(input: MigrationInput): ComponentFlags {
  const support = input.support;
  if (!support || externalIn(input.phase)) {
    return { flags: ['--cloud-provider=external'], remove: support?.inTreeCloudConfig ? ['--cloud-config'] : [], ...gatesToDrop(input, 'kubelet') };
  }
  const flags = [`--cloud-provider=${support.inTreeProvider}`, ...gates(input, 'kubelet')];
  if (support.inTreeCloudConfig) {
    if (input.kubernetesMinor >= 34) {
      // a flag the component no longer has: the input asks for a minor that cannot run the in-tree provider
      throw new UserError(
        'input',
        `kubelet --cloud-config was removed in Kubernetes 1.34; a 1.${input.kubernetesMinor} kubelet cannot run the in-tree ${support.inTreeProvider} provider`,
      );
    }
    flags.splice(1, 0, `--cloud-config=${HOST_CLOUD_CONFIG_PATH}`);
  }
  return { flags, remove: [] };
}

/** kube-apiserver: its `--cloud-provider` goes away at the switch (and does not exist from 1.33). */
export function kubeApiserverFlags(input: MigrationInput): ComponentFlags {
  const support = input.support;
  if (!support || externalIn(input.phase)) {
    return {
      flags: [],
      remove: support ? ['--cloud-provider', ...(support.inTreeCloudConfig ? ['--cloud-config'] : [])] : [],
      ...gatesToDrop(input, 'kas'),
    };
  }
  if (input.kubernetesMinor >= 33) {
    throw new UserError(
      'input',
      `kube-apiserver --cloud-provider was removed in Kubernetes 1.33; a 1.${input.kubernetesMinor} kube-apiserver fails with "unknown flag: --cloud-provider"`,
    );
  }
  return {
    flags: [
      `--cloud-provider=${support.inTreeProvider}`,
      ...(support.inTreeCloudConfig ? [`--cloud-config=${HOST_CLOUD_CONFIG_PATH}`] : []),
      ...gates(input, 'kas'),
    ],
    remove: [],
  };
}

/** How the CCM joins leader migration. */
export interface CcmLeaderMigration {
  /** The path of the configuration inside the CCM container. */
  readonly configPath: string;
  /** The namespace both controller managers elect leaders in. */
  readonly leaseNamespace: string;
  /** The CCM's k8s.io/controller-manager minor (1.21 needs the alpha gate). */
  readonly ccmMinor: number;
}

/** The CCM side of leader migration: flags plus the mounted configuration. */
export interface CcmLeaderMigrationMount extends CcmLeaderMigration {
  /** The ConfigMap holding the configuration. */
  readonly configMapName: string;
  /** Its data, for the config hash (a new owner restarts the pods). */
  readonly configMapData: Readonly<Record<string, string>>;
  /** The directory the ConfigMap is mounted at (`configPath` is inside it). */
  readonly mountPath: string;
}

/**
 * Rewrites a CCM's flags for leader migration: the lease namespace becomes
 * the KCM's, `--leader-elect=true` is ensured, and `--enable-leader-migration`
 * and `--leader-migration-config` are appended (plus the alpha gate for a
 * 1.21 CCM, merged into an existing `--feature-gates`; never after 1.26).
 */
export function ccmLeaderMigrationFlags(flags: readonly string[], lm: CcmLeaderMigration): string[] {
  const out = flags.filter(
    (f) =>
      !f.startsWith('--leader-elect-resource-namespace=') &&
      !f.startsWith('--leader-elect=') &&
      !f.startsWith('--enable-leader-migration') &&
      !f.startsWith('--leader-migration-config='),
  );
  const at = flags.findIndex((f) => f.startsWith('--leader-elect'));
  const insert = [
    '--leader-elect=true',
    `--leader-elect-resource-namespace=${lm.leaseNamespace}`,
    '--enable-leader-migration',
    `--leader-migration-config=${lm.configPath}`,
  ];
  out.splice(at < 0 ? out.length : Math.min(at, out.length), 0, ...insert);
  if (lm.ccmMinor === 21) {
    const gateAt = out.findIndex((f) => f.startsWith('--feature-gates='));
    if (gateAt >= 0) {
      out[gateAt] = `${out[gateAt]},${LEADER_MIGRATION_GATE}=true`;
    } else {
      out.push(`--feature-gates=${LEADER_MIGRATION_GATE}=true`);
    }
  }
  return out;
}
