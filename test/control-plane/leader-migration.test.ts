// Leader-migration phases replayed with real binaries and the identities a real cluster gives them: the
// kube-controller-manager of v1.30.14 (the last minor that still takes an in-tree --cloud-provider; built by
// `tools/control-plane/build.sh --legacy` with the fake cloud under the in-tree names) as kubeadm's
// system:kube-controller-manager with --use-service-account-credentials, and the fake-cloud CCM with a token of
// the rendered ServiceAccount, after the tree's ServiceAccounts, Roles, ClusterRoles and bindings are applied;
// each with its rendered flags and leader-migration file and scaled lease timings. Each process's
// /healthz?verbose names the controllers it started (kubernetes/kubernetes@v1.30.14
// cmd/kube-controller-manager/app/controllermanager.go and kubernetes/cloud-provider@v0.33.5
// app/controllermanager.go add one check per started controller), so a cloud controller must appear in
// exactly one of them once the leases settle; a request the server refused (in either log) or a lease the
// simulator takes and no process took is a finding. Runs only under `npm run test:control-plane` with the
// legacy binary built.
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as https from 'node:https';
import * as os from 'node:os';
import * as path from 'node:path';
import { Api, ApiObject, applyTree, describeObject, removeAll } from './api';
import { ARGO_MANAGER } from './cluster';
import { ControlPlane, controlPlaneEnabled, freePort, startControlPlane, stopProcess } from './harness';
import {
  acquiredLeases,
  auditedRequests,
  describeRefusal,
  describeRequest,
  identityObjects,
  KCM_USER,
  kubeadmKcmFlags,
  liveBootstrapRbac,
  podFlags,
  refusalsIn,
  serviceAccountKubeconfig,
  userOfKubeconfig,
} from './identities';
import type { RbacObject, UserInfo } from '../oracle';
import type { SimProcess, SimScenario } from '../oracle/leader-migration/simulator';
import type { Tree } from '../oracle/leader-migration/trees';

const LEGACY_VERSION = process.env.LEGACY_KUBE_VERSION ?? 'v1.30.14';
const legacyKcm = (): string =>
  path.join(
    process.env.CCM_GITOPS_CONTROL_PLANE_CACHE ?? path.join(os.homedir(), '.cache', 'ccm-gitops', 'control-plane'),
    LEGACY_VERSION,
    'bin',
    'kube-controller-manager',
  );
const enabled = controlPlaneEnabled() && fs.existsSync(legacyKcm());
if (controlPlaneEnabled() && !enabled)
  process.stdout.write(
    `leader-migration replay skipped: run \`bash tools/control-plane/build.sh --legacy\` to build the ${LEGACY_VERSION} kube-controller-manager\n`,
  );
const describeLm = enabled ? describe : describe.skip;

const DIST = path.join(__dirname, '..', '..', 'dist', 'k8s-openstack-1');
// Leases scaled from 15 s / 10 s / 2 s (the components' defaults) so a hand-over settles in seconds.
const LEASE_FLAGS = ['--leader-elect-lease-duration=4s', '--leader-elect-renew-deadline=3s', '--leader-elect-retry-period=1s'];
/**
 * A replaced process's leases expire 4 s after its last renewal, and a newcomer counts that from when it first
 * reads them: the main lease and then the migration lease can take 10 s or more, so the lists must hold for 20 s.
 */
const STABLE_POLLS = 20;
/** The simulator's controller names (test/oracle/leader-migration/simulator.ts) and its components, by this file's. */
const SIM_NAMES = {
  'service-lb-controller': 'service',
  'cloud-node-lifecycle-controller': 'cloud-node-lifecycle',
  'node-route-controller': 'route',
} as const;
const COMPONENTS = { kcm: 'kube-controller-manager', ccm: 'cloud-controller-manager' } as const;
/** The controllers a leader migration moves, by the names both binaries give their health checks. */
const CLOUD_CONTROLLERS = ['cloud-node-lifecycle-controller', 'node-route-controller', 'service-lb-controller'];

/** The `[+]name ok` lines of a process's /healthz?verbose (its own self-signed certificate, on loopback). */
function healthChecks(port: number): Promise<string[]> {
  return new Promise((resolve) => {
    const req = https.get({ host: '127.0.0.1', port, path: '/healthz?verbose', rejectUnauthorized: false }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString('utf8')));
      res.on('end', () => resolve([...text.matchAll(/^\[\+\]([^ ]+) ok$/gm)].map((m) => m[1]).sort()));
    });
    req.on('error', () => resolve([]));
    req.setTimeout(5_000, () => req.destroy());
  });
}

