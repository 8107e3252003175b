import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { LeaderMigrationConfiguration, leaderMigrationConfigProblems, leaderMigrationConfigYaml } from './leader-migration-config';

/** The ConfigMap key holding the configuration. */
export const LEADER_MIGRATION_CONFIG_KEY = 'config.yaml';

/** Properties for `LeaderMigrationConfigMap`. */
export interface LeaderMigrationConfigMapProps {
  /** ConfigMap name. */
  readonly name: string;
  /** Namespace of the CCM that mounts it. */
  readonly namespace: string;
  /** The configuration of the phase. */
  readonly config: LeaderMigrationConfiguration;
}

/**
 * The LeaderMigrationConfiguration the CCM mounts, under `config.yaml`. The
 * configuration is checked against the upstream rules before it is written.
 */
export class LeaderMigrationConfigMap extends Construct {
  /** The ConfigMap object. */
  public readonly apiObject: ApiObject;
  /** Its data, for the pod's config hash. */
  public readonly data: Readonly<Record<string, string>>;

  constructor(scope: Construct, id: string, props: LeaderMigrationConfigMapProps) {
    super(scope, id);
    const problems = leaderMigrationConfigProblems(props.config);
    if (problems.length > 0) {
      throw new Error(`'config' of ConfigMap ${props.namespace}/${props.name} is not a valid LeaderMigrationConfiguration: ${problems.join('; ')}`);
    }
    this.data = { [LEADER_MIGRATION_CONFIG_KEY]: leaderMigrationConfigYaml(props.config) };
    this.apiObject = new k8s.KubeConfigMap(this, 'Resource', {
      metadata: { name: props.name, namespace: props.namespace },
      data: { ...this.data },
    });
  }
}
