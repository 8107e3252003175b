/**
 * `ccm-gitops migration preflight`: checks an export of a cluster (`oc get -o
 * yaml` / `kubectl get -o yaml`) against the preconditions of its next phase
 * change. The preconditions are the probes of the plan's own checks
 * (`PlanCheck.probes`, src/migration/steps.ts), so the list cannot drift from
 * MIGRATION.md. Pure: no cdk8s import (the command loads the steps' context lazily).
 *
 * Object shapes, upstream:
 * - KubeControllerManager: openshift/api@release-4.14 operator/v1/types.go (`OperatorSpec.unsupportedConfigOverrides`,
 *   `StaticPodOperatorStatus.latestAvailableRevision`, `nodeStatuses[].currentRevision`)
 * - MachineConfigPool: openshift/api@release-4.15 machineconfiguration/v1/types.go (`MachineConfigPoolStatus`:
 *   `machineCount`, `updatedMachineCount`, `readyMachineCount`, `degradedMachineCount`, condition `Degraded`)
 * - Lease: kubernetes/api@v0.29.0 coordination/v1/types.go (`LeaseSpec`: `holderIdentity`, `leaseDurationSeconds`, `renewTime`)
 * - Deployment / DaemonSet: kubernetes/api@v0.29.0 apps/v1/types.go (`DeploymentStatus`: `observedGeneration`, `replicas`,
 *   `updatedReplicas`, `availableReplicas`, `conditions`; `DaemonSetStatus`: `observedGeneration`, `desiredNumberScheduled`,
 *   `updatedNumberScheduled`, `numberAvailable`), the fields `kubectl rollout status` reads
 */
import { ExportedObject } from '../import/live-cluster';
import { MigrationPhase } from '../migration/phases';
import { PhaseTransition, PlanCheck, PlanStep, Probe } from '../migration/steps';
import { flagValue, NODE_IPAM_CONTROLLER, ROUTE_CONTROLLER, runsController } from '../migration/controller-flags';
import { arr, Obj, rec, str } from '../util/exported-fields';

/** The taint a kubelet with `--cloud-provider=external` puts on its Node until a CCM initializes it (k8s.io/cloud-provider api/well_known_taints.go). */
export const UNINITIALIZED_TAINT = 'node.cloudprovider.kubernetes.io/uninitialized';

/** A precondition of a phase change: a plan check with the step it belongs to. */
export interface Precondition {
  readonly step: PlanStep;
  readonly check: PlanCheck;
}

/**
 * The preconditions of `change`: the checks of its before-merge steps; going
 * forward, first the checks of the merge and after-merge steps of `settle`
 * (the change into the phase the cluster is in), which must have completed.
 */
export function preconditions(change: PhaseTransition, settle?: PhaseTransition): Precondition[] {
  const of = (t: PhaseTransition | undefined, when: readonly PlanStep['when'][]) =>
    (t?.steps ?? []).filter((s) => when.includes(s.when)).flatMap((step) => step.checks.map((check) => ({ step, check })));
  const all = [...of(settle, ['merge', 'after-merge']), ...of(change, ['before-merge'])];
  // a check that two steps repeat is checked once
  return all.filter((p, i) => all.findIndex((q) => q.check.check === p.check.check && q.check.command === p.check.command) === i);
}

/**
 * The preconditions of `from` → `to`, with `stepsOf` building a change's steps as the plan does:
 * going forward, the change into `from` must have finished; a rollback may be urgent and is not held back by that.
 */
export function changePreconditions(
  sequence: readonly MigrationPhase[],
  from: MigrationPhase,
  to: MigrationPhase,
  stepsOf: (from: MigrationPhase, to: MigrationPhase) => PhaseTransition,
): Precondition[] {
  const i = sequence.indexOf(from);
  const back = sequence.indexOf(to) > i && i > 0 ? sequence[i - 1] : undefined;
  return preconditions(stepsOf(from, to), back ? stepsOf(back, from) : undefined);
}

