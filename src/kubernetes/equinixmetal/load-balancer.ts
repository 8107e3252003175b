/**
 * Which Equinix Metal load-balancer implementation a `loadbalancer` setting turns on (the
 * value of cloud-sa.json `loadbalancer` or env METAL_LOAD_BALANCER, which overrides it:
 * kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1 metal/config.go getMetalConfig).
 * Pure: no cdk8s import.
 */

/** The implementations spec.kubernetes.equinixMetalLoadBalancer names. */
export const EQUINIX_LB_KNOB_VALUES = ['kube-vip', 'metallb', 'metallb-crd', 'emlb'] as const;

/**
 * The implementation of a non-empty setting, as the knob spells it: the URL scheme, `metallb`
 * with `?crdConfiguration=true` being `metallb-crd`
 * (kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1 metal/loadbalancers.go newLoadBalancers,
 * metal/loadbalancers/metallb/metallb.go NewLB). `empty` and unknown schemes come back as the
 * scheme: every non-empty setting reads Namespace kube-system first, and a failure is fatal.
 */
export function equinixLoadBalancerImplementation(setting: string): string {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(setting.trim());
  const scheme = m ? m[1].toLowerCase() : '';
  if (scheme === 'metallb') {
    const query = setting.includes('?') ? new URLSearchParams(setting.slice(setting.indexOf('?') + 1)) : new URLSearchParams();
    return query.get('crdConfiguration') === 'true' ? 'metallb-crd' : 'metallb';
  }
  return scheme;
}
