/** Nutanix's checks of its cloud config (`UpstreamProvider.cloudConfigProblems`). */
import { KubernetesProblem } from '../provider';
import { ClusterSpec } from '../../cluster-spec/schema';

/**
 * Nutanix: the Prism Central credentials Secret and the trust-bundle ConfigMap are read from
 * informers scoped to the CCM's namespace (nutanix-cloud-native/cloud-provider-nutanix@v0.5.2
 * pkg/provider/manager.go setInformers, pkg/provider/client.go setupEnvironment; prism-go-client
 * environment/providers/kubernetes: Lister().Secrets(ref.Namespace).Get), so one named in another
 * namespace is never found.
 */
export function nutanixConfigProblems(spec: ClusterSpec, cloudConf: string): KubernetesProblem[] {
  const ns = spec.spec.kubernetes?.namespace ?? 'kube-system';
  let config: { prismCentral?: { credentialRef?: { namespace?: unknown }; additionalTrustBundle?: { kind?: unknown; namespace?: unknown } } };
  try {
    config = JSON.parse(cloudConf) as typeof config;
  } catch {
    return [];
  }
  const pc = config?.prismCentral;
  const refs: [string, unknown][] = [
    ['prismCentral.credentialRef.namespace', pc?.credentialRef?.namespace],
    ...(pc?.additionalTrustBundle?.kind === 'ConfigMap'
      ? [['prismCentral.additionalTrustBundle.namespace', pc.additionalTrustBundle.namespace] as [string, unknown]]
      : []),
  ];
  return refs
    .filter(([, v]) => typeof v === 'string' && v !== '' && v !== ns)
    .map(([path, v]) => ({
      path: [path],
      message: `is "${String(v)}", but the CCM reads Secrets and ConfigMaps only in its own namespace "${ns}" (spec.kubernetes.namespace); move the object there and set this to "${ns}" or remove it`,
    }));
}
