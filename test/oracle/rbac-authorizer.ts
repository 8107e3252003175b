/**
 * A Kubernetes RBAC authorizer over rendered objects, for tests: "may identity X do verb V
 * on apiGroup/resource(/subresource), name N, namespace NS?". Pure: plain objects in, no
 * cluster, no cdk8s.
 *
 * Semantics follow the apiserver exactly (kubernetes/kubernetes@v1.34.0):
 * - rule matching: `plugin/pkg/auth/authorizer/rbac/rbac.go` (RuleAllows) and
 *   `pkg/apis/rbac/v1/evaluation_helpers.go` (VerbMatches, APIGroupMatches, ResourceMatches
 *   with `*` and `* /subresource`, ResourceNameMatches: a rule with resourceNames matches
 *   only a request that carries one of those names; list/watch/create requests carry no
 *   name, except list/watch with a `metadata.name` field selector, which the apiserver turns
 *   into the name: kubernetes/apiserver@v0.35.0 pkg/endpoints/request/requestinfo.go);
 * - rule collection: `pkg/registry/rbac/validation/rule.go` (VisitRulesFor: every
 *   ClusterRoleBinding, then the RoleBindings of the request's namespace only; a ClusterRole
 *   referenced by a RoleBinding grants only in that namespace; appliesToUser: a ServiceAccount
 *   subject without namespace takes the RoleBinding's namespace, and never matches from a
 *   ClusterRoleBinding);
 * - aggregation: `pkg/controller/clusterroleaggregation` (an aggregated ClusterRole's rules
 *   are the union of the rules of every other ClusterRole its selectors match);
 * - ServiceAccount identity: `system:serviceaccount:<ns>:<name>` in the groups
 *   `system:serviceaccounts`, `system:serviceaccounts:<ns>` and `system:authenticated`
 *   (kubernetes/apiserver pkg/authentication/serviceaccount/util.go).
 *
 * Bootstrap objects: only the bootstrap ROLES a rendered binding may reference are known
 * (so the binding can be evaluated); bootstrap BINDINGS are deliberately not counted, so the
 * oracle asserts that the rendered output grants everything itself (see BOOTSTRAP_ROLES).
 */

/** An RBAC policy rule as rendered. */
export interface Rule {
  readonly apiGroups?: readonly string[];
  readonly resources?: readonly string[];
  readonly verbs: readonly string[];
  readonly resourceNames?: readonly string[];
  readonly nonResourceURLs?: readonly string[];
}

/** A label selector (matchLabels and matchExpressions). */
export interface LabelSelector {
  readonly matchLabels?: Readonly<Record<string, string>>;
  readonly matchExpressions?: readonly {
    readonly key: string;
    readonly operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
    readonly values?: readonly string[];
  }[];
}

/** The subset of a rendered object the authorizer reads. */
export interface RbacObject {
  readonly apiVersion?: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string; readonly labels?: Readonly<Record<string, string>> };
  readonly rules?: readonly Rule[];
  readonly aggregationRule?: { readonly clusterRoleSelectors?: readonly LabelSelector[] };
  readonly roleRef?: { readonly apiGroup?: string; readonly kind: string; readonly name: string };
  readonly subjects?: readonly { readonly kind: string; readonly name: string; readonly namespace?: string; readonly apiGroup?: string }[];
}

/** An authenticated identity. */
export interface UserInfo {
  readonly name: string;
  readonly groups: readonly string[];
}

/** A resource request. */
export interface ResourceRequest {
  readonly verb: string;
  /** '' for core. */
  readonly apiGroup: string;
  /** 'pods' or 'pods/status'. */
  readonly resource: string;
  /** Absent for create, list/watch without a name field selector, and cluster-wide requests. */
  readonly name?: string;
  /** Absent for cluster-scoped resources and requests across all namespaces. */
  readonly namespace?: string;
}

/** One rule as granted by one binding (for "is every granted rule used?"). */
export interface Grant {
  /** e.g. `ClusterRoleBinding/x -> ClusterRole/y` or `RoleBinding kube-system/x -> Role/y`. */
  readonly source: string;
  /** The binding's namespace for a RoleBinding: the grant holds only there. */
  readonly namespace?: string;
  readonly subjects: readonly { readonly kind: string; readonly name: string; readonly namespace?: string }[];
  readonly rule: Rule;
}

/** The identity of ServiceAccount ns/name. */
export function serviceAccountUser(namespace: string, name: string): UserInfo {
  return {
    name: `system:serviceaccount:${namespace}:${name}`,
    groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, 'system:authenticated'],
  };
}

