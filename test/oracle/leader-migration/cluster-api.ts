/**
 * The KCM of a Cluster API cluster: CONTROL-PLANE.md's KubeadmControlPlane JSON
 * patch (RFC 6902: add, remove, replace, test) applied to the live object, and
 * the kube-controller-manager its new machines run from it (the
 * ClusterConfiguration's controllerManager extraArgs, a map in v1beta1 and a
 * name/value list in v1beta2; the leader-migration file reaches the pod only
 * through an extraVolume whose hostPath is one of the `files` the machines write).
 */
import { parse } from 'yaml';
import { SimProcess } from './simulator';

const unescape = (s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~');

/** The patch CONTROL-PLANE.md prints in its Cluster API section. */
export function clusterApiPatch(controlPlane: string): any[] {
  const block = /## Cluster API\n[\s\S]*?```yaml\n([\s\S]*?)```/.exec(controlPlane)?.[1];
  if (block === undefined) {
    throw new Error('CONTROL-PLANE.md has no Cluster API patch');
  }
  return (parse(block) ?? []) as any[];
}

/**
 * Applies a JSON patch to a copy of `target`, as `kubectl patch --type=json`
 * does: all or nothing (a failed `test`, or a path that does not resolve, refuses
 * it). An `add …/-` of an entry the list already holds is skipped, as the
 * patch's header tells the administrator.
 */
export function applyJsonPatch(target: any, ops: readonly any[]): { ok: true; value: any } | { ok: false; error: string } {
  const doc = JSON.parse(JSON.stringify(target));
  for (const op of ops) {
    const parts = (op.path as string).split('/').slice(1).map(unescape);
    const last = parts.pop()!;
    let parent = doc;
    for (const p of parts) {
      parent = parent?.[Array.isArray(parent) ? Number(p) : p];
    }
    if (parent === undefined || parent === null || typeof parent !== 'object') {
      return { ok: false, error: `${op.op} ${op.path}: the parent does not exist` };
    }
    const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
    if (op.op === 'test') {
      if (!same(parent[Array.isArray(parent) ? Number(last) : last], op.value)) {
        return { ok: false, error: `test ${op.path} failed` };
      }
    } else if (op.op === 'remove') {
      if (Array.isArray(parent)) {
        if (Number(last) >= parent.length) {
          return { ok: false, error: `remove ${op.path}: no such entry` };
        }
        parent.splice(Number(last), 1);
      } else {
        if (!(last in parent)) {
          return { ok: false, error: `remove ${op.path}: no such key` };
        }
        delete parent[last];
      }
    } else if (op.op === 'add' || op.op === 'replace') {
      if (Array.isArray(parent)) {
        if (last === '-') {
          if (!parent.some((x) => same(x, op.value))) {
            parent.push(op.value);
          }
        } else {
          parent.splice(Number(last), op.op === 'replace' ? 1 : 0, op.value);
        }
      } else {
        parent[last] = op.value;
      }
    } else {
      return { ok: false, error: `unsupported op ${op.op}` };
    }
  }
  return { ok: true, value: doc };
}

/**
 * A KubeadmControlPlane before any phase: the cluster's own control plane with
 * no cloud settings, its extraArgs maps and lists present (the patch's header
 * says a missing parent map needs an `add` of {} first).
 */
export function bareKubeadmControlPlane(): any {
  return {
    spec: {
      kubeadmConfigSpec: {
        clusterConfiguration: { controllerManager: { extraArgs: {}, extraVolumes: [] }, apiServer: { extraArgs: {}, extraVolumes: [] } },
        initConfiguration: { nodeRegistration: { kubeletExtraArgs: {} } },
        joinConfiguration: { nodeRegistration: { kubeletExtraArgs: {} } },
        files: [],
      },
    },
  };
}

/** The kube-controller-manager a machine of this KubeadmControlPlane runs. */
export function kcpKcm(kcp: any): SimProcess {
  const cm = kcp.spec.kubeadmConfigSpec.clusterConfiguration?.controllerManager ?? {};
  const raw = cm.extraArgs ?? {};
  const pairs: [string, string][] = Array.isArray(raw) ? raw.map((a: any) => [a.name, a.value]) : Object.entries(raw);
  const configPath = pairs.find(([k]) => k === 'leader-migration-config')?.[1];
  const volume = (cm.extraVolumes ?? []).find((v: any) => v.mountPath === configPath);
  const file = volume && (kcp.spec.kubeadmConfigSpec.files ?? []).find((f: any) => f.path === volume.hostPath)?.content;
  return { flags: pairs.map(([k, v]) => `--${k}=${v}`), ...(file !== undefined ? { file } : {}) };
}
