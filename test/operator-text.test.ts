import { App, Chart } from 'cdk8s';
import { ClusterChart } from '../src/pipeline/cluster-chart';
import { platformFor, PreparedCluster } from '../src/openshift/platforms';
import { platformSpec, preparedCluster } from './helpers';

type Obj = Record<string, any>;

function operands(platform: string, spec: Record<string, unknown> = {}, cloudConf = '[Global]\n', extra?: Record<string, string>): Obj[] {
  const prepared: PreparedCluster = { ...preparedCluster(platformSpec(platform, 'c', spec), cloudConf), cloudConfExtraData: extra };
  const chart = new Chart(new App(), 'c', { disableResourceNameHashes: true });
  platformFor(prepared.spec.spec.platform)!.renderOperands(chart, prepared);
  return chart.toJson();
}

const ASH = { azure: { cloudName: 'AzureStackCloud' }, cloudConfig: { file: 'x', extraKeys: { endpoints: 'e' } } };

/**
 * Volume and mount order of each CCM container as the operator's assets list
 * them (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c
 * pkg/cloud/<platform>/assets/*deployment.yaml / *daemonset.yaml; Alibaba:
 * @release-4.16 pkg/cloud/alibaba/assets), for the names both render.
 */
const ORDER: [string, string, Record<string, unknown>, string, string, string[], string[]][] = [
  [
    'AWS',
    'AWS',
    {},
    '[Global]\n',
    'aws-cloud-controller-manager',
    ['host-etc-kube', 'config-accm', 'trusted-ca'],
    ['config-accm', 'trusted-ca', 'host-etc-kube'],
  ],
  [
    'Azure',
    'Azure',
    {},
    '{}\n',
    'azure-cloud-controller-manager',
    ['host-etc-kube', 'merged-cloud-config', 'cloud-sa-volume', 'trusted-ca', 'bound-sa-token'],
    ['config-accm', 'cloud-sa-volume', 'trusted-ca', 'host-etc-kube', 'bound-sa-token', 'merged-cloud-config'],
  ],
  [
    'Azure node manager',
    'Azure',
    {},
    '{}\n',
    'azure-cloud-node-manager',
    ['merged-cloud-config', 'trusted-ca', 'bound-sa-token'],
    ['cloud-sa-volume', 'trusted-ca', 'host-etc-kube', 'bound-sa-token', 'merged-cloud-config'],
  ],
  [
    'Azure Stack Hub',
    'Azure',
    ASH,
    '{}\n',
    'azure-cloud-controller-manager',
    ['host-etc-kube', 'config-accm', 'cloud-config', 'trusted-ca'],
    ['config-accm', 'host-etc-kube', 'cloud-sa-volume', 'trusted-ca', 'cloud-config'],
  ],
  [
    'Azure Stack Hub node manager',
    'Azure',
    ASH,
    '{}\n',
    'azure-cloud-node-manager',
    ['host-etc-kube', 'config-accm', 'cloud-config', 'trusted-ca'],
    ['host-etc-kube', 'config-accm', 'cloud-sa-volume', 'trusted-ca', 'cloud-config'],
  ],
  [
    'IBM Cloud',
    'IBMCloud',
    {},
    '[global]\n',
    'ibm-cloud-controller-manager',
    ['host-etc-kube', 'cloud-conf', 'ibm-cloud-credentials', 'trusted-ca'],
    ['trusted-ca', 'host-etc-kube', 'cloud-conf', 'ibm-cloud-credentials'],
  ],
  [
    'Power VS',
    'PowerVS',
    {},
    '[global]\n',
    'powervs-cloud-controller-manager',
    ['host-etc-kube', 'cloud-conf', 'ibm-cloud-credentials', 'trusted-ca'],
    ['trusted-ca', 'host-etc-kube', 'cloud-conf', 'ibm-cloud-credentials'],
  ],
  [
    'Nutanix',
    'Nutanix',
    {},
    '{}\n',
    'nutanix-cloud-controller-manager',
    ['nutanix-config', 'host-etc-kube', 'trusted-ca'],
    ['nutanix-config', 'trusted-ca', 'host-etc-kube'],
  ],
  [
    'OpenStack',
    'OpenStack',
    {},
    '[Global]\n',
    'openstack-cloud-controller-manager',
    ['host-etc-kube', 'secret-occm', 'cloud-config', 'trusted-ca'],
    ['host-etc-kube', 'secret-occm', 'trusted-ca', 'cloud-config'],
  ],
  [
    'vSphere',
    'VSphere',
    {},
    'global:\n  port: 443\n',
    'vsphere-cloud-controller-manager',
    ['host-etc-kube', 'config-vccm', 'trusted-ca'],
    ['config-vccm', 'secret-vccm', 'trusted-ca', 'host-etc-kube'],
  ],
  [
    'Alibaba Cloud',
    'AlibabaCloud',
    { openshift: { release: '4.16.20' } },
    '{}\n',
    'alibaba-cloud-controller-manager',
    ['host-etc-kube', 'trusted-ca', 'cloud-config'],
    ['host-etc-kube', 'trusted-ca', 'cloud-config'],
  ],
];

