/**
 * Who holds which lease and runs which cloud controllers after each step of a
 * phase change, and its Mermaid diagram for MIGRATION.md. Pure: no cdk8s import.
 *
 * The rules are the controller managers' (kubernetes/cloud-provider@v0.30.0
 * app/controllermanager.go, kubernetes/controller-manager@v0.30.0
 * pkg/leadermigration): a process holds its main lease before it contends for
 * the migration lease; a controller its file gives to it runs under the
 * migration lease, one given to the other component does not run, one not
 * listed runs under the main lease; a file it cannot read or decode, or lease
 * timings client-go refuses, end it.
 * The protocol simulator (test/oracle/leader-migration/) explores every
 * interleaving of the same steps and its test asserts that what it observes
 * once each step has settled is what this model draws.
 */
import { ProcessConfig, PlanStep, PhaseTransition } from './steps';
import { LEADER_MIGRATION_API_SINCE, parseLeaderMigrationConfig } from './leader-migration-config';

/** A cloud controller, by its role. */
export type CloudController = 'service' | 'route' | 'cloud-node-lifecycle' | 'node-ipam';
export const CLOUD_CONTROLLERS: readonly CloudController[] = ['service', 'route', 'cloud-node-lifecycle', 'node-ipam'];

export type ControllerManager = 'kube-controller-manager' | 'cloud-controller-manager';

/** One step for the model: the processes it moves to. */
export interface ModelStep {
  readonly label: string;
  /** Every kube-controller-manager restarts into this. */
  readonly kcm?: ProcessConfig;
  /** The CCM becomes this (null: removed). */
  readonly ccm?: ProcessConfig | null;
  /** The next step may overtake this KCM roll (no check waits for it): KCMs are then of either configuration. */
  readonly overtaken?: boolean;
}

export interface StepModelInput {
  readonly kcmMinor: number;
  readonly ccmMinor: number;
  /** The KCM's flags ccm-gitops does not render (e.g. `--allocate-node-cidrs`). */
  readonly kcmBaseFlags: readonly string[];
  readonly kcm: ProcessConfig;
  /** The CCM before the change (undefined: not deployed). */
  readonly ccm?: ProcessConfig;
  readonly steps: readonly ModelStep[];
}

/** What may be the case once a step has settled (over every order of lease acquisitions and failovers). */
export interface StepHolding {
  readonly label: string;
  /** The leases each controller manager may hold. */
  readonly leases: Readonly<Record<ControllerManager, readonly string[]>>;
  /** The controllers each may run. */
  readonly runs: Readonly<Record<ControllerManager, readonly CloudController[]>>;
}

interface Parsed {
  readonly component: ControllerManager;
  readonly up: boolean;
  readonly leaderElect: boolean;
  readonly mainLease: string;
  readonly migrationLease?: string;
  readonly placement: Readonly<Record<CloudController, 'migrated' | 'main' | 'unowned'>>;
  readonly capable: ReadonlySet<CloudController>;
}

function flagMap(flags: readonly string[]): Map<string, string> {
  const m = new Map<string, string>();
  for (const f of flags) {
    const body = f.replace(/^--/, '');
    const eq = body.indexOf('=');
    m.set(eq < 0 ? body : body.slice(0, eq), eq < 0 ? 'true' : body.slice(eq + 1));
  }
  return m;
}

/** A controller's canonical name in a minor (kubernetes/cloud-provider@v0.28.0 names/controller_names.go renamed them in 1.28). */
export function canonicalControllerName(c: CloudController, minor: number): string {
  const old: Record<CloudController, string> = {
    service: 'service',
    route: 'route',
    'cloud-node-lifecycle': 'cloud-node-lifecycle',
    'node-ipam': 'nodeipam',
  };
  const neu: Record<CloudController, string> = {
    service: 'service-lb-controller',
    route: 'node-route-controller',
    'cloud-node-lifecycle': 'cloud-node-lifecycle-controller',
    'node-ipam': 'node-ipam-controller',
  };
  return (minor >= 28 ? neu : old)[c];
}

