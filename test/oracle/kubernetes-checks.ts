/**
 * The checks of a rendered `kubernetes` distribution against what the binaries do: a rendering
 * (the CCM and cloud-node-manager workloads, their flags as the image's entrypoint runs them, the
 * RBAC) is read as the binary and the API server would read it, and each check returns its
 * findings as sentences naming the source they come from. Plain objects in, facts from this
 * folder only: the tests render with the product and hand the objects over.
 */
import {
  ApiCall,
  AZURE_CONFIG_SECRET_NAMESPACE,
  CCM_NAMESPACE,
  CLOUD_NODE_MANAGER_FACTS,
  CLOUD_NODE_MANAGER_WINDOWS_FACTS,
  CONFIG_SECRET_NAMESPACE,
  controllerEnabled,
  controllerRuns,
  controllersOf,
  ImageFacts,
  imageFacts,
  inventoryFor,
  LEADER_LEASE,
  LEADER_LEASE_NAMESPACE,
  LEADER_MIGRATION_LEASE,
  ProviderInventory,
  RbacAuthorizer,
  RbacObject,
  refusedControllers,
  ResourceRequest,
  serviceAccountUser,
  UserInfo,
  WhenKey,
} from './index';
import { parseAllDocuments } from 'yaml';
import { equinixMetalLoadBalancerCalls } from './inventory/equinixmetal';

export type Obj = Record<string, any>;

/**
 * Granted (apiGroup, resource, verb) atoms that no inventoried call uses but that are kept on
 * purpose, each with its reason. Empty: nothing is granted that the binaries do not use.
 */
const ALLOW_LIST: readonly { readonly apiGroup: string; readonly resource: string; readonly verb: string; readonly reason: string }[] = [];

/**
 * Configuration a rendering depends on that its objects do not show, by rendering: whether the
 * cloud config names a load-balancer implementation (Equinix Metal's `loadbalancer` lives in the
 * cloud-sa.json Secret; spec.kubernetes.equinixMetalLoadBalancer states it).
 */
const LOAD_BALANCER_SETTING = new WeakMap<Obj[], boolean>();

/**
 * The Equinix Metal load-balancer implementation a rendering's cloud config names
 * (spec.kubernetes.equinixMetalLoadBalancer): its calls join the inventory.
 */
const EQUINIX_METAL_LOAD_BALANCER = new WeakMap<Obj[], string>();

/** Records what a rendering's cloud config says about load balancers (see the two maps above). */
export function noteLoadBalancer(objects: Obj[], equinixMetalLoadBalancer: string | undefined): void {
  LOAD_BALANCER_SETTING.set(objects, equinixMetalLoadBalancer !== undefined);
  if (equinixMetalLoadBalancer !== undefined) {
    EQUINIX_METAL_LOAD_BALANCER.set(objects, equinixMetalLoadBalancer);
  }
}

export const workloads = (objects: Obj[]) => objects.filter((o) => o.kind === 'Deployment' || o.kind === 'DaemonSet');
const isCnm = (w: Obj) => /cloud-node-manager/.test(w.metadata.name);
const isWindows = (w: Obj) => w.spec.template.spec.nodeSelector?.['kubernetes.io/os'] === 'windows' || /windows/.test(w.metadata.name);

/** The parsed flags of a container's effective argv (after the binary). */
export function flagsOf(argv: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const a of argv) {
    const m = /^--?([^=]+)(?:=(.*))?$/.exec(a);
    if (m) {
      out.set(m[1], m[2] ?? 'true');
    }
  }
  return out;
}

/** The argv the container runtime executes: command ?? image ENTRYPOINT, then args ?? image CMD. */
export function effectiveArgv(container: Obj, facts: Pick<ImageFacts, 'entrypoint'>): string[] {
  const entrypoint = facts.entrypoint.kind === 'wrapper' ? ['/go-runner'] : [facts.entrypoint.binary];
  const cmd = facts.entrypoint.kind === 'wrapper' ? [facts.entrypoint.binary] : [];
  return hostProcessArgv([...(container.command ?? entrypoint), ...(container.args ?? cmd)]);
}

