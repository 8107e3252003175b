import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { CcmRbac } from './rbac-rules';
import { PlatformRole } from '../constructs/platform-role';
import { PlatformRoleBinding } from '../constructs/platform-role-binding';

/** Properties for `UpstreamCcmRbac`. */
export interface UpstreamCcmRbacProps {
  /** Namespace of the CCM. */
  readonly namespace: string;
  /** The CCM ServiceAccount name. */
  readonly serviceAccountName: string;
  /**
   * Labels of the ServiceAccount.
   *
   * @default - none
   */
  readonly serviceAccountLabels?: Readonly<Record<string, string>>;
  /**
   * Annotations of the ServiceAccount (IRSA role ARN, workload identity client id).
   *
   * @default - none
   */
  readonly serviceAccountAnnotations?: Readonly<Record<string, string>>;
  /** The roles of the selected profile (`ccmRbac`). */
  readonly rbac: CcmRbac;
  /**
   * Bind `kube-system/extension-apiserver-authentication-reader` (delegated authentication on the secure port).
   *
   * @default false
   */
  readonly authenticationReader?: boolean;
}

/**
 * The CCM's identity: its ServiceAccount, the ClusterRoles and Roles of its
 * RBAC profile with their bindings, and the authentication-reader binding
 * the secure port needs.
 */
export class UpstreamCcmRbac extends Construct {
  /** The ServiceAccount. */
  public readonly serviceAccount: ApiObject;
  /** Every role and binding rendered. */
  public readonly objects: ApiObject[] = [];

  constructor(scope: Construct, id: string, props: UpstreamCcmRbacProps) {
    super(scope, id);
    const labels = props.serviceAccountLabels ?? {};
    const annotations = props.serviceAccountAnnotations ?? {};
    this.serviceAccount = new k8s.KubeServiceAccount(this, 'Resource', {
      metadata: {
        name: props.serviceAccountName,
        namespace: props.namespace,
        ...(Object.keys(labels).length > 0 ? { labels: { ...labels } } : {}),
        ...(Object.keys(annotations).length > 0 ? { annotations: { ...annotations } } : {}),
      },
    });
    for (const ref of props.rbac.serviceAccounts) {
      const [namespace, name] = ref.split('/');
      this.objects.push(new k8s.KubeServiceAccount(this, `Client-${name}`, { metadata: { name, namespace } }));
    }
    for (const grant of props.rbac.clusterRoles) {
      const role = new PlatformRole(this, `ClusterRole-${grant.name}`, {
        name: grant.name,
        bindingName: grant.name,
        serviceAccounts: grant.serviceAccounts,
        rules: grant.rules.map(toK8sRule),
      });
      this.objects.push(role.apiObject, role.binding.apiObject);
    }
    for (const grant of props.rbac.roles) {
      const role = new PlatformRole(this, `Role-${grant.namespace}-${grant.name}`, {
        name: grant.name,
        namespace: grant.namespace,
        bindingName: grant.name,
        serviceAccounts: grant.serviceAccounts,
        rules: grant.rules.map(toK8sRule),
      });
      this.objects.push(role.apiObject, role.binding.apiObject);
    }
    if (props.authenticationReader) {
      const binding = new PlatformRoleBinding(this, 'AuthenticationReader', {
        name: `${props.serviceAccountName}:apiserver-authentication-reader`,
        namespace: 'kube-system',
        roleKind: 'Role',
        roleName: 'extension-apiserver-authentication-reader',
        serviceAccounts: [`${props.namespace}/${props.serviceAccountName}`],
      });
      this.objects.push(binding.apiObject);
    }
  }
}

/** A pure rule as a k8s PolicyRule (fresh arrays). */
export function toK8sRule(rule: {
  apiGroups: readonly string[];
  resources: readonly string[];
  verbs: readonly string[];
  resourceNames?: readonly string[];
}): k8s.PolicyRule {
  return {
    apiGroups: [...rule.apiGroups],
    resources: [...rule.resources],
    verbs: [...rule.verbs],
    ...(rule.resourceNames ? { resourceNames: [...rule.resourceNames] } : {}),
  };
}
