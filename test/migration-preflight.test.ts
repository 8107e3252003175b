/**
 * `migration preflight`: the before-merge preconditions of a phase change,
 * read from the plan's own checks, against exports built from the upstream
 * object shapes (openshift/api@release-4.14 operator/v1 KubeControllerManager,
 * openshift/api@release-4.15 machineconfiguration/v1 MachineConfigPool,
 * kubernetes/api@v0.29.0 coordination/v1 Lease and apps/v1 Deployment, core/v1 Pod and Node).
 */
import * as fs from 'fs';
import * as path from 'path';
import { parse, stringify } from 'yaml';
import { runCli } from '../src/cli';
import { MigrationInput } from '../src/migration';
import { MigrationPhase, phaseSequence } from '../src/migration/phases';
import { kcmProcess, PhaseTransition } from '../src/migration/steps';
import { StepContext, transitionSteps } from '../src/fleet/migration-targets';
import { changePreconditions, preflightChange, runPreflight } from '../src/cli/preflight-checks';
import { ExportedObject } from '../src/import/live-cluster';
import { awsSpec, captureIo, kubernetesSpec, migrationInput, tempDir } from './helpers';

const NS = 'kube-system';
const KCM_PODS_COMMAND =
  'kubectl -n kube-system get pods -l component=kube-controller-manager -o jsonpath=\'{range .items[*]}{.metadata.name}{" "}{.spec.containers[0].command}{"\\n"}{end}\'';
const LEASE = 'cloud-provider-extraction-migration';
const KCM_ID = 'master-0_5f0c';
const CCM_ID = 'ccm-7d9f-x2_91ab';
const T0 = '2026-11-27T10:00:00.000000Z';

const OS_PATH = '/etc/kubernetes/static-pod-certs/leader-migration/config.yaml';
const OS_CTX: StepContext = {
  distribution: 'openshift',
  ccm: {
    namespace: 'openshift-cloud-controller-manager',
    serviceAccount: 'cloud-controller-manager',
    workload: 'deployment/cloud-controller-manager',
  },
  featureGates: ['ExternalCloudProvider'],
  featureSet: 'CustomNoUpgrade',
  machineConfig: '99-master-kcm-leader-migration',
};
const K8S_CTX: StepContext = {
  distribution: 'kubernetes',
  ccm: { namespace: NS, serviceAccount: 'cloud-controller-manager', workload: 'deployment/aws-cloud-controller-manager' },
  featureGates: [],
  featureSet: '',
};
const AZURE_CTX: StepContext = { ...K8S_CTX, ccm: { ...K8S_CTX.ccm, workload: 'deployment/azure-cloud-controller-manager' } };

interface Distribution {
  readonly name: string;
  readonly platform: string;
  readonly ctx: StepContext;
  readonly input: Partial<MigrationInput>;
}
const OPENSHIFT: Distribution = {
  name: 'openshift AWS',
  platform: 'AWS',
  ctx: OS_CTX,
  input: { kcmConfigPath: OS_PATH, kubernetesMinor: 26, ccmMinor: 26 },
};
const KUBERNETES: Distribution = { name: 'kubernetes AWS', platform: 'AWS', ctx: K8S_CTX, input: {} };
const AZURE: Distribution = {
  name: 'kubernetes Azure (no leader migration)',
  platform: 'Azure',
  ctx: AZURE_CTX,
  input: { kubernetesMinor: 29, ccmMinor: 29 },
};

function inputAt(d: Distribution, phase: MigrationPhase): MigrationInput {
  return migrationInput(d.platform, { ...d.input, phase });
}

function stepsOf(d: Distribution): (from: MigrationPhase, to: MigrationPhase) => PhaseTransition {
  return (from, to) => transitionSteps(inputAt(d, to), d.ctx, from, to);
}

// --- exports, in the upstream shapes ---

function kubeControllerManager(o: { latest?: number; revisions?: number[]; override?: boolean } = {}): ExportedObject {
  const latest = o.latest ?? 8;
  return {
    apiVersion: 'operator.openshift.io/v1',
    kind: 'KubeControllerManager',
    metadata: { name: 'cluster' },
    spec: {
      managementState: 'Managed',
      unsupportedConfigOverrides: o.override
        ? { extendedArguments: { 'enable-leader-migration': ['true'], 'leader-migration-config': [OS_PATH], 'feature-gates': ['Foo=true'] } }
        : { extendedArguments: { 'feature-gates': ['Foo=true'] } },
    },
    status: {
      latestAvailableRevision: latest,
      nodeStatuses: (o.revisions ?? [latest, latest, latest]).map((r, i) => ({ nodeName: `master-${i}`, currentRevision: r })),
    },
  };
}

function machineConfigPool(name: string, s: { machines?: number; updated?: number; ready?: number; degraded?: number } = {}): ExportedObject {
  const machines = s.machines ?? 3;
  return {
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'MachineConfigPool',
    metadata: { name },
    status: {
      machineCount: machines,
      updatedMachineCount: s.updated ?? machines,
      readyMachineCount: s.ready ?? machines,
      unavailableMachineCount: 0,
      degradedMachineCount: s.degraded ?? 0,
      conditions: [
        { type: 'Updated', status: 'True' },
        { type: 'Degraded', status: (s.degraded ?? 0) > 0 ? 'True' : 'False' },
      ],
    },
  };
}

function lease(name: string, holder: string | undefined, renewTime = T0): ExportedObject {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, namespace: NS },
    spec: {
      ...(holder ? { holderIdentity: holder } : {}),
      leaseDurationSeconds: 15,
      acquireTime: '2026-11-27T09:00:00.000000Z',
      renewTime,
      leaseTransitions: 2,
    },
  };
}

function deployment(
  namespace: string,
  name: string,
  s: { generation?: number; observed?: number; updated?: number; ready?: number; available?: number; conditions?: unknown[] } = {},
): ExportedObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace, generation: s.generation ?? 4 },
    spec: { replicas: 2 },
    status: {
      observedGeneration: s.observed ?? 4,
      replicas: 2,
      updatedReplicas: s.updated ?? 2,
      readyReplicas: s.ready ?? 2,
      availableReplicas: s.available ?? s.ready ?? 2,
      ...(s.conditions ? { conditions: s.conditions } : {}),
    },
  } as unknown as ExportedObject;
}

function kcmPod(node: number, flags: readonly string[], ready = true): ExportedObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `kube-controller-manager-master-${node}`,
      namespace: NS,
      labels: { component: 'kube-controller-manager', tier: 'control-plane' },
    },
    spec: {
      containers: [
        {
          name: 'kube-controller-manager',
          image: 'registry.k8s.io/kube-controller-manager:v1.26.15',
          command: ['kube-controller-manager', '--kubeconfig=/etc/kubernetes/controller-manager.conf', ...flags],
        },
      ],
      nodeName: `master-${node}`,
    },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  } as unknown as ExportedObject;
}