/**
 * A Windows HostProcess container starts the image's binary through the host's PowerShell, from
 * the directory the image is mounted at: `powershell.exe -Command '& "$env:CONTAINER_SANDBOX_MOUNT_POINT/x.exe" flags'`
 * (kubernetes-sigs/cloud-provider-azure@v1.33.2 helm/cloud-provider-azure/templates/cloud-provider-azure.yaml,
 * cloud-node-manager-windows). That argv is read as the binary's: the image path, then the words after it.
 */
function hostProcessArgv(argv: string[]): string[] {
  const script = /^powershell(\.exe)?$/i.test(argv[0] ?? '') && argv[1] === '-Command' && argv.length === 3 ? argv[2] : undefined;
  const m = script === undefined ? null : /^&\s+"\$env:CONTAINER_SANDBOX_MOUNT_POINT([^"]+)"((?:\s+\S+)*)\s*$/.exec(script);
  return m ? [m[1], ...m[2].split(/\s+/).filter((w) => w !== '')] : argv;
}

/** What one rendering looks like to the oracle. */
export interface Rendering {
  readonly provider: string;
  readonly objects: Obj[];
  readonly authorizer: RbacAuthorizer;
  readonly ccm: {
    readonly workload: Obj;
    readonly container: Obj;
    readonly flags: Map<string, string>;
    readonly sa: UserInfo;
    readonly saRef: string;
  };
  /** The Azure cloud-node-manager DaemonSets (Linux, and Windows when rendered), each with the facts of its image. */
  readonly cnms: readonly {
    readonly workload: Obj;
    readonly container: Obj;
    readonly sa: UserInfo;
    readonly saRef: string;
    readonly facts: Omit<ImageFacts, 'leaderElection'>;
  }[];
  readonly facts: ImageFacts;
  readonly inventory: ProviderInventory;
  /** Whether the cloud config names a load-balancer implementation (see LOAD_BALANCER_SETTING). */
  readonly loadBalancerSetting: boolean;
}

/** The tag of an image reference (undefined for a digest-only reference). */
export const tagOf = (image: string): string | undefined => /^[^@]+:([^:/@]+)(@sha256:[0-9a-f]+)?$/.exec(image)?.[1];

/**
 * What the oracle sees of one rendering. The facts and inventory are those of the CCM image's
 * tag (the pinned default for a digest-only test image); a tag the oracle was not read at fails.
 */
export function rendering(provider: string, objects: Obj[]): Rendering {
  const ws = workloads(objects);
  const ccmW = ws.find((w) => !isCnm(w));
  const tag = tagOf(ccmW!.spec.template.spec.containers[0].image ?? '');
  const facts = imageFacts(provider, tag);
  const found = inventoryFor(provider, tag);
  const lbCalls = provider === 'equinix-metal' ? equinixMetalLoadBalancerCalls(EQUINIX_METAL_LOAD_BALANCER.get(objects)) : [];
  const inventory = found && { ...found, calls: [...found.calls, ...lbCalls] };
  if (!facts || !inventory) {
    throw new Error(`the oracle was not read at ${provider} ${tag}: read the upstream source at that tag and add its inventory and image facts`);
  }
  const sa = (w: Obj) => {
    const ns = w.metadata.namespace ?? 'default';
    const name = w.spec.template.spec.serviceAccountName ?? 'default';
    return { user: serviceAccountUser(ns, name), ref: `${ns}/${name}` };
  };
  const c = ccmW!.spec.template.spec.containers[0];
  const ccmSa = sa(ccmW!);
  return {
    provider,
    objects,
    authorizer: new RbacAuthorizer(objects as RbacObject[]),
    ccm: { workload: ccmW!, container: c, flags: flagsOf(effectiveArgv(c, facts).slice(1)), sa: ccmSa.user, saRef: ccmSa.ref },
    cnms: ws.filter(isCnm).map((w) => ({
      workload: w,
      container: w.spec.template.spec.containers[0],
      sa: sa(w).user,
      saRef: sa(w).ref,
      facts: isWindows(w) ? CLOUD_NODE_MANAGER_WINDOWS_FACTS : CLOUD_NODE_MANAGER_FACTS,
    })),
    facts,
    inventory,
    loadBalancerSetting: LOAD_BALANCER_SETTING.get(objects) ?? false,
  };
}

