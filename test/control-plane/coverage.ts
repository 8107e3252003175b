// What the control-plane suite applies beyond dist/: the trees the examples leave out, so that each OpenShift
// platform in both management modes, each kubernetes provider and each output mode reaches the real server
// (coverage.test.ts checks the sum), and the migration cases whose phases are walked. Plain data here: the
// renderer is loaded only when a tree is built, so `npm test` skips the server suites without loading it.
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');

/** One kubernetes and one OpenShift case of test/helpers/rendered-phases.ts, every phase forward and back. */
export const TRANSITION_CASES = ['kubernetes AWS 1.26 (DaemonSet, rolling)', 'OpenShift AWS 4.13'];

/** An OpenShift spec in operator mode (the test helpers' pinned images and release, then `spec`), with the files beside it. */
export interface ExtraTree {
  readonly name: string;
  readonly platform: string;
  readonly spec: Record<string, unknown>;
  readonly files: Record<string, string>;
}

/** OpenShift in operator mode on every platform the examples render only in gitops mode. */
export const EXTRA_TREES: readonly ExtraTree[] = [
  { name: 'operator Azure', platform: 'Azure', spec: {}, files: {} },
  {
    name: 'operator AzureStackHub',
    platform: 'Azure',
    spec: { azure: { cloudName: 'AzureStackCloud' }, cloudConfig: { file: 'c.json', extraKeys: { endpoints: 'e.json' } } },
    files: { 'c.json': '{"location":"local"}\n', 'e.json': '{"name":"AzureStackCloud"}\n' },
  },
  { name: 'operator IBMCloud', platform: 'IBMCloud', spec: {}, files: {} },
  { name: 'operator PowerVS', platform: 'PowerVS', spec: {}, files: {} },
  { name: 'operator OpenStack', platform: 'OpenStack', spec: {}, files: {} },
  {
    name: 'operator VSphere',
    platform: 'VSphere',
    spec: { cloudConfig: { file: 'c.conf' } },
    files: { 'c.conf': fs.readFileSync(path.join(ROOT, 'clusters', 'vsphere', 'vsphere-prod-1.cloud.conf'), 'utf8') },
  },
  { name: 'operator Nutanix', platform: 'Nutanix', spec: {}, files: {} },
  // its one release, whose operator still had the kube-rbac-proxy sidecar
  { name: 'operator AlibabaCloud 4.16', platform: 'AlibabaCloud', spec: { openshift: { release: '4.16.20' } }, files: {} },
];

/** The whole spec of an extra tree. */
export async function extraTreeSpec(tree: ExtraTree): Promise<Record<string, any>> {
  const { platformSpec } = await import('../helpers');
  return platformSpec(tree.platform, 'c', { managementMode: 'operator', ...tree.spec });
}

/** Renders an extra tree with synth into `dir`; returns the cluster's folder. */
export async function renderExtraTree(tree: ExtraTree, dir: string): Promise<string> {
  const { synthCluster } = await import('../helpers/rendered-phases');
  return synthCluster(dir, await extraTreeSpec(tree), tree.files);
}

/** What one spec stands for: `openshift <platform> <mode>`, or `kubernetes <provider>` and `output <mode>`. */
export function coverageOf(spec: Record<string, any>): string[] {
  const s = spec.spec ?? spec;
  if (s.distribution === 'kubernetes') return [`kubernetes ${s.platform}`, `output ${s.kubernetes?.output?.mode ?? 'plain'}`];
  const platform = s.platform === 'Azure' && s.azure?.cloudName === 'AzureStackCloud' ? 'AzureStackHub' : s.platform;
  return [`openshift ${platform} ${s.managementMode ?? 'gitops'}`];
}
