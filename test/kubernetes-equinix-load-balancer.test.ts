/**
 * Equinix Metal: the calls of the load-balancer implementations (`loadbalancer` in
 * cloud-sa.json: metallb, kube-vip, emlb, empty) are allowed by the rendered RBAC.
 *
 * The facts are in test/oracle/inventory/equinixmetal.ts (EQUINIX_METAL_LOAD_BALANCER_CALLS,
 * cited at kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1). The spec names the
 * implementation with `spec.kubernetes.equinixMetalLoadBalancer`; each value must allow the
 * calls of that implementation (upstream grants them all: deploy/template/deployment.yaml).
 */
import { App } from 'cdk8s';
import { ClusterChart } from '../src/pipeline/cluster-chart';
import { loadFleet } from '../src/fleet/load';
import { fleetProblems, kubernetesSpec, preparedCluster, useTempDir, writeFile } from './helpers';
import { EQUINIX_METAL_CLIENT_NAMES, EQUINIX_METAL_LOAD_BALANCER_CALLS, EQUINIX_METAL_LOAD_BALANCER_GROUPS } from './oracle/inventory/equinixmetal';
import { RbacAuthorizer, serviceAccountUser } from './oracle/rbac-authorizer';

type Obj = { kind: string; metadata: { name: string; namespace?: string }; spec?: any };

const IMPLEMENTATIONS = EQUINIX_METAL_LOAD_BALANCER_GROUPS;

function render(useServiceAccountCredentials: boolean, equinixMetalLoadBalancer: string | undefined): Obj[] {
  const cluster = preparedCluster(kubernetesSpec('EquinixMetal', 'k', { useServiceAccountCredentials, equinixMetalLoadBalancer }));
  return new ClusterChart(new App({ outdir: 'unused' }), 'c', { cluster }).toJson() as Obj[];
}

test('every call group of the inventory belongs to some implementation', () => {
  expect([...new Set(IMPLEMENTATIONS.flatMap(([, groups]) => groups))].sort()).toEqual(Object.keys(EQUINIX_METAL_LOAD_BALANCER_CALLS).sort());
});

describe.each([false, true])('Equinix Metal load-balancer implementations, useServiceAccountCredentials=%s', (sa) => {
  test.each(IMPLEMENTATIONS)(
    'GIVEN equinixMetalLoadBalancer "%s" WHEN the CCM reconciles a LoadBalancer Service THEN its calls are allowed for the identity that makes them',
    (impl, groups) => {
      const objects = render(sa, impl);
      const authorizer = new RbacAuthorizer(objects);
      const w = objects.find((o) => o.kind === 'DaemonSet' || o.kind === 'Deployment')!;
      const root = serviceAccountUser(w.metadata.namespace ?? 'default', w.spec.template.spec.serviceAccountName);
      // the client builder's ServiceAccounts live in kube-system (kubernetes/cloud-provider app: NewDynamicClientBuilder(..., "kube-system"))
      const userOf = (client: string) => (client === 'root' || !sa ? root : serviceAccountUser('kube-system', client));
      expect(EQUINIX_METAL_CLIENT_NAMES).toContain('cloud-provider-equinix-metal-shared-informers');
      const denied = groups
        .flatMap((g) => EQUINIX_METAL_LOAD_BALANCER_CALLS[g])
        .flatMap((c) =>
          c.verbs
            .filter(
              (verb) =>
                !authorizer.allowedBy(userOf(c.client), { verb, apiGroup: c.apiGroup, resource: c.resource, name: c.name, namespace: c.namespace }),
            )
            .map(
              (verb) =>
                `${userOf(c.client).name} ${verb} ${c.apiGroup || 'core'}/${c.resource}${c.name ? ` "${c.name}"` : ''}${c.namespace ? ` in ${c.namespace}` : ''} [${c.source}]`,
            ),
        );
      expect(denied).toEqual([]);
    },
  );
});

