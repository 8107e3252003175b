/**
 * Oracle: every field the `kubernetes` distribution renders exists, with default feature
 * gates, in the Kubernetes minor of `spec.kubernetes.version`. The
 * table comes from the API's own schemas and round-trip fixtures (test/oracle/field-versions.ts).
 */
import * as path from 'path';
import { App } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { ClusterChart } from '../src/pipeline/cluster-chart';
import { UPSTREAM_PROVIDERS } from '../src/kubernetes/providers';
import { PlatformType } from '../src/cluster-spec/schema';
import { loadFleet } from '../src/fleet/load';
import { PreparedCluster } from '../src/openshift/platform';
import { kubernetesSpec, preparedCluster } from './helpers';
import {
  acceptingMinors,
  CUSTOM_RESOURCE_GROUPS,
  fieldPaths,
  fieldProblems,
  GATED_FIELDS,
  isTabled,
  kindKey,
  knownPath,
  TABLE_MINORS,
} from './oracle/field-versions';

const REPO = path.resolve(__dirname, '..');
const MINORS = Array.from({ length: TABLE_MINORS.last - TABLE_MINORS.first + 1 }, (_, i) => TABLE_MINORS.first + i);
const PLATFORMS = Object.keys(UPSTREAM_PROVIDERS).sort() as PlatformType[];

type Obj = { apiVersion?: string; kind?: string; metadata?: { name?: string; namespace?: string }; data?: Record<string, string> };

/** The rendered objects of a prepared cluster, with the objects the ConfigMaps of a ClusterResourceSet carry. */
function objectsOf(cluster: PreparedCluster): Obj[] {
  const objects = new ClusterChart(new App({ outdir: 'unused' }), 'c', { cluster }).toJson() as Obj[];
  const carried = new Set(
    objects
      .filter((o) => o.kind === 'ClusterResourceSet')
      .flatMap((o) => (o as { spec?: { resources?: { kind: string; name: string }[] } }).spec?.resources ?? [])
      .filter((r) => r.kind === 'ConfigMap')
      .map((r) => r.name),
  );
  const embedded: Obj[] = [];
  for (const o of objects) {
    if (o.kind === 'ConfigMap' && o.data && carried.has(o.metadata?.name ?? '')) {
      for (const value of Object.values(o.data)) {
        for (const doc of parseAllDocuments(value)) {
          const js = doc.toJS() as Obj | null;
          if (js && typeof js === 'object' && typeof js.apiVersion === 'string' && typeof js.kind === 'string') {
            embedded.push(js);
          }
        }
      }
    }
  }
  return [...objects, ...embedded];
}

const groupOf = (apiVersion = ''): string => (apiVersion.includes('/') ? apiVersion.split('/')[0] : '');

/** The problems of every built-in object at one minor, as readable lines. */
function problemsAt(objects: Obj[], minor: number): string[] {
  const lines: string[] = [];
  for (const o of objects) {
    if (!isTabled(kindKey(o)) && CUSTOM_RESOURCE_GROUPS.includes(groupOf(o.apiVersion))) {
      continue; // a custom resource: its version is not tied to the Kubernetes minor
    }
    for (const p of fieldProblems(o, minor)) {
      lines.push(`${p.kind} ${p.name}${p.path ? ` ${p.path}` : ''}: ${p.reason}`);
    }
  }
  return [...new Set(lines)].sort();
}

/** A spec that renders as much as the distribution can: a Deployment with a PDB, metrics and least-privilege RBAC. */
function maximal(platform: PlatformType, minor: number): PreparedCluster {
  return preparedCluster(
    kubernetesSpec(platform, 'k', {
      version: `1.${minor}`,
      workload: { kind: 'Deployment', replicas: 2, podDisruptionBudget: true },
      metrics: { enabled: true, serviceMonitor: true, scraper: 'monitoring/prometheus' },
      useServiceAccountCredentials: true,
    }),
  );
}

