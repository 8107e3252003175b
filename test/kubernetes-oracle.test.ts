/**
 * The oracle test of the `kubernetes` distribution: renders every upstream provider in both
 * RBAC profiles and every scheduling preset and checks the output against what the binaries
 * really do (test/oracle: API-call inventories and image facts read from the upstream source
 * at the pinned tags), not against what we believed:
 * (a) every inventoried call is allowed for the identity that makes it;
 * (b) every granted rule is used by some call (or allow-listed with a reason);
 * (c) command/args start the binary as the image's entrypoint requires, probes target only
 *     served ports, and no controller that runs by default makes the binary exit;
 * (d) the Lease RBAC follows the lock the binary uses, also with --leader-elect-resource-name;
 * plus variants (routes, node IPAM, another namespace, optional controllers) and the example
 * fleet in clusters/kubernetes, whose image tags must be those the oracle was read at.
 * See docs/oracle.md.
 */
import * as path from 'path';
import { App } from 'cdk8s';
import { ClusterChart } from '../src/pipeline/cluster-chart';
import { renderCluster } from '../src/pipeline/render';
import { UPSTREAM_PROVIDERS } from '../src/kubernetes/providers';
import { acceptedControllers, controllerNamesFor } from '../src/kubernetes/controllers';
import { SCHEDULING_PRESETS } from '../src/cluster-spec/sections/kubernetes';
import { loadFleet } from '../src/fleet/load';
import { kubernetesSpec, useTempDir, VSPHERE_CONF_YAML, writeFile } from './helpers';
import {
  ALL_IMAGE_FACTS,
  apiServerEnvProblems,
  CONTROL_PLANE_NODES,
  pendingReplicas,
  CLOUD_NODE_MANAGER_FACTS,
  CLOUD_NODE_MANAGER_WINDOWS_FACTS,
  controllerEnabled,
  controllerRuns,
  refusedControllers,
  controllersOf,
  imageFacts,
  INVENTORIES,
  inventoryFor,
  KUBEADM_API_SERVER,
  KUBEADM_BOOTSTRAP_TAINTS,
  podSecurityProblems,
  untoleratedTaints,
  WhenKey,
} from './oracle';
import {
  applies,
  containerProblems,
  deniedCalls,
  fatalControllers,
  leaderLock,
  noteLoadBalancer,
  Obj,
  objectsOfFiles,
  renderedCloudConfig,
  rendering,
  tagOf,
  unknownFlags,
  unusedGrants,
  whenKeys,
  workloads,
} from './oracle/kubernetes-checks';

const PLATFORMS = Object.keys(UPSTREAM_PROVIDERS).sort();
const providerOf = (platform: string) => UPSTREAM_PROVIDERS[platform as keyof typeof UPSTREAM_PROVIDERS]!.name;

/** Renders one spec from a temporary fleet directory and returns its objects. */
function render(dir: string, spec: Record<string, unknown>): Obj[] {
  writeFile(dir, 'c.yaml', spec);
  const [cluster] = loadFleet(dir).clusters;
  const objects = new ClusterChart(new App({ outdir: 'unused' }), 'c', { cluster: cluster }).toJson();
  noteLoadBalancer(objects, cluster.spec.spec.kubernetes?.equinixMetalLoadBalancer);
  return objects;
}

/**
 * Whether the binary has a --use-service-account-credentials mode at all (its inventory has
 * client-builder calls); when it has none (Alibaba, controller-runtime), the renderer may
 * refuse the knob instead of rendering it.
 */
const hasClientBuilder = (provider: string) => inventoryFor(provider)!.calls.some((c) => [c.when ?? []].flat().includes('serviceAccountCredentials'));

/**
 * Renders a case, or returns undefined when the renderer refuses `useServiceAccountCredentials`
 * for a binary without that mode (a valid answer); any other error fails the test.
 */
function renderCase(dir: string, platform: string, sa: boolean, preset: string, extra: Record<string, unknown> = {}): Obj[] | undefined {
  try {
    return render(dir, spec(platform, sa, preset, extra));
  } catch (e) {
    if (sa && !hasClientBuilder(providerOf(platform)) && /spec\.kubernetes\.useServiceAccountCredentials: is not supported/.test(String(e))) {
      return undefined;
    }
    throw e;
  }
}

/** The spec knobs of one case. */
function spec(platform: string, useServiceAccountCredentials: boolean, preset: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return kubernetesSpec(platform, 'k', { useServiceAccountCredentials, scheduling: { preset }, ...extra });
}

const PROFILES: [string, boolean][] = [
  ['superset', false],
  ['least-privilege', true],
];
const MATRIX: [string, string, string, boolean][] = PLATFORMS.flatMap((p) =>
  PROFILES.flatMap(([name, sa]) => SCHEDULING_PRESETS.map((preset) => [p, name, preset, sa] as [string, string, string, boolean])),
);

