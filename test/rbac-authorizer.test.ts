import { RbacAuthorizer, RbacObject, serviceAccountUser } from './oracle/rbac-authorizer';

const SA = serviceAccountUser('kube-system', 'ccm');
const OTHER = serviceAccountUser('kube-system', 'other');
const rbac = 'rbac.authorization.k8s.io/v1';
const crb = (
  name: string,
  role: string,
  subjects: RbacObject['subjects'] = [{ kind: 'ServiceAccount', name: 'ccm', namespace: 'kube-system' }],
): RbacObject => ({
  apiVersion: rbac,
  kind: 'ClusterRoleBinding',
  metadata: { name },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
  subjects,
});
const rb = (
  ns: string,
  name: string,
  kind: 'Role' | 'ClusterRole',
  role: string,
  subjects: RbacObject['subjects'] = [{ kind: 'ServiceAccount', name: 'ccm', namespace: 'kube-system' }],
): RbacObject => ({
  apiVersion: rbac,
  kind: 'RoleBinding',
  metadata: { name, namespace: ns },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind, name: role },
  subjects,
});
const cr = (name: string, rules: RbacObject['rules'], labels?: Record<string, string>): RbacObject => ({
  apiVersion: rbac,
  kind: 'ClusterRole',
  metadata: { name, labels },
  rules,
});
const role = (ns: string, name: string, rules: RbacObject['rules']): RbacObject => ({
  apiVersion: rbac,
  kind: 'Role',
  metadata: { name, namespace: ns },
  rules,
});

