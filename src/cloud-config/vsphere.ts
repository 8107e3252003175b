import { isMap, isScalar, parseAllDocuments, parseDocument, stringify } from 'yaml';
import { TransformResult } from './errors';
import { GcfgSection, parseGcfg } from './gcfg';
import { MAX_CONFIG_ALIASES, refuseDeepNesting, refuseHostileData, refuseYamlStackExhaustion } from './limits';
import { findSecretLikeField, findSecretLikeIniKey } from './secrets';
import { UserError, isUserError } from '../util/user-error';

/**
 * The vSphere cloud-config transform (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/cloud/vsphere/vsphere_config_transformer.go), as a pure function:
 * read the config as the vSphere CPI YAML, or as the legacy INI (converted
 * with library-go's field mapping), then, when the Infrastructure has a
 * vSphere platform spec, merge in its IP families, VIP exclusions, node
 * networking, vCenters and failure domains, and write YAML with empty fields
 * left out: keys sorted (sigs.k8s.io/yaml, release-4.23 on) or in the Go
 * structs' order (gopkg.in/yaml.v2, release-4.22 and earlier).
 *
 * Deviations from the operator (README): a failure domain on a vCenter the
 * Infrastructure does not list gets that vCenter added (the operator
 * dereferences a nil pointer); per-vCenter settings of the user config
 * (insecureFlag, caFile, thumbprint, secret names, soapRoundtripCount, ipFamily)
 * are kept for vCenters that remain (the operator replaces each vCenter with
 * server, port and datacenters only); `nodes` fields are overwritten only by
 * the node-networking fields the Infrastructure sets (the operator clears a
 * user `[Nodes]` when the Infrastructure has none); passwords are refused.
 */

/** The vSphere part of the Infrastructure (spec.platformSpec.vsphere), and what else the transform reads. */
export interface VSphereTransformOptions {
  /**
   * `spec.platformSpec.vsphere`; without it the config is only read and re-written.
   *
   * @default - none
   */
  readonly platformSpec?: VSpherePlatformSpec;
  /**
   * `status.platformStatus.vsphere.apiServerInternalIPs`.
   *
   * @default []
   */
  readonly apiServerInternalIPs?: readonly string[];
  /**
   * `status.platformStatus.vsphere.ingressIPs`.
   *
   * @default []
   */
  readonly ingressIPs?: readonly string[];
  /**
   * `Network.spec.serviceNetwork` CIDRs, in order.
   *
   * @default []
   */
  readonly serviceNetwork?: readonly string[];
  /**
   * Keep the user's vCenters the Infrastructure does not list, as release-4.22 and earlier do
   * (openshift/cluster-cloud-controller-manager-operator@release-4.22 pkg/cloud/vsphere/vsphere_config_transformer.go
   * `setVirtualCenters` adds to the parsed map); from release-4.23 the map is cleared first and they are dropped.
   *
   * @default false (release-4.23 and later)
   */
  readonly keepUnlistedVCenters?: boolean;
  /**
   * Write the fields in the order the Go structs declare them, as gopkg.in/yaml.v2 does on release-4.22 and earlier
   * (…@b99c3d88 (release-4.22) pkg/cloud/vsphere/vsphere_cloud_config/config.go MarshalConfig); release-4.23 writes
   * with sigs.k8s.io/yaml, every key sorted (…@bc52198c (release-4.23) vendor/github.com/openshift/library-go/pkg/cloudprovider/vsphere/config.go).
   *
   * @default false (release-4.23 and later)
   */
  readonly structOrder?: boolean;
}

/** Infrastructure `spec.platformSpec.vsphere`. */
export interface VSpherePlatformSpec {
  readonly vcenters?: readonly { readonly server: string; readonly port?: number; readonly datacenters?: readonly string[] }[];
  readonly failureDomains?: readonly { readonly name?: string; readonly server: string; readonly topology: { readonly datacenter: string } }[];
  readonly nodeNetworking?: {
    readonly internal?: VSphereNodeNetwork;
    readonly external?: VSphereNodeNetwork;
  };
}

/** One side of `nodeNetworking`. */
export interface VSphereNodeNetwork {
  readonly network?: string;
  readonly networkSubnetCidr?: readonly string[];
  readonly excludeNetworkSubnetCidr?: readonly string[];
}

