import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';

/** Properties for `PlatformRoleBinding`. */
export interface PlatformRoleBindingProps {
  /** Binding name. */
  readonly name: string;
  /**
   * Namespace of a RoleBinding.
   *
   * @default - a ClusterRoleBinding
   */
  readonly namespace?: string;
  /** Kind of the bound role. */
  readonly roleKind: 'Role' | 'ClusterRole';
  /** Name of the bound role. */
  readonly roleName: string;
  /** ServiceAccounts bound, as `namespace/name`. */
  readonly serviceAccounts: readonly string[];
}

/** A RoleBinding (with `namespace`) or ClusterRoleBinding of ServiceAccounts to a role. */
export class PlatformRoleBinding extends Construct {
  /** The binding object. */
  public readonly apiObject: ApiObject;

  constructor(scope: Construct, id: string, props: PlatformRoleBindingProps) {
    super(scope, id);
    if (props.serviceAccounts.length === 0) {
      throw new Error(`'serviceAccounts' of binding "${props.name}" must name at least one ServiceAccount, got none`);
    }
    if (props.namespace === undefined && props.roleKind === 'Role') {
      throw new Error(`'roleKind' of ClusterRoleBinding "${props.name}" must be ClusterRole, got Role`);
    }
    const subjects = props.serviceAccounts.map((ref) => {
      const [namespace, name, ...rest] = ref.split('/');
      if (!namespace || !name || rest.length > 0) {
        throw new Error(`'serviceAccounts' entries must be "namespace/name", got "${ref}"`);
      }
      return { kind: 'ServiceAccount', name, namespace };
    });
    const roleRef = { apiGroup: 'rbac.authorization.k8s.io', kind: props.roleKind, name: props.roleName };
    this.apiObject =
      props.namespace === undefined
        ? new k8s.KubeClusterRoleBinding(this, 'Resource', { metadata: { name: props.name }, roleRef, subjects })
        : new k8s.KubeRoleBinding(this, 'Resource', { metadata: { name: props.name, namespace: props.namespace }, roleRef, subjects });
  }
}