describe('item 9: volume and mount order as the operator writes them', () => {
  test.each(ORDER)('%s', (_n, platform, spec, conf, workload, mounts, volumes) => {
    const w = operands(platform, spec, conf, platform === 'Azure' && (spec as Obj).azure ? { endpoints: '{}' } : undefined).find(
      (o) => (o.kind === 'Deployment' || o.kind === 'DaemonSet') && o.metadata.name === workload,
    )!;
    const pod = w.spec.template.spec;
    const main = pod.containers[0];
    const mine = (names: string[], all: string[]) => names.filter((n) => all.includes(n));
    expect(
      mine(
        main.volumeMounts.map((m: Obj) => m.name),
        mounts,
      ),
    ).toEqual(mounts.filter((n) => main.volumeMounts.some((m: Obj) => m.name === n)));
    expect(
      mine(
        pod.volumes.map((v: Obj) => v.name),
        volumes,
      ),
    ).toEqual(volumes.filter((n) => pod.volumes.some((v: Obj) => v.name === n)));
  });
});

describe('item 9: release annotations on the operand Roles the operator annotates', () => {
  const RELEASE = {
    'capability.openshift.io/name': 'CloudControllerManager',
    'include.release.openshift.io/self-managed-high-availability': 'true',
    'include.release.openshift.io/single-node-developer': 'true',
  };

  test('Azure and Azure Stack Hub Role kube-system/azure-cloud-provider (…@bc52198c1c3c pkg/cloud/azure{,stack}/assets/azure-cloud-provider-role.yaml)', () => {
    for (const spec of [{}, ASH]) {
      const role = operands('Azure', spec, '{}\n', (spec as Obj).azure ? { endpoints: '{}' } : undefined).find(
        (o) => o.kind === 'Role' && o.metadata.name === 'azure-cloud-provider',
      )!;
      expect(role.metadata.annotations).toEqual(RELEASE);
    }
  });

  test('Alibaba Role and ClusterRole carry the include annotations only (…@release-4.16 pkg/cloud/alibaba/assets)', () => {
    const objects = operands('AlibabaCloud', { openshift: { release: '4.16.20' } }, '{}\n');
    for (const kind of ['Role', 'ClusterRole']) {
      const role = objects.find((o) => o.kind === kind && o.metadata.name === 'alibaba-cloud-controller-manager')!;
      expect(role.metadata.annotations).toEqual({
        'include.release.openshift.io/self-managed-high-availability': 'true',
        'include.release.openshift.io/single-node-developer': 'true',
      });
    }
  });
});