/** Every pod-level knob of spec.kubernetes set, so each field a knob can emit is checked. */
function knobs(platform: PlatformType, minor: number): PreparedCluster {
  return preparedCluster(
    kubernetesSpec(platform, 'k', {
      version: `1.${minor}`,
      workload: { kind: 'Deployment', replicas: 3, podDisruptionBudget: true },
      scheduling: {
        preset: 'all-taints',
        extraTolerations: [{ key: 'example.com/dedicated', operator: 'Equal', value: 'ccm', effect: 'NoExecute', tolerationSeconds: 30 }],
        nodeSelector: { 'node-role.kubernetes.io/control-plane': '' },
      },
      hostNetwork: false,
      priorityClassName: 'system-node-critical',
      extraEnv: [
        { name: 'HTTPS_PROXY', value: 'http://proxy:3128' },
        { name: 'FROM_CM', valueFrom: { configMapKeyRef: { name: 'cm', key: 'k', optional: true } } },
        { name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
      ],
      extraVolumes: [
        { name: 'from-secret', mountPath: '/etc/s', secret: 'extra' },
        { name: 'from-cm', mountPath: '/etc/c', configMap: 'extra' },
        { name: 'host-certs', mountPath: '/etc/ssl/certs', hostPath: '/etc/ssl/certs' },
        { name: 'scratch', mountPath: '/tmp/scratch', emptyDir: true, readOnly: false },
      ],
      resources: { requests: { cpu: '150m', memory: '96Mi' }, limits: { cpu: '1', memory: '512Mi' } },
      podLabels: { team: 'platform' },
      podAnnotations: { 'example.com/note': 'x' },
      serviceAccount: { labels: { team: 'platform' }, annotations: { 'example.com/role': 'r' } },
      imagePullSecrets: ['registry'],
      metrics: { enabled: true, serviceMonitor: true, scraper: 'monitoring/prometheus' },
      secureServing: { port: 10999, bindAddress: '0.0.0.0' },
      useServiceAccountCredentials: true,
    }),
  );
}

/** The maximal spec delivered as a Cluster API ClusterResourceSet (the objects travel inside ConfigMaps). */
function crs(platform: PlatformType, minor: number): PreparedCluster {
  return preparedCluster(
    kubernetesSpec(platform, 'k', {
      version: `1.${minor}`,
      workload: { kind: 'Deployment', replicas: 2, podDisruptionBudget: true },
      output: { mode: 'cluster-resource-set' },
    }),
  );
}

describe('field versions: the table', () => {
  test('GIVEN the PDB field unhealthyPodEvictionPolicy THEN it is accepted from 1.27 on (in the API from 1.26, gate on by default from 1.27)', () => {
    // kubernetes/api@v0.26.0 testdata/HEAD/policy.v1.PodDisruptionBudget.json has it, v0.25.0 does not; PDBUnhealthyPodEvictionPolicy beta on in 1.27
    expect(acceptingMinors('policy/v1 PodDisruptionBudget', 'spec.unhealthyPodEvictionPolicy')).toEqual(MINORS.filter((m) => m >= 27));
    expect(acceptingMinors('policy/v1 PodDisruptionBudget', 'spec.maxUnavailable')).toEqual(MINORS);
  });

  test('GIVEN a PDB with unhealthyPodEvictionPolicy WHEN checked at 1.25, 1.26 and 1.27 THEN 1.25 lacks the field, 1.26 has it gated off, 1.27 accepts it', () => {
    const pdb = {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'x', namespace: 'kube-system' },
      spec: { maxUnavailable: 1, unhealthyPodEvictionPolicy: 'AlwaysAllow', selector: { matchLabels: { a: 'b' } } },
    };
    expect(fieldProblems(pdb, 25).map((p) => [p.path, p.reason.split(' (')[0]])).toEqual([
      ['spec.unhealthyPodEvictionPolicy', 'not in the API of Kubernetes 1.25'],
    ]);
    expect(fieldProblems(pdb, 26).map((p) => p.path)).toEqual(['spec.unhealthyPodEvictionPolicy']);
    expect(fieldProblems(pdb, 26)[0].reason).toMatch(/^feature gate PDBUnhealthyPodEvictionPolicy is off by default in Kubernetes 1\.26/);
    expect(fieldProblems(pdb, 27)).toEqual([]);
  });

  test('GIVEN map keys and list items WHEN paths are taken THEN maps become * and lists []', () => {
    const dep = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd', labels: { 'app.kubernetes.io/name': 'x' } },
      spec: { template: { spec: { containers: [{ name: 'c', args: ['--a'] }], nodeSelector: { 'kubernetes.io/os': 'linux' } } } },
    };
    expect(fieldPaths('apps/v1 Deployment', dep)).toEqual([
      'apiVersion',
      'kind',
      'metadata',
      'metadata.labels',
      'metadata.labels.*',
      'metadata.name',
      'spec',
      'spec.template',
      'spec.template.spec',
      'spec.template.spec.containers',
      'spec.template.spec.containers[]',
      'spec.template.spec.containers[].args',
      'spec.template.spec.containers[].args[]',
      'spec.template.spec.containers[].name',
      'spec.template.spec.nodeSelector',
      'spec.template.spec.nodeSelector.*',
    ]);
  });

  test('GIVEN a gate on some values of a GA field THEN only those values are flagged', () => {
    // Toleration.operator is GA; Lt/Gt need TaintTolerationComparisonOperators (kubernetes/api@v0.35.0 core/v1/types.go)
    const ds = (operator: string) => ({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'd' },
      spec: { template: { spec: { tolerations: [{ key: 'k', operator }] } } },
    });
    expect(fieldProblems(ds('Exists'), 35)).toEqual([]);
    expect(fieldProblems(ds('Lt'), 35).map((p) => p.path)).toEqual(['spec.template.spec.tolerations[].operator']);
  });

  test('GIVEN a misspelt field THEN no minor accepts it', () => {
    const svc = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ port: 1, targetPrt: 2 }] } };
    expect(fieldProblems(svc, 33).map((p) => `${p.path}: ${p.reason}`)).toEqual(['spec.ports[].targetPrt: no Kubernetes minor has this field']);
  });

  test('every gate entry names paths the table knows (no dead entries)', () => {
    expect(GATED_FIELDS.flatMap((g) => g.kinds.flatMap((k) => g.paths.filter((p) => !knownPath(k, p)).map((p) => `${k} ${p}`)))).toEqual([]);
  });
});

