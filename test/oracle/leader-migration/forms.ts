/**
 * The kube-controller-manager an administrator runs after following each form
 * of CONTROL-PLANE.md change after change: a form is applied to the control
 * plane the previous change left (flags it does not mention stay; flags it
 * says to remove go), not read as a whole new configuration. It reads only the
 * rendered text.
 */
import { parse } from 'yaml';
import { applyJsonPatch, bareKubeadmControlPlane, clusterApiPatch, kcpKcm } from './cluster-api';
import { SimProcess } from './simulator';
import { ControlPlaneFormLike, controlPlaneKcm, Tree } from './trees';

/** One form of the control-plane change, carried through a walk. */
export interface ControlPlaneForm extends ControlPlaneFormLike {
  readonly name: string;
  /** The live control plane of a tree's phase, reached by applying the phases before it in order. */
  start(t: Tree): unknown;
  /** The control plane after the administrator applies `to`'s change to `state`; throws, naming why, where it cannot be applied. */
  apply(state: unknown, to: Tree): unknown;
  kcm(state: unknown): SimProcess;
}

/** The phases of the tree's plan up to and including its own. */
function phasesUpTo(t: Tree): string[] {
  const phases = t.plan.phases as string[];
  return phases.slice(0, phases.indexOf(t.plan.phase) + 1);
}

/** A form whose starting state is its changes applied in phase order from `initial`. */
export function carriedForm(
  name: string,
  trees: ReadonlyMap<string, Tree>,
  initial: () => unknown,
  apply: (state: unknown, to: Tree) => unknown,
  kcm: (state: unknown) => SimProcess,
): ControlPlaneForm {
  return {
    name,
    start: (t) => phasesUpTo(t).reduce((state, phase) => apply(state, trees.get(phase)!), initial()),
    apply,
    kcm,
  };
}

/** A flag line's name and value (`--name` alone is true). */
function splitFlag(flag: string): [string, string] {
  const body = flag.replace(/^--/, '');
  const eq = body.indexOf('=');
  return eq < 0 ? [body, 'true'] : [body.slice(0, eq), body.slice(eq + 1)];
}

/** `a=x,b=y` without the named gates; undefined when none is left. */
function dropGates(value: string, gates: readonly string[]): string | undefined {
  const names = gates.map((g) => g.split('=')[0]);
  const left = value.split(',').filter((g) => !names.includes(g.split('=')[0].trim()));
  return left.length > 0 ? left.join(',') : undefined;
}

/** A `--controllers` value without the named items (kept as an empty flag never: the binary's default is `*`). */
function dropControllers(value: string, items: readonly string[]): string {
  return value
    .split(',')
    .filter((c) => !items.includes(c.trim()))
    .join(',');
}

interface FlagState {
  readonly flags: ReadonlyMap<string, string>;
  /** The leader-migration file mounted where `--leader-migration-config` points, as last written. */
  readonly file?: string;
}

const flagProcess = (s: unknown): SimProcess => {
  const st = s as FlagState;
  return { flags: [...st.flags].map(([k, v]) => `--${k}=${v}`), ...(st.file !== undefined ? { file: st.file } : {}) };
};

/**
 * Hand-run static pods ("## Flags per component"): each `--flag` line of the
 * kube-controller-manager block is set, each `remove --flag` line dropped,
 * each `remove G from --feature-gates` line drops those gates; the leader-migration
 * file block is written and mounted where it says (a file once written stays).
 */
export function staticPodForm(trees: ReadonlyMap<string, Tree>): ControlPlaneForm {
  const apply = (state: unknown, to: Tree): FlagState => {
    const text = /## Flags per component\n[\s\S]*?```text\n([\s\S]*?)```/.exec(to.controlPlane ?? '')?.[1];
    if (text === undefined) {
      throw new Error(`${to.plan.phase}: CONTROL-PLANE.md has no static-pod flags`);
    }
    const st = state as FlagState;
    const flags = new Map(st.flags);
    const block = /^kube-controller-manager \([^)]*\):\n((?: {2}[^\n]*\n)*)/m.exec(text)?.[1] ?? '';
    for (const line of block.split('\n').map((l) => l.trim())) {
      const gates = /^remove (.+) from --feature-gates/.exec(line);
      const controllers = /^remove (.+) from --controllers/.exec(line);
      if (controllers) {
        if (flags.has('controllers')) flags.set('controllers', dropControllers(flags.get('controllers')!, controllers[1].split(/,\s*/)));
      } else if (gates) {
        const left = dropGates(flags.get('feature-gates') ?? '', gates[1].split(/,\s*/));
        if (left === undefined) flags.delete('feature-gates');
        else flags.set('feature-gates', left);
      } else if (line.startsWith('remove --')) {
        flags.delete(line.slice('remove --'.length));
      } else if (line.startsWith('--')) {
        const [k, v] = splitFlag(line);
        flags.set(k, v);
      }
    }
    const file = /^(\S+) \(mount it read-only into the kube-controller-manager pod at the same path\):\n((?: {2}[^\n]*\n)+)/m.exec(text);
    const written = file && flags.get('leader-migration-config') === file[1] ? file[2].replace(/^ {2}/gm, '') : st.file;
    return { flags, ...(written !== undefined ? { file: written } : {}) };
  };
  return carriedForm('static pod', trees, () => ({ flags: new Map() }), apply, flagProcess);
}

interface KubeadmState {
  readonly args: ReadonlyMap<string, string>;
  readonly volumes: readonly { name: string; hostPath: string; mountPath: string }[];
  readonly files: ReadonlyMap<string, string>;
}