/** The CPI config fields, by section, with their kinds (as library-go's CPIConfig). */
const VCENTER_FIELDS: Readonly<Record<string, Kind>> = {
  user: 'string',
  password: 'string',
  server: 'string',
  port: 'uint',
  insecureFlag: 'bool',
  datacenters: 'list',
  soapRoundtripCount: 'uint',
  caFile: 'string',
  thumbprint: 'string',
  secretName: 'string',
  secretNamespace: 'string',
  ipFamily: 'list',
};
const GLOBAL_FIELDS: Readonly<Record<string, Kind>> = { ...VCENTER_FIELDS, secretsDirectory: 'string' };
const LABEL_FIELDS: Readonly<Record<string, Kind>> = { zone: 'string', region: 'string' };
const NODE_FIELDS: Readonly<Record<string, Kind>> = {
  internalNetworkSubnetCidr: 'string',
  externalNetworkSubnetCidr: 'string',
  internalVmNetworkName: 'string',
  externalVmNetworkName: 'string',
  excludeInternalNetworkSubnetCidr: 'string',
  excludeExternalNetworkSubnetCidr: 'string',
};
type Kind = 'string' | 'uint' | 'bool' | 'list';
type Section = Record<string, string | number | boolean | string[]>;

/** The config in CPI YAML form. */
interface CpiConfig {
  global: Section;
  vcenter: Record<string, Section>;
  labels: Section;
  nodes: Section;
}

/** INI key -> CPI field, for `[Global]` and `[VirtualCenter "..."]` (library-go's mapping). */
const INI_KEYS: Readonly<Record<string, string>> = {
  user: 'user',
  password: 'password',
  server: 'server',
  port: 'port',
  'insecure-flag': 'insecureFlag',
  datacenters: 'datacenters',
  'soap-roundtrip-count': 'soapRoundtripCount',
  'ca-file': 'caFile',
  thumbprint: 'thumbprint',
  'secret-name': 'secretName',
  'secret-namespace': 'secretNamespace',
  'secrets-directory': 'secretsDirectory',
  'ip-family': 'ipFamily',
};
const INI_NODE_KEYS: Readonly<Record<string, string>> = {
  'internal-network-subnet-cidr': 'internalNetworkSubnetCidr',
  'external-network-subnet-cidr': 'externalNetworkSubnetCidr',
  'internal-vm-network-name': 'internalVmNetworkName',
  'external-vm-network-name': 'externalVmNetworkName',
  'exclude-internal-network-subnet-cidr': 'excludeInternalNetworkSubnetCidr',
  'exclude-external-network-subnet-cidr': 'excludeExternalNetworkSubnetCidr',
};
/** `[Global]` keys the legacy provider had and the CPI reads but drops. */
const INI_GLOBAL_DROPPED = ['api-disable', 'api-binding', 'ip-family'];

/** Runs the vSphere transform. Throws a UserError of kind 'cloud-config' where the operator fails. */
export function transformVSphereCloudConfig(source: string, options: VSphereTransformOptions = {}): TransformResult {
  const warnings: string[] = [];
  if (source.trim() === '') {
    throw new UserError(
      'cloud-config',
      'failed to read the cloud.conf: vSphere config is empty; give the vSphere cloud config (YAML, or the legacy INI)',
    );
  }
  const cfg = readCpiConfig(source, warnings);
  if (options.platformSpec) {
    merge(cfg, options, warnings);
  }
  return { config: writeCpiConfig(cfg, options.structOrder ?? false), warnings };
}

function readCpiConfig(source: string, warnings: string[]): CpiConfig {
  refuseDeepNesting(source, false);
  const doc = parseDocument(source, { uniqueKeys: false, logLevel: 'error' });
  refuseYamlStackExhaustion(doc.errors);
  if (doc.errors.some((e) => e.code === 'MULTIPLE_DOCS')) {
    // a second document is YAML, not INI: say so, rather than fail on the first line as INI
    const docs = parseAllDocuments(source, { uniqueKeys: false });
    const second = Array.isArray(docs) && docs[1] ? docs[1].range[0] : source.search(/^---/m);
    const line = source.slice(0, Math.max(0, second)).split('\n').length;
    throw new UserError(
      'cloud-config',
      `failed to read the cloud.conf: it holds ${Array.isArray(docs) ? docs.length : 'several'} YAML documents (the next one starts at line ${line}); ` +
        'the vSphere cloud config is one YAML document: merge them or remove the extra ones',
      line,
    );
  }
  // As sigs.k8s.io/yaml: only a mapping with string keys is YAML; anything else is read as the legacy INI.
  if (
    doc.errors.length === 0 &&
    isMap(doc.contents) &&
    doc.contents.items.every((p) => isScalar(p.key) && typeof p.key.value === 'string' && p.key.value !== '')
  ) {
    let data: Record<string, unknown>;
    try {
      data = doc.toJS({ maxAliasCount: MAX_CONFIG_ALIASES }) as Record<string, unknown>;
    } catch (e) {
      throw new UserError(
        'cloud-config',
        `failed to read the cloud.conf: its YAML aliases expand to more than ${MAX_CONFIG_ALIASES} nodes (${(e as Error).message}); write the values out`,
      );
    }
    refuseHostileData(data);
    return fromYaml(data, warnings);
  }
  return fromIni(source, warnings);
}

