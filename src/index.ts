// The public API of ccm-gitops: everything `import { … } from 'ccm-gitops'`
// gives, in one place. docs/api.md describes each group; test/docs.test.ts
// checks that every module exported here is listed there.

// Cluster specs: schema and types, loading with folder defaults, errors.
export * from './cluster-spec/errors';
export * from './cluster-spec/images';
export * from './cluster-spec/json-schema';
export type { SpecSchema, SpecSchemaIssue, SpecSchemaResult } from './cluster-spec/public-schema';
export * from './fleet/load';
export * from './cluster-spec/schema';
export * from './cluster-spec/tls';
export * from './cluster-spec/proxy';
export * from './api/load-cluster';
export * from './spec-migrations/migrate-spec';

// Cloud-config transforms (pure functions, no cdk8s).
export * from './cloud-config';
export * from './cloud-config/aws';
export * from './cloud-config/azure';
export * from './cloud-config/errors';
export * from './cloud-config/gcfg';
export * from './cloud-config/go-ini';
export * from './cloud-config/openstack';
export * from './cloud-config/pass-through';
export * from './cloud-config/secrets';
export * from './cloud-config/vsphere';

// Constructs: the cluster chart, then its parts per distribution and platform.
export * from './cluster-chart';
export * from './migration';
export * from './migration-targets';
export * from './migration-rendering';
export * from './kubernetes';
export * from './kubernetes/migration/control-plane';
export * from './kubernetes/migration/migration-control-plane';
export * from './util/version-skew';
export * from './constructs/platform-role';
export * from './constructs/platform-role-binding';
export * from './openshift/cloud-conf-config-map';
export * from './openshift/cloud-controller-manager-cluster-operator';
export * from './openshift/cloud-controller-manager-namespace';
export * from './openshift/cloud-controller-manager-pod-disruption-budget';
export * from './openshift/cloud-controller-manager-service';
export * from './openshift/cloud-credentials-request';
export * from './constructs/config-hash';
export * from './constructs/ccm-workload';
export * from './openshift/constants';
export * from './openshift/default-deny-network-policy';
export * from './openshift/openshift-static-set';
export * from './openshift/openstack-rbac';
export * from './openshift/operator-deployment';
export * from './openshift/operator-images-config-map';
export * from './openshift/operator-metrics-service';
export * from './openshift/operator-rbac';
export * from './openshift/pod-conventions';
export * from './openshift/provider-rbac';
export * from './openshift/trusted-ca-config-map';
export * from './openshift/validating-admission-policy';
export * from './openshift/platforms';
export * from './openshift/migration/external-cloud-provider-feature-gate';
export * from './openshift/migration/leader-migration-machine-config';
export * from './openshift/migration/migration-control-plane';
export * from './openshift/migration/migration-control-plane-objects';
export { openshiftRelease } from './openshift/release';
export * from './gitops/argocd-application';
export * from './gitops/cluster-gitops-chart';
export * from './gitops/flux-stage-chain';
export * from './gitops/layout';
export * from './gitops/stages';

// Rendering and writing a fleet, the fleet summary, the semantic diff.
export * from './pipeline/render';
export * from './pipeline/synth';
export * from './pipeline/output';
export * from './pipeline/fleet-summary';
export * from './diff/diff-trees';
export * from './diff/load-tree';
export * from './diff/markdown';

// The command line, the fleet scaffold, the generated docs.
export { runCli, runCliAsync } from './cli';
export type { CliIo } from './cli';
export * from './init/scaffold';
export * from './init/init';
export * from './init/package-info';
export * from './docs/spec-reference';
export * from './fleet/warning-lines';
