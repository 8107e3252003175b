import { App } from 'cdk8s';
import { ClusterChart } from '../src/pipeline/cluster-chart';
import { checkSpec } from '../src/fleet/load';
import {
  clusterOwnership,
  manifestIn,
  manifestLabelIn,
  OPERATOR_DEPLOYMENT,
  CLUSTER_OPERATOR,
  PAYLOAD_OBJECTS,
} from '../src/openshift/cvo-ownership';
import { handoverMarkdown } from '../src/openshift/handover';
import { kubernetesMinorOfRelease, releaseDefaultGates } from '../src/openshift/release';
import { migrationInputFor } from '../src/fleet/migration-targets';
import { migrationSupportFor } from '../src/migration/support';
import { VSPHERE_PLATFORM_FACTS } from '../src/openshift/vsphere/facts';
import { parse as parseYaml } from 'yaml';
import { parsedSpec, platformSpec, preparedCluster } from './helpers';
import { releasePayload } from './oracle/cvo/payload';

type Obj = Record<string, any>;

function render(raw: Record<string, any>): Obj[] {
  return new ClusterChart(new App(), 'c', { cluster: preparedCluster(raw) }).toJson();
}

function pdb(objects: Obj[]): Obj {
  return objects.find((o) => o.kind === 'PodDisruptionBudget')!;
}

describe('operands per release: data-like differences rendered per release', () => {
  test('GIVEN release 4.22.3 WHEN rendered THEN the PDB has no unhealthyPodEvictionPolicy, as release-4.22 getPDB renders it', () => {
    expect(pdb(render(platformSpec('AWS', 'a', { openshift: { release: '4.22.3' } }))).spec).toEqual({
      minAvailable: 1,
      selector: { matchLabels: { 'infrastructure.openshift.io/cloud-controller-manager': 'AWS' } },
    });
  });

  test('GIVEN release 4.23.1 WHEN rendered THEN the PDB sets unhealthyPodEvictionPolicy AlwaysAllow, as release-4.23 getPDB renders it', () => {
    expect(pdb(render(platformSpec('GCP', 'g', { openshift: { release: '4.23.1' } }))).spec.unhealthyPodEvictionPolicy).toBe('AlwaysAllow');
  });
});

describe('operands per release: releases whose operator renders other operands are refused in gitops mode', () => {
  test.each([
    ['Azure', '4.15.2'],
    ['VSphere', '4.14.7'],
  ])(
    'GIVEN %s at %s (out of support) in gitops mode WHEN checked THEN one error names spec.openshift.release, the value, that branches before 4.16 were not compared and what to do',
    (platform, release) => {
      const problems = checkSpec(parsedSpec(platformSpec(platform, 'p', { openshift: { release } })));
      const minor = release.split('.').slice(0, 2).join('.');
      expect(problems.filter((p) => p.path.join('.') === 'spec.openshift.release').map((p) => p.message)).toEqual([
        `"${release}": gitops mode renders the ${platform} cloud controller manager as the operator of release 4.16 and later renders it; the operator of ${minor} renders other ${platform} operands: ` +
          'those of releases before 4.16, whose branches were not compared part by part. ' +
          "Leave the cloud controller manager to the cluster's operator until the cluster runs 4.16 or later (an OpenShift update moves an in-tree platform to its CCM itself), then hand it over",
      ]);
    },
  );

  test('GIVEN AWS at 4.13.0 in phase leader-migration-kcm WHEN checked THEN no release problem', () => {
    const problems = checkSpec(
      parsedSpec(
        platformSpec('AWS', 'p', { openshift: { release: '4.13.0' }, migration: { phase: 'leader-migration-kcm', kubernetesVersion: '1.26' } }),
      ),
    );
    expect(problems.filter((p) => p.path.join('.') === 'spec.openshift.release')).toEqual([]);
  });

  test('GIVEN AWS at 4.13.0 and GCP at 4.11.0 in phase leader-migration-ccm WHEN checked THEN not refused: their operands are rendered as the release renders them', () => {
    for (const [platform, release, k8s] of [
      ['AWS', '4.13.0', '1.26'],
      ['GCP', '4.11.0', '1.24'],
    ] as const) {
      const problems = checkSpec(
        parsedSpec(platformSpec(platform, 'p', { openshift: { release }, migration: { phase: 'leader-migration-ccm', kubernetesVersion: k8s } })),
      );
      expect(problems.filter((p) => p.path.join('.') === 'spec.openshift.release')).toEqual([]);
    }
  });

  test.each([
    ['VSphere', '4.12.0', '1.25', 'leader-migration-ccm', '4.13'],
    ['OpenStack', '4.11.0', '1.24', 'external-leader-migration', '4.12'],
    ['Azure', '4.13.0', '1.26', 'external', '4.14'],
  ])(
    "GIVEN %s at %s in a migration WHEN its CCM phase is checked THEN one error on spec.openshift.release: the release's operands differ in structure, migrate by the update",
    (platform, release, k8s, phase, external) => {
      const problems = checkSpec(parsedSpec(platformSpec(platform, 'p', { openshift: { release }, migration: { phase, kubernetesVersion: k8s } })));
      expect(problems.filter((p) => p.path.join('.') === 'spec.openshift.release').map((p) => p.message)).toEqual([
        `"${release}": phase "${phase}" deploys the cloud controller manager, and the operator of ${release.slice(0, 4)} renders other ${platform} operands than ccm-gitops renders ` +
          `(before 4.22 only AWS and GCP operands are rendered per release); migrate by updating the cluster to OpenShift ${external}, whose operators move ${platform} to its CCM themselves, and remove spec.migration`,
      ]);
    },
  );

  test('GIVEN vSphere at 4.12.0 in phase leader-migration-kcm WHEN checked THEN no release problem: the CCM is not deployed yet', () => {
    const problems = checkSpec(
      parsedSpec(
        platformSpec('VSphere', 'p', { openshift: { release: '4.12.0' }, migration: { phase: 'leader-migration-kcm', kubernetesVersion: '1.25' } }),
      ),
    );
    expect(problems.filter((p) => p.path.join('.') === 'spec.openshift.release')).toEqual([]);
  });

  test('GIVEN Alibaba Cloud at 4.16.20 WHEN checked THEN no release problem: its one release is rendered as 4.16 shipped it', () => {
    const problems = checkSpec(parsedSpec(platformSpec('AlibabaCloud', 'p', { openshift: { release: '4.16.20' } })));
    expect(problems.filter((p) => p.path.join('.') === 'spec.openshift.release')).toEqual([]);
  });
});

