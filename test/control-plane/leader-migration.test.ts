// The rendered leader-migration-ccm phase of dist/k8s-openstack-1 replayed with real binaries: the
// kube-controller-manager of v1.30.14 (the last minor that still takes an in-tree --cloud-provider; built by
// `tools/control-plane/build.sh --legacy` with the fake cloud under the in-tree names) and the fake-cloud CCM,
// each with its rendered flags and leader-migration file and scaled lease timings. Each process's
// /healthz?verbose names the controllers it started (kubernetes/kubernetes@v1.30.14
// cmd/kube-controller-manager/app/controllermanager.go and kubernetes/cloud-provider@v0.33.5
// app/controllermanager.go add one check per started controller), so a cloud controller must appear in
// exactly one of them once the leases settle. Runs only under `npm run test:control-plane` with the legacy
// binary built.
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as https from 'node:https';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse } from 'yaml';
import { ControlPlane, controlPlaneEnabled, freePort, startControlPlane, stopProcess } from './harness';

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
const SHORT = { 'kube-controller-manager': 'kcm', 'cloud-controller-manager': 'ccm' } as const;
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

/** The kube-controller-manager block of CONTROL-PLANE.md: its flags and the leader-migration file it mounts. */
function renderedKcm(): { flags: string[]; migration: string } {
  const text = fs.readFileSync(path.join(DIST, 'CONTROL-PLANE.md'), 'utf8');
  const block = text.slice(text.indexOf('kube-controller-manager ('), text.indexOf('```', text.indexOf('kube-controller-manager (')));
  const flags = block
    .slice(0, block.indexOf('\n\n'))
    .split('\n')
    .slice(1)
    .map((l) => l.trim());
  const file = block.slice(block.indexOf('/etc/kubernetes/leader-migration.yaml ('));
  const migration = file
    .split('\n')
    .slice(1)
    .map((l) => l.slice(2))
    .join('\n');
  return { flags, migration };
}

