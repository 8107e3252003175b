/**
 * A model of controller-manager leader election and leader migration as
 * Kubernetes implements it (KEP-2436), used as a test oracle: given how each
 * kube-controller-manager (KCM) and cloud-controller-manager (CCM) runs before
 * and after a phase change (flags and LeaderMigrationConfiguration, as
 * ccm-gitops renders them) and the ordered steps of the change, it explores
 * every interleaving of lease acquisitions, instance restarts, rolling
 * updates and leader failovers for a small control plane (3 KCMs, 2 CCMs)
 * and reports any state in which a migrated controller runs in two
 * processes at once, or, once the change has settled, in none.
 *
 * Modeled rules and their upstream sources:
 * - R1 main lease first. Every controller manager with leader election
 *   contends for its main lease (`--leader-elect-resource-namespace` /
 *   the component name: `kube-controller-manager`, `cloud-controller-manager`);
 *   only once it holds it does it contend for the migration lease
 *   (kubernetes/cloud-provider@v0.30.0 app/controllermanager.go `Run`: the
 *   migration `leaderElectAndRun` starts after `<-leaderMigrator.MigrationReady`,
 *   which `OnStartedLeading` of the main lock closes; the KCM, in
 *   kubernetes/kubernetes cmd/kube-controller-manager/app/controllermanager.go, closes
 *   `MigrationReady` after its main-lease run has started the service-account token
 *   controller, and passes the identity "kube-controller-manager").
 * - R2 leader migration is on only with leader election:
 *   kubernetes/controller-manager@v0.30.0 pkg/leadermigration/util.go `Enabled`:
 *   `LeaderElection.LeaderElect && LeaderMigrationEnabled`.
 * - R3 the filter: kubernetes/controller-manager@v0.30.0 pkg/leadermigration/migrator.go
 *   `NewLeaderMigrator`: a controller listed with `component == self || "*"` runs under
 *   the migration lease, listed with another component is not started, not listed runs
 *   under the main lease. The KCM passes "kube-controller-manager", the CCM the
 *   hard-coded "cloud-controller-manager" (app/controllermanager.go line `NewLeaderMigrator(..., "cloud-controller-manager")`).
 * - R4 names are canonical names, no aliases: ≤1.27 `route`, `service`,
 *   `cloud-node-lifecycle`, `nodeipam`; from 1.28 `node-route-controller`,
 *   `service-lb-controller`, `cloud-node-lifecycle-controller`, `node-ipam-controller`
 *   (kubernetes/cloud-provider@v0.28.0 names/controller_names.go, read from the Go module
 *   proxy's k8s.io/cloud-provider@v0.28.0; the KCM's cmd/kube-controller-manager/names in 1.28).
 * - R12 `--controllers` as the binary reads it: from 1.28 an alias (the old name) is turned
 *   into its canonical name (`CCMControllerAliases` in names/controller_names.go, passed to
 *   `Generic.ApplyTo` in options/options.go); then `IsControllerEnabled`, called by
 *   `startControllers` in app/controllermanager.go (all k8s.io/cloud-provider@v0.28.0): the
 *   first entry naming the controller decides (`name` on, `-name` off), else `*` turns it on.
 * - R13 a locked feature gate set to another value is a start-up error: "cannot set feature
 *   gate %v to %v, feature is locked to %v" (kubernetes/component-base@v0.31.0
 *   featuregate/feature_gate.go `SetFromMap`); `DisableCloudProviders` and
 *   `DisableKubeletCloudCredentialProviders` are GA, locked to true, from 1.31
 *   (kubernetes/kubernetes@v1.31.0 pkg/features/kube_features.go).
 * - R5 losing a lease ends the process: `OnStoppedLeading` of both locks calls
 *   `klog.FlushAndExit` (cloud-provider@v0.30.0 app/controllermanager.go), so a
 *   failover is a restart; a stopped process's leases become free (expiry abstracted).
 * - R6 what a process can run: the KCM's cloud controllers need an in-tree
 *   `--cloud-provider`; its route controller also needs `--allocate-node-cidrs`
 *   and `--configure-cloud-routes` (cmd/kube-controller-manager/app/core.go
 *   `startNodeRouteController`: "Will not configure cloud provider routes for
 *   allocate-node-cidrs"); the CCM's route controller needs `--configure-cloud-routes`
 *   (cloud-provider@v0.30.0 app/core.go `startRouteController`); node IPAM runs where
 *   `--allocate-node-cidrs=true` and `--controllers` does not exclude it.
 * - R7 rollouts: a step that changes the KCMs restarts them one control-plane node at
 *   a time (static pods); the CCM rolls with its workload's strategy (`Recreate` on
 *   OpenShift: all old pods stop first; `RollingUpdate` maxUnavailable 1 elsewhere:
 *   old and new pods overlap). Steps run in plan order; each starts when the previous
 *   one's rollout is complete (the plan's checks). Cluster API rolls a KubeadmControlPlane
 *   scale-up first: while the Machines are fewer than replicas + maxSurge (default 1) it
 *   creates one with the new configuration, then deletes an outdated one
 *   (kubernetes-sigs/cluster-api@v1.7.0 controlplane/kubeadm/internal/controllers/upgrade.go
 *   `upgradeControlPlane`), so for a while 4 KCMs of two configurations contend.
 * - R8 a process whose leader-migration file is missing or cannot be decoded exits at start-up
 *   (a crash loop: it runs nothing and takes no lease): `ReadLeaderMigrationConfiguration`
 *   returns "unable to read leader migration configuration" or the decoder's error. Its
 *   scheme (`cfgScheme` in pkg/leadermigration/config/config.go) registers
 *   config/v1alpha1 at kubernetes/controller-manager@v0.21.0, adds config/v1beta1 at
 *   @v0.22.0 and config/v1 at @v0.24.0 (the published
 *   kubernetes/kubernetes staging/src/k8s.io/controller-manager of 1.21, 1.22, 1.24).
 * - R9 lease timing: `--leader-elect-lease-duration`, `--leader-elect-renew-deadline`,
 *   `--leader-elect-retry-period` from the rendered flags, else the defaults 15s, 10s, 2s
 *   (kubernetes/component-base@v0.30.0 config/v1alpha1/defaults.go
 *   `RecommendedDefaultLeaderElectionConfiguration`, which the KCM and the CCM apply);
 *   timings client-go refuses end the process (kubernetes/client-go@v0.30.0
 *   tools/leaderelection/leaderelection.go `NewLeaderElector`: leaseDuration >
 *   renewDeadline > retryPeriod × JitterFactor 1.2; `RunOrDie` panics on the error).
 *   How long each takes is abstracted: any holder may lose its lease at any time.
 * - R10 node IPAM without a cluster CIDR is fatal: unless the allocator is `CloudAllocator`,
 *   `NewNodeIpamController` returns "Must specify --cluster-cidr if --allocate-node-cidrs is set"
 *   (kubernetes/kubernetes@v1.31.0 pkg/controller/nodeipam/node_ipam_controller.go), and a
 *   controller that fails to start ends the process: `StartControllers` returning an error
 *   is followed by `klog.FlushAndExit` (cmd/kube-controller-manager/app/controllermanager.go, same tag).
 * - R11 RBAC: a process gets and updates only the leases its Roles grant (`SimProcess.leases`);
 *   a lease it may not renew is one it never holds (the Forbidden renew fails the election,
 *   and `OnStoppedLeading` exits, R5), so the controllers under it never run there.
 */

