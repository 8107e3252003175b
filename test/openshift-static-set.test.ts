import { App, Chart } from 'cdk8s';
import { ClusterChart } from '../src/pipeline/cluster-chart';
import { CloudCredentialsRequest } from '../src/openshift/cloud-credentials-request';
import { OpenShiftStaticSet } from '../src/openshift/openshift-static-set';
import { AWS_IMAGE, awsSpec, OPERATOR_IMAGE, preparedCluster } from './helpers';

type Obj = Record<string, any>;

function render(build: (chart: Chart) => void): Obj[] {
  const chart = new Chart(new App(), 'test', { disableResourceNameHashes: true });
  build(chart);
  return chart.toJson();
}

function find(objects: Obj[], kind: string, name: string, namespace?: string): Obj {
  const found = objects.filter((o) => o.kind === kind && o.metadata.name === name && o.metadata.namespace === namespace);
  if (found.length !== 1) {
    throw new Error(`expected one ${kind} ${namespace ?? ''}/${name}, found ${found.length}`);
  }
  return found[0];
}

function ids(objects: Obj[]): string[] {
  return objects.map((o) => `${o.kind} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}`).sort();
}

const RELEASE = {
  'capability.openshift.io/name': 'CloudControllerManager',
  'include.release.openshift.io/self-managed-high-availability': 'true',
  'include.release.openshift.io/single-node-developer': 'true',
};

