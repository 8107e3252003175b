/**
 * The `kubernetes` distribution against what the upstream binaries do at run
 * time: each test names the upstream file that shows the fact.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'yaml';
import { renderCluster } from '../src/pipeline/render';
import { UPSTREAM_PROVIDERS } from '../src/kubernetes/providers';
import { loadFleet } from '../src/fleet/load';
import { minorSkewProblem } from '../src/util/version-skew';
import { fleetProblems, kubernetesSpec, useTempDir, writeFile, renderSpec, findObject } from './helpers';
import { DIGITALOCEAN_UPSTREAM_PLACEMENT, extraTolerations, placementProblems } from './oracle';

const REPO = path.resolve(__dirname, '..');

const render = renderSpec;
const find = findObject;
const workload = (objects: any[]) =>
  objects.find((o) => (o.kind === 'Deployment' || o.kind === 'DaemonSet') && /cloud-controller-manager$/.test(o.metadata.name));
const container = (objects: any[]) => workload(objects).spec.template.spec.containers[0];

/**
 * A small RBAC authorizer over rendered objects (ServiceAccount subjects,
 * Role/ClusterRole rules with resourceNames; RoleBindings limit a ClusterRole
 * to their namespace). The full oracle lives in test/oracle.
 */
function allows(
  objects: any[],
  sa: string,
  verb: string,
  resource: string,
  opts: { group?: string; namespace?: string; name?: string } = {},
): boolean {
  const [saNs, saName] = sa.split('/');
  const group = opts.group ?? '';
  const ruleAllows = (r: any) =>
    r.apiGroups.includes(group) &&
    r.resources.includes(resource) &&
    r.verbs.includes(verb) &&
    (!r.resourceNames || (opts.name !== undefined && r.resourceNames.includes(opts.name)));
  const roleRules = (kind: string, name: string, ns?: string) => {
    const role = objects.find((o) => o.kind === kind && o.metadata.name === name && (kind === 'ClusterRole' || o.metadata.namespace === ns));
    return role?.rules ?? [];
  };
  return objects.some((b) => {
    if (b.kind !== 'ClusterRoleBinding' && b.kind !== 'RoleBinding') {
      return false;
    }
    if (!b.subjects.some((s: any) => s.kind === 'ServiceAccount' && s.name === saName && s.namespace === saNs)) {
      return false;
    }
    if (b.kind === 'RoleBinding' && b.metadata.namespace !== opts.namespace) {
      return false;
    }
    return roleRules(b.roleRef.kind, b.roleRef.name, b.metadata.namespace).some(ruleAllows);
  });
}

const CCM = 'kube-system/cloud-controller-manager';

describe('defect 1: the entrypoint of each image', () => {
  const dir = useTempDir();

  test('every provider records how its image starts the binary, with the Dockerfile it comes from', () => {
    for (const p of Object.values(UPSTREAM_PROVIDERS)) {
      expect([p.name, p.entrypoint.kind === 'binary' || p.entrypoint.kind === 'cmd', /@.+ .*Dockerfile|Makefile/.test(p.entrypoint.source)]).toEqual([
        p.name,
        true,
        true,
      ]);
    }
  });

  test('OpenStack (go-runner ENTRYPOINT, binary only in CMD): args start with the binary path, as the upstream chart does', () => {
    // GIVEN OpenStack with default knobs WHEN it renders
    const c = container(render(dir(), kubernetesSpec('OpenStack')));
    // THEN the binary comes first, the flags after it, no command override
    expect(c.args[0]).toBe('/bin/openstack-cloud-controller-manager');
    expect(c.args[1]).toBe('--cloud-provider=openstack');
    expect(c.command).toBeUndefined();
  });

  test('images whose ENTRYPOINT is the binary get flags only', () => {
    for (const platform of ['AWS', 'Azure', 'GCP', 'VSphere', 'AlibabaCloud', 'Nutanix', 'DigitalOcean', 'EquinixMetal']) {
      expect([platform, container(render(dir(), kubernetesSpec(platform))).args[0].startsWith('--')]).toEqual([platform, true]);
    }
  });

  test('the command knob sets the container command; args are then the flags only', () => {
    const c = container(render(dir(), kubernetesSpec('OpenStack', 'k', { command: ['/usr/local/bin/occm'] })));
    expect(c.command).toEqual(['/usr/local/bin/occm']);
    expect(c.args[0]).toBe('--cloud-provider=openstack');
  });
});

describe('defect 2: the Azure cloud-node-manager serves no port', () => {
  const dir = useTempDir();

  test('no liveness probe and no port (kubernetes-sigs/cloud-provider-azure cmd/cloud-node-manager/app/options/options.go: defaultCloudNodeManagerPort = 0)', () => {
    const cnm = find(render(dir(), kubernetesSpec('Azure')), 'DaemonSet', 'azure-cloud-node-manager').spec.template.spec.containers[0];
    expect(cnm.livenessProbe).toBeUndefined();
    expect(cnm.ports).toBeUndefined();
  });
});

