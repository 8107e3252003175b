/**
 * Oracle: every object rendered for an OpenShift cluster is served by the Kubernetes minor its
 * release ships (test/oracle/served-apis.ts), over each migration platform, every phase and each
 * release the migration accepts. A kind the API server does not serve fails the whole sync.
 */
import { openshiftServedProblems } from './oracle/served-apis';

type Obj = Record<string, any>;

const vap = (apiVersion: string): Obj => ({ apiVersion, kind: 'ValidatingAdmissionPolicy', metadata: { name: 'p' } });

describe('the served-API oracle', () => {
  test('GIVEN a v1 ValidatingAdmissionPolicy WHEN checked at 1.26 THEN reported as not served, with its source', () => {
    expect(openshiftServedProblems([vap('admissionregistration.k8s.io/v1')], 26)).toEqual([
      'admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy p: not served by Kubernetes 1.26 (served from 1.30; '
      + 'kubernetes/api@v0.30.0 admissionregistration/v1/types.go (+k8s:prerelease-lifecycle-gen:introduced=1.30; absent at v0.29.0))',
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
    const pdb = { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'b', namespace: 'n' }, spec: { unhealthyPodEvictionPolicy: 'AlwaysAllow' } };
    expect(openshiftServedProblems([pdb], 26).map((l) => l.split(' (')[0])).toEqual([
      'policy/v1 PodDisruptionBudget n/b spec.unhealthyPodEvictionPolicy: feature gate PDBUnhealthyPodEvictionPolicy is off by default in Kubernetes 1.26',
    ]);
  });

  test('GIVEN OpenShift\'s own kinds WHEN checked THEN served at every release (the payload serves them)', () => {
    const own = [
      { apiVersion: 'config.openshift.io/v1', kind: 'FeatureGate', metadata: { name: 'cluster' } },
      { apiVersion: 'machineconfiguration.openshift.io/v1', kind: 'MachineConfig', metadata: { name: 'm' } },
    ];
    expect(openshiftServedProblems(own, 24)).toEqual([]);
  });
});

