import * as fs from 'fs';
import * as path from 'path';
import { runCli } from '../src/cli';
import { awsSpec, captureIo, fleetProblems, imageFor, kubernetesSpec, TEST_RELEASE, useTempDir, writeFile } from './helpers';

/** Small things users expect (issue 17, item 15). */
describe('small things users expect', () => {
  const dir = useTempDir();

  test('--version prints the package.json version', () => {
    const cap = captureIo();
    expect(runCli(['--version'], cap.io, {})).toBe(0);
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version: string };
    expect(cap.stdout()).toBe(`${pkg.version}\n`);
  });

  test('a type error does not hide the file\'s other problems', () => {
    writeFile(dir(), 'c.yaml', awsSpec('c', { controlPlaneTopology: 3, images: { cloudControllerManagerAWS: 'quay.io/x/ccm:latest' } }));
    const problems = fleetProblems(dir());
    expect(problems.some((p) => p.includes('spec.controlPlaneTopology:'))).toBe(true);
    expect(problems.some((p) => p.includes('spec.images.cloudControllerManagerAWS: "quay.io/x/ccm:latest" is pinned to the moving tag "latest"'))).toBe(true);
  });

  test('version: 1.30 (a YAML number) gets a "quote it" hint with the source text', () => {
    const spec = kubernetesSpec('AWS', 'k', {}, {}, { cloudControllerManagerAWS: imageFor('cloudControllerManagerAWS') });
    fs.writeFileSync(path.join(dir(), 'k.yaml'), require('yaml').stringify(spec).replace("version: \"1.33\"", 'version: 1.30'));
    expect(fleetProblems(dir())).toContain('k.yaml:11: spec.kubernetes.version: expected string, got number 1.3; quote it: "1.30" (YAML reads an unquoted 1.30 as a number, 1.3)');
  });

  test('validate-spec run on a file in a subfolder finds the parent defaults', () => {
    // GIVEN a fleet whose infrastructureName and images come from the top-level defaults
    const clusters = path.join(dir(), 'clusters');
    writeFile(clusters, 'defaults.yaml', { apiVersion: 'ccm-gitops.io/v1alpha1', kind: 'CloudControllerManagerDefaults', spec: { distribution: 'openshift', platform: 'AWS', openshift: { release: TEST_RELEASE }, images: awsSpec('x').spec.images } });
    writeFile(clusters, 'us/c.yaml', { apiVersion: 'ccm-gitops.io/v1alpha1', kind: 'CloudControllerManagerCluster', metadata: { name: 'c' }, spec: { infrastructureName: 'c-x' } });
    // WHEN validate-spec is given only the spec file, from inside its folder
    const cap = captureIo();
    const before = process.cwd();
    let code: number;
    try {
      process.chdir(path.join(clusters, 'us'));
      code = runCli(['validate-spec', 'c.yaml'], cap.io, {});
    } finally {
      process.chdir(before);
    }
    // THEN the defaults above apply
    expect({ code, out: cap.stdout(), err: cap.stderr() }).toEqual({ code: 0, out: '1 spec file valid\n', err: '' });
  });

  test('--only -q does not swallow -q', () => {
    writeFile(dir(), 'c/a.yaml', awsSpec('a'));
    const cap = captureIo();
    expect(runCli(['synth', '--clusters', path.join(dir(), 'c'), '--out', path.join(dir(), 'out'), '--only', '-q'], cap.io, {})).toBe(2);
    expect(cap.stderr()).toBe('error: --only "-q": cluster names never start with "-"; give the names right after --only (--only NAME... -q)\n');
  });
});

describe('CONTROL-PLANE.md names the Secrets the pods mount', () => {
  test('an Azure kubernetes cluster lists its cloud config Secret', () => {
    const { renderCluster } = require('../src/render');
    const { preparedCluster } = require('./helpers');
    const files = renderCluster(preparedCluster(kubernetesSpec('Azure', 'k', { cloudConfig: { existingSecret: 'azure-cloud-provider' } }), '')).files as { path: string; content: string }[];
    const md = files.find((f) => f.path === 'k/CONTROL-PLANE.md')!.content;
    expect(md).toContain('## Secrets to create first\n\nccm-gitops renders no Secret (credentials never go into git); the pods do not start until these exist:\n\n- `kube-system/azure-cloud-provider`: volume cloud-config of Deployment azure-cloud-controller-manager');
  });
});