function node(name: string, s: { providerID?: string | null; uninitialized?: boolean } = {}): ExportedObject {
  // kubeadm labels its control-plane nodes (kubernetes/kubernetes@v1.29.0 cmd/kubeadm/app/constants/constants.go LabelNodeRoleControlPlane)
  const labels = name.startsWith('master-') ? { 'node-role.kubernetes.io/control-plane': '' } : {};
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels },
    spec: {
      ...(s.providerID === null ? {} : { providerID: s.providerID ?? `aws:///us-east-1a/i-0${name.length}abc` }),
      ...(s.uninitialized ? { taints: [{ key: 'node.cloudprovider.kubernetes.io/uninitialized', value: 'true', effect: 'NoSchedule' }] } : {}),
    },
  } as unknown as ExportedObject;
}

/** A cluster settled with its KCMs as in `kcmPhase`, the migration lease held by `holder`, the CCM deployed or not. */
function settledCluster(d: Distribution, kcmPhase: MigrationPhase, holder: 'kcm' | 'ccm', ccm: boolean): ExportedObject[] {
  const kcm = kcmProcess(inputAt(d, kcmPhase), kcmPhase);
  const [ns, workload] = [d.ctx.ccm.namespace, d.ctx.ccm.workload.split('/')[1]];
  return [
    kubeControllerManager({ override: kcm.file !== undefined }),
    { apiVersion: 'v1', kind: 'List', items: [machineConfigPool('master'), machineConfigPool('worker')] },
    lease(LEASE, holder === 'kcm' ? KCM_ID : CCM_ID),
    lease('kube-controller-manager', KCM_ID),
    lease('cloud-controller-manager', CCM_ID),
    ...(ccm ? [deployment(ns, workload)] : []),
    kcmPod(0, kcm.flags),
    kcmPod(1, kcm.flags),
    kcmPod(2, kcm.flags),
    node('master-0'),
    node('master-1'),
    node('master-2'),
    node('worker-0'),
  ];
}

/** A kubernetes AWS distribution whose CCM is a DaemonSet, and a leader-migration-ccm cluster with that DaemonSet in `status`. */
function daemonSetCase(status: Record<string, number>): { d: Distribution; objects: ExportedObject[] } {
  const ds = { ...K8S_CTX, ccm: { ...K8S_CTX.ccm, workload: 'daemonset/aws-cloud-controller-manager' } };
  const d: Distribution = { ...KUBERNETES, name: 'kubernetes AWS DaemonSet', ctx: ds };
  const daemonSet = {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'aws-cloud-controller-manager', namespace: NS, generation: 3 },
    status: { observedGeneration: 3, ...status },
  } as unknown as ExportedObject;
  return { d, objects: [...settledCluster(d, 'leader-migration-ccm', 'kcm', false), daemonSet] };
}

function check(d: Distribution, from: MigrationPhase, to: MigrationPhase, objects: readonly ExportedObject[]) {
  return runPreflight(objects, changePreconditions(phaseSequence(inputAt(d, to).support), from, to, stepsOf(d)));
}

describe('a settled cluster passes the preconditions of each phase change', () => {
  // [distribution, from, to, the phase the KCMs run as before the merge, lease holder, CCM deployed]
  const cases: [Distribution, MigrationPhase, MigrationPhase, MigrationPhase, 'kcm' | 'ccm', boolean][] = [];
  for (const d of [OPENSHIFT, KUBERNETES]) {
    cases.push(
      [d, 'in-tree', 'leader-migration-kcm', 'in-tree', 'kcm', false],
      [d, 'leader-migration-kcm', 'leader-migration-ccm', 'leader-migration-kcm', 'kcm', false],
      [d, 'leader-migration-ccm', 'external-leader-migration', 'leader-migration-ccm', 'kcm', true],
      [d, 'external-leader-migration', 'external', 'external-leader-migration', 'ccm', true],
      // rollbacks: leader migration off before the merge back to in-tree; the others change nothing before the merge
      [d, 'leader-migration-kcm', 'in-tree', 'in-tree', 'kcm', false],
      [d, 'leader-migration-ccm', 'leader-migration-kcm', 'leader-migration-ccm', 'kcm', true],
      [d, 'external-leader-migration', 'leader-migration-ccm', 'external-leader-migration', 'ccm', true],
      [d, 'external', 'external-leader-migration', 'external', 'ccm', true],
    );
  }
  cases.push([AZURE, 'in-tree', 'external', 'external', 'kcm', false], [AZURE, 'external', 'in-tree', 'external', 'ccm', true]);

  test.each(cases.map(([d, from, to, kcmPhase, holder, ccm]) => ({ name: d.name, d, from, to, kcmPhase, holder, ccm })))(
    '$name: $from → $to',
    ({ d, from, to, kcmPhase, holder, ccm }) => {
      // GIVEN an export of a cluster that finished every step before the merge
      const objects = settledCluster(d, kcmPhase, holder, ccm);
      // WHEN the change's preconditions are checked THEN none fails
      expect(check(d, from, to, objects).failures).toEqual([]);
    },
  );
});