describe('field versions: the examples in clusters/kubernetes at their own version', () => {
  const fleet = loadFleet(path.join(REPO, 'clusters'));
  const examples = fleet.clusters.filter((c) => c.spec.spec.distribution === 'kubernetes');

  test('there are examples of every provider', () => {
    expect([...new Set(examples.map((c) => c.spec.spec.platform))].sort()).toEqual(PLATFORMS);
  });

  test.each(examples.map((c) => [c.spec.metadata.name, c.spec.spec.kubernetes!.version, c] as const))(
    '%s (Kubernetes %s): every rendered field exists there with default feature gates',
    (_name, version, cluster) => {
      // GIVEN the example WHEN it renders THEN no field is newer than its version
      expect(problemsAt(objectsOf(cluster), Number(version.split('.')[1]))).toEqual([]);
    },
  );
});

describe('field versions: every provider at every minor of the table', () => {
  test.each(PLATFORMS)(
    '%s at every minor of the table: default knobs, a maximal spec (Deployment + PDB + metrics + least privilege), the same as a ClusterResourceSet, and every pod-level knob set',
    (platform) => {
      const failures: Record<string, string[]> = {};
      for (const minor of MINORS) {
        for (const [variant, cluster] of [
          ['default', preparedCluster(kubernetesSpec(platform, 'k', { version: `1.${minor}` }))],
          ['maximal', maximal(platform, minor)],
          ['cluster-resource-set', crs(platform, minor)],
          ['every knob', knobs(platform, minor)],
        ] as const) {
          const objects = objectsOf(cluster);
          if (variant !== 'default') {
            // the variants that must render a PDB do (else the PDB check would be vacuous)
            expect([variant, objects.filter((o) => o.kind === 'PodDisruptionBudget').length]).toEqual([variant, 1]);
          }
          if (variant === 'every knob') {
            // the knobs reach the workload (else the variant would check nothing more than the default)
            const w = objects.find((o) => o.kind === 'Deployment' && o.metadata?.name?.endsWith('cloud-controller-manager'))!;
            const paths = fieldPaths(kindKey(w), w);
            expect(
              [
                'resources.limits',
                'volumes[].emptyDir',
                'volumes[].hostPath',
                'tolerations[].tolerationSeconds',
                'env[].valueFrom.configMapKeyRef.optional',
                'imagePullSecrets',
              ].filter((p) => !paths.some((x) => x.endsWith(p))),
            ).toEqual([]);
          }
          const problems = problemsAt(objects, minor);
          if (problems.length) {
            failures[`1.${minor} ${variant}`] = problems;
          }
        }
      }
      // THEN no minor sees a field it does not have
      expect(failures).toEqual({});
    },
  );
});
