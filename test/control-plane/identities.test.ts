// How the leader-migration replay reads a controller manager's log: the requests the server refused and the
// leases the process acquired. Pure: no server, so it runs in `npm test` too.
import { acquiredLeases, describeRefusal, refusalsIn } from './identities';

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