describe('kubernetes oracle: the rendered RBAC and workloads against what the binaries do', () => {
  const dir = useTempDir();

  test('the oracle covers every provider the renderer knows, with image facts and an inventory', () => {
    // GIVEN the providers of src/kubernetes/providers.ts THEN each has an inventory and image facts
    expect(PLATFORMS.map(providerOf).filter((p) => !INVENTORIES[p] || !imageFacts(p))).toEqual([]);
    // AND every inventory has image facts at the same tag
    expect(
      Object.values(INVENTORIES)
        .filter((i) => !imageFacts(i.provider, i.imageTag))
        .map((i) => `${i.provider} ${i.imageTag}`),
    ).toEqual([]);
  });

  test.each(MATRIX)(
    '(a) %s, %s profile, preset %s: every inventoried call is allowed for the identity that makes it',
    (platform, _profile, preset, sa) => {
      // GIVEN the provider rendered with default knobs in this profile and preset
      const objects = renderCase(dir(), platform, sa, preset);
      if (!objects) {
        return;
      }
      const r = rendering(providerOf(platform), objects);
      // THEN nothing the binary does is forbidden
      expect(deniedCalls(r)).toEqual([]);
    },
  );

  test.each(MATRIX)(
    '(b) %s, %s profile, preset %s: every granted rule is used by a call of the identity it is bound to',
    (platform, _profile, preset, sa) => {
      // GIVEN the provider rendered WHEN its grants are expanded to (group, resource, verb, name)
      const objects = renderCase(dir(), platform, sa, preset);
      if (!objects) {
        return;
      }
      const r = rendering(providerOf(platform), objects);
      // THEN each is used by some inventoried call (or allow-listed with a reason)
      expect(unusedGrants(r)).toEqual([]);
    },
  );

  test.each(PLATFORMS.flatMap((p) => PROFILES.map(([n, sa]) => [p, n, sa] as [string, string, boolean])))(
    '(c) %s, %s profile: command/args start the binary as the image requires; probes target only served ports',
    (platform, _profile, sa) => {
      // GIVEN the provider rendered
      const objects = renderCase(dir(), platform, sa, 'kubeadm');
      if (!objects) {
        return;
      }
      const r = rendering(providerOf(platform), objects);
      // THEN the CCM (and the Azure cloud-node-manager) start right and are probed only where they listen
      const problems = [
        ...containerProblems(r.ccm.container, r.facts, `${platform} CCM`),
        ...r.cnms.flatMap((c) => containerProblems(c.container, c.facts, `${platform} ${c.workload.metadata.name}`)),
        ...unknownFlags(r),
      ];
      expect(problems).toEqual([]);
    },
  );

  test.each(PLATFORMS)('(c) %s: no controller that is enabled by default makes the binary exit with the rendered flags', (platform) => {
    // GIVEN the provider rendered with default knobs
    const r = rendering(providerOf(platform), render(dir(), spec(platform, false, 'kubeadm')));
    // THEN every enabled controller's required flag holds (GCP: nodeipam needs --allocate-node-cidrs=true; routes need --cluster-cidr)
    expect(fatalControllers(r)).toEqual([]);
  });

  test.each(PLATFORMS)(
    '(c) %s with configureCloudRoutes and no clusterCIDR: refused, or the running route controller gets a --cluster-cidr',
    (platform) => {
      // GIVEN cloud routes on without a pod CIDR
      let objects: Obj[] | undefined;
      try {
        objects = renderCase(dir(), platform, false, 'kubeadm', { configureCloudRoutes: true });
      } catch (e) {
        expect(String(e)).toMatch(/spec\.kubernetes\.(configureCloudRoutes|clusterCIDR)/);
        return;
      }
      const r = rendering(providerOf(platform), objects!);
      // THEN a route controller that can start has a CIDR to parse
      expect(fatalControllers(r)).toEqual([]);
    },
  );

  test.each(PLATFORMS.flatMap((p) => PROFILES.map(([n, sa]) => [p, n, sa] as [string, string, boolean])))(
    '(d) %s, %s profile: with --leader-elect-resource-name=my-lock the binary may take Lease my-lock and nothing grants the default name',
    (platform, _profile, sa) => {
      // GIVEN the lock renamed through extraArgs
      const objects = renderCase(dir(), platform, sa, 'kubeadm', { extraArgs: { 'leader-elect-resource-name': 'my-lock' } });
      if (!objects) {
        return;
      }
      const r = rendering(providerOf(platform), objects);
      expect(leaderLock(r).name).toBe('my-lock');
      // THEN every call is allowed (the Lease calls included) and no grant is left unused (e.g. a rule on the default name)
      expect(deniedCalls(r)).toEqual([]);
      expect(unusedGrants(r).filter((g) => /leases/.test(g))).toEqual([]);
    },
  );

  test.each(PLATFORMS.flatMap((p) => PROFILES.map(([n, sa]) => [p, n, sa] as [string, string, boolean])))(
    '(a) %s, %s profile, CCM in namespace cloud-system: the kube-system Leases, ServiceAccounts and ConfigMaps the binary uses are still allowed',
    (platform, _profile, sa) => {
      // GIVEN the CCM moved out of kube-system (the lock namespace and the client builder's namespace do not follow
      // unless flags say so: cloud-provider options.go ResourceNamespace "kube-system"; NewDynamicClientBuilder(..., metav1.NamespaceSystem))
      let objects: Obj[] | undefined;
      try {
        objects = renderCase(dir(), platform, sa, 'kubeadm', { namespace: 'cloud-system' });
      } catch (e) {
        expect(String(e)).toMatch(/spec\.kubernetes\.namespace/);
        return;
      }
      if (!objects) {
        return;
      }
      const r = rendering(providerOf(platform), objects);
      expect(r.ccm.saRef.startsWith('cloud-system/')).toBe(true);
      // THEN nothing the binary does is forbidden
      expect(deniedCalls(r)).toEqual([]);
    },
  );

  test.each(PROFILES.flatMap(([n, sa]) => ['kube-vip', 'metallb', 'metallb-crd', 'emlb'].map((lb) => [lb, n, sa] as [string, string, boolean])))(
    '(a) EquinixMetal with load balancer %s, %s profile: the service controller runs, and its calls are allowed',
    (lb, _profile, sa) => {
      // GIVEN a load-balancer implementation named (LoadBalancer() is true, so the service controller gets past init)
      const r = rendering('equinix-metal', render(dir(), spec('EquinixMetal', sa, 'kubeadm', { equinixMetalLoadBalancer: lb })));
      expect(r.loadBalancerSetting).toBe(true);
      // THEN its informer, status patches and events are allowed
      expect(deniedCalls(r)).toEqual([]);
    },
  );

  /** vsphere.conf with the global credentials outside kube-system and a second vCenter with its own Secret, as YAML and as legacy INI. */
  const VSPHERE_CONFIGS: [string, string][] = [
    ['YAML', VSPHERE_CONF_YAML],
    [
      'INI',
      [
        '[Global]',
        'port = 443',
        'secret-name = vc-creds',
        'secret-namespace = vmware-system',
        '[VirtualCenter "vc1.example.com"]',
        'datacenters = dc1',
        '[VirtualCenter "vc2.example.com"]',
        'datacenters = dc2',
        'secret-name = vc2-creds',
        'secret-namespace = vc2-system',
        '',
      ].join('\n'),
    ],
  ];

  test.each(VSPHERE_CONFIGS.flatMap(([format, conf]) => PROFILES.map(([n, sa]) => [format, n, sa, conf] as [string, string, boolean, string])))(
    '(a) VSphere, %s vsphere.conf with its Secrets outside kube-system, %s profile: the Secret listers of the rendered config are allowed',
    (_format, _profile, sa, conf) => {
      // GIVEN an inline vsphere.conf whose global Secret is in vmware-system and whose vc2 has its own Secret in vc2-system
      writeFile(dir(), 'vsphere.conf', conf);
      const r = rendering(
        'vsphere',
        render(dir(), kubernetesSpec('VSphere', 'k', { useServiceAccountCredentials: sa }, { cloudConfig: { file: 'vsphere.conf' } })),
      );
      // WHEN the oracle reads the namespaces from the config the CCM mounts
      expect(r.inventory.configSecretNamespaces!(renderedCloudConfig(r))).toEqual(['vmware-system', 'vc2-system']);
      // THEN the binary may list and watch Secrets in both, and nothing is granted that it does not use
      expect(deniedCalls(r)).toEqual([]);
      expect(unusedGrants(r)).toEqual([]);
    },
  );

  test('VSphere with an empty global secretNamespace is refused: the CCM would watch Secrets in every namespace', () => {
    // GIVEN an inline vsphere.conf without global.secretNamespace
    writeFile(
      dir(),
      'vsphere.conf',
      'global:\n  port: 443\nvcenter:\n  vc1:\n    server: vc1.example.com\n    secretName: a\n    secretNamespace: b\n',
    );
    // WHEN it is loaded THEN it is refused, naming the config file and the field
    expect(() => render(dir(), kubernetesSpec('VSphere', 'k', {}, { cloudConfig: { file: 'vsphere.conf' } }))).toThrow(
      /vsphere\.conf: global\.secretNamespace: cluster k: is empty: the vSphere CCM then lists and watches Secrets in every namespace, which the rendered RBAC does not allow; set it to the namespace of the vCenter credentials Secret \(the upstream manifest uses kube-system\)/,
    );
  });

  test.each(PLATFORMS.flatMap((p) => PROFILES.map(([n, sa]) => [p, n, sa] as [string, string, boolean])))(
    '(a) %s, %s profile, routes and node IPAM on: their calls are allowed too',
    (platform, _profile, sa) => {
      // GIVEN cloud routes and node CIDR allocation switched on (GCP: with the CloudAllocator)
      const extra = {
        configureCloudRoutes: true,
        allocateNodeCidrs: true,
        clusterCIDR: ['10.244.0.0/16'],
        ...(platform === 'GCP' ? { extraArgs: { 'cidr-allocator-type': 'CloudAllocator' } } : {}),
      };
      let objects: Obj[] | undefined;
      try {
        objects = renderCase(dir(), platform, sa, 'kubeadm', extra);
      } catch (e) {
        // a provider whose binary has no route or IPAM controller may refuse the knob: that is a valid answer
        expect(String(e)).toMatch(/spec\.kubernetes\.(configureCloudRoutes|allocateNodeCidrs|clusterCIDR)/);
        return;
      }
      if (!objects) {
        return;
      }
      const r = rendering(providerOf(platform), objects);
      // THEN nothing the binary does is forbidden
      expect(deniedCalls(r)).toEqual([]);
    },
  );
});

