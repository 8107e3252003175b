import { ClusterSpec } from '../cluster-spec/schema';
import { MigrationInput } from '../migration/flags';

/** A cluster ready to render: its validated spec and its transformed cloud config. */
export interface PreparedCluster {
  /** The validated spec, defaults applied. */
  readonly spec: ClusterSpec;
  /** The spec file, as given to the loader. */
  readonly specFile: string;
  /** The spec file relative to the clusters folder, `/`-separated (stable across machines). */
  readonly specPath: string;
  /** The cloud config file, as given to the loader, when the spec names one. */
  readonly cloudConfigFile?: string;
  /** The `cloud.conf` content to render, after the platform transform. */
  readonly cloudConf: string;
  /**
   * Other `cloud-conf` keys (spec.cloudConfig.extraKeys), read from their files.
   *
   * @default - none
   */
  readonly cloudConfExtraData?: Readonly<Record<string, string>>;
  /**
   * The migration from the in-tree provider, when the spec declares one.
   *
   * @default - none: the cluster runs its external CCM
   */
  readonly migration?: MigrationInput;
  /** Warnings of the transform (dropped or overridden keys). */
  readonly warnings: readonly string[];
}