export const flag = (r: Rendering, name: string, dflt: string) => r.ccm.flags.get(name) ?? dflt;
const useSaCredentials = (r: Rendering) => flag(r, 'use-service-account-credentials', 'false') === 'true';
export const controllerList = (r: Rendering) =>
  flag(r, 'controllers', '*')
    .split(',')
    .filter((s) => s !== '');
const renderedServiceAccounts = (r: Rendering) =>
  new Set(r.objects.filter((o) => o.kind === 'ServiceAccount').map((o) => `${o.metadata.namespace}/${o.metadata.name}`));
const securePort = (r: Rendering) => {
  const secure = r.facts.ports.find((p) => p.purpose === 'secure');
  return secure ? Number(flag(r, 'secure-port', String(secure.port ?? 0))) : 0;
};

const NO_CALL: ApiCall = { client: 'root', verbs: [], apiGroup: '', resource: '', source: '' };

/** The controllers that make the binary exit with the rendered flags (controller facts fatalUnless and routes). */
export function fatalControllers(r: Rendering): string[] {
  const cf = controllersOf(r.provider);
  const env = r.inventory.namespaceEnv;
  return [
    ...(env && ccmNamespace(r) === undefined ? [`env ${env.name} is unset or empty: the binary exits (${env.source})`] : []),
    ...refusedControllers(cf, controllerList(r)).map((c) => `--controllers names "${c}", not a controller of this binary: it exits (${cf.source})`),
    ...(cf.fatalUnless ?? [])
      .filter((f) => controllerEnabled(cf, controllerList(r), f.controller) && flag(r, f.flag.slice(2), '') !== f.value)
      .map((f) => `${f.controller} enabled without ${f.flag}=${f.value}: the binary exits (${f.source})`),
    ...(cf.routes && holds(r, 'routes', NO_CALL) && flag(r, 'cluster-cidr', '') === ''
      ? [`the route controller runs (--configure-cloud-routes defaults to true) without --cluster-cidr: the binary exits (${cf.routes.source})`]
      : []),
  ];
}

/** Whether a `when` key holds in a rendering (for `subject`, the ServiceAccount the call is about). */
export function holds(r: Rendering, key: WhenKey, call: ApiCall): boolean {
  const cf = controllersOf(r.provider);
  if (key.startsWith('controller:')) {
    const name = key.slice('controller:'.length);
    return controllerRuns(cf, controllerList(r), name) && (cf.needsLoadBalancerSetting?.controller !== name || r.loadBalancerSetting);
  }
  if (key.startsWith('client:')) {
    return controllerEnabled(cf, controllerList(r), key.slice('client:'.length));
  }
  switch (key) {
    case 'leaderElect':
      return flag(r, 'leader-elect', String(r.facts.leaderElection.enabledByDefault)) === 'true';
    case 'leaderMigration':
      return flag(r, 'enable-leader-migration', 'false') === 'true';
    case 'routes':
      return controllerRuns(cf, controllerList(r), 'node-route-controller') && flag(r, 'configure-cloud-routes', 'true') === 'true';
    case 'nodeIpam':
      return cf.nodeIpam !== undefined && controllerRuns(cf, controllerList(r), cf.nodeIpam) && flag(r, 'allocate-node-cidrs', 'false') === 'true';
    case 'cloudAllocator':
      return flag(r, 'cidr-allocator-type', 'RangeAllocator') === 'CloudAllocator';
    case 'serviceAccountCredentials':
      return useSaCredentials(r);
    case 'serviceAccountMissing':
      return useSaCredentials(r) && !renderedServiceAccounts(r).has(`kube-system/${call.subject}`);
    case 'secureServing':
      return securePort(r) !== 0;
    case 'authenticationLookup':
      // the binary's default may be changed in code (images-extra.ts authenticationSkipLookupDefault: DigitalOcean)
      return securePort(r) !== 0 && flag(r, 'authentication-skip-lookup', String(r.facts.authenticationSkipLookupDefault?.value ?? false)) !== 'true';
    case 'azureDynamicReloading':
      return flag(r, 'enable-dynamic-reloading', 'false') === 'true' && flag(r, 'cloud-config', '') === '';
    case 'cloudNodeManager':
      return r.cnms.length > 0;
    case 'eipTag':
    case 'controlPlaneLoadBalancer':
      // set in the cloud config, which the renderer does not see (often an existing Secret): always possible
      return true;
    default:
      throw new Error(`unknown when key ${key as string}`);
  }
}