/** The objects one example cluster renders, with those a ClusterResourceSet ConfigMap carries unwrapped. */
function exampleObjects(cluster: Parameters<typeof renderCluster>[0]): Obj[] {
  const out = objectsOfFiles(renderCluster(cluster).files);
  noteLoadBalancer(out, cluster.spec.spec.kubernetes?.equinixMetalLoadBalancer);
  return out;
}

describe('kubernetes oracle: the example fleet (clusters/kubernetes)', () => {
  const fleet = loadFleet(path.resolve(__dirname, '..', 'clusters'));
  const examples = fleet.clusters.filter((c) => c.spec.spec.distribution === 'kubernetes');
  const CASES = examples.map((c) => [c.spec.metadata.name, c] as [string, (typeof examples)[number]]);

  test('every provider has an example', () => {
    // GIVEN the examples THEN together they cover all nine providers
    expect([...new Set(examples.map((c) => providerOf(c.spec.spec.platform)))].sort()).toEqual(PLATFORMS.map(providerOf).sort());
  });

  test.each(CASES)('%s: the pinned image tags are those the oracle was read at (re-read the source when bumping one)', (_name, cluster) => {
    // GIVEN the example as rendered
    const r = rendering(providerOf(cluster.spec.spec.platform), exampleObjects(cluster));
    // THEN the oracle was read at the CCM (and cloud-node-manager) image tags (rendering() fails otherwise)
    expect({ ccm: tagOf(r.ccm.container.image), inventory: r.inventory.imageTag, cnm: r.cnms.map((c) => tagOf(c.container.image)) }).toEqual({
      ccm: r.facts.imageTag,
      inventory: r.facts.imageTag,
      cnm: r.cnms.map((c) => c.facts.imageTag),
    });
  });

  test.each(CASES)('%s: every granted rule is used by a call of the identity it is bound to', (_name, cluster) => {
    // GIVEN the example as rendered for git THEN nothing is granted that the binary does not use
    expect(unusedGrants(rendering(providerOf(cluster.spec.spec.platform), exampleObjects(cluster)))).toEqual([]);
  });

  test.each(CASES)(
    '%s: every inventoried call is allowed; the containers start and are probed where they listen; no enabled controller exits',
    (_name, cluster) => {
      // GIVEN the example as rendered for git
      const r = rendering(providerOf(cluster.spec.spec.platform), exampleObjects(cluster));
      // THEN
      expect([
        ...deniedCalls(r),
        ...containerProblems(r.ccm.container, r.facts, 'CCM'),
        ...r.cnms.flatMap((c) => containerProblems(c.container, c.facts, c.workload.metadata.name)),
        ...fatalControllers(r),
        ...unknownFlags(r),
      ]).toEqual([]);
    },
  );
});

