/**
 * The simulator driven by what `ccm-gitops synth` actually writes: for each
 * phase, the CCM's container flags and LeaderMigrationConfiguration from the
 * rendered Deployment/DaemonSet and ConfigMap, its rollout strategy, the KCM's
 * flags and file from the rendered plan (.migration.json; on OpenShift the
 * MachineConfig must carry the same file), and the ordered steps of the
 * plan's `enter` (forward) and `rollback` (back) transitions.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'yaml';
import { runCli } from '../src/cli';
import { MIGRATION_PHASES } from '../src/migration';
import { captureIo, kubernetesSpec, platformSpec, useTempDir, writeFile } from './helpers';
import { Controller, formatViolation, simulate, SimProcess, SimScenario } from './oracle/leader-migration/simulator';
import { OPENSHIFT_CCM_BASE, upstreamCcmControllers } from './oracle/leader-migration/scenario';

interface Rendered {
  readonly plan: any;
  readonly kcm: SimProcess;
  /** The KCM as CONTROL-PLANE.md tells the administrator to run it (kubernetes distribution). */
  readonly controlPlaneKcm?: SimProcess;
  readonly ccm?: SimProcess;
  readonly strategy: 'Recreate' | 'RollingUpdate';
  readonly machineConfigFile?: string;
}

