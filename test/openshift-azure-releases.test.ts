/**
 * Gitops mode renders Azure and Azure Stack Hub at 4.16 to 4.21 as each release branch of
 * openshift/cluster-cloud-controller-manager-operator renders them (release-4.16 d721cd62, 4.18 8abb0673,
 * 4.19 5b39a4df, 4.21 6148c0cc, 4.22 b99c3d88): the parts that changed, each at its first release.
 */
import { App } from 'cdk8s';
import { ClusterChart } from '../src/pipeline/cluster-chart';
import { checkSpec } from '../src/fleet/load';
import { parsedSpec, platformSpec, preparedCluster } from './helpers';

type Obj = Record<string, any>;
type Cloud = 'Azure' | 'AzureStackHub';

function spec(cloud: Cloud, release: string): Record<string, unknown> {
  return platformSpec('Azure', 'p', {
    openshift: { release },
    ...(cloud === 'AzureStackHub'
      ? { azure: { cloudName: 'AzureStackCloud' }, cloudConfig: { file: 'c.json', extraKeys: { endpoints: 'e.json' } } }
      : {}),
  });
}

function render(cloud: Cloud, release: string): Obj[] {
  const stack = cloud === 'AzureStackHub';
  const cluster = {
    ...preparedCluster(spec(cloud, release), stack ? '{"vmType":"standard"}\n' : '{"cloud":"AzurePublicCloud"}\n'),
    ...(stack ? { cloudConfExtraData: { endpoints: '{"name":"AzureStackCloud"}' } } : {}),
  };
  return new ClusterChart(new App(), 'c', { cluster }).toJson();
}

const find = (objects: Obj[], kind: string, name: string): Obj | undefined => objects.find((o) => o.kind === kind && o.metadata.name === name);
const pod = (objects: Obj[], kind: 'Deployment' | 'DaemonSet'): Obj =>
  objects.find((o) => o.kind === kind && o.metadata.namespace === 'openshift-cloud-controller-manager')!.spec.template.spec;
const injector = (p: Obj): Obj => p.initContainers.find((c: Obj) => c.name === 'azure-inject-credentials');
const volumeNames = (p: Obj): string[] => p.volumes.map((v: Obj) => v.name);
const mountNames = (c: Obj): string[] => c.volumeMounts.map((m: Obj) => m.name);
const injectorText = (c: Obj): string => [...(c.command ?? []), ...(c.args ?? [])].join(' ');
const secretEnv = (name: string, key: string, optional: boolean): Obj => ({
  name,
  valueFrom: { secretKeyRef: { name: 'azure-cloud-credentials', key, ...(optional ? { optional: true } : {}) } },
});

const RELEASES = ['4.16.9', '4.17.2', '4.18.3', '4.19.5', '4.20.3', '4.21.5'];

describe('gitops mode renders Azure and Azure Stack Hub at 4.16 to 4.21', () => {
  test.each(RELEASES.flatMap((r) => [['Azure', r] as const, ['AzureStackHub', r] as const]))(
    'GIVEN %s at %s in gitops mode WHEN checked THEN no release problem',
    (cloud, release) => {
      expect(checkSpec(parsedSpec(spec(cloud, release))).filter((p) => p.path.join('.') === 'spec.openshift.release')).toEqual([]);
    },
  );
});

describe('credentials: env from the Secret before 4.19, --creds-path and cloud-sa-volume from 4.19', () => {
  test('GIVEN Azure at 4.18.3 WHEN rendered THEN both injectors take the four credentials as env, the CCM the federated token file, and no pod has cloud-sa-volume', () => {
    const objects = render('Azure', '4.18.3');
    const env = [
      secretEnv('AZURE_CLIENT_ID', 'azure_client_id', false),
      secretEnv('AZURE_CLIENT_SECRET', 'azure_client_secret', true),
      secretEnv('AZURE_TENANT_ID', 'azure_tenant_id', true),
      secretEnv('AZURE_FEDERATED_TOKEN_FILE', 'azure_federated_token_file', true),
    ];
    for (const kind of ['Deployment', 'DaemonSet'] as const) {
      const p = pod(objects, kind);
      expect(injector(p).env).toEqual(env);
      expect(injectorText(injector(p))).not.toContain('--creds-path');
      expect(volumeNames(p)).not.toContain('cloud-sa-volume');
      expect([...p.initContainers, ...p.containers].flatMap(mountNames)).not.toContain('cloud-sa-volume');
    }
    expect(pod(objects, 'Deployment').containers[0].env.filter((e: Obj) => e.valueFrom?.secretKeyRef)).toEqual([
      secretEnv('AZURE_FEDERATED_TOKEN_FILE', 'azure_federated_token_file', true),
    ]);
  });

  test('GIVEN Azure Stack Hub at 4.18.3 WHEN rendered THEN both injectors take client id and secret as env, and no pod has cloud-sa-volume', () => {
    const objects = render('AzureStackHub', '4.18.3');
    for (const kind of ['Deployment', 'DaemonSet'] as const) {
      const p = pod(objects, kind);
      expect(injector(p).env).toEqual([
        secretEnv('AZURE_CLIENT_ID', 'azure_client_id', false),
        secretEnv('AZURE_CLIENT_SECRET', 'azure_client_secret', false),
      ]);
      expect(injector(p).args).toEqual([
        '--cloud-config-file-path=/tmp/cloud-config/cloud.conf',
        '--output-file-path=/tmp/merged-cloud-config/cloud.conf',
      ]);
      expect(volumeNames(p)).not.toContain('cloud-sa-volume');
    }
  });

  test.each(['Azure', 'AzureStackHub'] as const)(
    'GIVEN %s at 4.19.5 WHEN rendered THEN both injectors read --creds-path=/etc/azure/credentials from cloud-sa-volume, with no credential env',
    (cloud) => {
      const objects = render(cloud, '4.19.5');
      for (const kind of ['Deployment', 'DaemonSet'] as const) {
        const p = pod(objects, kind);
        expect(injector(p).env).toBeUndefined();
        expect(injectorText(injector(p))).toContain('--creds-path=/etc/azure/credentials');
        expect(mountNames(injector(p))).toContain('cloud-sa-volume');
        expect(volumeNames(p)).toContain('cloud-sa-volume');
      }
      expect(pod(objects, 'Deployment').containers[0].env.filter((e: Obj) => e.valueFrom?.secretKeyRef)).toEqual([]);
    },
  );
});

