import * as path from 'path';
import { PreparedCluster } from '../cluster/prepared-cluster';
import { loadSpecFiles } from '../fleet/load';

/** Options of `loadCluster`. */
export interface LoadClusterOptions {
  /**
   * The clusters folder: root of the `defaults.yaml` chain merged into the
   * spec; the cloud config must stay inside it.
   *
   * @default - the spec file's folder
   */
  readonly clusters?: string;
}

/**
 * Loads one cluster spec for a cdk8s app of your own: merges the folder
 * defaults, validates the spec and runs the platform's cloud-config
 * transform, exactly as `ccm-gitops synth` does. Pass the result to
 * `new ClusterChart(scope, id, { cluster })`.
 *
 * @throws SpecValidationError listing every problem (file, line, field, fix)
 */
export function loadCluster(file: string, options: LoadClusterOptions = {}): PreparedCluster {
  return loadSpecFiles([file], options.clusters ?? path.dirname(file)).clusters[0];
}
