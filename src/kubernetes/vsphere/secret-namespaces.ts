/**
 * The namespaces the vSphere CCM watches Secrets in, read from its vsphere.conf
 * (YAML, or the legacy INI when the text is not YAML). Pure: no cdk8s import.
 *
 * kubernetes/cloud-provider-vsphere@v1.36.0 pkg/cloudprovider/vsphere/cloud.go (Initialize:
 * k8s.NewInformer(client, Global.SecretNamespace, ...)) and
 * pkg/common/connectionmanager/connectionmanager.go (NewConnectionManager:
 * GetSecretLister(Global.SecretNamespace); InitializeSecretLister: one lister per vCenter
 * whose secretName and secretNamespace are both set, pkg/common/config/config_yaml.go and
 * config_ini_legacy.go isSecretInfoProvided).
 */
import { isMap, parseDocument } from 'yaml';
import { parseGcfg } from '../../cloud-config/gcfg';

/** The Secret namespaces of one vsphere.conf. */
export interface VSphereSecretNamespaces {
  /** `global.secretNamespace`; '' when unset: the global lister then watches every namespace. */
  readonly global: string;
  /** Per vCenter with its own secretName and secretNamespace: the vCenter key and the namespace. */
  readonly vcenters: readonly { readonly vcenter: string; readonly namespace: string }[];
  /** The field that holds the global namespace, for messages: YAML `global.secretNamespace` or INI `[Global] secret-namespace`. */
  readonly globalField: string;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/** Reads the Secret namespaces of a vsphere.conf; undefined when the text is neither YAML nor INI the CCM would read. */
export function vsphereSecretNamespaces(conf: string): VSphereSecretNamespaces | undefined {
  // the CCM tries YAML first (pkg/common/config/config.go ReadConfig: isConfigYaml), then INI
  const doc = parseDocument(conf, { uniqueKeys: false });
  if (doc.errors.length === 0 && (isMap(doc.contents) || doc.contents === null)) {
    const data = (doc.toJS({ maxAliasCount: 100 }) ?? {}) as Record<string, unknown>;
    const global = (data.global ?? {}) as Record<string, unknown>;
    const vcenter = (data.vcenter ?? {}) as Record<string, Record<string, unknown> | null>;
    return {
      global: text(global.secretNamespace),
      globalField: 'global.secretNamespace',
      vcenters: Object.entries(vcenter)
        .filter(([, v]) => text(v?.secretName) !== '' && text(v?.secretNamespace) !== '')
        .map(([name, v]) => ({ vcenter: name, namespace: text(v!.secretNamespace) })),
    };
  }
  let sections;
  try {
    sections = parseGcfg(conf);
  } catch {
    return undefined;
  }
  // gcfg matches section and variable names case-insensitively; the last value wins
  const value = (entries: readonly { name: string; value: string | null }[], name: string) =>
    entries
      .filter((e) => e.name.toLowerCase() === name)
      .map((e) => e.value ?? '')
      .pop() ?? '';
  const globals = sections.filter((s) => s.name.toLowerCase() === 'global').flatMap((s) => s.entries);
  const vcenters = new Map<string, { name: string; value: string | null }[]>();
  for (const s of sections.filter((x) => x.name.toLowerCase() === 'virtualcenter' && x.subsection !== undefined)) {
    vcenters.set(s.subsection!, [...(vcenters.get(s.subsection!) ?? []), ...s.entries]);
  }
  return {
    global: value(globals, 'secret-namespace'),
    globalField: '[Global] secret-namespace',
    vcenters: [...vcenters.entries()]
      .filter(([, e]) => value(e, 'secret-name') !== '' && value(e, 'secret-namespace') !== '')
      .map(([name, e]) => ({ vcenter: name, namespace: value(e, 'secret-namespace') })),
  };
}