/** `where` is `"field.path"` (YAML) or `'key' (line N)` (INI). */
function refuseSecretField(where: string, line?: number): never {
  throw new UserError(
    'cloud-config',
    `${where} holds a credential; remove it: the vSphere cloud controller manager reads vCenter credentials from ` +
      'the vsphere-cloud-credentials Secret (vSphere CredentialsRequest, or an existing Secret), and credentials never go into git',
    line,
  );
}

function fromYaml(data: Record<string, unknown>, warnings: string[]): CpiConfig {
  const secret = findSecretLikeField(data);
  if (secret) {
    refuseSecretField(`"${secret}"`);
  }
  const cfg: CpiConfig = { global: {}, vcenter: {}, labels: {}, nodes: {} };
  for (const [key, value] of Object.entries(data)) {
    const k = key.toLowerCase();
    if (k === 'global') {
      cfg.global = section(value, GLOBAL_FIELDS, 'global', warnings);
    } else if (k === 'vcenter') {
      for (const [name, vc] of Object.entries(asObject(value, 'vcenter'))) {
        cfg.vcenter[name] = section(vc, VCENTER_FIELDS, `vcenter.${name}`, warnings);
      }
    } else if (k === 'labels') {
      cfg.labels = section(value, LABEL_FIELDS, 'labels', warnings);
    } else if (k === 'nodes') {
      cfg.nodes = section(value, NODE_FIELDS, 'nodes', warnings);
    } else {
      warnings.push(`"${key}" is not a vSphere cloud provider field; dropped`);
    }
  }
  return cfg;
}

function asObject(value: unknown, where: string): Record<string, unknown> {
  if (value === null || value === undefined) {
    return {};
  }
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new UserError('cloud-config', `failed to read the cloud.conf: "${where}" must be a mapping`);
  }
  return value as Record<string, unknown>;
}

/** Decodes one YAML section like encoding/json into the CPI struct: field names case-insensitive, unknown fields dropped. */
function section(value: unknown, fields: Readonly<Record<string, Kind>>, where: string, warnings: string[]): Section {
  const out: Section = {};
  for (const [key, v] of Object.entries(asObject(value, where))) {
    const field = Object.keys(fields).find((f) => f.toLowerCase() === key.toLowerCase());
    if (!field) {
      warnings.push(`"${where}.${key}" is not a vSphere cloud provider field; dropped`);
      continue;
    }
    out[field] = coerce(v, fields[field], `${where}.${field}`);
  }
  return out;
}

function coerce(v: unknown, kind: Kind, where: string): string | number | boolean | string[] {
  const bad = (what: string) => new UserError('cloud-config', `failed to read the cloud.conf: "${where}" must be ${what}, got ${JSON.stringify(v)}`);
  switch (kind) {
    case 'bool':
      if (typeof v !== 'boolean') {
        throw bad('true or false');
      }
      return v;
    case 'uint':
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
        throw bad('a whole number of at least 0');
      }
      return v;
    case 'list':
      if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) {
        throw bad('a list of strings');
      }
      return v as string[];
    default:
      if (typeof v !== 'string') {
        throw bad('a string');
      }
      return v;
  }
}

