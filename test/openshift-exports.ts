/**
 * What `oc get -o yaml` exports of an OpenShift 4.16, 4.18 or 4.20 cluster hold, per platform: the objects
 * `ccm-gitops import` reads, shaped as the cluster has them. Field names are openshift/api's, read at
 * openshift/api@0677a8879a46 (release-4.16), @f9b2d1ae30eb (release-4.18) and @05da40ea9855 (release-4.20):
 * config/v1/types_infrastructure.go (PlatformStatus and each platform's status), types_cluster_version.go,
 * types_feature.go, types_apiserver.go, types_proxy.go, types_network.go. The images ConfigMap holds the keys of
 * openshift/cluster-cloud-controller-manager-operator manifests/0000_26_cloud-controller-manager-operator_01_images.configmap.yaml
 * on that release's branch (@d721cd62b5ed release-4.16 with Alibaba Cloud, @8abb067318de release-4.18, @276696ccf679 release-4.20).
 */
import { stringify } from 'yaml';

type Obj = Record<string, unknown>;

/** The platforms an export is built for, as ccm-gitops and the oracle name them (AzureStackHub: Azure with AzureStackCloud). */
export const EXPORT_PLATFORMS = [
  'AWS',
  'Azure',
  'AzureStackHub',
  'GCP',
  'IBMCloud',
  'PowerVS',
  'OpenStack',
  'VSphere',
  'Nutanix',
  'AlibabaCloud',
] as const;
export type ExportPlatform = (typeof EXPORT_PLATFORMS)[number];

/** The z-stream exported per minor. */
export const EXPORT_VERSIONS: Readonly<Record<string, string>> = { '4.16': '4.16.45', '4.18': '4.18.27', '4.20': '4.20.3' };

const digest = (n: number) => `quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:${n.toString(16).repeat(64).slice(0, 64)}`;

/** images.json keys of the release's images ConfigMap (Alibaba Cloud's only on release-4.16). */
function imagesJson(minor: string): string {
  const keys = [
    'cloudControllerManagerOperator',
    ...(minor === '4.16' ? ['cloudControllerManagerAlibaba'] : []),
    'cloudControllerManagerAWS',
    'cloudControllerManagerAzure',
    'cloudNodeManagerAzure',
    'cloudControllerManagerGCP',
    'cloudControllerManagerIBM',
    'cloudControllerManagerOpenStack',
    'cloudControllerManagerPowerVS',
    'cloudControllerManagerVSphere',
    'cloudControllerManagerNutanix',
  ];
  return JSON.stringify(Object.fromEntries(keys.map((k, i) => [k, digest(i + 1)])), null, 2) + '\n';
}

/** The kube-rbac-proxy image of the exported operator Deployment (the payload's, by digest). */
export const KUBE_RBAC_PROXY_IMAGE = digest(15);

/** The Proxy status a cluster behind a proxy has (types_proxy.go ProxyStatus). */
export const PROXY_STATUS = {
  httpProxy: 'http://proxy.corp.example.com:3128',
  httpsProxy: 'http://proxy.corp.example.com:3128',
  noProxy: '.cluster.local,.svc,10.0.0.0/16,10.128.0.0/14,127.0.0.1,169.254.169.254,172.30.0.0/16,api-int.example.com,localhost',
};

/** Platforms whose exported cluster runs behind a proxy. */
const BEHIND_PROXY: readonly ExportPlatform[] = ['AWS', 'VSphere', 'OpenStack'];

interface PlatformExport {
  /** Infrastructure `status.platformStatus` (its `type` added). */
  readonly status: Obj;
  /** Infrastructure `spec.platformSpec` (its `type` added), where the installer sets one. */
  readonly spec?: Obj;
  /** openshift-config/cloud-provider-config `data`. */
  readonly config: Record<string, string>;
}

const INFRA_ID: Record<ExportPlatform, string> = {
  AWS: 'aws-eus-7-k2m4p',
  Azure: 'azure-eus-7-h7c2p',
  AzureStackHub: 'ash-eus-7-v5c9h',
  GCP: 'gcp-eus-7-x9q2z',
  IBMCloud: 'ibm-eus-7-q8w2e',
  PowerVS: 'powervs-eus-7-t6y3u',
  OpenStack: 'osp-eus-7-r4d8s',
  VSphere: 'vsphere-eus-7-b3n6m',
  Nutanix: 'nutanix-eus-7-f5g7j',
  AlibabaCloud: 'alibaba-eus-7-w2e4r',
};

