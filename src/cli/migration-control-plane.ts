/** The `migration control-plane` command: the control-plane change of a migration phase for a kubeadm, Cluster API or hand-run control plane. */
import * as fs from 'fs';
import { Command } from 'commander';
import { parse as parseYaml } from 'yaml';
import { CliIo, CommandContext } from './io';
import { EXIT_INVALID_INPUT, EXIT_OK } from './exit-codes';
import { ClusterSpec, PLATFORM_TYPES, PlatformType } from '../cluster-spec/schema';
import { manualControlPlaneChangeOf } from '../distribution-facts';
import { MigrationInput } from '../migration/flags';
import { DEFAULT_LEADER_NAME, DEFAULT_LEASE_NAMESPACE, KUBERNETES_MINOR, MIGRATION_PHASES, MigrationPhase, minorOf } from '../migration/phases';
import { migrationProblems } from '../fleet/migration-targets';
import { migrationSupportFor } from '../migration/support';
import { errnoText, isErrnoError } from '../pipeline/output';
import { UserError } from '../util/user-error';

/** What the command writes: the change of distribution kubernetes, whose administrator changes the control plane. */
const CONTROL_PLANE_CHANGE = manualControlPlaneChangeOf('kubernetes');
const { formats: CONTROL_PLANE_FORMATS, clusterApiVersions: CLUSTER_API_VERSIONS } = CONTROL_PLANE_CHANGE;

/** The options of `migration control-plane` as commander gives them. */
interface ControlPlaneFlags {
  readonly platform: string;
  readonly phase: string;
  readonly kubernetesVersion: string;
  readonly ccmVersion?: string;
  readonly format: string;
  readonly clusterApi?: string;
  readonly current?: string;
  readonly nodeIpam?: boolean;
  readonly inTreeVolumes: boolean;
  readonly wildcard?: boolean;
  readonly leaderName: string;
  readonly leaseNamespace: string;
}

/** Adds `migration control-plane` to the `migration` command. */
export function addMigrationControlPlaneCommand(migration: Command, { io, setCode }: CommandContext): void {
  migration
    .command('control-plane')
    .description(
      'print the control-plane change of a migration phase for a kubeadm, Cluster API or hand-run control plane ' +
        '(OpenShift clusters get theirs in dist/<cluster>/MIGRATION.md)',
    )
    .requiredOption('--platform <type>', 'platform type: AWS, GCP, OpenStack, VSphere or Azure')
    .requiredOption('--phase <phase>', `migration phase: ${MIGRATION_PHASES.join(', ')}`)
    .requiredOption('--kubernetes-version <1.NN>', 'minor version of the kube-controller-manager (N)')
    .option('--ccm-version <1.NN>', "minor of the CCM's k8s.io/controller-manager (default: N; N-1 is allowed, N+1 is not)")
    .option('--format <format>', `output form: ${CONTROL_PLANE_FORMATS.join(', ')}`, 'static-pod')
    .option('--cluster-api <version>', `KubeadmControlPlane API of --format cluster-api: ${CLUSTER_API_VERSIONS.join(', ')}`, 'v1beta1')
    .option(
      '--current <file>',
      'the KubeadmControlPlane as `kubectl get kubeadmcontrolplane NAME -o yaml` prints it (needed by --cluster-api v1beta2: its extra args are replaced by index; with v1beta1 the mounts and files to drop are found by their index in it)',
    )
    .option('--node-ipam', 'node IPAM moves to the CCM too')
    .option('--no-in-tree-volumes', 'drop the in-tree volume plugins at the switch (CSI migration is complete)')
    .option('--wildcard', 'write component "*" instead of naming the owner')
    .option('--leader-name <name>', 'migration Lease name', DEFAULT_LEADER_NAME)
    .option('--lease-namespace <ns>', 'lease namespace of both controller managers', DEFAULT_LEASE_NAMESPACE)
    .action((opts: ControlPlaneFlags) => {
      setCode(migrationControlPlane(opts, io));
    });
}

