import { Construct } from 'constructs';
import { TransformResult } from '../cloud-config/errors';
import { ImageKey } from '../spec/images';
import { ClusterSpec, PlatformType } from '../spec/schema';

/** A problem a platform finds in a spec: field path and message (with the fix). */
export interface PlatformSpecProblem {
  /** Field path, e.g. `['spec', 'aws', 'region']`. */
  readonly path: readonly (string | number)[];
  /** What is wrong and what to do. */
  readonly message: string;
}

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
  /** Warnings of the transform (dropped or overridden keys). */
  readonly warnings: readonly string[];
}

/**
 * Everything the generator knows about one platform. Adding a platform is a
 * new folder under `src/platforms/` exporting one of these, plus its entry in
 * the registry (`src/platforms/index.ts`).
 */
export interface PlatformDefinition {
  /** Infrastructure `status.platformStatus.type`. */
  readonly type: PlatformType;
  /** Images the operands of this platform use (images.json keys). */
  readonly requiredImages: readonly ImageKey[];
  /** Platform-specific checks beyond the schema. */
  validate(spec: ClusterSpec): PlatformSpecProblem[];
  /** The platform's cloud-config transform (pure). Throws CloudConfigError. */
  transformCloudConfig(source: string, spec: ClusterSpec): TransformResult;
  /** Renders the platform's operands (CCM workloads, RBAC, admission policies, PDB, Service, cloud-conf). */
  renderOperands(scope: Construct, cluster: PreparedCluster): void;
  /** Renders the platform's CredentialsRequest, when it has one. */
  renderCredentialsRequest?(scope: Construct, cluster: PreparedCluster): void;
}