describe('defects 3, 4: lease names come from the binary', () => {
  const dir = useTempDir();

  test.each([false, true])('Azure may lock Lease kube-system/aks-managed-resource-locker (useServiceAccountCredentials %s)', (usac) => {
    // GIVEN Azure in either profile WHEN it renders
    const objects = render(dir(), kubernetesSpec('Azure', 'k', { useServiceAccountCredentials: usac }));
    const who = usac ? 'kube-system/azure-cloud-provider' : CCM;
    // THEN the identity of the provider's client may get, create and update the lock (pkg/provider/azure_lock.go)
    for (const verb of ['get', 'update']) {
      expect([
        verb,
        allows(objects, who, verb, 'leases', { group: 'coordination.k8s.io', namespace: 'kube-system', name: 'aks-managed-resource-locker' }),
      ]).toEqual([verb, true]);
    }
    expect(allows(objects, who, 'create', 'leases', { group: 'coordination.k8s.io', namespace: 'kube-system' })).toBe(true);
  });

  test('Alibaba takes Lease kube-system/ccm (pkg/config/runtime_config.go defaultLeaderElectResourceName)', () => {
    const objects = render(dir(), kubernetesSpec('AlibabaCloud'));
    expect(allows(objects, CCM, 'update', 'leases', { group: 'coordination.k8s.io', namespace: 'kube-system', name: 'ccm' })).toBe(true);
    expect(
      allows(objects, CCM, 'update', 'leases', { group: 'coordination.k8s.io', namespace: 'kube-system', name: 'cloud-controller-manager' }),
    ).toBe(false);
  });

  test('--leader-elect-resource-name in extraArgs renames the lease the Role allows', () => {
    const objects = render(dir(), kubernetesSpec('AWS', 'k', { extraArgs: { 'leader-elect-resource-name': 'aws-ccm' } }));
    expect(allows(objects, CCM, 'update', 'leases', { group: 'coordination.k8s.io', namespace: 'kube-system', name: 'aws-ccm' })).toBe(true);
    expect(
      allows(objects, CCM, 'update', 'leases', { group: 'coordination.k8s.io', namespace: 'kube-system', name: 'cloud-controller-manager' }),
    ).toBe(false);
  });

  test('Alibaba in another namespace takes its lease there (the flag is rendered)', () => {
    const objects = render(dir(), kubernetesSpec('AlibabaCloud', 'k', { namespace: 'ccm' }));
    expect(container(objects).args).toContain('--leader-elect-resource-namespace=ccm');
    expect(allows(objects, 'ccm/cloud-controller-manager', 'update', 'leases', { group: 'coordination.k8s.io', namespace: 'ccm', name: 'ccm' })).toBe(
      true,
    );
  });
});

describe('defect 5: the least-privilege profile can start', () => {
  const dir = useTempDir();

  test.each([
    ['AWS', 'aws-cloud-provider'],
    ['Azure', 'azure-cloud-provider'],
    ['GCP', 'cloud-provider'],
    ['VSphere', 'vsphere-cloud-controller-manager'],
    ['OpenStack', 'cloud-controller-manager'],
    ['Nutanix', 'cloud-provider-nutanix'],
    ['DigitalOcean', 'do-shared-informers'],
    ['EquinixMetal', 'cloud-provider-equinix-metal-shared-informers'],
  ])('%s: every identity the client builder asks for exists, may get a token, and the informers may list and watch', (platform, providerClient) => {
    // GIVEN useServiceAccountCredentials true WHEN it renders
    const objects = render(dir(), kubernetesSpec(platform, 'k', { useServiceAccountCredentials: true }));
    const identities = ['node-controller', 'service-controller', providerClient];
    for (const name of identities) {
      // THEN getOrCreateServiceAccount (kubernetes/controller-manager pkg/clientbuilder/client_builder_dynamic.go) finds it or may create it:
      // the provider's own is rendered, the controllers' (which the kube-controller-manager shares) may be created
      const shared = ['node-controller', 'service-controller', 'route-controller'].includes(name) || name === 'cloud-controller-manager';
      expect([
        name,
        shared ? allows(objects, CCM, 'create', 'serviceaccounts', { namespace: 'kube-system' }) : !!find(objects, 'ServiceAccount', name),
      ]).toEqual([name, true]);
      expect([name, allows(objects, CCM, 'get', 'serviceaccounts', { namespace: 'kube-system', name })]).toEqual([name, true]);
      expect([name, allows(objects, CCM, 'create', 'serviceaccounts/token', { namespace: 'kube-system', name })]).toEqual([name, true]);
    }
    // Nutanix's service controller stops in servicecontroller.New (LoadBalancer() false), and Equinix Metal's without a load-balancer
    // setting: its client gets a token, its calls no grant; Equinix Metal (k8s.io/cloud-provider v0.30) took the service informer first
    const serviceRuns = platform !== 'Nutanix' && platform !== 'EquinixMetal';
    const serviceInformer = serviceRuns || platform === 'EquinixMetal';
    for (const name of ['node-controller', 'service-controller']) {
      expect([name, allows(objects, `kube-system/${name}`, 'create', 'events', { namespace: 'default' })]).toEqual([
        name,
        name === 'node-controller' || serviceRuns,
      ]);
    }
    // the shared informers run as the CCM itself (kubernetes/cloud-provider options/options.go: rootClientBuilder "shared-informers")
    for (const resource of ['nodes', 'services']) {
      for (const verb of ['list', 'watch']) {
        expect([resource, verb, allows(objects, CCM, verb, resource)]).toEqual([resource, verb, resource === 'nodes' || serviceInformer]);
      }
    }
    // each controller's identity holds its own rules; the route controller's only with routes on
    expect(allows(objects, 'kube-system/node-controller', 'patch', 'nodes')).toBe(true);
    expect(allows(objects, 'kube-system/route-controller', 'patch', 'nodes/status')).toBe(false);
    expect(allows(objects, 'kube-system/service-controller', 'patch', 'services/status')).toBe(serviceRuns);
    expect(allows(objects, 'kube-system/service-controller', 'patch', 'nodes')).toBe(false);
  });

  test("vSphere: the provider's own client reads the credential Secrets (pkg/cloudprovider/vsphere/cloud.go Initialize)", () => {
    const objects = render(dir(), kubernetesSpec('VSphere', 'k', { useServiceAccountCredentials: true }));
    expect(allows(objects, 'kube-system/vsphere-cloud-controller-manager', 'list', 'secrets', { namespace: 'kube-system' })).toBe(true);
  });
});