describe('each precondition fails alone, naming the object, what is wrong and the command', () => {
  const LMK_LMC_OS = (): ExportedObject[] => settledCluster(OPENSHIFT, 'leader-migration-kcm', 'kcm', false);
  const ELM_EXT_OS = (): ExportedObject[] => settledCluster(OPENSHIFT, 'external-leader-migration', 'ccm', true);
  const REVISIONS =
    'oc get kubecontrollermanager cluster -o jsonpath=\'{.status.latestAvailableRevision}{" :"}{range .status.nodeStatuses[*]}{" "}{.currentRevision}{end}{"\\n"}\'';
  const REVISIONS_AND_OVERRIDE =
    'oc get kubecontrollermanager cluster -o jsonpath=\'{.status.latestAvailableRevision}{" :"}{range .status.nodeStatuses[*]}{" "}{.currentRevision}{end}{"\\n"}{.spec.unsupportedConfigOverrides.extendedArguments}{"\\n"}\'';
  const holds = (main: string) =>
    `[ "$(kubectl -n kube-system get lease ${LEASE} -o jsonpath='{.spec.holderIdentity}')" = "$(kubectl -n kube-system get lease ${main} -o jsonpath='{.spec.holderIdentity}')" ] && echo yes || echo no`;
  const replace = (objects: ExportedObject[], kind: string, name: string, by: ExportedObject) =>
    objects.map((o) => (o.kind === kind && (o.metadata as { name: string }).name === name ? by : o));

  test('KubeControllerManager: a node not at the latest revision (OpenShift leader-migration-kcm → leader-migration-ccm)', () => {
    const objects = replace(LMK_LMC_OS(), 'KubeControllerManager', 'cluster', kubeControllerManager({ override: true, revisions: [8, 7, 8] }));
    expect(check(OPENSHIFT, 'leader-migration-kcm', 'leader-migration-ccm', objects).failures).toEqual([
      `KubeControllerManager cluster: node master-1 runs revision 7, not latestAvailableRevision 8; check: ${REVISIONS}`,
    ]);
  });

  test('KubeControllerManager: the override lacks our keys before the CCM is deployed', () => {
    const objects = replace(LMK_LMC_OS(), 'KubeControllerManager', 'cluster', kubeControllerManager({ override: false }));
    expect(check(OPENSHIFT, 'leader-migration-kcm', 'leader-migration-ccm', objects).failures).toEqual([
      `KubeControllerManager cluster: spec.unsupportedConfigOverrides.extendedArguments lacks enable-leader-migration and leader-migration-config; check: ${REVISIONS_AND_OVERRIDE}`,
    ]);
  });

  test('KubeControllerManager: the override still has our keys before leader migration leaves the CCM (external-leader-migration → external)', () => {
    const objects = replace(ELM_EXT_OS(), 'KubeControllerManager', 'cluster', kubeControllerManager({ override: true }));
    expect(check(OPENSHIFT, 'external-leader-migration', 'external', objects).failures).toEqual([
      `KubeControllerManager cluster: spec.unsupportedConfigOverrides.extendedArguments still has enable-leader-migration and leader-migration-config; check: ${REVISIONS_AND_OVERRIDE}`,
    ]);
  });

  test("KubeControllerManager: the override still has our keys before the rollback to in-tree: the fix is the step's own oc patch", () => {
    const objects = replace(
      settledCluster(OPENSHIFT, 'in-tree', 'kcm', false),
      'KubeControllerManager',
      'cluster',
      kubeControllerManager({ override: true }),
    );
    expect(check(OPENSHIFT, 'leader-migration-kcm', 'in-tree', objects).failures).toEqual([
      'KubeControllerManager cluster: spec.unsupportedConfigOverrides.extendedArguments still has enable-leader-migration and leader-migration-config; ' +
        'fix: oc patch kubecontrollermanager cluster --type=merge -p \'{"spec":{"unsupportedConfigOverrides":{"extendedArguments":{"enable-leader-migration":null,"leader-migration-config":null}}}}\' && ' +
        '{ oc patch kubecontrollermanager cluster --type=json -p \'[{"op":"test","path":"/spec/unsupportedConfigOverrides","value":{"extendedArguments":{}}},{"op":"remove","path":"/spec/unsupportedConfigOverrides"}]\' 2>/dev/null || echo "unsupportedConfigOverrides keeps other overrides"; }',
    ]);
  });

  test('MachineConfigPool: the master pool has not rolled out the MachineConfig', () => {
    const objects = LMK_LMC_OS().map((o) =>
      o.kind === 'List' ? { ...o, items: [machineConfigPool('master', { updated: 2, ready: 2 }), machineConfigPool('worker')] } : o,
    );
    expect(check(OPENSHIFT, 'leader-migration-kcm', 'leader-migration-ccm', objects).failures).toEqual([
      'MachineConfigPool master: 2 of 3 machines updated, 2 of 3 machines ready; check: oc wait machineconfigpool/master --for=condition=Updated --timeout=60m',
    ]);
  });

  test('MachineConfigPool: a degraded master pool', () => {
    const objects = LMK_LMC_OS().map((o) =>
      o.kind === 'List' ? { ...o, items: [machineConfigPool('master', { degraded: 1 }), machineConfigPool('worker')] } : o,
    );
    expect(check(OPENSHIFT, 'leader-migration-kcm', 'leader-migration-ccm', objects).failures).toEqual([
      'MachineConfigPool master: degraded (1 degraded machines); check: oc wait machineconfigpool/master --for=condition=Updated --timeout=60m',
    ]);
  });

  test("Lease: the migration lease is held by another process than the main lease's holder", () => {
    const objects = replace(LMK_LMC_OS(), 'Lease', LEASE, lease(LEASE, 'master-2_77aa'));
    expect(check(OPENSHIFT, 'leader-migration-kcm', 'leader-migration-ccm', objects).failures).toEqual([
      `Lease kube-system/${LEASE}: held by "master-2_77aa", not by the holder of Lease kube-system/kube-controller-manager ("${KCM_ID}"); check: ${holds('kube-controller-manager')}`,
    ]);
  });

  test('Lease: nobody holds the migration lease', () => {
    const objects = replace(LMK_LMC_OS(), 'Lease', LEASE, lease(LEASE, undefined));
    expect(check(OPENSHIFT, 'leader-migration-kcm', 'leader-migration-ccm', objects).failures).toEqual([
      `Lease kube-system/${LEASE}: no holderIdentity (no controller manager holds the migration lease); check: ${holds('kube-controller-manager')}`,
    ]);
  });

  test('Lease: the migration lease is no longer renewed by the holder of the main lease', () => {
    const objects = replace(ELM_EXT_OS(), 'Lease', LEASE, lease(LEASE, CCM_ID, '2026-11-27T09:59:30.000000Z'));
    expect(check(OPENSHIFT, 'external-leader-migration', 'external', objects).failures).toEqual([
      `Lease kube-system/${LEASE}: last renewed at 2026-11-27T09:59:30.000000Z, more than its 15s lease duration before Lease kube-system/cloud-controller-manager (${T0}): its holder no longer renews it; check: ${holds('cloud-controller-manager')}`,
    ]);
  });

  test('Deployment: the CCM has not rolled out (kubernetes leader-migration-ccm → external-leader-migration)', () => {
    const objects = replace(
      settledCluster(KUBERNETES, 'leader-migration-ccm', 'kcm', true),
      'Deployment',
      'aws-cloud-controller-manager',
      deployment(NS, 'aws-cloud-controller-manager', { generation: 5, observed: 4, updated: 1, ready: 1 }),
    );
    expect(check(KUBERNETES, 'leader-migration-ccm', 'external-leader-migration', objects).failures).toEqual([
      'Deployment kube-system/aws-cloud-controller-manager: status.observedGeneration 4 is behind metadata.generation 5, 1 of 2 replicas updated, 1 old replica pending termination; check: kubectl -n kube-system rollout status deployment/aws-cloud-controller-manager',
    ]);
  });

  test('Deployment: every replica ready but one not yet available (minReadySeconds): kubectl rollout status still waits', () => {
    // GIVEN the CCM's replicas all updated and ready, one not available yet
    const objects = replace(
      settledCluster(KUBERNETES, 'leader-migration-ccm', 'kcm', true),
      'Deployment',
      'aws-cloud-controller-manager',
      deployment(NS, 'aws-cloud-controller-manager', { ready: 2, available: 1 }),
    );
    // WHEN checked THEN the rollout is not complete, as kubectl@v0.29.0 rollout_status.go compares availableReplicas with updatedReplicas
    expect(check(KUBERNETES, 'leader-migration-ccm', 'external-leader-migration', objects).failures).toEqual([
      'Deployment kube-system/aws-cloud-controller-manager: 1 of 2 updated replicas available; check: kubectl -n kube-system rollout status deployment/aws-cloud-controller-manager',
    ]);
  });

  test('Deployment: past its progress deadline', () => {
    const stuck = [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }];
    const objects = replace(
      settledCluster(KUBERNETES, 'leader-migration-ccm', 'kcm', true),
      'Deployment',
      'aws-cloud-controller-manager',
      deployment(NS, 'aws-cloud-controller-manager', { conditions: stuck }),
    );
    expect(check(KUBERNETES, 'leader-migration-ccm', 'external-leader-migration', objects).failures).toEqual([
      'Deployment kube-system/aws-cloud-controller-manager: exceeded its progress deadline; check: kubectl -n kube-system rollout status deployment/aws-cloud-controller-manager',
    ]);
  });

  test('Node: no providerID', () => {
    const objects = replace(
      settledCluster(KUBERNETES, 'leader-migration-ccm', 'kcm', true),
      'Node',
      'worker-0',
      node('worker-0', { providerID: null }),
    );
    expect(check(KUBERNETES, 'leader-migration-ccm', 'external-leader-migration', objects).failures).toEqual([
      'Node worker-0: has no spec.providerID; check: kubectl -n kube-system rollout status deployment/aws-cloud-controller-manager',
    ]);
  });

  test('Node: still tainted uninitialized', () => {
    const objects = replace(
      settledCluster(KUBERNETES, 'leader-migration-ccm', 'kcm', true),
      'Node',
      'worker-0',
      node('worker-0', { uninitialized: true }),
    );
    expect(check(KUBERNETES, 'leader-migration-ccm', 'external-leader-migration', objects).failures).toEqual([
      'Node worker-0: still has the node.cloudprovider.kubernetes.io/uninitialized taint; check: kubectl -n kube-system rollout status deployment/aws-cloud-controller-manager',
    ]);
  });

  test('kube-controller-manager pods: one still runs leader migration before the CCM leaves it (kubernetes external-leader-migration → external)', () => {
    const lm = kcmProcess(inputAt(KUBERNETES, 'external-leader-migration'), 'external-leader-migration').flags;
    const objects = replace(
      settledCluster(KUBERNETES, 'external-leader-migration', 'ccm', true),
      'Pod',
      'kube-controller-manager-master-1',
      kcmPod(1, [...lm, '--enable-leader-migration', '--leader-migration-config=/etc/kubernetes/leader-migration.yaml']),
    );
    expect(check(KUBERNETES, 'external-leader-migration', 'external', objects).failures).toEqual([
      'Pod kube-system/kube-controller-manager-master-1: still runs --enable-leader-migration, still runs --leader-migration-config; ' +
        'check: kubectl -n kube-system get pods -l component=kube-controller-manager -o jsonpath=\'{range .items[*]}{.metadata.name}{" "}{.spec.containers[0].command}{"\\n"}{end}\'',
    ]);
  });

  test('kube-controller-manager pods: one is still in-tree when the CCM is about to be deployed without leader migration (Azure in-tree → external)', () => {
    const objects = replace(
      settledCluster(AZURE, 'external', 'kcm', false),
      'Pod',
      'kube-controller-manager-master-2',
      kcmPod(2, ['--cloud-provider=azure', '--cloud-config=/etc/kubernetes/cloud.conf']),
    );
    expect(check(AZURE, 'in-tree', 'external', objects).failures).toEqual([
      'Pod kube-system/kube-controller-manager-master-2: runs without --cloud-provider=external (has --cloud-provider=azure); ' +
        'check: kubectl -n kube-system get pods -l component=kube-controller-manager -o jsonpath=\'{range .items[*]}{.metadata.name}{" "}{.spec.containers[0].command}{"\\n"}{end}\'',
    ]);
  });

  test('DaemonSet: a CCM run as a DaemonSet that has not rolled out', () => {
    // GIVEN a kubernetes CCM DaemonSet with one of three pods on the old template and not ready
    const { d, objects } = daemonSetCase({
      desiredNumberScheduled: 3,
      currentNumberScheduled: 3,
      updatedNumberScheduled: 2,
      numberReady: 2,
      numberAvailable: 2,
    });
    // WHEN leader-migration-ccm → external-leader-migration is checked THEN the DaemonSet's rollout is the one failure
    expect(check(d, 'leader-migration-ccm', 'external-leader-migration', objects).failures).toEqual([
      'DaemonSet kube-system/aws-cloud-controller-manager: 2 of 3 pods updated, 2 of 3 pods available; check: kubectl -n kube-system rollout status daemonset/aws-cloud-controller-manager',
    ]);
  });

  test('DaemonSet: every pod updated and ready, one not yet available: kubectl rollout status still waits', () => {
    const { d, objects } = daemonSetCase({
      desiredNumberScheduled: 3,
      currentNumberScheduled: 3,
      updatedNumberScheduled: 3,
      numberReady: 3,
      numberAvailable: 2,
    });
    expect(check(d, 'leader-migration-ccm', 'external-leader-migration', objects).failures).toEqual([
      'DaemonSet kube-system/aws-cloud-controller-manager: 2 of 3 pods available; check: kubectl -n kube-system rollout status daemonset/aws-cloud-controller-manager',
    ]);
  });

  test('DaemonSet: a CCM DaemonSet that matches no node is not rolled out (0 of 0 is not done)', () => {
    // GIVEN a CCM DaemonSet whose nodeSelector matches no node: nothing desired, nothing available
    const { d, objects } = daemonSetCase({ desiredNumberScheduled: 0, currentNumberScheduled: 0, updatedNumberScheduled: 0, numberReady: 0 });
    // WHEN the change that hands the lease to the CCM is checked THEN the empty DaemonSet fails, with the reason
    expect(check(d, 'leader-migration-ccm', 'external-leader-migration', objects).failures).toEqual([
      'DaemonSet kube-system/aws-cloud-controller-manager: no pod scheduled (desiredNumberScheduled 0: its nodeSelector, affinity or tolerations match no node), no pod available; ' +
        'check: kubectl -n kube-system rollout status daemonset/aws-cloud-controller-manager',
    ]);
  });

  test('Deployment: a CCM Deployment scaled to 0 is not rolled out', () => {
    // GIVEN the CCM Deployment with spec.replicas 0
    const zero = { ...deployment(NS, 'aws-cloud-controller-manager'), spec: { replicas: 0 } } as ExportedObject;
    (zero as unknown as { status: Record<string, number> }).status = { observedGeneration: 4, replicas: 0, updatedReplicas: 0, availableReplicas: 0 };
    const objects = [...settledCluster(KUBERNETES, 'leader-migration-ccm', 'kcm', false), zero];
    // WHEN leader-migration-ccm → external-leader-migration is checked THEN it fails: nobody would take the lease
    expect(check(KUBERNETES, 'leader-migration-ccm', 'external-leader-migration', objects).failures).toEqual([
      'Deployment kube-system/aws-cloud-controller-manager: no replica desired (spec.replicas 0), no replica available; ' +
        'check: kubectl -n kube-system rollout status deployment/aws-cloud-controller-manager',
    ]);
  });

  const either = `h="$(kubectl -n kube-system get lease ${LEASE} -o jsonpath='{.spec.holderIdentity}')"; [ "$h" = "$(kubectl -n kube-system get lease kube-controller-manager -o jsonpath='{.spec.holderIdentity}')" ] || [ "$h" = "$(kubectl -n kube-system get lease cloud-controller-manager -o jsonpath='{.spec.holderIdentity}')" ] && echo yes || echo no`;
  const ccmMain = `kubectl -n kube-system get lease cloud-controller-manager -o jsonpath='{.spec.holderIdentity}{" "}{.spec.renewTime}{"\\n"}'`;

  test.each([OPENSHIFT, KUBERNETES].map((d) => ({ name: d.name, d })))(
    '$name: in leader-migration-ccm the CCM holding the migration lease after a kube-controller-manager restart is accepted',
    ({ d }) => {
      // GIVEN leader-migration-ccm where a KCM restart let the CCM take the migration lease (both run leader migration)
      const objects = settledCluster(d, 'leader-migration-ccm', 'ccm', true);
      // WHEN the change that hands the lease to the CCM is checked THEN either live holder passes
      expect(check(d, 'leader-migration-ccm', 'external-leader-migration', objects).failures).toEqual([]);
    },
  );

  test('Lease: in leader-migration-ccm a migration lease held by neither main holder fails, naming both', () => {
    const objects = replace(settledCluster(KUBERNETES, 'leader-migration-ccm', 'kcm', true), 'Lease', LEASE, lease(LEASE, 'master-2_77aa'));
    expect(check(KUBERNETES, 'leader-migration-ccm', 'external-leader-migration', objects).failures).toEqual([
      `Lease kube-system/${LEASE}: held by "master-2_77aa", neither by the holder of Lease kube-system/kube-controller-manager ("${KCM_ID}") nor by the holder of Lease kube-system/cloud-controller-manager ("${CCM_ID}"); check: ${either}`,
    ]);
  });

  test("Lease: the CCM's main lease no longer renewed before the change that hands it the migration lease", () => {
    // GIVEN leader-migration-ccm whose CCM last renewed its main lease a minute before the newest renewal in the export
    const objects = replace(
      settledCluster(KUBERNETES, 'leader-migration-ccm', 'kcm', true),
      'Lease',
      'cloud-controller-manager',
      lease('cloud-controller-manager', CCM_ID, '2026-11-27T09:59:00.000000Z'),
    );
    // WHEN the KCMs are about to go external THEN it fails: nobody would take the migration lease
    expect(check(KUBERNETES, 'leader-migration-ccm', 'external-leader-migration', objects).failures).toEqual([
      `Lease kube-system/cloud-controller-manager: last renewed at 2026-11-27T09:59:00.000000Z, more than its 15s lease duration before the newest renewal in the export (${T0}): the CCM no longer runs leader election; check: ${ccmMain}`,
    ]);
  });

  test("Lease: the CCM's main lease held by nobody before the change that hands it the migration lease", () => {
    const objects = replace(
      settledCluster(KUBERNETES, 'leader-migration-ccm', 'kcm', true),
      'Lease',
      'cloud-controller-manager',
      lease('cloud-controller-manager', undefined),
    );
    expect(check(KUBERNETES, 'leader-migration-ccm', 'external-leader-migration', objects).failures).toEqual([
      `Lease kube-system/cloud-controller-manager: no holderIdentity (no CCM is leader: it would never take the migration lease); check: ${ccmMain}`,
    ]);
  });

  const KCM_PODS =
    'kubectl -n kube-system get pods -l component=kube-controller-manager -o jsonpath=\'{range .items[*]}{.metadata.name}{" "}{.spec.containers[0].command}{"\\n"}{end}\'';

  test('kube-controller-manager pods: one not Ready fails', () => {
    const ext = kcmProcess(inputAt(KUBERNETES, 'external-leader-migration'), 'external-leader-migration').flags;
    const objects = replace(
      settledCluster(KUBERNETES, 'external-leader-migration', 'ccm', true),
      'Pod',
      'kube-controller-manager-master-1',
      kcmPod(1, ext, false),
    );
    expect(check(KUBERNETES, 'external-leader-migration', 'external', objects).failures).toEqual([
      `Pod kube-system/kube-controller-manager-master-1: not Ready (condition Ready is not True); check: ${KCM_PODS}`,
    ]);
  });

  test('kube-controller-manager pods: a control-plane node without one fails', () => {
    const objects = settledCluster(KUBERNETES, 'external-leader-migration', 'ccm', true).filter(
      (o) => !(o.kind === 'Pod' && (o.metadata as { name: string }).name === 'kube-controller-manager-master-2'),
    );
    expect(check(KUBERNETES, 'external-leader-migration', 'external', objects).failures).toEqual([
      `Node master-2: a control-plane node with no kube-controller-manager pod (kube-system, component=kube-controller-manager) on it; check: ${KCM_PODS}`,
    ]);
  });

  test('kube-controller-manager pods: an export without control-plane nodes cannot show one per node', () => {
    const objects = settledCluster(KUBERNETES, 'external-leader-migration', 'ccm', true).filter((o) => o.kind !== 'Node');
    expect(check(KUBERNETES, 'external-leader-migration', 'external', objects).failures).toEqual([
      `Node: no node labelled node-role.kubernetes.io/control-plane or node-role.kubernetes.io/master in the export, so one kube-controller-manager per control-plane node cannot be checked (add: kubectl get nodes -o yaml); check: ${KCM_PODS}`,
    ]);
  });

  test('an object missing from the export is named once, with the command that exports it', () => {
    const objects = LMK_LMC_OS().filter((o) => o.kind !== 'KubeControllerManager');
    expect(check(OPENSHIFT, 'leader-migration-kcm', 'leader-migration-ccm', objects).failures).toEqual([
      `KubeControllerManager cluster: not in the export (add: oc get kubecontrollermanager cluster -o yaml); check: ${REVISIONS}`,
    ]);
  });
});

