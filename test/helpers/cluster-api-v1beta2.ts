/**
 * The administrator's side of a Cluster API v1beta2 phase change, as
 * CONTROL-PLANE.md tells it: apply the printed patch; where the API server
 * refuses it (a list already holds one of its names, or is missing), run the
 * `ccm-gitops migration control-plane … --current kcp.yaml` command the same
 * section prints, against the KubeadmControlPlane as it is, and apply that. It
 * runs the product's CLI, so it lives outside test/oracle/.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parse, stringify } from 'yaml';
import { runCli } from '../../src/cli';
import { captureIo } from '../helpers';
import { applyJsonPatch, clusterApiPatch, kcpV1beta2Problems } from '../oracle/leader-migration/cluster-api';

/** The `--current` command CONTROL-PLANE.md prints in its v1beta2 Cluster API section, as argv after `ccm-gitops`. */
export function regenerateCommand(controlPlane: string): string[] {
  const command = /`ccm-gitops (migration control-plane [^`]*--current kcp\.yaml[^`]*)`/.exec(controlPlane)?.[1];
  if (!command) {
    throw new Error('CONTROL-PLANE.md prints no `migration control-plane … --current kcp.yaml` command');
  }
  return command.split(/\s+/);
}

/** One v1beta2 change: the KubeadmControlPlane after it, which patch took, or why none did. */
export function applyV1beta2Phase(
  dir: string,
  kcp: any,
  controlPlane: string,
): { ok: true; kcp: any; by: 'printed' | 'regenerated' } | { ok: false; error: string } {
  const accepted = (ops: readonly any[]) => {
    const r = applyJsonPatch(kcp, ops, { strict: true });
    if (!r.ok) return r;
    const problems = kcpV1beta2Problems(r.value);
    return problems.length === 0 ? r : ({ ok: false, error: `refused by the CRD: ${problems.join('; ')}` } as const);
  };
  const printed = accepted(clusterApiPatch(controlPlane));
  if (printed.ok) {
    return { ok: true, kcp: printed.value, by: 'printed' };
  }
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'kcp.yaml');
  fs.writeFileSync(file, stringify(kcp));
  const argv = regenerateCommand(controlPlane).map((a) => (a === 'kcp.yaml' ? file : a));
  const cap = captureIo();
  if (runCli(argv, cap.io, {}) !== 0) {
    return { ok: false, error: `printed patch: ${printed.error}; ${argv.join(' ')} failed: ${cap.stderr().trim()}` };
  }
  const regenerated = accepted((parse(cap.stdout()) ?? []) as any[]);
  return regenerated.ok
    ? { ok: true, kcp: regenerated.value, by: 'regenerated' }
    : { ok: false, error: `printed patch: ${printed.error}; regenerated patch: ${regenerated.error}` };
}
