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
 * it). An `add …/-` of an entry the list already holds is skipped, as the v1beta1
 * patch's header tells the administrator, unless `strict` (RFC 6902 appends it).
 */
export function applyJsonPatch(
  target: any,
  ops: readonly any[],
  opts: { strict?: boolean } = {},
): { ok: true; value: any } | { ok: false; error: string } {
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
          if (opts.strict || !parent.some((x) => same(x, op.value))) {
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
    apiVersion: 'controlplane.cluster.x-k8s.io/v1beta1',
    kind: 'KubeadmControlPlane',
    metadata: { name: 'c-control-plane', namespace: 'default' },
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

/**
 * What the API server refuses in a v1beta2 KubeadmControlPlane's fields the
 * patches touch, from its CRD (kubernetes-sigs/cluster-api@ae7ff047db499ac3858ade268ba38db8c9f128bb
 * controlplane/kubeadm/config/crd/bases/controlplane.cluster.x-k8s.io_kubeadmcontrolplanes.yaml,
 * version v1beta2): each extraArgs / kubeletExtraArgs list holds 1 to 100
 * `{name, value}` entries whose names are unique ("extraArgs name must be
 * unique"); extraVolumes 1 to 100 entries with name, hostPath and mountPath;
 * files 1 to 200 entries with a path; controllerManager at least one field.
 */
export function kcpV1beta2Problems(kcp: any): string[] {
  const spec = kcp?.spec?.kubeadmConfigSpec ?? {};
  const problems: string[] = [];
  const list = (path: string, value: unknown, max: number, each: (e: any) => string | undefined) => {
    if (value === undefined) return;
    if (!Array.isArray(value) || value.length < 1 || value.length > max) {
      problems.push(`${path}: must hold 1 to ${max} entries`);
      return;
    }
    value.forEach((e, i) => {
      const bad = each(e);
      if (bad) problems.push(`${path}[${i}]: ${bad}`);
    });
  };
  const args = (path: string, value: unknown) => {
    list(path, value, 100, (e) =>
      typeof e?.name !== 'string' || e.name === '' || typeof e?.value !== 'string' ? 'needs a name and a string value' : undefined,
    );
    if (Array.isArray(value)) {
      const names = value.map((e: any) => e?.name);
      const twice = names.filter((n, i) => names.indexOf(n) !== i);
      if (twice.length > 0) problems.push(`${path}: name must be unique (${[...new Set(twice)].join(', ')} twice)`);
    }
  };
  const cc = spec.clusterConfiguration ?? {};
  if (cc.controllerManager !== undefined && Object.keys(cc.controllerManager).length === 0) {
    problems.push('clusterConfiguration.controllerManager: must have at least 1 field');
  }
  for (const component of ['controllerManager', 'apiServer']) {
    args(`clusterConfiguration.${component}.extraArgs`, cc[component]?.extraArgs);
    list(`clusterConfiguration.${component}.extraVolumes`, cc[component]?.extraVolumes, 100, (v) =>
      [v?.name, v?.hostPath, v?.mountPath].every((x) => typeof x === 'string' && x !== '') ? undefined : 'needs name, hostPath and mountPath',
    );
  }
  for (const c of ['initConfiguration', 'joinConfiguration']) {
    args(`${c}.nodeRegistration.kubeletExtraArgs`, spec[c]?.nodeRegistration?.kubeletExtraArgs);
  }
  list('files', spec.files, 200, (f) => (typeof f?.path === 'string' && f.path !== '' ? undefined : 'needs a path'));
  return problems;
}

/**
 * A v1beta2 KubeadmControlPlane before any phase: each extra-args list holds
 * one setting of the cluster's own (an empty list is refused, so a list that
 * exists holds something); extraVolumes and files are absent unless `cloudConfig`
 * names the in-tree provider's file, written and mounted into the KCM.
 */
export function bareKubeadmControlPlaneV1beta2(cloudConfig?: string): any {
  const own = (name: string, value: string) => [{ name, value }];
  const volumes = cloudConfig ? { extraVolumes: [{ name: 'cloud-config', hostPath: cloudConfig, mountPath: cloudConfig, readOnly: true }] } : {};
  return {
    apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
    kind: 'KubeadmControlPlane',
    metadata: { name: 'c-control-plane', namespace: 'default' },
    spec: {
      kubeadmConfigSpec: {
        clusterConfiguration: {
          controllerManager: { extraArgs: own('bind-address', '0.0.0.0'), ...volumes },
          apiServer: { extraArgs: own('audit-log-maxage', '30'), ...volumes },
        },
        initConfiguration: { nodeRegistration: { kubeletExtraArgs: own('max-pods', '110') } },
        joinConfiguration: { nodeRegistration: { kubeletExtraArgs: own('max-pods', '110') } },
        ...(cloudConfig ? { files: [{ path: cloudConfig, owner: 'root:root', permissions: '0600', content: '[Global]\n' }] } : {}),
      },
    },
  };
}