/** A migrated controller, by its role. */
export type Controller = 'service' | 'route' | 'cloud-node-lifecycle' | 'node-ipam';
export const CONTROLLERS: readonly Controller[] = ['service', 'route', 'cloud-node-lifecycle', 'node-ipam'];

export type Component = 'kube-controller-manager' | 'cloud-controller-manager';

/** One controller manager's configuration, as rendered. */
export interface SimProcess {
  readonly flags: readonly string[];
  /** The LeaderMigrationConfiguration it reads (YAML), if any. */
  readonly file?: string;
  /** R11: the leases (`namespace/name`) its RBAC lets it get and update; undefined: any. */
  readonly leases?: readonly string[];
}

/** One step: every KCM restarts into `kcm`; the CCM rolls into `ccm` (null: removed). */
export interface SimStep {
  readonly label: string;
  readonly kcm?: SimProcess;
  readonly ccm?: SimProcess | null;
  /**
   * The KCM change need not finish before the next step: the operator rolls
   * every node to its latest revision, so a node may skip this one (N → N+2).
   */
  readonly overtaken?: boolean;
}

/** A phase change to explore. */
export interface SimScenario {
  readonly kcmMinor: number;
  readonly ccmMinor: number;
  /** Flags the KCMs already run with that ccm-gitops does not render (e.g. `--allocate-node-cidrs=true`). */
  readonly kcmBaseFlags: readonly string[];
  readonly kcm: SimProcess;
  /** The CCM before the change (undefined: not deployed). */
  readonly ccm?: SimProcess;
  readonly steps: readonly SimStep[];
  readonly ccmStrategy: 'Recreate' | 'RollingUpdate';
  readonly kcmReplicas?: number;
  /**
   * How a KCM change rolls: `in-place` (static pods or the operator, one node at a time) or
   * `scale-up-first` (Cluster API's KubeadmControlPlane: a machine with the change joins before an old one is deleted).
   */
  readonly kcmRollout?: 'in-place' | 'scale-up-first';
  readonly ccmReplicas?: number;
  /** The controllers the CCM's binary registers (its upstream `main.go`); default: all four. */
  readonly ccmControllers?: readonly Controller[];
  /** Controllers the cluster needs once the change settles, whether or not any configuration can run them (node IPAM where nodes get pod CIDRs). */
  readonly required?: readonly Controller[];
}