const FLAG = /--[a-z][a-z0-9-]*(=[^\s\\'"]*)?/g;
const RELEVANT = /^--(leader-elect|leader-elect-resource-namespace|enable-leader-migration|leader-migration-config|configure-cloud-routes|allocate-node-cidrs|controllers|cloud-provider)(=|$)/;

function render(dir: string, spec: Record<string, unknown>, files: Record<string, string>): Rendered {
  const clusters = path.join(dir, 'clusters');
  const out = path.join(dir, 'dist');
  fs.mkdirSync(clusters, { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    writeFile(clusters, name, content);
  }
  writeFile(clusters, 'c.yaml', spec);
  const cap = captureIo();
  expect([runCli(['synth', '--clusters', clusters, '--out', out, '-q'], cap.io, {}), cap.stderr()]).toEqual([0, '']);
  const all = new Map<string, any>();
  const walk = (d: string) => {
    for (const name of fs.readdirSync(d).sort()) {
      const full = path.join(d, name);
      if (fs.statSync(full).isDirectory()) {
        walk(full);
      } else if (name.endsWith('.yaml') && name !== 'kustomization.yaml') {
        const o = parse(fs.readFileSync(full, 'utf8'));
        all.set(`${o.kind} ${o.metadata.name}`, o);
      }
    }
  };
  walk(path.join(out, 'c'));
  const plan = JSON.parse(fs.readFileSync(path.join(out, 'c', '.migration.json'), 'utf8'));
  const workload = [...all.values()].find((o) => (o.kind === 'Deployment' || o.kind === 'DaemonSet') && /cloud-controller-manager$/.test(o.metadata.name));
  let ccm: SimProcess | undefined;
  if (workload) {
    const c = workload.spec.template.spec.containers[0];
    const text = [...(c.command ?? []), ...(c.args ?? [])].join(' ');
    const flags = (text.match(FLAG) ?? []).filter((f) => RELEVANT.test(f) && !f.startsWith('--cloud-provider'));
    const cm = [...all.values()].find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'ccm-leader-migration');
    ccm = { flags, ...(cm ? { file: cm.data['config.yaml'] } : {}) };
  }
  const kcmPart = plan.components.find((x: any) => x.component === 'kube-controller-manager');
  const kcmFile = plan.leaderMigration?.configurations.find((x: any) => x.component === 'kube-controller-manager')?.file;
  const mc = all.get('MachineConfig 99-master-kcm-leader-migration');
  const cpFile = path.join(out, 'c', 'CONTROL-PLANE.md');
  return {
    plan,
    ...(fs.existsSync(cpFile) ? { controlPlaneKcm: controlPlaneKcm(fs.readFileSync(cpFile, 'utf8')) } : {}),
    kcm: { flags: kcmPart.flags, ...(kcmFile ? { file: kcmFile } : {}) },
    ...(ccm ? { ccm } : {}),
    strategy: workload?.spec.strategy?.type === 'Recreate' ? 'Recreate' : 'RollingUpdate',
    ...(mc ? { machineConfigFile: decodeURIComponent(mc.spec.config.storage.files[0].contents.source.replace(/^data:text\/plain;charset=utf-8,/, '')) } : {}),
  };
}

/**
 * The KCM as CONTROL-PLANE.md has the administrator run it: the kubeadm
 * ClusterConfiguration's controllerManager.extraArgs, the leader-migration
 * file it says to write, and any KCM flag the prose tells them to set.
 */
function controlPlaneKcm(text: string): SimProcess {
  const rke2 = /## RKE2\n[\s\S]*?```yaml\n([\s\S]*?)```/.exec(text)?.[1];
  if (rke2) {
    // an RKE2 server: the in-tree provider by name, the other KCM flags as kube-controller-manager-arg
    const doc = parse(rke2) ?? {};
    const file = /^# Write this file to \S+ on every server[^\n]*\n((?:#   [^\n]*\n)+)/m.exec(rke2)?.[1]?.replace(/^#   /gm, '');
    return {
      flags: [...(doc['cloud-provider-name'] ? [`--cloud-provider=${doc['cloud-provider-name']}`] : []), ...((doc['kube-controller-manager-arg'] ?? []) as string[]).map((a) => `--${a}`)],
      ...(file ? { file } : {}),
    };
  }
  const kubeadm = /## kubeadm\n[\s\S]*?```yaml\n([\s\S]*?)```/.exec(text)![1]!;
  const docs = kubeadm.split(/^---$/m).map((d) => parse(d)).filter((d) => d?.kind === 'ClusterConfiguration');
  const extraArgs = docs[0].controllerManager.extraArgs as Record<string, string> | { name: string; value: string }[];
  const pairs = Array.isArray(extraArgs) ? extraArgs.map((a) => [a.name, a.value] as const) : Object.entries(extraArgs);
  const prose = text.replace(/```[\s\S]*?```/g, '');
  const told = [...prose.matchAll(/`(--(?:allocate-node-cidrs|controllers)=[^`]+)`/g)].map((m) => m[1]!);
  const file = /^# Write this file to \S+ on every control-plane node[^\n]*\n((?:#   [^\n]*\n)+)/m.exec(kubeadm)?.[1]?.replace(/^#   /gm, '');
  return { flags: [...pairs.map(([k, v]) => `--${k}=${v}`), ...told], ...(file ? { file } : {}) };
}

function scenario(from: Rendered, to: Rendered, steps: any[], kcmMinor: number, ccmMinor: number, kcmBaseFlags: string[], required: Controller[], ccmControllers?: readonly Controller[]): SimScenario {
  // the kubernetes KCM is what CONTROL-PLANE.md makes of it; OpenShift's is the plan's (the operator applies it)
  const kcmOf = (r: Rendered) => r.controlPlaneKcm ?? r.kcm;
  return {
    kcmMinor, ccmMinor, kcmBaseFlags, ccmStrategy: (to.ccm ? to : from).strategy, required, ...(ccmControllers ? { ccmControllers } : {}),
    kcm: kcmOf(from),
    ...(from.ccm ? { ccm: from.ccm } : {}),
    steps: steps.map((s) => ({ label: `${s.when}: ${s.action}`, ...(s.kcm ? { kcm: kcmOf(to) } : {}), ...(s.ccm ? { ccm: to.ccm ?? null } : {}) })),
  };
}

const GCP_CONF = '[global]\nproject-id = p\n';
const CASES: { name: string; minor: number; ccmMinor?: number; spec: (phase: string) => Record<string, unknown>; files: Record<string, string>; kcmBase: string[] }[] = [
  { name: 'OpenShift AWS 4.13', minor: 26, files: {}, kcmBase: ['--allocate-node-cidrs=false'], spec: (phase) => platformSpec('AWS', 'c', { migration: { phase, kubernetesVersion: '1.26' } }) },
  { name: 'OpenShift GCP 4.14', minor: 27, files: { 'c.conf': GCP_CONF }, kcmBase: ['--allocate-node-cidrs=false'], spec: (phase) => platformSpec('GCP', 'c', { cloudConfig: { file: 'c.conf' }, migration: { phase, kubernetesVersion: '1.27' } }) },
  // vSphere 4.12's CCM phases are refused (its release renders other operands): the wildcard runs on AWS
  { name: 'OpenShift AWS 4.13 wildcard', minor: 26, files: {}, kcmBase: ['--allocate-node-cidrs=false'], spec: (phase) => platformSpec('AWS', 'c', { migration: { phase, kubernetesVersion: '1.26', wildcard: true } }) },
  { name: 'kubernetes AWS 1.26 (DaemonSet, rolling)', minor: 26, files: {}, kcmBase: ['--allocate-node-cidrs=false'], spec: (phase) => kubernetesSpec('AWS', 'c', { version: '1.26' }, { migration: { phase, kubernetesVersion: '1.26' } }) },
  {
    // the CCM's own minor decides which file it decodes
    name: 'kubernetes AWS 1.24 with a 1.23 CCM image', minor: 24, ccmMinor: 23, files: {}, kcmBase: ['--allocate-node-cidrs=false'],
    spec: (phase) => {
      const spec = kubernetesSpec('AWS', 'c', { version: '1.24' }, { migration: { phase, kubernetesVersion: '1.24' } }) as any;
      spec.spec.images.cloudControllerManagerAWS = 'registry.k8s.io/provider-aws/cloud-controller-manager:v1.23.1';
      return spec;
    },
  },
  {
    name: 'kubernetes AWS 1.26 on RKE2', minor: 26, files: {}, kcmBase: ['--allocate-node-cidrs=false'],
    spec: (phase) => kubernetesSpec('AWS', 'c', { version: '1.26', scheduling: { preset: 'rke2' } }, { migration: { phase, kubernetesVersion: '1.26' } }),
  },
  {
    name: 'kubernetes GCP 1.28 with node IPAM and routes', minor: 28, files: {}, kcmBase: ['--allocate-node-cidrs=true', '--configure-cloud-routes=true'],
    spec: (phase) => kubernetesSpec('GCP', 'c', { version: '1.28', clusterName: 'kubernetes', allocateNodeCidrs: true, configureCloudRoutes: true, clusterCIDR: ['10.64.0.0/14'] }, { migration: { phase, kubernetesVersion: '1.28', nodeIpam: true } }),
  },
];

describe('the simulator on the rendered output: every phase change forward and back', () => {
  const tmp = useTempDir();

  test.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    // GIVEN each phase rendered by synth
    const rendered = new Map<string, Rendered>();
    for (const phase of MIGRATION_PHASES) {
      rendered.set(phase, render(path.join(tmp(), phase), c.spec(phase), c.files));
    }
    // the pure model of the OpenShift CCM flags is the rendered one (--controllers aside: `*` or `*,-nodeipam` without
    // --allocate-node-cidrs changes none of the migrated controllers); the MachineConfig carries the plan's KCM file
    for (const r of rendered.values()) {
      if (c.name.startsWith('OpenShift') && r.ccm && !r.ccm.file) {
        expect(r.ccm.flags.filter((f) => !f.startsWith('--controllers='))).toEqual(OPENSHIFT_CCM_BASE);
      }
      // CONTROL-PLANE.md carries the plan's KCM flags and file (it may add what the prose tells the administrator)
      if (r.controlPlaneKcm) {
        expect(r.controlPlaneKcm.file).toBe(r.kcm.file);
        const withValue = (f: string) => (f.includes('=') ? f : `${f}=true`);
        expect(r.controlPlaneKcm.flags.map(withValue)).toEqual(expect.arrayContaining(r.kcm.flags.map(withValue)));
      }
      if (r.machineConfigFile) {
        expect(r.machineConfigFile).toBe(rendered.get('leader-migration-kcm')!.kcm.file);
      }
    }
    const failures: string[] = [];
    let transitions = 0;
    for (let i = 0; i + 1 < MIGRATION_PHASES.length; i++) {
      const a = rendered.get(MIGRATION_PHASES[i]!)!;
      const b = rendered.get(MIGRATION_PHASES[i + 1]!)!;
      // WHEN the forward change runs the steps of b's plan, and the rollback the rollback steps of b's plan
      // the cluster needs its service and node-lifecycle controllers, and node IPAM where the KCM allocated node CIDRs
      // the kubernetes CCM runs what its upstream binary registers
      const ccmControllers = c.name.startsWith('kubernetes') ? upstreamCcmControllers(c.name.split(' ')[1]!) : undefined;
      const required: Controller[] = ['service', 'cloud-node-lifecycle', ...(c.kcmBase.includes('--allocate-node-cidrs=true') ? ['node-ipam' as const] : [])];
      const moves: [string, SimScenario][] = [[`${MIGRATION_PHASES[i]} → ${MIGRATION_PHASES[i + 1]}`, scenario(a, b, b.plan.enter.steps, c.minor, c.ccmMinor ?? c.minor, c.kcmBase, required, ccmControllers)]];
      if (b.plan.rollback) {
        moves.push([`${MIGRATION_PHASES[i + 1]} → ${MIGRATION_PHASES[i]}`, scenario(b, a, b.plan.rollback.steps, c.minor, c.ccmMinor ?? c.minor, c.kcmBase, required, ccmControllers)]);
      }
      for (const [label, sc] of moves) {
        transitions++;
        failures.push(...simulate(sc).violations.map((v) => `${label}: ${formatViolation(v)}`));
      }
    }
    // THEN no controller ever runs twice, and each runs exactly once when the change settles
    expect(failures).toEqual([]);
    expect(transitions).toBeGreaterThanOrEqual(c.name.startsWith('OpenShift') ? 7 : 8);
  });
});