describe('kubernetes oracle: the API server is reachable from the CCM pods', () => {
  const fleet = loadFleet(path.resolve(__dirname, '..', 'clusters'));
  // the kubeadm form (preset kubeadm: kubeadm and Cluster API's kubeadm control plane); RKE2 and k3s issue their own certificates
  const KUBEADM = fleet.clusters.filter((c) => c.spec.spec.distribution === 'kubernetes' && c.spec.spec.kubernetes?.scheduling.preset === 'kubeadm');

  test('the kubeadm-form examples are checked (GCP, AWS, Azure, OpenStack, Nutanix, Equinix Metal)', () => {
    expect(KUBEADM.map((c) => c.spec.metadata.name).sort()).toEqual([
      'k8s-aws-1',
      'k8s-azure-1',
      'k8s-equinix-1',
      'k8s-gcp-1',
      'k8s-nutanix-1',
      'k8s-openstack-1',
    ]);
  });

  test.each(KUBEADM.map((c) => [c.spec.metadata.name, c] as [string, (typeof KUBEADM)[number]]))(
    '%s: every CCM container dials a host and port the kubeadm API server certificate covers',
    (_name, cluster) => {
      // GIVEN the example as rendered for git
      const objects = exampleObjects(cluster);
      // WHEN the env of each CCM / cloud-node-manager container is read as client-go's in-cluster config reads it
      const problems = workloads(objects).flatMap((w) =>
        w.spec.template.spec.containers.flatMap((c: Obj) =>
          apiServerEnvProblems(c.env ?? [], KUBEADM_API_SERVER).map((p) => `${w.metadata.name}/${c.name}: ${p}`),
        ),
      );
      // THEN none points at a host the certificate lacks, or at the Service on the bind port
      expect(problems).toEqual([]);
    },
  );

  test('a loopback KUBERNETES_SERVICE_HOST is reported; the Service name on 6443 is reported; the Service VIP default is not', () => {
    // GIVEN the env the GCP example used to set
    expect(
      apiServerEnvProblems(
        [
          { name: 'KUBERNETES_SERVICE_HOST', value: '127.0.0.1' },
          { name: 'KUBERNETES_SERVICE_PORT', value: '6443' },
        ],
        KUBEADM_API_SERVER,
      ),
    ).toEqual([
      `KUBERNETES_SERVICE_HOST=127.0.0.1 is not a SAN of the API server certificate: client-go's TLS verification fails on every call (${KUBEADM_API_SERVER.source})`,
    ]);
    expect(
      apiServerEnvProblems(
        [
          { name: 'KUBERNETES_SERVICE_HOST', value: 'kubernetes.default.svc' },
          { name: 'KUBERNETES_SERVICE_PORT', value: '6443' },
        ],
        KUBEADM_API_SERVER,
      ),
    ).toEqual(['KUBERNETES_SERVICE_HOST=kubernetes.default.svc is the kubernetes Service, which serves 443, not 6443']);
    expect(apiServerEnvProblems([{ name: 'KUBERNETES_SERVICE_PORT', value: '6443' }], KUBEADM_API_SERVER)).toEqual([
      "KUBERNETES_SERVICE_PORT=6443 without a host: the kubelet's host is the kubernetes Service ClusterIP, which serves 443",
    ]);
    // AND no override (the kubelet's Service VIP and 443) or a load-balancer name is fine
    expect(apiServerEnvProblems([], KUBEADM_API_SERVER)).toEqual([]);
    expect(
      apiServerEnvProblems(
        [
          { name: 'KUBERNETES_SERVICE_HOST', value: 'api.example.com' },
          { name: 'KUBERNETES_SERVICE_PORT', value: '6443' },
        ],
        KUBEADM_API_SERVER,
      ),
    ).toEqual([]);
  });
});

