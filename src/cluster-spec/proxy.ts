/**
 * The cluster proxy as container env. Pure: no cdk8s import, so the
 * pod plans of both distributions share it.
 */

/** Proxy settings (Proxy status). */
export interface ProxySettings {
  /** HTTP proxy URL. */
  readonly httpProxy?: string;
  /** HTTPS proxy URL. */
  readonly httpsProxy?: string;
  /** Comma-separated no-proxy list. */
  readonly noProxy?: string;
}

/** `HTTP_PROXY`, `HTTPS_PROXY`, `NO_PROXY`, each only when set, in that order (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/cloud/common/substitution.go). */
export function proxyEnv(proxy: ProxySettings | undefined): { name: string; value: string }[] {
  const env: { name: string; value: string }[] = [];
  if (proxy?.httpProxy) {
    env.push({ name: 'HTTP_PROXY', value: proxy.httpProxy });
  }
  if (proxy?.httpsProxy) {
    env.push({ name: 'HTTPS_PROXY', value: proxy.httpsProxy });
  }
  if (proxy?.noProxy) {
    env.push({ name: 'NO_PROXY', value: proxy.noProxy });
  }
  return env;
}
