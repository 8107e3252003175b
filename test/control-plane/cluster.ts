// The server every control-plane check starts from: kube-apiserver, etcd and the harness's
// kube-controller-manager, the CRDs the trees need, and the namespaces a target cluster has.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Api, ApiObject, messageOf } from './api';
import { ControlPlane, startControlPlane } from './harness';

export const ROOT = path.join(__dirname, '..', '..');
const CRDS = process.env.CCM_GITOPS_CRDS ?? path.join(ROOT, '..', 'shared', 'crds');

// The field managers of the engines' server-side apply: Argo CD's ArgoCDSSAManager
// (argoproj/argo-cd@v3.5.1 common/common.go) and Flux's controllerName (fluxcd/kustomize-controller@v1.9.4 main.go).
export const ARGO_MANAGER = 'argocd-controller';
export const FLUX_MANAGER = 'kustomize-controller';
// Our own name for the ClusterResourceSet controller's writes into the workload cluster.
export const CRS_MANAGER = 'control-plane-test-clusterresourceset';

/**
 * Namespaces a target cluster has before any tree is applied: OpenShift's own, and those of the
 * engines (OpenShift GitOps, Argo CD, Flux). A tree that uses any other namespace renders it.
 */
export const PLATFORM_NAMESPACES = [
  'openshift-config',
  'openshift-config-managed',
  'openshift-cloud-credential-operator',
  'openshift-gitops',
  'argocd',
  'flux-system',
];

export function managerOf(objects: ApiObject[]): string {
  return objects.some((o) => o.apiVersion.startsWith('kustomize.toolkit.fluxcd.io/')) ? FLUX_MANAGER : ARGO_MANAGER;
}

/** Starts the server, installs every CRD of the shared set and creates the platform namespaces. */
export async function startCluster(): Promise<{ cp: ControlPlane; api: Api }> {
  const cp = await startControlPlane();
  try {
    const api = new Api(cp);
    const crdFiles = fs
      .readdirSync(CRDS)
      .filter((f) => f.endsWith('.yaml'))
      .sort()
      .map((f) => path.join(CRDS, f));
    await api.installCrds(crdFiles);
    for (const name of PLATFORM_NAMESPACES) {
      const res = await api.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }, 'control-plane-test-platform');
      if (res.status >= 300) throw new Error(`namespace ${name}: ${res.status} ${messageOf(res)}`);
    }
    return { cp, api };
  } catch (e) {
    await cp.stop();
    throw e;
  }
}