describe('a load-balancer setting in the pod env must match spec.kubernetes.equinixMetalLoadBalancer (the CCM exits otherwise)', () => {
  const dir = useTempDir();
  const problems = (kubernetes: Record<string, unknown>) => {
    writeFile(dir(), 'c.yaml', kubernetesSpec('EquinixMetal', 'k', kubernetes));
    return fleetProblems(dir()).map((p) => p.replace(/^c\.yaml:\d+: /, ''));
  };

  test.each([
    [
      'metallb:///metallb-system/config',
      undefined,
      'METAL_LOAD_BALANCER selects the metallb load balancer but spec.kubernetes.equinixMetalLoadBalancer is not set, so its calls are not granted and the CCM exits in Initialize; set spec.kubernetes.equinixMetalLoadBalancer: metallb',
    ],
    [
      'metallb:///?crdConfiguration=true',
      'metallb',
      'METAL_LOAD_BALANCER selects the metallb-crd load balancer but spec.kubernetes.equinixMetalLoadBalancer is "metallb", so its calls are not granted and the CCM exits in Initialize; set spec.kubernetes.equinixMetalLoadBalancer: metallb-crd',
    ],
    [
      'kube-vip://',
      undefined,
      'METAL_LOAD_BALANCER selects the kube-vip load balancer but spec.kubernetes.equinixMetalLoadBalancer is not set, so its calls are not granted and the CCM exits in Initialize; set spec.kubernetes.equinixMetalLoadBalancer: kube-vip',
    ],
    [
      'empty://',
      undefined,
      'METAL_LOAD_BALANCER selects the "empty" implementation, which ccm-gitops does not grant (it grants kube-vip, metallb, metallb-crd, emlb); use one of those or remove the variable',
    ],
  ])('GIVEN METAL_LOAD_BALANCER=%s and the knob %s THEN one error names the field and the fix', (value, knob, message) => {
    expect(problems({ extraEnv: [{ name: 'METAL_LOAD_BALANCER', value }], ...(knob ? { equinixMetalLoadBalancer: knob } : {}) })).toEqual([
      `spec.kubernetes.extraEnv.0: ${message}`,
    ]);
  });

  test('GIVEN METAL_LOAD_BALANCER from a Secret and no knob THEN it is refused: the implementation cannot be known', () => {
    expect(problems({ extraEnv: [{ name: 'METAL_LOAD_BALANCER', valueFrom: { secretKeyRef: { name: 'lb', key: 'setting' } } }] })).toEqual([
      'spec.kubernetes.extraEnv.0: METAL_LOAD_BALANCER comes from an object ccm-gitops cannot read, so the calls of its load balancer are not granted and the CCM exits in Initialize; name the implementation in spec.kubernetes.equinixMetalLoadBalancer',
    ]);
  });

  test("GIVEN a matching knob THEN it renders, with the implementation's calls granted", () => {
    writeFile(
      dir(),
      'c.yaml',
      kubernetesSpec('EquinixMetal', 'k', { extraEnv: [{ name: 'METAL_LOAD_BALANCER', value: 'emlb://da' }], equinixMetalLoadBalancer: 'emlb' }),
    );
    expect(loadFleet(dir()).clusters).toHaveLength(1);
  });
});

describe('the service controller stops without a load-balancer implementation (LoadBalancer() false)', () => {
  const ccm = serviceAccountUser('kube-system', 'cloud-controller-manager');
  const svcController = serviceAccountUser('kube-system', 'service-controller');
  const statusPatch = { verb: 'patch', apiGroup: '', resource: 'services/status', namespace: 'default', name: 'web' };

  test('GIVEN no equinixMetalLoadBalancer WHEN rendered in both profiles THEN nothing lets the stopped controller patch a Service status; the root informer still lists Services', () => {
    // kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1 metal/loadbalancers.go newLoadBalancers returns nil without a setting;
    // kubernetes/cloud-provider@v0.30.2 controllers/service/controller.go New takes the service informer before init() fails
    const least = new RbacAuthorizer(render(true, undefined));
    const superset = new RbacAuthorizer(render(false, undefined));
    expect([least.allows(svcController, statusPatch), superset.allows(ccm, statusPatch)]).toEqual([false, false]);
    expect(least.allows(svcController, { verb: 'create', apiGroup: '', resource: 'events', namespace: 'default' })).toBe(false);
    expect([
      least.allows(ccm, { verb: 'watch', apiGroup: '', resource: 'services' }),
      superset.allows(ccm, { verb: 'list', apiGroup: '', resource: 'services' }),
    ]).toEqual([true, true]);
  });

  test('GIVEN an implementation WHEN rendered least-privilege THEN the running service controller may patch Service status and record events', () => {
    const least = new RbacAuthorizer(render(true, 'kube-vip'));
    expect([
      least.allows(svcController, statusPatch),
      least.allows(svcController, { verb: 'create', apiGroup: '', resource: 'events', namespace: 'default' }),
    ]).toEqual([true, true]);
  });
});