describe('routes and node CIDRs the kube-controller-managers would hand to nobody', () => {
  // kubeadm's podSubnet gives the KCM --allocate-node-cidrs=true and --cluster-cidr
  // (kubernetes/kubernetes@v1.30.14 cmd/kubeadm/app/phases/controlplane/manifests.go getControllerManagerCommand); RKE2 always does
  const ALLOCATES = ['--allocate-node-cidrs=true', '--cluster-cidr=10.244.0.0/16'];
  const HANDOVER_CMD =
    'kubectl -n kube-system get pods -l component=kube-controller-manager -o jsonpath=\'{range .items[*]}{.metadata.name}{" "}{.spec.containers[0].command}{"\\n"}{end}\'';
  const routes = (pod: number) =>
    `Pod kube-system/kube-controller-manager-master-${pod}: runs --allocate-node-cidrs=true with cloud routes on (--configure-cloud-routes defaults to true), so its in-tree route controller programs a cloud route per node; ` +
    'the CCM as rendered runs no route controller (spec.kubernetes.configureCloudRoutes is false, or spec.kubernetes.controllers leaves route out), so once the kube-controller-managers hand the cloud controllers over nobody programs them: ' +
    'set spec.kubernetes.configureCloudRoutes to true (with route in spec.kubernetes.controllers), or first run every kube-controller-manager with --configure-cloud-routes=false if the CNI needs no cloud routes' +
    `; check: ${HANDOVER_CMD}`;
  const cloudAllocator = (pod: number) =>
    `Pod kube-system/kube-controller-manager-master-${pod}: runs --cidr-allocator-type=CloudAllocator, which needs the in-tree provider (with --cloud-provider=external its node IPAM controller fails to start), and node IPAM does not move to the CCM: ` +
    `set spec.migration.nodeIpam to true, so the CCM allocates node CIDRs with the same allocator; check: ${HANDOVER_CMD}`;
  /** The settled cluster with every KCM pod running `extra` as well, and the CCM as rendered with `ccmFlags`. */
  function allocating(d: Distribution, kcmPhase: MigrationPhase, holder: 'kcm' | 'ccm', ccm: boolean, extra: readonly string[]): ExportedObject[] {
    const kcm = kcmProcess(inputAt(d, kcmPhase), kcmPhase);
    return settledCluster(d, kcmPhase, holder, ccm).map((o) =>
      o.kind === 'Pod' ? kcmPod(Number((o.metadata as { name: string }).name.slice(-1)), [...kcm.flags, ...extra]) : o,
    );
  }
  const rendered = (d: Distribution, ccmFlags: readonly string[], input: Partial<MigrationInput> = {}): Distribution => ({
    ...d,
    ctx: { ...d.ctx, ccm: { ...d.ctx.ccm, electionFlags: ccmFlags } },
    input: { ...d.input, ...input },
  });
  const NO_ROUTES = ['--leader-elect=true', '--configure-cloud-routes=false'];
  const WITH_ROUTES = ['--leader-elect=true', '--configure-cloud-routes=true', '--allocate-node-cidrs=true'];

  test('GIVEN KCMs that allocate node CIDRs with routes on (kubeadm podSubnet) and a CCM without routes WHEN the KCMs are about to go external THEN each KCM pod fails with the reason and the spec field', () => {
    const d = rendered(KUBERNETES, NO_ROUTES);
    const objects = allocating(d, 'leader-migration-ccm', 'kcm', true, ALLOCATES);
    expect(check(d, 'leader-migration-ccm', 'external-leader-migration', objects).failures).toEqual([routes(0), routes(1), routes(2)]);
  });

  test('GIVEN the same cluster WHEN the CCM is about to be deployed with leader migration THEN it fails there already: a CCM holding the migration lease runs route in place of the KCMs', () => {
    const d = rendered(KUBERNETES, NO_ROUTES);
    const objects = allocating(d, 'leader-migration-kcm', 'kcm', false, ALLOCATES);
    expect(check(d, 'leader-migration-kcm', 'leader-migration-ccm', objects).failures).toEqual([routes(0), routes(1), routes(2)]);
  });

  test('GIVEN Azure without leader migration WHEN in-tree → external THEN the check is the first step, before every KCM switches', () => {
    const d = rendered(AZURE, NO_ROUTES);
    const steps = stepsOf(d)('in-tree', 'external').steps;
    expect(steps[0].when).toBe('before-merge');
    expect(steps[0].checks.map((c) => c.probes?.[0]?.kind)).toEqual(['kcm-handover']);
    expect(steps[1].kcm?.flags).toContain('--cloud-provider=external');
    const objects = allocating(d, 'external', 'kcm', false, ALLOCATES);
    expect(check(d, 'in-tree', 'external', objects).failures).toEqual([routes(0), routes(1), routes(2)]);
  });

  test.each([
    ['the KCMs run --configure-cloud-routes=false', KUBERNETES, NO_ROUTES, [...ALLOCATES, '--configure-cloud-routes=false'], {}],
    ['the KCMs run the route controller nowhere (--controllers=*,-route)', KUBERNETES, NO_ROUTES, [...ALLOCATES, '--controllers=*,-route'], {}],
    ['the KCMs allocate nothing', KUBERNETES, NO_ROUTES, [], {}],
    ['the CCM runs its route controller', KUBERNETES, WITH_ROUTES, ALLOCATES, {}],
    ['the in-tree provider has no cloud routes (vSphere: Routes() is false)', { ...KUBERNETES, platform: 'VSphere' }, NO_ROUTES, ALLOCATES, {}],
  ] as const)('GIVEN %s WHEN the KCMs are about to go external THEN nothing fails', (_name, base, ccmFlags, extra, input) => {
    const d = rendered(base, ccmFlags, input);
    const objects = allocating(d, 'leader-migration-ccm', 'kcm', true, extra);
    expect(check(d, 'leader-migration-ccm', 'external-leader-migration', objects).failures).toEqual([]);
  });

  test('GIVEN GCP KCMs with --cidr-allocator-type=CloudAllocator WHEN node IPAM stays (nodeIpam false) THEN each fails; with nodeIpam true nothing does', () => {
    const gcp: Distribution = { ...KUBERNETES, name: 'kubernetes GCP', platform: 'GCP', input: { kubernetesMinor: 30, ccmMinor: 30 } };
    const extra = [...ALLOCATES, '--cidr-allocator-type=CloudAllocator'];
    const stays = rendered(gcp, WITH_ROUTES);
    expect(
      check(stays, 'leader-migration-ccm', 'external-leader-migration', allocating(stays, 'leader-migration-ccm', 'kcm', true, extra)).failures,
    ).toEqual([cloudAllocator(0), cloudAllocator(1), cloudAllocator(2)]);
    const moves = rendered(gcp, WITH_ROUTES, { nodeIpam: true });
    expect(
      check(moves, 'leader-migration-ccm', 'external-leader-migration', allocating(moves, 'leader-migration-ccm', 'kcm', true, extra)).failures,
    ).toEqual([]);
  });

  test('GIVEN a plan built without the rendered CCM (no flags to compare) WHEN the steps are built THEN no handover check is added', () => {
    const steps = stepsOf(KUBERNETES)('leader-migration-ccm', 'external-leader-migration').steps;
    expect(steps.flatMap((s) => s.checks).some((c) => c.probes?.some((p) => p.kind === 'kcm-handover'))).toBe(false);
  });
});