describeLm(`the rendered leader-migration-ccm phase with the real ${LEGACY_VERSION} kube-controller-manager and the fake-cloud CCM`, () => {
  let cp: ControlPlane;
  let dir: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    cp = await startControlPlane();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccm-gitops-leader-migration-'));
  }, 240_000);

  afterAll(async () => {
    for (const c of children) await stopProcess(c);
    await cp?.stop();
    if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
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
  const tail = (log: string): string =>
    fs
      .readFileSync(path.join(dir, `${log}.log`), 'utf8')
      .split('\n')
      .slice(-25)
      .join('\n');

  it('runs each cloud controller in exactly one process once the leases settle', async () => {
    // GIVEN the rendered flags and leader-migration files of both components, on this machine's paths
    const kcm = renderedKcm();
    const cloudConf = path.join(dir, 'cloud.conf');
    fs.writeFileSync(cloudConf, '');
    const kcmMigration = path.join(dir, 'kcm-leader-migration.yaml');
    fs.writeFileSync(kcmMigration, kcm.migration);
    const cm = parse(fs.readFileSync(path.join(DIST, '03-config', 'configmap.kube-system.ccm-leader-migration.yaml'), 'utf8'));
    const ccmMigration = path.join(dir, 'ccm-leader-migration.yaml');
    fs.writeFileSync(ccmMigration, cm.data['config.yaml']);
    const deployment = parse(
      fs.readFileSync(path.join(DIST, '04-workloads', 'deployment.kube-system.openstack-cloud-controller-manager.yaml'), 'utf8'),
    );
    const ccmArgs: string[] = deployment.spec.template.spec.containers[0].args.slice(1);
    const local = (flag: string): string => (flag.startsWith('--cloud-config=') ? `--cloud-config=${cloudConf}` : flag);
    const [kcmPort, ccmPort] = [await freePort(), await freePort()];
    const common = (port: number, name: string): string[] => [
      `--kubeconfig=${cp.kubeconfig}`,
      `--secure-port=${port}`,
      `--cert-dir=${path.join(dir, `${name}-certs`)}`,
      '--authentication-skip-lookup=true',
      ...LEASE_FLAGS,
    ];

    // WHEN both start: the KCM as the plan's step sets it (the cluster is 1.25, where DisableCloudProviders is
    // off; the 1.30 binary has it on by default, as the plan renders for 1.29-1.30 clusters), the CCM as rendered
    start(
      legacyKcm(),
      [
        ...kcm.flags.map(local).map((f) => (f.startsWith('--leader-migration-config=') ? `--leader-migration-config=${kcmMigration}` : f)),
        '--feature-gates=DisableCloudProviders=false',
        '--use-service-account-credentials=false',
        '--bind-address=127.0.0.1',
        ...common(kcmPort, 'kcm'),
      ],
      'kcm',
    );
    start(
      ccmBin(),
      [
        ...ccmArgs
          .map(local)
          .filter((f) => !f.startsWith('--secure-port=') && !f.startsWith('--tls-'))
          .map((f) => (f.startsWith('--leader-migration-config=') ? `--leader-migration-config=${ccmMigration}` : f)),
        ...common(ccmPort, 'ccm'),
      ],
      'ccm',
    );

    // THEN once both have started their controllers, each cloud controller runs in one of them, never both
    const where = await settle(kcmPort, ccmPort, 'kcm', 'ccm');
    const leases = await cp.request('GET', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases');
    const holders = Object.fromEntries(
      (leases.body.items as { metadata: { name: string }; spec: { holderIdentity?: string } }[]).map((l) => [
        l.metadata.name,
        l.spec.holderIdentity ?? '',
      ]),
    );
    process.stdout.write(`leader-migration replay: ${JSON.stringify(where)}; leases ${JSON.stringify(Object.keys(holders).sort())}\n`);
    expect(Object.keys(holders)).toEqual(
      expect.arrayContaining(['cloud-controller-manager', 'cloud-provider-extraction-migration', 'kube-controller-manager']),
    );
    for (const name of CLOUD_CONTROLLERS) expect({ name, runs: where[name].length <= 1 }).toEqual({ name, runs: true });
    // whichever holds the migration lease runs both, as its own file assigns them to itself
    expect(where['service-lb-controller']).toHaveLength(1);
    expect(where['cloud-node-lifecycle-controller']).toEqual(where['service-lb-controller']);
    for (const child of children) await stopProcess(child);
  }, 300_000);

  it('kubernetes AWS 1.26: in-tree, each leader-migration phase, external and the way back run the cloud controllers once in every phase', async () => {
    // GIVEN every phase of the case rendered, and each phase's processes as the simulator reads them from the trees
    // (loaded here, not at the top: `npm test` skips this file without loading the renderer)
    const { CASES, renderPhases, caseOptions } = await import('../helpers/rendered-phases');
    const { treeScenario } = await import('../oracle/leader-migration/trees');
    const { simulate } = await import('../oracle/leader-migration/simulator');
    const c = CASES.find((x) => x.name === 'kubernetes AWS 1.26 (DaemonSet, rolling)')!;
    const trees = renderPhases(c, path.join(dir, 'render'));
    const order = [...trees.keys()];
    const walk = [...order, ...order.slice(0, -1).reverse()];
    const seen: string[] = [];
    const problems: string[] = [];
    let running: ChildProcess[] = [];
    // WHEN each phase's KCM and CCM run (the previous ones stopped first), with the files they read
    for (const [i, phase] of walk.entries()) {
      for (const p of running) await stopProcess(p);
      const sc = treeScenario(trees.get(phase)!, trees.get(phase)!, [], caseOptions(c));
      const fileFlag = (proc: { flags: readonly string[]; file?: string }, name: string): string[] => {
        if (proc.file === undefined) return proc.flags.filter((f) => !f.startsWith('--leader-migration-config='));
        const file = path.join(dir, `${i}-${name}-leader-migration.yaml`);
        fs.writeFileSync(file, proc.file);
        return proc.flags.map((f) => (f.startsWith('--leader-migration-config=') ? `--leader-migration-config=${file}` : f));
      };
      const [kcmPort, ccmPort] = [await freePort(), await freePort()];
      const common = (port: number, name: string): string[] => [
        `--kubeconfig=${cp.kubeconfig}`,
        `--secure-port=${port}`,
        `--cert-dir=${path.join(dir, `${i}-${name}-certs`)}`,
        '--authentication-skip-lookup=true',
        '--bind-address=127.0.0.1',
        '--use-service-account-credentials=false',
        ...LEASE_FLAGS,
      ];
      running = [
        start(
          legacyKcm(),
          [
            ...c.kcmBase,
            ...fileFlag(sc.kcm, 'kcm').filter((f) => !f.startsWith('--cloud-config=')),
            '--feature-gates=DisableCloudProviders=false',
            ...common(kcmPort, 'kcm'),
          ],
          `${i}-kcm`,
        ),
      ];
      if (sc.ccm) running.push(start(ccmBin(), ['--cloud-provider=aws', ...fileFlag(sc.ccm, 'ccm'), ...common(ccmPort, 'ccm')], `${i}-ccm`));
      const where = await settle(kcmPort, sc.ccm ? ccmPort : undefined, `${i}-kcm`, sc.ccm ? `${i}-ccm` : undefined);
      seen.push(`${phase}: ${JSON.stringify(where)}`);
      // AND the simulator's settled state of the phase allows exactly what ran: a controller the real binaries
      // ran where the simulator never does, or one they ran nowhere that the simulator runs, is a difference
      const sim = simulate(sc).settled.runs;
      for (const [real, model] of Object.entries(SIM_NAMES)) {
        const simWhere = (['kube-controller-manager', 'cloud-controller-manager'] as const)
          .filter((k) => sim[k].has(model))
          .map((k): string => SHORT[k]);
        const differs = where[real].some((w) => !simWhere.includes(w)) || (where[real].length === 0) !== (simWhere.length === 0);
        if (differs) problems.push(`${phase}: ${real} ran in [${where[real].join(', ')}], the simulator settles it in [${simWhere.join(', ')}]`);
      }
      // THEN no cloud controller runs twice, and the service and node-lifecycle controllers run somewhere
      for (const name of CLOUD_CONTROLLERS) if (where[name].length > 1) problems.push(`${phase}: ${name} runs in ${where[name].join(' and ')}`);
      for (const name of ['service-lb-controller', 'cloud-node-lifecycle-controller'])
        if (where[name].length === 0) problems.push(`${phase}: ${name} runs nowhere`);
    }
    process.stdout.write(`leader-migration walk:\n  ${seen.join('\n  ')}\n`);
    expect(problems).toEqual([]);
    expect(walk.length).toBeGreaterThan(4);
  }, 900_000);
});
