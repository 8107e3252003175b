/**
 * One cluster's migration in one phase, computed once per MigrationInput:
 * each side's LeaderMigrationConfiguration and flags and whether the CCM is
 * deployed. The CCM constructs (through `ccmLeaderMigrationMount`), the
 * migration objects (ConfigMap, MachineConfig), the control-plane snippets,
 * the plan's steps and MIGRATION.md all read it, so the phase configuration
 * is never rebuilt differently in two places. Pure: no cdk8s import.
 */
import {
  ccmLeaderMigrationConfig,
  ComponentFlags,
  KCM_LEADER_MIGRATION_PATH,
  kcmLeaderMigrationConfig,
  kubeApiserverFlags,
  kubeControllerManagerFlags,
  kubeletFlags,
  MigrationInput,
} from './flags';
import { LeaderMigrationConfiguration, leaderMigrationConfigYaml } from './leader-migration-config';
import { ccmDeployedIn } from './phases';

/** One side's leader migration in the phase. */
export interface SidePlan {
  /** Its own LeaderMigrationConfiguration, when it runs leader migration. */
  readonly config?: LeaderMigrationConfiguration;
  /** The file text of `config`. */
  readonly file?: string;
}

/** The phase plan. */
export interface PhasePlan {
  readonly input: MigrationInput;
  readonly kcm: SidePlan & {
    readonly flags: ComponentFlags;
    /** Where the KCM reads its file. */
    readonly path: string;
  };
  readonly ccm: SidePlan & { readonly deployed: boolean };
  /** The kubelets' flags (computed on demand: they throw for flags a version no longer has). */
  kubelet(): ComponentFlags;
  /** kube-apiserver's flags (on demand, as above). */
  apiServer(): ComponentFlags;
}

const cache = new WeakMap<MigrationInput, PhasePlan>();

function side(config: LeaderMigrationConfiguration | undefined): SidePlan {
  return config ? { config, file: leaderMigrationConfigYaml(config) } : {};
}

/** The phase plan of a migration input (memoized per input object). */
export function phasePlan(input: MigrationInput): PhasePlan {
  let plan = cache.get(input);
  if (!plan) {
    plan = {
      input,
      kcm: {
        ...side(kcmLeaderMigrationConfig(input)),
        flags: kubeControllerManagerFlags(input),
        path: input.kcmConfigPath ?? KCM_LEADER_MIGRATION_PATH,
      },
      ccm: { ...side(ccmLeaderMigrationConfig(input)), deployed: ccmDeployedIn(input.phase) },
      kubelet: () => kubeletFlags(input),
      apiServer: () => kubeApiserverFlags(input),
    };
    cache.set(input, plan);
  }
  return plan;
}