/** The identity a Forbidden message names: a ServiceAccount's groups, or a static user's. */
function userOf(name: string): UserInfo {
  const sa = /^system:serviceaccount:([^:]+):(.+)$/.exec(name);
  if (sa) return { name, groups: ['system:serviceaccounts', `system:serviceaccounts:${sa[1]}`, 'system:authenticated'] };
  return { name, groups: ['system:authenticated'] };
}

/** One phase as the replay runs it: the rendered objects and the processes the simulator reads from them. */
interface Phase {
  readonly label: string;
  readonly objects: ReadonlyMap<string, ApiObject>;
  readonly scenario: SimScenario;
  /** The cluster's own KCM flags (not rendered). */
  readonly kcmBase: readonly string[];
}

interface PhaseResult {
  /** Where each cloud controller ran once settled: `kcm`, `ccm`. */
  readonly where: Record<string, string[]>;
  /** The leases each process acquired. */
  readonly leases: { readonly kcm: string[]; readonly ccm: string[] };
  /** The users the server authenticated each process's kubeconfig as. */
  readonly users: { readonly kcm: string; readonly ccm?: string };
  /** How many distinct requests of the processes the audit log holds (each decided by the oracle as by the server). */
  readonly audited: number;
  /** Refused requests, identity objects the server refused, leases not taken: each a line. */
  readonly findings: string[];
}

