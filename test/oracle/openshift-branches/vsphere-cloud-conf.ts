/**
 * What the operator writes to `cloud-conf` on vSphere, for an INI source, written from the branches read
 * (never imports from `src/`): openshift/cluster-cloud-controller-manager-operator pkg/cloud/vsphere/vsphere_config_transformer.go
 * CloudConfigTransformer, and the config package it reads and writes with:
 * - release-4.16 (@d721cd62b5ed) to release-4.22 (@b99c3d88b0e7): pkg/cloud/vsphere/vsphere_cloud_config (ini.go reads the
 *   INI with gcfg, yaml.go's structs are written with gopkg.in/yaml.v2: fields in struct order, empty ones left out);
 * - release-4.23 (@bc52198c1c3c): vendor/github.com/openshift/library-go/pkg/cloudprovider/vsphere (the same INI reading;
 *   written with sigs.k8s.io/yaml: JSON, then YAML with every key sorted), and setVirtualCenters clears the vCenters first.
 * ini.go createConfig copies neither `[Global] ip-family`, `api-disable` nor `api-binding`; a `[VirtualCenter "x"]`
 * without `server` gets `x`. With an Infrastructure vSphere platform spec: IP families from the service network,
 * VIP exclusions (IPv6 and dual-stack only), `nodes` overwritten from the node networking, vCenters from the spec and
 * failure domains, and the OpenShift zone/region tags with more than one failure domain.
 */
import { OutsideModel, readIni } from './ini-text';

type Fields = readonly (readonly [yamlKey: string, iniKey: string, kind: 'string' | 'uint' | 'bool' | 'list'])[];

/** The fields yaml.go's Global and VirtualCenterConfig both start with, in struct order (ini.go names). */
const SHARED: Fields = [
  ['user', 'user', 'string'],
  ['password', 'password', 'string'],
  ['server', 'server', 'string'],
  ['port', 'port', 'uint'],
  ['insecureFlag', 'insecure-flag', 'bool'],
  ['datacenters', 'datacenters', 'list'],
  ['soapRoundtripCount', 'soap-roundtrip-count', 'uint'],
  ['caFile', 'ca-file', 'string'],
  ['thumbprint', 'thumbprint', 'string'],
  ['secretName', 'secret-name', 'string'],
  ['secretNamespace', 'secret-namespace', 'string'],
];

/** yaml.go Global, in struct order (ini.go globalINI names); the last three are read but not copied by createConfig. */
const GLOBAL: Fields = [...SHARED, ['secretsDirectory', 'secrets-directory', 'string']];
const GLOBAL_ORDER = [...GLOBAL.map(([k]) => k), 'apiDisable', 'apiBinding', 'ipFamily'];
const GLOBAL_NOT_COPIED = ['api-disable', 'api-binding', 'ip-family'];

/** yaml.go VirtualCenterConfig, in struct order. */
const VCENTER: Fields = [...SHARED, ['ipFamily', 'ip-family', 'list']];
const LABELS: Fields = [
  ['zone', 'zone', 'string'],
  ['region', 'region', 'string'],
];
const NODES: Fields = [
  ['internalNetworkSubnetCidr', 'internal-network-subnet-cidr', 'string'],
  ['externalNetworkSubnetCidr', 'external-network-subnet-cidr', 'string'],
  ['internalVmNetworkName', 'internal-vm-network-name', 'string'],
  ['externalVmNetworkName', 'external-vm-network-name', 'string'],
  ['excludeInternalNetworkSubnetCidr', 'exclude-internal-network-subnet-cidr', 'string'],
  ['excludeExternalNetworkSubnetCidr', 'exclude-external-network-subnet-cidr', 'string'],
];

type Value = string | number | boolean | string[];
type Struct = Map<string, Value>;

/** The Infrastructure and Network parts the transformer reads. */
export interface VSphereInputs {
  /** spec.platformSpec.vsphere; absent: the config is only read and written. */
  readonly platformSpec?: {
    readonly vcenters: readonly { readonly server: string; readonly port?: number; readonly datacenters: readonly string[] }[];
    readonly failureDomains: readonly { readonly server: string; readonly datacenter: string }[];
    readonly nodeNetworking?: Readonly<
      Record<'internal' | 'external', { network?: string; networkSubnetCidr?: string[]; excludeNetworkSubnetCidr?: string[] }>
    >;
  };
  readonly apiServerInternalIPs?: readonly string[];
  readonly ingressIPs?: readonly string[];
  /** Network spec.serviceNetwork. */
  readonly serviceNetwork?: readonly string[];
}