/** The cluster name `import` gives the export (the infrastructure name without its random suffix). */
export function clusterNameOf(platform: ExportPlatform): string {
  return INFRA_ID[platform].replace(/-[a-z0-9]{5}$/, '');
}

function platformExport(platform: ExportPlatform): PlatformExport {
  const id = INFRA_ID[platform];
  switch (platform) {
    case 'AWS':
      return {
        status: { aws: { region: 'us-east-2', resourceTags: [{ key: 'cost-center', value: 'platform' }] } },
        config: { config: '[Global]\n' },
      };
    case 'Azure':
      return {
        status: { azure: { cloudName: 'AzurePublicCloud', resourceGroupName: `${id}-rg`, networkResourceGroupName: `${id}-rg` } },
        config: {
          config:
            JSON.stringify(
              {
                cloud: 'AzurePublicCloud',
                tenantId: '6f1a2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b',
                subscriptionId: '0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d',
                resourceGroup: `${id}-rg`,
                location: 'westeurope',
                vnetName: `${id}-vnet`,
                vnetResourceGroup: `${id}-rg`,
                subnetName: `${id}-worker-subnet`,
                securityGroupName: `${id}-nsg`,
                routeTableName: `${id}-node-routetable`,
                cloudProviderBackoff: true,
                cloudProviderBackoffDuration: 6,
                useInstanceMetadata: true,
                loadBalancerSku: 'standard',
                excludeMasterFromStandardLB: false,
              },
              null,
              '\t',
            ) + '\n',
        },
      };
    case 'AzureStackHub':
      return {
        status: {
          azure: {
            cloudName: 'AzureStackCloud',
            resourceGroupName: `${id}-rg`,
            networkResourceGroupName: `${id}-rg`,
            armEndpoint: 'https://management.local.azurestack.external',
          },
        },
        config: {
          config:
            JSON.stringify(
              {
                cloud: 'AzureStackCloud',
                tenantId: '8b9c0d1e-2f3a-4b4c-8d5e-6f7a8b9c0d1e',
                subscriptionId: '2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f',
                resourceGroup: `${id}-rg`,
                location: 'local',
                vnetName: `${id}-vnet`,
                vnetResourceGroup: `${id}-rg`,
                subnetName: `${id}-subnet`,
                securityGroupName: `${id}-nsg`,
                useInstanceMetadata: false,
                loadBalancerSku: 'basic',
              },
              null,
              '\t',
            ) + '\n',
          // the go-autorest azure.Environment JSON the installer writes for Azure Stack Hub
          endpoints: JSON.stringify({
            name: 'AzureStackCloud',
            managementPortalURL: 'https://portal.local.azurestack.external/',
            resourceManagerEndpoint: 'https://management.local.azurestack.external/',
            activeDirectoryEndpoint: 'https://login.microsoftonline.com/',
            storageEndpointSuffix: 'local.azurestack.external',
            keyVaultDNSSuffix: 'vault.local.azurestack.external',
            tokenAudience: 'https://management.adminlocal.azurestack.external/12345678-1234-1234-1234-123456789012',
          }),
        },
      };
    case 'GCP':
      return {
        status: { gcp: { projectID: 'example-platform-eus', region: 'europe-west4' } },
        config: {
          config: `[global]\nproject-id      = example-platform-eus\nregional        = true\nmultizone       = true\nnode-tags       = ${id}-master\nnode-tags       = ${id}-worker\nnode-instance-prefix = ${id}\nexternal-instance-groups-prefix = ${id}\nsubnetwork-name = ${id}-worker-subnet\n`,
        },
      };
    case 'IBMCloud':
      return {
        status: {
          ibmcloud: {
            location: 'eu-de',
            resourceGroupName: `${id}-rg`,
            providerType: 'VPC',
            cisInstanceCRN: 'crn:v1:bluemix:public:internet-svcs:global:a/1e1f75646aef447814a6d907cc83fb3c:5b4c1e2a-1d2f-4e3a-9b8c-7d6e5f4a3b2c::',
          },
        },
        config: {
          config: `[global]\nversion = 1.1.0\n[kubernetes]\nconfig-file = ""\n[provider]\naccountID = 1e1f75646aef447814a6d907cc83fb3c\nclusterID = ${id}\ncluster-default-provider = g2\nregion = eu-de\ng2Credentials = /etc/vpc/ibmcloud_api_key\ng2ResourceGroupName = ${id}-rg\ng2VpcName = ${id}-vpc\ng2workerServiceAccountID = 1e1f75646aef447814a6d907cc83fb3c\ng2VpcSubnetNames = ${id}-subnet-control-plane-eu-de-1,${id}-subnet-compute-eu-de-1\n`,
        },
      };
    case 'PowerVS':
      return {
        status: {
          powervs: {
            region: 'eu-de',
            zone: 'eu-de-1',
            resourceGroup: `${id}-rg`,
            cisInstanceCRN: 'crn:v1:bluemix:public:internet-svcs:global:a/1e1f75646aef447814a6d907cc83fb3c:6c5d2f3b-2e3a-4f4b-8c9d-8e7f6a5b4c3d::',
          },
        },
        config: {
          config: `[global]\nversion = 1.1.0\n[kubernetes]\nconfig-file = ""\n[provider]\ncluster-default-provider = g2\naccountID = 1e1f75646aef447814a6d907cc83fb3c\nclusterID = ${id}\ng2workerServiceAccountID = 1e1f75646aef447814a6d907cc83fb3c\ng2Credentials = /etc/vpc/ibmcloud_api_key\ng2ResourceGroupName = ${id}-rg\ng2VpcSubnetNames = ${id}-vpcsubnet\ng2VpcName = ${id}-vpc\nregion = eu-de\npowerVSCloudInstanceID = 4c5d6e7f-8a9b-4c0d-9e1f-2a3b4c5d6e7f\npowerVSRegion = eu-de\npowerVSZone = eu-de-1\n`,
        },
      };
    case 'OpenStack':
      return {
        status: {
          openstack: {
            cloudName: 'openstack',
            apiServerInternalIP: '10.0.0.5',
            apiServerInternalIPs: ['10.0.0.5'],
            ingressIP: '10.0.0.7',
            ingressIPs: ['10.0.0.7'],
            loadBalancer: { type: 'OpenShiftManagedDefault' },
          },
        },
        config: {
          config:
            '[Global]\nsecret-name = openstack-credentials\nsecret-namespace = kube-system\nuse-clouds = true\nclouds-file = /etc/openstack/secret/clouds.yaml\ncloud = openstack\n\n' +
            '[LoadBalancer]\nfloating-network-id = 5b8e4c6a-2f1d-4e3b-9a7c-1d2e3f4a5b6c\n',
        },
      };
    case 'VSphere':
      return {
        spec: {
          vsphere: {
            vcenters: [{ server: 'vcenter.corp.example.com', port: 443, datacenters: ['dc1'] }],
            failureDomains: [
              {
                name: 'generated-failure-domain',
                region: 'generated-region',
                zone: 'generated-zone',
                server: 'vcenter.corp.example.com',
                topology: {
                  datacenter: 'dc1',
                  computeCluster: '/dc1/host/cluster1',
                  datastore: '/dc1/datastore/ds1',
                  networks: ['ocp-network'],
                  resourcePool: '/dc1/host/cluster1/Resources',
                  folder: `/dc1/vm/${id}`,
                },
              },
            ],
            nodeNetworking: { external: {}, internal: {} },
          },
        },
        status: { vsphere: { apiServerInternalIPs: ['10.0.0.5'], ingressIPs: ['10.0.0.7'] } },
        config: {
          config:
            '[Global]\nsecret-name = vsphere-creds\nsecret-namespace = kube-system\ninsecure-flag = 1\n\n' +
            `[Workspace]\nserver = vcenter.corp.example.com\ndatacenter = dc1\ndefault-datastore = ds1\nfolder = /dc1/vm/${id}\n\n` +
            '[VirtualCenter "vcenter.corp.example.com"]\ndatacenters = dc1\n',
        },
      };
    case 'Nutanix':
      return {
        spec: {
          nutanix: {
            prismCentral: { address: 'prism-central.corp.example.com', port: 9440 },
            prismElements: [{ name: 'pe-1', endpoint: { address: 'prism-element.corp.example.com', port: 9440 } }],
          },
        },
        status: { nutanix: { apiServerInternalIPs: ['10.0.0.5'], ingressIPs: ['10.0.0.7'] } },
        config: {
          config:
            JSON.stringify(
              {
                prismCentral: {
                  address: 'prism-central.corp.example.com',
                  port: 9440,
                  credentialRef: { kind: 'Secret', name: 'nutanix-credentials', namespace: 'openshift-cloud-controller-manager' },
                },
                topologyDiscovery: { type: 'Prism', topologyCategories: null },
                enableCustomLabeling: true,
              },
              null,
              '    ',
            ) + '\n',
        },
      };
    case 'AlibabaCloud':
      return {
        status: { alibabaCloud: { region: 'cn-hangzhou', resourceGroupID: 'rg-acfmxexample0001' } },
        config: {
          config:
            JSON.stringify({
              Global: {
                region: 'cn-hangzhou',
                vpcid: 'vpc-bp1example0000000000',
                vswitchid: 'vsw-bp1example0000000000',
                zoneID: 'cn-hangzhou-h',
                clusterID: id,
              },
            }) + '\n',
        },
      };
  }
}