/** `migration control-plane`: validates like synth, prints one form, exit 1 on a refused migration. */
function migrationControlPlane(opts: ControlPlaneFlags, io: CliIo): number {
  const { platform, phase, format, capi } = checkedFlags(opts);
  const input = migrationInputOf(opts, platform, phase);
  const problems = migrationProblems({
    ...input,
    distribution: 'kubernetes',
    managementMode: 'gitops',
    inTreeVolumes: undefined,
    enabledFeatureGates: [],
  });
  if (problems.length > 0) {
    for (const p of problems) {
      io.err(`error: ${p.path.join('.')}: ${p.message}\n`);
    }
    return EXIT_INVALID_INPUT;
  }
  const current = opts.current === undefined ? undefined : readCurrent(opts.current);
  if (current === undefined && format === 'cluster-api' && capi === 'v1beta2') {
    throw new UserError(
      'usage',
      '--cluster-api v1beta2 needs --current FILE (kubectl get kubeadmcontrolplane NAME -o yaml > FILE): v1beta2 rejects a second extra arg of one name, so existing entries are replaced by index',
    );
  }
  io.out(CONTROL_PLANE_CHANGE.write(input, format, capi, current));
  return EXIT_OK;
}

/** The platform, phase, output form and Cluster API version the flags name; a usage error for the first one that names none. */
function checkedFlags(opts: ControlPlaneFlags) {
  const platform = PLATFORM_TYPES.find((p) => p.toLowerCase() === opts.platform.toLowerCase());
  if (!platform) {
    throw new UserError('usage', `--platform ${JSON.stringify(opts.platform)} is not a platform type; use one of ${PLATFORM_TYPES.join(', ')}`);
  }
  const phase = MIGRATION_PHASES.find((p) => p === opts.phase);
  if (!phase) {
    throw new UserError('usage', `--phase ${JSON.stringify(opts.phase)} is not a phase; use one of ${MIGRATION_PHASES.join(', ')}`);
  }
  for (const [flag, value] of [
    ['--kubernetes-version', opts.kubernetesVersion],
    ['--ccm-version', opts.ccmVersion],
  ] as const) {
    if (value !== undefined && !KUBERNETES_MINOR.test(value)) {
      throw new UserError('usage', `${flag} ${JSON.stringify(value)} is not a Kubernetes minor version like "1.26"`);
    }
  }
  const format = CONTROL_PLANE_FORMATS.find((f) => f === opts.format);
  if (!format) {
    throw new UserError('usage', `--format ${JSON.stringify(opts.format)} is not a form; use one of ${CONTROL_PLANE_FORMATS.join(', ')}`);
  }
  const capi = CLUSTER_API_VERSIONS.find((v) => v === (opts.clusterApi ?? 'v1beta1'));
  if (!capi) {
    throw new UserError(
      'usage',
      `--cluster-api ${JSON.stringify(opts.clusterApi)} is not a Cluster API version; use one of ${CLUSTER_API_VERSIONS.join(', ')}`,
    );
  }
  return { platform, phase, format, capi };
}

/** The migration the flags describe, with the platform's migration support. */
function migrationInputOf(opts: ControlPlaneFlags, platform: PlatformType, phase: MigrationPhase): MigrationInput {
  const support = migrationSupportFor({ spec: { platform } } as unknown as ClusterSpec);
  const kubernetesMinor = minorOf(opts.kubernetesVersion);
  return {
    platform,
    support,
    phase,
    kubernetesMinor,
    ccmMinor: opts.ccmVersion ? minorOf(opts.ccmVersion) : kubernetesMinor,
    leaderName: opts.leaderName,
    leaseNamespace: opts.leaseNamespace,
    nodeIpam: opts.nodeIpam ?? false,
    inTreeVolumes: opts.inTreeVolumes && support !== undefined && kubernetesMinor <= support.lastInTreeMinor,
    wildcard: opts.wildcard ?? false,
    leaderElect: true,
  };
}

/** The KubeadmControlPlane of --current, read and parsed; a usage error naming the file when it is none. */
function readCurrent(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new UserError(
      'usage',
      `--current ${JSON.stringify(file)} cannot be read (${isErrnoError(e) ? errnoText(e) : 'unreadable'}); give the file kubectl get kubeadmcontrolplane NAME -o yaml wrote`,
    );
  }
  let current: unknown;
  try {
    current = parseYaml(text);
  } catch {
    throw new UserError('usage', `--current ${JSON.stringify(file)} is not YAML; give the file kubectl get kubeadmcontrolplane NAME -o yaml wrote`);
  }
  if ((current as { kind?: unknown } | null)?.kind !== 'KubeadmControlPlane') {
    throw new UserError(
      'usage',
      `--current ${JSON.stringify(file)}: kind is not KubeadmControlPlane; give the file kubectl get kubeadmcontrolplane NAME -o yaml wrote`,
    );
  }
  return current;
}
