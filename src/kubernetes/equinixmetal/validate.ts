/** Equinix Metal's checks of a spec (`UpstreamProvider.specProblems`). */
import { KubernetesProblem } from '../provider';
import { ClusterSpec } from '../../cluster-spec/schema';
import { EQUINIX_LB_KNOB_VALUES, equinixLoadBalancerImplementation } from './load-balancer';

/**
 * Equinix Metal: a load-balancer setting in the pod env (METAL_LOAD_BALANCER, which overrides
 * cloud-sa.json) must match spec.kubernetes.equinixMetalLoadBalancer, which grants its calls;
 * otherwise newLoadBalancers fails and Initialize exits with klog.Fatalf, a crash loop
 * (kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1 metal/cloud.go Initialize).
 */
export function equinixLoadBalancerProblems(spec: ClusterSpec): KubernetesProblem[] {
  const k = spec.spec.kubernetes;
  if (!k) {
    return [];
  }
  const knob = k.equinixMetalLoadBalancer;
  const out: KubernetesProblem[] = [];
  k.extraEnv.forEach((e, i) => {
    if (e.name !== 'METAL_LOAD_BALANCER') {
      return;
    }
    const path = ['spec', 'kubernetes', 'extraEnv', i];
    if (e.value === undefined) {
      if (e.valueFrom && !knob) {
        out.push({
          path,
          message:
            'METAL_LOAD_BALANCER comes from an object ccm-gitops cannot read, so the calls of its load balancer are not granted and the CCM exits in Initialize; name the implementation in spec.kubernetes.equinixMetalLoadBalancer',
        });
      }
      return;
    }
    if (e.value.trim() === '') {
      return;
    }
    const impl = equinixLoadBalancerImplementation(e.value);
    if (impl === '') {
      out.push({
        path,
        message:
          'METAL_LOAD_BALANCER has no implementation scheme; use kube-vip://, metallb://, metallb:///?crdConfiguration=true or emlb://<metro>, with spec.kubernetes.equinixMetalLoadBalancer set to match',
      });
    } else if (!(EQUINIX_LB_KNOB_VALUES as readonly string[]).includes(impl)) {
      out.push({
        path,
        message: `METAL_LOAD_BALANCER selects the "${impl}" implementation, which ccm-gitops does not grant (it grants ${EQUINIX_LB_KNOB_VALUES.join(', ')}); use one of those or remove the variable`,
      });
    } else if (impl !== knob) {
      out.push({
        path,
        message: `METAL_LOAD_BALANCER selects the ${impl} load balancer but spec.kubernetes.equinixMetalLoadBalancer is ${knob ? `"${knob}"` : 'not set'}, so its calls are not granted and the CCM exits in Initialize; set spec.kubernetes.equinixMetalLoadBalancer: ${impl}`,
      });
    }
  });
  return out;
}