export const whenKeys = (call: ApiCall): WhenKey[] => (call.when === undefined ? [] : typeof call.when === 'string' ? [call.when] : [...call.when]);
export const applies = (r: Rendering, call: ApiCall) => whenKeys(call).every((k) => holds(r, k, call));
/** Keys that describe the process and profile (evaluated strictly for "is the rule used"); the others are features the renderer may grant always. */
const STRICT_KEYS = new Set<WhenKey>([
  'leaderElect',
  'serviceAccountCredentials',
  'serviceAccountMissing',
  'secureServing',
  'authenticationLookup',
  'azureDynamicReloading',
]);
/** `client:` and `controller:` keys are strict too: a client a disabled controller never asks for needs no token, a controller that does not run needs no rule. */
const strict = (k: WhenKey) => STRICT_KEYS.has(k) || k.startsWith('client:') || k.startsWith('controller:');
const usable = (r: Rendering, call: ApiCall) =>
  whenKeys(call)
    .filter(strict)
    .every((k) => holds(r, k, call));

/** The identities that make a call in this rendering (each cloud-node-manager DaemonSet's for 'cnm'). */
function identitiesOf(r: Rendering, call: ApiCall): { user: UserInfo; ref: string }[] {
  if (call.client === 'root') {
    return [{ user: r.ccm.sa, ref: r.ccm.saRef }];
  }
  if (call.client === 'cnm') {
    return [...new Map(r.cnms.map((c) => [c.saRef, { user: c.sa, ref: c.saRef }])).values()];
  }
  return [
    useSaCredentials(r)
      ? { user: serviceAccountUser('kube-system', call.client), ref: `kube-system/${call.client}` }
      : { user: r.ccm.sa, ref: r.ccm.saRef },
  ];
}

/** The lock the binary uses: its default, or the rendered --leader-elect-resource-name/-namespace. */
export function leaderLock(r: Rendering): { name: string; namespace: string } {
  const l = r.facts.leaderElection;
  return { name: flag(r, l.nameFlag.slice(2), l.name), namespace: flag(r, l.namespaceFlag.slice(2), l.namespace) };
}

/**
 * The migration lock: `leaderName` of the LeaderMigrationConfiguration the rendering ships (a
 * ConfigMap key), else the default (kubernetes/controller-manager pkg/leadermigration/config/default.go).
 */
function migrationLeaderName(r: Rendering): string {
  for (const o of r.objects.filter((x) => x.kind === 'ConfigMap')) {
    for (const v of Object.values((o.data ?? {}) as Record<string, string>)) {
      if (/kind:\s*LeaderMigrationConfiguration/.test(v)) {
        const m = /^leaderName:\s*(\S+)\s*$/m.exec(v);
        return m ? m[1] : 'cloud-provider-extraction-migration';
      }
    }
  }
  return 'cloud-provider-extraction-migration';
}

/**
 * The cloud config text the CCM reads, as rendered: the `--cloud-config` path followed through
 * the container's volumeMounts to a rendered ConfigMap's key; undefined when the file comes from
 * an object the rendering does not contain (an existing ConfigMap or Secret).
 */
export function renderedCloudConfig(r: Rendering): string | undefined {
  const file = r.ccm.flags.get('cloud-config');
  if (!file) {
    return undefined;
  }
  const pod = r.ccm.workload.spec.template.spec;
  for (const m of (r.ccm.container.volumeMounts ?? []) as Obj[]) {
    const dir = String(m.mountPath).replace(/\/$/, '');
    const key = m.subPath ? (m.mountPath === file ? m.subPath : undefined) : file.startsWith(`${dir}/`) ? file.slice(dir.length + 1) : undefined;
    const volume = key === undefined ? undefined : (pod.volumes ?? []).find((v: Obj) => v.name === m.name);
    if (!volume?.configMap) {
      continue;
    }
    const item = ((volume.configMap.items ?? []) as Obj[]).find((i) => i.path === key);
    const cm = r.objects.find(
      (o) => o.kind === 'ConfigMap' && o.metadata.name === volume.configMap.name && o.metadata.namespace === r.ccm.workload.metadata.namespace,
    );
    const text = cm?.data?.[item ? item.key : key!];
    if (typeof text === 'string') {
      return text;
    }
  }
  return undefined;
}

