/**
 * vSphere: kubernetes/cloud-provider-vsphere@v1.36.0 (image
 * registry.k8s.io/cloud-pv-vsphere/cloud-provider-vsphere:v1.36.0), built on k8s.io/cloud-provider
 * v0.36.0 (go.mod; cmd/vsphere-cloud-controller-manager/main.go runs app.Run with
 * app.DefaultInitFuncConstructors). The generic app and controllers are in common.ts.
 *
 * Not inventoried: the NSX-T load balancer (only with a `[LoadBalancer]` section) and the NSX-T
 * secret listener (only with NSX-T credentials in a Secret).
 */
import { parse } from 'yaml';
import { cloudProviderAppCalls, clientBuilderCalls, LibraryVersions } from './common';
import { CONFIG_SECRET_NAMESPACE, ProviderInventory } from './types';

const TAG = 'v1.36.0';
const R = `kubernetes/cloud-provider-vsphere@${TAG}`;
const V: LibraryVersions = { cloudProvider: 'v0.36.0', controllerManager: 'v0.36.0', apiserver: 'v0.36.0', clientGo: 'v0.36.0' };
const vs = 'vsphere-cloud-controller-manager';

/** The INI sections of a legacy vsphere.conf (gcfg: names case-insensitive, the last value wins), or undefined. */
function iniSections(config: string): Map<string, Map<string, string>> | undefined {
  const out = new Map<string, Map<string, string>>();
  let current: Map<string, string> | undefined;
  for (const raw of config.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) {
      continue;
    }
    const header = /^\[\s*([A-Za-z][\w-]*)\s*(?:"((?:[^"\\]|\\.)*)")?\s*\]$/.exec(line);
    if (header) {
      const key = `${header[1].toLowerCase()}${header[2] === undefined ? '' : ` ${header[2]}`}`;
      current = out.get(key) ?? new Map();
      out.set(key, current);
      continue;
    }
    const entry = /^([A-Za-z][\w-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (!entry || !current) {
      return undefined;
    }
    current.set(entry[1].toLowerCase(), (entry[2] ?? '').replace(/^"(.*)"$/, '$1'));
  }
  return out;
}

/**
 * The namespaces the binary lists and watches Secrets in, read from the rendered vsphere.conf:
 * the global lister's (undefined = all namespaces, for an empty `secretNamespace`), and one per
 * vCenter that sets both its own `secretName` and `secretNamespace`. Not rendered: the upstream
 * release manifest's `secret-namespace: kube-system`.
 */
export function vsphereSecretNamespaces(config: string | undefined): (string | undefined)[] {
  if (config === undefined) {
    return ['kube-system'];
  }
  const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');
  let global: string;
  const perVcenter: string[] = [];
  let yaml: unknown;
  try {
    yaml = parse(config);
  } catch {
    yaml = undefined;
  }
  if (yaml !== null && typeof yaml === 'object' && !Array.isArray(yaml)) {
    // ReadConfig tries YAML first (pkg/common/config/config.go isConfigYaml); yaml.v2 field names: global, vcenter
    const y = yaml as { global?: Record<string, unknown>; vcenter?: Record<string, Record<string, unknown> | null> };
    global = str(y.global?.secretNamespace);
    for (const v of Object.values(y.vcenter ?? {})) {
      if (str(v?.secretName) !== '' && str(v?.secretNamespace) !== '') {
        perVcenter.push(str(v!.secretNamespace));
      }
    }
  } else {
    const ini = iniSections(config) ?? new Map<string, Map<string, string>>();
    global = ini.get('global')?.get('secret-namespace') ?? '';
    for (const [key, v] of ini) {
      if (key.startsWith('virtualcenter ') && (v.get('secret-name') ?? '') !== '' && (v.get('secret-namespace') ?? '') !== '') {
        perVcenter.push(v.get('secret-namespace')!);
      }
    }
  }
  return [global === '' ? undefined : global, ...perVcenter];
}

export const VSPHERE_INVENTORY: ProviderInventory = {
  provider: 'vsphere',
  imageTag: TAG,
  calls: [
    ...cloudProviderAppCalls(V),
    // Initialize: clientBuilder.Client(ClientName); on error vs.informMgr stays nil and Initialize dereferences it (panic)
    ...clientBuilderCalls(vs, V),
    {
      client: vs,
      verbs: ['list', 'watch'],
      apiGroup: '',
      resource: 'nodes',
      source: `${R} pkg/cloudprovider/vsphere/cloud.go (Initialize: k8s.NewInformer(client, ...), AddNodeListener), pkg/common/kubernetes/informers.go (its own SharedInformerFactory on that client)`,
    },
    {
      // the vCenter credentials Secrets: the namespaces vsphere.conf names (vsphereSecretNamespaces)
      client: vs,
      verbs: ['list', 'watch'],
      apiGroup: '',
      resource: 'secrets',
      namespace: CONFIG_SECRET_NAMESPACE,
      source: `${R} pkg/cloudprovider/vsphere/cloud.go (Initialize: k8s.NewInformer(client, Global.SecretNamespace, ...)), pkg/common/connectionmanager/connectionmanager.go (NewConnectionManager: informMgr.GetSecretLister(cfg.Global.SecretNamespace); InitializeSecretLister/createManagersPerTenant per vCenter secret), pkg/common/kubernetes/informers.go (WithNamespace(namespace); "" is the cluster-wide factory); releases/v1.36/vsphere-cloud-controller-manager.yaml (secret-namespace: kube-system)`,
    },
  ],
  configSecretNamespaces: vsphereSecretNamespaces,
};