describe('kubernetes oracle: every replica fits the control-plane nodes of the cluster form', () => {
  const dir = useTempDir();
  const fleet = loadFleet(path.resolve(__dirname, '..', 'clusters'));
  const EXAMPLES = fleet.clusters
    .filter((c) => c.spec.spec.distribution === 'kubernetes')
    .map((c) => [c.spec.metadata.name, c] as [string, (typeof fleet.clusters)[number]]);
  const TOPOLOGIES = ['SingleReplica', 'HighlyAvailable'] as const;
  const pending = (objects: Obj[], topology: (typeof TOPOLOGIES)[number]) =>
    workloads(objects).flatMap((w) => pendingReplicas(w, CONTROL_PLANE_NODES[topology]));

  test.each(EXAMPLES)('%s: no replica stays Pending on the control-plane nodes of its topology', (_name, cluster) => {
    // GIVEN the example as rendered for git WHEN its Deployments meet the fewest control-plane nodes of its topology
    expect(pending(exampleObjects(cluster), cluster.spec.spec.controlPlaneTopology)).toEqual([]);
  });

  test.each(PLATFORMS.flatMap((p) => TOPOLOGIES.map((t) => [p, t] as [string, (typeof TOPOLOGIES)[number]])))(
    '%s, %s, default replicas: no replica stays Pending',
    (platform, topology) => {
      // GIVEN the provider as a Deployment with the default replicas
      const objects = render(dir(), kubernetesSpec(platform, 'k', { workload: { kind: 'Deployment' } }, { controlPlaneTopology: topology }));
      // THEN each replica finds a control-plane node of its own
      expect(pending(objects, topology)).toEqual([]);
    },
  );

  test.each(PLATFORMS)('%s on one control-plane node with workload.replicas 2: refused, or every replica is scheduled', (platform) => {
    // GIVEN a single control-plane node and two replicas asked for
    let objects: Obj[];
    try {
      objects = render(
        dir(),
        kubernetesSpec(platform, 'k', { workload: { kind: 'Deployment', replicas: 2 } }, { controlPlaneTopology: 'SingleReplica' }),
      );
    } catch (e) {
      // THEN either the spec is refused on the field ...
      expect(String(e)).toMatch(/spec\.kubernetes\.workload\.replicas: is 2 with controlPlaneTopology SingleReplica/);
      return;
    }
    // ... or the pods may run elsewhere than the one control-plane node
    expect(pending(objects, 'SingleReplica')).toEqual([]);
  });

  test('the check reports the replicas a one-per-node Deployment cannot place, and only on control-plane-only pods', () => {
    const deployment = (replicas: number, pod: Obj) => ({
      kind: 'Deployment',
      metadata: { name: 'ccm' },
      spec: { replicas, template: { metadata: { labels: { app: 'ccm' } }, spec: pod } },
    });
    const anti = {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'ccm' } } }],
      },
    };
    const cp = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists' }] }],
        },
      },
    };
    // GIVEN two replicas with required anti-affinity on control-plane nodes, one node THEN one is Pending
    expect(pendingReplicas(deployment(2, { affinity: { ...anti, ...cp } }), CONTROL_PLANE_NODES.SingleReplica)).toEqual([
      `ccm: 1 of 2 replicas stay Pending: one pod per node (required hostname anti-affinity against its own pods) on 1 control-plane node(s) (${CONTROL_PLANE_NODES.SingleReplica.source})`,
    ]);
    // AND a host-network port has the same effect; four on three nodes leave one
    expect(
      pendingReplicas(
        deployment(4, {
          hostNetwork: true,
          nodeSelector: { 'node-role.kubernetes.io/master': '' },
          containers: [{ ports: [{ containerPort: 10258 }] }],
        }),
        CONTROL_PLANE_NODES.HighlyAvailable,
      ),
    ).toEqual([
      `ccm: 1 of 4 replicas stay Pending: one pod per node (host-network port 10258) on 3 control-plane node(s) (${CONTROL_PLANE_NODES.HighlyAvailable.source})`,
    ]);
    // AND pods free to use any node, or several per node, are not reported
    expect(pendingReplicas(deployment(2, { affinity: anti }), CONTROL_PLANE_NODES.SingleReplica)).toEqual([]);
    expect(pendingReplicas(deployment(2, { affinity: cp }), CONTROL_PLANE_NODES.SingleReplica)).toEqual([]);
  });
});

describe('kubernetes oracle: the CCM starts on a bootstrapping kubeadm control-plane node', () => {
  const dir = useTempDir();

  test.each(PLATFORMS)('%s, preset kubeadm: every bootstrap taint of a kubeadm control-plane node is tolerated', (platform) => {
    // GIVEN the provider rendered for kubeadm WHEN its pod meets a control-plane node before the CCM and the CNI ran
    const r = rendering(providerOf(platform), render(dir(), spec(platform, false, 'kubeadm')));
    // THEN it tolerates the control-plane, uninitialized and not-ready taints
    expect(untoleratedTaints(r.ccm.workload.spec.template.spec, KUBEADM_BOOTSTRAP_TAINTS)).toEqual([]);
  });

  test('the check reports a missing toleration and honours operator, value and effect', () => {
    expect(
      untoleratedTaints(
        { tolerations: [{ key: 'node.cloudprovider.kubernetes.io/uninitialized', operator: 'Equal', value: 'false', effect: 'NoSchedule' }] },
        KUBEADM_BOOTSTRAP_TAINTS.slice(1, 2),
      ),
    ).toEqual([`node.cloudprovider.kubernetes.io/uninitialized=true:NoSchedule (${KUBEADM_BOOTSTRAP_TAINTS[1].source})`]);
    expect(untoleratedTaints({ tolerations: [{ operator: 'Exists' }] }, KUBEADM_BOOTSTRAP_TAINTS)).toEqual([]);
  });
});