describe('OpenShift static set, gitops mode', () => {
  const objects = render((c) => new OpenShiftStaticSet(c, 'S', { platformType: 'AWS' }));

  test('renders the namespaces, policies, operand RBAC, trust bundle and ClusterOperator, and no operator', () => {
    expect(ids(objects)).toEqual([
      'ClusterOperator cloud-controller-manager',
      'ClusterRole cloud-controller-manager',
      'ClusterRoleBinding cloud-controller-manager',
      'ConfigMap openshift-cloud-controller-manager/ccm-trusted-ca',
      'Namespace openshift-cloud-controller-manager',
      'Namespace openshift-cloud-controller-manager-operator',
      'NetworkPolicy openshift-cloud-controller-manager-operator/default-deny',
      'NetworkPolicy openshift-cloud-controller-manager/default-deny',
      'Role kube-system/cloud-controller-manager',
      'Role openshift-cloud-controller-manager/cloud-controller-manager',
      'RoleBinding kube-system/cloud-controller-manager',
      'RoleBinding kube-system/cloud-controller-manager:apiserver-authentication-reader',
      'RoleBinding openshift-cloud-controller-manager/cloud-controller-manager',
      'ServiceAccount openshift-cloud-controller-manager/cloud-controller-manager',
    ]);
  });

  test.each(['openshift-cloud-controller-manager', 'openshift-cloud-controller-manager-operator'])(
    'namespace %s has the operator labels and annotations',
    (name) => {
      expect(find(objects, 'Namespace', name).metadata).toEqual({
        name,
        annotations: { ...RELEASE, 'openshift.io/node-selector': '', 'workload.openshift.io/allowed': 'management' },
        labels: {
          'openshift.io/cluster-monitoring': 'true',
          'openshift.io/run-level': '0',
          'pod-security.kubernetes.io/audit': 'privileged',
          'pod-security.kubernetes.io/enforce': 'privileged',
          'pod-security.kubernetes.io/warn': 'privileged',
        },
      });
    },
  );

  test('default-deny policies select every pod and deny both directions', () => {
    expect(find(objects, 'NetworkPolicy', 'default-deny', 'openshift-cloud-controller-manager').spec).toEqual({
      podSelector: {},
      policyTypes: ['Ingress', 'Egress'],
    });
  });

  test("the lease Role is the release payload's (CVO applies the same Role; any other rule set would flip forever)", () => {
    // openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c manifests/0000_26_cloud-controller-manager-operator_03_rbac_provider.yaml
    expect(find(objects, 'Role', 'cloud-controller-manager', 'openshift-cloud-controller-manager').rules).toEqual([
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], resourceNames: ['cloud-controller-manager'], verbs: ['get', 'list', 'update'] },
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
    ]);
  });

  test('no rule combines list or watch with resourceNames, except in the objects CVO applies from the release payload', () => {
    const rules = objects
      .filter(
        (o) =>
          (o.kind === 'Role' || o.kind === 'ClusterRole') &&
          !(o.metadata.name === 'cloud-controller-manager' && o.metadata.namespace === 'openshift-cloud-controller-manager'),
      )
      .flatMap((o) => o.rules);
    expect(rules.filter((r: Obj) => r.resourceNames && r.verbs.some((v: string) => v === 'list' || v === 'watch'))).toEqual([]);
  });

  test('kube-system Role lets --use-service-account-credentials mint controller tokens', () => {
    expect(find(objects, 'Role', 'cloud-controller-manager', 'kube-system').rules).toEqual([
      { apiGroups: [''], resources: ['serviceaccounts'], verbs: ['create', 'get'] },
      { apiGroups: [''], resources: ['serviceaccounts/token'], verbs: ['create'] },
    ]);
    expect(find(objects, 'RoleBinding', 'cloud-controller-manager', 'kube-system').subjects).toEqual([
      { kind: 'ServiceAccount', name: 'cloud-controller-manager', namespace: 'openshift-cloud-controller-manager' },
    ]);
  });

  test('the shared ClusterRole and the authentication reader binding', () => {
    expect(find(objects, 'ClusterRole', 'cloud-controller-manager').rules).toEqual([
      { apiGroups: [''], resources: ['nodes', 'services'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
      { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
      { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
    ]);
    expect(find(objects, 'RoleBinding', 'cloud-controller-manager:apiserver-authentication-reader', 'kube-system').roleRef).toEqual({
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'Role',
      name: 'extension-apiserver-authentication-reader',
    });
  });

  test('the trust bundle ConfigMap is empty and labelled for injection', () => {
    expect(find(objects, 'ConfigMap', 'ccm-trusted-ca', 'openshift-cloud-controller-manager')).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'ccm-trusted-ca',
        namespace: 'openshift-cloud-controller-manager',
        labels: { 'config.openshift.io/inject-trusted-cabundle': 'true' },
        annotations: { 'openshift.io/owning-component': 'Cloud Compute / Cloud Controller Manager' },
      },
    });
  });

  test('the ClusterOperator carries no status', () => {
    expect(find(objects, 'ClusterOperator', 'cloud-controller-manager')).toEqual({
      apiVersion: 'config.openshift.io/v1',
      kind: 'ClusterOperator',
      metadata: { name: 'cloud-controller-manager', annotations: { ...RELEASE, 'exclude.release.openshift.io/internal-openshift-hosted': 'true' } },
      spec: {},
    });
  });

  test('no object grants endpoints, and nothing is bound to ClusterRole admin', () => {
    const rules = objects.flatMap((o) => o.rules ?? []);
    expect(rules.filter((r: Obj) => r.resources.includes('endpoints'))).toEqual([]);
    expect(objects.filter((o) => o.roleRef?.name === 'admin')).toEqual([]);
  });

  test('OpenStack clusters also get the OpenStack RBAC; others do not', () => {
    const openstack = render((c) => new OpenShiftStaticSet(c, 'S', { platformType: 'OpenStack' }));
    expect(find(openstack, 'ClusterRole', 'openstack-cloud-controller-manager').rules).toEqual([
      { apiGroups: [''], resources: ['services'], verbs: ['patch'] },
      { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
    ]);
    expect(find(openstack, 'ClusterRoleBinding', 'openstack-cloud-controller-manager').subjects).toEqual([
      { kind: 'ServiceAccount', name: 'cloud-controller-manager', namespace: 'kube-system' },
    ]);
    expect(ids(objects).filter((i) => i.includes('openstack'))).toEqual([]);
  });

  test('the cloud node manager identity is rendered only when asked for', () => {
    const withCnm = render((c) => new OpenShiftStaticSet(c, 'S', { platformType: 'AWS', cloudNodeManager: true }));
    expect(find(withCnm, 'ClusterRole', 'cloud-node-manager').rules).toEqual([
      { apiGroups: [''], resources: ['nodes'], verbs: ['watch', 'list', 'get', 'update', 'patch'] },
      { apiGroups: [''], resources: ['nodes/status'], verbs: ['patch'] },
    ]);
    expect(ids(objects).filter((i) => i.includes('cloud-node-manager'))).toEqual([]);
  });
});

