import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { CREDENTIALS_NAMESPACE, CREDENTIALS_REQUEST_ANNOTATIONS, OPERAND_NAMESPACE } from './constants';
import { CredentialsRequest } from '../../imports/credentialsrequests-cloudcredential.openshift.io';

/** Properties for `CloudCredentialsRequest`. */
export interface CloudCredentialsRequestProps {
  /** CredentialsRequest name, e.g. `openshift-gcp-ccm`. */
  readonly name: string;
  /** Name of the Secret the cloud-credential-operator writes into the operand namespace. */
  readonly secretName: string;
  /**
   * The provider spec: `kind` (e.g. `GCPProviderSpec`) and the kind's fields.
   * `apiVersion: cloudcredential.openshift.io/v1` is added.
   */
  readonly providerSpec: { readonly kind: string } & Readonly<Record<string, unknown>>;
  /**
   * ServiceAccounts that use the credentials (short-lived token mode).
   *
   * @default - none
   */
  readonly serviceAccountNames?: readonly string[];
  /**
   * Labels of the CredentialsRequest.
   *
   * @default - none
   */
  readonly labels?: Readonly<Record<string, string>>;
}

/**
 * A CredentialsRequest in `openshift-cloud-credential-operator` (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c manifests/*credentialsrequest-*.yaml): the cloud-credential-operator turns it into a Secret in the operand
 * namespace before the CCM pods start, so credentials never pass through git.
 */
export class CloudCredentialsRequest extends Construct {
  /** The CredentialsRequest object. */
  public readonly apiObject: ApiObject;

  constructor(scope: Construct, id: string, props: CloudCredentialsRequestProps) {
    super(scope, id);
    if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(props.name)) {
      throw new Error(`'name' must be a DNS-1123 label, got "${props.name}"`);
    }
    if (!/^[A-Za-z0-9]+ProviderSpec$/.test(props.providerSpec.kind)) {
      throw new Error(`'providerSpec.kind' must name a provider spec kind such as "GCPProviderSpec", got "${props.providerSpec.kind}"`);
    }
    this.apiObject = new CredentialsRequest(this, 'Resource', {
      metadata: {
        name: props.name,
        namespace: CREDENTIALS_NAMESPACE,
        annotations: { ...CREDENTIALS_REQUEST_ANNOTATIONS },
        labels: props.labels ? { ...props.labels } : undefined,
      },
      spec: {
        providerSpec: { apiVersion: 'cloudcredential.openshift.io/v1', ...props.providerSpec },
        secretRef: { name: props.secretName, namespace: OPERAND_NAMESPACE },
        serviceAccountNames: props.serviceAccountNames ? [...props.serviceAccountNames] : undefined,
      },
    });
  }
}