/**
 * kubeadm ("## kubeadm"): the ClusterConfiguration's controllerManager is merged
 * into the live one (extraArgs set by name, extraVolumes appended by name), the
 * header's `# kube-controller-manager: remove …` lines applied (flags, gates, the
 * leader-migration extraVolume), and the file it says to write is written.
 */
export function kubeadmForm(trees: ReadonlyMap<string, Tree>): ControlPlaneForm {
  const apply = (state: unknown, to: Tree): KubeadmState => {
    const yaml = /## kubeadm\n[\s\S]*?```yaml\n([\s\S]*?)```/.exec(to.controlPlane ?? '')?.[1];
    if (yaml === undefined) {
      throw new Error(`${to.plan.phase}: CONTROL-PLANE.md has no kubeadm configuration`);
    }
    const st = state as KubeadmState;
    const args = new Map(st.args);
    let volumes = [...st.volumes];
    const files = new Map(st.files);
    for (const m of yaml.matchAll(/^# kube-controller-manager: remove (.+?)(?: if present)?(?: \(.*)?$/gm)) {
      const what = m[1];
      const gates = /^(.+) from feature-gates$/.exec(what);
      const volume = /^the "([^"]+)" extraVolume/.exec(what);
      const controllers = /^(.+) from controllers$/.exec(what);
      if (controllers) {
        // kubeadm's own default (*,bootstrapsigner,tokencleaner) is what a removed argument falls back to
        const left = dropControllers(args.get('controllers') ?? '', controllers[1].split(/,\s*/));
        if (left === '' || left === '*,bootstrapsigner,tokencleaner') args.delete('controllers');
        else args.set('controllers', left);
      } else if (gates) {
        const left = dropGates(args.get('feature-gates') ?? '', gates[1].split(/,\s*/));
        if (left === undefined) args.delete('feature-gates');
        else args.set('feature-gates', left);
      } else if (volume) {
        volumes = volumes.filter((v) => v.name !== volume[1]);
      } else {
        for (const flag of what.split(/,\s*/)) args.delete(flag.replace(/^--/, ''));
      }
    }
    const cluster = yaml
      .split(/^---$/m)
      .map((d) => parse(d))
      .find((d) => d?.kind === 'ClusterConfiguration');
    const raw = cluster?.controllerManager?.extraArgs ?? {};
    const pairs: [string, string][] = Array.isArray(raw) ? raw.map((a: any) => [a.name, a.value]) : Object.entries(raw);
    for (const [k, v] of pairs) args.set(k, String(v));
    for (const v of (cluster?.controllerManager?.extraVolumes ?? []) as KubeadmState['volumes']) {
      volumes = [...volumes.filter((x) => x.name !== v.name), v];
    }
    const written = /^# Write this file to (\S+) on every control-plane node[^\n]*\n((?:# {3}[^\n]*\n)+)/m.exec(yaml);
    if (written) files.set(written[1], written[2].replace(/^# {3}/gm, ''));
    return { args, volumes, files };
  };
  const kcm = (s: unknown): SimProcess => {
    const st = s as KubeadmState;
    const path = st.args.get('leader-migration-config');
    const volume = st.volumes.find((v) => v.mountPath === path);
    const file = volume ? st.files.get(volume.hostPath) : undefined;
    return { flags: [...st.args].map(([k, v]) => `--${k}=${v}`), ...(file !== undefined ? { file } : {}) };
  };
  return carriedForm('kubeadm', trees, () => ({ args: new Map(), volumes: [], files: new Map() }), apply, kcm);
}

/**
 * Cluster API v1beta1: each phase's printed KubeadmControlPlane patch applied to
 * the live object (`regenerate` stands for the `--current` command its header
 * points to, where the printed patch does not apply to the object as it is).
 */
export function clusterApiV1beta1Form(trees: ReadonlyMap<string, Tree>, regenerate?: (kcp: any, to: Tree) => readonly any[]): ControlPlaneForm {
  const apply = (state: unknown, to: Tree): unknown => {
    const printed = applyJsonPatch(state, clusterApiPatch(to.controlPlane ?? ''));
    if (printed.ok) return printed.value;
    if (!regenerate) throw new Error(`${to.plan.phase}: ${printed.error}`);
    const again = applyJsonPatch(state, regenerate(state, to));
    if (!again.ok) throw new Error(`${to.plan.phase}: printed patch: ${printed.error}; regenerated patch: ${again.error}`);
    return again.value;
  };
  // in-tree's printed patch is written for the way back from leader-migration-kcm: the machines start with its additions
  const start = (t: Tree): unknown =>
    phasesUpTo(t)
      .slice(1)
      .reduce<unknown>(
        (kcp, phase) => apply(kcp, trees.get(phase)!),
        (
          applyJsonPatch(
            bareKubeadmControlPlane(),
            clusterApiPatch(trees.get(phasesUpTo(t)[0])!.controlPlane ?? '').filter((op) => op.op === 'add'),
          ) as { value: unknown }
        ).value,
      );
  return { name: 'Cluster API v1beta1', start, apply, kcm: kcpKcm };
}

/** RKE2 or k3s: the phase's server configuration as the distribution starts the KCM from it. */
export function rancherForm(): ControlPlaneForm {
  return {
    name: 'RKE2 / k3s',
    start: (t) => controlPlaneKcm(t.controlPlane ?? ''),
    apply: (_state, to) => controlPlaneKcm(to.controlPlane ?? ''),
    kcm: (s) => s as SimProcess,
  };
}