describe('kubernetes oracle: flags of a binary that exits on an unknown one', () => {
  const dir = useTempDir();

  test('Alibaba: extraArgs the binary does not know are refused before they reach the pod; known ones render and pass', () => {
    // GIVEN an extraArgs flag Alibaba v2.12.4 does not bind (cloud-provider-alibaba-cloud declares feature-gates but never binds it)
    expect(() => render(dir(), spec('AlibabaCloud', false, 'kubeadm', { extraArgs: { 'feature-gates': 'A=true' } }))).toThrow(
      /spec\.kubernetes\.extraArgs\.feature-gates: is not a flag of the AlibabaCloud CCM at v2.12.4, which exits on an unknown flag; known flags: add_dir_header, allocate-node-cidrs, /,
    );
    // WHEN known flags are added THEN the rendering passes the oracle's flag table
    const r = rendering('alibaba', render(dir(), spec('AlibabaCloud', false, 'kubeadm', { extraArgs: { 'kube-api-qps': 50, 'sg-batch-size': 20 } })));
    expect(unknownFlags(r)).toEqual([]);
  });

  test("every provider's image facts hold the flag set of the binary at their tag, the Azure cloud-node-manager's too", () => {
    // GIVEN the oracle's image facts THEN each checks the rendered flags against a table read at its tag
    expect(ALL_IMAGE_FACTS.filter((f) => !f.flags).map((f) => `${f.provider} ${f.imageTag}`)).toEqual([]);
    expect(CLOUD_NODE_MANAGER_FACTS.flags?.names).toContain('wait-routes');
  });

  test('the check reports a rendered flag outside the table of a k8s.io/cloud-provider binary (AWS) and of the Azure cloud-node-manager', () => {
    const r = rendering('aws', render(dir(), spec('AWS', false, 'kubeadm')));
    const withExtra = { ...r, ccm: { ...r.ccm, flags: new Map([...r.ccm.flags, ['sg-batch-size', '20']]) } };
    expect(unknownFlags(withExtra)).toEqual([`--sg-batch-size is not a flag of aws v1.35.0 (${r.facts.flags!.source})`]);
    const az = rendering('azure', render(dir(), spec('Azure', false, 'kubeadm')));
    const cnm = az.cnms[0];
    const withCnmExtra = { ...az, cnms: [{ ...cnm, container: { ...cnm.container, args: [...(cnm.container.args ?? []), '--leader-elect=true'] } }] };
    expect(unknownFlags(withCnmExtra)).toEqual([
      `--leader-elect is not a flag of ${cnm.workload.metadata.name} v1.33.2 (${cnm.facts.flags!.source})`,
    ]);
  });

  test('a Windows-only flag rendered for the Linux cloud-node-manager, or a log-json flag for AWS, fails the oracle (the binary exits)', () => {
    // GIVEN the Linux cloud-node-manager DaemonSet with --windows-service (registered in init_windows.go only)
    const az = rendering('azure', render(dir(), spec('Azure', false, 'kubeadm')));
    const cnm = az.cnms[0];
    const withWindowsFlag = {
      ...az,
      cnms: [{ ...cnm, container: { ...cnm.container, args: [...(cnm.container.args ?? []), '--windows-service=true'] } }],
    };
    // THEN the oracle reports it; the Windows image's facts have it
    expect(unknownFlags(withWindowsFlag)).toEqual([
      `--windows-service is not a flag of ${cnm.workload.metadata.name} v1.33.2 (${cnm.facts.flags!.source})`,
    ]);
    expect(CLOUD_NODE_MANAGER_WINDOWS_FACTS.flags?.names).toContain('windows-service');
    // AND AWS (no json log format registered) with --log-json-split-stream is reported too
    const r = rendering('aws', render(dir(), spec('AWS', false, 'kubeadm')));
    const withJson = { ...r, ccm: { ...r.ccm, flags: new Map([...r.ccm.flags, ['log-json-split-stream', 'true']]) } };
    expect(unknownFlags(withJson)).toEqual([`--log-json-split-stream is not a flag of aws v1.35.0 (${r.facts.flags!.source})`]);
  });

  test('the check reports a rendered flag outside the table', () => {
    const r = rendering('alibaba', render(dir(), spec('AlibabaCloud', false, 'kubeadm')));
    const withExtra = { ...r, ccm: { ...r.ccm, flags: new Map([...r.ccm.flags, ['bind-address', '0.0.0.0']]) } };
    expect(unknownFlags(withExtra)).toEqual([`--bind-address is not a flag of alibaba v2.12.4 (${r.facts.flags!.source})`]);
  });
});

describe('kubernetes oracle: Pod Security admission in the namespace the CCM runs in', () => {
  const dir = useTempDir();

  test.each(PLATFORMS)(
    "%s in namespace cloud-system (with the Azure cloud-node-manager, Linux and Windows): every pod is admitted by its namespace's labels",
    (platform) => {
      // GIVEN the CCM in a namespace the rendering creates (hostNetwork pods; Azure adds HostProcess Windows pods)
      const extra = { namespace: 'cloud-system', ...(platform === 'Azure' ? { cloudNodeManager: { enabled: true, windows: true } } : {}) };
      let objects: Obj[];
      try {
        objects = render(dir(), spec(platform, false, 'kubeadm', extra));
      } catch (e) {
        expect(String(e)).toMatch(/spec\.kubernetes\.namespace/);
        return;
      }
      // THEN the namespace states its level and admits every pod in it
      expect(podSecurityProblems(objects)).toEqual([]);
    },
  );

  test('the check reports a hostNetwork pod in an unlabelled or baseline namespace', () => {
    const pod = {
      kind: 'DaemonSet',
      metadata: { name: 'x', namespace: 'n' },
      spec: { template: { spec: { hostNetwork: true, containers: [{ name: 'c' }] } } },
    };
    expect(podSecurityProblems([{ kind: 'Namespace', metadata: { name: 'n' } }, pod])).toEqual([
      'Namespace n has no pod-security.kubernetes.io/enforce label: the cluster default decides',
      'DaemonSet n/x (hostNetwork) is refused by enforce=(cluster default)',
    ]);
    expect(
      podSecurityProblems([{ kind: 'Namespace', metadata: { name: 'n', labels: { 'pod-security.kubernetes.io/enforce': 'baseline' } } }, pod]),
    ).toEqual(['DaemonSet n/x (hostNetwork) is refused by enforce=baseline']);
  });
});

