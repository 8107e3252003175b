#!/usr/bin/env node
// Regenerates the typed constructs in imports/ from the upstream CRDs kept in
// ../shared/crds (or the folder named by CCM_GITOPS_CRDS_DIR). The generated
// files are committed; never edit them by hand, run `npm run import` instead.
'use strict';
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const root = path.resolve(__dirname, '..');
const crdsDir = path.resolve(root, process.env.CCM_GITOPS_CRDS_DIR || path.join('..', 'shared', 'crds'));

/** module prefix in imports/ (the file is <prefix>-<group>.ts) -> CRD file in the CRD folder */
const IMPORTS = {
  credentialsrequests: 'cloudcredential.openshift.io_credentialsrequests.yaml',
  clusteroperators: 'config.openshift.io_clusteroperators.yaml',
  featuregates: 'config.openshift.io_featuregates.yaml',
  machineconfigs: 'machineconfiguration.openshift.io_machineconfigs.yaml',
  servicemonitors: 'monitoring.coreos.com_servicemonitors.yaml',
  applications: 'argoproj.io_applications.yaml',
  applicationsets: 'argoproj.io_applicationsets.yaml',
  appprojects: 'argoproj.io_appprojects.yaml',
  kustomizations: 'kustomize.toolkit.fluxcd.io_kustomizations.yaml',
  gitrepositories: 'source.toolkit.fluxcd.io_gitrepositories.yaml',
  clusterresourcesets: 'addons.cluster.x-k8s.io_clusterresourcesets.yaml',
};

if (!fs.existsSync(crdsDir)) {
  console.error(`import: CRD folder ${crdsDir} not found; set CCM_GITOPS_CRDS_DIR to the folder holding the upstream CRDs`);
  process.exit(2);
}
const cli = path.join(root, 'node_modules', '.bin', 'cdk8s');
for (const [moduleName, file] of Object.entries(IMPORTS)) {
  const source = path.join(crdsDir, file);
  if (!fs.existsSync(source)) {
    console.error(`import: ${source} not found`);
    process.exit(2);
  }
  // `name:=file` fixes the module name so the output file does not depend on the CRD's group only.
  execFileSync(cli, ['import', `${moduleName}:=${source}`, '--language', 'typescript', '--output', 'imports', '--no-save', '--check-upgrade=false'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}
