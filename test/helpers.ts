import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App } from 'cdk8s';
import { stringify } from 'yaml';
import { ClusterChart } from '../src/pipeline/cluster-chart';
import { isUserError, UserError } from '../src/util/user-error';
import { PreparedCluster } from '../src/openshift/platform';
import { formatIssue, SpecValidationError } from '../src/cluster-spec/errors';
import { IMAGE_KEYS } from '../src/cluster-spec/images';
import { loadFleet } from '../src/fleet/load';
import { ClusterSpec, clusterSpecSchema } from '../src/cluster-spec/schema';
import { UPSTREAM_PROVIDERS } from '../src/kubernetes/providers';
import { MigrationInput } from '../src/migration/flags';
import { MIGRATION_SUPPORT } from '../src/migration/support';

export const AWS_IMAGE = 'quay.io/openshift/aws-ccm@sha256:' + 'a'.repeat(64);
export const OPERATOR_IMAGE = 'quay.io/openshift/ccm-operator@sha256:' + 'b'.repeat(64);

/** The release test specs name unless they say otherwise. */
export const TEST_RELEASE = '4.22.3';

/** The release that ships a migration's kubernetesVersion (4.N runs 1.(N+13)), so specs stay consistent. */
function releaseOfMigration(migration: unknown): string | undefined {
  const version = (migration as { kubernetesVersion?: unknown } | undefined)?.kubernetesVersion;
  const m = typeof version === 'string' ? /^1\.([0-9]+)$/.exec(version) : null;
  return m ? `4.${Number(m[1]) - 13}.0` : undefined;
}

/** A minimal valid AWS spec as a plain object; `spec` keys override. */
export function awsSpec(name = 'aws-test', spec: Record<string, unknown> = {}): Record<string, any> {
  return {
    apiVersion: 'ccm-gitops.io/v1alpha1',
    kind: 'CloudControllerManagerCluster',
    metadata: { name },
    spec: {
      distribution: 'openshift',
      platform: 'AWS',
      infrastructureName: `${name}-abcde`,
      images: { cloudControllerManagerAWS: AWS_IMAGE },
      ...spec,
      // Every OpenShift spec names its release; `openshift: { release: undefined }` leaves it out.
      openshift: { release: releaseOfMigration(spec.migration) ?? TEST_RELEASE, ...(spec.openshift as Record<string, unknown> | undefined) },
    },
  };
}

/** A validated spec (defaults applied) from a plain object. */
export function parsedSpec(raw: Record<string, unknown>): ClusterSpec {
  return clusterSpecSchema.parse(raw);
}

/** A prepared cluster without touching the file system. */
export function preparedCluster(raw: Record<string, unknown>, cloudConf = '[Global]\n'): PreparedCluster {
  return { spec: parsedSpec(raw), specFile: 'test.yaml', specPath: 'test.yaml', cloudConf, warnings: [] };
}

/** A fresh temporary directory, removed by `cleanup`. */
export function tempDir(prefix = 'ccm-gitops-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A temporary directory per test: returns a getter, removes the directory after each test. */
export function useTempDir(): () => string {
  let dir = '';
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return () => dir;
}

/** Writes a spec object as YAML (or raw text) under dir/name. Returns the path. */
export function writeFile(dir: string, name: string, content: string | Record<string, unknown>): string {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof content === 'string' ? content : stringify(content));
  return file;
}

/** Every file below dir as relative path -> content. */
export function readTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) {
        walk(full);
      } else {
        out[path.relative(dir, full).split(path.sep).join('/')] = fs.readFileSync(full, 'utf8');
      }
    }
  };
  walk(dir);
  return out;
}

/** Runs a function with captured CLI output. */
export function captureIo(): { io: { out: (t: string) => void; err: (t: string) => void }; stdout: () => string; stderr: () => string } {
  let out = '';
  let err = '';
  return {
    io: {
      out: (t) => {
        out += t;
      },
      err: (t) => {
        err += t;
      },
    },
    stdout: () => out,
    stderr: () => err,
  };
}

/** The user error of kind 'cloud-config' a function throws (fails the test when it throws nothing or something else). */
export function errorOf(fn: () => unknown): UserError {
  try {
    fn();
  } catch (e) {
    if (isUserError(e, 'cloud-config')) {
      return e;
    }
    throw e;
  }
  throw new Error("expected a user error of kind 'cloud-config'");
}

