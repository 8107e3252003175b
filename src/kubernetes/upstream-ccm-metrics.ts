import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { ServiceMonitor, ServiceMonitorSpecEndpointsScheme } from '../../imports/servicemonitors-monitoring.coreos.com';
import { PlatformRoleBinding } from '../constructs/platform-role-binding';

/** The scraper's mounted ServiceAccount token. */
const SERVICE_ACCOUNT_TOKEN_FILE = '/var/run/secrets/kubernetes.io/serviceaccount/token';

/** Properties for `UpstreamCcmMetrics`. */
export interface UpstreamCcmMetricsProps {
  /** Name of the CCM workload (names the Service and the ServiceMonitor). */
  readonly name: string;
  /** Namespace of the CCM. */
  readonly namespace: string;
  /** The workload's selector labels. */
  readonly selector: Readonly<Record<string, string>>;
  /** The secure port. */
  readonly port: number;
  /**
   * Render a prometheus-operator ServiceMonitor.
   *
   * @default false
   */
  readonly serviceMonitor?: boolean;
  /**
   * ServiceAccount (`namespace/name`) allowed to GET /metrics.
   *
   * @default - none: bind the metrics reader ClusterRole to your scraper yourself
   */
  readonly scraper?: string;
}

/**
 * The CCM's metrics: a Service on the secure port, an optional
 * ServiceMonitor scraping it over HTTPS with the scraper's token, and the
 * ClusterRole allowing GET /metrics (delegated authorization checks it; the
 * CCM's own tokenreviews/subjectaccessreviews rights are in its ClusterRole).
 */
export class UpstreamCcmMetrics extends Construct {
  /** The objects rendered. */
  public readonly objects: ApiObject[] = [];

  constructor(scope: Construct, id: string, props: UpstreamCcmMetricsProps) {
    super(scope, id);
    const labels = { ...props.selector };
    this.objects.push(
      new k8s.KubeService(this, 'Resource', {
        metadata: { name: props.name, namespace: props.namespace, labels },
        spec: {
          type: 'ClusterIP',
          selector: { ...props.selector },
          ports: [{ name: 'https', port: props.port, targetPort: k8s.IntOrString.fromString('https'), protocol: 'TCP' }],
        },
      }),
    );
    if (props.serviceMonitor) {
      this.objects.push(
        new ServiceMonitor(this, 'ServiceMonitor', {
          metadata: { name: props.name, namespace: props.namespace, labels },
          spec: {
            selector: { matchLabels: { ...props.selector } },
            namespaceSelector: { matchNames: [props.namespace] },
            endpoints: [
              {
                port: 'https',
                scheme: ServiceMonitorSpecEndpointsScheme.HTTPS,
                path: '/metrics',
                interval: '30s',
                // the scraper's own token: delegated authorization checks it against the metrics-reader ClusterRole
                bearerTokenFile: SERVICE_ACCOUNT_TOKEN_FILE,
                // the CCM serves a self-signed certificate unless --tls-cert-file is set
                tlsConfig: { insecureSkipVerify: true },
              },
            ],
          },
        }),
      );
    }
    const readerName = `${props.name}:metrics-reader`;
    this.objects.push(
      new k8s.KubeClusterRole(this, 'MetricsReader', {
        metadata: { name: readerName },
        rules: [{ nonResourceUrLs: ['/metrics'], verbs: ['get'] }],
      }),
    );
    if (props.scraper) {
      this.objects.push(
        new PlatformRoleBinding(this, 'MetricsReaderBinding', {
          name: readerName,
          roleKind: 'ClusterRole',
          roleName: readerName,
          serviceAccounts: [props.scraper],
        }).apiObject,
      );
    }
  }
}