describe('defects 6, 7, 8: provider calls upstream roles miss', () => {
  const dir = useTempDir();

  test('Equinix Metal may server-side apply Endpoints and Service kube-system/cloud-provider-equinix-metal-kubernetes-external', () => {
    const objects = render(dir(), kubernetesSpec('EquinixMetal'));
    const name = 'cloud-provider-equinix-metal-kubernetes-external';
    for (const resource of ['endpoints', 'services']) {
      expect([resource, allows(objects, CCM, 'create', resource, { namespace: 'kube-system' })]).toEqual([resource, true]);
      expect([resource, allows(objects, CCM, 'patch', resource, { namespace: 'kube-system', name })]).toEqual([resource, true]);
    }
  });

  test('GCP may create ConfigMap kube-system/ingress-uid (providers/gce/gce_clusterid.go; upstream gap kubernetes/cloud-provider-gcp#116)', () => {
    const objects = render(dir(), kubernetesSpec('GCP'));
    expect(allows(objects, CCM, 'create', 'configmaps', { namespace: 'kube-system' })).toBe(true);
  });

  test('Alibaba may list and watch Pods and patch pods/status (pkg/controller/helper/pod_utils.go, clbv1/vgroups.go)', () => {
    const objects = render(dir(), kubernetesSpec('AlibabaCloud'));
    for (const verb of ['list', 'watch']) {
      expect([verb, allows(objects, CCM, verb, 'pods')]).toEqual([verb, true]);
    }
    expect(allows(objects, CCM, 'patch', 'pods/status')).toBe(true);
  });

  test('Alibaba pprof (:6060 on the host network by default) is off', () => {
    expect(container(render(dir(), kubernetesSpec('AlibabaCloud'))).args).toContain('--pprof-bind-addr=0');
  });

  test('GCP with node IPAM (CloudAllocator) may list and watch the networking.gke.io objects its informers read', () => {
    const objects = render(
      dir(),
      kubernetesSpec('GCP', 'k', { allocateNodeCidrs: true, clusterCIDR: ['10.64.0.0/14'], extraArgs: { 'cidr-allocator-type': 'CloudAllocator' } }),
    );
    for (const resource of ['networks', 'gkenetworkparamsets']) {
      expect([resource, allows(objects, CCM, 'watch', resource, { group: 'networking.gke.io' })]).toEqual([resource, true]);
    }
    expect(allows(render(dir(), kubernetesSpec('GCP')), CCM, 'watch', 'networks', { group: 'networking.gke.io' })).toBe(false);
  });
});

describe('the GCP example reaches the API server', () => {
  const dir = useTempDir();

  test('the example overrides neither KUBERNETES_SERVICE_HOST nor KUBERNETES_SERVICE_PORT: client-go dials the kubernetes Service the kubelet injects', () => {
    // GIVEN the example spec THEN its env keeps the kubelet's Service host and port (kubeadm's certificate has no 127.0.0.1)
    const spec = parse(fs.readFileSync(path.join(REPO, 'clusters/kubernetes/k8s-gcp-1.yaml'), 'utf8'));
    expect((spec.spec.kubernetes.extraEnv ?? []).map((e: { name: string }) => e.name)).toEqual([]);
  });

  test('a loopback KUBERNETES_SERVICE_HOST under the kubeadm preset is a warning naming the field and the fixes', () => {
    // GIVEN a kubeadm-preset spec that points client-go at 127.0.0.1
    writeFile(dir(), 'c.yaml', kubernetesSpec('GCP', 'k', { version: '1.34', extraEnv: [{ name: 'KUBERNETES_SERVICE_HOST', value: '127.0.0.1' }] }));
    // WHEN it is loaded THEN one warning says why and what to do
    expect(loadFleet(dir()).warnings.map((w) => w.message)).toEqual([
      'cluster k: spec.kubernetes.extraEnv.0: KUBERNETES_SERVICE_HOST=127.0.0.1 is not in the API server certificate kubeadm issues, so every API call fails TLS verification; ' +
        'remove it (kube-proxy serves the kubernetes Service before a CNI runs) or point it at the controlPlaneEndpoint host, or add it to the ClusterConfiguration apiServer.certSANs',
    ]);
  });

  test('under the rke2 and k3s presets (their own certificates) a loopback host is not warned about', () => {
    writeFile(
      dir(),
      'c.yaml',
      kubernetesSpec('GCP', 'k', {
        version: '1.34',
        scheduling: { preset: 'k3s' },
        extraEnv: [{ name: 'KUBERNETES_SERVICE_HOST', value: '127.0.0.1' }],
      }),
    );
    expect(loadFleet(dir()).warnings.map((w) => w.message)).toEqual([]);
  });
});

describe('defect 10: fields gated by spec.kubernetes.version', () => {
  const dir = useTempDir();

  test('PDB unhealthyPodEvictionPolicy only from 1.27 (beta, on by default; alpha and off in 1.26)', () => {
    const pdb = (version: string) =>
      find(render(dir(), kubernetesSpec('OpenStack', 'k', { version, workload: { kind: 'Deployment', replicas: 2 } })), 'PodDisruptionBudget').spec;
    expect(pdb('1.25').unhealthyPodEvictionPolicy).toBeUndefined();
    expect(pdb('1.26').unhealthyPodEvictionPolicy).toBeUndefined();
    expect(pdb('1.27').unhealthyPodEvictionPolicy).toBe('AlwaysAllow');
  });
});

