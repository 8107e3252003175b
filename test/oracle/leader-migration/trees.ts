/**
 * Simulator scenarios from two rendered trees (`dist/<cluster>/` of phase N and
 * N+1): at merge the GitOps engine applies what was added or changed and prunes
 * what was removed, except objects carrying the prune-disabled annotations; the
 * CCM is what its rendered Deployment/DaemonSet runs with the files its volumes
 * mount from the live ConfigMaps; the KCM is what the rendered control-plane
 * change makes of it (kubernetes: CONTROL-PLANE.md; OpenShift: the FeatureGate
 * and MachineConfig in the live objects and the override the plan's `oc patch`
 * commands set).
 */
import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'yaml';
import { Controller, SimProcess, SimScenario, SimStep } from './simulator';

/** One rendered cluster folder. */
export interface Tree {
  /** `Kind namespace/name` → object. */
  readonly objects: ReadonlyMap<string, any>;
  /** `.migration.json`. */
  readonly plan: any;
  /** CONTROL-PLANE.md (kubernetes distribution). */
  readonly controlPlane?: string;
  /** MIGRATION.md. */
  readonly migration?: string;
}

export const objectKey = (o: any): string => `${o.kind} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}`;

/** Reads a rendered cluster folder (`dist/<cluster>`). */
export function readTree(clusterDir: string): Tree {
  const objects = new Map<string, any>();
  const walk = (d: string) => {
    for (const name of fs.readdirSync(d).sort()) {
      const full = path.join(d, name);
      if (fs.statSync(full).isDirectory()) {
        walk(full);
      } else if (name.endsWith('.yaml') && name !== 'kustomization.yaml') {
        const o = parse(fs.readFileSync(full, 'utf8'));
        objects.set(objectKey(o), o);
      }
    }
  };
  walk(clusterDir);
  const cp = path.join(clusterDir, 'CONTROL-PLANE.md');
  const md = path.join(clusterDir, 'MIGRATION.md');
  return {
    ...(fs.existsSync(md) ? { migration: fs.readFileSync(md, 'utf8') } : {}),
    objects,
    plan: JSON.parse(fs.readFileSync(path.join(clusterDir, '.migration.json'), 'utf8')),
    ...(fs.existsSync(cp) ? { controlPlane: fs.readFileSync(cp, 'utf8') } : {}),
  };
}

/**
 * Whether the GitOps engine leaves the object in the cluster when it leaves git:
 * Argo CD when `Prune=false` is one of its comma-separated sync options
 * (argoproj/gitops-engine@v0.7.2 pkg/sync/sync_context.go `SyncOptionDisablePrune`),
 * Flux when it is annotated or labelled `kustomize.toolkit.fluxcd.io/prune: disabled`
 * (fluxcd/kustomize-controller@v1.9.4 internal/controller/kustomization_controller.go, deleteObjects).
 */
export function pruneDisabled(o: any): boolean {
  const a = o.metadata?.annotations ?? {};
  const argo = String(a['argocd.argoproj.io/sync-options'] ?? '')
    .split(',')
    .some((x) => x.trim() === 'Prune=false');
  const flux = [a, o.metadata?.labels ?? {}].some((m) => m['kustomize.toolkit.fluxcd.io/prune'] === 'disabled');
  return argo || flux;
}

/** What the GitOps engine does at merge: apply added and changed objects, prune removed ones unless protected. */
export interface TreeDiff {
  readonly added: readonly string[];
  readonly changed: readonly string[];
  readonly pruned: readonly string[];
  /** Removed from git but never pruned. */
  readonly kept: readonly string[];
}

export function treeDiff(a: ReadonlyMap<string, any>, b: ReadonlyMap<string, any>): TreeDiff {
  const added: string[] = [];
  const changed: string[] = [];
  const pruned: string[] = [];
  const kept: string[] = [];
  for (const [k, o] of b) {
    if (!a.has(k)) {
      added.push(k);
    } else if (JSON.stringify(a.get(k)) !== JSON.stringify(o)) {
      changed.push(k);
    }
  }
  for (const [k, o] of a) {
    if (!b.has(k)) {
      (pruneDisabled(o) ? kept : pruned).push(k);
    }
  }
  return { added, changed, pruned, kept };
}

/** The live objects after the engine syncs `b` over `live`. */
export function applyAtMerge(live: ReadonlyMap<string, any>, b: ReadonlyMap<string, any>): Map<string, any> {
  const out = new Map<string, any>();
  for (const [k, o] of live) {
    if (b.has(k) || pruneDisabled(o)) {
      out.set(k, o);
    }
  }
  for (const [k, o] of b) {
    out.set(k, o);
  }
  return out;
}