describe('a custom lease namespace: the kube-controller-managers must already elect their leader there', () => {
  // both leases of each side live in its --leader-elect-resource-namespace (kubernetes/kubernetes@v1.30.14
  // cmd/kube-controller-manager/app/controllermanager.go and kubernetes/cloud-provider@v0.30.14 app/controllermanager.go leaderElectAndRun)
  const CLOUD: Distribution = {
    ...KUBERNETES,
    name: 'kubernetes AWS, lease namespace cloud',
    ctx: { ...K8S_CTX, ccm: { ...K8S_CTX.ccm, namespace: 'cloud' } },
    input: { leaseNamespace: 'cloud' },
  };
  /** The settled cluster with its leases and CCM in "cloud", each KCM pod running `flags` beyond the phase's. */
  function inCloud(kcmPhase: MigrationPhase, holder: 'kcm' | 'ccm', extra: readonly string[]): ExportedObject[] {
    const kcm = kcmProcess(inputAt(CLOUD, kcmPhase), kcmPhase).flags.filter((f) => !f.startsWith('--leader-elect-resource-namespace='));
    return settledCluster(CLOUD, kcmPhase, holder, true).map((o) => {
      const meta = o.metadata as { name: string; namespace?: string };
      if (o.kind === 'Lease' || o.kind === 'Deployment') {
        return { ...o, metadata: { ...meta, namespace: 'cloud' } };
      }
      return o.kind === 'Pod' ? kcmPod(Number(meta.name.slice(-1)), [...kcm, ...extra]) : o;
    });
  }

  test('GIVEN leaseNamespace cloud WHEN the KCM runs in a phase THEN it runs --leader-elect-resource-namespace=cloud, which the flags to set never carry', () => {
    for (const phase of phaseSequence(inputAt(CLOUD, 'in-tree').support)) {
      expect([phase, kcmProcess(inputAt(CLOUD, phase), phase).flags]).toEqual([
        phase,
        expect.arrayContaining(['--leader-elect-resource-namespace=cloud']),
      ]);
    }
    expect(
      kcmProcess(inputAt(KUBERNETES, 'leader-migration-kcm'), 'leader-migration-kcm').flags.some((f) =>
        f.startsWith('--leader-elect-resource-namespace'),
      ),
    ).toBe(false);
  });

  test('GIVEN KCMs still electing in kube-system WHEN external-leader-migration → external is checked THEN each KCM pod fails, naming the flag', () => {
    const failures = check(CLOUD, 'external-leader-migration', 'external', inCloud('external-leader-migration', 'ccm', [])).failures;
    expect(failures).toEqual(
      [0, 1, 2].map(
        (i) =>
          `Pod kube-system/kube-controller-manager-master-${i}: runs without --leader-elect-resource-namespace=cloud; check: ${KCM_PODS_COMMAND}`,
      ),
    );
  });

  test('GIVEN KCMs electing in cloud WHEN each change of the walk is checked THEN nothing fails', () => {
    const lm = ['--leader-elect-resource-namespace=cloud'];
    expect(check(CLOUD, 'leader-migration-ccm', 'external-leader-migration', inCloud('leader-migration-ccm', 'kcm', lm)).failures).toEqual([]);
    expect(check(CLOUD, 'external-leader-migration', 'external', inCloud('external-leader-migration', 'ccm', lm)).failures).toEqual([]);
  });
});

