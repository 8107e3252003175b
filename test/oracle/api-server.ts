/**
 * Reachability of the API server from a CCM pod: client-go's in-cluster config
 * (kubernetes/client-go rest/config.go InClusterConfig) dials
 * KUBERNETES_SERVICE_HOST:KUBERNETES_SERVICE_PORT and verifies the serving certificate
 * against that host. The kubelet injects both for the `kubernetes` Service (its ClusterIP and
 * 443); a pod env that overrides them must name a host the API server certificate of the
 * cluster form covers, on a port it serves.
 */

/** The API server serving certificate and ports of one cluster form. */
export interface ApiServerCertificate {
  /** DNS names every such certificate carries. */
  readonly dnsNames: readonly string[];
  /** Hosts no such certificate carries unless the administrator adds them (certSANs). */
  readonly neverCovered: readonly RegExp[];
  /** The port the API server binds on the control-plane nodes. */
  readonly bindPort: number;
  /** The `kubernetes` Service port (the ClusterIP and the DNS names above). */
  readonly servicePort: number;
  readonly source: string;
}

/**
 * kubeadm (and Cluster API's kubeadm control plane, which runs kubeadm init/join): node name,
 * kubernetes, kubernetes.default, kubernetes.default.svc, kubernetes.default.svc.<dnsDomain>,
 * the Service VIP, the advertise address, the controlPlaneEndpoint host and certSANs; loopback
 * only on the etcd certificates (getAltNames), never on the API server's.
 */
export const KUBEADM_API_SERVER: ApiServerCertificate = {
  dnsNames: ['kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local'],
  neverCovered: [/^127\./, /^::1$/, /^\[::1\]$/, /^localhost$/i, /^0\.0\.0\.0$/],
  bindPort: 6443,
  servicePort: 443,
  source:
    'kubernetes/kubernetes@025f2834a128 cmd/kubeadm/app/util/pkiutil/pki_helpers.go (GetAPIServerAltNames; getAltNames adds 127.0.0.1 for etcd only), cmd/kubeadm/app/constants/constants.go (KubeAPIServerPort 6443)',
};

/**
 * The problems of a container env's API server address for a cluster form: a host its certificate
 * never covers, or a DNS name of the Service on another port than the Service's.
 */
export function apiServerEnvProblems(env: readonly { name: string; value?: string }[], cert: ApiServerCertificate): string[] {
  const get = (name: string) => env.find((e) => e.name === name)?.value;
  const host = get('KUBERNETES_SERVICE_HOST');
  const port = get('KUBERNETES_SERVICE_PORT');
  const out: string[] = [];
  if (host !== undefined && cert.neverCovered.some((re) => re.test(host))) {
    out.push(
      `KUBERNETES_SERVICE_HOST=${host} is not a SAN of the API server certificate: client-go's TLS verification fails on every call (${cert.source})`,
    );
  }
  if (host === undefined && port !== undefined && Number(port) !== cert.servicePort) {
    out.push(
      `KUBERNETES_SERVICE_PORT=${port} without a host: the kubelet's host is the kubernetes Service ClusterIP, which serves ${cert.servicePort}`,
    );
  }
  if (host !== undefined && cert.dnsNames.includes(host) && port !== undefined && Number(port) !== cert.servicePort) {
    out.push(`KUBERNETES_SERVICE_HOST=${host} is the kubernetes Service, which serves ${cert.servicePort}, not ${port}`);
  }
  return out;
}