describe('OpenShift static set, operator mode', () => {
  const images = { cloudControllerManagerOperator: OPERATOR_IMAGE, cloudControllerManagerAWS: AWS_IMAGE };
  const objects = render((c) => new OpenShiftStaticSet(c, 'S', { platformType: 'AWS', managementMode: 'operator', images, release: '4.23.1' }));

  test('adds the operator, its RBAC, metrics Service and images, and leaves the trust bundle to the operator', () => {
    const gitops = ids(render((c) => new OpenShiftStaticSet(c, 'S', { platformType: 'AWS' })));
    const added = ids(objects).filter((i) => !gitops.includes(i));
    expect(added).toEqual([
      'ClusterRole system:openshift:operator:cloud-controller-manager',
      'ClusterRoleBinding system:openshift:operator:cloud-controller-manager',
      'ClusterRoleBinding system:openshift:scc:hostaccess:cloud-controller-manager-operator',
      'ConfigMap openshift-cloud-controller-manager-operator/cloud-controller-manager-images',
      'Deployment openshift-cloud-controller-manager-operator/cluster-cloud-controller-manager-operator',
      'Role kube-system/cluster-cloud-controller-manager',
      'Role openshift-cloud-controller-manager-operator/cluster-cloud-controller-manager',
      'Role openshift-config-managed/cluster-cloud-controller-manager',
      'Role openshift-config/cluster-cloud-controller-manager',
      'RoleBinding kube-system/cluster-cloud-controller-manager',
      'RoleBinding openshift-cloud-controller-manager-operator/cluster-cloud-controller-manager',
      'RoleBinding openshift-cloud-controller-manager/cluster-cloud-controller-manager',
      'RoleBinding openshift-config-managed/cluster-cloud-controller-manager',
      'RoleBinding openshift-config/cluster-cloud-controller-manager',
      'Service openshift-cloud-controller-manager-operator/cloud-controller-manager-operator',
      'ServiceAccount openshift-cloud-controller-manager-operator/cluster-cloud-controller-manager',
    ]);
    expect(ids(objects)).not.toContain('ConfigMap openshift-cloud-controller-manager/ccm-trusted-ca');
  });

  test('images.json lists the pinned images, sorted', () => {
    expect(find(objects, 'ConfigMap', 'cloud-controller-manager-images', 'openshift-cloud-controller-manager-operator').data).toEqual({
      'images.json': `{\n  "cloudControllerManagerAWS": "${AWS_IMAGE}",\n  "cloudControllerManagerOperator": "${OPERATOR_IMAGE}"\n}\n`,
    });
  });

  test('the operator Deployment runs both controllers with the operator flags', () => {
    const d = find(objects, 'Deployment', 'cluster-cloud-controller-manager-operator', 'openshift-cloud-controller-manager-operator');
    const pod = d.spec.template.spec;
    expect(d.spec.replicas).toBe(1);
    expect(d.spec.strategy).toEqual({ type: 'Recreate' });
    expect(pod.serviceAccountName).toBe('cluster-cloud-controller-manager');
    expect(pod.priorityClassName).toBe('system-node-critical');
    expect(pod.hostNetwork).toBe(true);
    expect(pod.containers.map((c: Obj) => c.name)).toEqual(['cluster-cloud-controller-manager', 'config-sync-controllers']);
    expect(pod.containers[0].image).toBe(OPERATOR_IMAGE);
    expect(pod.containers[0].command[2]).toContain('--images-json=/etc/cloud-controller-manager-config/images.json');
    expect(pod.containers[0].command[2]).toContain('URL_ONLY_KUBECONFIG=/etc/kubernetes/kubeconfig');
    expect(pod.containers[1].command[2]).toContain('--health-addr=127.0.0.1:9260');
    expect(pod.containers[0].env).toEqual([{ name: 'RELEASE_VERSION', value: '4.23.1' }]);
    expect(d.spec.template.metadata.annotations['openshift.io/required-scc']).toBe('hostaccess');
  });

  test("the operator RBAC is the release payload's: the ClusterRole keeps the endpoints rule and the manifest order, the operand binding keeps ClusterRole admin", () => {
    // openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c manifests/0000_26_cloud-controller-manager-operator_02_rbac_operator.yaml
    const clusterRole = find(objects, 'ClusterRole', 'system:openshift:operator:cloud-controller-manager');
    expect(clusterRole.rules.map((r: Obj) => `${r.apiGroups.join(',')}:${r.resources.join(',')}:${r.verbs.join(',')}`)).toEqual([
      'config.openshift.io:clusteroperators:get,create,list,watch',
      'config.openshift.io:clusteroperators/status:update',
      'config.openshift.io:clusterversions,infrastructures,featuregates,networks,proxies,apiservers:get,list,watch',
      'operator.openshift.io:kubecontrollermanagers:get,list,watch',
      'rbac.authorization.k8s.io:clusterrolebindings,clusterroles,rolebindings,roles:get,list,watch,create,update,patch',
      'admissionregistration.k8s.io:validatingadmissionpolicies,validatingadmissionpolicybindings:get,list,watch,create,update,patch',
      'authentication.k8s.io:tokenreviews:create',
      'authorization.k8s.io:subjectaccessreviews:create',
      ':nodes:update',
      ':nodes/status:patch',
      ':nodes,services:get,list,watch',
      ':events:create,patch',
      ':endpoints:get,create,list,watch,update',
      ':services,services/status:patch',
      ':nodes:patch',
      ':events:update',
      ':services/status:update',
      'discovery.k8s.io:endpointslices:get,list,watch',
    ]);
    expect(find(objects, 'RoleBinding', 'cluster-cloud-controller-manager', 'openshift-cloud-controller-manager').roleRef).toEqual({
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'ClusterRole',
      name: 'admin',
    });
    expect(
      objects.filter(
        (o) =>
          o.kind === 'Role' &&
          o.metadata.namespace === 'openshift-cloud-controller-manager' &&
          o.metadata.name === 'cluster-cloud-controller-manager',
      ),
    ).toEqual([]);
  });

  test('the metrics Service is headless on 9258 and 9443 with a serving certificate', () => {
    const s = find(objects, 'Service', 'cloud-controller-manager-operator', 'openshift-cloud-controller-manager-operator');
    expect(s.apiVersion).toBe('v1');
    expect(s.metadata.annotations['service.alpha.openshift.io/serving-cert-secret-name']).toBe('cloud-controller-manager-operator-tls');
    expect(s.spec).toEqual({
      type: 'ClusterIP',
      clusterIP: 'None',
      ports: [
        { name: 'metrics', port: 9258, targetPort: 'metrics' },
        { name: 'webhook', port: 9443, targetPort: 'webhook' },
      ],
      selector: { 'k8s-app': 'cloud-manager-operator' },
      sessionAffinity: 'None',
    });
  });

  test('operator mode without the operator image is refused', () => {
    expect(() =>
      render((c) => new OpenShiftStaticSet(c, 'S', { platformType: 'AWS', managementMode: 'operator', images: {}, release: '4.23.1' })),
    ).toThrow("'images.cloudControllerManagerOperator' is required in operator mode, got none");
  });

  test('operator mode renders no operands through the cluster chart', () => {
    const chart = new ClusterChart(new App(), 'c', {
      cluster: preparedCluster(awsSpec('c', { managementMode: 'operator', images: images, openshift: { release: '4.23.1' } })),
    });
    const kinds = ids(chart.toJson());
    expect(kinds).not.toContain('Deployment openshift-cloud-controller-manager/aws-cloud-controller-manager');
    expect(kinds).not.toContain('ConfigMap openshift-cloud-controller-manager/cloud-conf');
    expect(kinds).toContain('Deployment openshift-cloud-controller-manager-operator/cluster-cloud-controller-manager-operator');
  });
});

