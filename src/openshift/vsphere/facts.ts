import { describeValue } from '../../cluster-spec/errors';
import { VSphereSpecSection } from '../../cluster-spec/sections/vsphere';
import { transformVSphereCloudConfig, VSphereTransformOptions } from '../../cloud-config/vsphere';
import { ClusterSpec } from '../../cluster-spec/schema';
import type { ImportedPlatformSections, LivePlatformObjects } from '../../cluster/distribution';
import { arr, pick, rec } from '../../util/exported-fields';
import { PlatformFacts, PlatformSpecProblem } from '../platform';
import { releaseAtLeast } from '../release';
import { operandRenders } from '../release-operands';

/** Secret written by the cloud-credential-operator from CredentialsRequest `openshift-vsphere-cloud-controller-manager`. */
export const VSPHERE_CREDENTIALS_SECRET = 'vsphere-cloud-credentials';

/** The inputs of the vSphere transform, from `spec.vsphere` and `spec.network`. */
export function vsphereTransformOptions(spec: ClusterSpec): VSphereTransformOptions {
  const v: VSphereSpecSection | undefined = spec.spec.vsphere;
  const serviceNetwork = spec.spec.network?.serviceNetwork ?? [];
  const structOrder = !operandRenders(spec.spec.openshift?.release, 'vsphereSortedYaml');
  if (!v) {
    return { serviceNetwork, ...(structOrder ? { structOrder } : {}) };
  }
  return {
    platformSpec: {
      vcenters: v.vcenters,
      failureDomains: v.failureDomains.map((fd) => ({ name: fd.name, server: fd.server, topology: { datacenter: fd.topology.datacenter } })),
      nodeNetworking: v.nodeNetworking,
    },
    apiServerInternalIPs: v.apiServerInternalIPs,
    ingressIPs: v.ingressIPs,
    serviceNetwork,
    ...(keepsUnlistedVCenters(spec.spec.openshift?.release) ? { keepUnlistedVCenters: true } : {}),
    ...(structOrder ? { structOrder } : {}),
  };
}

/**
 * The first release whose transform drops the user's vCenters the Infrastructure no longer lists
 * (openshift/cluster-cloud-controller-manager-operator@release-4.23 pkg/cloud/vsphere/vsphere_config_transformer.go
 * `setVirtualCenters` clears the map; release-4.22 does not).
 */
export const VSPHERE_DROPS_UNLISTED_VCENTERS_SINCE = '4.23';

/** Whether the transform of `release` keeps unlisted vCenters (main's behaviour without a release: dropped). */
function keepsUnlistedVCenters(release: string | undefined): boolean {
  return release !== undefined && !releaseAtLeast(release, VSPHERE_DROPS_UNLISTED_VCENTERS_SINCE);
}

/** vSphere on OpenShift: the operator's `pkg/cloud/vsphere`, with the vSphere cloud-config transform. */
export const VSPHERE_PLATFORM_FACTS: PlatformFacts = {
  type: 'VSphere',
  requiredImages: ['cloudControllerManagerVSphere'],

  credentialsRequest: {
    name: 'openshift-vsphere-cloud-controller-manager',
    secretName: VSPHERE_CREDENTIALS_SECRET,
    providerSpec: { kind: 'VSphereProviderSpec' },
  },
  importLiveSections: importVSphereLiveSections,

  validate(spec: ClusterSpec): PlatformSpecProblem[] {
    const v = spec.spec.vsphere;
    if (!v) {
      return [];
    }
    const problems: PlatformSpecProblem[] = [];
    const servers = v.vcenters.map((vc) => vc.server);
    v.vcenters.forEach((vc, i) => {
      if (servers.indexOf(vc.server) !== i) {
        problems.push({
          path: ['spec', 'vsphere', 'vcenters', i, 'server'],
          message: `${describeValue(vc.server)} is listed twice; keep one entry per vCenter`,
        });
      }
    });
    const names = new Set<string>();
    v.failureDomains.forEach((fd, i) => {
      if (!servers.includes(fd.server)) {
        problems.push({
          path: ['spec', 'vsphere', 'failureDomains', i, 'server'],
          message: `${describeValue(fd.server)} is not one of spec.vsphere.vcenters (${servers.map(describeValue).join(', ')}); add the vCenter or fix the server`,
        });
      }
      if (names.has(fd.name)) {
        problems.push({
          path: ['spec', 'vsphere', 'failureDomains', i, 'name'],
          message: `"${fd.name}" is used by an earlier failure domain; names must be unique`,
        });
      }
      names.add(fd.name);
    });
    return problems;
  },

  transformCloudConfig: (source, spec) => transformVSphereCloudConfig(source, vsphereTransformOptions(spec)),
};

/** The vCenters and failure domains of the Infrastructure's vSphere platform spec, its IPs, and the Network's service network (the IP families of the config). */
function importVSphereLiveSections({ infrastructure, network }: LivePlatformObjects): ImportedPlatformSections {
  const vs = rec(rec(rec(infrastructure.spec).platformSpec).vsphere);
  const vsStatus = rec(rec(rec(infrastructure.status).platformStatus).vsphere);
  const vcenters = arr(vs.vcenters).map(rec);
  const failureDomains = arr(vs.failureDomains).map(rec);
  const nodeNetworking = rec(vs.nodeNetworking);
  const sections: Record<string, unknown> = {};
  const warnings: string[] = [];
  if (vcenters.length) {
    sections.vsphere = {
      vcenters: vcenters.map((v) => ({ server: v.server, ...(v.port ? { port: v.port } : {}), datacenters: v.datacenters ?? [] })),
      ...(failureDomains.length
        ? {
            failureDomains: failureDomains.map((fd) => ({
              name: fd.name,
              region: fd.region,
              zone: fd.zone,
              server: fd.server,
              topology: pick(rec(fd.topology), ['datacenter', 'computeCluster', 'datastore', 'networks', 'resourcePool', 'folder']),
            })),
          }
        : {}),
      ...(Object.keys(nodeNetworking).length ? { nodeNetworking } : {}),
      ...(arr(vsStatus.apiServerInternalIPs).length ? { apiServerInternalIPs: vsStatus.apiServerInternalIPs } : {}),
      ...(arr(vsStatus.ingressIPs).length ? { ingressIPs: vsStatus.ingressIPs } : {}),
    };
  }
  const found = network();
  const serviceNetwork = arr(rec(found?.spec).serviceNetwork);
  if (serviceNetwork.length) {
    sections.network = { serviceNetwork };
  } else if (!found) {
    warnings.push('no Network "cluster" in the export: IP families of the vSphere config are not set (oc get network.config cluster -o yaml)');
  }
  return { sections, warnings };
}
