import * as fs from 'fs';
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
    expect(cap.stderr()).toContain(
      'c.yaml: spec.migration.phase: spec.migration was removed, which means phase "external": moves from "in-tree" to "external" in one change, which skips "leader-migration-kcm", "leader-migration-ccm"',
    );
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

/** The guard reads the last phase from the record and the rendered tree: a rename or a lost record skips nothing. */
describe('migration guard: renamed clusters and lost records', () => {
  const dir = useTempDir();
  const phase = (p: string) => ({ migration: { phase: p, kubernetesVersion: '1.26' } });

  function renderedAt(p: string): { clusters: string; out: string } {
    const clusters = path.join(dir(), 'clusters');
    const out = path.join(dir(), 'dist');
    writeFile(clusters, 'c.yaml', awsSpec('c', phase(p)));
    expect(runCli(['synth', '--clusters', clusters, '--out', out, '-q'], captureIo().io, {})).toBe(0);
    return { clusters, out };
  }

  function synth(clusters: string, out: string, ...extra: string[]): { code: number; stderr: string } {
    const cap = captureIo();
    const code = runCli(['synth', '--clusters', clusters, '--out', out, ...extra], cap.io, {});
    return { code, stderr: cap.stderr() };
  }

  test("the record names the cluster's identity (platform and infrastructureName)", () => {
    // GIVEN / WHEN a cluster rendered at in-tree
    const { out } = renderedAt('in-tree');
    // THEN its .migration.json records what identifies it across a rename
    const plan = JSON.parse(fs.readFileSync(path.join(out, 'c', '.migration.json'), 'utf8'));
    expect(plan.identity).toBe('AWS/c-abcde');
  });

  test('renaming a cluster while skipping a phase is refused: the renamed cluster is found by its infrastructureName', () => {
    // GIVEN cluster c rendered at in-tree
    const { clusters, out } = renderedAt('in-tree');
    // WHEN it is renamed to d (same infrastructureName) and moved to leader-migration-ccm in the same change
    fs.rmSync(path.join(clusters, 'c.yaml'));
    writeFile(clusters, 'd.yaml', awsSpec('d', { infrastructureName: 'c-abcde', ...phase('leader-migration-ccm') }));
    const { code, stderr } = synth(clusters, out);
    // THEN synth refuses, naming the old cluster's record
    expect(code).toBe(1);
    expect(stderr).toContain(
      `d.yaml: spec.migration.phase: moves from "in-tree" to "leader-migration-ccm" in one change, which skips "leader-migration-kcm"; ` +
        `each phase is its own reviewed change: the legal next step is "leader-migration-kcm" (last render: ${path.join(out, 'c', '.migration.json')}, ` +
        'rendered as cluster "c", the same AWS/c-abcde: a rename keeps the phase)',
    );
  });

  test('renaming a cluster and moving it one phase is allowed', () => {
    const { clusters, out } = renderedAt('in-tree');
    fs.rmSync(path.join(clusters, 'c.yaml'));
    writeFile(clusters, 'd.yaml', awsSpec('d', { infrastructureName: 'c-abcde', ...phase('leader-migration-kcm') }));
    expect(synth(clusters, out).code).toBe(0);
  });

  test.each([
    [
      'deleted',
      (file: string) => fs.rmSync(file),
      'is missing, but the rendered tree holds a migration plan ("in-tree" in MIGRATION.md and "in-tree" in .fleet.json)',
    ],
    [
      'corrupt',
      (file: string) => fs.writeFileSync(file, '{"phase": '),
      'is not valid JSON (the rendered tree says "in-tree" in MIGRATION.md and "in-tree" in .fleet.json)',
    ],
    [
      'contradicted',
      (file: string) => fs.writeFileSync(file, '{"phase": "external-leader-migration"}\n'),
      'says phase "external-leader-migration", but the rendered tree says "in-tree" in MIGRATION.md and "in-tree" in .fleet.json',
    ],
  ])('a %s .migration.json beside a rendered plan is refused, unless --force-phase gives a reason', (_, damage, why) => {
    // GIVEN cluster c rendered at in-tree, its record then damaged
    const { clusters, out } = renderedAt('in-tree');
    const record = path.join(out, 'c', '.migration.json');
    damage(record);
    // WHEN the spec skips to external-leader-migration
    writeFile(clusters, 'c.yaml', awsSpec('c', phase('external-leader-migration')));
    const refused = synth(clusters, out);
    // THEN synth refuses: the last phase is not known
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `c.yaml: spec.migration.phase: the record of the last render's phase, ${record}, ${why}: ` +
        'the phase of the last render is not known, so this change cannot be checked to move one phase; ' +
        `restore the files from git (git checkout -- ${path.join(out, 'c')}) and run synth again, ` +
        'or, when you know the cluster is one step from this phase, run synth --force-phase "<reason>"',
    );
    // AND WHEN the reason is given, synth renders and names the cluster and the reason in a warning
    const forced = synth(clusters, out, '--force-phase', 'record lost in a bad merge');
    expect(forced.code).toBe(0);
    expect(forced.stderr).toContain('unchecked, --force-phase: record lost in a bad merge');
  });

  test('deleting both the record and MIGRATION.md still leaves the .fleet.json line, which is read', () => {
    const { clusters, out } = renderedAt('leader-migration-kcm');
    fs.rmSync(path.join(out, 'c', '.migration.json'));
    fs.rmSync(path.join(out, 'c', 'MIGRATION.md'));
    writeFile(clusters, 'c.yaml', awsSpec('c', phase('external')));
    const { code, stderr } = synth(clusters, out);
    expect(code).toBe(1);
    expect(stderr).toContain(`is missing, but the rendered tree holds a migration plan ("leader-migration-kcm" in .fleet.json)`);
  });

  test('--force-phase without a reason is a usage error', () => {
    const { clusters, out } = renderedAt('in-tree');
    const { code, stderr } = synth(clusters, out, '--force-phase', ' ');
    expect(code).toBe(2);
    expect(stderr).toContain('error: --force-phase needs the reason the phase check may be skipped');
  });
});