describe('version skew (kubernetes.io Version Skew Policy)', () => {
  const dir = useTempDir();

  test('minorSkewProblem: not newer than the API server, at most one minor older', () => {
    expect(minorSkewProblem('cloud-controller-manager', '1.33', '1.33')).toBeUndefined();
    expect(minorSkewProblem('cloud-controller-manager', '1.32', '1.33')).toBeUndefined();
    expect(minorSkewProblem('cloud-controller-manager', '1.34', '1.33')).toBe(
      'cloud-controller-manager 1.34 is newer than the kube-apiserver 1.33; the version skew policy allows 1.32 to 1.33: pin an image built for one of those',
    );
    expect(minorSkewProblem('cloud-controller-manager', '1.30', '1.33')).toBe(
      'cloud-controller-manager 1.30 is 3 minors older than the kube-apiserver 1.33; the version skew policy allows 1.32 to 1.33: pin an image built for one of those',
    );
  });

  test('an image tag newer than spec.kubernetes.version is refused with the fix', () => {
    const spec = kubernetesSpec('AWS', 'k', { version: '1.33' }) as any;
    spec.spec.images.cloudControllerManagerAWS = 'registry.k8s.io/provider-aws/cloud-controller-manager:v1.35.0';
    writeFile(dir(), 'c.yaml', spec);
    expect(fleetProblems(dir())).toEqual([
      'c.yaml:9: spec.images.cloudControllerManagerAWS: "registry.k8s.io/provider-aws/cloud-controller-manager:v1.35.0" is built for Kubernetes 1.35: cloud-controller-manager 1.35 is newer than the kube-apiserver 1.33; the version skew policy allows 1.32 to 1.33: pin an image built for one of those',
    ]);
  });

  test('a tag that does not follow Kubernetes minors is read through the per-tag table (go.mod)', () => {
    const spec = kubernetesSpec('DigitalOcean', 'k', { version: '1.33' }) as any;
    spec.spec.images.cloudControllerManagerDigitalOcean = 'digitalocean/digitalocean-cloud-controller-manager:v0.1.68';
    writeFile(dir(), 'c.yaml', spec);
    expect(fleetProblems(dir())[0]).toContain('is built for Kubernetes 1.36');
  });

  test('more than one minor older is a warning with the fix', () => {
    const spec = kubernetesSpec('AlibabaCloud', 'k', { version: '1.32' }) as any;
    spec.spec.images.cloudControllerManagerAlibaba = 'registry.cn-hangzhou.aliyuncs.com/acs/cloud-controller-manager-amd64:v2.12.0';
    writeFile(dir(), 'c.yaml', spec);
    expect(loadFleet(dir()).warnings.map((w) => w.message)).toEqual([
      'cluster k: spec.images.cloudControllerManagerAlibaba: "registry.cn-hangzhou.aliyuncs.com/acs/cloud-controller-manager-amd64:v2.12.0" is built for Kubernetes 1.28: cloud-controller-manager 1.28 is 4 minors older than the kube-apiserver 1.32; the version skew policy allows 1.31 to 1.32: pin an image built for one of those',
    ]);
  });

  test('GCP turns off its node IPAM controller (fatal without --allocate-node-cidrs) unless node IPAM is on', () => {
    expect(container(render(dir(), kubernetesSpec('GCP'))).args).toContain('--controllers=*,-node-ipam-controller');
    expect(
      container(render(dir(), kubernetesSpec('GCP', 'k', { allocateNodeCidrs: true, clusterCIDR: ['10.64.0.0/14'] }))).args.some((a: string) =>
        a.startsWith('--controllers'),
      ),
    ).toBe(false);
  });

  test('the example clusters fit the policy', () => {
    const fleet = loadFleet(path.join(REPO, 'clusters'));
    expect(fleet.warnings.map((w) => w.message).filter((m) => /version skew/.test(m))).toEqual([]);
  });
});

describe('--cluster-name defaults to what the cluster already uses', () => {
  const dir = useTempDir();

  test('"kubernetes" (the kube-controller-manager and chart default), not metadata.name', () => {
    expect(container(render(dir(), kubernetesSpec('OpenStack', 'my-cluster'))).args).toContain('--cluster-name=kubernetes');
    expect(container(render(dir(), kubernetesSpec('OpenStack', 'my-cluster', { clusterName: 'prod' }))).args).toContain('--cluster-name=prod');
  });
});

describe('config sources and mounts', () => {
  const dir = useTempDir();

  test('every key of the config Secret is mounted (OpenStack ca-file beside cloud.conf); the flag names the key', () => {
    const objects = render(dir(), kubernetesSpec('OpenStack', 'k', { cloudConfig: { existingSecret: 'os-config', key: 'cloud.conf' } }));
    expect(workload(objects).spec.template.spec.volumes).toEqual([{ name: 'cloud-config', secret: { secretName: 'os-config' } }]);
    expect(container(objects).args).toContain('--cloud-config=/etc/config/cloud.conf');
  });

  test('Azure on CAPZ reads the node file /etc/kubernetes/azure.json (CAPZ creates no Secret azure-cloud-provider)', () => {
    const objects = render(dir(), kubernetesSpec('Azure', 'k', { cloudConfig: { hostPath: '/etc/kubernetes/azure.json' } }));
    expect(workload(objects).spec.template.spec.volumes).toEqual([
      { name: 'cloud-config', hostPath: { path: '/etc/kubernetes/azure.json', type: 'File' } },
    ]);
    expect(container(objects).volumeMounts).toEqual([{ name: 'cloud-config', mountPath: '/etc/kubernetes/cloud-config/azure.json', readOnly: true }]);
    expect(container(objects).args).toContain('--cloud-config=/etc/kubernetes/cloud-config/azure.json');
  });

  test('a host path and a Secret at once are refused', () => {
    writeFile(dir(), 'c.yaml', kubernetesSpec('Azure', 'k', { cloudConfig: { hostPath: '/etc/kubernetes/azure.json', existingSecret: 'x' } }));
    expect(fleetProblems(dir())).toEqual([
      'c.yaml:22: spec.kubernetes.cloudConfig.hostPath: is set together with another config source; keep one of hostPath, existingSecret, existingConfigMap or spec.cloudConfig.file',
    ]);
  });

  test('host CA directories are mounted read-only when asked', () => {
    const objects = render(dir(), kubernetesSpec('OpenStack', 'k', { hostCertificates: true }));
    expect(container(objects).volumeMounts.slice(1)).toEqual([
      { name: 'ssl-certs', mountPath: '/etc/ssl/certs', readOnly: true },
      { name: 'kubernetes-pki', mountPath: '/etc/kubernetes/pki', readOnly: true },
    ]);
    expect(workload(objects).spec.template.spec.volumes.slice(1)).toEqual([
      { name: 'ssl-certs', hostPath: { path: '/etc/ssl/certs', type: 'Directory' } },
      { name: 'kubernetes-pki', hostPath: { path: '/etc/kubernetes/pki', type: 'Directory' } },
    ]);
  });

  test('Azure workload identity: a projected token for api://AzureADTokenExchange, as the upstream chart mounts it', () => {
    const objects = render(dir(), kubernetesSpec('Azure', 'k', { workloadIdentity: { enabled: true } }));
    expect(workload(objects).spec.template.spec.volumes).toContainEqual({
      name: 'azure-identity-token',
      projected: {
        sources: [{ serviceAccountToken: { audience: 'api://AzureADTokenExchange', expirationSeconds: 3600, path: 'azure-identity-token' } }],
      },
    });
    expect(container(objects).volumeMounts).toContainEqual({
      name: 'azure-identity-token',
      mountPath: '/var/run/secrets/azure/tokens',
      readOnly: true,
    });
    expect(container(objects).env).toContainEqual({
      name: 'AZURE_FEDERATED_TOKEN_FILE',
      value: '/var/run/secrets/azure/tokens/azure-identity-token',
    });
  });
});