describe('CloudCredentialsRequest', () => {
  test('renders in the CCO namespace with the Secret in the operand namespace', () => {
    const [cr] = render(
      (c) =>
        new CloudCredentialsRequest(c, 'CR', {
          name: 'openshift-gcp-ccm',
          secretName: 'gcp-ccm-cloud-credentials',
          providerSpec: { kind: 'GCPProviderSpec', skipServiceCheck: true, permissions: ['compute.zones.list'] },
          serviceAccountNames: ['cloud-controller-manager'],
        }),
    );
    expect(cr).toEqual({
      apiVersion: 'cloudcredential.openshift.io/v1',
      kind: 'CredentialsRequest',
      metadata: {
        name: 'openshift-gcp-ccm',
        namespace: 'openshift-cloud-credential-operator',
        annotations: { ...RELEASE, 'capability.openshift.io/name': 'CloudCredential+CloudControllerManager' },
      },
      spec: {
        providerSpec: {
          apiVersion: 'cloudcredential.openshift.io/v1',
          kind: 'GCPProviderSpec',
          skipServiceCheck: true,
          permissions: ['compute.zones.list'],
        },
        secretRef: { name: 'gcp-ccm-cloud-credentials', namespace: 'openshift-cloud-controller-manager' },
        serviceAccountNames: ['cloud-controller-manager'],
      },
    });
  });

  test.each([
    [{ name: 'Bad_Name', kind: 'GCPProviderSpec' }, '\'name\' must be a DNS-1123 label, got "Bad_Name"'],
    [{ name: 'ok', kind: 'GCP' }, '\'providerSpec.kind\' must name a provider spec kind such as "GCPProviderSpec", got "GCP"'],
  ])('invalid props are refused (%#)', ({ name, kind }, message) => {
    expect(() => render((c) => new CloudCredentialsRequest(c, 'CR', { name, secretName: 's', providerSpec: { kind } }))).toThrow(message);
  });
});
