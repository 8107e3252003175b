/**
 * The rendered phases of one cluster spec per platform and distribution with a
 * migration, as `ccm-gitops synth` writes them, and the simulator scenarios of
 * each phase change built from two rendered trees. It renders through the
 * product, so it lives outside test/oracle/ (an oracle never imports src/).
 */
import * as fs from 'fs';
import * as path from 'path';
import { runCli } from '../../src/cli';
import { captureIo, kubernetesSpec, platformSpec, writeFile } from '../helpers';
import { Controller, SimScenario } from '../oracle/leader-migration/simulator';
import { upstreamCcmControllers } from '../oracle/leader-migration/scenario';
import { LiveState, readTree, Tree, treeReplay, treeScenario, TreeScenarioOptions } from '../oracle/leader-migration/trees';

/** Renders one phase of a spec with synth into `dir` and reads the cluster's folder. */
export function renderTree(dir: string, spec: Record<string, unknown>, files: Record<string, string>): Tree {
  return readTree(synthCluster(dir, spec, files));
}

/** Renders a spec (named `c`) and the files beside it with synth into `dir`; returns the cluster's folder. */
export function synthCluster(dir: string, spec: Record<string, unknown>, files: Record<string, string>): string {
  const clusters = path.join(dir, 'clusters');
  const out = path.join(dir, 'dist');
  fs.mkdirSync(clusters, { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    writeFile(clusters, name, content);
  }
  writeFile(clusters, 'c.yaml', spec);
  const cap = captureIo();
  const code = runCli(['synth', '--clusters', clusters, '--out', out, '-q'], cap.io, {});
  if (code !== 0) {
    throw new Error(`synth failed for ${dir}: ${cap.stderr()}`);
  }
  return path.join(out, 'c');
}

export interface RenderCase {
  readonly name: string;
  readonly platform: string;
  readonly minor: number;
  readonly ccmMinor?: number;
  readonly spec: (phase: string) => Record<string, unknown>;
  readonly files: Record<string, string>;
  /** KCM flags ccm-gitops does not render (the cluster's own). */
  readonly kcmBase: string[];
  /**
   * A violation the simulator finds in the product's plan that the product does
   * not yet refuse: left out of the case's walks, and asserted on its own (a
   * `test.failing` that turns red once the product is fixed, to drop this entry).
   */
  readonly disagreement?: {
    readonly violation: RegExp;
    readonly why: string;
    /** Controllers the simulator sees running that the product's own model (MIGRATION.md's diagrams) leaves out. */
    readonly unmodelled?: readonly string[];
  };
}

/** The failures of `c` that are not its known disagreement with the product. */
export function unexplained(c: RenderCase, failures: readonly string[]): string[] {
  return failures.filter((f) => !c.disagreement?.violation.test(f));
}

const GCP_CONF = '[global]\nproject-id = p\n';
export const CASES: readonly RenderCase[] = [
  {
    name: 'OpenShift AWS 4.13',
    platform: 'AWS',
    minor: 26,
    files: {},
    kcmBase: ['--allocate-node-cidrs=false'],
    spec: (phase) => platformSpec('AWS', 'c', { migration: { phase, kubernetesVersion: '1.26' } }),
  },
  {
    name: 'OpenShift GCP 4.14',
    platform: 'GCP',
    minor: 27,
    files: { 'c.conf': GCP_CONF },
    kcmBase: ['--allocate-node-cidrs=false'],
    spec: (phase) => platformSpec('GCP', 'c', { cloudConfig: { file: 'c.conf' }, migration: { phase, kubernetesVersion: '1.27' } }),
  },
  {
    name: 'OpenShift AWS 4.13 wildcard',
    platform: 'AWS',
    minor: 26,
    files: {},
    kcmBase: ['--allocate-node-cidrs=false'],
    spec: (phase) => platformSpec('AWS', 'c', { migration: { phase, kubernetesVersion: '1.26', wildcard: true } }),
  },
  {
    name: 'kubernetes AWS 1.26 (DaemonSet, rolling)',
    platform: 'AWS',
    minor: 26,
    files: {},
    kcmBase: ['--allocate-node-cidrs=false'],
    spec: (phase) => kubernetesSpec('AWS', 'c', { version: '1.26' }, { migration: { phase, kubernetesVersion: '1.26' } }),
  },
  {
    // the CCM's own minor decides which file it decodes
    name: 'kubernetes AWS 1.24 with a 1.23 CCM image',
    platform: 'AWS',
    minor: 24,
    ccmMinor: 23,
    files: {},
    kcmBase: ['--allocate-node-cidrs=false'],
    spec: (phase) => {
      const spec = kubernetesSpec('AWS', 'c', { version: '1.24' }, { migration: { phase, kubernetesVersion: '1.24' } }) as any;
      spec.spec.images.cloudControllerManagerAWS = 'registry.k8s.io/provider-aws/cloud-controller-manager:v1.23.1';
      return spec;
    },
  },
  {
    // the options end to end: the migration lease's own name in both leader-migration files
    name: 'kubernetes AWS 1.26 with a custom leaderName',
    platform: 'AWS',
    minor: 26,
    files: {},
    kcmBase: ['--allocate-node-cidrs=false'],
    spec: (phase) => kubernetesSpec('AWS', 'c', { version: '1.26' }, { migration: { phase, kubernetesVersion: '1.26', leaderName: 'aws-handover' } }),
  },
  {
    // the CCM runs outside the lease namespace: the lease Role there must grant the custom lease name
    name: 'OpenShift AWS 4.13 with a custom leaderName',
    platform: 'AWS',
    minor: 26,
    files: {},
    kcmBase: ['--allocate-node-cidrs=false'],
    spec: (phase) => platformSpec('AWS', 'c', { migration: { phase, kubernetesVersion: '1.26', leaderName: 'aws-handover' } }),
  },
  {
    name: 'kubernetes AWS 1.26 on RKE2',
    platform: 'AWS',
    minor: 26,
    files: {},
    // RKE2 starts its KCM with its own flags (trees.ts rancherKcm): node CIDRs allocated, cloud routes on
    kcmBase: [],
    // the routes RKE2's in-tree KCM programs go to the CCM (the product refuses the migration without configureCloudRoutes)
    spec: (phase) =>
      kubernetesSpec(
        'AWS',
        'c',
        { version: '1.26', scheduling: { preset: 'rke2' }, configureCloudRoutes: true, clusterCIDR: ['10.42.0.0/16'] },
        { migration: { phase, kubernetesVersion: '1.26' } },
      ),
  },
  {
    name: 'kubernetes GCP 1.28 with node IPAM and routes',
    platform: 'GCP',
    minor: 28,
    files: {},
    // the KCM allocates node CIDRs from its own --cluster-cidr
    kcmBase: ['--allocate-node-cidrs=true', '--configure-cloud-routes=true', '--cluster-cidr=10.64.0.0/14'],
    spec: (phase) =>
      kubernetesSpec(
        'GCP',
        'c',
        {
          version: '1.28',
          clusterName: 'kubernetes',
          allocateNodeCidrs: true,
          configureCloudRoutes: true,
          clusterCIDR: ['10.64.0.0/14'],
          // the KCM's allocator, which node IPAM keeps when it moves
          extraArgs: { 'cidr-allocator-type': 'RangeAllocator', 'node-cidr-mask-size': '24' },
        },
        { migration: { phase, kubernetesVersion: '1.28', nodeIpam: true } },
      ),
  },
  {
    name: 'OpenShift GCP 4.11',
    platform: 'GCP',
    minor: 24,
    files: { 'c.conf': GCP_CONF },
    kcmBase: ['--allocate-node-cidrs=false'],
    spec: (phase) => platformSpec('GCP', 'c', { cloudConfig: { file: 'c.conf' }, migration: { phase, kubernetesVersion: '1.24' } }),
  },
  {
    name: 'kubernetes OpenStack 1.25',
    platform: 'OpenStack',
    minor: 25,
    files: {},
    kcmBase: ['--allocate-node-cidrs=false'],
    spec: (phase) =>
      kubernetesSpec('OpenStack', 'c', { version: '1.25', clusterName: 'kubernetes' }, { migration: { phase, kubernetesVersion: '1.25' } }),
  },
  {
    name: 'kubernetes vSphere 1.29',
    platform: 'VSphere',
    minor: 29,
    files: {},
    kcmBase: ['--allocate-node-cidrs=false'],
    spec: (phase) => kubernetesSpec('VSphere', 'c', { version: '1.29' }, { migration: { phase, kubernetesVersion: '1.29' } }),
  },
  {
    name: 'kubernetes Azure 1.29',
    platform: 'Azure',
    minor: 29,
    files: {},
    kcmBase: ['--allocate-node-cidrs=false'],
    spec: (phase) =>
      kubernetesSpec('Azure', 'c', { version: '1.29', clusterName: 'kubernetes' }, { migration: { phase, kubernetesVersion: '1.29' } }),
  },
];

/** Every phase of the case's sequence, rendered (the sequence is the in-tree plan's `phases`). */
export function renderPhases(c: RenderCase, dir: string): Map<string, Tree> {
  // a case's trees are rendered once per test file: its replays share them (each caller gets its own map)
  const cached = RENDERED.get(c);
  if (cached) return new Map(cached);
  const first = renderTree(path.join(dir, 'in-tree'), c.spec('in-tree'), c.files);
  const rendered = new Map<string, Tree>([['in-tree', first]]);
  for (const phase of first.plan.phases.slice(1) as string[]) {
    rendered.set(phase, renderTree(path.join(dir, phase), c.spec(phase), c.files));
  }
  RENDERED.set(c, rendered);
  return new Map(rendered);
}

const RENDERED = new WeakMap<RenderCase, ReadonlyMap<string, Tree>>();

/** The simulator's inputs for a case that the trees do not carry. */
export function caseOptions(c: RenderCase): TreeScenarioOptions {
  // the cluster needs its service and node-lifecycle controllers, and node IPAM where the KCM allocated node CIDRs;
  // the kubernetes CCM runs what its upstream binary registers
  const required: Controller[] = [
    'service',
    'cloud-node-lifecycle',
    ...(c.kcmBase.includes('--allocate-node-cidrs=true') ? ['node-ipam' as const] : []),
  ];
  return {
    kcmMinor: c.minor,
    ccmMinor: c.ccmMinor ?? c.minor,
    kcmBaseFlags: c.kcmBase,
    required,
    ...(c.name.startsWith('kubernetes') ? { ccmControllers: upstreamCcmControllers(c.platform) } : {}),
  };
}

/** Each adjacent phase change of the rendered phases, forward (the later plan's `enter`) and back (its `rollback`). */
export function transitions(c: RenderCase, trees: ReadonlyMap<string, Tree>, extra: Partial<TreeScenarioOptions> = {}): [string, SimScenario][] {
  const phases = [...trees.keys()];
  const out: [string, SimScenario][] = [];
  for (let i = 0; i + 1 < phases.length; i++) {
    const a = trees.get(phases[i])!;
    const b = trees.get(phases[i + 1])!;
    out.push([`${phases[i]} → ${phases[i + 1]}`, treeScenario(a, b, b.plan.enter.steps, { ...caseOptions(c), ...extra })]);
    if (b.plan.rollback) {
      out.push([`${phases[i + 1]} → ${phases[i]}`, treeScenario(b, a, b.plan.rollback.steps, { ...caseOptions(c), ...extra })]);
    }
  }
  return out;
}

/**
 * A whole walk through `phases` (adjacent ones in the plan's order, either
 * direction): each change starts from the live state the previous one left
 * (objects, KCM, override), so a change that leaves something behind shows in the next.
 */
export function walk(
  c: RenderCase,
  trees: ReadonlyMap<string, Tree>,
  phases: readonly string[],
  extra: Partial<TreeScenarioOptions> = {},
): [string, SimScenario][] {
  const order = [...trees.keys()];
  const out: [string, SimScenario][] = [];
  let live: LiveState | undefined;
  for (let i = 0; i + 1 < phases.length; i++) {
    const a = trees.get(phases[i]);
    const b = trees.get(phases[i + 1]);
    if (!a || !b || Math.abs(order.indexOf(phases[i]) - order.indexOf(phases[i + 1])) !== 1) {
      throw new Error(`${phases[i]} → ${phases[i + 1]} is not a change between adjacent phases of ${c.name}`);
    }
    const forward = order.indexOf(phases[i + 1]) > order.indexOf(phases[i]);
    const steps = forward ? b.plan.enter.steps : a.plan.rollback?.steps;
    if (!steps) {
      throw new Error(`${phases[i]} has no rollback in ${c.name}`);
    }
    const r = treeReplay(a, b, steps, { ...caseOptions(c), ...extra }, live);
    out.push([`${phases[i]} → ${phases[i + 1]}`, r.scenario]);
    live = r.end;
  }
  return out;
}

/**
 * Forward to the last phase and back as far as rollbacks go; then a mixed walk
 * that turns back once after each step forward into a phase with a rollback.
 */
export function walksOf(phases: readonly string[], hasRollback: (phase: string) => boolean): string[][] {
  const back = (w: string[]) => {
    for (let i = phases.indexOf(w[w.length - 1]); i > 0 && hasRollback(phases[i]); i--) {
      w.push(phases[i - 1]);
    }
    return w;
  };
  const mixed: string[] = [phases[0]];
  for (let i = 1; i < phases.length; i++) {
    mixed.push(phases[i]);
    if (i + 1 < phases.length && hasRollback(phases[i])) {
      mixed.push(phases[i - 1], phases[i]);
    }
  }
  return [back([...phases]), back(mixed)];
}