describe('kubernetes oracle: optional features of the binaries', () => {
  const dir = useTempDir();
  const VARIANTS: [string, string, Record<string, unknown>, WhenKey][] = [
    // kubernetes/cloud-provider-aws@v1.35.0 cmd/aws-cloud-controller-manager/main.go: tagging is off under "*"
    ['AWS', 'the tagging controller', { controllers: ['*', 'tagging'] }, 'controller:tagging'],
  ];

  test.each(
    VARIANTS.flatMap(([p, what, knobs, key]) =>
      PROFILES.map(([n, sa]) => [p, what, n, sa, knobs, key] as [string, string, string, boolean, Record<string, unknown>, WhenKey]),
    ),
  )('%s with %s, %s profile: its calls are allowed (or the renderer refuses the knob)', (platform, _what, _profile, sa, knobs, key) => {
    // GIVEN the feature switched on through the spec
    let objects: Obj[] | undefined;
    try {
      objects = renderCase(dir(), platform, sa, 'kubeadm', knobs);
    } catch (e) {
      // refusing the knob with a clear error is a valid answer
      expect(String(e)).toMatch(/spec\.kubernetes\.(controllers|extraArgs)/);
      return;
    }
    if (!objects) {
      return;
    }
    const r = rendering(providerOf(platform), objects);
    // THEN the feature's condition holds in the rendering, and nothing the binary does is forbidden
    expect(r.inventory.calls.some((c) => whenKeys(c).includes(key) && applies(r, c))).toBe(true);
    expect(deniedCalls(r)).toEqual([]);
  });
});

describe('kubernetes oracle: Azure dynamic reloading grants only what the watcher it runs reads', () => {
  const dir = useTempDir();

  // kubernetes-sigs/cloud-provider-azure@v1.33.2 cmd/cloud-controller-manager/app/controllermanager.go (RunWrapper: a
  // --cloud-config file starts the file watcher, else the Secret watcher; Run: NewCloudFromConfigFile before NewCloudFromSecret)
  test.each(PROFILES)('with --cloud-config rendered (the file watcher), %s profile: no Secret grant at all', (_n, sa) => {
    // GIVEN dynamic reloading switched on while the renderer mounts the config and sets --cloud-config
    const r = rendering('azure', renderCase(dir(), 'Azure', sa, 'kubeadm', { extraArgs: { 'enable-dynamic-reloading': true } })!);
    expect(r.ccm.flags.get('cloud-config')).toBe('/etc/kubernetes/cloud-config/cloud-config');
    // THEN nothing is granted that the binary does not use, and no rule names Secrets
    expect(unusedGrants(r)).toEqual([]);
    expect(r.authorizer.grants().filter((g) => (g.rule.resources ?? []).includes('secrets'))).toEqual([]);
  });
});

describe('kubernetes oracle: controller names the binary refuses', () => {
  const dir = useTempDir();
  // names a user sets: a typo, the short names of a binary that passes no alias map
  const CASES: [string, string[]][] = [
    ['AWS', ['*', '-route', 'bogus']],
    ['DigitalOcean', ['*', '-route']],
    ['Nutanix', ['cloud-node', 'cloud-node-lifecycle']],
  ];
  test('the spec check accepts exactly the names each binary accepts at its pinned tag, aliases included', () => {
    // GIVEN every k8s.io/cloud-provider based binary, at the tag the oracle read
    const binaries = Object.values(UPSTREAM_PROVIDERS).filter((p) => p.framework === 'cloud-provider');
    const accepted = (known: readonly string[], aliases: Readonly<Record<string, string>>) =>
      [...new Set([...known, ...Object.keys(aliases)])].sort();
    for (const p of binaries) {
      const names = controllerNamesFor(p.name, imageFacts(p.name)?.imageTag);
      const oracle = controllersOf(p.name);
      // THEN the product's names and aliases are the oracle's
      expect({ binary: p.name, accepted: names ? acceptedControllers(names) : undefined }).toEqual({
        binary: p.name,
        accepted: accepted(oracle.known, oracle.aliases),
      });
    }
  });

  test.each(CASES)('%s with --controllers=%j: refused by the spec check, or a binary that starts', (platform, controllers) => {
    // GIVEN the controllers set in the spec
    let objects: Obj[];
    try {
      // WHEN it is rendered
      objects = render(dir(), spec(platform, false, 'kubeadm', { controllers }));
    } catch (e) {
      // THEN either the renderer refuses the field
      expect(String(e)).toMatch(/spec\.kubernetes\.controllers/);
      return;
    }
    // ... or the binary the oracle models starts with the rendered flags
    expect(fatalControllers(rendering(providerOf(platform), objects))).toEqual([]);
  });
});