describe('RbacAuthorizer (Kubernetes RBAC semantics)', () => {
  test('a ClusterRoleBinding grants its ClusterRole cluster-wide and in every namespace; other identities get nothing', () => {
    // GIVEN nodes get/list for the ccm ServiceAccount
    const a = new RbacAuthorizer([cr('r', [{ apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list'] }]), crb('b', 'r')]);
    // THEN
    expect(a.allows(SA, { verb: 'list', apiGroup: '', resource: 'nodes' })).toBe(true);
    expect(a.allows(SA, { verb: 'get', apiGroup: '', resource: 'nodes', name: 'n1' })).toBe(true);
    expect(a.allows(SA, { verb: 'watch', apiGroup: '', resource: 'nodes' })).toBe(false);
    expect(a.allows(SA, { verb: 'get', apiGroup: 'apps', resource: 'nodes', name: 'n1' })).toBe(false);
    expect(a.allows(OTHER, { verb: 'list', apiGroup: '', resource: 'nodes' })).toBe(false);
  });

  test('resourceNames restrict get/update to those names and never match a request without a name (list, watch, create)', () => {
    // GIVEN leases get/list/watch/update/create restricted to "ccm"
    const a = new RbacAuthorizer([
      role('kube-system', 'r', [
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], resourceNames: ['ccm'], verbs: ['get', 'list', 'watch', 'update', 'create'] },
      ]),
      rb('kube-system', 'b', 'Role', 'r'),
    ]);
    const lease = (verb: string, name?: string) =>
      a.allows(SA, { verb, apiGroup: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-system', ...(name ? { name } : {}) });
    // THEN named requests on "ccm" pass, others fail; nameless list/watch/create fail
    expect([lease('get', 'ccm'), lease('update', 'ccm'), lease('get', 'other')]).toEqual([true, true, false]);
    expect([lease('list'), lease('watch'), lease('create')]).toEqual([false, false, false]);
    // list/watch with a metadata.name field selector carries the name (requestinfo.go)
    expect(lease('watch', 'ccm')).toBe(true);
  });

  test('a ClusterRole bound by a RoleBinding grants only in the binding namespace, and nothing cluster-wide', () => {
    // GIVEN configmaps get via RoleBinding in kube-system
    const a = new RbacAuthorizer([
      cr('r', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }]),
      rb('kube-system', 'b', 'ClusterRole', 'r'),
    ]);
    // THEN
    expect(a.allows(SA, { verb: 'get', apiGroup: '', resource: 'configmaps', namespace: 'kube-system', name: 'x' })).toBe(true);
    expect(a.allows(SA, { verb: 'get', apiGroup: '', resource: 'configmaps', namespace: 'default', name: 'x' })).toBe(false);
    expect(a.allows(SA, { verb: 'list', apiGroup: '', resource: 'configmaps' })).toBe(false);
  });

  test('subresources: "nodes" does not grant "nodes/status"; "*/status" does; "*" grants every resource', () => {
    // GIVEN three roles for three identities
    const a = new RbacAuthorizer([
      cr('plain', [{ apiGroups: [''], resources: ['nodes'], verbs: ['patch'] }]),
      crb('b1', 'plain'),
      cr('star-status', [{ apiGroups: [''], resources: ['*/status'], verbs: ['patch'] }]),
      crb('b2', 'star-status', [{ kind: 'ServiceAccount', name: 'other', namespace: 'kube-system' }]),
    ]);
    // THEN
    expect(a.allows(SA, { verb: 'patch', apiGroup: '', resource: 'nodes', name: 'n' })).toBe(true);
    expect(a.allows(SA, { verb: 'patch', apiGroup: '', resource: 'nodes/status', name: 'n' })).toBe(false);
    expect(a.allows(OTHER, { verb: 'patch', apiGroup: '', resource: 'services/status', name: 'n', namespace: 'a' })).toBe(true);
    expect(a.allows(OTHER, { verb: 'patch', apiGroup: '', resource: 'services', name: 'n', namespace: 'a' })).toBe(false);
    const star = new RbacAuthorizer([cr('s', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]), crb('b', 's')]);
    expect(star.allows(SA, { verb: 'delete', apiGroup: 'x.io', resource: 'things/scale', namespace: 'n', name: 'a' })).toBe(true);
  });

  test('group subjects and ServiceAccount subjects without namespace (RoleBinding only) apply', () => {
    // GIVEN a binding to the group of kube-system ServiceAccounts and one to "ccm" without namespace
    const a = new RbacAuthorizer([
      cr('events', [{ apiGroups: [''], resources: ['events'], verbs: ['create'] }]),
      crb('g', 'events', [{ kind: 'Group', name: 'system:serviceaccounts:kube-system', apiGroup: 'rbac.authorization.k8s.io' }]),
      role('kube-system', 'sec', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]),
      rb('kube-system', 'nons', 'Role', 'sec', [{ kind: 'ServiceAccount', name: 'ccm' }]),
      crb('nons-crb', 'events', [{ kind: 'ServiceAccount', name: 'nobody' }]),
    ]);
    // THEN
    expect(a.allows(OTHER, { verb: 'create', apiGroup: '', resource: 'events', namespace: 'default' })).toBe(true);
    expect(a.allows(serviceAccountUser('default', 'x'), { verb: 'create', apiGroup: '', resource: 'events', namespace: 'default' })).toBe(false);
    expect(a.allows(SA, { verb: 'get', apiGroup: '', resource: 'secrets', namespace: 'kube-system', name: 's' })).toBe(true);
    expect(a.allows(serviceAccountUser('', 'nobody'), { verb: 'create', apiGroup: '', resource: 'events', namespace: 'default' })).toBe(false);
  });

  test('an aggregated ClusterRole has the rules of the ClusterRoles its selectors match', () => {
    // GIVEN an aggregate selecting label agg=yes, one matching role and one not
    const agg: RbacObject = {
      apiVersion: rbac,
      kind: 'ClusterRole',
      metadata: { name: 'agg' },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { agg: 'yes' } }] },
      rules: [],
    };
    const a = new RbacAuthorizer([
      agg,
      crb('b', 'agg'),
      cr('in', [{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }], { agg: 'yes' }),
      cr('out', [{ apiGroups: [''], resources: ['secrets'], verbs: ['list'] }], { agg: 'no' }),
    ]);
    // THEN
    expect(a.allows(SA, { verb: 'list', apiGroup: '', resource: 'pods' })).toBe(true);
    expect(a.allows(SA, { verb: 'list', apiGroup: '', resource: 'secrets' })).toBe(false);
  });

  test('aggregation selectors with matchExpressions (In, NotIn, Exists, DoesNotExist) and an empty selector (everything)', () => {
    // GIVEN roles labelled tier=a, tier=b, and unlabelled
    const roles = [
      cr('a', [{ apiGroups: [''], resources: ['a'], verbs: ['get'] }], { tier: 'a' }),
      cr('b', [{ apiGroups: [''], resources: ['b'], verbs: ['get'] }], { tier: 'b' }),
      cr('none', [{ apiGroups: [''], resources: ['none'], verbs: ['get'] }]),
    ];
    const aggregated = (selector: NonNullable<NonNullable<RbacObject['aggregationRule']>['clusterRoleSelectors']>[number]) =>
      // (no bootstrap roles: in a cluster they would be selected too)
      new RbacAuthorizer(
        [...roles, { apiVersion: rbac, kind: 'ClusterRole', metadata: { name: 'agg' }, aggregationRule: { clusterRoleSelectors: [selector] } }],
        [],
      )
        .clusterRoleRules('agg')!
        .flatMap((r) => r.resources ?? [])
        .sort();
    // THEN
    expect(aggregated({ matchExpressions: [{ key: 'tier', operator: 'In', values: ['a'] }] })).toEqual(['a']);
    expect(aggregated({ matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['a'] }] })).toEqual(['b', 'none']);
    expect(aggregated({ matchExpressions: [{ key: 'tier', operator: 'Exists' }] })).toEqual(['a', 'b']);
    expect(aggregated({ matchExpressions: [{ key: 'tier', operator: 'DoesNotExist' }] })).toEqual(['none']);
    expect(aggregated({})).toEqual(['a', 'b', 'none']);
  });

  test('bootstrap role extension-apiserver-authentication-reader resolves; an unknown role reference is an error', () => {
    // GIVEN a RoleBinding to the bootstrap Role
    const a = new RbacAuthorizer([rb('kube-system', 'auth', 'Role', 'extension-apiserver-authentication-reader')]);
    // THEN only that ConfigMap, only in kube-system
    expect(
      a.allows(SA, { verb: 'watch', apiGroup: '', resource: 'configmaps', namespace: 'kube-system', name: 'extension-apiserver-authentication' }),
    ).toBe(true);
    expect(a.allows(SA, { verb: 'get', apiGroup: '', resource: 'configmaps', namespace: 'kube-system', name: 'other' })).toBe(false);
    // WHEN a binding references a role that does not exist THEN evaluation fails loudly
    const broken = new RbacAuthorizer([crb('x', 'does-not-exist')]);
    expect(() => broken.allows(SA, { verb: 'get', apiGroup: '', resource: 'nodes', name: 'n' })).toThrow(
      'ClusterRoleBinding x references ClusterRole does-not-exist, which is neither rendered nor a known bootstrap role',
    );
  });

  test('grants() lists each rule with its binding, namespace and subjects', () => {
    // GIVEN one RoleBinding with two rules
    const a = new RbacAuthorizer([
      role('ns', 'r', [
        { apiGroups: [''], resources: ['a'], verbs: ['get'] },
        { apiGroups: [''], resources: ['b'], verbs: ['get'] },
      ]),
      rb('ns', 'b', 'Role', 'r', [{ kind: 'ServiceAccount', name: 'ccm' }]),
    ]);
    // THEN
    const grants = a.grants();
    expect(grants.map((g) => [g.source, g.namespace, g.subjects[0].namespace, g.rule.resources])).toEqual([
      ['RoleBinding ns/b -> Role/r', 'ns', 'ns', ['a']],
      ['RoleBinding ns/b -> Role/r', 'ns', 'ns', ['b']],
    ]);
    expect(RbacAuthorizer.grantAllows(grants[0], { verb: 'get', apiGroup: '', resource: 'a', namespace: 'other', name: 'x' })).toBe(false);
  });
});