const FLAG = /--[a-z][a-z0-9-]*(=[^\s\\'"]*)?/g;
/** The flags that decide leader election, leader migration and which cloud controllers run. */
export const RELEVANT =
  /^--(leader-elect|leader-elect-resource-namespace|leader-elect-lease-duration|leader-elect-renew-deadline|leader-elect-retry-period|enable-leader-migration|leader-migration-config|leader-elect-resource-name|configure-cloud-routes|allocate-node-cidrs|cluster-cidr|cidr-allocator-type|controllers|feature-gates|cloud-provider)(=|$)/;

/** The CCM workload among the live objects. */
export function ccmWorkload(objects: ReadonlyMap<string, any>): any {
  return [...objects.values()].find((o) => (o.kind === 'Deployment' || o.kind === 'DaemonSet') && /cloud-controller-manager$/.test(o.metadata.name));
}

/**
 * The CCM as its workload runs it: its relevant flags, and the leader-migration
 * file read through the volume that mounts `--leader-migration-config`'s folder
 * from a live ConfigMap (absent: the process cannot read it).
 */
export function ccmProcess(objects: ReadonlyMap<string, any>): SimProcess | undefined {
  const w = ccmWorkload(objects);
  if (!w) {
    return undefined;
  }
  const pod = w.spec.template.spec;
  const c = pod.containers[0];
  const text = [...(c.command ?? []), ...(c.args ?? [])].join(' ');
  const flags = (text.match(FLAG) ?? []).filter((f) => RELEVANT.test(f) && !f.startsWith('--cloud-provider'));
  const configPath = flags.find((f) => f.startsWith('--leader-migration-config='))?.split('=')[1];
  const file = configPath ? mountedFile(objects, w.metadata.namespace, pod, c, configPath) : undefined;
  const leases = grantedLeases(objects, w.metadata.namespace, pod.serviceAccountName ?? 'default', flags, file);
  return { flags, ...(file !== undefined ? { file } : {}), ...(leases ? { leases } : {}) };
}

/**
 * R11: of the CCM's main and migration leases, those the live Roles and
 * ClusterRoles bound to its ServiceAccount let it get and update (a rule's
 * `resourceNames`, when given, limit it to those names); undefined when no
 * binding names the ServiceAccount (the tree does not carry its RBAC).
 */
function grantedLeases(
  objects: ReadonlyMap<string, any>,
  namespace: string,
  serviceAccount: string,
  flags: readonly string[],
  file: string | undefined,
): string[] | undefined {
  const f = new Map(flags.map((x) => [x.replace(/^--/, '').split('=')[0], x.split('=').slice(1).join('=')] as const));
  const ns = f.get('leader-elect-resource-namespace') || 'kube-system';
  const leaderName = file !== undefined ? /^leaderName: *"?([^"\n]+)"?$/m.exec(file)?.[1] : undefined;
  const wanted = [`${ns}/${f.get('leader-elect-resource-name') || 'cloud-controller-manager'}`, ...(leaderName ? [`${ns}/${leaderName}`] : [])];
  const bindings = [...objects.values()].filter(
    (o) =>
      (o.kind === 'RoleBinding' || o.kind === 'ClusterRoleBinding') &&
      (o.subjects ?? []).some((s: any) => s.kind === 'ServiceAccount' && s.name === serviceAccount && s.namespace === namespace),
  );
  if (bindings.length === 0) {
    return undefined;
  }
  const has = (list: readonly string[] | undefined, x: string) => (list ?? []).includes(x) || (list ?? []).includes('*');
  const grants = (lease: string): boolean => {
    const [leaseNs, name] = lease.split('/');
    return bindings.some((b) => {
      if (b.kind === 'RoleBinding' && b.metadata.namespace !== leaseNs) {
        return false;
      }
      const role = objects.get(b.roleRef.kind === 'Role' ? `Role ${b.metadata.namespace}/${b.roleRef.name}` : `ClusterRole ${b.roleRef.name}`);
      return (role?.rules ?? []).some(
        (r: any) =>
          has(r.apiGroups, 'coordination.k8s.io') &&
          has(r.resources, 'leases') &&
          has(r.verbs, 'get') &&
          has(r.verbs, 'update') &&
          (r.resourceNames === undefined || r.resourceNames.length === 0 || r.resourceNames.includes(name)),
      );
    });
  };
  return wanted.filter(grants);
}

