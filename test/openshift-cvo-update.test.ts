import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'yaml';
import { HANDOVER_FILE } from '../src/openshift/handover';
import { renderCluster } from '../src/pipeline/render';
import { platformSpec, preparedCluster, readTree } from './helpers';
import { readRenderedCluster, RenderedCluster, replayUpdate } from './oracle/cvo/model';
import { releasePayload } from './oracle/cvo/payload';

const DIST = path.join(__dirname, '..', 'dist');

/** Every OpenShift cluster of the example fleet (those with a handover), with its mode and release. */
function openshiftClusters(): { name: string; mode: string; release?: string; tree: Record<string, string> }[] {
  return fs
    .readdirSync(DIST)
    .filter((d) => fs.existsSync(path.join(DIST, d, HANDOVER_FILE)))
    .sort()
    .map((name) => {
      const tree = readTree(path.join(DIST, name));
      const head = /Mode `(\w+)`, (?:release (\d+\.\d+\.\d+))?/.exec(tree[HANDOVER_FILE])!;
      return { name, mode: head[1], release: head[2], tree };
    });
}

/** What renderCluster gives, as the files of `dist/<cluster>/`. */
function renderedTree(spec: Record<string, any>): Record<string, string> {
  const prefix = `${spec.metadata.name}/`;
  return Object.fromEntries(
    renderCluster(preparedCluster(spec))
      .files.filter((f) => f.path.startsWith(prefix))
      .map((f) => [f.path.slice(prefix.length), f.content]),
  );
}

function nextPatch(release: string): string {
  const [x, y, z] = release.split('.').map(Number);
  return `${x}.${y}.${z + 1}`;
}

function nextMinor(release: string): string {
  const [x, y] = release.split('.').map(Number);
  return `${x}.${y + 1}.0`;
}

/** The cluster after the way back: no overrides, the operator Deployment back to CVO with one replica. */
function afterWayBack(c: RenderedCluster): RenderedCluster {
  return { objects: c.objects, overrides: [], scaledToZero: [] };
}

const CCM_CO = '0000_26_cloud-controller-manager-operator_60_clusteroperator.yaml';
const MCO_CO = '0000_80_machine-config_06_clusteroperator.yaml';

describe('z-stream updates in gitops mode do not stall (CVO model)', () => {
  test('GIVEN dist/aws-prod-1 (gitops, 4.22.3) WHEN CVO replays a z-stream update to 4.22.4 THEN it completes: the ClusterOperator and the operator Deployment are skipped, the nodes update', () => {
    const cluster = readRenderedCluster(readTree(path.join(DIST, 'aws-prod-1')));
    const replay = replayUpdate(cluster, '4.22.3', releasePayload('4.22.4'));
    expect(replay.precondition).toEqual({ result: 'warn', reason: 'ClusterVersionOverridesSet' });
    expect(replay.stall).toBeUndefined();
    expect(replay.notReached).toEqual([]);
    expect(replay.skipped).toEqual(['0000_26_cloud-controller-manager-operator_50_deployment.yaml', CCM_CO]);
    expect(replay.applied).toContain(MCO_CO);
  });

  test('GIVEN gitops mode without the ClusterOperator override (the operator scaled to 0) WHEN CVO replays a z-stream update THEN it stalls at runlevel 0000_26 and the nodes never update', () => {
    const cluster = readRenderedCluster(readTree(path.join(DIST, 'aws-prod-1')));
    const withoutFix: RenderedCluster = { ...cluster, overrides: cluster.overrides.filter((o) => o.kind !== 'ClusterOperator') };
    const replay = replayUpdate(withoutFix, '4.22.3', releasePayload('4.22.4'));
    expect(replay.stall).toEqual({
      runlevel: '0000_26',
      component: 'cloud-controller-manager-operator',
      manifest: CCM_CO,
      reason: 'Cluster operator cloud-controller-manager is updating versions: operator reported by nobody to 4.22.4',
    });
    expect(replay.notReached).toEqual([
      '0000_50_cluster-ingress-operator_02-deployment.yaml',
      '0000_50_cluster-ingress-operator_03-cluster-operator.yaml',
      '0000_80_machine-config_04_deployment.yaml',
      MCO_CO,
    ]);
  });

  test('GIVEN every OpenShift cluster of the example fleet WHEN CVO replays a z-stream update THEN none stalls; gitops clusters before 4.22 are refused before anything is applied, as their handover says', () => {
    const clusters = openshiftClusters().filter((c) => c.mode === 'gitops' && c.release);
    expect(clusters.length).toBeGreaterThan(8);
    for (const c of clusters) {
      const replay = replayUpdate(readRenderedCluster(c.tree), c.release!, releasePayload(nextPatch(c.release!)));
      expect({ cluster: c.name, stall: replay.stall }).toEqual({ cluster: c.name, stall: undefined });
      const before422 = Number(c.release!.split('.')[1]) < 22;
      expect({ cluster: c.name, result: replay.precondition.result }).toEqual({ cluster: c.name, result: before422 ? 'block' : 'warn' });
      expect(c.tree[HANDOVER_FILE]).toContain(before422 ? 'refuses every update while an override is set' : 'so the update completes');
    }
  });

  test('GIVEN gitops mode on 4.22 WHEN rendered THEN the handover sets the ClusterOperator override and says what a z-stream and a minor update do', () => {
    const tree = renderedTree(platformSpec('AWS', 'g', { openshift: { release: '4.22.3' } }));
    const cluster = readRenderedCluster(tree);
    expect(cluster.overrides.map((o) => `${o.kind} ${o.group} ${o.name}`)).toEqual([
      'ClusterOperator config.openshift.io cloud-controller-manager',
      'Deployment apps cluster-cloud-controller-manager-operator',
    ]);
    expect(tree[HANDOVER_FILE]).not.toContain('Z-stream updates still apply');
    expect(tree[HANDOVER_FILE]).toContain('- **Minor update** (4.Y to 4.Y+1): CVO refuses it while an override is set');
  });
});