/** The Infrastructure `platformStatus` key and type of a platform (Azure Stack Hub is type Azure). */
function platformType(platform: ExportPlatform): string {
  return platform === 'AzureStackHub' ? 'Azure' : platform;
}

/** The feature gates of the Default feature set a release reports (openshift/api features/features.go at the branch): a few, as the status lists them. */
function featureGates(minor: string, version: string): Obj[] {
  const enabled = ['CloudDualStackNodeIPs', 'GatewayAPI', ...(minor === '4.16' ? [] : ['VSphereMultiVCenters'])];
  const disabled = [
    ...(minor === '4.20' ? ['AWSServiceLBNetworkSecurityGroup', 'VSphereMixedNodeEnv'] : []),
    'EventedPLEG',
    ...(minor === '4.16' ? ['VSphereMultiVCenters'] : []),
  ];
  return [{ version, enabled: enabled.map((name) => ({ name })), disabled: disabled.map((name) => ({ name })) }];
}

/** One export: file name to its YAML, as `oc get … -o yaml > file` writes them; `infraSpec` replaces Infrastructure spec fields. */
export function exportFiles(platform: ExportPlatform, minor: string, omit: readonly string[] = [], infraSpec: Obj = {}): Record<string, string> {
  const version = EXPORT_VERSIONS[minor];
  const p = platformExport(platform);
  const type = platformType(platform);
  const meta = (name: string, extra: Obj = {}) => ({ name, resourceVersion: '48213', uid: 'a3c1e2d4-5b6f-4a7b-8c9d-0e1f2a3b4c5d', ...extra });
  const objects: Record<string, Obj> = {
    'infrastructure.yaml': {
      apiVersion: 'config.openshift.io/v1',
      kind: 'Infrastructure',
      metadata: meta('cluster'),
      spec: { cloudConfig: { key: 'config', name: 'cloud-provider-config' }, platformSpec: { type, ...(p.spec ?? {}) }, ...infraSpec },
      status: {
        apiServerInternalURI: `https://api-int.${INFRA_ID[platform]}.example.com:6443`,
        apiServerURL: `https://api.${INFRA_ID[platform]}.example.com:6443`,
        controlPlaneTopology: 'HighlyAvailable',
        cpuPartitioning: 'None',
        etcdDiscoveryDomain: '',
        infrastructureName: INFRA_ID[platform],
        infrastructureTopology: 'HighlyAvailable',
        platform: type,
        platformStatus: { type, ...p.status },
      },
    },
    'clusterversion.yaml': {
      apiVersion: 'config.openshift.io/v1',
      kind: 'ClusterVersion',
      metadata: meta('version'),
      spec: { channel: `eus-${minor}`, clusterID: '0f9c7a52-3d1e-4b8a-9c6f-2e7d5a1b3c4d' },
      status: {
        availableUpdates: null,
        desired: { version, image: digest(14), channels: [`eus-${minor}`, `stable-${minor}`] },
        history: [{ state: 'Completed', version, image: digest(14), verified: true, startedTime: '2026-11-02T09:12:44Z' }],
        observedGeneration: 4,
        versionHash: 'Yf3qk1N6m2E=',
      },
    },
    'cloud-provider-config.yaml': {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: meta('cloud-provider-config', { namespace: 'openshift-config' }),
      data: p.config,
    },
    'cloud-controller-manager-images.yaml': {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: meta('cloud-controller-manager-images', {
        namespace: 'openshift-cloud-controller-manager-operator',
        annotations: {
          'capability.openshift.io/name': 'CloudControllerManager',
          'include.release.openshift.io/self-managed-high-availability': 'true',
        },
      }),
      data: { 'images.json': imagesJson(minor) },
    },
    // the operator Deployment: its containers as the payload ships them (release-4.16 to 4.21 run a kube-rbac-proxy sidecar,
    // openshift/cluster-cloud-controller-manager-operator@6148c0cca626 (release-4.21) manifests/0000_26_cloud-controller-manager-operator_11_deployment.yaml)
    'operator-deployment.yaml': {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: meta('cluster-cloud-controller-manager-operator', { namespace: 'openshift-cloud-controller-manager-operator', generation: 3 }),
      spec: {
        replicas: 1,
        selector: { matchLabels: { 'k8s-app': 'cloud-manager-operator' } },
        template: {
          metadata: { labels: { 'k8s-app': 'cloud-manager-operator' } },
          spec: {
            containers: [
              { name: 'cluster-cloud-controller-manager', image: digest(1) },
              { name: 'config-sync-controllers', image: digest(1) },
              { name: 'kube-rbac-proxy', image: KUBE_RBAC_PROXY_IMAGE },
            ],
          },
        },
      },
    },
    'featuregate.yaml': {
      apiVersion: 'config.openshift.io/v1',
      kind: 'FeatureGate',
      metadata: meta('cluster'),
      spec: {},
      status: { featureGates: featureGates(minor, version) },
    },
    'apiserver.yaml': {
      apiVersion: 'config.openshift.io/v1',
      kind: 'APIServer',
      metadata: meta('cluster'),
      spec: { audit: { profile: 'Default' }, tlsSecurityProfile: { type: 'Intermediate', intermediate: {} } },
    },
    'network.yaml': {
      apiVersion: 'config.openshift.io/v1',
      kind: 'Network',
      metadata: meta('cluster'),
      spec: { clusterNetwork: [{ cidr: '10.128.0.0/14', hostPrefix: 23 }], networkType: 'OVNKubernetes', serviceNetwork: ['172.30.0.0/16'] },
    },
    'proxy.yaml': {
      apiVersion: 'config.openshift.io/v1',
      kind: 'Proxy',
      metadata: meta('cluster'),
      spec: BEHIND_PROXY.includes(platform)
        ? { httpProxy: PROXY_STATUS.httpProxy, httpsProxy: PROXY_STATUS.httpsProxy, noProxy: 'api-int.example.com', trustedCA: { name: '' } }
        : { trustedCA: { name: '' } },
      status: BEHIND_PROXY.includes(platform) ? PROXY_STATUS : {},
    },
  };
  return Object.fromEntries(
    Object.entries(objects)
      .filter(([file]) => !omit.includes(file))
      .map(([file, o]) => [file, stringify(o, { lineWidth: 0 })]),
  );
}