function mountedFile(objects: ReadonlyMap<string, any>, namespace: string, pod: any, container: any, file: string): string | undefined {
  const mount = (container.volumeMounts ?? []).find((m: any) => file.startsWith(`${m.mountPath.replace(/\/$/, '')}/`));
  const volume = mount && (pod.volumes ?? []).find((v: any) => v.name === mount.name);
  if (!volume?.configMap) {
    return undefined;
  }
  const rel = file.slice(mount.mountPath.replace(/\/$/, '').length + 1);
  const key = (volume.configMap.items ?? []).find((i: any) => i.path === rel)?.key ?? (volume.configMap.items ? undefined : rel);
  const cm = objects.get(`ConfigMap ${namespace}/${volume.configMap.name}`);
  return key !== undefined ? cm?.data?.[key] : undefined;
}

/**
 * The kube-controller-manager argv RKE2 or k3s starts from a server
 * configuration: the distribution's own flags before the administrator's
 * `kube-controller-manager-arg`, which override them by name.
 * - k3s-io/k3s@c8331835172c40d33f9841dfd6e9da469b11a7fa pkg/daemons/control/server.go
 *   `controllerManager`: `allocate-node-cidrs=true` and `cluster-cidr` (the
 *   `cluster-cidr` setting, default 10.42.0.0/16 in `defaults`) always; unless
 *   `DisableCCM`, `configure-cloud-routes=false` and
 *   `controllers=*,-service,-route,-cloud-node-lifecycle` (its own embedded CCM runs those);
 *   `config.GetArgs` lets an extra arg of the same name replace a default.
 * - rancher/rke2@v1.26.15+rke2r1 (and @v1.29.15+rke2r1) pkg/rke2/rke2_linux.go: `cloud-provider-name` or
 *   `cloud-provider-config` set `DisableCCM`, as `disable-cloud-controller` does;
 *   pkg/podexecutor/staticpod.go `ControllerManager` puts `--cloud-provider=<name>`
 *   `--cloud-config=<path>` before every other argument, so an extra arg of the same name,
 *   later on the command line, wins (pflag keeps the last value).
 * k3s runs the KCM in its own process (no static pod): it reads a host file directly.
 */
export function rancherKcm(doc: Record<string, any>, distro: 'rke2' | 'k3s'): string[] {
  const provider = distro === 'rke2' ? doc['cloud-provider-name'] : undefined;
  const disableCcm =
    doc['disable-cloud-controller'] === true ||
    (distro === 'rke2' && (doc['cloud-provider-name'] !== undefined || doc['cloud-provider-config'] !== undefined));
  const defaults = new Map<string, string>([
    ['allocate-node-cidrs', 'true'],
    ['cluster-cidr', String(doc['cluster-cidr'] ?? '10.42.0.0/16')],
    ...(disableCcm
      ? []
      : ([
          ['configure-cloud-routes', 'false'],
          ['controllers', '*,-service,-route,-cloud-node-lifecycle'],
        ] as [string, string][])),
  ]);
  const extra = ((doc['kube-controller-manager-arg'] ?? []) as string[]).map((a) => {
    const eq = a.indexOf('=');
    return eq < 0 ? ([a, 'true'] as const) : ([a.slice(0, eq), a.slice(eq + 1)] as const);
  });
  for (const [k, v] of extra) {
    defaults.set(k, v);
  }
  return [
    ...(provider ? [`--cloud-provider=${provider}`, `--cloud-config=${doc['cloud-provider-config'] ?? ''}`] : []),
    ...[...defaults].map(([k, v]) => `--${k}=${v}`),
  ];
}

/**
 * The KCM as CONTROL-PLANE.md has the administrator run it: the kubeadm
 * ClusterConfiguration's controllerManager.extraArgs, or the RKE2 / k3s server
 * configuration started as the distribution starts it (`rancherKcm`); the
 * leader-migration file it says to write when the process can read it where
 * `--leader-migration-config` points (kubeadm: an extraVolume; RKE2: a
 * kube-controller-manager-extra-mount; k3s: the host path itself), and any KCM
 * flag the prose tells them to set.
 */
