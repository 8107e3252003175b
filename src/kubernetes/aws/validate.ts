/** AWS's checks of a spec (`UpstreamProvider.specProblems`). */
import { KubernetesProblem } from '../provider';
import { ClusterSpec } from '../../cluster-spec/schema';

/** AWS: the ServiceAccount annotations the rendered projected token reads (IRSA without the webhook). */
export function awsIrsaProblems(spec: ClusterSpec): KubernetesProblem[] {
  const k = spec.spec.kubernetes;
  if (!k) {
    return [];
  }
  const a = k.serviceAccount.annotations;
  const out: KubernetesProblem[] = [];
  const at = (key: string, message: string) => out.push({ path: ['spec', 'kubernetes', 'serviceAccount', 'annotations', key], message });
  const expiration = a['eks.amazonaws.com/token-expiration'];
  if (expiration !== undefined && (!/^\d+$/.test(expiration) || Number(expiration) < 600 || Number(expiration) > 86400)) {
    at('eks.amazonaws.com/token-expiration', "must be whole seconds from 600 to 86400 (a projected ServiceAccount token's bounds)");
  }
  return out;
}