function fromIni(source: string, warnings: string[]): CpiConfig {
  const secret = findSecretLikeIniKey(source);
  if (secret) {
    refuseSecretField(`'${secret.key}' (line ${secret.line})`, secret.line);
  }
  let sections: GcfgSection[];
  try {
    sections = parseGcfg(source);
  } catch (e) {
    if (isUserError(e, 'cloud-config')) {
      throw new UserError('cloud-config', `failed to read the cloud.conf: ini config parsing failed: ${e.message}`, e.line);
    }
    throw e;
  }
  const cfg: CpiConfig = { global: {}, vcenter: {}, labels: {}, nodes: {} };
  for (const s of sections) {
    const name = s.name.toLowerCase();
    if (name === 'global' && s.subsection === undefined) {
      for (const e of s.entries) {
        const key = e.name.toLowerCase();
        if (INI_GLOBAL_DROPPED.includes(key)) {
          warnings.push(`'[Global] ${e.name}' (line ${e.line}) is read by the legacy provider only; dropped`);
          continue;
        }
        iniField(cfg.global, e.name, e.value, e.line, '[Global]', 'global', warnings);
      }
    } else if (name === 'virtualcenter' && s.subsection !== undefined) {
      const vc: Section = cfg.vcenter[s.subsection] ?? {};
      for (const e of s.entries) {
        iniField(vc, e.name, e.value, e.line, `[VirtualCenter "${s.subsection}"]`, `vc ${s.subsection}`, warnings);
      }
      if (!vc.server) {
        vc.server = s.subsection;
      }
      cfg.vcenter[s.subsection] = vc;
    } else if (name === 'labels') {
      for (const e of s.entries) {
        const key = e.name.toLowerCase();
        if (key === 'zone' || key === 'region') {
          cfg.labels[key] = e.value ?? '';
        } else {
          warnings.push(`'[Labels] ${e.name}' (line ${e.line}) is not a vSphere cloud provider option; dropped`);
        }
      }
    } else if (name === 'nodes') {
      for (const e of s.entries) {
        const field = INI_NODE_KEYS[e.name.toLowerCase()];
        if (field) {
          cfg.nodes[field] = e.value ?? '';
        } else {
          warnings.push(`'[Nodes] ${e.name}' (line ${e.line}) is not a vSphere cloud provider option; dropped`);
        }
      }
    } else {
      warnings.push(
        `section '[${s.name}${s.subsection !== undefined ? ` "${s.subsection}"` : ''}]' (line ${s.line}) is not read by the vSphere cloud controller manager; dropped`,
      );
    }
  }
  return cfg;
}

function iniField(into: Section, key: string, value: string | null, line: number, header: string, portWhere: string, warnings: string[]): void {
  const field = INI_KEYS[key.toLowerCase()];
  if (!field || (field === 'secretsDirectory' && header !== '[Global]')) {
    warnings.push(`'${header} ${key}' (line ${line}) is not a vSphere cloud provider option; dropped`);
    return;
  }
  const v = value ?? '';
  switch (field === 'ipFamily' || field === 'datacenters' ? 'list' : GLOBAL_FIELDS[field]) {
    case 'bool': {
      const b = v.toLowerCase();
      if (value === null || ['true', 'yes', 'on', '1'].includes(b)) {
        into[field] = true;
      } else if (['false', 'no', 'off', '0'].includes(b)) {
        into[field] = false;
      } else {
        throw new UserError(
          'cloud-config',
          `failed to read the cloud.conf: ini config parsing failed: line ${line}: ${header} ${key}: failed to parse ${JSON.stringify(v)} as bool`,
          line,
        );
      }
      break;
    }
    case 'uint': {
      if (!/^[+-]?\d+$/.test(v.trim())) {
        throw new UserError(
          'cloud-config',
          `failed to read the cloud.conf: can not parse vCenter port from ini config: strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`,
          line,
        );
      }
      const n = Number(v.trim());
      if (n < 0) {
        throw new UserError(
          'cloud-config',
          field === 'port' && header === '[Global]'
            ? 'failed to read the cloud.conf: can not create CPIConfig, invalid global port parameter: parsed int bigger than zero'
            : `failed to read the cloud.conf: invalid port parameter for ${portWhere}: parsed int bigger than zero`,
          line,
        );
      }
      into[field] = n;
      break;
    }
    case 'list':
      into[field] =
        field === 'ipFamily'
          ? [v]
          : v
              .split(',')
              .map((x) => x.trim())
              .filter((x) => x !== '');
      break;
    default:
      into[field] = v;
  }
}

function isIPv6(cidrOrIp: string): boolean {
  return cidrOrIp.includes(':');
}

