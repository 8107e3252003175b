import * as fs from 'fs';
import * as path from 'path';
import { parse, parseAllDocuments } from 'yaml';
import { diffTrees } from '../src/diff/diff-trees';
import { renderCluster, renderFleet } from '../src/pipeline/render';
import { ccmRbac } from '../src/kubernetes/rbac-rules';
import { UPSTREAM_PROVIDERS } from '../src/kubernetes/providers';
import { schedulingPlan } from '../src/kubernetes/scheduling';
import { mergeArgs, mergeByName } from '../src/kubernetes/workload-plan';
import { loadFleet } from '../src/fleet/load';
import { ccmTlsFlags } from '../src/cluster-spec/tls';
import { kubernetesWarnings } from '../src/kubernetes/validate';
import { fleetProblems, imageFor, kubernetesSpec, parsedSpec, useTempDir, writeFile, renderSpec, findObject } from './helpers';

const TLS = ccmTlsFlags();
const REPO = path.resolve(__dirname, '..');

const render = renderSpec;
const find = findObject;
const workload = (objects: any[]) => objects.find((o) => o.kind === 'Deployment' || o.kind === 'DaemonSet');
const container = (objects: any[]) => workload(objects).spec.template.spec.containers[0];

describe('distribution kubernetes: each upstream provider', () => {
  const dir = useTempDir();

  const COMMON_TAIL = ['--leader-elect=true', '--bind-address=127.0.0.1'];
  const CASES: [string, string, string, string[]][] = [
    [
      'AWS',
      'DaemonSet',
      'aws-cloud-controller-manager',
      [
        '--cloud-provider=aws',
        '--configure-cloud-routes=false',
        '--allocate-node-cidrs=false',
        '--use-service-account-credentials=false',
        ...COMMON_TAIL,
        '--secure-port=10258',
        ...TLS,
        '--v=2',
      ],
    ],
    [
      'Azure',
      'Deployment',
      'azure-cloud-controller-manager',
      [
        '--cloud-provider=azure',
        '--cloud-config=/etc/kubernetes/cloud-config/cloud-config',
        '--cluster-name=kubernetes',
        '--route-reconciliation-period=10s',
        '--controllers=*,-cloud-node',
        '--configure-cloud-routes=false',
        '--allocate-node-cidrs=false',
        '--use-service-account-credentials=false',
        ...COMMON_TAIL,
        '--secure-port=10268',
        ...TLS,
        '--v=2',
      ],
    ],
    [
      'GCP',
      'DaemonSet',
      'gcp-cloud-controller-manager',
      [
        '--cloud-provider=gce',
        '--cluster-name=kubernetes',
        '--controllers=*,-node-ipam-controller',
        '--configure-cloud-routes=false',
        '--allocate-node-cidrs=false',
        '--use-service-account-credentials=false',
        ...COMMON_TAIL,
        '--secure-port=10258',
        ...TLS,
        '--v=2',
      ],
    ],
    [
      'VSphere',
      'DaemonSet',
      'vsphere-cloud-controller-manager',
      [
        '--cloud-provider=vsphere',
        '--cloud-config=/etc/cloud/vsphere.conf',
        '--configure-cloud-routes=false',
        '--allocate-node-cidrs=false',
        '--use-service-account-credentials=false',
        ...COMMON_TAIL,
        '--secure-port=10258',
        ...TLS,
        '--v=2',
      ],
    ],
    [
      'OpenStack',
      'DaemonSet',
      'openstack-cloud-controller-manager',
      [
        '/bin/openstack-cloud-controller-manager',
        '--cloud-provider=openstack',
        '--cloud-config=/etc/config/cloud.conf',
        '--cluster-name=kubernetes',
        '--controllers=cloud-node,cloud-node-lifecycle,route,service',
        '--configure-cloud-routes=false',
        '--allocate-node-cidrs=false',
        '--use-service-account-credentials=false',
        ...COMMON_TAIL,
        '--secure-port=10258',
        ...TLS,
        '--v=2',
      ],
    ],
    [
      'AlibabaCloud',
      'DaemonSet',
      'alibaba-cloud-controller-manager',
      [
        '--cloud-provider=alibabacloud',
        '--cloud-config=/etc/kubernetes/config/cloud-config.conf',
        '--metrics-bind-addr=0',
        '--pprof-bind-addr=0',
        '--configure-cloud-routes=false',
        '--leader-elect=true',
        '--v=2',
      ],
    ],
    [
      'Nutanix',
      'Deployment',
      'nutanix-cloud-controller-manager',
      [
        '--cloud-config=/etc/cloud/nutanix_config.json',
        '--configure-cloud-routes=false',
        '--allocate-node-cidrs=false',
        '--use-service-account-credentials=false',
        ...COMMON_TAIL,
        '--secure-port=10258',
        ...TLS,
        '--v=2',
      ],
    ],
    [
      'DigitalOcean',
      'Deployment',
      'digitalocean-cloud-controller-manager',
      [
        '--configure-cloud-routes=false',
        '--allocate-node-cidrs=false',
        '--use-service-account-credentials=false',
        ...COMMON_TAIL,
        '--secure-port=10258',
        ...TLS,
        '--v=2',
      ],
    ],
    [
      'EquinixMetal',
      'DaemonSet',
      'equinix-metal-cloud-controller-manager',
      [
        '--cloud-provider=equinixmetal',
        '--cloud-config=/etc/cloud-sa/cloud-sa.json',
        '--authentication-skip-lookup=true',
        '--configure-cloud-routes=false',
        '--allocate-node-cidrs=false',
        '--use-service-account-credentials=false',
        ...COMMON_TAIL,
        '--secure-port=10258',
        ...TLS,
        '--v=2',
      ],
    ],
  ];

  test.each(CASES)('%s renders the upstream workload kind and the exact flags', (platform, kind, name, args) => {
    // GIVEN a spec with default knobs WHEN it renders
    const objects = render(dir(), kubernetesSpec(platform));
    // THEN the workload is the upstream kind in kube-system, with the provider's image and flags in order
    const w = workload(objects);
    expect([w.kind, w.metadata.name, w.metadata.namespace]).toEqual([kind, name, 'kube-system']);
    expect(container(objects).image).toBe(imageFor(UPSTREAM_PROVIDERS[platform as keyof typeof UPSTREAM_PROVIDERS]!.imageKey));
    expect(container(objects).args).toEqual(args);
    expect(w.spec.template.spec.serviceAccountName).toBe('cloud-controller-manager');
    expect(w.spec.template.spec.hostNetwork).toBe(true);
    expect(w.spec.template.spec.dnsPolicy).toBe('Default');
    // the upstream manifest's or chart's PriorityClass (AWS, Azure and vSphere use system-node-critical)
    expect(w.spec.template.spec.priorityClassName).toBe(
      ['AWS', 'Azure', 'VSphere'].includes(platform) ? 'system-node-critical' : 'system-cluster-critical',
    );
    // no OpenShift objects
    expect(objects.filter((o) => /openshift/.test(o.apiVersion) || o.metadata.namespace?.startsWith('openshift'))).toEqual([]);
  });

  test("the cloud config comes from the provider's usual Secret or ConfigMap, every key mounted, the flag naming the key", () => {
    const mounts: Record<string, unknown> = {};
    for (const platform of ['Azure', 'VSphere', 'OpenStack', 'AlibabaCloud', 'Nutanix', 'EquinixMetal']) {
      const objects = render(dir(), kubernetesSpec(platform));
      const v = workload(objects).spec.template.spec.volumes.find((x: any) => x.name === 'cloud-config');
      const m = container(objects).volumeMounts.find((x: any) => x.name === 'cloud-config');
      mounts[platform] = { source: v.secret ?? v.configMap, mountPath: m.mountPath, readOnly: m.readOnly };
    }
    expect(mounts).toEqual({
      Azure: { source: { secretName: 'azure-cloud-provider' }, mountPath: '/etc/kubernetes/cloud-config', readOnly: true },
      VSphere: { source: { name: 'vsphere-cloud-config' }, mountPath: '/etc/cloud', readOnly: true },
      OpenStack: { source: { secretName: 'cloud-config' }, mountPath: '/etc/config', readOnly: true },
      AlibabaCloud: { source: { name: 'cloud-config' }, mountPath: '/etc/kubernetes/config', readOnly: true },
      Nutanix: { source: { name: 'nutanix-config' }, mountPath: '/etc/cloud', readOnly: true },
      EquinixMetal: { source: { secretName: 'metal-cloud-config' }, mountPath: '/etc/cloud-sa', readOnly: true },
    });
  });

  test('DigitalOcean reads its API token as env from the Secret, never as a file', () => {
    const objects = render(dir(), kubernetesSpec('DigitalOcean', 'k', { cloudConfig: { existingSecret: 'do-token', key: 'token' } }));
    expect(container(objects).env).toEqual([{ name: 'DO_ACCESS_TOKEN', valueFrom: { secretKeyRef: { name: 'do-token', key: 'token' } } }]);
    expect(workload(objects).spec.template.spec.volumes).toBeUndefined();
  });

  test('Azure adds the cloud-node-manager DaemonSet with its own identity, tolerating every taint', () => {
    const objects = render(dir(), kubernetesSpec('Azure'));
    const cnm = find(objects, 'DaemonSet', 'azure-cloud-node-manager');
    expect(cnm.spec.template.spec.containers[0].args).toEqual([
      '--node-name=$(NODE_NAME)',
      '--wait-routes=false',
      '--use-instance-metadata=true',
      '--v=2',
    ]);
    expect(cnm.spec.template.spec.tolerations).toEqual([{ operator: 'Exists' }]);
    expect(cnm.spec.template.spec.serviceAccountName).toBe('cloud-node-manager');
    expect(find(objects, 'ClusterRole', 'cloud-node-manager').rules).toEqual([
      { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch', 'update', 'patch'] },
      { apiGroups: [''], resources: ['nodes/status'], verbs: ['patch'] },
      { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
    ]);
    // WHEN disabled THEN no node manager and no image needed
    const spec = kubernetesSpec('Azure', 'k', { cloudNodeManager: { enabled: false } }) as any;
    delete spec.spec.images.cloudNodeManagerAzure;
    expect(find(render(dir(), spec), 'DaemonSet', 'azure-cloud-node-manager')).toBeUndefined();
  });

  test('Equinix Metal renders with a deprecation warning', () => {
    writeFile(dir(), 'c.yaml', kubernetesSpec('EquinixMetal'));
    const fleet = loadFleet(dir());
    expect(fleet.warnings.map((w) => w.message)).toEqual([
      'cluster k: platform EquinixMetal: the Equinix Metal CCM is deprecated upstream (Equinix Metal is sunset in June 2026) and no longer maintained; plan the move off the platform',
    ]);
  });
});

describe('distribution kubernetes: RBAC profiles', () => {
  const dir = useTempDir();
  const aws = UPSTREAM_PROVIDERS.AWS!;

  test("superset (useServiceAccountCredentials false): one ClusterRole with every client's rules, the lease Role, no wildcards", () => {
    const rbac = ccmRbac({
      provider: aws,
      useServiceAccountCredentials: false,
      namespace: 'kube-system',
      serviceAccount: 'cloud-controller-manager',
    });
    expect(rbac.profile).toBe('superset');
    expect(rbac.clusterRoles.map((r) => [r.name, r.serviceAccounts])).toEqual([
      ['system:cloud-controller-manager', ['kube-system/cloud-controller-manager']],
    ]);
    expect(rbac.clusterRoles[0].rules).toEqual([
      { apiGroups: [''], resources: ['nodes'], verbs: ['list', 'watch', 'get', 'update', 'patch', 'delete'] },
      { apiGroups: [''], resources: ['services'], verbs: ['list', 'watch'] },
      { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
      { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
      { apiGroups: [''], resources: ['nodes/status'], verbs: ['patch'] },
      { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
      { apiGroups: [''], resources: ['services/status'], verbs: ['patch'] },
    ]);
    expect(rbac.roles).toEqual([
      {
        name: 'system:cloud-controller-manager',
        namespace: 'kube-system',
        serviceAccounts: ['kube-system/cloud-controller-manager'],
        rules: [
          { apiGroups: ['coordination.k8s.io'], resources: ['leases'], resourceNames: ['cloud-controller-manager'], verbs: ['get', 'update'] },
          { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
          { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
        ],
      },
    ]);
  });

  test('least-privilege (true): the CCM keeps its informers and mints tokens for the client names the binary asks for, each bound to its own rules', () => {
    const rbac = ccmRbac({ provider: aws, useServiceAccountCredentials: true, namespace: 'kube-system', serviceAccount: 'cloud-controller-manager' });
    expect(rbac.profile).toBe('least-privilege');
    expect(rbac.clusterRoles.map((r) => [r.name, r.serviceAccounts])).toEqual([
      ['system:cloud-controller-manager', ['kube-system/cloud-controller-manager']],
      ['system:cloud-controller-manager:node-controller', ['kube-system/node-controller']],
      ['system:cloud-controller-manager:service-controller', ['kube-system/service-controller']],
      ['system:cloud-controller-manager:aws-cloud-provider', ['kube-system/aws-cloud-provider']],
    ]);
    // the CCM itself lists and watches what the shared informers cache, and writes nothing cluster-wide
    expect(rbac.clusterRoles[0].rules).toEqual([
      { apiGroups: [''], resources: ['nodes'], verbs: ['list', 'watch'] },
      { apiGroups: [''], resources: ['services'], verbs: ['list', 'watch'] },
      { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
      { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
    ]);
    expect(rbac.roles[1]).toEqual({
      name: 'system:cloud-controller-manager:controller-tokens',
      namespace: 'kube-system',
      serviceAccounts: ['kube-system/cloud-controller-manager'],
      rules: [
        { apiGroups: [''], resources: ['serviceaccounts'], verbs: ['create'] },
        {
          apiGroups: [''],
          resources: ['serviceaccounts'],
          resourceNames: ['aws-cloud-provider', 'node-controller', 'service-controller'],
          verbs: ['get'],
        },
        {
          apiGroups: [''],
          resources: ['serviceaccounts/token'],
          resourceNames: ['aws-cloud-provider', 'node-controller', 'service-controller'],
          verbs: ['create'],
        },
      ],
    });
    // the provider's own ServiceAccount is rendered; the controllers' are shared with the kube-controller-manager and never rendered
    expect(rbac.serviceAccounts).toEqual(['kube-system/aws-cloud-provider']);
    // the route controller's identity only with routes on
    const routes = ccmRbac({
      provider: aws,
      useServiceAccountCredentials: true,
      namespace: 'kube-system',
      serviceAccount: 'cloud-controller-manager',
      flags: ['--configure-cloud-routes=true'],
    });
    expect(routes.clusterRoles.map((r) => r.name)).toContain('system:cloud-controller-manager:route-controller');
  });

  test('provider extras follow the client that makes the call: Azure endpointslices to the informers, the resource lock to the provider client', () => {
    const rbac = ccmRbac({
      provider: UPSTREAM_PROVIDERS.Azure!,
      useServiceAccountCredentials: true,
      namespace: 'kube-system',
      serviceAccount: 'cloud-controller-manager',
    });
    const byName = Object.fromEntries(rbac.clusterRoles.map((r) => [r.name, r.rules.map((x) => `${x.apiGroups[0]}/${x.resources[0]}`)]));
    expect(byName['system:cloud-controller-manager']).toContain('discovery.k8s.io/endpointslices');
    expect(byName['system:cloud-controller-manager:service-controller']).not.toContain('discovery.k8s.io/endpointslices');
    expect(rbac.roles.find((r) => r.name === 'system:cloud-controller-manager:azure-cloud-provider')?.rules[0].resourceNames).toEqual([
      'aks-managed-resource-locker',
    ]);
  });

  test('the rendered objects switch with the knob and bind every ServiceAccount the roles name', () => {
    const superset = render(dir(), kubernetesSpec('AWS'));
    const least = render(dir(), kubernetesSpec('AWS', 'k', { useServiceAccountCredentials: true }));
    const names = (objects: any[]) =>
      objects
        .filter((o) => /Role/.test(o.kind))
        .map((o) => `${o.kind}/${o.metadata.name}`)
        .sort();
    expect(names(superset)).toEqual([
      'ClusterRole/system:cloud-controller-manager',
      'ClusterRoleBinding/system:cloud-controller-manager',
      'Role/system:cloud-controller-manager',
      'RoleBinding/cloud-controller-manager:apiserver-authentication-reader',
      'RoleBinding/system:cloud-controller-manager',
    ]);
    expect(names(least)).toHaveLength(13);
    expect(container(least).args).toContain('--use-service-account-credentials=true');
    expect(find(least, 'ClusterRoleBinding', 'system:cloud-controller-manager:service-controller').subjects).toEqual([
      { kind: 'ServiceAccount', name: 'service-controller', namespace: 'kube-system' },
    ]);
    for (const o of [...superset, ...least].filter((x) => x.kind === 'ClusterRole' || x.kind === 'Role')) {
      for (const rule of o.rules) {
        expect(rule.verbs).not.toContain('*');
        expect(rule.resources ?? []).not.toContain('*');
      }
    }
  });
});

describe('distribution kubernetes: scheduling presets', () => {
  const BOOT = [
    { key: 'node.cloudprovider.kubernetes.io/uninitialized', operator: 'Equal', value: 'true', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'CriticalAddonsOnly', operator: 'Exists' },
  ];
  const CP = [
    { key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node-role.kubernetes.io/master', operator: 'Exists', effect: 'NoSchedule' },
  ];
  const AFFINITY = {
    requiredDuringSchedulingIgnoredDuringExecution: {
      nodeSelectorTerms: [
        { matchExpressions: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists' }] },
        { matchExpressions: [{ key: 'node-role.kubernetes.io/master', operator: 'Exists' }] },
      ],
    },
  };

  test.each([
    ['kubeadm', [...BOOT, ...CP]],
    ['k3s', [...BOOT, ...CP]],
    ['rke2', [...BOOT, ...CP, { key: 'node-role.kubernetes.io/etcd', operator: 'Exists', effect: 'NoExecute' }]],
    [
      'openshift',
      [
        ...BOOT,
        CP[1],
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 120 },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 120 },
      ],
    ],
    ['all-taints', [{ operator: 'Exists' }]],
  ] as const)('preset %s: its tolerations, and affinity to either control-plane label whatever its value', (preset, tolerations) => {
    const plan = schedulingPlan(preset, []);
    expect(plan.tolerations).toEqual(tolerations);
    expect(plan.nodeAffinity).toEqual(AFFINITY);
    expect(plan.nodeSelector).toBeUndefined();
  });

  test('extra tolerations are appended once; a node selector replaces the affinity', () => {
    const extra = [{ key: 'dedicated', operator: 'Equal' as const, value: 'ccm', effect: 'NoSchedule' as const }, BOOT[2] as any];
    const plan = schedulingPlan('kubeadm', extra, { 'node-role.kubernetes.io/ccm': 'true' });
    expect(plan.tolerations).toEqual([...BOOT, ...CP, extra[0]]);
    expect(plan.nodeAffinity).toBeUndefined();
    expect(plan.nodeSelector).toEqual({ 'node-role.kubernetes.io/ccm': 'true' });
  });
});

describe('distribution kubernetes: knobs', () => {
  const dir = useTempDir();

  test('extraArgs replace a rendered flag in place and append the others sorted', () => {
    expect(mergeArgs(['--cloud-provider=aws', '--v=2'], { v: 4, 'node-monitor-period': '10s', 'concurrent-service-syncs': 2 })).toEqual([
      '--cloud-provider=aws',
      '--v=4',
      '--concurrent-service-syncs=2',
      '--node-monitor-period=10s',
    ]);
  });

  test('extraEnv and extraVolumes merge by name: same name replaces, new names append', () => {
    expect(
      mergeByName(
        [
          { name: 'A', value: '1' },
          { name: 'B', value: '2' },
        ],
        [
          { name: 'B', value: '3' },
          { name: 'C', value: '4' },
        ],
      ),
    ).toEqual([
      { name: 'A', value: '1' },
      { name: 'B', value: '3' },
      { name: 'C', value: '4' },
    ]);
  });

  test('a Deployment gets replicas, required hostname anti-affinity, a surge-free rollout and a PDB; a DaemonSet none of them', () => {
    const objects = render(dir(), kubernetesSpec('AWS', 'k', { workload: { kind: 'Deployment', replicas: 3 } }));
    const d = find(objects, 'Deployment');
    expect(d.spec.replicas).toBe(3);
    expect(d.spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } });
    expect(d.spec.template.spec.affinity.podAntiAffinity).toEqual({
      requiredDuringSchedulingIgnoredDuringExecution: [
        { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { 'k8s-app': 'aws-cloud-controller-manager' } } },
      ],
    });
    expect(find(objects, 'PodDisruptionBudget').spec).toEqual({
      maxUnavailable: 1,
      unhealthyPodEvictionPolicy: 'AlwaysAllow',
      selector: { matchLabels: { 'k8s-app': 'aws-cloud-controller-manager' } },
    });
    const ds = render(dir(), kubernetesSpec('AWS'));
    expect(find(ds, 'PodDisruptionBudget')).toBeUndefined();
    expect(workload(ds).spec.template.spec.affinity.podAntiAffinity).toBeUndefined();
    // single-replica topology: one replica, no PDB
    const sno = render(dir(), kubernetesSpec('Nutanix', 'k', {}, { controlPlaneTopology: 'SingleReplica' }));
    expect([find(sno, 'Deployment').spec.replicas, find(sno, 'PodDisruptionBudget')]).toEqual([1, undefined]);
  });

  test('every knob lands where it belongs', () => {
    const objects = render(
      dir(),
      kubernetesSpec(
        'AWS',
        'k',
        {
          namespace: 'cloud-system',
          hostNetwork: false,
          priorityClassName: 'system-node-critical',
          controllers: ['*', '-tagging'],
          configureCloudRoutes: true,
          allocateNodeCidrs: true,
          clusterCIDR: ['10.244.0.0/16', 'fd00:10:244::/56'],
          secureServing: { port: 10300 },
          extraArgs: { v: 5, 'concurrent-node-syncs': 4 },
          extraEnv: [{ name: 'AWS_REGION', value: 'eu-west-1' }],
          extraVolumes: [{ name: 'ca', mountPath: '/etc/pki/extra', configMap: 'corp-ca' }],
          resources: { requests: { cpu: '300m' }, limits: { memory: '512Mi' } },
          podLabels: { team: 'platform' },
          podAnnotations: { 'example.com/owner': 'platform' },
          serviceAccount: { annotations: { 'eks.amazonaws.com/role-arn': 'arn:aws:iam::1:role/ccm' }, labels: { team: 'platform' } },
          imagePullSecrets: ['mirror'],
        },
        { proxy: { httpsProxy: 'http://proxy:3128', noProxy: '.svc' } },
      ),
    );
    const w = workload(objects);
    const pod = w.spec.template.spec;
    expect(find(objects, 'Namespace', 'cloud-system')).toBeDefined();
    expect(container(objects).args).toEqual([
      '--cloud-provider=aws',
      '--controllers=*,-tagging',
      '--configure-cloud-routes=true',
      '--allocate-node-cidrs=true',
      '--cluster-cidr=10.244.0.0/16,fd00:10:244::/56',
      '--use-service-account-credentials=false',
      '--leader-elect=true',
      '--leader-elect-resource-namespace=cloud-system',
      '--bind-address=0.0.0.0',
      '--secure-port=10300',
      ...TLS,
      '--v=5',
      '--concurrent-node-syncs=4',
    ]);
    expect([pod.hostNetwork, pod.dnsPolicy, pod.priorityClassName, pod.imagePullSecrets]).toEqual([
      false,
      'ClusterFirst',
      'system-node-critical',
      [{ name: 'mirror' }],
    ]);
    expect(container(objects).livenessProbe.httpGet).toEqual({ path: '/healthz', port: 10300, scheme: 'HTTPS' });
    expect(container(objects).env).toEqual([
      { name: 'HTTPS_PROXY', value: 'http://proxy:3128' },
      { name: 'NO_PROXY', value: '.svc' },
      { name: 'AWS_ROLE_ARN', value: 'arn:aws:iam::1:role/ccm' },
      { name: 'AWS_WEB_IDENTITY_TOKEN_FILE', value: '/var/run/secrets/eks.amazonaws.com/serviceaccount/token' },
      { name: 'AWS_REGION', value: 'eu-west-1' },
    ]);
    expect(container(objects).volumeMounts).toEqual([
      { name: 'aws-iam-token', mountPath: '/var/run/secrets/eks.amazonaws.com/serviceaccount', readOnly: true },
      { name: 'ca', mountPath: '/etc/pki/extra', readOnly: true },
    ]);
    expect(pod.volumes).toEqual([
      {
        name: 'aws-iam-token',
        projected: { sources: [{ serviceAccountToken: { audience: 'sts.amazonaws.com', expirationSeconds: 86400, path: 'token' } }] },
      },
      { name: 'ca', configMap: { name: 'corp-ca' } },
    ]);
    expect(container(objects).resources).toEqual({ requests: { cpu: '300m', memory: '50Mi' }, limits: { memory: '512Mi' } });
    expect(w.spec.template.metadata.labels).toEqual({ team: 'platform', 'k8s-app': 'aws-cloud-controller-manager' });
    expect(w.spec.template.metadata.annotations['example.com/owner']).toBe('platform');
    expect(find(objects, 'ServiceAccount').metadata).toEqual({
      name: 'cloud-controller-manager',
      namespace: 'cloud-system',
      labels: { team: 'platform' },
      annotations: { 'eks.amazonaws.com/role-arn': 'arn:aws:iam::1:role/ccm', 'argocd.argoproj.io/sync-wave': '1' },
    });
    expect(find(objects, 'Role', 'system:cloud-controller-manager').metadata.namespace).toBe('cloud-system');
  });

  test('an extra volume named like a rendered one replaces it (e.g. a cloud config from a hostPath)', () => {
    const objects = render(
      dir(),
      kubernetesSpec('OpenStack', 'k', { extraVolumes: [{ name: 'cloud-config', mountPath: '/etc/config', hostPath: '/etc/kubernetes/openstack' }] }),
    );
    expect(workload(objects).spec.template.spec.volumes).toEqual([{ name: 'cloud-config', hostPath: { path: '/etc/kubernetes/openstack' } }]);
  });

  test('metrics: a Service on the secure port, a ServiceMonitor over HTTPS, the reader ClusterRole bound to the scraper', () => {
    const objects = render(
      dir(),
      kubernetesSpec('AWS', 'k', { metrics: { enabled: true, serviceMonitor: true, scraper: 'monitoring/prometheus-k8s' } }),
    );
    expect(container(objects).args).toContain('--bind-address=0.0.0.0');
    expect(find(objects, 'Service').spec.ports).toEqual([{ name: 'https', port: 10258, targetPort: 'https', protocol: 'TCP' }]);
    expect(find(objects, 'ServiceMonitor').spec.endpoints[0]).toMatchObject({ port: 'https', scheme: 'https', path: '/metrics' });
    expect(find(objects, 'ClusterRole', 'aws-cloud-controller-manager:metrics-reader').rules).toEqual([
      { nonResourceURLs: ['/metrics'], verbs: ['get'] },
    ]);
    expect(find(objects, 'ClusterRoleBinding', 'aws-cloud-controller-manager:metrics-reader').subjects).toEqual([
      { kind: 'ServiceAccount', name: 'prometheus-k8s', namespace: 'monitoring' },
    ]);
  });

  test('an inline cloud config becomes a ConfigMap whose content rolls the pods', () => {
    const a = render(dir(), kubernetesSpec('VSphere', 'k', {}, { cloudConfig: { file: 'v.conf' } }), {
      'v.conf': 'global:\n  port: 443\n  secretNamespace: kube-system\n',
    });
    const b = render(dir(), kubernetesSpec('VSphere', 'k', {}, { cloudConfig: { file: 'v.conf' } }), {
      'v.conf': 'global:\n  port: 8443\n  secretNamespace: kube-system\n',
    });
    expect(find(a, 'ConfigMap', 'vsphere-cloud-config').data).toEqual({ 'vsphere.conf': 'global:\n  port: 443\n  secretNamespace: kube-system\n' });
    const hash = (o: any[]) => workload(o).spec.template.metadata.annotations['ccm-gitops.io/config-hash'];
    expect(hash(a)).not.toBe(hash(b));
  });
});

describe('distribution kubernetes: validation', () => {
  const dir = useTempDir();

  test.each([
    [
      'OpenShift-only fields',
      kubernetesSpec(
        'AWS',
        'k',
        {},
        { infrastructureName: 'x', managementMode: 'operator', featureGates: { enabled: ['Foo'] }, aws: { region: 'us-east-1' } },
      ),
      [
        'c.yaml:21: spec.infrastructureName: is the OpenShift Infrastructure name and is not read with distribution kubernetes; remove it',
        'c.yaml:22: spec.managementMode: "operator" is OpenShift\'s operator mode; distribution kubernetes renders the CCM directly: remove the field or set "gitops"',
        'c.yaml:23: spec.featureGates: lists OpenShift FeatureGate status, which distribution kubernetes does not read; pass upstream gates as spec.kubernetes.extraArgs.feature-gates',
        'c.yaml:26: spec.aws: is read by the OpenShift cloud-config transform and is not read with distribution kubernetes; put these settings in the cloud config file',
      ],
    ],
    [
      'spec.openshift (the OpenShift release and feature set)',
      kubernetesSpec('AWS', 'k', {}, { openshift: { release: '4.18.3' } }),
      ['c.yaml:21: spec.openshift: is the OpenShift release and feature set and is not read with distribution kubernetes; remove it'],
    ],
    [
      'an OpenShift-only platform',
      kubernetesSpec('IBMCloud'),
      [
        'c.yaml:7: spec.platform: "IBMCloud" is rendered for distribution openshift only; the kubernetes distribution renders AWS, AlibabaCloud, Azure, DigitalOcean, EquinixMetal, GCP, Nutanix, OpenStack, VSphere',
      ],
    ],
    [
      'no spec.kubernetes',
      { ...kubernetesSpec('AWS'), spec: { ...(kubernetesSpec('AWS').spec as object), kubernetes: undefined } },
      [
        'c.yaml:5: spec.kubernetes: is required with distribution kubernetes; set at least spec.kubernetes.version (the cluster\'s Kubernetes minor, e.g. "1.33")',
      ],
    ],
    [
      'DaemonSet knobs and leader election',
      kubernetesSpec('AWS', 'k', { workload: { replicas: 2, podDisruptionBudget: true }, leaderElect: false }),
      [
        'c.yaml:22: spec.kubernetes.workload.replicas: applies to a Deployment only; a DaemonSet runs one pod per matching node: remove it or set workload.kind: Deployment',
        'c.yaml:23: spec.kubernetes.workload.podDisruptionBudget: applies to a Deployment only; remove it or set workload.kind: Deployment',
        'c.yaml:24: spec.kubernetes.leaderElect: is false with a DaemonSet: several CCMs would reconcile at once; keep leader election, or run one Deployment replica',
      ],
    ],
    [
      'a PDB over one replica, node CIDRs without a CIDR',
      kubernetesSpec('Nutanix', 'k', { workload: { replicas: 1, podDisruptionBudget: true }, allocateNodeCidrs: true }),
      [
        'c.yaml:19: spec.kubernetes.clusterCIDR: is required with allocateNodeCidrs: true; set the pod network CIDR(s)',
        'c.yaml:23: spec.kubernetes.workload.podDisruptionBudget: with 1 replica would block every node drain; set replicas to 2 or more, or remove it',
      ],
    ],
    [
      'extraArgs that a knob owns, or that carry a credential',
      kubernetesSpec('AWS', 'k', {
        extraArgs: { 'use-service-account-credentials': true, 'api-token': 'abc', 'tls-private-key-file': '/etc/tls/key.pem' },
      }),
      [
        'c.yaml:22: spec.kubernetes.extraArgs.use-service-account-credentials: is rendered from spec.kubernetes.useServiceAccountCredentials; set it there (it changes more than the flag)',
        'c.yaml:23: spec.kubernetes.extraArgs.api-token: looks like a credential; flags are committed to git: put it in a Secret and mount it (spec.kubernetes.extraVolumes)',
      ],
    ],
    [
      'extraEnv with a literal credential or no value',
      kubernetesSpec('AWS', 'k', { extraEnv: [{ name: 'AWS_SECRET_ACCESS_KEY', value: 'x' }, { name: 'EMPTY' }] }),
      [
        'c.yaml:23: spec.kubernetes.extraEnv.0.value: "AWS_SECRET_ACCESS_KEY" looks like a credential; env values are committed to git: use valueFrom.secretKeyRef',
        'c.yaml:24: spec.kubernetes.extraEnv.1: "EMPTY" must have exactly one of value or valueFrom (with one of secretKeyRef, configMapKeyRef, fieldRef)',
      ],
    ],
    [
      'a namespace every cluster has, which the PodSecurity label would open to privileged pods',
      kubernetesSpec('AWS', 'k', { namespace: 'default' }),
      [
        'c.yaml:21: spec.kubernetes.namespace: "default" is a namespace every cluster has and other workloads use; the renderer labels its namespace with the PodSecurity level the CCM needs (privileged on the host network), which would admit every pod there at that level: use kube-system or a namespace of its own',
      ],
    ],
    [
      'hostCertificates on RKE2, whose nodes have no /etc/kubernetes/pki',
      kubernetesSpec('OpenStack', 'k', { hostCertificates: true, scheduling: { preset: 'rke2' } }),
      [
        "c.yaml:21: spec.kubernetes.hostCertificates: mounts the node's /etc/kubernetes/pki (hostPath type Directory), which rke2 nodes lack (their certificates are in /var/lib/rancher/rke2/server/tls): the pod never starts; remove it and mount /var/lib/rancher/rke2/server/tls with spec.kubernetes.extraVolumes (hostPath) where a CA file is needed",
      ],
    ],
    [
      'Nutanix extraEnv overriding the POD_NAMESPACE its informers and Role follow',
      kubernetesSpec('Nutanix', 'k', { extraEnv: [{ name: 'POD_NAMESPACE', value: 'nutanix-system' }] }),
      [
        'c.yaml:22: spec.kubernetes.extraEnv.0.name: "POD_NAMESPACE" is set from the pod\'s metadata.namespace, where the Nutanix CCM\'s Role is granted; another value leaves the CCM without access there: remove it (to run elsewhere, set spec.kubernetes.namespace)',
      ],
    ],
    [
      'a token provider given an inline file or a ConfigMap',
      kubernetesSpec('DigitalOcean', 'k', { cloudConfig: { existingConfigMap: 'x' } }, { cloudConfig: { file: 't.txt' } }),
      [
        'c.yaml:22: spec.kubernetes.cloudConfig.existingConfigMap: is refused for DigitalOcean: its API token is a credential; keep it in a Secret (existingSecret)',
        'c.yaml:24: spec.cloudConfig.file: is refused for DigitalOcean: its API token always holds a credential; create a Secret and name it in spec.kubernetes.cloudConfig.existingSecret',
      ],
    ],
    [
      'controller-runtime Alibaba with cloud-provider knobs',
      kubernetesSpec('AlibabaCloud', 'k', { useServiceAccountCredentials: true, metrics: { enabled: true } }),
      [
        'c.yaml:21: spec.kubernetes.useServiceAccountCredentials: is not supported: the AlibabaCloud CCM is built on controller-runtime, not k8s.io/cloud-provider; remove it',
        'c.yaml:23: spec.kubernetes.metrics.enabled: is not supported: the AlibabaCloud CCM is built on controller-runtime, not k8s.io/cloud-provider (its metrics listener is off, --metrics-bind-addr=0); remove it',
      ],
    ],
    [
      'manifest-dir with a GitOps engine',
      kubernetesSpec('AWS', 'k', { output: { mode: 'manifest-dir' } }, { gitops: { engine: 'argocd', repoURL: 'https://git.example.com/x.git' } }),
      [
        'c.yaml:24: spec.gitops.engine: "argocd" cannot apply output mode manifest-dir: k3s/RKE2 apply server/manifests themselves; set engine plain or output.mode plain',
      ],
    ],
    [
      'a missing image',
      (() => {
        const s = kubernetesSpec('GCP') as any;
        delete s.spec.images.cloudControllerManagerGCP;
        return s;
      })(),
      [
        'c.yaml:8: spec.images.cloudControllerManagerGCP: is required for platform GCP; pin the upstream image by digest or explicit tag (ccm-gitops never derives it from the Kubernetes version)',
      ],
    ],
  ])('%s: one error per field, with the fix', (_name, spec, expected) => {
    writeFile(dir(), 'c.yaml', spec as Record<string, unknown>);
    writeFile(dir(), 't.txt', 'token\n');
    expect(fleetProblems(dir())).toEqual(expected);
  });

  test('a credential in an inline cloud config is refused, pointing at an existing Secret', () => {
    writeFile(dir(), 'c.conf', '[Global]\nauth-url = https://keystone\napplication-credential-secret = s3cr3t\n');
    writeFile(dir(), 'c.yaml', kubernetesSpec('OpenStack', 'k', {}, { cloudConfig: { file: 'c.conf' } }));
    expect(fleetProblems(dir())).toEqual([
      "c.conf:3: cluster k: 'application-credential-secret' (line 3) holds a credential; remove it: the OpenStack cloud controller manager reads its credentials from key cloud.conf " +
        'of Secret cloud-config, or of the Secret named in spec.kubernetes.cloudConfig.existingSecret, and credentials never go into git',
    ]);
  });

  test('an empty inline cloud config is an error, not a silent fallback to the default Secret', () => {
    writeFile(dir(), 'c.conf', '\n');
    writeFile(dir(), 'c.yaml', kubernetesSpec('AWS', 'k', {}, { cloudConfig: { file: 'c.conf' } }));
    expect(fleetProblems(dir())).toEqual([
      "c.conf: cluster k: is empty; fill it, or remove spec.cloudConfig.file to read the provider's existing config object",
    ]);
  });

  test('spec.kubernetes is refused with distribution openshift', () => {
    writeFile(dir(), 'c.yaml', {
      ...kubernetesSpec('AWS'),
      spec: { ...(kubernetesSpec('AWS').spec as object), distribution: 'openshift', infrastructureName: 'k-1' },
    });
    expect(fleetProblems(dir())).toContain(
      'c.yaml:19: spec.kubernetes: holds the knobs of distribution kubernetes; remove it, or set spec.distribution: kubernetes',
    );
  });
});

describe('distribution kubernetes: output modes and the control plane', () => {
  const dir = useTempDir();

  function files(spec: Record<string, unknown>): Record<string, string> {
    writeFile(dir(), 'c.yaml', spec);
    const [cluster] = loadFleet(dir()).clusters;
    return Object.fromEntries(renderCluster(cluster).files.map((f) => [f.path, f.content]));
  }
  const stripWave = (o: any) => {
    const { annotations, ...metadata } = o.metadata;
    const rest = Object.fromEntries(Object.entries(annotations ?? {}).filter(([k]) => k !== 'argocd.argoproj.io/sync-wave'));
    return { ...o, metadata: Object.keys(rest).length > 0 ? { ...metadata, annotations: rest } : metadata };
  };
  const plainObjects = (f: Record<string, string>) =>
    Object.entries(f)
      .filter(([p]) => /^k\/0\d-[^/]+\/(?!kustomization)/.test(p))
      .map(([, c]) => stripWave(parse(c)));

  test('cluster-resource-set: one ConfigMap per stage holding exactly the plain objects, listed in apply order', () => {
    // two replicas, so the policies stage (the PDB) is there too
    const plain = plainObjects(files(kubernetesSpec('Azure', 'k', { workload: { replicas: 2 } })));
    const crs = files(
      kubernetesSpec('Azure', 'k', {
        workload: { replicas: 2 },
        output: { mode: 'cluster-resource-set', clusterResourceSet: { namespace: 'capi', strategy: 'ApplyOnce' } },
      }),
    );
    expect(
      Object.keys(crs)
        .filter((p) => /ya?ml$/.test(p) && !p.endsWith('kustomization.yaml'))
        .sort(),
    ).toEqual([
      'k/03-config/configmap.capi.ccm-k-01-namespaces-rbac.yaml',
      'k/03-config/configmap.capi.ccm-k-04-workloads.yaml',
      'k/03-config/configmap.capi.ccm-k-05-policies.yaml',
      'k/04-workloads/clusterresourceset.capi.ccm-k.yaml',
    ]);
    const set = parse(crs['k/04-workloads/clusterresourceset.capi.ccm-k.yaml']);
    expect(set.spec).toEqual({
      clusterSelector: { matchLabels: { 'ccm-gitops.io/cluster': 'k' } },
      strategy: 'ApplyOnce',
      resources: ['01-namespaces-rbac', '04-workloads', '05-policies'].map((s) => ({ kind: 'ConfigMap', name: `ccm-k-${s}` })),
    });
    const inner = ['01-namespaces-rbac', '04-workloads', '05-policies'].flatMap((s) => {
      const cm = parse(crs[`k/03-config/configmap.capi.ccm-k-${s}.yaml`]);
      return parseAllDocuments(cm.data[`${s}.yaml`]).map((d) => d.toJS());
    });
    const key = (o: any) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
    expect(inner.map(key).sort()).toEqual(plain.map(key).sort());
    expect(inner.sort((a, b) => (key(a) < key(b) ? -1 : 1))).toEqual(plain.sort((a, b) => (key(a) < key(b) ? -1 : 1)));
  });

  test('cluster-resource-set with resources: the Secrets and ConfigMaps it carries (the credential Secret) are listed after the stages, in the given order', () => {
    // GIVEN the credential Secret (type addons.cluster.x-k8s.io/resource-set) and a ConfigMap kept on the management cluster
    const resources = [
      { kind: 'Secret', name: 'k-azure-cloud-provider' },
      { kind: 'ConfigMap', name: 'k-extra' },
    ];
    const crs = files(
      kubernetesSpec('Azure', 'k', { output: { mode: 'cluster-resource-set', clusterResourceSet: { namespace: 'capi', resources } } }),
    );
    // THEN the ClusterResourceSet lists them after its own ConfigMaps; they are not rendered
    expect(parse(crs['k/04-workloads/clusterresourceset.capi.ccm-k.yaml']).spec.resources).toEqual([
      ...['01-namespaces-rbac', '04-workloads'].map((s) => ({ kind: 'ConfigMap', name: `ccm-k-${s}` })),
      ...resources,
    ]);
    expect(Object.keys(crs).filter((p) => p.includes('k-azure-cloud-provider') || p.includes('k-extra'))).toEqual([]);
  });

  test('cluster-resource-set resources: a name listed twice, or one of the rendered stage ConfigMaps, is refused', () => {
    writeFile(
      dir(),
      'c.yaml',
      kubernetesSpec('AWS', 'k', {
        output: {
          mode: 'cluster-resource-set',
          clusterResourceSet: {
            resources: [
              { kind: 'Secret', name: 'creds' },
              { kind: 'Secret', name: 'creds' },
              { kind: 'ConfigMap', name: 'ccm-k-04-workloads' },
            ],
          },
        },
      }),
    );
    expect(fleetProblems(dir())).toEqual([
      'c.yaml:27: spec.kubernetes.output.clusterResourceSet.resources.1: Secret "creds" is listed twice; list each once',
      'c.yaml:29: spec.kubernetes.output.clusterResourceSet.resources.2: ConfigMap "ccm-k-04-workloads" is a name the renderer gives its own stage ConfigMaps (ccm-k-<stage>); rename it',
    ]);
  });

  test('manifest-dir: one file, stages in order, no sync waves, and the k3s/RKE2 server config in CONTROL-PLANE.md', () => {
    const out = files(kubernetesSpec('VSphere', 'k', { scheduling: { preset: 'rke2' }, output: { mode: 'manifest-dir' } }));
    expect(Object.keys(out).sort()).toEqual(['k/CONTROL-PLANE.md', 'k/kustomization.yaml', 'k/manifests/ccm-gitops-k.yaml']);
    const docs = parseAllDocuments(out['k/manifests/ccm-gitops-k.yaml']).map((d) => d.toJS());
    expect(docs.map((d) => d.kind)).toEqual([
      'ClusterRole',
      'ClusterRoleBinding',
      'Role',
      'RoleBinding',
      'RoleBinding',
      'ServiceAccount',
      'DaemonSet',
    ]);
    expect(out['k/manifests/ccm-gitops-k.yaml']).not.toContain('sync-wave');
    expect(out['k/CONTROL-PLANE.md']).toContain(
      'disable-cloud-controller: true\nkube-controller-manager-arg:\n  - cloud-provider=external\nkubelet-arg:\n  - cloud-provider=external\n',
    );
    expect(out['k/CONTROL-PLANE.md']).toContain(
      'Copy `dist/k/manifests/ccm-gitops-k.yaml` to `/var/lib/rancher/rke2/server/manifests/` on every server node',
    );
  });

  test('the pull-request diff reads the manifest-dir bundle object by object', () => {
    const tree = (image: string) => {
      const spec = kubernetesSpec('VSphere', 'k', { output: { mode: 'manifest-dir' } }) as any;
      spec.spec.images.cloudControllerManagerVSphere = image;
      writeFile(dir(), 'c.yaml', spec);
      return new Map(renderFleet(loadFleet(dir())).map((f) => [f.path, f.content]));
    };
    const diff = diffTrees(tree('registry.example.com/vsphere:v1.32.0'), tree('registry.example.com/vsphere:v1.33.0'));
    const changes = [...diff.clusters.values()].flat();
    expect(changes.map((c) => [c.state, c.object])).toEqual([['changed', 'DaemonSet kube-system/vsphere-cloud-controller-manager']]);
  });

  test('CONTROL-PLANE.md prints the Cluster API patch of the API the ClusterResourceSet uses: v1beta2 extra args by name, v1beta1 as a map', () => {
    // GIVEN the same cluster rendered as a v1beta2 and a v1beta1 ClusterResourceSet
    const crs = (apiVersion: string) =>
      files(kubernetesSpec('AWS', 'k', { output: { mode: 'cluster-resource-set', clusterResourceSet: { apiVersion } } }))['k/CONTROL-PLANE.md'];
    const v1beta2 = crs('v1beta2');
    const v1beta1 = crs('v1beta1');
    // THEN v1beta2 appends name/value entries and says how to patch a KubeadmControlPlane that already has some
    expect(v1beta2).toContain(
      'path: /spec/kubeadmConfigSpec/clusterConfiguration/controllerManager/extraArgs/-\n  value:\n    name: cloud-provider\n    value: external',
    );
    expect(v1beta2).not.toContain('value: []');
    expect(v1beta2).toContain(
      'ccm-gitops migration control-plane --platform AWS --phase external --kubernetes-version 1.33 --format cluster-api --cluster-api v1beta2 --current kcp.yaml',
    );
    // AND v1beta1 keeps the map form
    expect(v1beta1).toContain('path: /spec/kubeadmConfigSpec/clusterConfiguration/controllerManager/extraArgs/cloud-provider\n  value: external');
    expect(v1beta1).not.toContain('--cluster-api v1beta2');
  });

  test('CONTROL-PLANE.md gives the kubeadm v1beta4 change to external for 1.31+, and v1beta3 before', () => {
    const v133 = files(kubernetesSpec('AWS'))['k/CONTROL-PLANE.md'];
    expect(v133).toContain(
      'apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\ncontrollerManager:\n  extraArgs:\n    - name: cloud-provider\n      value: external',
    );
    expect(v133).toContain('kubectl patch kubeadmcontrolplane k-control-plane --type=json');
    const v130 = files(kubernetesSpec('AWS', 'k', { version: '1.30' }))['k/CONTROL-PLANE.md'];
    expect(v130).toContain(
      'apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\ncontrollerManager:\n  extraArgs:\n    cloud-provider: external',
    );
  });

  test('leader migration on kubeadm: the CCM joins in kube-system, the lease RBAC names both controller managers, the plan and snippets follow the phase', () => {
    const out = files(kubernetesSpec('AWS', 'k', { version: '1.26' }, { migration: { phase: 'leader-migration-ccm', kubernetesVersion: '1.26' } }));
    const cm = parse(out['k/03-config/configmap.kube-system.ccm-leader-migration.yaml']);
    // the CCM's own file names cloud-controller-manager; the KCM's (in CONTROL-PLANE.md) names kube-controller-manager
    expect(parse(cm.data['config.yaml']).controllerLeaders[0]).toEqual({ name: 'route', component: 'cloud-controller-manager' });
    expect(out['k/CONTROL-PLANE.md']).toContain('#       component: kube-controller-manager');
    const binding = parse(out['k/05-policies/rolebinding.kube-system.cloud-provider-leader-migration.yaml']);
    expect(binding.subjects).toContainEqual({ kind: 'ServiceAccount', name: 'cloud-controller-manager', namespace: 'kube-system' });
    const args = parse(out['k/04-workloads/daemonset.kube-system.aws-cloud-controller-manager.yaml']).spec.template.spec.containers[0].args;
    expect(args).toEqual(expect.arrayContaining(['--enable-leader-migration', '--leader-migration-config=/etc/leader-migration/config.yaml']));
    expect(out['k/CONTROL-PLANE.md']).toContain('enable-leader-migration: "true"');
    expect(out['k/MIGRATION.md']).toContain('leader-migration-ccm');
    // the can-i check impersonates the kubernetes distribution's CCM, not OpenShift's
    expect(out['k/MIGRATION.md']).toContain('--as=system:serviceaccount:kube-system:cloud-controller-manager');
    expect(out['k/MIGRATION.md']).not.toContain('openshift');
  });

  test('migration rules per provider: Azure goes in-tree → external, DigitalOcean never had an in-tree provider', () => {
    writeFile(
      dir(),
      'a.yaml',
      kubernetesSpec('Azure', 'a', { version: '1.30' }, { migration: { phase: 'leader-migration-kcm', kubernetesVersion: '1.30' } }),
    );
    writeFile(dir(), 'd.yaml', kubernetesSpec('DigitalOcean', 'd', {}, { migration: { phase: 'in-tree', kubernetesVersion: '1.33' } }));
    const problems = fleetProblems(dir());
    expect(problems.some((p) => p.startsWith('a.yaml') && p.includes('spec.migration.phase'))).toBe(true);
    expect(problems.some((p) => p.startsWith('d.yaml') && p.includes('spec.migration.phase'))).toBe(true);
  });
});

describe('distribution kubernetes: the example clusters', () => {
  test('never put a Secret or a credential into the output, and every workload sets requests', () => {
    const out = renderFleet(loadFleet(path.join(REPO, 'clusters')));
    const k8s = out.filter((f) => /^k8s-/.test(f.path) && /\.ya?ml$/.test(f.path) && !f.path.endsWith('kustomization.yaml'));
    expect(k8s.length).toBeGreaterThan(40);
    for (const f of k8s) {
      for (const doc of parseAllDocuments(f.content).map((d) => d.toJS())) {
        expect(doc.kind).not.toBe('Secret');
        if (doc.kind === 'Deployment' || doc.kind === 'DaemonSet') {
          for (const c of doc.spec.template.spec.containers) {
            expect(Object.keys(c.resources.requests).sort()).toEqual(['cpu', 'memory']);
          }
        }
      }
      expect(f.content).not.toMatch(/(password|secret|token|apiKey)[ \t]*[:=][ \t]*\S{6,}/i);
    }
  });

  test("docs/kubernetes.md compares this distribution's defaults with each upstream chart", () => {
    const readme = fs.readFileSync(path.join(REPO, 'docs', 'kubernetes.md'), 'utf8');
    for (const p of ['AWS', 'Azure', 'GCP', 'vSphere', 'OpenStack', 'Alibaba', 'Nutanix', 'DigitalOcean', 'Equinix Metal']) {
      expect(readme).toMatch(new RegExp(`\\| ${p} \\|`));
    }
  });
});

describe('distribution kubernetes: Pod Security labels on the namespace ccm-gitops renders', () => {
  const dir = useTempDir();
  const labels = (objects: any[]) => find(objects, 'Namespace', 'cloud-system').metadata.labels;

  test('GIVEN the CCM on the host network in cloud-system THEN the namespace enforces, audits and warns at privileged', () => {
    expect(labels(render(dir(), kubernetesSpec('AWS', 'k', { namespace: 'cloud-system' })))).toEqual({
      'pod-security.kubernetes.io/enforce': 'privileged',
      'pod-security.kubernetes.io/audit': 'privileged',
      'pod-security.kubernetes.io/warn': 'privileged',
    });
  });

  test('GIVEN the CCM off the host network (no host paths, root allowed) THEN baseline', () => {
    expect(
      labels(render(dir(), kubernetesSpec('AWS', 'k', { namespace: 'cloud-system', hostNetwork: false })))['pod-security.kubernetes.io/enforce'],
    ).toBe('baseline');
  });

  test("GIVEN kube-system THEN no Namespace is rendered (the cluster's own, with its admission defaults)", () => {
    expect(render(dir(), kubernetesSpec('AWS')).filter((o: any) => o.kind === 'Namespace')).toEqual([]);
  });
});

describe('distribution kubernetes: warnings on the namespace and the replicas', () => {
  const NAMESPACE_WARNING =
    'spec.kubernetes.namespace: "monitoring" is rendered as a Namespace labelled with the Pod Security level the CCM\'s pods need (privileged on the host network or with host paths); if it already exists, every other pod in it is admitted at that level and its own Pod Security labels are replaced: give the CCM a namespace of its own';

  test('GIVEN a namespace other than kube-system THEN one warning says the rendered Namespace and its labels take it over if it exists', () => {
    expect(kubernetesWarnings(parsedSpec(kubernetesSpec('AWS', 'k', { namespace: 'monitoring' })))).toEqual([NAMESPACE_WARNING]);
  });

  test('GIVEN kube-system THEN no namespace warning (its labels are left alone)', () => {
    expect(kubernetesWarnings(parsedSpec(kubernetesSpec('AWS', 'k')))).toEqual([]);
  });

  test('GIVEN a Deployment of 4 replicas kept on the control plane THEN one warning: each needs a control-plane node of its own', () => {
    expect(kubernetesWarnings(parsedSpec(kubernetesSpec('Azure', 'k', { workload: { replicas: 4 } })))).toEqual([
      'spec.kubernetes.workload.replicas: is 4 and each replica needs a control-plane node of its own (required anti-affinity on the hostname, the host network port); a highly available control plane has 3 nodes, so 1 would stay Pending unless the cluster has 4: set 3 or fewer, or schedule off the control plane (spec.kubernetes.scheduling.nodeSelector)',
    ]);
  });

  test('GIVEN 3 replicas, or 4 scheduled on any node THEN no replicas warning', () => {
    expect(kubernetesWarnings(parsedSpec(kubernetesSpec('Azure', 'k', { workload: { replicas: 3 } })))).toEqual([]);
    expect(
      kubernetesWarnings(parsedSpec(kubernetesSpec('Azure', 'k', { workload: { replicas: 4 }, scheduling: { nodeSelector: { pool: 'infra' } } }))),
    ).toEqual([]);
  });
});
