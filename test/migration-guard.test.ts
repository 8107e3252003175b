import * as path from 'path';
import { runCli } from '../src/cli';
import { awsSpec, captureIo, useTempDir, writeFile } from './helpers';

/** The one-phase-per-change guard cannot be bypassed by deleting spec.migration. */
describe('migration guard', () => {
  const dir = useTempDir();

  test('deleting spec.migration from an in-tree cluster is the move to "external" and is refused', () => {
    // GIVEN a cluster rendered at phase in-tree
    const clusters = path.join(dir(), 'clusters');
    const out = path.join(dir(), 'dist');
    writeFile(clusters, 'c.yaml', awsSpec('c', { migration: { phase: 'in-tree', kubernetesVersion: '1.26' } }));
    expect(runCli(['synth', '--clusters', clusters, '--out', out, '-q'], captureIo().io, {})).toBe(0);
    // WHEN spec.migration is deleted
    writeFile(clusters, 'c.yaml', awsSpec('c'));
    const cap = captureIo();
    const code = runCli(['synth', '--clusters', clusters, '--out', out], cap.io, {});
    // THEN synth refuses, as it refuses phase: external
    expect(code).toBe(1);
    expect(cap.stderr()).toContain('c.yaml: spec.migration.phase: spec.migration was removed, which means phase "external": moves from "in-tree" to "external" in one change, which skips "leader-migration-kcm", "leader-migration-ccm"');
  });

  test('deleting spec.migration after phase external-leader-migration is the one step to external and is allowed', () => {
    const clusters = path.join(dir(), 'clusters');
    const out = path.join(dir(), 'dist');
    for (const phase of ['in-tree', 'leader-migration-kcm', 'leader-migration-ccm', 'external-leader-migration']) {
      writeFile(clusters, 'c.yaml', awsSpec('c', { migration: { phase, kubernetesVersion: '1.26' } }));
      expect(runCli(['synth', '--clusters', clusters, '--out', out, '-q'], captureIo().io, {})).toBe(0);
    }
    writeFile(clusters, 'c.yaml', awsSpec('c'));
    expect(runCli(['synth', '--clusters', clusters, '--out', out, '-q'], captureIo().io, {})).toBe(0);
  });
});
