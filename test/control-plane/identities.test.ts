// How the leader-migration replay reads a controller manager's log: the requests the server refused and the
// leases the process acquired. Pure: no server, so it runs in `npm test` too.
import { acquiredLeases, auditedRequests, describeRefusal, describeRequest, refusalsIn } from './identities';

// Lines in the shapes klog writes them: a structured error (quotes escaped) and a formatted one (quotes as is).
const WATCH =
  'E1206 03:28:24.690296    7874 reflector.go:200] "Failed to watch" err="failed to list *v1.Node: nodes is forbidden: User \\"system:serviceaccount:kube-system:cloud-controller-manager\\" cannot list resource \\"nodes\\" in API group \\"\\" at the cluster scope" logger="UnhandledError"';
const LEASE =
  'E1206 03:28:25.000000    7874 leaderelection.go:436] error retrieving resource lock kube-system/cloud-provider-extraction-migration: leases.coordination.k8s.io "cloud-provider-extraction-migration" is forbidden: User "system:kube-controller-manager" cannot get resource "leases" in API group "coordination.k8s.io" in the namespace "kube-system"';
const STATUS =
  'E1206 03:28:26.000000    7874 node_lifecycle_controller.go:1] "Error" err="nodes \\"n1\\" is forbidden: User \\"system:serviceaccount:kube-system:cloud-controller-manager\\" cannot patch resource \\"nodes/status\\" in API group \\"\\" at the cluster scope"';

describe('the replay reads refused requests and acquired leases from a controller manager log', () => {
  it('reads each refused request once, with its user, verb, group, resource, name and namespace', () => {
    // GIVEN a log with three refusals, one of them twice
    const log = [WATCH, LEASE, STATUS, WATCH, 'I1206 03:28:27.000000    7874 shared_informer.go:1] caches populated'].join('\n');
    // WHEN it is read
    const refusals = refusalsIn(log);
    // THEN each distinct request is there once, in the order first logged
    expect(refusals).toEqual([
      { user: 'system:serviceaccount:kube-system:cloud-controller-manager', verb: 'list', apiGroup: '', resource: 'nodes' },
      {
        user: 'system:kube-controller-manager',
        verb: 'get',
        apiGroup: 'coordination.k8s.io',
        resource: 'leases',
        name: 'cloud-provider-extraction-migration',
        namespace: 'kube-system',
      },
      { user: 'system:serviceaccount:kube-system:cloud-controller-manager', verb: 'patch', apiGroup: '', resource: 'nodes/status', name: 'n1' },
    ]);
    expect(refusals.map(describeRefusal)).toEqual([
      'system:serviceaccount:kube-system:cloud-controller-manager list core/nodes cluster-wide',
      'system:kube-controller-manager get coordination.k8s.io/leases in kube-system name cloud-provider-extraction-migration',
      'system:serviceaccount:kube-system:cloud-controller-manager patch core/nodes/status cluster-wide name n1',
    ]);
  });

  it('reads no refusal from a log without one', () => {
    expect(refusalsIn('I1206 03:28:27.000000    7874 leaderelection.go:1] attempting to acquire leader lease kube-system/x...\n')).toEqual([]);
  });

  it('reads the leases a process acquired, each once and sorted, not those it only tried', () => {
    // GIVEN a log where the process tried three leases and took two, one of them twice
    const log = [
      'I1206 03:28:22.000000    1 leaderelection.go:257] attempting to acquire leader lease kube-system/kube-controller-manager...',
      'I1206 03:28:23.000000    1 leaderelection.go:271] successfully acquired lease kube-system/kube-controller-manager',
      'I1206 03:28:24.000000    1 leaderelection.go:257] attempting to acquire leader lease kube-system/cloud-provider-extraction-migration...',
      'I1206 03:28:25.000000    1 leaderelection.go:257] attempting to acquire leader lease kube-system/other...',
      'I1206 03:28:26.000000    1 leaderelection.go:271] successfully acquired lease kube-system/cloud-provider-extraction-migration',
      'I1206 03:28:27.000000    1 leaderelection.go:271] successfully acquired lease kube-system/kube-controller-manager',
    ].join('\n');
    // WHEN it is read, THEN the two acquired leases are listed
    expect(acquiredLeases(log)).toEqual(['kube-system/cloud-provider-extraction-migration', 'kube-system/kube-controller-manager']);
  });
});

describe('the replay reads the requests the server answered from its audit log', () => {
  it('reads each distinct request once with its user, groups and code, a create of a collection without the name the object gave it', () => {
    // GIVEN audit events of a watch by name, the same watch again, a create of a lease, a create of a token and a refused get
    const sa = { username: 'system:serviceaccount:kube-system:cloud-controller-manager', groups: ['system:serviceaccounts', 'system:authenticated'] };
    const event = (verb: string, objectRef: Record<string, string>, code: number, user = sa): string =>
      JSON.stringify({ kind: 'Event', apiVersion: 'audit.k8s.io/v1', stage: 'ResponseComplete', user, verb, objectRef, responseStatus: { code } });
    const cm = { resource: 'configmaps', namespace: 'kube-system', name: 'extension-apiserver-authentication', apiVersion: 'v1' };
    const log = [
      event('watch', cm, 200),
      event('watch', cm, 200),
      event('create', { resource: 'leases', namespace: 'kube-system', name: 'cloud-controller-manager', apiGroup: 'coordination.k8s.io' }, 201),
      event('create', { resource: 'serviceaccounts', subresource: 'token', namespace: 'kube-system', name: 'node-controller' }, 201, {
        username: 'system:kube-controller-manager',
        groups: ['system:authenticated'],
      }),
      event('get', { resource: 'nodes', name: 'n1' }, 403),
      JSON.stringify({ kind: 'Event', stage: 'ResponseComplete', user: sa, verb: 'get', requestURI: '/healthz', responseStatus: { code: 200 } }),
      '',
    ].join('\n');
    // WHEN it is read
    const requests = auditedRequests(log);
    // THEN each request is there once, as the authorizer saw it
    expect(requests.map((r) => [r.user.name, r.request, r.code])).toEqual([
      [
        sa.username,
        { verb: 'watch', apiGroup: '', resource: 'configmaps', name: 'extension-apiserver-authentication', namespace: 'kube-system' },
        200,
      ],
      [sa.username, { verb: 'create', apiGroup: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-system' }, 201],
      [
        'system:kube-controller-manager',
        { verb: 'create', apiGroup: '', resource: 'serviceaccounts/token', name: 'node-controller', namespace: 'kube-system' },
        201,
      ],
      [sa.username, { verb: 'get', apiGroup: '', resource: 'nodes', name: 'n1' }, 403],
    ]);
    expect(requests[0].user.groups).toEqual(sa.groups);
    expect(describeRequest(requests[1].user.name, requests[1].request)).toBe(
      'system:serviceaccount:kube-system:cloud-controller-manager create coordination.k8s.io/leases in kube-system',
    );
  });
});