describe("a migration's CCM phases render the release's own AWS and GCP operands", () => {
  /** The rendered objects of a migrating spec, with its migration as the loader prepares it. */
  function renderMigrating(platform: string, release: string, phase = 'leader-migration-ccm'): Obj[] {
    const cluster = preparedCluster(
      platformSpec(platform, 'm', { openshift: { release }, migration: { phase, kubernetesVersion: kubernetesMinorOfRelease(release) } }),
    );
    const migration = migrationInputFor(cluster.spec, migrationSupportFor(cluster.spec));
    return new ClusterChart(new App(), 'c', { cluster: { ...cluster, migration } }).toJson();
  }
  const ccm = (objects: Obj[]): Obj => objects.find((o) => o.kind === 'Deployment')!.spec.template;
  const flagsOf = (objects: Obj[]): string[] =>
    (ccm(objects).spec.containers[0].command[2] as string)
      .split('\n')
      .map((l) => l.trim().replace(/ \\$/, ''))
      .filter((l) => l.startsWith('-'));
  const kinds = (objects: Obj[]): string[] => objects.map((o) => `${o.kind}/${o.metadata.name}`);

  test("GIVEN AWS at 4.13.0 in leader-migration-ccm WHEN rendered THEN the Deployment is release-4.13's (no cloud.conf, TLS flags, --secure-port=0 or terminationMessagePolicy) and no admission policy or Service", () => {
    const objects = renderMigrating('AWS', '4.13.0');
    expect(flagsOf(objects)).toEqual([
      '--cloud-provider=aws',
      '--use-service-account-credentials=true',
      '--configure-cloud-routes=false',
      '--leader-elect=true',
      '--leader-elect-resource-namespace=kube-system',
      '--enable-leader-migration',
      '--leader-migration-config=/etc/leader-migration/config.yaml',
      '--leader-elect-lease-duration=137s',
      '--leader-elect-renew-deadline=107s',
      '--leader-elect-retry-period=26s',
      '-v=2',
    ]);
    const container = ccm(objects).spec.containers[0];
    expect(container.terminationMessagePolicy).toBeUndefined();
    expect(container.volumeMounts.map((m: Obj) => m.name)).toEqual(['host-etc-kube', 'trusted-ca', 'leader-migration']);
    expect(kinds(objects).filter((k) => /ValidatingAdmissionPolicy|^Service\//.test(k))).toEqual([]);
  });

  test('GIVEN AWS at 4.19.0 in phase external WHEN rendered THEN it mounts cloud.conf (release-4.19) and sets no TLS flags (release-4.22)', () => {
    const flags = flagsOf(renderMigrating('AWS', '4.19.0', 'external'));
    expect(flags[0]).toBe('--cloud-config=$(CLOUD_CONFIG)');
    expect(flags.filter((f) => f.startsWith('--tls-'))).toEqual([]);
    expect(flags).toContain('--secure-port=0');
  });

  test("GIVEN GCP at 4.11.0 in leader-migration-ccm WHEN rendered THEN release-4.11's Deployment (no workload annotation, --concurrent-service-syncs, --secure-port=0) and no ClusterRole of its own, policy or Service", () => {
    const objects = renderMigrating('GCP', '4.11.0');
    const flags = flagsOf(objects);
    expect(flags.filter((f) => /concurrent-service-syncs|secure-port|tls-/.test(f))).toEqual([]);
    expect(Object.keys(ccm(objects).metadata.annotations)).toEqual(['ccm-gitops.io/config-hash']);
    expect(kinds(objects).filter((k) => /gcp-cloud-controller-manager|network-tier/.test(k))).toEqual([
      'PodDisruptionBudget/gcp-cloud-controller-manager',
      'Deployment/gcp-cloud-controller-manager',
    ]);
  });

  test('GIVEN GCP at 4.16.0 and 4.19.0 in phase external WHEN rendered THEN the ClusterRole joins at 4.16 and the network-tier policy at 4.19', () => {
    const at16 = kinds(renderMigrating('GCP', '4.16.0', 'external'));
    expect(at16).toContain('ClusterRole/gcp-cloud-controller-manager');
    expect(at16).not.toContain('ValidatingAdmissionPolicy/network-tier-annotation-validation-policy');
    expect(kinds(renderMigrating('GCP', '4.19.0', 'external'))).toContain('ValidatingAdmissionPolicy/network-tier-annotation-validation-policy');
  });
});

describe("HANDOVER.md lists the release's own payload file names", () => {
  function handover(release: string): string {
    const objects = render(platformSpec('AWS', 'a', { openshift: { release: '4.23.1' } }));
    return handoverMarkdown({
      cluster: 'a',
      mode: 'gitops',
      release,
      engine: 'argocd',
      outputPath: 'dist/a',
      ownership: clusterOwnership(objects as any[], { mode: 'gitops', release }),
    });
  }

  test('GIVEN release 4.19 WHEN the payload files are named THEN the operator Deployment and ClusterOperator are 11_ and 12_, and the NetworkPolicies (4.20+) are absent', () => {
    expect(manifestIn(OPERATOR_DEPLOYMENT, '4.19')).toBe('11_deployment.yaml');
    expect(manifestIn(CLUSTER_OPERATOR, '4.19')).toBe('12_clusteroperator.yaml');
    expect(
      manifestIn(
        PAYLOAD_OBJECTS.find((o) => o.kind === 'NetworkPolicy')!,
        '4.19',
      ),
    ).toBeUndefined();
  });

  test('GIVEN release 4.22 WHEN the payload files are named THEN both names: release-4.22 renamed 11_/12_ to 50_/60_ in a z-stream whose first release is not known', () => {
    // openshift/cluster-cloud-controller-manager-operator@release-4.22 fcec1f44 (2026-06-24, merged at b99c3d88 2026-07-08)
    expect(manifestLabelIn(OPERATOR_DEPLOYMENT, '4.22')).toBe('11_deployment.yaml (early 4.22.z) or 50_deployment.yaml');
    expect(manifestLabelIn(CLUSTER_OPERATOR, '4.22')).toBe('12_clusteroperator.yaml (early 4.22.z) or 60_clusteroperator.yaml');
    expect(manifestLabelIn(OPERATOR_DEPLOYMENT, '4.23')).toBe('50_deployment.yaml');
    expect(manifestLabelIn(CLUSTER_OPERATOR, '4.21')).toBe('12_clusteroperator.yaml');
    // the release branch's head, as the payload oracle reads it
    expect(manifestIn(OPERATOR_DEPLOYMENT, '4.22')).toBe('50_deployment.yaml');
  });

  test("GIVEN a handover at 4.19.3 WHEN written THEN it cites release-4.19 and lists that release's files, main's absent", () => {
    const md = handover('4.19.3');
    expect(md).toContain('(openshift/cluster-cloud-controller-manager-operator@release-4.19 manifests/)');
    expect(md).toContain('| ConfigMap openshift-cloud-controller-manager-operator/kube-rbac-proxy | `06_kube-rbac-proxy-config.yaml` |');
    expect(md).toContain(
      '| Deployment openshift-cloud-controller-manager-operator/cluster-cloud-controller-manager | `10_deployment_tombstone.yaml` |',
    );
    expect(md).not.toContain('10_networkpolicy-default-deny.yaml');
    expect(md).not.toContain('50_deployment.yaml');
  });

  // openshift/cluster-cloud-controller-manager-operator@b99c3d88b0e7 (release-4.22): fcec1f44 (authored 2026-06-24,
  // merged 2026-07-08) renamed 11_/12_ to 50_/60_; the branch has no release tags, so the first 4.22.z carrying it is
  // unknown. HANDOVER.md lists both objects among the rendered or overridden ones, in both modes, and so names no file
  // a z-stream of the cluster's release may not have.
  test.each(
    ['4.21.14', '4.22.0', '4.22.19', '4.23.1'].flatMap((release) => (['gitops', 'operator'] as const).map((mode) => [release, mode] as const)),
  )(
    'GIVEN a handover at %s in %s mode WHEN written THEN the operator Deployment and ClusterOperator are rendered or overridden, and no 11_/12_/50_/60_ file is named',
    (release, mode) => {
      const objects = render(platformSpec('AWS', 'a', { managementMode: mode, openshift: { release } }));
      const md = handoverMarkdown({
        cluster: 'a',
        mode,
        release,
        engine: 'argocd',
        outputPath: 'dist/a',
        ownership: clusterOwnership(objects as any[], { mode, release }),
      });
      // operator mode renders both; gitops mode takes both from CVO by overrides (the Deployment scaled to 0)
      const rows =
        mode === 'operator'
          ? [
              '| Deployment openshift-cloud-controller-manager-operator/cluster-cloud-controller-manager-operator | **override** |',
              '| ClusterOperator cloud-controller-manager | as the release ships it |',
            ]
          : [
              '| Deployment | apps | openshift-cloud-controller-manager-operator | cluster-cloud-controller-manager-operator |',
              '| ClusterOperator | config.openshift.io | "" | cloud-controller-manager |',
            ];
      expect(rows.filter((r) => !md.includes(r))).toEqual([]);
      expect(md.match(/\b(11_deployment|12_clusteroperator|50_deployment|60_clusteroperator)\.yaml/g)).toBeNull();
    },
  );
});

describe('spec.migration.kubernetesVersion agrees with spec.openshift.release', () => {
  test.each([
    ['4.17.2', '1.30'],
    ['4.18.3', '1.31'],
    ['4.19.0', '1.32'],
    ['4.20.3', '1.33'],
    ['4.21.5', '1.34'],
    ['4.22.3', '1.35'],
    ['4.23.1', '1.36'],
  ])('GIVEN release %s and kubernetesVersion %s WHEN checked THEN no kubernetesVersion problem', (release, k8s) => {
    const problems = checkSpec(
      parsedSpec(platformSpec('AWS', 'p', { openshift: { release }, migration: { phase: 'external', kubernetesVersion: k8s } })),
    );
    expect(problems.filter((p) => p.path.join('.') === 'spec.migration.kubernetesVersion')).toEqual([]);
  });

  test('GIVEN release 4.22.3 and kubernetesVersion 1.26 WHEN checked THEN one error names both fields and the fix', () => {
    const problems = checkSpec(
      parsedSpec(
        platformSpec('AWS', 'p', { openshift: { release: '4.22.3' }, migration: { phase: 'leader-migration-kcm', kubernetesVersion: '1.26' } }),
      ),
    );
    expect(problems.filter((p) => p.path.join('.') === 'spec.migration.kubernetesVersion').map((p) => p.message)).toContain(
      '"1.26": spec.openshift.release 4.22.3 ships Kubernetes 1.35; set spec.migration.kubernetesVersion to "1.35", or spec.openshift.release to the release the cluster runs',
    );
  });
});

describe("the CVO model reads the payload of the cluster's release branch", () => {
  test('GIVEN release 4.19.3 WHEN its payload is built THEN the operator files are 11_deployment.yaml and 12_clusteroperator.yaml, with the tombstone and no NetworkPolicy', () => {
    const files = releasePayload('4.19.3')
      .manifests.map((m) => m.file)
      .filter((f) => f.startsWith('0000_26_'))
      .map((f) => f.replace('0000_26_cloud-controller-manager-operator_', ''));
    expect(files.filter((f) => /deployment|clusteroperator|networkpolicy|kube-rbac-proxy/.test(f))).toEqual([
      '06_kube-rbac-proxy-config.yaml',
      '10_deployment_tombstone.yaml',
      '11_deployment.yaml',
      '12_clusteroperator.yaml',
    ]);
  });
});

describe('OKD feature set', () => {
  test("GIVEN OKD at 4.23 WHEN the rendering gates are read THEN they are Default's (features.go enables each in inDefault() and inOKD() together)", () => {
    expect(releaseDefaultGates('4.23.1', 'OKD')).toEqual(releaseDefaultGates('4.23.1', 'Default'));
  });

  test('GIVEN OKD at 4.21.5 WHEN checked THEN one error names spec.openshift.featureSet: that release has no OKD set', () => {
    const problems = checkSpec(
      parsedSpec(platformSpec('AWS', 'p', { openshift: { release: '4.21.5', featureSet: 'OKD' }, managementMode: 'operator' })),
    );
    expect(problems.filter((p) => p.path.join('.') === 'spec.openshift.featureSet').map((p) => p.message)).toEqual([
      "\"OKD\": release 4.21.5 has no OKD feature set (it exists from 4.22); set the FeatureGate's feature set of the cluster (oc get featuregate cluster -o jsonpath='{.spec.featureSet}')",
    ]);
  });

  test("GIVEN OKD at 4.23 with a migration WHEN checked THEN refused: the migration's FeatureGate would switch OKD's own gates off", () => {
    const problems = checkSpec(
      parsedSpec(
        platformSpec('AWS', 'p', {
          openshift: { release: '4.23.1', featureSet: 'OKD' },
          migration: { phase: 'external', kubernetesVersion: '1.36' },
        }),
      ),
    );
    expect(problems.filter((p) => p.path.join('.') === 'spec.openshift.featureSet').map((p) => p.message)[0]).toMatch(
      /^"OKD": the migration's FeatureGate carries the release's Default gate lists/,
    );
  });

  test('GIVEN OKD at 4.23 without a migration WHEN checked THEN no feature-set problem', () => {
    const problems = checkSpec(parsedSpec(platformSpec('AWS', 'p', { openshift: { release: '4.23.1', featureSet: 'OKD' } })));
    expect(problems.filter((p) => p.path.join('.') === 'spec.openshift.featureSet')).toEqual([]);
  });
});

describe("the vSphere transform keeps or drops unlisted vCenters as the cluster's release does", () => {
  const SOURCE = 'vcenter:\n  old:\n    server: old\n    datacenters: [OLD]\n  vc1:\n    server: vc1\n    datacenters: [X]\n';
  function transformAt(release: string): { vcenter: Record<string, unknown>; warnings: readonly string[] } {
    const spec = parsedSpec(
      platformSpec('VSphere', 'v', {
        openshift: { release },
        vsphere: {
          vcenters: [{ server: 'vc1', datacenters: ['DC1'] }],
          failureDomains: [
            {
              name: 'fd1',
              region: 'r',
              zone: 'z',
              server: 'vc1',
              topology: { datacenter: 'DC1', computeCluster: '/DC1/host/c', networks: ['n'], datastore: '/DC1/datastore/d' },
            },
          ],
        },
      }),
    );
    const result = VSPHERE_PLATFORM_FACTS.transformCloudConfig(SOURCE, spec);
    return { vcenter: parseYaml(result.config).vcenter, warnings: result.warnings };
  }

  test('GIVEN release 4.22.3 and a user vCenter the Infrastructure no longer lists WHEN transformed THEN it is kept, as release-4.22 setVirtualCenters keeps it', () => {
    const r = transformAt('4.22.3');
    expect(r.vcenter).toEqual({ old: { server: 'old', datacenters: ['OLD'] }, vc1: { server: 'vc1', datacenters: ['DC1'] } });
    expect(r.warnings).toEqual(['vCenter "old" is not in the Infrastructure\'s vcenters; kept, as the cluster\'s release keeps it (4.23 drops it)']);
  });

  test('GIVEN release 4.23.1 WHEN transformed THEN the unlisted vCenter is dropped, as release-4.23 clears the map first', () => {
    const r = transformAt('4.23.1');
    expect(r.vcenter).toEqual({ vc1: { server: 'vc1', datacenters: ['DC1'] } });
    expect(r.warnings).toEqual(['vCenter "old" is not in the Infrastructure\'s vcenters; dropped']);
  });
});