/** A violation with the events that lead to it. */
export interface SimViolation {
  readonly kind: 'two-at-once' | 'none-after-settling';
  readonly controller: Controller;
  readonly runners: readonly string[];
  readonly trace: readonly string[];
}

export interface SimResult {
  readonly states: number;
  readonly violations: readonly SimViolation[];
  /** Once every step has run and no lease is left to take: the leases each side held and the controllers it ran, in any such state. */
  readonly settled: { readonly leases: Record<Component, Set<string>>; readonly runs: Record<Component, Set<Controller>> };
}

// ---- parsing a process -------------------------------------------------

interface Parsed {
  readonly component: Component;
  readonly leaderElect: boolean;
  readonly mainLease: string;
  /** The migration lease, when leader migration is on (R2). */
  readonly migrationLease?: string;
  /** controller → migrated (under the migration lease) / main / unowned (R3). */
  readonly placement: Readonly<Record<Controller, 'migrated' | 'main' | 'unowned'>>;
  /** Controllers the process can run (R6). */
  readonly capable: ReadonlySet<Controller>;
}

export function flagMap(flags: readonly string[]): Map<string, string> {
  const m = new Map<string, string>();
  for (const f of flags) {
    const body = f.replace(/^--/, '');
    const eq = body.indexOf('=');
    m.set(eq < 0 ? body : body.slice(0, eq), eq < 0 ? 'true' : body.slice(eq + 1));
  }
  return m;
}

/** R4: the canonical name of a controller in a component of a minor. */
export function canonicalName(c: Controller, minor: number): string {
  const old: Record<Controller, string> = {
    service: 'service',
    route: 'route',
    'cloud-node-lifecycle': 'cloud-node-lifecycle',
    'node-ipam': 'nodeipam',
  };
  const neu: Record<Controller, string> = {
    service: 'service-lb-controller',
    route: 'node-route-controller',
    'cloud-node-lifecycle': 'cloud-node-lifecycle-controller',
    'node-ipam': 'node-ipam-controller',
  };
  return (minor >= 28 ? neu : old)[c];
}

/** The owners listed in a LeaderMigrationConfiguration (a minimal reader; the generator's own parser checks the rest). */
function owners(file: string): { leaderName: string; owners: Map<string, string> } {
  const leaderName = /^leaderName: *"?([^"\n]+)"?$/m.exec(file)?.[1] ?? '';
  const map = new Map<string, string>();
  const re = /- name: *"?([^"\n]+)"?\n\s+component: *("([^"\n]*)"|([^\n]+))/g;
  for (let m = re.exec(file); m; m = re.exec(file)) {
    map.set(m[1].trim(), (m[3] ?? m[4] ?? '').trim());
  }
  return { leaderName, owners: map };
}

/** A Go duration of seconds and minutes (`137s`, `1m30s`), in seconds; NaN when unreadable. */
function seconds(d: string): number {
  const m = /^(?:(\d+)m)?(?:(\d+(?:\.\d+)?)s)?$/.exec(d);
  return m && d !== '' ? Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0) : NaN;
}