describe('operator mode and minor updates (CVO model)', () => {
  test('GIVEN dist/aws-operator-1 (operator, 4.22.3) WHEN a z-stream update starts THEN CVO waits at 0000_26 for the pinned RELEASE_VERSION; AND WHEN the spec is bumped to the new release THEN it completes', () => {
    const before = readRenderedCluster(readTree(path.join(DIST, 'aws-operator-1')));
    const stalled = replayUpdate(before, '4.22.3', releasePayload('4.22.4'));
    expect(stalled.stall).toEqual({
      runlevel: '0000_26',
      component: 'cloud-controller-manager-operator',
      manifest: CCM_CO,
      reason: 'Cluster operator cloud-controller-manager is updating versions: operator from 4.22.3 to 4.22.4',
    });
    expect(readTree(path.join(DIST, 'aws-operator-1'))[HANDOVER_FILE]).toContain(
      'There it waits ("Cluster operator cloud-controller-manager is updating versions")',
    );
    const spec = parse(fs.readFileSync(path.join(__dirname, '..', 'clusters', 'us-east-1', 'aws-operator-1.yaml'), 'utf8'));
    expect(spec.spec.openshift.release).toBe('4.22.3');
    const bumped = readRenderedCluster(
      renderedTree(platformSpec('AWS', 'aws-operator-1', { managementMode: 'operator', openshift: { release: '4.22.4' } })),
    );
    const replay = replayUpdate(bumped, '4.22.3', releasePayload('4.22.4'));
    expect(replay.stall).toBeUndefined();
    expect(replay.applied).toContain(CCM_CO);
  });

  test('GIVEN each OpenShift cluster of the example fleet but Alibaba Cloud WHEN a minor update is requested THEN CVO refuses it while overrides are set, AND after the way back it completes', () => {
    const clusters = openshiftClusters().filter((x) => x.release && x.name !== 'alibaba-dev-1');
    expect(clusters.length).toBeGreaterThan(8);
    for (const c of clusters) {
      const cluster = readRenderedCluster(c.tree);
      const to = releasePayload(nextMinor(c.release!));
      expect({ cluster: c.name, precondition: replayUpdate(cluster, c.release!, to).precondition }).toEqual({
        cluster: c.name,
        precondition: { result: 'block', reason: 'ClusterVersionOverridesSet' },
      });
      const back = replayUpdate(afterWayBack(cluster), c.release!, to);
      expect({ cluster: c.name, precondition: back.precondition.result, stall: back.stall }).toEqual({
        cluster: c.name,
        precondition: 'pass',
        stall: undefined,
      });
    }
  });

  test('GIVEN dist/alibaba-dev-1 (4.16) WHEN a minor update is requested THEN CVO refuses it, with the overrides and after the way back: the operator sets Upgradeable=False (PlatformTechPreview) on Alibaba Cloud', () => {
    const c = openshiftClusters().find((x) => x.name === 'alibaba-dev-1')!;
    const cluster = readRenderedCluster(c.tree);
    const to = releasePayload(nextMinor(c.release!));
    expect(replayUpdate(cluster, c.release!, to).precondition).toEqual({ result: 'block', reason: 'MultipleReasons' });
    expect(replayUpdate(afterWayBack(cluster), c.release!, to).precondition).toEqual({ result: 'block', reason: 'PlatformTechPreview' });
    // a z-stream update after the way back is not held by a ClusterOperator's Upgradeable=False
    expect(replayUpdate(afterWayBack(cluster), c.release!, releasePayload(nextPatch(c.release!))).precondition).toEqual({ result: 'pass' });
  });
});

