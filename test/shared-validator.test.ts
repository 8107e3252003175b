import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { writeTreeAtomically } from '../src/pipeline/output';
import { renderFleet } from '../src/pipeline/render';
import { loadFleet } from '../src/fleet/load';
import { useTempDir } from './helpers';

/**
 * Runs the independent validator of ../shared (schemas of Kubernetes and of
 * the Argo CD, Flux, OpenShift and cloud-credential CRDs) over the rendered
 * examples. It is not part of this repository: on a machine without it (or
 * without its dependencies installed) these tests are skipped.
 */
const REPO = path.resolve(__dirname, '..');
const VALIDATOR = path.resolve(REPO, '..', 'shared', 'tools', 'validate', 'validate.mjs');
const available = fs.existsSync(VALIDATOR) && fs.existsSync(path.join(path.dirname(VALIDATOR), 'node_modules', 'ajv'));
const describeIfValidator = available ? describe : describe.skip;

function validate(target: string, k8s: string): { code: number | null; summary: string; output: string } {
  const r = spawnSync(process.execPath, [VALIDATOR, '--k8s-version', k8s, '--no-warnings', target], { encoding: 'utf8' });
  const lines = r.stdout.trim().split('\n');
  return { code: r.status, summary: lines[lines.length - 1], output: r.stdout + r.stderr };
}

describeIfValidator('rendered output against the upstream schemas and CRDs (shared validator)', () => {
  const dir = useTempDir();

  test.each(['1.30', '1.33'])('every example cluster and the fleet entry points validate with 0 errors (Kubernetes %s)', (k8s) => {
    const out = path.join(dir(), 'out');
    for (const clusters of [path.join(REPO, 'clusters'), path.join(REPO, 'examples', 'clusters')]) {
      writeTreeAtomically(out, renderFleet(loadFleet(clusters)));
      const targets = fs.readdirSync(out).filter((n) => !n.startsWith('.') && fs.statSync(path.join(out, n)).isDirectory());
      expect(targets.length).toBeGreaterThan(0);
      for (const t of targets) {
        const r = validate(path.join(out, t), k8s);
        expect({ target: t, code: r.code, summary: r.summary }).toEqual({ target: t, code: 0, summary: expect.stringMatching(/ 0 errors,/) });
      }
    }
  });
});