/** gcfg into one INI struct, then createConfig's copy: `port` and the counters as numbers, `datacenters` split on ",". */
function decode(keys: readonly { name: string; value: string | null }[], fields: Fields, into: Struct, skip: readonly string[] = []): void {
  for (const k of keys) {
    const field = fields.find(([, ini]) => ini === k.name.toLowerCase());
    if (field === undefined || skip.includes(k.name.toLowerCase())) {
      continue;
    }
    const [key, , kind] = field;
    const v = k.value;
    if (kind === 'bool') {
      into.set(key, ['true', 'yes', 'on', '1', null].includes(v === null ? null : v.toLowerCase()));
    } else if (v === null) {
      throw new OutsideModel(`${k.name} without a value`);
    } else if (kind === 'uint') {
      if (!/^\d+$/.test(v)) {
        throw new OutsideModel(`${k.name} = ${v}: only plain decimal numbers are modelled`);
      }
      into.set(key, Number(v));
    } else if (kind === 'list') {
      // splitDatacenters for datacenters; ip-family becomes a one-item list.
      into.set(
        key,
        key === 'datacenters'
          ? v
              .split(',')
              .filter((d) => d !== '')
              .map((d) => d.trim())
          : [v],
      );
    } else {
      into.set(key, v);
    }
  }
}

const isIPv6 = (cidrOrIp: string): boolean => cidrOrIp.includes(':');

/**
 * `cloud.conf` as the operator of `minor` writes it on vSphere for an INI `source`. Throws {@link OutsideModel}
 * where the release crashes (a failure domain on a vCenter the spec does not list) or the input is not modelled.
 */