describe('Azure cloud-node-manager knobs', () => {
  const dir = useTempDir();

  test('resources, tolerations and extra flags', () => {
    const objects = render(
      dir(),
      kubernetesSpec('Azure', 'k', {
        cloudNodeManager: {
          resources: { requests: { memory: '64Mi' }, limits: { memory: '128Mi' } },
          tolerations: [{ key: 'dedicated', operator: 'Exists' }],
          extraArgs: { 'kube-api-qps': 10 },
        },
      }),
    );
    const pod = find(objects, 'DaemonSet', 'azure-cloud-node-manager').spec.template.spec;
    expect(pod.containers[0].resources).toEqual({ requests: { cpu: '50m', memory: '64Mi' }, limits: { memory: '128Mi' } });
    expect(pod.tolerations).toEqual([{ key: 'dedicated', operator: 'Exists' }]);
    expect(pod.containers[0].args).toEqual([
      '--node-name=$(NODE_NAME)',
      '--wait-routes=false',
      '--use-instance-metadata=true',
      '--v=2',
      '--kube-api-qps=10',
    ]);
  });

  test('windows: a HostProcess DaemonSet on the Windows nodes, from 1.26 on', () => {
    const objects = render(dir(), kubernetesSpec('Azure', 'k', { cloudNodeManager: { windows: true } }));
    const pod = find(objects, 'DaemonSet', 'azure-cloud-node-manager-windows').spec.template.spec;
    expect(pod.nodeSelector).toEqual({ 'kubernetes.io/os': 'windows' });
    expect(pod.securityContext).toEqual({ windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\system' } });
    expect(pod.hostNetwork).toBe(true);
    expect(pod.containers[0].command[2]).toBe(
      '& "$env:CONTAINER_SANDBOX_MOUNT_POINT/cloud-node-manager.exe" --node-name=$(NODE_NAME) --wait-routes=false --use-instance-metadata=true --v=2',
    );
    expect(pod.containers[0].livenessProbe).toBeUndefined();
    writeFile(dir(), 'c.yaml', kubernetesSpec('Azure', 'k', { version: '1.25', cloudNodeManager: { windows: true } }));
    expect(fleetProblems(dir())[0]).toContain(
      'spec.kubernetes.cloudNodeManager.windows: needs Windows HostProcess containers, GA in Kubernetes 1.26',
    );
  });
});

describe('adopting an upstream install', () => {
  const dir = useTempDir();

  test("DigitalOcean keeps the release manifest's name and immutable selector, so applying over it updates in place", () => {
    const w = workload(render(dir(), kubernetesSpec('DigitalOcean')));
    expect([w.metadata.name, w.spec.selector.matchLabels]).toEqual([
      'digitalocean-cloud-controller-manager',
      { app: 'digitalocean-cloud-controller-manager' },
    ]);
  });

  test('docs/kubernetes.md names every upstream install that must be deleted first, with its selector, in one table row', () => {
    // GIVEN the "delete first" table rows
    const rows = fs
      .readFileSync(path.join(REPO, 'docs/kubernetes.md'), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('| '));
    // THEN each upstream install has a row naming kind/name and every label of its selector
    const missing = Object.values(UPSTREAM_PROVIDERS).flatMap((p) =>
      (p.upstreamInstalls ?? [])
        .filter(
          (u) =>
            !rows.some(
              (r) => r.includes(`\`${u.kind.toLowerCase()}/${u.name}\``) && Object.entries(u.selector).every(([k, v]) => r.includes(`${k}: ${v}`)),
            ),
        )
        .map((u) => `${p.name} ${u.kind}/${u.name}`),
    );
    expect(missing).toEqual([]);
  });

  test('adopting the vSphere chart (config.enabled false reads ConfigMap cloud-config): existingConfigMap cloud-config mounts it, and the docs say so', () => {
    // GIVEN the chart's ConfigMap named in the spec THEN the CCM mounts it at the flag's path
    const objects = render(dir(), kubernetesSpec('VSphere', 'k', { cloudConfig: { existingConfigMap: 'cloud-config' } }));
    expect(workload(objects).spec.template.spec.volumes).toContainEqual({ name: 'cloud-config', configMap: { name: 'cloud-config' } });
    expect(container(objects).args).toContain('--cloud-config=/etc/cloud/vsphere.conf');
    // AND the adoption steps name it
    expect(fs.readFileSync(path.join(REPO, 'docs/kubernetes.md'), 'utf8').replace(/\s+/g, ' ')).toContain(
      'set `spec.kubernetes.cloudConfig.existingConfigMap: cloud-config`',
    );
  });

  test('an upstream install with our workload name has another selector (else it needs no deleting); the ones with our selector are not listed', () => {
    // GIVEN the rendered workloads THEN every listed install differs from ours in name or selector
    const dir2 = dir();
    const same = Object.entries(UPSTREAM_PROVIDERS).flatMap(([platform, p]) => {
      const w = workload(render(dir2, kubernetesSpec(platform)));
      return (p.upstreamInstalls ?? [])
        .filter((u) => u.name === w.metadata.name && JSON.stringify(u.selector) === JSON.stringify(w.spec.selector.matchLabels))
        .map((u) => `${platform} ${u.name}`);
    });
    expect(same).toEqual([]);
    // AND the vSphere release manifest and the OpenStack chart are listed (same name, other selector)
    expect(UPSTREAM_PROVIDERS.VSphere!.upstreamInstalls!.map((u) => u.selector)).toContainEqual({ name: 'vsphere-cloud-controller-manager' });
    expect(UPSTREAM_PROVIDERS.OpenStack!.upstreamInstalls!.map((u) => u.name)).toEqual(['openstack-cloud-controller-manager']);
  });
});

describe('Cluster API ClusterResourceSet version', () => {
  const dir = useTempDir();
  const crs = (extra: Record<string, unknown>) => {
    writeFile(dir(), 'c.yaml', kubernetesSpec('AWS', 'k', { output: { mode: 'cluster-resource-set', clusterResourceSet: extra } }));
    const files = renderCluster(loadFleet(dir()).clusters[0]).files;
    const file = files.find((f) => /clusterresourceset\./.test(f.path))!;
    return parse(file.content);
  };

  test('v1beta1 by default (every Cluster API v1.x); v1beta2 when asked (Cluster API v1.11+), same spec', () => {
    const v1 = crs({});
    const v2 = crs({ apiVersion: 'v1beta2' });
    expect([v1.apiVersion, v2.apiVersion]).toEqual(['addons.cluster.x-k8s.io/v1beta1', 'addons.cluster.x-k8s.io/v1beta2']);
    expect(v2.spec).toEqual(v1.spec);
  });
});

describe('Equinix Metal load-balancer implementation', () => {
  const dir = useTempDir();

  test('its calls are granted only for the implementation the spec names (a metallb-system Role needs MetalLB installed)', () => {
    const none = render(dir(), kubernetesSpec('EquinixMetal'));
    expect(none.filter((o) => o.metadata.namespace === 'metallb-system')).toEqual([]);
    const metallb = render(dir(), kubernetesSpec('EquinixMetal', 'k', { equinixMetalLoadBalancer: 'metallb' }));
    expect(allows(metallb, CCM, 'patch', 'configmaps', { namespace: 'metallb-system', name: 'config' })).toBe(true);
    expect(allows(metallb, CCM, 'get', 'namespaces', { name: 'kube-system' })).toBe(true);
    const crd = render(dir(), kubernetesSpec('EquinixMetal', 'k', { equinixMetalLoadBalancer: 'metallb-crd' }));
    expect(allows(crd, CCM, 'create', 'ipaddresspools', { group: 'metallb.io', namespace: 'metallb-system' })).toBe(true);
    writeFile(dir(), 'c.yaml', kubernetesSpec('AWS', 'k', { equinixMetalLoadBalancer: 'emlb' }));
    expect(fleetProblems(dir())[0]).toContain('spec.kubernetes.equinixMetalLoadBalancer: is read for platform EquinixMetal only; remove it for AWS');
  });
});

describe('upstream defaults the spec reference promises', () => {
  const dir = useTempDir();

  test.each([
    ['AWS', 'system-node-critical'],
    ['Azure', 'system-node-critical'],
    ['VSphere', 'system-node-critical'],
    ['GCP', 'system-cluster-critical'],
    ['DigitalOcean', 'system-cluster-critical'],
    ['EquinixMetal', 'system-cluster-critical'],
    ['Nutanix', 'system-cluster-critical'],
  ])('%s runs at the PriorityClass of its upstream manifest or chart: %s', (platform, priority) => {
    // GIVEN the provider with no priorityClassName THEN the upstream one (charts/manifests at the pinned tags)
    expect(workload(render(dir(), kubernetesSpec(platform))).spec.template.spec.priorityClassName).toBe(priority);
  });

  test.each([
    ['Azure', 1],
    ['DigitalOcean', 1],
    ['Nutanix', 2],
  ])('%s Deployment defaults to the upstream %i replica(s); SingleReplica gives 1; workload.replicas wins', (platform, replicas) => {
    // GIVEN a HighlyAvailable control plane and no workload.replicas THEN the upstream replicas (Azure's second replica stayed Pending on one control-plane node)
    expect(workload(render(dir(), kubernetesSpec(platform))).spec.replicas).toBe(replicas);
    expect(workload(render(dir(), kubernetesSpec(platform, 'k', {}, { controlPlaneTopology: 'SingleReplica' }))).spec.replicas).toBe(1);
    expect(workload(render(dir(), kubernetesSpec(platform, 'k', { workload: { replicas: 3 } }))).spec.replicas).toBe(3);
  });

  test.each(['kubeadm', 'k3s'])(
    "DigitalOcean, preset %s: the release manifest's placement (1 replica, system-cluster-critical, its tolerations, no node constraint)",
    (preset) => {
      // GIVEN DigitalOcean with default placement knobs
      const w = workload(render(dir(), kubernetesSpec('DigitalOcean', 'k', { scheduling: { preset } })));
      // THEN it is placed as the upstream Deployment is: on any node its tolerations admit
      expect(placementProblems(w, DIGITALOCEAN_UPSTREAM_PLACEMENT)).toEqual([]);
      // AND the one toleration added is the documented bootstrap one (the CNI waits for the node addresses the CCM sets)
      expect(extraTolerations(w, DIGITALOCEAN_UPSTREAM_PLACEMENT)).toEqual([
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' },
      ]);
    },
  );

  test('DigitalOcean: the example as committed in dist/ is placed as upstream; a nodeSelector still places it', () => {
    // GIVEN the rendered example
    const file = path.join(REPO, 'dist/k8s-do-1/04-workloads/deployment.kube-system.digitalocean-cloud-controller-manager.yaml');
    expect(placementProblems(parse(fs.readFileSync(file, 'utf8')), DIGITALOCEAN_UPSTREAM_PLACEMENT)).toEqual([]);
    // WHEN the spec names a nodeSelector THEN it is rendered (the one node constraint)
    const pod = workload(
      render(dir(), kubernetesSpec('DigitalOcean', 'k', { scheduling: { nodeSelector: { 'node-role.kubernetes.io/control-plane': 'true' } } })),
    ).spec.template.spec;
    expect([pod.nodeSelector, pod.affinity?.nodeAffinity]).toEqual([{ 'node-role.kubernetes.io/control-plane': 'true' }, undefined]);
  });

  test('the placement check reports a node constraint upstream lacks and a missing upstream toleration', () => {
    const w = {
      spec: {
        replicas: 1,
        template: {
          spec: {
            priorityClassName: 'system-cluster-critical',
            nodeSelector: { a: 'b' },
            tolerations: [{ key: 'CriticalAddonsOnly', operator: 'Exists' }],
          },
        },
      },
    };
    expect(placementProblems(w, DIGITALOCEAN_UPSTREAM_PLACEMENT)).toEqual([
      'node constraint {"a":"b"}, upstream none',
      `does not tolerate node.cloudprovider.kubernetes.io/uninitialized=true:NoSchedule (${DIGITALOCEAN_UPSTREAM_PLACEMENT.source})`,
      `does not tolerate node-role.kubernetes.io/master:NoSchedule (${DIGITALOCEAN_UPSTREAM_PLACEMENT.source})`,
      `does not tolerate node-role.kubernetes.io/control-plane:NoSchedule (${DIGITALOCEAN_UPSTREAM_PLACEMENT.source})`,
    ]);
  });

  test('one control-plane node: two replicas kept on control-plane nodes are refused; elsewhere, or DigitalOcean (any node), they render', () => {
    // GIVEN controlPlaneTopology SingleReplica and workload.replicas 2 on the preset's control-plane affinity
    writeFile(dir(), 'c.yaml', kubernetesSpec('Azure', 'k', { workload: { replicas: 2 } }, { controlPlaneTopology: 'SingleReplica' }));
    // THEN refused: the second replica would stay Pending (required hostname anti-affinity, host-network port)
    expect(fleetProblems(dir())).toEqual([
      expect.stringContaining(
        'spec.kubernetes.workload.replicas: is 2 with controlPlaneTopology SingleReplica: each replica needs a control-plane node of its own, so 1 would stay Pending; set 1 or remove it (the default there is 1)',
      ),
    ]);
    // AND so is a nodeSelector on a control-plane label
    writeFile(
      dir(),
      'c.yaml',
      kubernetesSpec(
        'Azure',
        'k',
        { workload: { replicas: 2 }, scheduling: { nodeSelector: { 'node-role.kubernetes.io/control-plane': '' } } },
        { controlPlaneTopology: 'SingleReplica' },
      ),
    );
    expect(fleetProblems(dir())).toHaveLength(1);
    // WHEN the pods may run on other nodes THEN they render
    expect(
      workload(
        render(
          dir(),
          kubernetesSpec(
            'Azure',
            'k',
            { workload: { replicas: 2 }, scheduling: { nodeSelector: { 'node-role.kubernetes.io/ccm': 'true' } } },
            { controlPlaneTopology: 'SingleReplica' },
          ),
        ),
      ).spec.replicas,
    ).toBe(2);
    expect(
      workload(render(dir(), kubernetesSpec('DigitalOcean', 'k', { workload: { replicas: 2 } }, { controlPlaneTopology: 'SingleReplica' }))).spec
        .replicas,
    ).toBe(2);
  });

  test('an explicit priorityClassName wins over the provider default', () => {
    expect(
      workload(render(dir(), kubernetesSpec('AWS', 'k', { priorityClassName: 'system-cluster-critical' }))).spec.template.spec.priorityClassName,
    ).toBe('system-cluster-critical');
  });

  test("Alibaba: preset all-taints gives upstream's tolerations (deploy/v2/cloud-controller-manager.yaml@v2.12.4: operator Exists), and the example uses it", () => {
    expect(
      workload(render(dir(), kubernetesSpec('AlibabaCloud', 'k', { scheduling: { preset: 'all-taints' } }))).spec.template.spec.tolerations,
    ).toEqual([{ operator: 'Exists' }]);
    expect(parse(fs.readFileSync(path.join(REPO, 'clusters/kubernetes/k8s-alibaba-1.yaml'), 'utf8')).spec.kubernetes.scheduling.preset).toBe(
      'all-taints',
    );
  });

  test('GCP requests the 200m CPU of kubernetes/cloud-provider-gcp@ccm/v35.0.0 deploy/packages/default/manifest.yaml', () => {
    // GIVEN GCP with default resources THEN the CPU request is upstream's (the memory request is ours: upstream sets none)
    expect(container(render(dir(), kubernetesSpec('GCP'))).resources).toEqual({ requests: { cpu: '200m', memory: '50Mi' } });
  });
});

describe('AWS IAM roles for service accounts without the pod identity webhook', () => {
  const dir = useTempDir();
  const irsa = { serviceAccount: { annotations: { 'eks.amazonaws.com/role-arn': 'arn:aws:iam::123456789012:role/ccm' } } };

  test("GIVEN the role-arn annotation THEN the pod carries what the webhook would inject, under the webhook's names (it then leaves the pod as is)", () => {
    const objects = render(dir(), kubernetesSpec('AWS', 'k', irsa));
    expect(container(objects).env).toEqual([
      { name: 'AWS_ROLE_ARN', value: 'arn:aws:iam::123456789012:role/ccm' },
      { name: 'AWS_WEB_IDENTITY_TOKEN_FILE', value: '/var/run/secrets/eks.amazonaws.com/serviceaccount/token' },
    ]);
    expect(container(objects).volumeMounts).toContainEqual({
      name: 'aws-iam-token',
      mountPath: '/var/run/secrets/eks.amazonaws.com/serviceaccount',
      readOnly: true,
    });
    expect(workload(objects).spec.template.spec.volumes).toContainEqual({
      name: 'aws-iam-token',
      projected: { sources: [{ serviceAccountToken: { audience: 'sts.amazonaws.com', expirationSeconds: 86400, path: 'token' } }] },
    });
  });

  test('GIVEN the audience and token-expiration annotations THEN the projected token follows them', () => {
    const annotations = { ...irsa.serviceAccount.annotations, 'eks.amazonaws.com/audience': 'irsa', 'eks.amazonaws.com/token-expiration': '3600' };
    const volumes = workload(render(dir(), kubernetesSpec('AWS', 'k', { serviceAccount: { annotations } }))).spec.template.spec.volumes;
    expect(volumes).toContainEqual({
      name: 'aws-iam-token',
      projected: { sources: [{ serviceAccountToken: { audience: 'irsa', expirationSeconds: 3600, path: 'token' } }] },
    });
  });

  test("GIVEN a token-expiration out of a projected token's bounds THEN one error names the annotation and the range", () => {
    writeFile(
      dir(),
      'c.yaml',
      kubernetesSpec('AWS', 'k', {
        serviceAccount: { annotations: { ...irsa.serviceAccount.annotations, 'eks.amazonaws.com/token-expiration': '60' } },
      }),
    );
    expect(fleetProblems(dir()).map((p) => p.replace(/^c\.yaml:\d+: /, ''))).toEqual([
      "spec.kubernetes.serviceAccount.annotations.eks.amazonaws.com/token-expiration: must be whole seconds from 600 to 86400 (a projected ServiceAccount token's bounds)",
    ]);
  });

  test('GIVEN no annotation, or another platform THEN no token is rendered', () => {
    expect(container(render(dir(), kubernetesSpec('AWS'))).env).toBeUndefined();
    expect(container(render(dir(), kubernetesSpec('GCP', 'k', irsa))).env ?? []).toEqual([]);
  });
});

describe('Nutanix: the credentials Secret and trust bundle must be in the CCM namespace (informers scoped to POD_NAMESPACE)', () => {
  const dir = useTempDir();
  const config = (credNs: string, bundleNs?: string) =>
    JSON.stringify({
      prismCentral: {
        address: 'prism.example.com',
        port: 9440,
        credentialRef: { kind: 'secret', name: 'nutanix-creds', namespace: credNs },
        ...(bundleNs ? { additionalTrustBundle: { kind: 'ConfigMap', name: 'prism-ca', namespace: bundleNs } } : {}),
      },
    });

  test('GIVEN the CCM in cloud-system and the Secret and ConfigMap in kube-system THEN each is one error naming the field and the fix', () => {
    writeFile(dir(), 'n.json', config('kube-system', 'kube-system'));
    writeFile(dir(), 'c.yaml', kubernetesSpec('Nutanix', 'k', { namespace: 'cloud-system' }, { cloudConfig: { file: 'n.json' } }));
    expect(fleetProblems(dir())).toEqual([
      'n.json: prismCentral.additionalTrustBundle.namespace: cluster k: is "kube-system", but the CCM reads Secrets and ConfigMaps only in its own namespace "cloud-system" (spec.kubernetes.namespace); move the object there and set this to "cloud-system" or remove it',
      'n.json: prismCentral.credentialRef.namespace: cluster k: is "kube-system", but the CCM reads Secrets and ConfigMaps only in its own namespace "cloud-system" (spec.kubernetes.namespace); move the object there and set this to "cloud-system" or remove it',
    ]);
  });

  test('GIVEN both in the CCM namespace THEN it renders', () => {
    writeFile(dir(), 'n.json', config('cloud-system', 'cloud-system'));
    writeFile(dir(), 'c.yaml', kubernetesSpec('Nutanix', 'k', { namespace: 'cloud-system' }, { cloudConfig: { file: 'n.json' } }));
    expect(loadFleet(dir()).clusters).toHaveLength(1);
  });
});

describe('vSphere: the credential Secret is named in vsphere.conf only', () => {
  const dir = useTempDir();

  test('GIVEN VSPHERE_SECRET_NAMESPACE in extraEnv THEN one error says to set it in vsphere.conf (the RBAC follows the file)', () => {
    writeFile(dir(), 'c.yaml', kubernetesSpec('VSphere', 'k', { extraEnv: [{ name: 'VSPHERE_SECRET_NAMESPACE', value: 'vmware-system' }] }));
    expect(fleetProblems(dir()).map((p) => p.replace(/^c\.yaml:\d+: /, ''))).toEqual([
      'spec.kubernetes.extraEnv.0: VSPHERE_SECRET_NAMESPACE overrides the Secret vsphere.conf names, which the rendered RBAC follows; set secretName/secretNamespace in vsphere.conf instead',
    ]);
  });
});