/** R9: the lease timings a process runs with, and whether client-go accepts them. */
export function leaseTimings(flags: ReadonlyMap<string, string>): {
  leaseDuration: number;
  renewDeadline: number;
  retryPeriod: number;
  valid: boolean;
} {
  const leaseDuration = seconds(flags.get('leader-elect-lease-duration') ?? '15s');
  const renewDeadline = seconds(flags.get('leader-elect-renew-deadline') ?? '10s');
  const retryPeriod = seconds(flags.get('leader-elect-retry-period') ?? '2s');
  return { leaseDuration, renewDeadline, retryPeriod, valid: leaseDuration > renewDeadline && renewDeadline > 1.2 * retryPeriod && retryPeriod > 0 };
}

/** R8: whether k8s.io/controller-manager of this minor decodes the file's apiVersion. */
export function decodable(file: string, minor: number): boolean {
  const version = /^apiVersion: *controllermanager\.config\.k8s\.io\/(\S+)$/m.exec(file)?.[1];
  const since: Record<string, number> = { v1alpha1: 21, v1beta1: 22, v1: 24 };
  return version !== undefined && since[version] !== undefined && minor >= since[version];
}

/** R12: whether a `--controllers` value turns a controller on, as the binary of `minor` reads it. */
export function controllerEnabled(c: Controller, minor: number, value: string): boolean {
  const canonical = canonicalName(c, minor);
  const alias = (n: string) => (minor >= 28 && n === canonicalName(c, 27) ? canonical : n);
  let star = false;
  for (const entry of value.split(',').map((x) => x.trim())) {
    if (alias(entry) === canonical) {
      return true;
    }
    if (entry.startsWith('-') && alias(entry.slice(1)) === canonical) {
      return false;
    }
    star = star || entry === '*';
  }
  return star;
}

/** R13: the gates locked to true from 1.31, which a value of false stops at start-up. */
const LOCKED_TRUE_FROM_31 = ['DisableCloudProviders', 'DisableKubeletCloudCredentialProviders'];
export function lockedGateRefused(featureGates: string, minor: number): boolean {
  return (
    minor >= 31 &&
    featureGates
      .split(',')
      .map((g) => g.trim().split('='))
      .some(([name, value]) => LOCKED_TRUE_FROM_31.includes(name) && value === 'false')
  );
}

function parse(component: Component, minor: number, p: SimProcess, base: readonly string[], registered: readonly Controller[] = CONTROLLERS): Parsed {
  const f = flagMap([...base, ...p.flags]);
  const leaderElect = (f.get('leader-elect') ?? 'true') === 'true';
  const ns = f.get('leader-elect-resource-namespace') ?? 'kube-system';
  const lmOn = leaderElect && f.get('enable-leader-migration') === 'true';
  const lm = lmOn && p.file !== undefined ? owners(p.file) : undefined;
  const missing = lmOn && p.file === undefined && f.has('leader-migration-config');
  const ipamWithoutCidr =
    f.get('allocate-node-cidrs') === 'true' &&
    (component === 'kube-controller-manager' || registered.includes('node-ipam')) &&
    controllerEnabled('node-ipam', minor, f.get('controllers') ?? '*') &&
    (f.get('cidr-allocator-type') ?? 'RangeAllocator') !== 'CloudAllocator' &&
    (f.get('cluster-cidr') ?? '') === '';
  if (
    missing ||
    ipamWithoutCidr ||
    lockedGateRefused(f.get('feature-gates') ?? '', minor) ||
    (lmOn && p.file !== undefined && !decodable(p.file, minor)) ||
    (leaderElect && !leaseTimings(f).valid)
  ) {
    // R8, R9, R10, R13: a locked gate set otherwise, a file it cannot read or decode, lease timings client-go refuses, node IPAM without a CIDR: it exits before it elects or runs anything
    return {
      component,
      leaderElect: false,
      mainLease: '',
      placement: Object.fromEntries(CONTROLLERS.map((c) => [c, 'unowned'])) as Record<Controller, 'unowned'>,
      capable: new Set(),
    };
  }
  const placement = {} as Record<Controller, 'migrated' | 'main' | 'unowned'>;
  // R11: a lease its RBAC does not grant is never held, so what runs under it runs nowhere here
  const granted = (lease: string) => p.leases === undefined || p.leases.includes(lease);
  const mainLease = `${ns}/${f.get('leader-elect-resource-name') ?? component}`;
  for (const c of CONTROLLERS) {
    const owner = lm?.owners.get(canonicalName(c, minor));
    placement[c] = owner === undefined ? 'main' : owner === component || owner === '*' ? 'migrated' : 'unowned';
    if (leaderElect && !granted(mainLease)) {
      placement[c] = 'unowned';
    }
  }
  const allocate = f.get('allocate-node-cidrs') === 'true';
  const capable = new Set<Controller>();
  if (component === 'kube-controller-manager') {
    const provider = f.get('cloud-provider') ?? '';
    if (provider !== '' && provider !== 'external') {
      capable.add('service').add('cloud-node-lifecycle');
      if (allocate && (f.get('configure-cloud-routes') ?? 'true') === 'true') {
        capable.add('route');
      }
    }
  } else {
    capable.add('service').add('cloud-node-lifecycle');
    if ((f.get('configure-cloud-routes') ?? 'true') === 'true') {
      capable.add('route');
    }
  }
  if (allocate) {
    capable.add('node-ipam');
  }
  // R12: what --controllers turns off is never started
  for (const c of [...capable]) {
    if (!controllerEnabled(c, minor, f.get('controllers') ?? '*')) {
      capable.delete(c);
    }
  }
  // a CCM runs only what its binary registers, whatever its flags say
  for (const c of [...capable]) {
    if (component === 'cloud-controller-manager' && !registered.includes(c)) {
      capable.delete(c);
    }
  }
  return {
    component,
    leaderElect,
    // the binary's main lease is --leader-elect-resource-name, its component name by default
    mainLease,
    ...(lm && granted(`${ns}/${lm.leaderName}`) ? { migrationLease: `${ns}/${lm.leaderName}` } : {}),
    placement,
    capable,
  };
}