/** What preflight found: a line per failed precondition, and the checks an export cannot answer. */
export interface PreflightResult {
  readonly failures: readonly string[];
  readonly unchecked: readonly string[];
}

/** Checks every precondition against the exported objects (Lists flattened). */
export function runPreflight(objects: readonly ExportedObject[], list: readonly Precondition[]): PreflightResult {
  const index = new ObjectIndex(objects);
  const failures: string[] = [];
  const unchecked: string[] = [];
  const seen = new Set<string>();
  for (const { step, check } of list) {
    if (!check.probes || check.probes.length === 0) {
      unchecked.push(`not checked from an export: ${check.check}${check.command ? `; check: ${check.command}` : ''}`);
      continue;
    }
    // the step's own command fixes it; where the step is a merge or has none, the check's command waits or shows
    const fix = step.when === 'before-merge' && step.command ? `fix: ${step.command}` : `check: ${check.command ?? check.check}`;
    for (const probe of check.probes) {
      // one missing object fails every probe that reads it: said once
      for (const wrong of evaluate(index, probe).filter((w) => !seen.has(w))) {
        seen.add(wrong);
        failures.push(`${wrong}; ${fix}`);
      }
    }
  }
  return { failures, unchecked };
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** A scalar of an export as text, or the fallback when it is missing or not a scalar. */
function shown(v: unknown, fallback: string): string {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : fallback;
}

class ObjectIndex {
  private readonly objects: Obj[] = [];

  constructor(exported: readonly ExportedObject[]) {
    const walk = (o: unknown) => {
      const r = rec(o);
      if (Array.isArray(r.items)) {
        r.items.forEach(walk);
      } else if (typeof r.kind === 'string') {
        this.objects.push(r);
      }
    };
    exported.forEach(walk);
  }

  all(kind: string, namespace?: string): Obj[] {
    return this.objects.filter((o) => o.kind === kind && (namespace === undefined || (rec(o.metadata).namespace ?? namespace) === namespace));
  }

  one(kind: string, name: string, namespace?: string): Obj | undefined {
    return this.all(kind, namespace).find((o) => rec(o.metadata).name === name);
  }
}

function nameOf(o: Obj): string {
  return shown(rec(o.metadata).name, '?');
}

function evaluate(index: ObjectIndex, probe: Probe): string[] {
  switch (probe.kind) {
    case 'kcm-revisions': {
      const kcm = index.one('KubeControllerManager', 'cluster');
      if (!kcm) {
        return ['KubeControllerManager cluster: not in the export (add: oc get kubecontrollermanager cluster -o yaml)'];
      }
      const status = rec(kcm.status);
      const latest = num(status.latestAvailableRevision);
      const nodes = arr(status.nodeStatuses).map(rec);
      if (latest === undefined || nodes.length === 0) {
        return ['KubeControllerManager cluster: status has no latestAvailableRevision or nodeStatuses'];
      }
      return nodes
        .filter((n) => num(n.currentRevision) !== latest)
        .map(
          (n) =>
            `KubeControllerManager cluster: node ${shown(n.nodeName, '?')} runs revision ${shown(n.currentRevision, 'none')}, not latestAvailableRevision ${latest}`,
        );
    }
    case 'kcm-override': {
      const kcm = index.one('KubeControllerManager', 'cluster');
      if (!kcm) {
        return ['KubeControllerManager cluster: not in the export (add: oc get kubecontrollermanager cluster -o yaml)'];
      }
      const args = rec(rec(rec(kcm.spec).unsupportedConfigOverrides).extendedArguments);
      const wrong = probe.keys.filter((k) => (args[k] !== undefined && args[k] !== null) !== probe.present);
      return wrong.length === 0
        ? []
        : [
            `KubeControllerManager cluster: spec.unsupportedConfigOverrides.extendedArguments ${probe.present ? 'lacks' : 'still has'} ${wrong.join(' and ')}`,
          ];
    }
    case 'pools-updated': {
      const pools = index.all('MachineConfigPool');
      const wanted = probe.pools ?? pools.map(nameOf);
      if (wanted.length === 0) {
        return ['MachineConfigPool: none in the export (add: oc get machineconfigpools -o yaml)'];
      }
      return wanted.flatMap((name) => {
        const pool = pools.find((p) => nameOf(p) === name);
        if (!pool) {
          return [`MachineConfigPool ${name}: not in the export (add: oc get machineconfigpool ${name} -o yaml)`];
        }
        const s = rec(pool.status);
        const machines = num(s.machineCount) ?? 0;
        const degraded = arr(s.conditions)
          .map(rec)
          .some((c) => c.type === 'Degraded' && c.status === 'True');
        const problems = [
          ...(num(s.updatedMachineCount) !== machines ? [`${shown(s.updatedMachineCount, '0')} of ${machines} machines updated`] : []),
          ...(num(s.readyMachineCount) !== machines ? [`${shown(s.readyMachineCount, '0')} of ${machines} machines ready`] : []),
          ...((num(s.degradedMachineCount) ?? 0) > 0 || degraded ? [`degraded (${shown(s.degradedMachineCount, '0')} degraded machines)`] : []),
        ];
        return problems.length === 0 ? [] : [`MachineConfigPool ${name}: ${problems.join(', ')}`];
      });
    }
    case 'lease-holder': {
      const where = (name: string) => `Lease ${probe.namespace}/${name}`;
      const names = [probe.lease, ...probe.mains];
      const leases = names.map((n) => index.one('Lease', n, probe.namespace));
      const missing = names
        .filter((_, i) => !leases[i])
        .map((n) => `${where(n)}: not in the export (add: kubectl -n ${probe.namespace} get lease ${n} -o yaml)`);
      if (missing.length > 0) {
        return missing;
      }
      const [ls, ...mains] = leases.map((o) => rec(o!.spec));
      const holder = str(ls.holderIdentity);
      if (!holder) {
        return [`${where(probe.lease)}: no holderIdentity (no controller manager holds the migration lease)`];
      }
      const i = mains.findIndex((ms) => str(ms.holderIdentity) === holder);
      if (i < 0) {
        const of = probe.mains.map((m, j) => `the holder of ${where(m)} ("${str(mains[j].holderIdentity) ?? 'none'}")`);
        return [`${where(probe.lease)}: held by "${holder}", ${of.length === 1 ? `not by ${of[0]}` : `neither by ${of.join(' nor by ')}`}`];
      }
      // both leases are renewed by the same process: a migration lease renewed a lease duration before the main one is stale
      const renewed = Date.parse(str(ls.renewTime) ?? '');
      const mainRenewed = Date.parse(str(mains[i].renewTime) ?? '');
      const duration = num(ls.leaseDurationSeconds) ?? 15;
      if (Number.isNaN(renewed)) {
        return [`${where(probe.lease)}: no renewTime`];
      }
      if (!Number.isNaN(mainRenewed) && mainRenewed - renewed > duration * 1000) {
        return [
          `${where(probe.lease)}: last renewed at ${String(ls.renewTime)}, more than its ${duration}s lease duration before ${where(probe.mains[i])} (${String(mains[i].renewTime)}): its holder no longer renews it`,
        ];
      }
      return [];
    }
    case 'lease-live': {
      const where = `Lease ${probe.namespace}/${probe.lease}`;
      const o = index.one('Lease', probe.lease, probe.namespace);
      if (!o) {
        return [`${where}: not in the export (add: kubectl -n ${probe.namespace} get lease ${probe.lease} -o yaml)`];
      }
      const spec = rec(o.spec);
      if (!str(spec.holderIdentity)) {
        return [`${where}: no holderIdentity (no CCM is leader: it would never take the migration lease)`];
      }
      // an export has no clock: the newest renewal of any lease in it stands for the time it was taken
      const renewed = Date.parse(str(spec.renewTime) ?? '');
      const newest = index
        .all('Lease')
        .map((l) => str(rec(l.spec).renewTime))
        .filter((t): t is string => t !== undefined && !Number.isNaN(Date.parse(t)))
        .reduce<string | undefined>((a, t) => (a === undefined || Date.parse(t) > Date.parse(a) ? t : a), undefined);
      const duration = num(spec.leaseDurationSeconds) ?? 15;
      if (Number.isNaN(renewed)) {
        return [`${where}: no renewTime`];
      }
      if (newest !== undefined && Date.parse(newest) - renewed > duration * 1000) {
        return [
          `${where}: last renewed at ${String(spec.renewTime)}, more than its ${duration}s lease duration before the newest renewal in the export (${newest}): ${probe.who} no longer runs leader election`,
        ];
      }
      return [];
    }
    case 'workload-rolled-out': {
      const [kind, name] = workloadRef(probe.workload);
      const o = index.one(kind, name, probe.namespace);
      const label = `${kind} ${probe.namespace}/${name}`;
      if (!o) {
        return [`${label}: not in the export (add: kubectl -n ${probe.namespace} get ${probe.workload} -o yaml)`];
      }
      const problems = rolloutProblems(o);
      return problems.length === 0 ? [] : [`${label}: ${problems.join(', ')}`];
    }
    case 'workload-absent': {
      const [kind, name] = workloadRef(probe.workload);
      return index.one(kind, name, probe.namespace) ? [`${kind} ${probe.namespace}/${name}: still exists`] : [];
    }
    case 'kcm-handover': {
      const pods = kcmPods(index, probe);
      return typeof pods === 'string'
        ? [pods]
        : pods.flatMap((pod) => handoverProblems(podFlags(pod), probe).map((p) => `Pod ${probe.namespace}/${nameOf(pod)}: ${p}`));
    }
    case 'kcm-pods': {
      const pods = kcmPods(index, probe);
      if (typeof pods === 'string') {
        return [pods];
      }
      const perPod = pods.flatMap((pod) => {
        const flags = podFlags(pod);
        const problems = [
          ...(ready(pod) ? [] : ['not Ready (condition Ready is not True)']),
          ...probe.present
            .filter((f) => !hasFlag(flags, f))
            .map(
              (f) =>
                `runs without ${f}${flagValue(flags, f.split('=')[0]) !== undefined ? ` (has ${f.split('=')[0]}=${flagValue(flags, f.split('=')[0])})` : ''}`,
            ),
          ...probe.absent.filter((n) => flagValue(flags, n) !== undefined).map((n) => `still runs ${n}`),
        ];
        return problems.length === 0 ? [] : [`Pod ${probe.namespace}/${nameOf(pod)}: ${problems.join(', ')}`];
      });
      // a node whose KCM pod is gone (its manifest moved away, the mirror pod deleted) would still run the old flags unseen
      const controlPlane = index.all('Node').filter((n) => CONTROL_PLANE_LABELS.some((l) => rec(rec(n.metadata).labels)[l] !== undefined));
      if (controlPlane.length === 0) {
        return [
          ...perPod,
          `Node: no node labelled ${CONTROL_PLANE_LABELS.join(' or ')} in the export, so one kube-controller-manager per control-plane node cannot be checked (add: kubectl get nodes -o yaml)`,
        ];
      }
      const onNodes = new Set(pods.map((p) => str(rec(p.spec).nodeName)));
      return [
        ...perPod,
        ...controlPlane
          .filter((n) => !onNodes.has(nameOf(n)))
          .map((n) => `Node ${nameOf(n)}: a control-plane node with no kube-controller-manager pod (${probe.namespace}, ${probe.label}) on it`),
      ];
    }
    case 'nodes-initialized': {
      const nodes = index.all('Node');
      if (nodes.length === 0) {
        return ['Node: none in the export (add: kubectl get nodes -o yaml)'];
      }
      return nodes.flatMap((n) => {
        const spec = rec(n.spec);
        const problems = [
          ...(str(spec.providerID) ? [] : ['has no spec.providerID']),
          ...(arr(spec.taints)
            .map(rec)
            .some((t) => t.key === UNINITIALIZED_TAINT)
            ? [`still has the ${UNINITIALIZED_TAINT} taint`]
            : []),
        ];
        return problems.length === 0 ? [] : [`Node ${nameOf(n)}: ${problems.join(', ')}`];
      });
    }
  }
}

/** The kube-controller-manager pods a probe names, or the line saying none is in the export. */
function kcmPods(index: ObjectIndex, probe: { readonly namespace: string; readonly label: string }): Obj[] | string {
  const [key, value] = probe.label.split('=') as [string, string];
  const pods = index.all('Pod', probe.namespace).filter((p) => rec(rec(p.metadata).labels)[key] === value);
  return pods.length > 0
    ? pods
    : `kube-controller-manager pods (${probe.namespace}, ${probe.label}): none in the export (add: kubectl -n ${probe.namespace} get pods -l ${probe.label} -o yaml)`;
}

/**
 * What a kube-controller-manager runs in-tree that nobody would run once the CCM leads
 * (kubernetes/kubernetes@v1.30.14 cmd/kube-controller-manager/app/core.go): `startNodeRouteController` needs
 * --allocate-node-cidrs (default false) and --configure-cloud-routes (default true: kubernetes/cloud-provider@v0.30.14
 * options/kubecloudshared.go) and runs only with an in-tree cloud; `startNodeIpamController` refuses a CloudAllocator without one.
 */
function handoverProblems(flags: readonly string[], probe: Extract<Probe, { kind: 'kcm-handover' }>): string[] {
  if (flagValue(flags, '--allocate-node-cidrs') !== 'true') {
    return [];
  }
  const problems: string[] = [];
  if (probe.inTreeRoutes && !probe.ccmRoutes && flagValue(flags, '--configure-cloud-routes') !== 'false' && runsController(flags, ROUTE_CONTROLLER)) {
    problems.push(
      'runs --allocate-node-cidrs=true with cloud routes on (--configure-cloud-routes defaults to true), so its in-tree route controller programs a cloud route per node; ' +
        'the CCM as rendered runs no route controller (spec.kubernetes.configureCloudRoutes is false, or spec.kubernetes.controllers leaves route out), so once the kube-controller-managers hand the cloud controllers over nobody programs them: ' +
        'set spec.kubernetes.configureCloudRoutes to true (with route in spec.kubernetes.controllers), or first run every kube-controller-manager with --configure-cloud-routes=false if the CNI needs no cloud routes',
    );
  }
  if (!probe.nodeIpam && flagValue(flags, '--cidr-allocator-type') === 'CloudAllocator' && runsController(flags, NODE_IPAM_CONTROLLER)) {
    problems.push(
      'runs --cidr-allocator-type=CloudAllocator, which needs the in-tree provider (with --cloud-provider=external its node IPAM controller fails to start), and node IPAM does not move to the CCM: ' +
        'set spec.migration.nodeIpam to true, so the CCM allocates node CIDRs with the same allocator',
    );
  }
  return problems;
}

/**
 * The labels of a control-plane Node: kubeadm's (kubernetes/kubernetes@v1.29.0 cmd/kubeadm/app/constants/constants.go
 * LabelNodeRoleControlPlane) and the older master role some distributions still set alone.
 */
const CONTROL_PLANE_LABELS = ['node-role.kubernetes.io/control-plane', 'node-role.kubernetes.io/master'];

/** Whether a pod's Ready condition is True (kubernetes/api@v0.29.0 core/v1/types.go PodReady). */
function ready(pod: Obj): boolean {
  return arr(rec(pod.status).conditions)
    .map(rec)
    .some((c) => c.type === 'Ready' && c.status === 'True');
}

function workloadRef(ref: string): [string, string] {
  const [kind, name] = ref.split('/') as [string, string];
  return [kind === 'daemonset' ? 'DaemonSet' : 'Deployment', name];
}

/**
 * What `kubectl rollout status` would still wait for
 * (kubernetes/kubectl@v0.29.0 pkg/polymorphichelpers/rollout_status.go): the
 * generation observed; a Deployment with every replica updated, no old one
 * left and every updated one available, not past its progress deadline; a
 * DaemonSet with every scheduled pod updated and available. Unlike kubectl, a
 * workload with nothing desired fails: the probe is of the CCM, which must run.
 */
function rolloutProblems(o: Obj): string[] {
  const status = rec(o.status);
  const generation = num(rec(o.metadata).generation);
  const observed = num(status.observedGeneration);
  const problems: string[] = [];
  if (generation !== undefined && (observed === undefined || observed < generation)) {
    problems.push(`status.observedGeneration ${String(observed ?? 'none')} is behind metadata.generation ${generation}`);
  }
  if (o.kind === 'DaemonSet') {
    const desired = num(status.desiredNumberScheduled) ?? 0;
    const updated = num(status.updatedNumberScheduled) ?? 0;
    const available = num(status.numberAvailable) ?? 0;
    if (desired === 0) {
      // kubectl calls 0 of 0 rolled out; for a CCM it means nobody takes over the cloud controllers
      problems.push('no pod scheduled (desiredNumberScheduled 0: its nodeSelector, affinity or tolerations match no node), no pod available');
    }
    if (updated < desired) {
      problems.push(`${updated} of ${desired} pods updated`);
    }
    if (available < desired) {
      problems.push(`${available} of ${desired} pods available`);
    }
  } else {
    const desired = num(rec(o.spec).replicas) ?? 1;
    const updated = num(status.updatedReplicas) ?? 0;
    const total = num(status.replicas) ?? 0;
    const available = num(status.availableReplicas) ?? 0;
    const deadline = arr(status.conditions)
      .map(rec)
      .some((c) => c.type === 'Progressing' && c.reason === 'ProgressDeadlineExceeded');
    if (deadline) {
      problems.push('exceeded its progress deadline');
    }
    if (desired === 0) {
      problems.push('no replica desired (spec.replicas 0), no replica available');
    }
    if (updated < desired) {
      problems.push(`${updated} of ${desired} replicas updated`);
    }
    if (total > updated) {
      problems.push(`${total - updated} old ${total - updated === 1 ? 'replica' : 'replicas'} pending termination`);
    }
    if (available < updated) {
      problems.push(`${available} of ${updated} updated replicas available`);
    }
  }
  return problems;
}

/**
 * The flags of a kube-controller-manager pod: its first container's command and args, split on
 * whitespace (OpenShift's operator passes one shell script as an argument).
 */
function podFlags(pod: Obj): string[] {
  const containers = arr(rec(pod.spec).containers).map(rec);
  const c = containers.find((x) => x.name === 'kube-controller-manager') ?? containers[0] ?? {};
  return [...arr(c.command), ...arr(c.args)]
    .filter((a): a is string => typeof a === 'string')
    .flatMap((a) => a.split(/\s+/))
    .map((t) => t.replace(/^["']|["';]$/g, ''))
    .filter((t) => t.startsWith('--'));
}

function hasFlag(flags: readonly string[], flag: string): boolean {
  const [name, ...rest] = flag.split('=');
  return flagValue(flags, name) === (rest.length > 0 ? rest.join('=') : 'true');
}

/** The phase change preflight checks, from the phase the rendered tree is in and the spec's phase. */
export function preflightChange(
  sequence: readonly MigrationPhase[],
  rendered: MigrationPhase | undefined,
  spec: MigrationPhase,
): { from: MigrationPhase; to: MigrationPhase } | undefined {
  if (rendered !== undefined && rendered !== spec) {
    return { from: rendered, to: spec };
  }
  // the tree already renders the spec's phase (or nothing yet): what is checked is the move to the next one
  const i = sequence.indexOf(spec);
  return i >= 0 && i + 1 < sequence.length ? { from: spec, to: sequence[i + 1] } : undefined;
}
