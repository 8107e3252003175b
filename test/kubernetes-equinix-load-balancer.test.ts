/**
 * Equinix Metal: the calls of the load-balancer implementations (`loadbalancer` in
 * cloud-sa.json: metallb, kube-vip, emlb, empty) are allowed by the rendered RBAC.
 *
 * The facts are in test/oracle/inventory/equinixmetal.ts (EQUINIX_METAL_LOAD_BALANCER_CALLS,
 * cited at kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1). The oracle's
 * inventory has no condition for "a `loadbalancer` setting is configured", and the spec has no
 * knob that says which implementation a cluster uses, so the grants must be there whatever the
 * setting, as upstream grants them (deploy/template/deployment.yaml: configmaps and metallb.io
 * "so ccm can manage CRDs for MetalLB v0.13.2+"). When a knob for the implementation exists,
 * render with it on here instead.
 */
import { App } from 'cdk8s';
import { ClusterChart } from '../src/cluster-chart';
import { kubernetesSpec, preparedCluster } from './helpers';
import { EQUINIX_METAL_CLIENT_NAMES, EQUINIX_METAL_LOAD_BALANCER_CALLS } from './oracle/inventory/equinixmetal';
import { RbacAuthorizer, RbacObject, serviceAccountUser } from './oracle/rbac-authorizer';

type Obj = { kind: string; metadata: { name: string; namespace?: string }; spec?: any };

function render(useServiceAccountCredentials: boolean): Obj[] {
  const cluster = preparedCluster(kubernetesSpec('EquinixMetal', 'k', { useServiceAccountCredentials }));
  return new ClusterChart(new App({ outdir: 'unused' }), 'c', { cluster }).toJson() as Obj[];
}

describe.each([false, true])('Equinix Metal load-balancer implementations, useServiceAccountCredentials=%s', (sa) => {
  test.each(Object.keys(EQUINIX_METAL_LOAD_BALANCER_CALLS) as (keyof typeof EQUINIX_METAL_LOAD_BALANCER_CALLS)[])(
    'GIVEN loadbalancer setting "%s" WHEN the CCM reconciles a LoadBalancer Service THEN its calls are allowed for the identity that makes them',
    (impl) => {
      const objects = render(sa);
      const authorizer = new RbacAuthorizer(objects as unknown as RbacObject[]);
      const w = objects.find((o) => o.kind === 'DaemonSet' || o.kind === 'Deployment')!;
      const root = serviceAccountUser(w.metadata.namespace ?? 'default', w.spec.template.spec.serviceAccountName);
      // the client builder's ServiceAccounts live in kube-system (kubernetes/cloud-provider app: NewDynamicClientBuilder(..., "kube-system"))
      const userOf = (client: string) => (client === 'root' || !sa ? root : serviceAccountUser('kube-system', client));
      expect(EQUINIX_METAL_CLIENT_NAMES).toContain('cloud-provider-equinix-metal-shared-informers');
      const denied = EQUINIX_METAL_LOAD_BALANCER_CALLS[impl].flatMap((c) => c.verbs
        .filter((verb) => !authorizer.allowedBy(userOf(c.client), { verb, apiGroup: c.apiGroup, resource: c.resource, name: c.name, namespace: c.namespace }))
        .map((verb) => `${userOf(c.client).name} ${verb} ${c.apiGroup || 'core'}/${c.resource}${c.name ? ` "${c.name}"` : ''}${c.namespace ? ` in ${c.namespace}` : ''} [${c.source}]`));
      expect(denied).toEqual([]);
    },
  );
});