function merge(cfg: CpiConfig, options: VSphereTransformOptions, warnings: string[]): void {
  const spec = options.platformSpec!;
  const serviceNetwork = options.serviceNetwork ?? [];
  // 1. IP families from the service network.
  if (serviceNetwork.length === 1 && isIPv6(serviceNetwork[0])) {
    cfg.global.ipFamily = ['ipv6'];
  } else if (serviceNetwork.length === 2) {
    cfg.global.ipFamily = isIPv6(serviceNetwork[0]) ? ['ipv6', 'ipv4'] : ['ipv4', 'ipv6'];
  }
  // 2. With IPv6 services, the VIPs and the internal DNS address must never be taken for node addresses.
  const internal = { ...spec.nodeNetworking?.internal };
  const external = { ...spec.nodeNetworking?.external };
  if (serviceNetwork.some(isIPv6)) {
    const vips = [...(options.apiServerInternalIPs ?? []), ...(options.ingressIPs ?? [])].map((ip) =>
      ip.includes('/') ? ip : `${ip}${isIPv6(ip) ? '/128' : '/32'}`,
    );
    const exclusions = [...vips, 'fd69::2/128'];
    internal.excludeNetworkSubnetCidr = [...(internal.excludeNetworkSubnetCidr ?? []), ...exclusions];
    external.excludeNetworkSubnetCidr = [...(external.excludeNetworkSubnetCidr ?? []), ...exclusions];
  }
  // 3. Node networking: only the fields the Infrastructure sets.
  const nodes: [string, string | readonly string[] | undefined][] = [
    ['internalNetworkSubnetCidr', internal.networkSubnetCidr],
    ['externalNetworkSubnetCidr', external.networkSubnetCidr],
    ['internalVmNetworkName', internal.network],
    ['externalVmNetworkName', external.network],
    ['excludeInternalNetworkSubnetCidr', internal.excludeNetworkSubnetCidr],
    ['excludeExternalNetworkSubnetCidr', external.excludeNetworkSubnetCidr],
  ];
  for (const [field, value] of nodes) {
    const text = Array.isArray(value) ? value.join(',') : (value as string | undefined);
    if (text) {
      if (cfg.nodes[field] && cfg.nodes[field] !== text) {
        warnings.push(
          `"nodes.${field}" = ${JSON.stringify(cfg.nodes[field])} is overridden with ${JSON.stringify(text)} from the Infrastructure node networking`,
        );
      }
      cfg.nodes[field] = text;
    }
  }
  // 4. vCenters: the Infrastructure's, keeping the user's per-vCenter settings (and, up to release 4.22, the user's others).
  const previous = cfg.vcenter;
  const vcenters: Record<string, Section> = {};
  for (const vc of spec.vcenters ?? []) {
    const user = previous[vc.server] ?? Object.values(previous).find((p) => p.server === vc.server) ?? {};
    const entry: Section = { ...user, server: vc.server, datacenters: [...(vc.datacenters ?? [])] };
    if (vc.port) {
      entry.port = vc.port;
    }
    vcenters[vc.server] = entry;
  }
  if ((spec.vcenters ?? []).length > 0) {
    for (const name of Object.keys(previous)) {
      if (!vcenters[(previous[name].server as string) ?? name] && !vcenters[name]) {
        if (options.keepUnlistedVCenters) {
          vcenters[name] = previous[name];
          warnings.push(`vCenter "${name}" is not in the Infrastructure's vcenters; kept, as the cluster's release keeps it (4.23 drops it)`);
        } else {
          warnings.push(`vCenter "${name}" is not in the Infrastructure's vcenters; dropped`);
        }
      }
    }
    cfg.vcenter = vcenters;
  }
  for (const fd of spec.failureDomains ?? []) {
    let vc = cfg.vcenter[fd.server];
    if (!vc) {
      warnings.push(
        `failure domain ${fd.name ? `"${fd.name}" ` : ''}is on vCenter "${fd.server}", which the Infrastructure's vcenters do not list; added`,
      );
      vc = { server: fd.server, datacenters: [] };
      cfg.vcenter[fd.server] = vc;
    }
    const dcs = (vc.datacenters as string[] | undefined) ?? [];
    if (!dcs.includes(fd.topology.datacenter)) {
      vc.datacenters = [...dcs, fd.topology.datacenter];
    }
  }
  // 5. More than one failure domain: zone and region labels are the OpenShift tag categories.
  if ((spec.failureDomains ?? []).length > 1) {
    for (const [field, value] of [
      ['zone', 'openshift-zone'],
      ['region', 'openshift-region'],
    ] as const) {
      if (cfg.labels[field] && cfg.labels[field] !== value) {
        warnings.push(
          `"labels.${field}" = ${JSON.stringify(cfg.labels[field])} is overridden with "${value}": with several failure domains OpenShift uses its own tag categories`,
        );
      }
      cfg.labels[field] = value;
    }
  }
}

