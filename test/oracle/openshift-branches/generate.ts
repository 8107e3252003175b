/**
 * Regenerates test/oracle/openshift-branches/branches.data.json: per release branch of
 * openshift/cluster-cloud-controller-manager-operator, the facts (facts.ts) of every payload
 * manifest and of every object the operator renders per platform. Not run by the tests:
 *
 *   npx tsc --outDir /tmp/gen --rootDir . --module commonjs --target es2022 --esModuleInterop --skipLibCheck \
 *     test/oracle/openshift-branches/generate.ts
 *   NODE_PATH=node_modules node /tmp/gen/test/oracle/openshift-branches/generate.js GITDIR
 *
 * GITDIR is a clone (bare is fine) of github.com/openshift/cluster-cloud-controller-manager-operator
 * holding the branches release-4.16 … release-4.23. Read, per branch:
 * - manifests/0000_26_*.yaml: the payload (every document; file, identity, the annotations CVO reads);
 * - pkg/cloud/<platform>/<platform>.go `EmbedFsPath`: the assets the platform renders, in order, and those
 *   assets with the operator's template values (images, TLS profile, names: {@link FILLED_IN});
 * - pkg/cloud/common/resources.go `getService`, `getPDB`: the CCM Service ports and the PDB every platform gets.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { FILLED_IN, factsOf, ObjectFacts } from './facts';

const REPO = 'openshift/cluster-cloud-controller-manager-operator';
const RELEASES = ['4.16', '4.17', '4.18', '4.19', '4.20', '4.21', '4.22', '4.23'];
/** pkg/cloud/<dir> → the platform as ccm-gitops names it (Azure Stack Hub is platform Azure with another cloud). */
const PLATFORM_DIRS: Record<string, { platform: string; providerName: string }> = {
  alibaba: { platform: 'AlibabaCloud', providerName: 'AlibabaCloud' },
  aws: { platform: 'AWS', providerName: 'AWS' },
  azure: { platform: 'Azure', providerName: 'Azure' },
  azurestack: { platform: 'AzureStackHub', providerName: 'Azure' },
  gcp: { platform: 'GCP', providerName: 'GCP' },
  ibm: { platform: 'IBMCloud', providerName: 'IBMCloud' },
  nutanix: { platform: 'Nutanix', providerName: 'Nutanix' },
  openstack: { platform: 'OpenStack', providerName: 'OpenStack' },
  powervs: { platform: 'PowerVS', providerName: 'PowerVS' },
  vsphere: { platform: 'VSphere', providerName: 'VSphere' },
};
/** The annotations CVO reads on a payload manifest. */
const PAYLOAD_ANNOTATIONS = [
  'capability.openshift.io/name',
  'include.release.openshift.io/self-managed-high-availability',
  'include.release.openshift.io/single-node-developer',
  'exclude.release.openshift.io/internal-openshift-hosted',
  'release.openshift.io/create-only',
  'release.openshift.io/delete',
];

type Obj = Record<string, any>;

function git(gitDir: string, ...args: string[]): string {
  return execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

/**
 * An asset with the operator's template values: the provider name where the asset names it, every other value
 * {@link FILLED_IN}; a flag line under `{{- if .additionalLabels }}` is marked optional (`?`), the TLS profile's
 * conditions are taken as set (the operator of those releases always has a profile).
 */
function renderTemplate(text: string, providerName: string): string {
  const out: string[] = [];
  const conditions: string[] = [];
  for (const line of text.split('\n')) {
    const ifMatch = /^\s*\{\{-?\s*if\s+\.(\w+)\s*\}\}\s*$/.exec(line);
    if (ifMatch) {
      conditions.push(ifMatch[1]);
      continue;
    }
    if (/^\s*\{\{-?\s*end\s*\}\}\s*$/.test(line)) {
      conditions.pop();
      continue;
    }
    let l = line.replace(/\{\{\s*\.cloudproviderName\s*\}\}/g, providerName).replace(/\{\{[^}]*\}\}/g, FILLED_IN);
    if (conditions.includes('additionalLabels')) {
      l = l.replace(/^(\s*)(--)/, '$1?$2');
    }
    out.push(l);
  }
  return out.join('\n');
}

function documents(text: string): Obj[] {
  return parseAllDocuments(text)
    .map((d) => d.toJSON() as Obj | null)
    .filter((d): d is Obj => d !== null && typeof d === 'object' && typeof d.kind === 'string');
}