describeLm(
  `leader-migration phases with the real ${LEGACY_VERSION} kube-controller-manager and the fake-cloud CCM, as their rendered identities`,
  () => {
    let cp: ControlPlane;
    let api: Api;
    let dir: string;
    let bootstrap: RbacObject[];
    /** The identity objects applied so far and not pruned, by `Kind namespace/name`. */
    let live = new Map<string, ApiObject>();
    let run = 0;
    const children: ChildProcess[] = [];

    beforeAll(async () => {
      cp = await startControlPlane({ users: [KCM_USER], audit: true });
      api = new Api(cp);
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccm-gitops-leader-migration-'));
      bootstrap = await liveBootstrapRbac(api);
    }, 240_000);

    afterAll(async () => {
      for (const c of children) await stopProcess(c);
      await cp?.stop();
      if (dir !== undefined && process.env.CCM_GITOPS_KEEP_REPLAY !== '1') fs.rmSync(dir, { recursive: true, force: true });
      else if (dir !== undefined) process.stdout.write(`leader-migration replay: logs kept in ${dir}\n`);
    });

    const start = (bin: string, args: string[], log: string): ChildProcess => {
      const out = fs.openSync(path.join(dir, `${log}.log`), 'w');
      const child = spawn(bin, args, { stdio: ['ignore', out, out] });
      fs.closeSync(out);
      children.push(child);
      return child;
    };
    const ccmBin = (): string =>
      path.join(path.dirname(legacyKcm()), '..', '..', process.env.KUBE_VERSION ?? 'v1.33.5', 'bin', 'fake-cloud-controller-manager');
    const readLog = (log: string): string =>
      fs.existsSync(path.join(dir, `${log}.log`)) ? fs.readFileSync(path.join(dir, `${log}.log`), 'utf8') : '';
    const tail = (log: string): string => readLog(log).split('\n').slice(-25).join('\n');

    /** Where each cloud controller runs, once both processes' check lists have been the same for STABLE_POLLS polls. */
    const settle = async (kcmPort: number, ccmPort: number | undefined, kcmLog: string, ccmLog?: string): Promise<Record<string, string[]>> => {
      let where: Record<string, string[]> = {};
      let settled = 0;
      const deadline = Date.now() + 150_000;
      for (;;) {
        const k = await healthChecks(kcmPort);
        const c = ccmPort === undefined ? [] : await healthChecks(ccmPort);
        const next: Record<string, string[]> = {};
        for (const name of CLOUD_CONTROLLERS) next[name] = [...(k.includes(name) ? ['kcm'] : []), ...(c.includes(name) ? ['ccm'] : [])];
        const up = k.length > 0 && (ccmPort === undefined || c.length > 0);
        settled = JSON.stringify(next) === JSON.stringify(where) && up ? settled + 1 : 0;
        where = next;
        if (settled >= STABLE_POLLS) return where;
        if (Date.now() > deadline)
          throw new Error(`not settled in 150 s: ${JSON.stringify(where)}\n--- kcm\n${tail(kcmLog)}${ccmLog ? `\n--- ccm\n${tail(ccmLog)}` : ''}`);
        await new Promise((r) => setTimeout(r, 1_000));
      }
    };

    /**
     * The engine's sync of the phase's identity objects: applied by its field manager, and what the previous
     * phase had and this one drops pruned unless its annotations keep it. Returns the server's refusals.
     */
    const applyIdentities = async (objects: ReadonlyMap<string, ApiObject>): Promise<string[]> => {
      const { pruneDisabled } = await import('../oracle/leader-migration/trees');
      const next = new Map(identityObjects(objects.values()).map((o) => [describeObject(o), o]));
      const applied = await applyTree(api, [...next.values()], ARGO_MANAGER);
      const pruned = [...live.entries()].filter(([k, o]) => !next.has(k) && !pruneDisabled(o));
      await removeAll(
        api,
        pruned.map(([, o]) => o),
      );
      for (const [k] of pruned) live.delete(k);
      live = new Map([...live, ...next]);
      return applied.errors;
    };

    /** The leader-migration flag pointed at a file of this run holding what the process reads; dropped when it reads none. */
    const withFile = (flags: readonly string[], file: string | undefined, name: string): string[] => {
      if (file === undefined) return flags.filter((f) => !f.startsWith('--leader-migration-config='));
      const local = path.join(dir, `${name}-leader-migration.yaml`);
      fs.writeFileSync(local, file);
      return flags.map((f) => (f.startsWith('--leader-migration-config=') ? `--leader-migration-config=${local}` : f));
    };

    /**
     * Runs one phase: its identity objects applied, its KCM and CCM started (the previous ones are stopped),
     * settled, stopped, and their logs read for refused requests and the leases each acquired.
     */
    const runPhase = async (phase: Phase): Promise<PhaseResult> => {
      const { ccmWorkload } = await import('../oracle/leader-migration/trees');
      const { RbacAuthorizer } = await import('../oracle');
      const { simulate } = await import('../oracle/leader-migration/simulator');
      const i = run++;
      const findings = (await applyIdentities(phase.objects)).map((e) => `identity objects: ${e}`);
      const cloudConf = path.join(dir, 'cloud.conf');
      fs.writeFileSync(cloudConf, '');
      const [kcmPort, ccmPort] = [await freePort(), await freePort()];
      const common = (port: number, name: string): string[] => [
        `--secure-port=${port}`,
        `--cert-dir=${path.join(dir, `${i}-${name}-certs`)}`,
        '--bind-address=127.0.0.1',
        ...LEASE_FLAGS,
      ];
      const { kcm, ccm } = phase.scenario as { kcm: SimProcess; ccm?: SimProcess | null };
      // who each process will be (the reviews made here, before the audit log is read from)
      const users: { kcm: string; ccm?: string } = { kcm: await userOfKubeconfig(cp, cp.userKubeconfigs[KCM_USER]) };
      const workload = ccm ? ccmWorkload(phase.objects) : undefined;
      const ccmKubeconfig = path.join(dir, `${i}-ccm.kubeconfig`);
      if (workload) {
        const pod = workload.spec.template.spec;
        await serviceAccountKubeconfig(cp, workload.metadata.namespace, pod.serviceAccountName ?? 'default', ccmKubeconfig);
        users.ccm = await userOfKubeconfig(cp, ccmKubeconfig);
      }
      const auditFrom = fs.statSync(cp.auditLog!).size;
      const processes: ChildProcess[] = [
        // the cluster is older than 1.29, where DisableCloudProviders is off; the 1.30 binary has it on by default
        start(
          legacyKcm(),
          [
            ...phase.kcmBase,
            ...withFile(kcm.flags, kcm.file, `${i}-kcm`).filter((f) => !f.startsWith('--cloud-config=')),
            '--feature-gates=DisableCloudProviders=false',
            ...kubeadmKcmFlags(cp.userKubeconfigs[KCM_USER]),
            ...common(kcmPort, 'kcm'),
          ],
          `${i}-kcm`,
        ),
      ];
      if (ccm && workload) {
        // the rendered container's arguments, with this machine's ports, files and the ServiceAccount's token
        const container = workload.spec.template.spec.containers[0];
        const rendered = [...(container.command ?? []), ...(container.args ?? [])]
          .filter((a: string) => a.startsWith('--'))
          .filter((a: string) => !/^--(secure-port|bind-address|tls-[a-z-]+|kubeconfig|authentication-kubeconfig|authorization-kubeconfig)=/.test(a))
          .map((a: string) => (a.startsWith('--cloud-config=') ? `--cloud-config=${cloudConf}` : a));
        processes.push(
          start(ccmBin(), [...withFile(rendered, ccm.file, `${i}-ccm`), ...podFlags(ccmKubeconfig), ...common(ccmPort, 'ccm')], `${i}-ccm`),
        );
      }
      const where = await settle(kcmPort, workload ? ccmPort : undefined, `${i}-kcm`, workload ? `${i}-ccm` : undefined);
      for (const p of processes) await stopProcess(p);
      const logs = { kcm: readLog(`${i}-kcm`), ccm: workload ? readLog(`${i}-ccm`) : '' };
      // every refusal is a finding; the oracle, over the same live objects and the server's bootstrap policy, says whether it saw it coming
      const oracle = new RbacAuthorizer([...live.values()] as RbacObject[], bootstrap);
      for (const side of ['kcm', 'ccm'] as const) {
        for (const r of refusalsIn(logs[side])) {
          const ours = oracle.allows(userOf(r.user), r) ? 'the oracle allows it' : 'the oracle refuses it too';
          findings.push(`${phase.label}: ${side} refused: ${describeRefusal(r)} (${ours})`);
        }
      }
      // every request the server answered for either process, as the identity that made it: the oracle over the same
      // objects and the bootstrap policy decides it as the server did; and the CCM's own needs no bootstrap binding
      const plain = new RbacAuthorizer([...live.values()] as RbacObject[]);
      const ccmUser = users.ccm;
      const audit = fs.readFileSync(cp.auditLog!).subarray(auditFrom).toString('utf8');
      const requests = auditedRequests(audit.slice(0, audit.lastIndexOf('\n') + 1));
      for (const a of requests) {
        const line = describeRequest(a.user.name, a.request);
        if (a.code !== 403 && !oracle.allows(a.user, a.request)) findings.push(`${phase.label}: the server allowed ${line}, the oracle refuses it`);
        if (a.code === 403 && oracle.allows(a.user, a.request)) findings.push(`${phase.label}: the server refused ${line}, the oracle allows it`);
        if (a.code !== 403 && a.user.name === ccmUser && !plain.allows(a.user, a.request))
          findings.push(`${phase.label}: ${line} is granted by a bootstrap binding only`);
      }
      // every lease the simulator's settled phase holds was taken by a real process, and none it never holds
      const leases = { kcm: acquiredLeases(logs.kcm), ccm: acquiredLeases(logs.ccm) };
      const sim = simulate(phase.scenario).settled.leases;
      const simAll = new Set([...sim['kube-controller-manager'], ...sim['cloud-controller-manager']]);
      for (const lease of simAll)
        if (![...leases.kcm, ...leases.ccm].includes(lease)) findings.push(`${phase.label}: lease ${lease} taken by no process`);
      for (const side of ['kcm', 'ccm'] as const)
        for (const lease of leases[side])
          if (!sim[COMPONENTS[side]].has(lease)) findings.push(`${phase.label}: ${side} took ${lease}, which the simulator never settles it with`);
      return { where, leases, users, audited: requests.length, findings };
    };

    /** The simulator's settled placement of the phase, set against where the real binaries ran each controller. */
    const placementProblems = async (phase: Phase, where: Record<string, string[]>): Promise<string[]> => {
      const { simulate } = await import('../oracle/leader-migration/simulator');
      const sim = simulate(phase.scenario).settled.runs;
      const problems: string[] = [];
      for (const [real, model] of Object.entries(SIM_NAMES)) {
        const simWhere = (['kcm', 'ccm'] as const).filter((k) => sim[COMPONENTS[k]].has(model));
        const differs = where[real].some((w) => !(simWhere as string[]).includes(w)) || (where[real].length === 0) !== (simWhere.length === 0);
        if (differs)
          problems.push(`${phase.label}: ${real} ran in [${where[real].join(', ')}], the simulator settles it in [${simWhere.join(', ')}]`);
      }
      for (const name of CLOUD_CONTROLLERS) if (where[name].length > 1) problems.push(`${phase.label}: ${name} runs in ${where[name].join(' and ')}`);
      for (const name of ['service-lb-controller', 'cloud-node-lifecycle-controller'])
        if (where[name].length === 0) problems.push(`${phase.label}: ${name} runs nowhere`);
      return problems;
    };

    /** A phase of a rendered tree, its processes as the simulator reads them (loaded here: `npm test` skips this file without the renderer). */
    const phaseOf = async (label: string, tree: Tree, caseName: string): Promise<Phase> => {
      const { CASES, caseOptions } = await import('../helpers/rendered-phases');
      const { treeScenario } = await import('../oracle/leader-migration/trees');
      const c = CASES.find((x) => x.name === caseName)!;
      return {
        label,
        objects: tree.objects as ReadonlyMap<string, ApiObject>,
        scenario: treeScenario(tree, tree, [], caseOptions(c)),
        kcmBase: c.kcmBase,
      };
    };

    it('dist/k8s-openstack-1 (leader-migration-ccm): each cloud controller runs in one process, and neither is refused a request', async () => {
      // GIVEN the committed tree's identity objects applied, its KCM as CONTROL-PLANE.md sets it (kubeadm's identity) and its CCM with its ServiceAccount's token
      const { readTree } = await import('../oracle/leader-migration/trees');
      const phase = await phaseOf('k8s-openstack-1', readTree(DIST), 'kubernetes OpenStack 1.25');
      // WHEN both run until the leases settle
      const { where, leases, users, audited, findings } = await runPhase(phase);
      process.stdout.write(`leader-migration replay: ${JSON.stringify(where)}; leases ${JSON.stringify(leases)}; ${audited} requests audited\n`);
      // THEN the server knew each process as the identity a cluster gives it
      expect(users).toEqual({ kcm: 'system:kube-controller-manager', ccm: 'system:serviceaccount:kube-system:cloud-controller-manager' });
      // AND each process took its main lease, one of them the migration lease, and the server refused neither a request
      expect(findings).toEqual([]);
      expect(leases.kcm).toContain('kube-system/kube-controller-manager');
      expect(leases.ccm).toContain('kube-system/cloud-controller-manager');
      expect([...leases.kcm, ...leases.ccm].filter((l) => l === 'kube-system/cloud-provider-extraction-migration')).toHaveLength(1);
      // AND whichever holds the migration lease runs both, as its own file assigns them to itself
      for (const name of CLOUD_CONTROLLERS) expect({ name, runs: where[name].length <= 1 }).toEqual({ name, runs: true });
      expect(where['service-lb-controller']).toHaveLength(1);
      expect(where['cloud-node-lifecycle-controller']).toEqual(where['service-lb-controller']);
      await removeAll(api, [...live.values()].reverse());
      live = new Map();
    }, 300_000);

    it('kubernetes AWS 1.26: in-tree, each leader-migration phase, external and the way back run the cloud controllers once, as their rendered identities', async () => {
      // GIVEN every phase of the case rendered
      const { CASES, renderPhases } = await import('../helpers/rendered-phases');
      const name = 'kubernetes AWS 1.26 (DaemonSet, rolling)';
      const trees = renderPhases(
        CASES.find((x) => x.name === name)!,
        path.join(dir, 'render'),
      );
      const order = [...trees.keys()];
      const walk = [...order, ...order.slice(0, -1).reverse()];
      const seen: string[] = [];
      const problems: string[] = [];
      // WHEN the engine syncs each phase's identity objects and that phase's KCM and CCM replace the previous ones
      for (const label of walk) {
        const phase = await phaseOf(label, trees.get(label)!, name);
        const { where, leases, users, audited, findings } = await runPhase(phase);
        if (users.kcm !== KCM_USER) problems.push(`${label}: the KCM ran as ${users.kcm}`);
        seen.push(`${label}: ${JSON.stringify(where)} leases ${JSON.stringify(leases)}; ${audited} requests audited`);
        // THEN no cloud controller runs twice, the service and node-lifecycle controllers run somewhere, where
        // the simulator settles them; every lease it holds was taken, and the server refused no request
        problems.push(...(await placementProblems(phase, where)), ...findings);
      }
      process.stdout.write(`leader-migration walk:\n  ${seen.join('\n  ')}\n`);
      expect(problems).toEqual([]);
      expect(walk.length).toBeGreaterThan(4);
    }, 900_000);
  },
);