/** The order yaml.v2's Go structs declare the CPI fields in (vsphere_cloud_config/yaml.go, library-go's yaml.go). */
const STRUCT_ORDER: Readonly<Record<'top' | 'global' | 'vcenter' | 'labels' | 'nodes', readonly string[]>> = {
  top: ['global', 'vcenter', 'labels', 'nodes'],
  global: [...Object.keys(VCENTER_FIELDS).filter((k) => k !== 'ipFamily'), 'secretsDirectory', 'apiDisable', 'apiBinding', 'ipFamily'],
  vcenter: Object.keys(VCENTER_FIELDS),
  labels: Object.keys(LABEL_FIELDS),
  nodes: Object.keys(NODE_FIELDS),
};

/**
 * yaml.v2's map key order (sorter.go keyList.Less), which both writers use for maps and sigs.k8s.io/yaml for every
 * key: letters by code point, a non-letter before a letter, a run of digits compared as a number (`vc9` before `vc10`).
 */
export function yamlV2KeyOrder(a: string, b: string): number {
  const ar = [...a];
  const br = [...b];
  const isLetter = (c: string) => /\p{L}/u.test(c);
  const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) {
      continue;
    }
    const al = isLetter(ar[i]);
    const bl = isLetter(br[i]);
    if (al || bl) {
      return al && bl ? (ar[i] < br[i] ? -1 : 1) : bl ? -1 : 1;
    }
    // A zero after other digits keeps the run's value; a run of leading zeros counts as 0, then by length.
    let an = 0;
    let bn = 0;
    if (ar[i] === '0' || br[i] === '0') {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]); j--) {
        if (ar[j] !== '0') {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    let bi = i;
    for (; isDigit(ar[ai]); ai++) an = an * 10 + Number(ar[ai]);
    for (; isDigit(br[bi]); bi++) bn = bn * 10 + Number(br[bi]);
    if (an !== bn) {
      return an < bn ? -1 : 1;
    }
    if (ai !== bi) {
      return ai < bi ? -1 : 1;
    }
    return ar[i] < br[i] ? -1 : 1;
  }
  return ar.length - br.length;
}

/**
 * The CPI YAML as the release writes it: empty values (false, 0, "", []) left out, sequences not indented, the
 * vCenters in yaml.v2's map order; fields in struct order with gopkg.in/yaml.v2 (release-4.22 and earlier,
 * `structOrder`) or every key sorted with sigs.k8s.io/yaml (release-4.23 on).
 */
function writeCpiConfig(cfg: CpiConfig, structOrder: boolean): string {
  const order = (keys: string[], declared: readonly string[]) =>
    structOrder ? declared.filter((k) => keys.includes(k)) : [...keys].sort(yamlV2KeyOrder);
  const prune = (s: Section, declared: readonly string[]): Map<string, unknown> | undefined => {
    const out = new Map<string, unknown>();
    for (const key of order(Object.keys(s), declared)) {
      const v = s[key];
      if (v === '' || v === 0 || v === false || (Array.isArray(v) && v.length === 0)) {
        continue;
      }
      out.set(key, v);
    }
    return out.size > 0 ? out : undefined;
  };
  const parts = new Map<string, unknown>();
  parts.set('global', prune(cfg.global, STRUCT_ORDER.global) ?? {});
  const names = Object.keys(cfg.vcenter).sort(yamlV2KeyOrder);
  if (names.length > 0) {
    parts.set('vcenter', new Map(names.map((name) => [name, prune(cfg.vcenter[name], STRUCT_ORDER.vcenter) ?? {}])));
  }
  const labels = prune(cfg.labels, STRUCT_ORDER.labels);
  if (labels) {
    parts.set('labels', labels);
  }
  const nodes = prune(cfg.nodes, STRUCT_ORDER.nodes);
  if (nodes) {
    parts.set('nodes', nodes);
  }
  const doc = new Map(order([...parts.keys()], STRUCT_ORDER.top).map((k) => [k, parts.get(k)]));
  return stringify(doc, { indentSeq: false, lineWidth: 0 });
}