// ---- the state machine -------------------------------------------------

/** One instance: its configuration (index), up or down, and the leases it holds. */
interface Inst {
  readonly cfg: number; // -1: absent (CCM not deployed)
  readonly up: boolean;
  readonly leases: readonly string[];
}

interface State {
  readonly kcm: readonly Inst[];
  readonly ccm: readonly Inst[];
  readonly step: number;
}

function key(s: State): string {
  // instances of one side are interchangeable: sort them (symmetry reduction)
  const side = (xs: readonly Inst[]) =>
    xs
      .map((i) => `${i.cfg}${i.up ? 'u' : 'd'}${[...i.leases].sort().join('+')}`)
      .sort()
      .join(',');
  return `${s.step}|${side(s.kcm)}|${side(s.ccm)}`;
}

/** Explores every interleaving of a scenario. */
export function simulate(sc: SimScenario, maxStates = 2_000_000): SimResult {
  const kcmCfgs: Parsed[] = [];
  const ccmCfgs: Parsed[] = [];
  const kcmIndex = new Map<string, number>();
  const ccmIndex = new Map<string, number>();
  const cfgOf = (side: 'kcm' | 'ccm', p: SimProcess): number => {
    const idx = side === 'kcm' ? kcmIndex : ccmIndex;
    const k = JSON.stringify(p);
    let i = idx.get(k);
    if (i === undefined) {
      i = side === 'kcm' ? kcmCfgs.length : ccmCfgs.length;
      idx.set(k, i);
      if (side === 'kcm') {
        kcmCfgs.push(parse('kube-controller-manager', sc.kcmMinor, p, sc.kcmBaseFlags));
      } else {
        ccmCfgs.push(parse('cloud-controller-manager', sc.ccmMinor, p, [], sc.ccmControllers));
      }
    }
    return i;
  };
  const kcm0 = cfgOf('kcm', sc.kcm);
  const ccm0 = sc.ccm ? cfgOf('ccm', sc.ccm) : -1;
  const steps = sc.steps.map((st) => ({
    label: st.label,
    overtaken: st.overtaken === true,
    kcm: st.kcm ? cfgOf('kcm', st.kcm) : undefined,
    ccm: st.ccm === undefined ? undefined : st.ccm === null ? -1 : cfgOf('ccm', st.ccm),
  }));
  const nK = sc.kcmReplicas ?? 3;
  const nC = sc.ccmReplicas ?? 2;
  const init: State = {
    kcm: Array.from({ length: nK }, () => ({ cfg: kcm0, up: true, leases: [] })),
    ccm: Array.from({ length: nC }, () => ({ cfg: ccm0, up: ccm0 >= 0, leases: [] })),
    step: 0,
  };

  const parsedOf = (side: 'kcm' | 'ccm', i: Inst) => (side === 'kcm' ? kcmCfgs[i.cfg] : ccmCfgs[i.cfg]);
  const runners = (s: State): Map<Controller, string[]> => {
    const out = new Map<Controller, string[]>(CONTROLLERS.map((c) => [c, []]));
    for (const side of ['kcm', 'ccm'] as const) {
      s[side].forEach((inst, n) => {
        if (!inst.up || inst.cfg < 0) {
          return;
        }
        const p = parsedOf(side, inst);
        for (const c of p.capable) {
          const where = p.placement[c];
          const runs = !p.leaderElect
            ? where !== 'unowned'
            : where === 'main'
              ? inst.leases.includes(p.mainLease)
              : where === 'migrated'
                ? inst.leases.includes(p.mainLease) && p.migrationLease !== undefined && inst.leases.includes(p.migrationLease)
                : false;
          if (runs) {
            out.get(c)!.push(`${side}${n}(${describe(inst)})`);
          }
        }
      });
    }
    return out;
  };
  const describe = (i: Inst) => `cfg${i.cfg}${i.leases.length ? ` holding ${i.leases.join(', ')}` : ''}`;

  // controllers that must run once settled: every one some configuration is able to run
  const expected = new Set<Controller>(sc.required ?? []);
  for (const p of [...kcmCfgs, ...ccmCfgs]) {
    for (const c of p.capable) {
      expected.add(c);
    }
  }

  const held = (s: State): Map<string, true> => {
    const m = new Map<string, true>();
    for (const i of [...s.kcm, ...s.ccm]) {
      for (const l of i.leases) {
        m.set(l, true);
      }
    }
    return m;
  };

  const successors = (s: State): [string, State][] => {
    const out: [string, State][] = [];
    const leases = held(s);
    const replace = (side: 'kcm' | 'ccm', n: number, inst: Inst, st = s.step): State => ({
      ...s,
      step: st,
      [side]: s[side].map((x, j) => (j === n ? inst : x)),
    });
    for (const side of ['kcm', 'ccm'] as const) {
      const downCount = s[side].filter((i) => !i.up && i.cfg >= 0).length;
      s[side].forEach((inst, n) => {
        if (inst.cfg < 0) {
          return;
        }
        const p = parsedOf(side, inst);
        if (inst.up && p.leaderElect) {
          // R1: the main lease; then, holding it, the migration lease
          if (!inst.leases.includes(p.mainLease) && !leases.has(p.mainLease)) {
            out.push([`${side}${n} acquires ${p.mainLease}`, replace(side, n, { ...inst, leases: [...inst.leases, p.mainLease] })]);
          }
          if (p.migrationLease && inst.leases.includes(p.mainLease) && !inst.leases.includes(p.migrationLease) && !leases.has(p.migrationLease)) {
            out.push([`${side}${n} acquires ${p.migrationLease}`, replace(side, n, { ...inst, leases: [...inst.leases, p.migrationLease] })]);
          }
        }
        if (inst.up && inst.leases.length > 0) {
          // R5: leader failover at any point: the holder loses a lease and exits
          out.push([`${side}${n} fails over (exits)`, replace(side, n, { ...inst, up: false, leases: [] })]);
        }
        if (!inst.up) {
          out.push([`${side}${n} starts`, replace(side, n, { ...inst, up: true })]);
        }
      });
      void downCount;
    }
    // R7: the current step
    const step = steps[s.step];
    if (step) {
      let done = true;
      if (step.kcm !== undefined) {
        const target = step.kcm;
        const anyDown = s.kcm.some((i) => !i.up);
        if (sc.kcmRollout === 'scale-up-first') {
          // R7 (Cluster API): a new machine with the new configuration joins, then an old one is deleted
          const old = s.kcm.findIndex((i) => i.cfg !== target);
          if (old >= 0 || anyDown || s.kcm.length > nK) {
            done = false;
          }
          if (old >= 0 && !anyDown && s.kcm.length === nK) {
            out.push([
              `a new control-plane machine joins with cfg${target} (${step.label})`,
              { ...s, kcm: [...s.kcm, { cfg: target, up: false, leases: [] }] },
            ]);
          }
          if (old >= 0 && !anyDown && s.kcm.length > nK) {
            out.push([`kcm${old} leaves with its machine (${step.label})`, { ...s, kcm: s.kcm.filter((_, j) => j !== old) }]);
          }
        } else {
          s.kcm.forEach((inst, n) => {
            if (inst.cfg !== target || !inst.up) {
              done = false;
            }
            if (inst.cfg !== target && inst.up && !anyDown) {
              out.push([`kcm${n} restarts into cfg${target} (${step.label})`, replace('kcm', n, { cfg: target, up: false, leases: [] })]);
            }
          });
        }
      }

      if (step.ccm !== undefined) {
        const target = step.ccm;
        const fresh = s.ccm.every((i) => i.cfg < 0);
        if (target < 0 || fresh || sc.ccmStrategy === 'Recreate') {
          if (s.ccm.some((i) => i.cfg !== target)) {
            done = false;
            // removal, first deployment or Recreate: all old pods stop, then the new ones start
            out.push([
              `GitOps applies the CCM cfg${target} (${step.label})`,
              { ...s, ccm: s.ccm.map(() => ({ cfg: target, up: false, leases: [] })) },
            ]);
          } else if (target >= 0 && s.ccm.some((i) => !i.up)) {
            done = false;
          }
        } else {
          const anyDown = s.ccm.some((i) => !i.up);
          s.ccm.forEach((inst, n) => {
            if (inst.cfg !== target || !inst.up) {
              done = false;
            }
            if (inst.cfg !== target && inst.up && !anyDown) {
              out.push([`ccm${n} rolls into cfg${target} (${step.label})`, replace('ccm', n, { cfg: target, up: false, leases: [] })]);
            }
          });
        }
      }
      if (done || step.overtaken) {
        out.push([`step "${step.label}" is complete; the next begins`, { ...s, step: s.step + 1 }]);
      }
    }
    return out;
  };

  const parent = new Map<string, [string, string] | null>();
  const queue: State[] = [init];
  parent.set(key(init), null);
  const violations: SimViolation[] = [];
  const seenViolation = new Set<string>();
  const trace = (k: string): string[] => {
    const events: string[] = [];
    for (let cur = parent.get(k); cur; cur = parent.get(cur[0])) {
      events.unshift(cur[1]);
    }
    return events;
  };
  const observed: SimResult['settled'] = {
    leases: { 'kube-controller-manager': new Set(), 'cloud-controller-manager': new Set() },
    runs: { 'kube-controller-manager': new Set(), 'cloud-controller-manager': new Set() },
  };
  for (let qi = 0; qi < queue.length; qi++) {
    if (parent.size > maxStates) {
      throw new Error(`state space above ${maxStates}: bound the scenario`);
    }
    const s = queue[qi];
    const k = key(s);
    const run = runners(s);
    for (const [c, who] of run) {
      if (who.length > 1 && !seenViolation.has(`two ${c}`)) {
        seenViolation.add(`two ${c}`);
        violations.push({ kind: 'two-at-once', controller: c, runners: who, trace: trace(k) });
      }
    }
    const next = successors(s);
    const settled = s.step === steps.length && [...s.kcm, ...s.ccm].every((i) => i.up || i.cfg < 0) && !next.some(([e]) => e.includes(' acquires '));
    if (settled) {
      for (const side of ['kcm', 'ccm'] as const) {
        const component: Component = side === 'kcm' ? 'kube-controller-manager' : 'cloud-controller-manager';
        for (const i of s[side]) {
          for (const l of i.leases) {
            observed.leases[component].add(l);
          }
        }
        for (const [c, who] of run) {
          if (who.some((w) => w.startsWith(side))) {
            observed.runs[component].add(c);
          }
        }
      }
      for (const c of expected) {
        if (run.get(c)!.length === 0 && !seenViolation.has(`none ${c}`)) {
          seenViolation.add(`none ${c}`);
          violations.push({ kind: 'none-after-settling', controller: c, runners: [], trace: trace(k) });
        }
      }
    }
    for (const [event, t] of next) {
      const tk = key(t);
      if (!parent.has(tk)) {
        parent.set(tk, [k, event]);
        queue.push(t);
      }
    }
  }
  return { states: parent.size, violations, settled: observed };
}

/** A violation as text, for test failures. */
export function formatViolation(v: SimViolation): string {
  const what =
    v.kind === 'two-at-once'
      ? `${v.controller} runs in two processes at once: ${v.runners.join(' and ')}`
      : `${v.controller} runs nowhere after the change settled`;
  return `${what}\n  after: ${v.trace.join('\n         ')}`;
}