/**
 * Bootstrap roles a rendered binding may reference, with their rules
 * (kubernetes/kubernetes plugin/pkg/auth/authorizer/rbac/bootstrappolicy/namespace_policy.go
 * and policy.go). Their bootstrap bindings are not modelled (see the file comment).
 */
export const BOOTSTRAP_ROLES: readonly RbacObject[] = [
  {
    kind: 'Role',
    metadata: { name: 'extension-apiserver-authentication-reader', namespace: 'kube-system' },
    rules: [{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['extension-apiserver-authentication'], verbs: ['get', 'list', 'watch'] }],
  },
  {
    kind: 'ClusterRole',
    metadata: { name: 'system:auth-delegator' },
    rules: [
      { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
      { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
    ],
  },
];

const RBAC_KINDS = new Set(['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding']);

/** evaluation_helpers.go VerbMatches. */
export function verbMatches(rule: Rule, verb: string): boolean {
  return rule.verbs.some((v) => v === '*' || v === verb);
}

/** evaluation_helpers.go APIGroupMatches. */
export function apiGroupMatches(rule: Rule, group: string): boolean {
  return (rule.apiGroups ?? []).some((g) => g === '*' || g === group);
}

/** evaluation_helpers.go ResourceMatches: exact, `*`, or `* /subresource` for a subresource request. */
export function resourceMatches(rule: Rule, combined: string, subresource: string): boolean {
  return (rule.resources ?? []).some(
    (r) =>
      r === '*' || r === combined || (subresource !== '' && r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource)),
  );
}

/** evaluation_helpers.go ResourceNameMatches: no names = any; else the request must carry one of them. */
export function resourceNameMatches(rule: Rule, name: string): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(name);
}

/** rbac.go RuleAllows for a resource request. */
export function ruleAllows(rule: Rule, req: ResourceRequest): boolean {
  const [resource = '', subresource = ''] = req.resource.split('/', 2);
  const combined = subresource ? `${resource}/${subresource}` : resource;
  return (
    verbMatches(rule, req.verb) &&
    apiGroupMatches(rule, req.apiGroup) &&
    resourceMatches(rule, combined, subresource) &&
    resourceNameMatches(rule, req.name ?? '')
  );
}

/** A label selector against labels (matchLabels AND every expression). */
export function selectorMatches(selector: LabelSelector, labels: Readonly<Record<string, string>>): boolean {
  // an empty selector is labels.Everything() (apimachinery LabelSelectorAsSelector)
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) {
    if (labels[k] !== v) {
      return false;
    }
  }
  for (const e of selector.matchExpressions ?? []) {
    const has = Object.prototype.hasOwnProperty.call(labels, e.key);
    const value = labels[e.key];
    const ok =
      e.operator === 'In'
        ? has && (e.values ?? []).includes(value)
        : e.operator === 'NotIn'
          ? !has || !(e.values ?? []).includes(value)
          : e.operator === 'Exists'
            ? has
            : !has;
    if (!ok) {
      return false;
    }
  }
  return true;
}

/** rule.go appliesToUser. `bindingNamespace` is '' for a ClusterRoleBinding. */
function appliesTo(user: UserInfo, subject: { kind: string; name: string; namespace?: string }, bindingNamespace: string): boolean {
  switch (subject.kind) {
    case 'User':
      return user.name === subject.name;
    case 'Group':
      return user.groups.includes(subject.name);
    case 'ServiceAccount': {
      const ns = subject.namespace || bindingNamespace;
      return ns !== '' && user.name === `system:serviceaccount:${ns}:${subject.name}`;
    }
    default:
      return false;
  }
}

/** The authorizer over a set of rendered objects (non-RBAC objects are ignored). */
export class RbacAuthorizer {
  private readonly clusterRoles = new Map<string, RbacObject>();
  private readonly roles = new Map<string, RbacObject>();
  private readonly clusterRoleBindings: RbacObject[] = [];
  private readonly roleBindings: RbacObject[] = [];

  constructor(objects: readonly RbacObject[], bootstrap: readonly RbacObject[] = BOOTSTRAP_ROLES) {
    for (const o of [...bootstrap, ...objects]) {
      if (!RBAC_KINDS.has(o.kind) || (o.apiVersion !== undefined && !o.apiVersion.startsWith('rbac.authorization.k8s.io/'))) {
        continue;
      }
      if (o.kind === 'ClusterRole') {
        this.clusterRoles.set(o.metadata.name, o);
      } else if (o.kind === 'Role') {
        this.roles.set(`${o.metadata.namespace ?? ''}/${o.metadata.name}`, o);
      } else if (o.kind === 'ClusterRoleBinding') {
        this.clusterRoleBindings.push(o);
      } else {
        this.roleBindings.push(o);
      }
    }
  }