/** Whether k8s.io/controller-manager of a minor decodes the file's apiVersion (config/v1alpha1 from v0.21.0, v1beta1 from v0.22.0, v1 from v0.24.0). */
export function leaderMigrationDecodable(file: string, minor: number): boolean {
  const version = /^apiVersion: *controllermanager\.config\.k8s\.io\/(\S+)$/m.exec(file)?.[1];
  const since = version === undefined ? undefined : LEADER_MIGRATION_API_SINCE[version];
  return since !== undefined && minor >= since;
}

function owners(file: string): { leaderName: string; owners: Map<string, string> } {
  const config = parseLeaderMigrationConfig(file).config;
  return { leaderName: config?.leaderName ?? '', owners: new Map((config?.controllerLeaders ?? []).map((l) => [l.name, l.component])) };
}

const EXITED = (component: ControllerManager): Parsed => ({
  component,
  up: false,
  leaderElect: false,
  mainLease: '',
  placement: Object.fromEntries(CLOUD_CONTROLLERS.map((c) => [c, 'unowned'])) as Record<CloudController, 'unowned'>,
  capable: new Set(),
});

/** A Go duration of seconds and minutes (`137s`, `1m30s`), in seconds; NaN when unreadable. */
function seconds(d: string): number {
  const m = /^(?:(\d+)m)?(?:(\d+(?:\.\d+)?)s)?$/.exec(d);
  return m && d !== '' ? Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0) : NaN;
}

/**
 * Whether client-go accepts the lease timings (defaults 15s, 10s, 2s:
 * kubernetes/component-base@v0.30.0 config/v1alpha1/defaults.go); it refuses
 * leaseDuration <= renewDeadline and renewDeadline <= retryPeriod x 1.2
 * (kubernetes/client-go@v0.30.0 tools/leaderelection/leaderelection.go `NewLeaderElector`).
 */
export function leaseTimingsValid(flags: ReadonlyMap<string, string>): boolean {
  const lease = seconds(flags.get('leader-elect-lease-duration') ?? '15s');
  const renew = seconds(flags.get('leader-elect-renew-deadline') ?? '10s');
  const retry = seconds(flags.get('leader-elect-retry-period') ?? '2s');
  return lease > renew && renew > 1.2 * retry && retry > 0;
}

function parse(component: ControllerManager, minor: number, p: ProcessConfig, base: readonly string[]): Parsed {
  const f = flagMap([...base, ...p.flags]);
  const leaderElect = (f.get('leader-elect') ?? 'true') === 'true';
  const ns = f.get('leader-elect-resource-namespace') ?? 'kube-system';
  const lmOn = leaderElect && f.get('enable-leader-migration') === 'true';
  if (
    (lmOn && (p.file === undefined ? f.has('leader-migration-config') : !leaderMigrationDecodable(p.file, minor))) ||
    (leaderElect && !leaseTimingsValid(f))
  ) {
    return EXITED(component);
  }
  const lm = lmOn && p.file !== undefined ? owners(p.file) : undefined;
  const placement = {} as Record<CloudController, 'migrated' | 'main' | 'unowned'>;
  for (const c of CLOUD_CONTROLLERS) {
    const owner = lm?.owners.get(canonicalControllerName(c, minor));
    placement[c] = owner === undefined ? 'main' : owner === component || owner === '*' ? 'migrated' : 'unowned';
  }
  const controllers = (f.get('controllers') ?? '*').split(',');
  const ipamOff = controllers.includes('-nodeipam') || controllers.includes('-node-ipam-controller');
  const allocate = f.get('allocate-node-cidrs') === 'true';
  const routes = (f.get('configure-cloud-routes') ?? 'true') === 'true';
  const capable = new Set<CloudController>();
  if (component === 'kube-controller-manager') {
    // the KCM's cloud controllers need an in-tree provider; its route controller also --allocate-node-cidrs
    const provider = f.get('cloud-provider') ?? '';
    if (provider !== '' && provider !== 'external') {
      capable.add('service').add('cloud-node-lifecycle');
      if (allocate && routes) {
        capable.add('route');
      }
    }
  } else {
    capable.add('service').add('cloud-node-lifecycle');
    if (routes) {
      capable.add('route');
    }
  }
  if (allocate && !ipamOff) {
    capable.add('node-ipam');
  }
  return {
    component,
    up: true,
    leaderElect,
    mainLease: `${ns}/${component}`,
    ...(lm ? { migrationLease: `${ns}/${lm.leaderName}` } : {}),
    placement,
    capable,
  };
}