describe('which phase change is checked', () => {
  const seq = phaseSequence(migrationInput('AWS').support);
  test.each([
    ['leader-migration-kcm', 'leader-migration-ccm', { from: 'leader-migration-kcm', to: 'leader-migration-ccm' }],
    ['leader-migration-ccm', 'leader-migration-kcm', { from: 'leader-migration-ccm', to: 'leader-migration-kcm' }],
    ['leader-migration-ccm', 'leader-migration-ccm', { from: 'leader-migration-ccm', to: 'external-leader-migration' }],
    [undefined, 'in-tree', { from: 'in-tree', to: 'leader-migration-kcm' }],
    ['external', 'external', undefined],
  ] as const)('rendered %s, spec %s', (rendered, spec, expected) => {
    // GIVEN the phase of the rendered tree and the spec's WHEN the change is worked out THEN it is the pull request's, else the next one
    expect(preflightChange(seq, rendered, spec)).toEqual(expected);
  });
});

describe('ccm-gitops migration preflight', () => {
  function fleet(phase: MigrationPhase, renderedPhase?: MigrationPhase): string {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'clusters'));
    fs.writeFileSync(path.join(dir, 'clusters', 'c.yaml'), stringify(awsSpec('c', { migration: { phase, kubernetesVersion: '1.26' } })));
    if (renderedPhase) {
      fs.mkdirSync(path.join(dir, 'dist', 'c'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'dist', 'c', '.migration.json'), JSON.stringify({ cluster: 'c', phase: renderedPhase }));
      fs.writeFileSync(path.join(dir, 'dist', 'c', 'MIGRATION.md'), `# Migration of c: phase \`${renderedPhase}\`\n`);
    }
    fs.mkdirSync(path.join(dir, 'export'));
    return dir;
  }
  function run(dir: string, objects: readonly ExportedObject[], extra: string[] = []) {
    objects.forEach((o, i) => fs.writeFileSync(path.join(dir, 'export', `${String(i).padStart(2, '0')}.yaml`), stringify(o)));
    const io = captureIo();
    const code = runCli(
      [
        'migration',
        'preflight',
        '--cluster',
        'c',
        '--from',
        path.join(dir, 'export'),
        '--clusters',
        path.join(dir, 'clusters'),
        '--out',
        path.join(dir, 'dist'),
        ...extra,
      ],
      io.io,
    );
    return { code, out: io.stdout(), err: io.stderr() };
  }

  test('GIVEN a pull request moving to leader-migration-ccm and a settled export WHEN preflight runs THEN it exits 0', () => {
    const dir = fleet('leader-migration-ccm', 'leader-migration-kcm');
    const r = run(dir, settledCluster(OPENSHIFT, 'leader-migration-kcm', 'kcm', false));
    expect(r.err).toBe('');
    expect(r.out.split('\n')[0]).toBe('c: "leader-migration-kcm" → "leader-migration-ccm": 6 preconditions');
    expect(r.out).toContain('every precondition holds\n');
    expect(r.code).toBe(0);
  });

  test('GIVEN a kubernetes AWS pull request sending the KCMs external while they allocate node CIDRs with cloud routes, and a spec whose CCM runs no route controller WHEN preflight runs THEN it exits 1 naming each KCM pod and spec.kubernetes.configureCloudRoutes', () => {
    const dir = fleet('external-leader-migration', 'leader-migration-ccm');
    const spec = kubernetesSpec(
      'AWS',
      'c',
      { version: '1.26', clusterName: 'kubernetes' },
      { migration: { phase: 'external-leader-migration', kubernetesVersion: '1.26' } },
    );
    fs.writeFileSync(path.join(dir, 'clusters', 'c.yaml'), stringify(spec));
    const kcm = kcmProcess(inputAt(KUBERNETES, 'leader-migration-ccm'), 'leader-migration-ccm');
    const objects = settledCluster(KUBERNETES, 'leader-migration-ccm', 'kcm', true).map((o) =>
      o.kind === 'Pod' ? kcmPod(Number((o.metadata as { name: string }).name.slice(-1)), [...kcm.flags, '--allocate-node-cidrs=true']) : o,
    );
    // the upstream AWS CCM renders as a DaemonSet, rolled out on the three control-plane nodes
    const ready = { desiredNumberScheduled: 3, updatedNumberScheduled: 3, numberAvailable: 3 };
    const r = run(dir, [...objects, ...daemonSetCase(ready).objects.filter((o) => o.kind === 'DaemonSet')]);
    expect(r.err).toBe('');
    const fails = r.out.split('\n').filter((l) => l.startsWith('FAIL '));
    expect(fails).toHaveLength(3);
    expect(fails[0]).toMatch(
      /^FAIL Pod kube-system\/kube-controller-manager-master-0: runs --allocate-node-cidrs=true with cloud routes on .* set spec\.kubernetes\.configureCloudRoutes to true /,
    );
    expect(r.code).toBe(1);
  });

  test('GIVEN a KCM not yet at the latest revision WHEN preflight runs THEN it exits 1 with the line', () => {
    const dir = fleet('leader-migration-ccm', 'leader-migration-kcm');
    const objects = settledCluster(OPENSHIFT, 'leader-migration-kcm', 'kcm', false).map((o) =>
      o.kind === 'KubeControllerManager' ? kubeControllerManager({ override: true, revisions: [8, 8, 6] }) : o,
    );
    const r = run(dir, objects);
    expect(r.out).toContain('FAIL KubeControllerManager cluster: node master-2 runs revision 6, not latestAvailableRevision 8; check: ');
    expect(r.out).toContain('1 problem: do not merge yet\n');
    expect(r.code).toBe(1);
  });

  test('GIVEN an export folder that does not exist WHEN preflight runs THEN it exits 2', () => {
    const dir = fleet('leader-migration-ccm', 'leader-migration-kcm');
    const io = captureIo();
    const code = runCli(
      [
        'migration',
        'preflight',
        '--cluster',
        'c',
        '--from',
        path.join(dir, 'nowhere'),
        '--clusters',
        path.join(dir, 'clusters'),
        '--out',
        path.join(dir, 'dist'),
      ],
      io.io,
    );
    expect(io.stderr()).toBe(`error: ${path.join(dir, 'nowhere')} does not exist; pass the folder (or file) holding the oc get -o yaml output\n`);
    expect(code).toBe(2);
  });

  test('GIVEN the spec keeps the rendered phase and --only-phase-change WHEN preflight runs THEN nothing is checked (exit 0); without it the next change is', () => {
    const dir = fleet('leader-migration-kcm', 'leader-migration-kcm');
    const only = run(dir, [], ['--only-phase-change']);
    expect(only.out).toBe('c: the spec keeps phase "leader-migration-kcm"; no phase change to check\n');
    expect(only.code).toBe(0);
    const next = run(dir, [{ apiVersion: 'v1', kind: 'List', items: [] }]);
    expect(next.out.split('\n')[0]).toBe('c: "leader-migration-kcm" → "leader-migration-ccm": 6 preconditions');
    expect(next.code).toBe(1);
  });

  test('GIVEN a rendered record that contradicts MIGRATION.md WHEN preflight runs THEN it exits 2 naming the record', () => {
    const dir = fleet('leader-migration-ccm', 'leader-migration-kcm');
    fs.writeFileSync(path.join(dir, 'dist', 'c', 'MIGRATION.md'), '# Migration of c: phase `in-tree`\n');
    const r = run(dir, []);
    expect(r.err).toBe(
      `error: ${path.join(dir, 'dist', 'c', '.migration.json')} says phase "leader-migration-kcm", but the rendered tree says "in-tree" in MIGRATION.md; pass --out with the tree rendered before this change\n`,
    );
    expect(r.code).toBe(2);
  });

  test('GIVEN an invalid spec WHEN preflight runs THEN it exits 2 with the spec problem', () => {
    const dir = fleet('leader-migration-ccm', 'leader-migration-kcm');
    fs.writeFileSync(path.join(dir, 'clusters', 'c.yaml'), stringify(awsSpec('c', { migration: { phase: 'sideways', kubernetesVersion: '1.26' } })));
    const r = run(dir, []);
    expect(r.err.split('\n')[0]).toBe(
      `error: the cluster specs have 1 problem; fix them (ccm-gitops validate-spec ${path.join(dir, 'clusters')}) before a preflight`,
    );
    expect(r.code).toBe(2);
  });

  test('GIVEN an OpenShift pull request to external-leader-migration WHEN the CCM is checked THEN it is the Deployment the plan names (the rendered one)', () => {
    const dir = fleet('external-leader-migration', 'leader-migration-ccm');
    const objects = settledCluster(OPENSHIFT, 'leader-migration-ccm', 'kcm', false);
    const r = run(dir, objects);
    expect(r.out).toContain(
      'FAIL Deployment openshift-cloud-controller-manager/aws-cloud-controller-manager: not in the export ' +
        '(add: kubectl -n openshift-cloud-controller-manager get deployment/aws-cloud-controller-manager -o yaml); ' +
        'check: kubectl -n openshift-cloud-controller-manager rollout status deployment/aws-cloud-controller-manager\n',
    );
    expect(r.code).toBe(1);
    const settled = run(dir, [...objects, deployment('openshift-cloud-controller-manager', 'aws-cloud-controller-manager')]);
    expect(settled.out).toContain('every precondition holds\n');
    expect(settled.code).toBe(0);
  });

  test('GIVEN an unknown cluster, or no --from WHEN preflight runs THEN it exits 2', () => {
    const dir = fleet('leader-migration-ccm', 'leader-migration-kcm');
    const io = captureIo();
    expect(
      runCli(['migration', 'preflight', '--cluster', 'nope', '--from', path.join(dir, 'export'), '--clusters', path.join(dir, 'clusters')], io.io),
    ).toBe(2);
    expect(io.stderr()).toBe(`error: no cluster "nope" in ${path.join(dir, 'clusters')}; pass --cluster with a spec's metadata.name\n`);
    expect(runCli(['migration', 'preflight', '--cluster', 'c'], captureIo().io)).toBe(2);
  });
});

