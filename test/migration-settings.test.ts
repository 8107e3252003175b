/**
 * Settings that defeat the handover are refused during a migration, each with
 * the reason: the CCM must run every controller the KCMs hand it, contend for
 * the leases the plan names, and k3s (no in-tree providers) has no past to
 * migrate from.
 */
import { checkSpec } from '../src/fleet/load';
import { findObject, kubernetesSpec, parsedSpec, renderSpec, useTempDir } from './helpers';

const BASE = { version: '1.28', clusterName: 'kubernetes' };

function problems(kubernetes: Record<string, unknown>, migration: Record<string, unknown> = {}, platform = 'GCP'): string[] {
  const spec = kubernetesSpec(
    platform,
    'c',
    { ...BASE, ...kubernetes },
    { migration: { phase: 'leader-migration-kcm', kubernetesVersion: '1.28', ...migration } },
  );
  return checkSpec(parsedSpec(spec)).map((p) => `${p.path.join('.')}: ${p.message}`);
}

describe('controllers the KCMs hand over must run in the CCM', () => {
  // GCP's node IPAM stays off in these lists: without allocateNodeCidrs it makes the binary exit
  test('GIVEN controllers ["*","-service","-nodeipam"] in a migration WHEN checked THEN refused: nobody runs the service controller once the KCMs go external', () => {
    expect(problems({ controllers: ['*', '-service', '-nodeipam'] })).toEqual([
      'spec.kubernetes.controllers: ["*","-service","-nodeipam"] leaves out service during a migration: the kube-controller-managers hand it to the CCM and stop running it when they go external, so nobody would; keep it in the list',
    ]);
  });

  test('GIVEN an explicit list without cloud-node-lifecycle WHEN checked THEN refused, naming it', () => {
    expect(problems({ controllers: ['cloud-node-controller', 'service-lb-controller', 'node-route-controller'] })).toEqual([
      'spec.kubernetes.controllers: ["cloud-node-controller","service-lb-controller","node-route-controller"] leaves out cloud-node-lifecycle during a migration: the kube-controller-managers hand it to the CCM and stop running it when they go external, so nobody would; keep it in the list',
    ]);
  });

  test('GIVEN nodeIpam and controllers ["*","-nodeipam"] WHEN checked THEN refused: node IPAM moves too', () => {
    const ipam = {
      allocateNodeCidrs: true,
      clusterCIDR: ['10.64.0.0/14'],
      configureCloudRoutes: true,
      extraArgs: { 'cidr-allocator-type': 'RangeAllocator', 'node-cidr-mask-size': '24' },
    };
    expect(problems({ ...ipam, controllers: ['*', '-nodeipam'] }, { nodeIpam: true })).toEqual([
      'spec.kubernetes.controllers: ["*","-nodeipam"] leaves out nodeipam during a migration: the kube-controller-managers hand it to the CCM and stop running it when they go external, so nobody would; keep it in the list',
    ]);
  });

  test('GIVEN controllers ["*","-route","-nodeipam"] without cloud routes WHEN checked THEN accepted: the route controller does nothing there', () => {
    expect(problems({ controllers: ['*', '-route', '-nodeipam'] })).toEqual([]);
  });

  test('GIVEN the same list outside a migration WHEN checked THEN accepted', () => {
    const spec = kubernetesSpec('GCP', 'c', { ...BASE, controllers: ['*', '-service', '-nodeipam'] });
    expect(checkSpec(parsedSpec(spec))).toEqual([]);
  });
});

describe("node IPAM on GCP moves with the KCM's allocator", () => {
  const IPAM = { allocateNodeCidrs: true, clusterCIDR: ['10.64.0.0/14'], configureCloudRoutes: true };

  test('GIVEN nodeIpam on GCP without the allocator type and mask size WHEN checked THEN they are asked for, with the reason', () => {
    expect(problems(IPAM, { nodeIpam: true })).toEqual([
      "spec.kubernetes.extraArgs: has no cidr-allocator-type, no node-cidr-mask-size (or -ipv4/-ipv6) while node IPAM moves to the GCP CCM: it must allocate pod CIDRs as kube-controller-manager did (its --cidr-allocator-type, CloudAllocator on IP-alias clusters, and its mask sizes), or new nodes get CIDRs of another kind or size; set them to kube-controller-manager's values",
    ]);
  });

  test('GIVEN nodeIpam on GCP with the allocator type and an IPv4 mask size WHEN checked THEN accepted', () => {
    expect(
      problems({ ...IPAM, extraArgs: { 'cidr-allocator-type': 'CloudAllocator', 'node-cidr-mask-size-ipv4': '24' } }, { nodeIpam: true }),
    ).toEqual([]);
  });
});