describe('item 8: Alibaba Cloud renders release 4.16 exactly', () => {
  const all = new ClusterChart(new App(), 'c', {
    cluster: preparedCluster(platformSpec('AlibabaCloud', 'ali', { openshift: { release: '4.16.20' } }), '{}\n'),
  }).toJson();

  test('the Service has https 10258 and webhooks 10260 (…@release-4.16 pkg/cloud/common/resources.go getService)', () => {
    const svc = all.find((o: Obj) => o.kind === 'Service' && o.metadata.name === 'alibabacloud-cloud-controller-manager');
    expect(svc.spec.ports).toEqual([
      { name: 'https', port: 10258 },
      { name: 'webhooks', port: 10260, targetPort: 10260 },
    ]);
  });

  test('the PDB has no unhealthyPodEvictionPolicy (…@release-4.16 pkg/cloud/common/resources.go getPDB)', () => {
    const pdb = all.find((o: Obj) => o.kind === 'PodDisruptionBudget');
    expect(pdb.spec).toEqual({
      minAvailable: 1,
      selector: { matchLabels: { 'infrastructure.openshift.io/cloud-controller-manager': 'AlibabaCloud' } },
    });
  });

  test('the Deployment has the standard tolerations, no control-plane NoExecute (…@release-4.16 alibaba-cloud-controller-manager-deployment.yaml)', () => {
    const d = all.find((o: Obj) => o.kind === 'Deployment');
    expect(d.spec.template.spec.tolerations.map((t: Obj) => `${t.key}:${t.effect}`)).toEqual([
      'node-role.kubernetes.io/master:NoSchedule',
      'node.kubernetes.io/unreachable:NoExecute',
      'node.kubernetes.io/not-ready:NoExecute',
      'node.cloudprovider.kubernetes.io/uninitialized:NoSchedule',
      'node.kubernetes.io/not-ready:NoSchedule',
    ]);
  });

  test('no default-deny NetworkPolicies: release 4.16 ships none (they came with 4.20)', () => {
    expect(all.filter((o: Obj) => o.kind === 'NetworkPolicy')).toEqual([]);
  });
});

describe('item 6: vSphere with VSphereMultiVCenterDay2 writes openshift-config-managed/kube-cloud-config', () => {
  // openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/controllers/cloud_config_sync_controller.go
  // shouldManageManagedConfigMap / syncManagedCloudConfig: the transformed data, also written to kube-cloud-config
  const conf = 'global:\n  port: 443\n';

  test('GIVEN the gate enabled WHEN rendered THEN kube-cloud-config holds the same data as cloud-conf', () => {
    const objects = operands('VSphere', { openshift: { release: '4.23.1' }, featureGates: { enabled: ['VSphereMultiVCenterDay2'] } }, conf);
    const cloudConf = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'cloud-conf')!;
    const managed = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'kube-cloud-config');
    expect(managed?.metadata.namespace).toBe('openshift-config-managed');
    expect(managed?.data).toEqual(cloudConf.data);
  });

  test('GIVEN release 4.23 TechPreviewNoUpgrade (the gate by default) WHEN rendered THEN kube-cloud-config is rendered', () => {
    const objects = operands('VSphere', { openshift: { release: '4.23.1', featureSet: 'TechPreviewNoUpgrade' } }, conf);
    expect(objects.some((o) => o.metadata.name === 'kube-cloud-config')).toBe(true);
  });

  test('GIVEN the gate off WHEN rendered THEN no kube-cloud-config (the cluster-config-operator writes it)', () => {
    expect(operands('VSphere', {}, conf).some((o) => o.metadata.name === 'kube-cloud-config')).toBe(false);
  });
});

describe('item 10: a lower-case OpenStack [global] next to the new [Global] is warned about', () => {
  test('GIVEN [global] only WHEN transformed THEN a warning names the line and the fix', () => {
    const result = platformFor('OpenStack')!.transformCloudConfig('[global]\nregion = r1\n', preparedCluster(platformSpec('OpenStack', 'o')).spec);
    // go-ini's NewSection appends: the added [Global] follows the config's own sections (release-4.16 pkg/cloud/openstack/openstack.go)
    expect(result.config.startsWith('[global]\n')).toBe(true);
    expect(result.config).toMatch(/\n\[Global\]\n/);
    expect(result.warnings).toContain(
      "section '[global]' (line 1) is kept next to the new [Global]: the operator matches section names case-sensitively and adds [Global], " +
        "while the CCM's gcfg reader reads both as one section; rename it to [Global]",
    );
  });
});