describe('every source of Upgradeable=False and checkOperatorHealth (CVO model)', () => {
  const gate = (featureSet: string) => ({
    apiVersion: 'config.openshift.io/v1',
    kind: 'FeatureGate',
    metadata: { name: 'cluster' },
    spec: { featureSet },
  });

  test.each(['CustomNoUpgrade', 'TechPreviewNoUpgrade'])(
    "GIVEN a cluster whose rendered FeatureGate sets %s, after the way back WHEN a minor update is requested THEN CVO refuses it with config-operator's reason, AND a z-stream passes",
    (featureSet) => {
      const cluster: RenderedCluster = { objects: [gate(featureSet)], overrides: [], scaledToZero: [] };
      expect(replayUpdate(cluster, '4.22.3', releasePayload('4.23.0')).precondition).toEqual({
        result: 'block',
        reason: `FeatureGates_RestrictedFeatureGates_${featureSet}`,
      });
      expect(replayUpdate(cluster, '4.22.3', releasePayload('4.22.4')).precondition).toEqual({ result: 'pass' });
    },
  );

  test('GIVEN a cluster that renders no FeatureGate but runs TechPreviewNoUpgrade WHEN a minor update is requested THEN CVO refuses it; AND with the Default set ("") it passes', () => {
    const cluster: RenderedCluster = { objects: [], overrides: [], scaledToZero: [] };
    expect(replayUpdate(cluster, '4.22.3', releasePayload('4.23.0'), { featureSet: 'TechPreviewNoUpgrade' }).precondition).toEqual({
      result: 'block',
      reason: 'FeatureGates_RestrictedFeatureGates_TechPreviewNoUpgrade',
    });
    expect(replayUpdate({ ...cluster, objects: [gate('')] }, '4.22.3', releasePayload('4.23.0')).precondition).toEqual({ result: 'pass' });
  });

  test('GIVEN dist/alibaba-dev-1 after the way back with a NoUpgrade FeatureGate WHEN a minor update is requested THEN two ClusterOperators refuse it: ClusterOperatorsNotUpgradeable', () => {
    const c = openshiftClusters().find((x) => x.name === 'alibaba-dev-1')!;
    const back = afterWayBack(readRenderedCluster(c.tree));
    expect(
      replayUpdate({ ...back, objects: [...back.objects, gate('CustomNoUpgrade')] }, c.release!, releasePayload(nextMinor(c.release!))).precondition,
    ).toEqual({
      result: 'block',
      reason: 'ClusterOperatorsNotUpgradeable',
    });
  });

  test.each([
    [{ available: 'False', degraded: 'False' }, 'Cluster operator cloud-controller-manager is not available'],
    [{ degraded: 'False' }, 'Cluster operator cloud-controller-manager is not available'],
    [{ available: 'True', degraded: 'True' }, 'Cluster operator cloud-controller-manager is degraded'],
    [{ available: 'True' }, 'Cluster operator cloud-controller-manager is degraded'],
  ])(
    'GIVEN dist/aws-operator-1 bumped to 4.22.4 and its ClusterOperator reporting %j WHEN CVO replays the update THEN it stops at 0000_26: %s',
    (health, reason) => {
      const bumped = readRenderedCluster(
        renderedTree(platformSpec('AWS', 'aws-operator-1', { managementMode: 'operator', openshift: { release: '4.22.4' } })),
      );
      const replay = replayUpdate(bumped, '4.22.3', releasePayload('4.22.4'), { health: { 'cloud-controller-manager': health } });
      expect(replay.stall).toEqual({ runlevel: '0000_26', component: 'cloud-controller-manager-operator', manifest: CCM_CO, reason });
      expect(replay.notReached).toContain(MCO_CO);
    },
  );
});

