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
import { applyJsonPatch, bareKubeadmControlPlaneV1beta2, clusterApiPatch, kcpKcm, kcpV1beta2Problems } from '../oracle/leader-migration/cluster-api';
import { carriedForm, ControlPlaneForm } from '../oracle/leader-migration/forms';
import { Tree } from '../oracle/leader-migration/trees';

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
  let ops: any[];
  try {
    ops = regenerated(dir, kcp, regenerateCommand(controlPlane));
  } catch (e) {
    return { ok: false, error: `printed patch: ${printed.error}; ${(e as Error).message}` };
  }
  const again = accepted(ops);
  return again.ok
    ? { ok: true, kcp: again.value, by: 'regenerated' }
    : { ok: false, error: `printed patch: ${printed.error}; regenerated patch: ${again.error}` };
}

/** The operations `argv` (a `migration control-plane` command, `kcp.yaml` standing for the object) prints for `kcp`. */
function regenerated(dir: string, kcp: any, argv: readonly string[]): any[] {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'kcp.yaml');
  fs.writeFileSync(file, stringify(kcp));
  const cap = captureIo();
  const args = argv.map((a) => (a === 'kcp.yaml' ? file : a));
  if (runCli(args, cap.io, {}) !== 0) {
    throw new Error(`${args.join(' ')} failed: ${cap.stderr().trim()}`);
  }
  return (parse(cap.stdout()) ?? []) as any[];
}

/**
 * Cluster API v1beta2 carried through a walk: `v1beta2` holds the case rendered
 * for a v1beta2 ClusterResourceSet (its CONTROL-PLANE.md of each phase); each
 * change is `applyV1beta2Phase` on the live object.
 */
export function clusterApiV1beta2Form(v1beta2: ReadonlyMap<string, Tree>, dir: string): ControlPlaneForm {
  let n = 0;
  return carriedForm(
    'Cluster API v1beta2',
    v1beta2,
    () => bareKubeadmControlPlaneV1beta2(),
    (kcp, to) => {
      const r = applyV1beta2Phase(path.join(dir, `kcp-${n++}`), kcp, v1beta2.get(to.plan.phase)!.controlPlane!);
      if (!r.ok) throw new Error(`${to.plan.phase}: ${r.error}`);
      return r.kcp;
    },
    kcpKcm,
  );
}

/**
 * The v1beta1 patch regenerated from the live object, as the v1beta1 header
 * says where the printed one does not apply: the command the cluster's v1beta2
 * rendering prints (its migration options), for v1beta1.
 */
export function regenerateV1beta1(v1beta2: ReadonlyMap<string, Tree>, dir: string): (kcp: any, to: Tree) => any[] {
  let n = 0;
  return (kcp, to) =>
    regenerated(
      path.join(dir, `v1beta1-${n++}`),
      kcp,
      regenerateCommand(v1beta2.get(to.plan.phase)!.controlPlane!).map((a) => (a === 'v1beta2' ? 'v1beta1' : a)),
    );
}