export function controlPlaneKcm(text: string): SimProcess {
  const rancher = /## (RKE2|k3s)\n[\s\S]*?```yaml\n([\s\S]*?)```/.exec(text);
  if (rancher) {
    const distro = rancher[1] === 'RKE2' ? 'rke2' : 'k3s';
    const doc = parse(rancher[2]) ?? {};
    const written = /^# Write this file to (\S+) on every server[^\n]*\n((?:# {3}[^\n]*\n)+)/m.exec(rancher[2]);
    const flags = rancherKcm(doc, distro);
    const configPath = flags.find((f) => f.startsWith('--leader-migration-config='))?.split('=')[1];
    // the RKE2 pod sees the host file only through kube-controller-manager-extra-mount (host:container[:ro])
    const mounts = ((doc['kube-controller-manager-extra-mount'] ?? []) as string[]).map((m) => m.split(':'));
    const readable =
      written !== null &&
      configPath !== undefined &&
      (distro === 'k3s' ? written[1] === configPath : mounts.some(([host, container]) => host === written[1] && container === configPath));
    return { flags, ...(readable ? { file: written[2].replace(/^# {3}/gm, '') } : {}) };
  }
  const kubeadm = /## kubeadm\n[\s\S]*?```yaml\n([\s\S]*?)```/.exec(text)![1];
  const docs = kubeadm
    .split(/^---$/m)
    .map((d) => parse(d))
    .filter((d) => d?.kind === 'ClusterConfiguration');
  const extraArgs = (docs[0].controllerManager?.extraArgs ?? {}) as Record<string, string> | { name: string; value: string }[];
  const pairs = Array.isArray(extraArgs) ? extraArgs.map((a) => [a.name, a.value] as const) : Object.entries(extraArgs);
  const prose = text.replace(/```[\s\S]*?```/g, '');
  const told = [...prose.matchAll(/`(--(?:allocate-node-cidrs|controllers)=[^`]+)`/g)].map((m) => m[1]);
  const written = /^# Write this file to (\S+) on every control-plane node[^\n]*\n((?:# {3}[^\n]*\n)+)/m.exec(kubeadm);
  const configPath = pairs.find(([k]) => k === 'leader-migration-config')?.[1];
  // the static pod sees the host file only through controllerManager.extraVolumes
  const volumes = (docs[0].controllerManager?.extraVolumes ?? []) as { hostPath: string; mountPath: string }[];
  const file =
    written && volumes.some((v) => v.hostPath === written[1] && v.mountPath === configPath) ? written[2].replace(/^# {3}/gm, '') : undefined;
  return { flags: [...pairs.map(([k, v]) => `--${k}=${v}`), ...told], ...(file ? { file } : {}) };
}

/**
 * The host folder the KCMO mounts into the kube-controller-manager pod as
 * /etc/kubernetes/static-pod-certs (openshift/cluster-kube-controller-manager-operator@release-4.13
 * bindata/assets/kube-controller-manager/pod.yaml, volume `cert-dir`).
 */
const KCM_CERT_DIR: readonly [string, string] = [
  '/etc/kubernetes/static-pod-resources/kube-controller-manager-certs/',
  '/etc/kubernetes/static-pod-certs/',
];

/** The OpenShift KCM's leader-migration override, as the plan's `oc patch kubecontrollermanager` command sets it. */
export function overrideOf(command: string | undefined): { on: boolean; path?: string } | undefined {
  // a removal is followed by `&& { oc patch … --type=json … }` that drops the emptied field: it does not touch the KCM's arguments
  const json =
    command &&
    /^oc patch kubecontrollermanager cluster --type=merge -p '([^']*)'(?: && \{ oc patch kubecontrollermanager cluster --type=json .*\})?$/.exec(
      command,
    )?.[1];
  if (!json) {
    return undefined;
  }
  const args = JSON.parse(json).spec.unsupportedConfigOverrides.extendedArguments;
  const on = Array.isArray(args['enable-leader-migration']) && args['enable-leader-migration'][0] === 'true';
  return on ? { on, path: args['leader-migration-config'][0] } : { on };
}

interface OpenShiftKcmState {
  readonly inTreeProvider: string;
  readonly override: { on: boolean; path?: string };
}

/** The OpenShift KCM: external once a FeatureGate with ExternalCloudProvider is live; leader migration from the override, its file from the live MachineConfig. */
export function openshiftKcm(objects: ReadonlyMap<string, any>, st: OpenShiftKcmState): SimProcess {
  const gate = objects.get('FeatureGate cluster');
  const external = (gate?.spec?.customNoUpgrade?.enabled ?? []).includes('ExternalCloudProvider');
  // the operator's lease timings (openshift/cluster-kube-controller-manager-operator@release-4.13
  // bindata/assets/config/defaultconfig.yaml: retry 3s, renew deadline 12s; the lease duration keeps its 15s default)
  const flags = [
    `--cloud-provider=${external ? 'external' : st.inTreeProvider}`,
    '--leader-elect-retry-period=3s',
    '--leader-elect-renew-deadline=12s',
  ];
  if (!st.override.on) {
    return { flags };
  }
  const mc = [...objects.values()].find(
    (o) =>
      o.kind === 'MachineConfig' &&
      (o.spec.config.storage?.files ?? []).some((f: any) => f.path.replace(KCM_CERT_DIR[0], KCM_CERT_DIR[1]) === st.override.path),
  );
  const entry = mc?.spec.config.storage.files.find((f: any) => f.path.replace(KCM_CERT_DIR[0], KCM_CERT_DIR[1]) === st.override.path);
  const file = entry ? decodeURIComponent(entry.contents.source.replace(/^data:[^,]*,/, '')) : undefined;
  return {
    flags: [...flags, '--leader-elect=true', '--enable-leader-migration', `--leader-migration-config=${st.override.path}`],
    ...(file !== undefined ? { file } : {}),
  };
}

/** RFC 7386 JSON merge patch (what `oc patch --type=merge` applies). */
function mergePatch(target: any, patch: any): any {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) {
    return patch;
  }
  const out = typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) {
      delete out[k];
    } else {
      out[k] = mergePatch(out[k], v);
    }
  }
  return out;
}

/** The in-tree provider name the plans give the OpenShift KCM. */
function inTreeProviderOf(...plans: any[]): string {
  for (const p of plans) {
    const flag = p.components
      .find((x: any) => x.component === 'kube-controller-manager')
      .flags.find((f: string) => f.startsWith('--cloud-provider=') && f !== '--cloud-provider=external');
    if (flag) {
      return flag.split('=')[1];
    }
  }
  return 'external';
}

export interface TreeScenarioOptions {
  readonly kcmMinor: number;
  readonly ccmMinor: number;
  readonly kcmBaseFlags: readonly string[];
  readonly required?: readonly Controller[];
  readonly ccmControllers?: readonly Controller[];
  /** How a KCM change rolls (Cluster API: scale-up first). */
  readonly kcmRollout?: 'in-place' | 'scale-up-first';
  /** OpenShift: the override at the start (from the MIGRATION.md table of the starting phase when omitted). */
  readonly override?: { on: boolean; path?: string };
  /** kubernetes: the form of CONTROL-PLANE.md the administrator follows, carried from change to change (default: each phase's kubeadm or RKE2 configuration read whole). */
  readonly form?: ControlPlaneFormLike;
}

/** A control-plane form as forms.ts defines it (kept structural here: forms.ts builds on this file). */
export interface ControlPlaneFormLike {
  start(t: Tree): unknown;
  apply(state: unknown, to: Tree): unknown;
  kcm(state: unknown): SimProcess;
}

/** What a walk carries from one change into the next: the live objects, the kubernetes KCM, the OpenShift override. */
export interface LiveState {
  readonly objects: ReadonlyMap<string, any>;
  readonly kcm: SimProcess;
  readonly override: { on: boolean; path?: string };
  /** The control-plane form's own state (a KubeadmControlPlane, a static pod's flags), when a form is followed. */
  readonly form?: unknown;
}

/**
 * The scenario of moving the cluster from tree `from` to tree `to` by `steps`
 * (`to`'s `enter` going forward, `from`'s `rollback` going back): the merge
 * step syncs `to`; a step that deletes a MachineConfig removes it; a step that
 * patches the FeatureGate patches the live one; a step that patches the
 * KubeControllerManager sets the override; a kubernetes step made
 * through CONTROL-PLANE.md puts the KCMs into `to`'s control plane. A KCM change
 * whose step waits for no rolled-out KCM may be overtaken by the next
 * (the operator rolls every node to its latest revision).
 */
export function treeScenario(from: Tree, to: Tree, steps: readonly any[], opts: TreeScenarioOptions): SimScenario {
  return treeReplay(from, to, steps, opts).scenario;
}

/**
 * As `treeScenario`, starting from `start` (the live state a previous change
 * left, not `from`'s rendering) and returning the live state this change leaves.
 */
export function treeReplay(
  from: Tree,
  to: Tree,
  steps: readonly any[],
  opts: TreeScenarioOptions,
  start?: LiveState,
): { scenario: SimScenario; end: LiveState } {
  const openshift = from.controlPlane === undefined && to.controlPlane === undefined;
  let live: Map<string, any> = new Map(start?.objects ?? from.objects);
  const kcmFrom = from.plan.components.find((x: any) => x.component === 'kube-controller-manager');
  let os: OpenShiftKcmState = {
    inTreeProvider: inTreeProviderOf(from.plan, to.plan),
    override:
      start?.override ??
      opts.override ??
      (kcmFrom.flags.includes('--enable-leader-migration')
        ? { on: true, path: kcmFrom.flags.find((f: string) => f.startsWith('--leader-migration-config='))!.split('=')[1] }
        : { on: false }),
  };
  const kcmNow = (): SimProcess => (openshift ? openshiftKcm(live, os) : kcmK8s);
  let formState = start?.form ?? (opts.form && !openshift ? opts.form.start(from) : undefined);
  let kcmK8s: SimProcess =
    start?.kcm ?? (opts.form && !openshift ? opts.form.kcm(formState) : from.controlPlane ? controlPlaneKcm(from.controlPlane) : { flags: [] });
  const kcm0 = kcmNow();
  const ccm0 = ccmProcess(live);
  const ordered = [...steps];
  if (!ordered.some((s) => s.when === 'merge')) {
    // the engine syncs at merge whether or not the plan names a step for it
    const at = ordered.findIndex((s) => s.when === 'after-merge');
    ordered.splice(at < 0 ? ordered.length : at, 0, { when: 'merge', by: 'gitops', action: 'sync', checks: [] });
  }
  const simSteps: SimStep[] = [];
  let kcmPrev = JSON.stringify(kcm0);
  let ccmPrev = JSON.stringify(ccm0 ?? null);
  for (const s of ordered) {
    if (s.when === 'merge') {
      live = applyAtMerge(live, to.objects);
    }
    const deleted = /^oc delete machineconfig (\S+)/.exec(s.command ?? '')?.[1];
    if (deleted) {
      live.delete(`MachineConfig ${deleted}`);
    }
    const gate = /^oc patch featuregate cluster --type=merge -p '(.*)'$/.exec(s.command ?? '')?.[1];
    if (gate) {
      live.set(
        'FeatureGate cluster',
        mergePatch(
          live.get('FeatureGate cluster') ?? { apiVersion: 'config.openshift.io/v1', kind: 'FeatureGate', metadata: { name: 'cluster' } },
          JSON.parse(gate),
        ),
      );
    }
    const override = overrideOf(s.command);
    if (override) {
      os = { ...os, override };
    }
    if (!openshift && /CONTROL-PLANE\.md/.test(s.by) && to.controlPlane) {
      if (opts.form) {
        formState = opts.form.apply(formState, to);
        kcmK8s = opts.form.kcm(formState);
      } else {
        kcmK8s = controlPlaneKcm(to.controlPlane);
      }
    }
    const kcm = kcmNow();
    const ccm = ccmProcess(live) ?? null;
    const step: { -readonly [K in keyof SimStep]: SimStep[K] } = { label: `${s.when}: ${s.action}` };
    if (JSON.stringify(kcm) !== kcmPrev) {
      step.kcm = kcm;
      kcmPrev = JSON.stringify(kcm);
      if (!(s.checks ?? []).some((c: any) => /every kube-controller-manager/.test(c.check))) {
        step.overtaken = true;
      }
    }
    if (JSON.stringify(ccm) !== ccmPrev) {
      step.ccm = ccm;
      ccmPrev = JSON.stringify(ccm);
    }
    simSteps.push(step);
  }
  const scenario: SimScenario = {
    kcmMinor: opts.kcmMinor,
    ccmMinor: opts.ccmMinor,
    kcmBaseFlags: opts.kcmBaseFlags,
    kcm: kcm0,
    ...(ccm0 ? { ccm: ccm0 } : {}),
    ccmStrategy:
      ccmWorkload(to.objects)?.spec.strategy?.type === 'Recreate' || ccmWorkload(from.objects)?.spec.strategy?.type === 'Recreate'
        ? 'Recreate'
        : 'RollingUpdate',
    ...(opts.required ? { required: opts.required } : {}),
    ...(opts.ccmControllers ? { ccmControllers: opts.ccmControllers } : {}),
    ...(opts.kcmRollout ? { kcmRollout: opts.kcmRollout } : {}),
    steps: simSteps,
  };
  return { scenario, end: { objects: live, kcm: kcmK8s, override: os.override, ...(formState !== undefined ? { form: formState } : {}) } };
}