/** The holdings possible with the KCMs' main-lease holder of configuration `k` and the CCM `c`. */
function outcomes(
  k: Parsed,
  c: Parsed | undefined,
  into: { leases: Record<ControllerManager, Set<string>>; runs: Record<ControllerManager, Set<CloudController>> },
): void {
  const procs = [k, ...(c ? [c] : [])].filter((p) => p.up);
  // each migration lease goes to one of its contenders (every contender holds its main lease once settled)
  const names = [...new Set(procs.filter((p) => p.leaderElect && p.migrationLease).map((p) => p.migrationLease!))];
  const choices = names.map((n) => procs.filter((p) => p.leaderElect && p.migrationLease === n));
  const pick = (i: number, held: Map<string, Parsed>): void => {
    if (i < names.length) {
      for (const p of choices[i]) {
        pick(i + 1, new Map(held).set(names[i], p));
      }
      return;
    }
    for (const p of procs) {
      const mine = p.leaderElect ? [p.mainLease, ...names.filter((n) => held.get(n) === p)] : [];
      for (const l of mine) {
        into.leases[p.component].add(l);
      }
      for (const ctl of p.capable) {
        const where = p.placement[ctl];
        const runs = !p.leaderElect
          ? where !== 'unowned'
          : where === 'main' || (where === 'migrated' && p.migrationLease !== undefined && held.get(p.migrationLease) === p);
        if (runs) {
          into.runs[p.component].add(ctl);
        }
      }
    }
  };
  pick(0, new Map());
}

