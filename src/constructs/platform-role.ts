import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { PlatformRoleBinding } from './platform-role-binding';

/** Properties for `PlatformRole`. */
export interface PlatformRoleProps {
  /** Role name. */
  readonly name: string;
  /**
   * Namespace of a Role.
   *
   * @default - a ClusterRole
   */
  readonly namespace?: string;
  /** The rules. */
  readonly rules: readonly k8s.PolicyRule[];
  /** Name of the binding (in the role's namespace, or cluster-wide). */
  readonly bindingName: string;
  /** ServiceAccounts bound, as `namespace/name`. */
  readonly serviceAccounts: readonly string[];
  /**
   * Annotations of the role, where the operator's asset carries some (e.g. the release annotations).
   *
   * @default - none
   */
  readonly annotations?: Readonly<Record<string, string>>;
}

/** A platform's Role or ClusterRole with the binding that grants it. */
export class PlatformRole extends Construct {
  /** The role object. */
  public readonly apiObject: ApiObject;
  /** The binding. */
  public readonly binding: PlatformRoleBinding;

  constructor(scope: Construct, id: string, props: PlatformRoleProps) {
    super(scope, id);
    if (props.rules.length === 0) {
      throw new Error(`'rules' of role "${props.name}" must hold at least one rule, got none`);
    }
    const rules = props.rules.map((r) => ({ ...r }));
    this.apiObject =
      props.namespace === undefined
        ? new k8s.KubeClusterRole(this, 'Resource', {
            metadata: { name: props.name, annotations: props.annotations ? { ...props.annotations } : undefined },
            rules,
          })
        : new k8s.KubeRole(this, 'Resource', {
            metadata: { name: props.name, namespace: props.namespace, annotations: props.annotations ? { ...props.annotations } : undefined },
            rules,
          });
    this.binding = new PlatformRoleBinding(this, 'Binding', {
      name: props.bindingName,
      namespace: props.namespace,
      roleKind: props.namespace === undefined ? 'ClusterRole' : 'Role',
      roleName: props.name,
      serviceAccounts: props.serviceAccounts,
    });
  }
}
