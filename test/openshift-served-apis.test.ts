/**
 * Oracle: every object rendered for an OpenShift cluster is served by the Kubernetes minor its
 * release ships (test/oracle/served-apis.ts), over each migration platform, every phase and each
 * release the migration accepts. A kind the API server does not serve fails the whole sync.
 */
import { App } from 'cdk8s';
import { ClusterChart } from '../src/pipeline/cluster-chart';
import { MIGRATION_PHASES } from '../src/cluster-spec/sections/migration';
import { checkSpec } from '../src/fleet/load';
import { migrationInputFor } from '../src/fleet/migration-targets';
import { migrationSupportFor } from '../src/migration/support';
import { knownReleaseMinors, kubernetesMinorOfRelease } from '../src/openshift/release';
import { platformSpec, preparedCluster } from './helpers';
import { openshiftServedProblems } from './oracle/served-apis';

type Obj = Record<string, any>;

/** The rendered objects of a spec, with its migration as the loader prepares it (the phase decides what renders). */
function render(raw: Record<string, any>): Obj[] {
  const cluster = preparedCluster(raw);
  const migration = migrationInputFor(cluster.spec, migrationSupportFor(cluster.spec));
  return new ClusterChart(new App(), 'c', { cluster: { ...cluster, ...(migration ? { migration } : {}) } }).toJson();
}

const vap = (apiVersion: string): Obj => ({ apiVersion, kind: 'ValidatingAdmissionPolicy', metadata: { name: 'p' } });

describe('the served-API oracle', () => {
  test('GIVEN a v1 ValidatingAdmissionPolicy WHEN checked at 1.26 THEN reported as not served, with its source', () => {
    expect(openshiftServedProblems([vap('admissionregistration.k8s.io/v1')], 26)).toEqual([
      'admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy p: not served by Kubernetes 1.26 (served from 1.30; ' +
        'kubernetes/api@v0.30.0 admissionregistration/v1/types.go (+k8s:prerelease-lifecycle-gen:introduced=1.30; absent at v0.29.0))',
    ]);
  });

  test('GIVEN a v1 ValidatingAdmissionPolicy WHEN checked at 1.30 THEN served', () => {
    expect(openshiftServedProblems([vap('admissionregistration.k8s.io/v1')], 30)).toEqual([]);
  });

  test('GIVEN a kind with no served-API fact WHEN checked THEN reported, naming where to add it', () => {
    expect(openshiftServedProblems([vap('admissionregistration.k8s.io/v1beta1')], 30)).toEqual([
      'admissionregistration.k8s.io/v1beta1 ValidatingAdmissionPolicy p: no served-API fact for this kind: add it to EXTRA_SERVED (test/oracle/served-apis.ts) with its source',
    ]);
  });

  test('GIVEN a PodDisruptionBudget with unhealthyPodEvictionPolicy WHEN checked at 1.26 THEN its field is reported (gate off before 1.27)', () => {
    const pdb = {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'b', namespace: 'n' },
      spec: { unhealthyPodEvictionPolicy: 'AlwaysAllow' },
    };
    expect(openshiftServedProblems([pdb], 26).map((l) => l.split(' (')[0])).toEqual([
      'policy/v1 PodDisruptionBudget n/b spec.unhealthyPodEvictionPolicy: feature gate PDBUnhealthyPodEvictionPolicy is off by default in Kubernetes 1.26',
    ]);
  });

  test("GIVEN OpenShift's own kinds WHEN checked THEN served at every release (the payload serves them)", () => {
    const own = [
      { apiVersion: 'config.openshift.io/v1', kind: 'FeatureGate', metadata: { name: 'cluster' } },
      { apiVersion: 'machineconfiguration.openshift.io/v1', kind: 'MachineConfig', metadata: { name: 'm' } },
    ];
    expect(openshiftServedProblems(own, 24)).toEqual([]);
  });
});

/** Each platform whose OpenShift in-tree provider migrates to its CCM (`MIGRATION_SUPPORT`). */
const MIGRATION_PLATFORMS = ['AWS', 'Azure', 'GCP', 'OpenStack', 'VSphere'];
const RELEASES = knownReleaseMinors().filter((m) => m.startsWith('4.'));

/** The spec of one migration platform, phase and release, when the checks accept it. */
function accepted(platform: string, phase: string, minor: string): Record<string, any> | undefined {
  const release = `${minor}.0`;
  const raw = platformSpec(platform, 'm', { openshift: { release }, migration: { phase, kubernetesVersion: kubernetesMinorOfRelease(release) } });
  return checkSpec(preparedCluster(raw).spec).length === 0 ? raw : undefined;
}

const CASES = MIGRATION_PLATFORMS.flatMap((platform) => MIGRATION_PHASES.flatMap((phase) => RELEASES.map((minor) => ({ platform, phase, minor }))))
  .map((c) => ({ ...c, raw: accepted(c.platform, c.phase, c.minor) }))
  .filter((c): c is typeof c & { raw: Record<string, any> } => c.raw !== undefined);

describe('every migration platform × phase × release the migration accepts renders only served APIs', () => {
  test('GIVEN the accepted cases WHEN listed THEN every migration platform migrates on at least one release', () => {
    expect([...new Set(CASES.filter((c) => c.phase === 'in-tree').map((c) => c.platform))].sort()).toEqual(MIGRATION_PLATFORMS);
  });

  test.each(CASES.map((c) => [c.platform, c.phase, c.minor, c.raw] as const))(
    "GIVEN %s in phase %s at %s WHEN rendered THEN the release's Kubernetes serves every object",
    (_p, _ph, minor, raw) => {
      const k8s = Number(kubernetesMinorOfRelease(`${minor}.0`)!.split('.')[1]);
      expect(openshiftServedProblems(render(raw), k8s)).toEqual([]);
    },
  );
});