export function vsphereCloudConf(minor: string, source: string, inputs: VSphereInputs = {}): string {
  const sorted = Number(minor.split('.')[1]) >= 23;
  if (!/^\s*(\[|[#;])/.test(source)) {
    throw new OutsideModel('only INI sources are modelled (ReadConfig tries YAML first)');
  }
  const global: Struct = new Map();
  const vcenter = new Map<string, Struct>();
  const labels: Struct = new Map();
  const nodes: Struct = new Map();
  for (const s of readIni(source)) {
    const name = s.name.toLowerCase();
    if (name === 'global' && s.sub === undefined) {
      decode(s.keys, GLOBAL, global, GLOBAL_NOT_COPIED);
    } else if (name === 'virtualcenter' && s.sub !== undefined) {
      const vc = vcenter.get(s.sub) ?? new Map<string, Value>();
      vcenter.set(s.sub, vc);
      decode(s.keys, VCENTER, vc);
    } else if (name === 'labels' && s.sub === undefined) {
      decode(s.keys, LABELS, labels);
    } else if (name === 'nodes' && s.sub === undefined) {
      decode(s.keys, NODES, nodes);
    }
  }
  for (const [sub, vc] of vcenter) {
    if (!vc.get('server')) {
      vc.set('server', sub);
    }
  }
  const spec = inputs.platformSpec;
  if (spec !== undefined) {
    const services = inputs.serviceNetwork ?? [];
    if (services.length === 1 && isIPv6(services[0])) {
      global.set('ipFamily', ['ipv6']);
    } else if (services.length === 2) {
      global.set('ipFamily', isIPv6(services[0]) ? ['ipv6', 'ipv4'] : ['ipv4', 'ipv6']);
    }
    const internal = { ...spec.nodeNetworking?.internal };
    const external = { ...spec.nodeNetworking?.external };
    if (services.some(isIPv6)) {
      const vips = [...(inputs.apiServerInternalIPs ?? []), ...(inputs.ingressIPs ?? [])].map((a) => (isIPv6(a) ? `${a}/128` : `${a}/32`));
      internal.excludeNetworkSubnetCidr = [...(internal.excludeNetworkSubnetCidr ?? []), ...vips, 'fd69::2/128'];
      external.excludeNetworkSubnetCidr = [...(external.excludeNetworkSubnetCidr ?? []), ...vips, 'fd69::2/128'];
    }
    // setNodes overwrites all six fields, joined with ",".
    nodes.clear();
    nodes.set('externalVmNetworkName', external.network ?? '');
    nodes.set('externalNetworkSubnetCidr', (external.networkSubnetCidr ?? []).join(','));
    nodes.set('excludeExternalNetworkSubnetCidr', (external.excludeNetworkSubnetCidr ?? []).join(','));
    nodes.set('internalVmNetworkName', internal.network ?? '');
    nodes.set('internalNetworkSubnetCidr', (internal.networkSubnetCidr ?? []).join(','));
    nodes.set('excludeInternalNetworkSubnetCidr', (internal.excludeNetworkSubnetCidr ?? []).join(','));
    if (sorted) {
      vcenter.clear();
    }
    for (const vc of spec.vcenters) {
      vcenter.set(
        vc.server,
        new Map<string, Value>([
          ['server', vc.server],
          ['port', vc.port ?? 0],
          ['datacenters', [...vc.datacenters]],
        ]),
      );
    }
    for (const fd of spec.failureDomains) {
      const vc = vcenter.get(fd.server);
      if (vc === undefined) {
        throw new OutsideModel(`failure domain on ${fd.server}, a vCenter the spec does not list: the operator dereferences a nil pointer`);
      }
      const dcs = vc.get('datacenters') as string[];
      if (!dcs.includes(fd.datacenter)) {
        dcs.push(fd.datacenter);
      }
    }
    if (spec.failureDomains.length > 1) {
      labels.set('zone', 'openshift-zone');
      labels.set('region', 'openshift-region');
    }
  }
  const doc: [string, YamlNode][] = [['global', struct(global, GLOBAL_ORDER, sorted)]];
  if (vcenter.size > 0) {
    const names = [...vcenter.keys()].sort(yamlV2KeyCompare);
    doc.push([
      'vcenter',
      names.map((n): [string, YamlNode] => [
        n,
        struct(
          vcenter.get(n)!,
          VCENTER.map(([k]) => k),
          sorted,
        ),
      ]),
    ]);
  }
  const labelsNode = struct(
    labels,
    LABELS.map(([k]) => k),
    sorted,
  );
  if (labelsNode.length > 0) {
    doc.push(['labels', labelsNode]);
  }
  const nodesNode = struct(
    nodes,
    NODES.map(([k]) => k),
    sorted,
  );
  if (nodesNode.length > 0) {
    doc.push(['nodes', nodesNode]);
  }
  if (sorted) {
    doc.sort(([a], [b]) => yamlV2KeyCompare(a, b));
  }
  return writeYaml(doc, '');
}

type YamlNode = Value | [string, YamlNode][];

/** A struct's non-empty fields (omitempty), in struct order, or sorted as sigs.k8s.io/yaml writes them. */
function struct(values: Struct, order: readonly string[], sorted: boolean): [string, YamlNode][] {
  const out = order
    .filter((k) => {
      const v = values.get(k);
      return v !== undefined && v !== '' && v !== 0 && v !== false && !(Array.isArray(v) && v.length === 0);
    })
    .map((k): [string, YamlNode] => [k, values.get(k)!]);
  return sorted ? out.sort(([a], [b]) => yamlV2KeyCompare(a, b)) : out;
}

/** yaml.v2 sorter.go keyList.Less for string keys: letters by code point, a non-letter before a letter, digit runs as numbers. */
export function yamlV2KeyCompare(a: string, b: string): number {
  const ar = [...a];
  const br = [...b];
  const letter = (c: string) => /\p{L}/u.test(c);
  const digit = (c: string | undefined) => c !== undefined && /[0-9]/.test(c);
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) {
      continue;
    }
    const al = letter(ar[i]);
    const bl = letter(br[i]);
    if (al && bl) {
      return ar[i] < br[i] ? -1 : 1;
    }
    if (al || bl) {
      return bl ? -1 : 1;
    }
    if (ar[i] === '0' || br[i] === '0') {
      throw new OutsideModel(`keys ${a}, ${b}: leading zeros in yaml.v2's number-aware order are not modelled`);
    }
    let ai = i;
    let bi = i;
    let an = 0;
    let bn = 0;
    for (; digit(ar[ai]); ai++) an = an * 10 + Number(ar[ai]);
    for (; digit(br[bi]); bi++) bn = bn * 10 + Number(br[bi]);
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

/** A string yaml.v2 writes plain; anything it would quote is outside what is modelled. */
function scalar(v: string | number | boolean): string {
  if (typeof v !== 'string') {
    return String(v);
  }
  const words = /^(y|yes|n|no|true|false|on|off|null|~)$/i;
  if (/^[A-Za-z/_][A-Za-z0-9_./:,@+-]*$/.test(v) && !words.test(v)) {
    return v;
  }
  // Starting with a digit: plain only where no YAML 1.1 number, sexagesimal or timestamp reading fits (addresses, CIDR lists).
  if (/^[0-9][A-Za-z0-9_./:,@+-]*$/.test(v) && (/[/,]/.test(v) || (v.match(/\./g) ?? []).length >= 2) && !/^\d{4}-\d/.test(v)) {
    return v;
  }
  throw new OutsideModel(`the value ${JSON.stringify(v)} would need yaml.v2's quoting rules, not modelled`);
}

/** yaml.v2's block style: two-space indent, sequences not indented under their key, `{}` for an empty mapping. */
function writeYaml(map: readonly [string, YamlNode][], indent: string): string {
  return map
    .map(([k, v]) => {
      if (Array.isArray(v) && (v.length === 0 || Array.isArray(v[0]))) {
        return v.length === 0 ? `${indent}${k}: {}\n` : `${indent}${k}:\n${writeYaml(v as [string, YamlNode][], `${indent}  `)}`;
      }
      if (Array.isArray(v)) {
        return `${indent}${k}:\n${(v as string[]).map((i) => `${indent}- ${scalar(i)}\n`).join('')}`;
      }
      return `${indent}${k}: ${scalar(v)}\n`;
    })
    .join('');
}