describe('kubernetes oracle: the namespace a binary reads from its env', () => {
  const dir = useTempDir();

  test('Nutanix with a literal POD_NAMESPACE in extraEnv: refused, or its informers are granted in that namespace', () => {
    // GIVEN a Nutanix spec that points POD_NAMESPACE at another namespace
    let objects: Obj[];
    try {
      // WHEN it is rendered
      objects = render(dir(), spec('Nutanix', false, 'kubeadm', { extraEnv: [{ name: 'POD_NAMESPACE', value: 'nutanix-system' }] }));
    } catch (e) {
      // THEN either the renderer refuses the variable
      expect(String(e)).toMatch(/spec\.kubernetes\.extraEnv\.0/);
      return;
    }
    // ... or the binary starts and its Secret and ConfigMap informers are allowed where it builds them
    const r = rendering('nutanix', objects);
    expect([...fatalControllers(r), ...deniedCalls(r)]).toEqual([]);
  });

  test('a rendering without the POD_NAMESPACE Nutanix reads is reported as an exit', () => {
    // GIVEN Nutanix rendered WHEN its container loses POD_NAMESPACE
    const objects = render(dir(), spec('Nutanix', false, 'kubeadm')).map((o) =>
      o.kind === 'Deployment' || o.kind === 'DaemonSet'
        ? {
            ...o,
            spec: {
              ...o.spec,
              template: {
                ...o.spec.template,
                spec: {
                  ...o.spec.template.spec,
                  containers: (o.spec.template.spec.containers as Obj[]).map((c) => ({
                    ...c,
                    env: ((c.env ?? []) as Obj[]).filter((e) => e.name !== 'POD_NAMESPACE'),
                  })),
                },
              },
            },
          }
        : o,
    );
    // THEN the oracle reports the exit
    expect(fatalControllers(rendering('nutanix', objects))).toEqual([
      expect.stringMatching(/^env POD_NAMESPACE is unset or empty: the binary exits \(nutanix-cloud-native\/cloud-provider-nutanix@v0\.5\.2 /),
    ]);
  });
});

describe('kubernetes oracle: the checks themselves', () => {
  const dir = useTempDir();

  test('--controllers follows IsControllerEnabled: aliases, "-name", "*" without the disabled-by-default ones; unknown names make the binary exit', () => {
    // GIVEN the AWS and GCP controller facts
    const aws = controllersOf('aws');
    const gcp = controllersOf('gcp');
    // THEN
    expect(controllerEnabled(aws, ['*'], 'service-lb-controller')).toBe(true);
    expect(controllerEnabled(aws, ['*'], 'tagging')).toBe(false);
    expect(controllerEnabled(aws, ['*', 'tagging'], 'tagging')).toBe(true);
    expect(controllerEnabled(aws, ['*', '-service'], 'service-lb-controller')).toBe(false);
    expect(controllerEnabled(aws, ['cloud-node'], 'cloud-node-controller')).toBe(true);
    expect(controllerEnabled(aws, ['cloud-node'], 'service-lb-controller')).toBe(false);
    expect(controllerEnabled(gcp, ['*', '-nodeipam'], 'node-ipam-controller')).toBe(false);
    expect(controllerEnabled(gcp, ['*'], 'node-ipam-controller')).toBe(true);
    // Nutanix: the service controller is enabled (its client is asked for) but stops at start (no LoadBalancer())
    expect(controllerEnabled(controllersOf('nutanix'), ['*'], 'service-lb-controller')).toBe(true);
    expect(controllerRuns(controllersOf('nutanix'), ['*'], 'service-lb-controller')).toBe(false);
    expect(controllerRuns(controllersOf('nutanix'), ['*'], 'cloud-node-controller')).toBe(true);
    // a name unknown after the binary's own aliases is refused at start, not "off"
    expect(refusedControllers(aws, ['*', '-route', 'bogus'])).toEqual(['bogus']);
    expect(refusedControllers(aws, ['-tagging', 'cloud-node-controller'])).toEqual([]);
    expect(refusedControllers(controllersOf('digitalocean'), ['*', '-route'])).toEqual(['route']);
    expect(refusedControllers(controllersOf('nutanix'), ['cloud-node', 'cloud-node-lifecycle-controller'])).toEqual(['cloud-node']);
  });

  test('an inventoried call the RBAC lacks is reported, with its identity and source', () => {
    // GIVEN AWS rendered WHEN its ClusterRoles lose every "nodes" rule
    const objects = render(dir(), spec('AWS', false, 'kubeadm')).map((o) =>
      o.kind === 'ClusterRole' ? { ...o, rules: (o.rules ?? []).filter((x: Obj) => !(x.resources ?? []).includes('nodes')) } : o,
    );
    const r = rendering('aws', objects);
    // THEN the node informer's list is reported as denied for the CCM ServiceAccount
    expect(deniedCalls(r).some((d) => d.startsWith('kube-system/cloud-controller-manager (root) list core/nodes cluster-wide'))).toBe(true);
  });

  test('a granted verb no call uses is reported', () => {
    // GIVEN AWS rendered WHEN a ClusterRole bound to the CCM gains "secrets delete"
    const objects = render(dir(), spec('AWS', false, 'kubeadm')).map((o) =>
      o.kind === 'ClusterRole' ? { ...o, rules: [...(o.rules ?? []), { apiGroups: [''], resources: ['secrets'], verbs: ['delete'] }] } : o,
    );
    const r = rendering('aws', objects);
    // THEN it is reported as unused
    expect(unusedGrants(r).some((g) => g.endsWith('delete core/secrets'))).toBe(true);
  });

  test('args that replace a go-runner CMD without the binary are reported; a probe on an unserved port is reported', () => {
    // GIVEN the OpenStack image facts (go-runner ENTRYPOINT) and a container with flags only and a probe on 10263
    const facts = imageFacts('openstack')!;
    const container = { args: ['--cloud-provider=openstack'], livenessProbe: { httpGet: { port: 10263, path: '/healthz', scheme: 'HTTPS' } } };
    // THEN both are problems
    const problems = containerProblems(container, facts, 'x');
    expect(problems[0]).toMatch(
      /^x: runs \["\/go-runner","--cloud-provider=openstack"\], but the image needs \/bin\/openstack-cloud-controller-manager first/,
    );
    expect(problems[1]).toMatch(/^x: livenessProbe targets port 10263, which the binary does not serve \(served: 10258;/);
    // AND the Azure cloud-node-manager serves nothing by default
    expect(
      containerProblems({ livenessProbe: { httpGet: { port: 10263, path: '/healthz', scheme: 'HTTPS' } } }, CLOUD_NODE_MANAGER_FACTS, 'cnm')[0],
    ).toMatch(/^cnm: livenessProbe targets port 10263, which the binary does not serve \(served: none;/);
  });
});
