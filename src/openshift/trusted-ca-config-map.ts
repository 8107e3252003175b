import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { OPERAND_NAMESPACE, TRUSTED_CA_CONFIG_MAP } from './constants';

/** Label that makes the cluster-network-operator fill `ca-bundle.crt` with the system and proxy CAs. */
export const INJECT_TRUSTED_CA_LABEL = 'config.openshift.io/inject-trusted-cabundle';

/**
 * ConfigMap `openshift-cloud-controller-manager/ccm-trusted-ca`, mounted by
 * every CCM container. The operator builds it at run time from the cloud
 * config CA, the proxy CA and the system bundle of its own image, which no
 * static generator can reproduce. Rendered declaratively instead: empty, with
 * the injection label, so the cluster-network-operator fills `ca-bundle.crt`
 * with the system bundle plus the proxy's trusted CA. The data is left to the
 * injector: GitOps engines do not manage keys absent from git. Pods mount the
 * key optionally and wait for it in an init container (`waitForTrustBundle`).
 */
export class TrustedCaConfigMap extends Construct {
  /** The ConfigMap object. */
  public readonly apiObject: ApiObject;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.apiObject = new k8s.KubeConfigMap(this, 'Resource', {
      metadata: {
        name: TRUSTED_CA_CONFIG_MAP,
        namespace: OPERAND_NAMESPACE,
        labels: { [INJECT_TRUSTED_CA_LABEL]: 'true' },
        annotations: { 'openshift.io/owning-component': 'Cloud Compute / Cloud Controller Manager' },
      },
    });
  }
}
