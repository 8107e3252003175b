import * as path from 'path';
import { runCli } from '../src/cli';
import { awsSpec, captureIo, useTempDir, writeFile } from './helpers';

// A warning that repeats across thousands of clusters is one line with a count.
const dir = useTempDir();

function openstack(name: string): Record<string, unknown> {
  return {
    ...awsSpec(name),
    spec: {
      ...awsSpec(name).spec,
      platform: 'OpenStack',
      images: { cloudControllerManagerOpenStack: 'quay.io/x/os@sha256:' + 'd'.repeat(64) },
      cloudConfig: { file: 'shared.conf' },
    },
  };
}

test('the same warning for many clusters is printed once, counted, with the first names', () => {
  // GIVEN five clusters sharing a cloud config with a key the external CCM drops, and one with its own warning
  const clusters = path.join(dir(), 'clusters');
  writeFile(clusters, 'shared.conf', '[Global]\nsecret-name = openstack-credentials\n');
  for (const n of ['os-a', 'os-b', 'os-c', 'os-d', 'os-e']) {
    writeFile(clusters, `${n}.yaml`, openstack(n));
  }
  writeFile(clusters, 'other.conf', '[Global]\nsecret-namespace = kube-system\n');
  writeFile(clusters, 'os-f.yaml', { ...openstack('os-f'), spec: { ...(openstack('os-f').spec as object), cloudConfig: { file: 'other.conf' } } });
  // WHEN synth runs
  const c = captureIo();
  const code = runCli(['synth', '-c', clusters, '-o', path.join(dir(), 'dist')], c.io, {});
  // THEN the repeated warning is one line, and the single one is printed as it is
  expect(code).toBe(0);
  const conf = path.join(clusters, 'shared.conf');
  expect(c.stderr()).toBe(
    [
      `warning: ${conf}: 5 clusters (os-a, os-b, os-c and 2 more): '[Global] secret-name' (line 2) is dropped: the external CCM reads credentials from the cluster's clouds.yaml`,
      `warning: ${path.join(clusters, 'other.conf')}: cluster os-f: '[Global] secret-namespace' (line 2) is dropped: the external CCM reads credentials from the cluster's clouds.yaml`,
      '',
    ].join('\n'),
  );
});