/**
 * The namespace the binary takes as its own: its namespace env variable in the rendered container
 * (a literal, or the downward API's metadata.namespace), else the workload's. Undefined: the
 * variable the binary needs is unset or empty.
 */
export function ccmNamespace(r: Rendering): string | undefined {
  const env = r.inventory.namespaceEnv;
  if (!env) {
    return r.ccm.workload.metadata.namespace;
  }
  const e = ((r.ccm.container.env ?? []) as Obj[]).find((v) => v.name === env.name);
  if (e?.valueFrom?.fieldRef?.fieldPath === 'metadata.namespace') {
    return r.ccm.workload.metadata.namespace;
  }
  return typeof e?.value === 'string' && e.value !== '' ? e.value : undefined;
}

/** The concrete requests of a call in this rendering (one per verb and namespace), placeholders resolved. */
function requestsOf(r: Rendering, call: ApiCall): ResourceRequest[] {
  const lock = leaderLock(r);
  const name = call.name === LEADER_LEASE ? lock.name : call.name === LEADER_MIGRATION_LEASE ? migrationLeaderName(r) : call.name;
  const namespaces: readonly (string | undefined)[] =
    call.namespace === LEADER_LEASE_NAMESPACE
      ? [lock.namespace]
      : call.namespace === CCM_NAMESPACE
        ? [ccmNamespace(r) ?? r.ccm.workload.metadata.namespace]
        : call.namespace === CONFIG_SECRET_NAMESPACE
          ? r.inventory.configSecretNamespaces!(renderedCloudConfig(r))
          : call.namespace === AZURE_CONFIG_SECRET_NAMESPACE
            ? [flag(r, 'cloud-config-secret-namespace', 'kube-system')]
            : [call.namespace];
  return namespaces.flatMap((namespace) =>
    call.verbs.map((verb) => ({
      verb,
      apiGroup: call.apiGroup,
      resource: call.resource,
      ...(name ? { name } : {}),
      ...(namespace ? { namespace } : {}),
    })),
  );
}

const describeCall = (ref: string, call: ApiCall, req: ResourceRequest) =>
  `${ref} (${call.client}) ${req.verb} ${req.apiGroup || 'core'}/${req.resource}${req.name ? ` "${req.name}"` : ''}${req.namespace ? ` in ${req.namespace}` : ' cluster-wide'} [${call.source.split(' (')[0]}]`;

/** (a) The calls the rendering does not allow. */
export function deniedCalls(r: Rendering): string[] {
  const calls = r.inventory.calls.filter((c) => applies(r, c));
  const out = new Set<string>();
  for (const call of calls) {
    for (const who of identitiesOf(r, call)) {
      for (const req of requestsOf(r, call)) {
        if (!r.authorizer.allows(who.user, req)) {
          out.add(describeCall(who.ref, call, req));
        }
      }
    }
  }
  return [...out].sort();
}