/** Loads the fleet below root and returns its problems, formatted, with root stripped (fails when there are none). */
export function fleetProblems(root: string): string[] {
  try {
    loadFleet(root);
  } catch (e) {
    if (e instanceof SpecValidationError) {
      return e.issues.map((i) => formatIssue(i).split(`${root}${path.sep}`).join(''));
    }
    throw e;
  }
  throw new Error('expected validation problems');
}

/** A pinned image reference for an images.json key (deterministic, distinct per key). */
export function imageFor(key: string): string {
  const hex = Buffer.from(key).toString('hex').padEnd(64, '0').slice(0, 64);
  return `quay.io/openshift/${key.toLowerCase()}@sha256:${hex}`;
}

/** A minimal valid spec of any platform as a plain object, every image pinned; `spec` keys override. */
export function platformSpec(platform: string, name = 'test', spec: Record<string, unknown> = {}): Record<string, any> {
  return awsSpec(name, { platform, images: Object.fromEntries(IMAGE_KEYS.map((k) => [k, imageFor(k)])), ...spec });
}

/**
 * A distribution-kubernetes spec: `spec.kubernetes` merged over version 1.33.
 * Images default to every upstream provider's (and Azure's node manager), pinned.
 */
export function kubernetesSpec(
  platform: string,
  name = 'k',
  kubernetes: Record<string, unknown> = {},
  spec: Record<string, unknown> = {},
  images: Record<string, string> = Object.fromEntries(
    [...Object.values(UPSTREAM_PROVIDERS).map((p) => p.imageKey), 'cloudNodeManagerAzure'].map((k) => [k, imageFor(k)]),
  ),
): Record<string, unknown> {
  return {
    apiVersion: 'ccm-gitops.io/v1alpha1',
    kind: 'CloudControllerManagerCluster',
    metadata: { name },
    spec: { distribution: 'kubernetes', platform, images, kubernetes: { version: '1.33', ...kubernetes }, ...spec },
  };
}

/** Loads one spec (and the files beside it) from `dir` and renders its objects, as synth would. */
export function renderSpec(dir: string, spec: Record<string, unknown>, files: Record<string, string> = {}): any[] {
  for (const [name, content] of Object.entries(files)) {
    writeFile(dir, name, content);
  }
  writeFile(dir, 'c.yaml', spec);
  const [cluster] = loadFleet(dir).clusters;
  return new ClusterChart(new App({ outdir: 'unused' }), 'c', { cluster }).toJson();
}

/** The first rendered object of `kind` (and `name`, when given). */
export const findObject = (objects: any[], kind: string, name?: string): any =>
  objects.find((o) => o.kind === kind && (name === undefined || o.metadata.name === name));

/** A migration input for the pure migration functions: phase leader-migration-kcm at 1.26, CCM at N, defaults elsewhere. */
export function migrationInput(platform: string, overrides: Partial<MigrationInput> = {}): MigrationInput {
  return {
    platform,
    support: MIGRATION_SUPPORT[platform as keyof typeof MIGRATION_SUPPORT]!({ spec: { platform } } as never),
    phase: 'leader-migration-kcm',
    kubernetesMinor: 26,
    ccmMinor: 26,
    leaderName: 'cloud-provider-extraction-migration',
    leaseNamespace: 'kube-system',
    nodeIpam: false,
    inTreeVolumes: true,
    wildcard: false,
    leaderElect: true,
    ...overrides,
  };
}

/** A YAML vsphere.conf whose global credentials are in vmware-system and whose second vCenter has its own Secret in vc2-system. */
export const VSPHERE_CONF_YAML = [
  'global:',
  '  port: 443',
  '  secretName: vc-creds',
  '  secretNamespace: vmware-system',
  'vcenter:',
  '  vc1:',
  '    server: vc1.example.com',
  '    datacenters: [dc1]',
  '  vc2:',
  '    server: vc2.example.com',
  '    datacenters: [dc2]',
  '    secretName: vc2-creds',
  '    secretNamespace: vc2-system',
  '',
].join('\n');
