import { perClusterRootName, ROOT_APPLICATION_NAME } from '../gitops/argocd-groups';
import { CloudCredentialsRequest } from './cloud-credentials-request';
import { clusterOwnership } from './cvo-ownership';
import { HANDOVER_FILE, handoverMarkdown } from './handover';
import { openshiftMigrationControlPlane } from './migration/migration-control-plane-objects';
import { openshiftMigrationTarget } from './migration-target';
import { OpenShiftStaticSet } from './openshift-static-set';
import { platformFor } from './platforms';
import { DistributionRendering } from '../cluster/distribution';

/**
 * What renders an OpenShift cluster: the static set, the platform's
 * CredentialsRequest and its operands, HANDOVER.md, and its side of the
 * migration (the MachineConfig, the KubeControllerManager override, the FeatureGate).
 */
export const OPENSHIFT_DISTRIBUTION: DistributionRendering = {
  renderCluster(chart, cluster) {
    const { spec } = cluster.spec;
    const platform = platformFor(spec.platform);
    if (!platform) {
      throw new Error(`'spec.platform' "${spec.platform}" is not rendered by this version`);
    }
    new OpenShiftStaticSet(chart, 'StaticSet', {
      platformType: spec.platform,
      managementMode: spec.managementMode,
      images: spec.images,
      proxy: spec.proxy,
      cloudNodeManager: platform.cloudNodeManager,
      release: spec.openshift?.release,
    });
    // Every phase: the payload ships it in-tree too, and an override that appeared with a later phase would
    // leave CVO and GitOps writing it for ever until someone re-ran the hand over.
    const credentialsRequest = platform.credentialsRequestOf?.(spec.openshift?.release) ?? platform.credentialsRequest;
    if (credentialsRequest) {
      new CloudCredentialsRequest(chart, 'CredentialsRequest', credentialsRequest);
    }
    return (scope) => platform.renderOperands(scope, cluster);
  },
  outputMode: () => 'plain',
  applied: (_scope, _spec, objects) => objects,
  extraFiles({ cluster, objects }) {
    const { spec } = cluster;
    const name = spec.metadata.name;
    const openshift = spec.spec.openshift;
    const g = spec.spec.gitops;
    return [
      {
        path: `${name}/${HANDOVER_FILE}`,
        content: handoverMarkdown({
          cluster: name,
          mode: spec.spec.managementMode,
          release: openshift?.release,
          engine: g.engine,
          outputPath: (g.path ?? `dist/${name}`).replace(/\/+$/, ''),
          argocdRoot: g.argocd.topology === 'hub' ? ROOT_APPLICATION_NAME : perClusterRootName(name),
          ownership: clusterOwnership(objects, { mode: spec.spec.managementMode, release: openshift?.release, featureSet: openshift?.featureSet }),
          platform: spec.spec.platform,
        }),
      },
    ];
  },
  migrationTarget: (spec) => openshiftMigrationTarget(spec.spec.migration?.featureSet, spec.spec.platform),
  migrationControlPlane: (spec) => openshiftMigrationControlPlane(spec.spec.migration?.featureSet ?? 'CustomNoUpgrade'),
};