/** (b) Granted (group, resource, verb, name) atoms of our identities that no call uses. */
export function unusedGrants(r: Rendering): string[] {
  const calls = r.inventory.calls.filter((c) => usable(r, c));
  // every identity the binary may act as, also one whose calls do not apply here (a stopped controller's client)
  const ours = new Map<string, UserInfo>();
  for (const c of r.inventory.calls) {
    for (const id of identitiesOf(r, c)) {
      ours.set(id.ref, id.user);
    }
  }
  ours.set(r.ccm.saRef, r.ccm.sa);
  for (const c of r.cnms) {
    ours.set(c.saRef, c.sa);
  }
  const out = new Set<string>();
  const grants = r.authorizer.grants();
  // a cluster-wide rule is not used by a request a narrower grant (a namespace or resource names) of the same subject allows
  const narrower = (g: (typeof grants)[number], u: UserInfo, req: ResourceRequest) =>
    g.namespace === undefined &&
    !g.rule.resourceNames?.length &&
    grants.some(
      (o) =>
        (o.namespace !== undefined || (o.rule.resourceNames?.length ?? 0) > 0) &&
        RbacAuthorizer.grantAppliesTo(o, u) &&
        RbacAuthorizer.grantAllows(o, req),
    );
  for (const g of grants) {
    const subjects = [...ours.values()].filter((u) => RbacAuthorizer.grantAppliesTo(g, u));
    if (subjects.length === 0 || (g.rule.nonResourceURLs ?? []).length > 0) {
      continue;
    }
    for (const apiGroup of g.rule.apiGroups ?? []) {
      for (const resource of g.rule.resources ?? []) {
        for (const verb of g.rule.verbs) {
          for (const name of g.rule.resourceNames?.length ? g.rule.resourceNames : [undefined]) {
            const used = calls.some((c) =>
              subjects
                .filter((u) => identitiesOf(r, c).some((id) => id.user.name === u.name))
                .some((u) =>
                  requestsOf(r, c).some(
                    (req) =>
                      req.apiGroup === apiGroup &&
                      req.resource === resource &&
                      req.verb === verb &&
                      (name === undefined || req.name === name) &&
                      (g.namespace === undefined || (req.namespace ?? '') === g.namespace) &&
                      !narrower(g, u, req),
                  ),
                ),
            );
            const allowed = ALLOW_LIST.some((a) => a.apiGroup === apiGroup && a.resource === resource && a.verb === verb);
            if (!used && !allowed) {
              out.add(`${g.source}: ${verb} ${apiGroup || 'core'}/${resource}${name ? ` "${name}"` : ''}${g.namespace ? ` in ${g.namespace}` : ''}`);
            }
          }
        }
      }
    }
  }
  return [...out].sort();
}

/** (c) Entrypoint and probe problems of one container. */
export function containerProblems(container: Obj, facts: Pick<ImageFacts, 'entrypoint' | 'ports'>, what: string): string[] {
  const out: string[] = [];
  const argv = effectiveArgv(container, facts);
  const rest = argv[0] === '/go-runner' ? argv.slice(1) : argv;
  if (rest[0] !== facts.entrypoint.binary) {
    out.push(`${what}: runs ${JSON.stringify(argv.slice(0, 2))}, but the image needs ${facts.entrypoint.binary} first (${facts.entrypoint.source})`);
  }
  const nonFlags = rest.slice(1).filter((a) => !a.startsWith('-'));
  if (nonFlags.length > 0) {
    out.push(`${what}: positional arguments ${JSON.stringify(nonFlags)} after the binary`);
  }
  const flags = flagsOf(rest.slice(1));
  const served = new Map<number, { scheme: string; paths?: readonly string[] }>();
  for (const p of facts.ports) {
    let port = p.port;
    if (p.flag && flags.has(p.flag.slice(2))) {
      const v = flags.get(p.flag.slice(2))!;
      port = v === p.disabledBy ? undefined : Number(v.slice(v.lastIndexOf(':') + 1));
    }
    if (p.env) {
      const e = (container.env ?? []).find((x: Obj) => x.name === p.env);
      port = e?.value ? Number(String(e.value).slice(String(e.value).lastIndexOf(':') + 1)) : port;
    }
    if (port !== undefined && port > 0) {
      served.set(port, { scheme: p.scheme, paths: p.paths });
    }
  }
  for (const kind of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
    const probe = container[kind];
    if (!probe) {
      continue;
    }
    const target = probe.httpGet ?? probe.tcpSocket;
    if (!target) {
      continue;
    }
    const port = typeof target.port === 'number' ? target.port : (container.ports ?? []).find((p: Obj) => p.name === target.port)?.containerPort;
    const s = served.get(port);
    if (!s) {
      out.push(
        `${what}: ${kind} targets port ${target.port}, which the binary does not serve (served: ${[...served.keys()].join(', ') || 'none'}; ${facts.ports.map((p) => p.source).join('; ')})`,
      );
    } else if (probe.httpGet && ((probe.httpGet.scheme ?? 'HTTP') !== s.scheme || (s.paths && !s.paths.includes(probe.httpGet.path)))) {
      out.push(
        `${what}: ${kind} ${probe.httpGet.scheme ?? 'HTTP'} ${probe.httpGet.path} on ${port}, but the port serves ${s.scheme} ${s.paths?.join(', ') ?? ''}`,
      );
    }
  }
  return out;
}