describe('the CI workflow init writes runs the preflight', () => {
  test('GIVEN examples/ci/ccm-gitops.yml WHEN its pull-request steps are read THEN one runs migration preflight per committed preflight/<cluster>/ export against the base tree, and skips with a notice without one', () => {
    const workflow = parse(fs.readFileSync(path.join(__dirname, '..', 'examples', 'ci', 'ccm-gitops.yml'), 'utf8')) as {
      on: { pull_request: { paths: string[] } };
      jobs: { render: { steps: { name?: string; if?: string; run?: string }[] } };
    };
    expect(workflow.on.pull_request.paths).toContain('preflight/**');
    const step = workflow.jobs.render.steps.find((s) => s.run?.includes('migration preflight'))!;
    expect(step.if).toBe("github.event_name == 'pull_request'");
    expect(step.run).toContain(
      'npx ccm-gitops migration preflight --cluster "$cluster" --from "$export" --clusters clusters --out "$base/dist" --only-phase-change || failed=1',
    );
    expect(step.run).toContain('git archive "origin/${{ github.base_ref }}" dist');
    expect(step.run).toContain('echo "::notice::no preflight/<cluster>/ export attached: migration preflight skipped"');
  });
});

describe('the sharded CI workflow runs the preflight too', () => {
  test('GIVEN examples/ci/ccm-gitops-sharded.yml WHEN its assemble job is read THEN it runs the same migration preflight step as ccm-gitops.yml, on pull requests that touch preflight/', () => {
    type Workflow = { on: { pull_request: { paths: string[] } }; jobs: Record<string, { steps: { name?: string; if?: string; run?: string }[] }> };
    const read = (name: string) => parse(fs.readFileSync(path.join(__dirname, '..', 'examples', 'ci', name), 'utf8')) as Workflow;
    const single = read('ccm-gitops.yml');
    const sharded = read('ccm-gitops-sharded.yml');
    const preflight = (w: Workflow, job: string) => w.jobs[job].steps.find((s) => s.run?.includes('migration preflight'));
    expect(sharded.on.pull_request.paths).toContain('preflight/**');
    expect(preflight(sharded, 'assemble')).toEqual(preflight(single, 'render'));
  });
});