/** A component's leases, its main lease first. */
function mainFirst(leases: Set<string>, component: ControllerManager): string[] {
  const rank = (l: string) => (l.endsWith(`/${component}`) ? 0 : 1);
  return [...leases].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** What may hold and run before the change (index 0) and once each step has settled. */
export function phaseChangeHoldings(input: StepModelInput): StepHolding[] {
  const kcmOf = (p: ProcessConfig) => parse('kube-controller-manager', input.kcmMinor, p, input.kcmBaseFlags);
  const ccmOf = (p: ProcessConfig) => parse('cloud-controller-manager', input.ccmMinor, p, []);
  let kcms: Parsed[] = [kcmOf(input.kcm)];
  let ccm: Parsed | undefined = input.ccm ? ccmOf(input.ccm) : undefined;
  const holding = (label: string): StepHolding => {
    const into = {
      leases: { 'kube-controller-manager': new Set<string>(), 'cloud-controller-manager': new Set<string>() },
      runs: { 'kube-controller-manager': new Set<CloudController>(), 'cloud-controller-manager': new Set<CloudController>() },
    };
    for (const k of kcms) {
      outcomes(k, ccm, into);
    }
    const sorted = <T extends string>(s: Set<T>, order?: readonly T[]) =>
      [...s].sort((a, b) => (order ? order.indexOf(a) - order.indexOf(b) : a < b ? -1 : a > b ? 1 : 0));
    return {
      label,
      leases: {
        'kube-controller-manager': mainFirst(into.leases['kube-controller-manager'], 'kube-controller-manager'),
        'cloud-controller-manager': mainFirst(into.leases['cloud-controller-manager'], 'cloud-controller-manager'),
      },
      runs: {
        'kube-controller-manager': sorted(into.runs['kube-controller-manager'], CLOUD_CONTROLLERS),
        'cloud-controller-manager': sorted(into.runs['cloud-controller-manager'], CLOUD_CONTROLLERS),
      },
    };
  };
  const out = [holding('before')];
  for (const s of input.steps) {
    if (s.kcm) {
      // an overtaken roll leaves KCMs of the old and the new configuration until the next one completes
      const next = kcmOf(s.kcm);
      kcms = s.overtaken ? [kcms[kcms.length - 1], next] : [next];
    }
    if (s.ccm !== undefined) {
      ccm = s.ccm === null ? undefined : ccmOf(s.ccm);
    }
    out.push(holding(s.label));
  }
  return out;
}

/** Whether a step's checks wait for every KCM to run its change (else the next step may overtake the roll). */
export function kcmRollAwaited(step: Pick<PlanStep, 'checks'>): boolean {
  return step.checks.some((c) => /every kube-controller-manager/.test(c.check));
}

/** The holdings as a Mermaid sequence diagram: a note per step and controller manager. */
export function holdingsMermaid(holdings: readonly StepHolding[]): string[] {
  const side = (h: StepHolding, m: ControllerManager) => {
    const leases = h.leases[m];
    const runs = h.runs[m];
    if (leases.length === 0 && runs.length === 0) {
      return 'holds no lease, runs no cloud controller';
    }
    return `may hold ${leases.length > 0 ? leases.join(' and ') : 'no lease'}<br/>may run ${runs.length > 0 ? runs.join(', ') : 'no cloud controller'}`;
  };
  const lines = ['```mermaid', 'sequenceDiagram', '  participant KCM as kube-controller-manager', '  participant CCM as cloud-controller-manager'];
  holdings.forEach((h, i) => {
    // Mermaid ends a statement at ';' and a note at '#': the label keeps neither
    lines.push(`  Note over KCM,CCM: ${i === 0 ? 'before the change' : `after step ${i} (${h.label.replace(/[;#]/g, ',')})`}`);
    lines.push(`  Note over KCM: ${side(h, 'kube-controller-manager')}`);
    lines.push(`  Note over CCM: ${side(h, 'cloud-controller-manager')}`);
  });
  lines.push('```');
  return lines;
}

const FLAG = /--[a-z][a-z0-9-]*(=[^\s\\'"]*)?/g;
const ELECTION_AND_CLOUD =
  /^--(leader-elect|leader-elect-resource-namespace|leader-elect-lease-duration|leader-elect-renew-deadline|leader-elect-retry-period|configure-cloud-routes|allocate-node-cidrs|controllers)(=|$)/;

/** The rendered CCM's flags that decide its leases and controllers (leader migration aside), from its first container's command and args. */
export function ccmElectionFlags(workload: { readonly [key: string]: unknown }): string[] {
  const spec = workload.spec as { template?: { spec?: { containers?: { command?: string[]; args?: string[] }[] } } } | undefined;
  const c = spec?.template?.spec?.containers?.[0];
  const text = [...(c?.command ?? []), ...(c?.args ?? [])].join(' ');
  return (text.match(FLAG) ?? []).filter((f) => ELECTION_AND_CLOUD.test(f));
}

/** The model's steps of a phase change: each step's KCM, its CCM (as rendered for `to`), and whether the next step may overtake its KCM roll. */
export function modelSteps(t: PhaseTransition, ccmTo: ProcessConfig | undefined): ModelStep[] {
  return t.steps.map((s) => ({
    label: s.when,
    ...(s.kcm ? { kcm: s.kcm, ...(kcmRollAwaited(s) ? {} : { overtaken: true }) } : {}),
    ...(s.ccm ? { ccm: ccmTo ?? null } : {}),
  }));
}