describe('the CCM contends for the leases the plan names', () => {
  test('GIVEN extraArgs leader-elect-resource-name in a migration WHEN checked THEN refused', () => {
    expect(problems({ extraArgs: { 'leader-elect-resource-name': 'kube-controller-manager' } })).toEqual([
      'spec.kubernetes.extraArgs.leader-elect-resource-name: is set during a migration: the CCM would take its main lease under "kube-controller-manager" instead of cloud-controller-manager, the lease the plan\'s checks and the migration hand-over read (a KCM or migration lease name makes it contend with the kube-controller-managers); remove it, and set it again after the migration if needed',
    ]);
  });
});

describe('k3s has no in-tree past', () => {
  test.each(['in-tree', 'leader-migration-kcm', 'leader-migration-ccm', 'external-leader-migration'])(
    'GIVEN the k3s preset in phase %s WHEN checked THEN refused: its kube-controller-manager has no in-tree provider',
    (phase) => {
      expect(problems({ scheduling: { preset: 'k3s' } }, { phase })).toEqual([
        `spec.migration.phase: "${phase}" is not possible with spec.kubernetes.scheduling.preset k3s: k3s builds kube-controller-manager without the in-tree cloud providers, so its cloud controllers never ran there and nothing is handed over; set phase to "external" or remove spec.migration`,
      ]);
    },
  );

  test('GIVEN the k3s preset in phase external WHEN checked THEN accepted', () => {
    expect(problems({ scheduling: { preset: 'k3s' } }, { phase: 'external' })).toEqual([]);
  });
});

describe('RKE2 hands its KCM routes to the CCM', () => {
  // rancher/rke2@v1.26.15+rke2r1 pkg/podexecutor/staticpod.go: its KCM always allocates node CIDRs, so the in-tree one programs routes
  test.each(['in-tree', 'leader-migration-ccm', 'external'])(
    'GIVEN the RKE2 preset in phase %s without configureCloudRoutes WHEN checked THEN refused, with the reason',
    (phase) => {
      expect(problems({ version: '1.26', scheduling: { preset: 'rke2' } }, { phase, kubernetesVersion: '1.26' }, 'AWS')).toEqual([
        "spec.kubernetes.configureCloudRoutes: is false on RKE2 during a migration: RKE2's kube-controller-manager always runs --allocate-node-cidrs=true, so with cloud-provider-name it programs cloud routes, and once it goes external nobody would; set configureCloudRoutes: true (with clusterCIDR, RKE2's cluster-cidr, 10.42.0.0/16 by default) so the CCM takes the routes over",
      ]);
    },
  );

  test('GIVEN the RKE2 preset with configureCloudRoutes and its cluster CIDR WHEN checked THEN accepted', () => {
    const rke2 = { version: '1.26', scheduling: { preset: 'rke2' }, configureCloudRoutes: true, clusterCIDR: ['10.42.0.0/16'] };
    expect(problems(rke2, { kubernetesVersion: '1.26' }, 'AWS')).toEqual([]);
  });
});

describe('a custom lease namespace the CCM runs in', () => {
  const tmp = useTempDir();
  // both leases of each controller manager live in its --leader-elect-resource-namespace
  // (kubernetes/cloud-provider@v0.30.14 app/controllermanager.go leaderElectAndRun)
  const spec = (phase: string) =>
    kubernetesSpec(
      'AWS',
      'c',
      { version: '1.26', clusterName: 'kubernetes', namespace: 'cloud' },
      { migration: { phase, kubernetesVersion: '1.26', leaseNamespace: 'cloud' } },
    );

  test('GIVEN spec.kubernetes.namespace and spec.migration.leaseNamespace both "cloud" WHEN checked THEN accepted', () => {
    expect(checkSpec(parsedSpec(spec('leader-migration-ccm')))).toEqual([]);
  });

  test.each(['leader-migration-ccm', 'external-leader-migration', 'external'])(
    'GIVEN phase %s WHEN rendered THEN the CCM elects in "cloud" (no namespace change between phases) and the migration lease Role is there while it runs leader migration',
    (phase) => {
      const objects = renderSpec(tmp(), spec(phase));
      const ccm = objects.find((o) => /cloud-controller-manager$/.test(o.metadata.name) && (o.kind === 'DaemonSet' || o.kind === 'Deployment'));
      const args: string[] = [...(ccm.spec.template.spec.containers[0].command ?? []), ...(ccm.spec.template.spec.containers[0].args ?? [])];
      expect(args.filter((a) => a.startsWith('--leader-elect-resource-namespace'))).toEqual(['--leader-elect-resource-namespace=cloud']);
      const role = findObject(objects, 'Role', 'cloud-provider-leader-migration');
      expect(role?.metadata.namespace).toBe(phase === 'external' ? undefined : 'cloud');
    },
  );
});