describe('objects that joined later', () => {
  test.each([
    ['Azure', '4.18.3', false],
    ['Azure', '4.19.5', true],
    ['AzureStackHub', '4.18.3', false],
    ['AzureStackHub', '4.19.5', true],
  ] as const)(
    'GIVEN %s at %s WHEN rendered THEN Role and RoleBinding kube-system/azure-cloud-provider: %s (from 4.19)',
    (cloud, release, present) => {
      const objects = render(cloud, release);
      expect(find(objects, 'Role', 'azure-cloud-provider') !== undefined).toBe(present);
      expect(find(objects, 'RoleBinding', 'azure-cloud-provider:azure-cloud-provider') !== undefined).toBe(present);
    },
  );

  test.each([
    ['4.17.2', [] as string[]],
    ['4.18.3', ['openshift-cloud-controller-manager-cloud-provider-azure-node-admission']],
    [
      '4.19.5',
      ['openshift-cloud-controller-manager-cloud-provider-azure-node-admission', 'azure-load-balancer-tcp-idle-timeout-annotation-validation-policy'],
    ],
  ])(
    'GIVEN Azure at %s WHEN rendered THEN the admission policies are %j (node admission from 4.18, TCP idle timeout from 4.19)',
    (release, policies) => {
      const objects = render('Azure', release);
      expect(objects.filter((o) => o.kind === 'ValidatingAdmissionPolicy').map((o) => o.metadata.name)).toEqual(policies);
      expect(objects.filter((o) => o.kind === 'ValidatingAdmissionPolicyBinding')).toHaveLength(policies.length);
    },
  );

  test.each(RELEASES.flatMap((r) => [['Azure', r] as const, ['AzureStackHub', r] as const]))(
    'GIVEN %s at %s WHEN rendered THEN the CCM has no --tls-* flag (the TLS profile reaches it from 4.22)',
    (cloud, release) => {
      expect((pod(render(cloud, release), 'Deployment').containers[0].command[2] as string).includes('--tls-')).toBe(false);
    },
  );
});

describe('CredentialsRequest openshift-azure-cloud-controller-manager per release', () => {
  test.each([
    ['4.16.9', 13],
    ['4.18.3', 13],
    ['4.19.5', 17],
    ['4.20.3', 17],
    ['4.21.5', 28],
    ['4.22.3', 30],
    ['4.23.1', 30],
  ])('GIVEN Azure at %s WHEN rendered THEN it asks for %i permissions', (release, count) => {
    const permissions: string[] = find(render('Azure', release), 'CredentialsRequest', 'openshift-azure-cloud-controller-manager')!.spec.providerSpec
      .permissions;
    expect(permissions).toHaveLength(count);
  });

  test('GIVEN Azure at 4.19.5 and 4.21.5 WHEN rendered THEN the permissions each release adds are those of its branch, in its order', () => {
    const of = (r: string): string[] =>
      find(render('Azure', r), 'CredentialsRequest', 'openshift-azure-cloud-controller-manager')!.spec.providerSpec.permissions;
    const at18 = of('4.18.3');
    const at19 = of('4.19.5');
    expect(at19.filter((p) => !at18.includes(p))).toEqual([
      'Microsoft.Network/loadBalancers/inboundNatRules/join/action',
      'Microsoft.Network/networkSecurityGroups/join/action',
      'Microsoft.Network/publicIPPrefixes/join/action',
      'Microsoft.Network/applicationSecurityGroups/joinNetworkSecurityRule/action',
    ]);
    expect(of('4.21.5').filter((p) => !at19.includes(p))).toEqual([
      'Microsoft.Network/loadBalancers/loadBalancingRules/read',
      'Microsoft.Network/natGateways/join/action',
      'Microsoft.Network/networkIntentPolicies/join/action',
      'Microsoft.Network/networkManagers/ipamPools/associateResourcesToPool/action',
      'Microsoft.Network/privatelinkservices/delete',
      'Microsoft.Network/privatelinkservices/read',
      'Microsoft.Network/privatelinkservices/write',
      'Microsoft.Network/publicIPAddresses/delete',
      'Microsoft.Network/routeTables/join/action',
      'Microsoft.Network/serviceEndpointPolicies/join/action',
      'Microsoft.Network/virtualNetworks/subnets/write',
    ]);
  });
});
