import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';

/** Properties for `CcmLeaseNamespaceRbac`. */
export interface CcmLeaseNamespaceRbacProps {
  /** Name of the Role and its RoleBinding. */
  readonly name: string;
  /** The namespace the CCM now elects its leader in (the KCM's). */
  readonly leaseNamespace: string;
  /** The CCM's own leader-election Lease name. */
  readonly leaseName: string;
  /** The CCM's ServiceAccount, as `namespace/name`. */
  readonly ccmServiceAccount: string;
}

/**
 * During leader migration the CCM elects its leader in the KCM's lease
 * namespace (both locks use `--leader-elect-resource-namespace`), where its
 * usual role does not reach: its own Lease and the leader-election events.
 */
export class CcmLeaseNamespaceRbac extends Construct {
  /** The Role. */
  public readonly role: ApiObject;
  /** The RoleBinding. */
  public readonly binding: ApiObject;

  constructor(scope: Construct, id: string, props: CcmLeaseNamespaceRbacProps) {
    super(scope, id);
    const [saNamespace, saName] = props.ccmServiceAccount.split('/');
    if (!saNamespace || !saName) {
      throw new Error(`'ccmServiceAccount' must be namespace/name, got ${JSON.stringify(props.ccmServiceAccount)}`);
    }
    this.role = new k8s.KubeRole(this, 'Resource', {
      metadata: { name: props.name, namespace: props.leaseNamespace },
      rules: [
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], resourceNames: [props.leaseName], verbs: ['get', 'list', 'watch', 'update'] },
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
        { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch', 'update'] },
      ],
    });
    this.binding = new k8s.KubeRoleBinding(this, 'Binding', {
      metadata: { name: props.name, namespace: props.leaseNamespace },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: props.name },
      subjects: [{ kind: 'ServiceAccount', name: saName, namespace: saNamespace }],
    });
  }
}
