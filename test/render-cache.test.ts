import * as fs from 'fs';
import * as path from 'path';
import { runCli } from '../src/cli';
import { awsSpec, captureIo, readTree, useTempDir, writeFile } from './helpers';

// The render cache (issue 18: an unchanged fleet re-synthesized without rendering) must never
// make synth write or accept a tree other than what the specs render.

const dir = useTempDir();
const DEPLOYMENT = 'c0001/04-workloads/deployment.openshift-cloud-controller-manager.aws-cloud-controller-manager.yaml';

function synth(...args: string[]): { code: number; stdout: string; stderr: string } {
  const c = captureIo();
  const code = runCli(['synth', ...args], c.io, { CCM_GITOPS_CACHE_DIR: path.join(dir(), 'cache') });
  return { code, stdout: c.stdout(), stderr: c.stderr() };
}

function setup(): { clusters: string; out: string; fresh: () => Record<string, string> } {
  const clusters = path.join(dir(), 'clusters');
  for (let i = 0; i < 3; i++) {
    writeFile(clusters, `c${i}.yaml`, awsSpec(`c000${i}`));
  }
  const out = path.join(dir(), 'dist');
  const fresh = () => {
    const f = path.join(dir(), `fresh-${Math.random().toString(36).slice(2)}`);
    expect(runCli(['synth', '-c', clusters, '-o', f, '-q'], captureIo().io, {})).toBe(0);
    return readTree(f);
  };
  return { clusters, out, fresh };
}

describe('the render cache', () => {
  test('is written outside the output, and a cached run renders the same tree', () => {
    const { clusters, out, fresh } = setup();
    expect(synth('-c', clusters, '-o', out, '-q').code).toBe(0);
    expect(fs.readdirSync(path.join(dir(), 'cache'))).toHaveLength(1);
    expect(synth('-c', clusters, '-o', out)).toEqual({ code: 0, stdout: `rendered 3 clusters into ${out} (up to date, no file written)\n`, stderr: '' });
    expect(readTree(out)).toEqual(fresh());
  });

  test('a hand-edited output file is found and rendered again, although the spec did not change', () => {
    // GIVEN a cached render, and a file of it edited by hand
    const { clusters, out, fresh } = setup();
    expect(synth('-c', clusters, '-o', out, '-q').code).toBe(0);
    fs.writeFileSync(path.join(out, DEPLOYMENT), 'edited');
    // WHEN --check runs, THEN it reports the file; WHEN synth runs, THEN it restores it
    const check = synth('-c', clusters, '-o', out, '--check');
    expect(check.code).toBe(1);
    expect(check.stderr).toContain(`  changed: ${out}/${DEPLOYMENT}\n`);
    expect(synth('-c', clusters, '-o', out, '-q').code).toBe(0);
    expect(readTree(out)).toEqual(fresh());
  });

  test('a spec change renders that cluster again', () => {
    const { clusters, out, fresh } = setup();
    expect(synth('-c', clusters, '-o', out, '-q').code).toBe(0);
    writeFile(clusters, 'c1.yaml', awsSpec('c0001', { controlPlaneTopology: 'SingleReplica' }));
    expect(synth('-c', clusters, '-o', out, '-q').code).toBe(0);
    expect(readTree(out)[DEPLOYMENT]).toContain('replicas: 1');
    expect(readTree(out)).toEqual(fresh());
  });

  test('a corrupt cache file is ignored', () => {
    const { clusters, out, fresh } = setup();
    expect(synth('-c', clusters, '-o', out, '-q').code).toBe(0);
    const [file] = fs.readdirSync(path.join(dir(), 'cache'));
    fs.writeFileSync(path.join(dir(), 'cache', file), '{"version":1,"clusters":');
    writeFile(clusters, 'c1.yaml', awsSpec('c0001', { controlPlaneTopology: 'SingleReplica' }));
    expect(synth('-c', clusters, '-o', out, '-q').code).toBe(0);
    expect(readTree(out)).toEqual(fresh());
  });
});