interface PayloadFact extends ObjectFacts {
  readonly file: string;
  readonly annotations: Readonly<Record<string, string>>;
  readonly versions?: readonly string[];
}

function payloadOf(gitDir: string, ref: string): PayloadFact[] {
  const files = git(gitDir, 'ls-tree', '--name-only', ref, 'manifests/')
    .split('\n')
    .filter((f) => f.endsWith('.yaml'))
    .sort();
  return files.flatMap((f) =>
    documents(renderTemplate(git(gitDir, 'show', `${ref}:${f}`), FILLED_IN)).map((o) => {
      const ann: Obj = o.metadata?.annotations ?? {};
      return {
        file: path.basename(f),
        ...factsOf(o),
        annotations: Object.fromEntries(PAYLOAD_ANNOTATIONS.filter((k) => ann[k] !== undefined).map((k) => [k, String(ann[k])])),
        ...(o.kind === 'ClusterOperator' ? { versions: ((o.status?.versions ?? []) as Obj[]).map((v) => `${v.name}=${v.version}`) } : {}),
      };
    }),
  );
}

interface PlatformFacts {
  /** The assets the platform's Go code embeds, in its order. */
  readonly assets: readonly string[];
  readonly objects: readonly (ObjectFacts & { readonly asset: string })[];
}

function platformsOf(gitDir: string, ref: string): Record<string, PlatformFacts> {
  const dirs = git(gitDir, 'ls-tree', '--name-only', ref, 'pkg/cloud/')
    .split('\n')
    .map((d) => path.basename(d))
    .filter((d) => PLATFORM_DIRS[d] !== undefined);
  const result: Record<string, PlatformFacts> = {};
  for (const dir of dirs) {
    const { platform, providerName } = PLATFORM_DIRS[dir];
    const go = git(gitDir, 'show', `${ref}:pkg/cloud/${dir}/${dir}.go`);
    const assets = [...go.matchAll(/EmbedFsPath:\s*"([^"]+)"/g)].map((m) => m[1]);
    const objects = assets.flatMap((a) =>
      documents(renderTemplate(git(gitDir, 'show', `${ref}:pkg/cloud/${dir}/${a}`), providerName)).map((o) => ({
        asset: `pkg/cloud/${dir}/${a}`,
        ...factsOf(o),
      })),
    );
    result[platform] = { assets, objects };
  }
  return result;
}

/** getService's ports and getPDB's spec fields, read from the Go source. */
function commonOf(gitDir: string, ref: string): { servicePorts: string[]; pdbFields: string[] } {
  const go = git(gitDir, 'show', `${ref}:pkg/cloud/common/resources.go`);
  const service = go.slice(go.indexOf('func getService'));
  const ports = [...service.matchAll(/Name:\s*"([a-z]+)",\s*\n\s*Port:\s*(\d+),(?:\s*\n\s*TargetPort:\s*intstr.FromInt\((\d+)\),)?/g)].map(
    (m) => `${m[1]}:${m[2]}->${m[3] ?? m[2]}`,
  );
  const pdb = go.slice(go.indexOf('func getPDB'), go.indexOf('func getService'));
  const pdbFields = [...pdb.matchAll(/^\s*(MinAvailable|MaxUnavailable|UnhealthyPodEvictionPolicy):/gm)].map((m) => m[1]);
  return { servicePorts: ports, pdbFields };
}

function main(): void {
  const gitDir = process.argv[2];
  if (!gitDir) {
    throw new Error('usage: generate.js GITDIR');
  }
  const releases: Record<string, unknown> = {};
  for (const minor of RELEASES) {
    const ref = `release-${minor}`;
    const commit = git(gitDir, 'rev-parse', ref).trim();
    releases[minor] = {
      source: `${REPO}@${commit.slice(0, 12)} (${ref})`,
      payload: payloadOf(gitDir, commit),
      common: commonOf(gitDir, commit),
      platforms: platformsOf(gitDir, commit),
    };
  }
  // Run from the repository's root.
  const target = 'test/oracle/openshift-branches/branches.data.json';
  fs.writeFileSync(target, `${JSON.stringify({ generatedBy: 'test/oracle/openshift-branches/generate.ts', releases }, null, 1)}\n`);
  process.stdout.write(`wrote ${target}\n`);
}

main();