describe("the handover names the cluster's own NoUpgrade feature set (CVO model)", () => {
  test.each(['TechPreviewNoUpgrade', 'CustomNoUpgrade'])(
    'GIVEN an AWS 4.22.3 gitops spec whose cluster runs %s WHEN rendered and a minor update is replayed after the way back THEN CVO refuses it, AND HANDOVER.md says minor updates are refused for good',
    (featureSet) => {
      const tree = renderedTree(platformSpec('AWS', 'c', { openshift: { release: '4.22.3', featureSet } }));
      const back = afterWayBack(readRenderedCluster(tree));
      expect(replayUpdate(back, '4.22.3', releasePayload('4.23.0'), { featureSet }).precondition).toEqual({
        result: 'block',
        reason: `FeatureGates_RestrictedFeatureGates_${featureSet}`,
      });
      expect(tree[HANDOVER_FILE]).toContain(
        `The cluster's FeatureGate sets \`${featureSet}\`, which cannot be turned off and refuses minor updates for good, overrides or not: only z-stream updates remain.`,
      );
    },
  );
});

describe('operator mode on 4.16 to 4.21: z-stream, minor and EUS-to-EUS updates (CVO model)', () => {
  const OPERATOR_PLATFORMS = ['AWS', 'Azure', 'GCP', 'IBMCloud', 'PowerVS', 'OpenStack', 'VSphere', 'Nutanix'];
  const CASES = ['4.16', '4.17', '4.18', '4.19', '4.20', '4.21'].flatMap((minor) => OPERATOR_PLATFORMS.map((p) => [p, minor] as const));
  const operatorTree = (platform: string, release: string, spec: Record<string, unknown> = {}) =>
    renderedTree(platformSpec(platform, 'c', { managementMode: 'operator', openshift: { release }, ...spec }));
  const operatorCluster = (platform: string, release: string, spec: Record<string, unknown> = {}) =>
    readRenderedCluster(operatorTree(platform, release, spec));
  /** The updates of an EUS-to-EUS update from `minor`: the odd minor, then the next EUS (worker pools paused in between). */
  const eusHops = (minor: string) => [nextMinor(`${minor}.3`), nextMinor(nextMinor(`${minor}.3`))];

  test.each(CASES)(
    'GIVEN %s at %s.3 in operator mode WHEN a z-stream, a minor or an EUS-to-EUS update is requested THEN CVO refuses each while the overrides are set, AND after the way back each completes',
    (platform, minor) => {
      const from = `${minor}.3`;
      const tree = operatorTree(platform, from);
      const cluster = readRenderedCluster(tree);
      // HANDOVER.md says what the model shows: the way back first, for a z-stream as for a minor update
      expect(tree[HANDOVER_FILE]).toContain(
        `- **Z-stream update** (4.Y.z to 4.Y.z'): the CVO of release ${from} refuses every update while an override is set (precondition \`ClusterVersionOverridesSet\`; from 4.22 it lets z-streams through): take the way back below`,
      );
      expect(tree[HANDOVER_FILE]).toContain(
        "- **Minor update** (4.Y to 4.Y+1): CVO refuses it while an override is set (`Upgradeable=False`, `ClusterVersionOverridesSet`): take the way back below (it removes ccm-gitops' overrides)",
      );
      // the overrides operator mode sets: its operator Deployment and images ConfigMap (and on Azure the CredentialsRequest)
      expect(cluster.overrides.map((o) => `${o.kind} ${o.namespace}/${o.name}`)).toEqual(
        expect.arrayContaining([
          'ConfigMap openshift-cloud-controller-manager-operator/cloud-controller-manager-images',
          'Deployment openshift-cloud-controller-manager-operator/cluster-cloud-controller-manager-operator',
        ]),
      );
      const hops = [nextPatch(from), nextMinor(from), ...(['4.16', '4.18', '4.20'].includes(minor) ? eusHops(minor) : [])];
      const refused = hops.map((to) => replayUpdate(cluster, from, releasePayload(to)));
      expect(refused.map((r) => [r.precondition, r.applied])).toEqual(
        hops.map(() => [{ result: 'block', reason: 'ClusterVersionOverridesSet' }, []]),
      );
      // after the way back (no overrides: CVO runs the operator Deployment of each payload), hop by hop
      let at = from;
      for (const to of hops.slice(1)) {
        const back = replayUpdate(afterWayBack(cluster), at, releasePayload(to));
        expect({ to, precondition: back.precondition, stall: back.stall }).toEqual({ to, precondition: { result: 'pass' }, stall: undefined });
        at = to;
      }
      expect(replayUpdate(afterWayBack(cluster), from, releasePayload(nextPatch(from))).stall).toBeUndefined();
    },
  );

  test.each(['4.16', '4.21'])(
    'GIVEN AWS at %s.3 in operator mode WHEN a z-stream update is forced past the refusal THEN CVO applies the payload up to 0000_26 and waits there for the pinned RELEASE_VERSION',
    (minor) => {
      const from = `${minor}.3`;
      const forced = replayUpdate(operatorCluster('AWS', from), from, releasePayload(nextPatch(from)), { force: true });
      expect(forced.precondition).toEqual({ result: 'warn', reason: 'ClusterVersionOverridesSet' });
      expect(forced.stall).toEqual({
        runlevel: '0000_26',
        component: 'cloud-controller-manager-operator',
        manifest: '0000_26_cloud-controller-manager-operator_12_clusteroperator.yaml',
        reason: `Cluster operator cloud-controller-manager is updating versions: operator from ${from} to ${nextPatch(from)}`,
      });
      expect(forced.notReached).toContain(MCO_CO);
    },
  );

  test('GIVEN Alibaba Cloud at 4.16.3 in operator mode WHEN a minor update is requested after the way back THEN the running operator still refuses it (PlatformTechPreview), AND a z-stream completes', () => {
    const back = afterWayBack(operatorCluster('AlibabaCloud', '4.16.3'));
    expect(replayUpdate(back, '4.16.3', releasePayload('4.17.0'), { platform: 'AlibabaCloud' }).precondition).toEqual({
      result: 'block',
      reason: 'PlatformTechPreview',
    });
    const z = replayUpdate(back, '4.16.3', releasePayload('4.16.4'), { platform: 'AlibabaCloud' });
    expect({ precondition: z.precondition, stall: z.stall }).toEqual({ precondition: { result: 'pass' }, stall: undefined });
  });

  test('GIVEN GCP at 4.20.3 in operator mode on a TechPreviewNoUpgrade cluster WHEN updated after the way back THEN minor and EUS-to-EUS updates are refused for good (config-operator), a z-stream completes', () => {
    const featureSet = 'TechPreviewNoUpgrade';
    const back = afterWayBack(operatorCluster('GCP', '4.20.3', { openshift: { release: '4.20.3', featureSet } }));
    expect(replayUpdate(back, '4.20.3', releasePayload('4.21.0'), { featureSet }).precondition).toEqual({
      result: 'block',
      reason: `FeatureGates_RestrictedFeatureGates_${featureSet}`,
    });
    expect(replayUpdate(back, '4.20.3', releasePayload('4.20.4'), { featureSet }).stall).toBeUndefined();
    expect(replayUpdate(back, '4.20.3', releasePayload('4.20.4'), { featureSet }).precondition).toEqual({ result: 'pass' });
  });
});