/** Whether the exported cluster of `platform` runs behind the proxy of {@link PROXY_STATUS}. */
export function behindProxy(platform: ExportPlatform): boolean {
  return BEHIND_PROXY.includes(platform);
}

/**
 * What the release's cloud-config transformer reads besides the source, taken from the same export: the
 * Infrastructure's platform spec and status, and the Network's service network (for the oracle's ClusterInputs).
 */
export function oracleInputs(platform: ExportPlatform): { aws?: { region?: string }; vsphere?: Obj } {
  const p = platformExport(platform);
  if (platform === 'AWS') {
    return { aws: { region: (p.status.aws as Obj).region as string } };
  }
  if (platform === 'VSphere') {
    const status = p.status.vsphere as Obj;
    return {
      vsphere: {
        // the oracle's VSphereInputs names a failure domain's datacenter where the Infrastructure nests it in topology
        platformSpec: {
          ...(p.spec?.vsphere as Obj),
          failureDomains: ((p.spec?.vsphere as Obj).failureDomains as Obj[]).map((fd) => ({
            server: fd.server,
            datacenter: (fd.topology as Obj).datacenter,
          })),
        },
        apiServerInternalIPs: status.apiServerInternalIPs,
        ingressIPs: status.ingressIPs,
        serviceNetwork: ['172.30.0.0/16'],
      },
    };
  }
  return {};
}