/** (c) Rendered flags the binary does not know, where the oracle holds its complete flag set (a binary that exits on one). */
export function unknownFlags(r: Rendering): string[] {
  const unknown = (flags: Iterable<string>, facts: Omit<ImageFacts, 'leaderElection'>, what: string) => {
    const known = facts.flags;
    return known
      ? [...flags].filter((f) => !known.names.includes(f)).map((f) => `--${f} is not a flag of ${what} ${facts.imageTag} (${known.source})`)
      : [];
  };
  return [
    ...unknown(r.ccm.flags.keys(), r.facts, r.provider),
    ...r.cnms.flatMap((c) => unknown(flagsOf(effectiveArgv(c.container, c.facts).slice(1)).keys(), c.facts, c.workload.metadata.name)),
  ];
}

/**
 * The objects of rendered files (path and YAML text), as the workload cluster receives them: the
 * objects a ClusterResourceSet stage ConfigMap (`ccm-<cluster>-NN-<stage>`) carries are unwrapped,
 * kustomization files are skipped.
 */
export function objectsOfFiles(files: readonly { readonly path: string; readonly content: string }[]): Obj[] {
  const parse = (text: string) =>
    parseAllDocuments(text)
      .map((d) => d.toJS() as Obj)
      .filter((o) => o);
  return files
    .filter((f) => /\.ya?ml$/.test(f.path) && !f.path.endsWith('kustomization.yaml'))
    .flatMap((f) => parse(f.content))
    .flatMap((o) =>
      o.kind === 'ConfigMap' && /^ccm-.+-\d\d-/.test(o.metadata?.name ?? '') ? Object.values(o.data as Record<string, string>).flatMap(parse) : [o],
    );
}

/**
 * The Secrets and ConfigMaps the CCM and cloud-node-manager pods need that the objects do not
 * contain, as `Kind namespace/name (how)`: a pod whose volume or env names a missing object
 * that is not optional never starts (ContainerCreating, CreateContainerConfigError). A
 * ServiceAccount token volume is not an object reference.
 */
export function unresolvedPodReferences(objects: readonly Obj[]): string[] {
  const has = (kind: string, ns: string, name: string) =>
    objects.some((o) => o.kind === kind && o.metadata?.name === name && (o.metadata?.namespace ?? 'default') === ns);
  const out = new Set<string>();
  for (const w of workloads(objects as Obj[])) {
    const ns = w.metadata.namespace ?? 'default';
    const pod = w.spec.template.spec;
    const need = (kind: string, name: string | undefined, optional: boolean | undefined, how: string) => {
      if (name && !optional && !has(kind, ns, name)) {
        out.add(`${kind} ${ns}/${name} (${w.metadata.name} ${how})`);
      }
    };
    for (const v of (pod.volumes ?? []) as Obj[]) {
      need('Secret', v.secret?.secretName, v.secret?.optional, `volume ${v.name}`);
      need('ConfigMap', v.configMap?.name, v.configMap?.optional, `volume ${v.name}`);
      for (const src of (v.projected?.sources ?? []) as Obj[]) {
        need('Secret', src.secret?.name, src.secret?.optional, `volume ${v.name}`);
        need('ConfigMap', src.configMap?.name, src.configMap?.optional, `volume ${v.name}`);
      }
    }
    for (const c of [...((pod.initContainers ?? []) as Obj[]), ...((pod.containers ?? []) as Obj[])]) {
      for (const e of (c.env ?? []) as Obj[]) {
        need('Secret', e.valueFrom?.secretKeyRef?.name, e.valueFrom?.secretKeyRef?.optional, `env ${e.name}`);
        need('ConfigMap', e.valueFrom?.configMapKeyRef?.name, e.valueFrom?.configMapKeyRef?.optional, `env ${e.name}`);
      }
      for (const e of (c.envFrom ?? []) as Obj[]) {
        need('Secret', e.secretRef?.name, e.secretRef?.optional, 'envFrom');
        need('ConfigMap', e.configMapRef?.name, e.configMapRef?.optional, 'envFrom');
      }
    }
  }
  return [...out].sort();
}