  /** The effective rules of a ClusterRole (aggregated when it has an aggregationRule). */
  clusterRoleRules(name: string, seen: ReadonlySet<string> = new Set()): readonly Rule[] | undefined {
    const role = this.clusterRoles.get(name);
    if (!role) {
      return undefined;
    }
    const selectors = role.aggregationRule?.clusterRoleSelectors;
    if (!selectors) {
      return role.rules ?? [];
    }
    const out: Rule[] = [];
    const next = new Set([...seen, name]);
    for (const other of [...this.clusterRoles.values()].sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))) {
      if (other.metadata.name === name || next.has(other.metadata.name)) {
        continue;
      }
      if (selectors.some((s) => selectorMatches(s, other.metadata.labels ?? {}))) {
        out.push(...(this.clusterRoleRules(other.metadata.name, next) ?? []));
      }
    }
    return out;
  }

  /** The rules a binding grants; throws when it references a role that is neither rendered nor bootstrap. */
  private bindingRules(binding: RbacObject): readonly Rule[] {
    const ref = binding.roleRef;
    if (!ref) {
      throw new Error(`${binding.kind} ${binding.metadata.name} has no roleRef`);
    }
    const ns = binding.metadata.namespace ?? '';
    const rules =
      ref.kind === 'ClusterRole'
        ? this.clusterRoleRules(ref.name)
        : binding.kind === 'RoleBinding' && ref.kind === 'Role'
          ? (this.roles.get(`${ns}/${ref.name}`)?.rules ?? undefined)
          : undefined;
    if (!rules) {
      throw new Error(
        `${binding.kind} ${ns ? `${ns}/` : ''}${binding.metadata.name} references ${ref.kind} ${ref.name}, which is neither rendered nor a known bootstrap role`,
      );
    }
    return rules;
  }

  /** Every rule as granted by each binding (rendered bindings only). */
  grants(): Grant[] {
    const out: Grant[] = [];
    for (const b of this.clusterRoleBindings) {
      for (const rule of this.bindingRules(b)) {
        out.push({ source: `ClusterRoleBinding/${b.metadata.name} -> ${b.roleRef!.kind}/${b.roleRef!.name}`, subjects: b.subjects ?? [], rule });
      }
    }
    for (const b of this.roleBindings) {
      const ns = b.metadata.namespace ?? '';
      for (const rule of this.bindingRules(b)) {
        out.push({
          source: `RoleBinding ${ns}/${b.metadata.name} -> ${b.roleRef!.kind}/${b.roleRef!.name}`,
          namespace: ns,
          subjects: (b.subjects ?? []).map((s) => (s.kind === 'ServiceAccount' && !s.namespace ? { ...s, namespace: ns } : s)),
          rule,
        });
      }
    }
    return out;
  }

  /** Whether a grant applies to a user (its binding names the user, a group of it, or its ServiceAccount). */
  static grantAppliesTo(grant: Grant, user: UserInfo): boolean {
    return grant.subjects.some((s) => appliesTo(user, s, grant.namespace ?? ''));
  }

  /** Whether a grant allows a request (RoleBinding grants only in their namespace). */
  static grantAllows(grant: Grant, req: ResourceRequest): boolean {
    if (grant.namespace !== undefined && grant.namespace !== (req.namespace ?? '')) {
      return false;
    }
    return ruleAllows(grant.rule, req);
  }

  /** The RBAC decision: the source that allows it, or undefined when denied. */
  allowedBy(user: UserInfo, req: ResourceRequest): string | undefined {
    for (const b of this.clusterRoleBindings) {
      if ((b.subjects ?? []).some((s) => appliesTo(user, s, '')) && this.bindingRules(b).some((r) => ruleAllows(r, req))) {
        return `ClusterRoleBinding/${b.metadata.name}`;
      }
    }
    const ns = req.namespace ?? '';
    if (ns === '') {
      return undefined;
    }
    for (const b of this.roleBindings) {
      if ((b.metadata.namespace ?? '') !== ns) {
        continue;
      }
      if ((b.subjects ?? []).some((s) => appliesTo(user, s, ns)) && this.bindingRules(b).some((r) => ruleAllows(r, req))) {
        return `RoleBinding ${ns}/${b.metadata.name}`;
      }
    }
    return undefined;
  }

  /** Whether `user` may make `req`. */
  allows(user: UserInfo, req: ResourceRequest): boolean {
    return this.allowedBy(user, req) !== undefined;
  }
}
