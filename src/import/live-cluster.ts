import { isDeepStrictEqual } from 'util';
import { refuseCredentials, withoutComments } from '../cloud-config/pass-through';
import { distributionFacts } from '../distribution-facts';
import { IMAGE_KEYS, KUBE_RBAC_PROXY_IMAGE_KEY, OPERATOR_IMAGE_KEY } from '../cluster-spec/images';
import { ClusterSpecInput, PLATFORM_TYPES, PlatformType, SPEC_API_VERSION, SPEC_KIND } from '../cluster-spec/schema';
import { TLS_PROFILE_TYPES } from '../cluster-spec/tls';
import { UserError, isUserError } from '../util/user-error';
import { arr, pick, rec, str } from '../util/exported-fields';

/**
 * Turns what `oc get -o yaml` exports from a live OpenShift cluster
 * (Infrastructure, Network, Proxy, FeatureGate, APIServer, the user cloud
 * config ConfigMap and, when present, the operator's images ConfigMap and
 * Deployment) into a
 * cluster spec and the files it references. Pure: objects in, files out.
 */

/** A Kubernetes object as exported. */
export interface ExportedObject {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata?: { readonly name?: string; readonly namespace?: string };
  readonly spec?: unknown;
  readonly status?: unknown;
  readonly data?: Record<string, string>;
  readonly items?: readonly ExportedObject[];
}

/** A file the import writes next to the spec. */
export interface ImportedFile {
  /** File name (no folder). */
  readonly name: string;
  /** Content. */
  readonly content: string;
}

/** What an import produces. */
export interface ImportResult {
  /** Cluster name (the spec file is `<name>.yaml`). */
  readonly name: string;
  /** The cluster spec document, for the loader to validate when it reads the file back. */
  readonly spec: ClusterSpecInput;
  /** The spec and every file it references, spec last. */
  readonly files: readonly ImportedFile[];
  /** What the user should know: defaults taken, inputs missing. */
  readonly warnings: readonly string[];
}

/** What is imported: an OpenShift cluster, whose operator renders its CCM. */
const OPENSHIFT = distributionFacts('openshift');

/** Platforms the operator renders nothing for. */
const NO_CCM_PLATFORMS = ['BareMetal', 'None', 'Libvirt', 'Ovirt', 'Kubevirt', 'EquinixMetal', 'PowerVC'];

/** OpenShift feature gates that change what ccm-gitops renders (the rest of the FeatureGate status does not matter here). */
export const RENDERING_FEATURE_GATES: readonly string[] = [
  'AWSServiceLBNetworkSecurityGroup',
  'VSphereMixedNodeEnv',
  'VSphereMultiVCenterDay2',
  ...(OPENSHIFT.ccmFeatureGates ?? []),
];

/** Options of `importLiveCluster`. */
export interface ImportOptions {
  /**
   * Cluster name.
   *
   * @default - the infrastructure name without its random suffix
   */
  readonly name?: string;
  /**
   * Where an object was read from, to name the files of two conflicting
   * copies of one object ({@link exportSource} for what `readExport` read).
   *
   * @default - objects are named by their position in the export
   */
  readonly sourceOf?: (o: ExportedObject) => string | undefined;
}

/** Every object of the export, `List`s flattened. */
export function flattenObjects(objects: readonly ExportedObject[]): ExportedObject[] {
  return objects.flatMap((o) => (o && Array.isArray(o.items) && /List$/.test(o.kind ?? '') ? flattenObjects(o.items) : o ? [o] : []));
}

/** Finds an object of the export by kind, name, namespace and API group; undefined when absent. */
type Finder = (kind: string, name: string, namespace?: string, group?: string) => ExportedObject | undefined;

/** What each step of an import reads and adds to. */
interface ImportState {
  readonly find: Finder;
  readonly infra: ExportedObject;
  readonly platform: PlatformType;
  readonly name: string;
  readonly spec: Record<string, unknown>;
  readonly files: ImportedFile[];
  readonly warnings: string[];
}

/** Imports one cluster. Throws a UserError of kind 'import'. */
export function importLiveCluster(exported: readonly ExportedObject[], options: ImportOptions = {}): ImportResult {
  const find = objectFinder(flattenObjects(exported), options);
  const infra = find('Infrastructure', 'cluster');
  if (!infra) {
    throw new UserError('import', 'no Infrastructure "cluster" in the export; add it: oc get infrastructure cluster -o yaml');
  }
  const { platform, infrastructureName, topology, name } = importedIdentity(infra, options);
  const spec: Record<string, unknown> = { distribution: 'openshift', platform, infrastructureName };
  if (topology !== 'HighlyAvailable') {
    spec.controlPlaneTopology = topology;
  }
  const state: ImportState = { find, infra, platform, name, spec, files: [], warnings: [] };
  importImages(state);
  importCloudConfig(state);
  importPlatformSections(state);
  importProxy(state);
  importFeatureGates(state);
  importRelease(state);
  importKubeRbacProxy(state);
  importTlsProfile(state);
  // the loader validates the document when it reads the file back; here it is only assembled
  const document = { apiVersion: SPEC_API_VERSION, kind: SPEC_KIND, metadata: { name }, spec } as unknown as ClusterSpecInput;
  return { name, spec: document, files: state.files, warnings: state.warnings };
}

/** The finder of the export's objects: each object the import reads exists once in a cluster, so two different copies are refused, never one picked. */
function objectFinder(objects: readonly ExportedObject[], options: ImportOptions): Finder {
  return (kind, name, namespace, group = 'config.openshift.io/') => {
    const found = objects.filter(
      (o) =>
        o.kind === kind &&
        o.metadata?.name === name &&
        (namespace === undefined || o.metadata?.namespace === namespace) &&
        (group === '' ? o.apiVersion === 'v1' : (o.apiVersion ?? '').startsWith(group)),
    );
    const other = found.find((o) => !isDeepStrictEqual(o, found[0]));
    if (other) {
      const where = (o: ExportedObject) => options.sourceOf?.(o) ?? `object ${objects.indexOf(o) + 1} of the export`;
      const [a, b] = [where(found[0]), where(other)];
      throw new UserError(
        'import',
        `the export holds two different ${kind} "${namespace ? `${namespace}/` : ''}${name}" objects (${a === b ? `both in ${a}` : `in ${a} and in ${b}`}); ` +
          'a cluster has one: keep the one exported from the cluster you import, and remove the other',
      );
    }
    return found[0];
  };
}

/** The platform, infrastructure name, topology and cluster name of the Infrastructure; refused when there is nothing to import. */
function importedIdentity(infra: ExportedObject, options: ImportOptions) {
  const status = rec(infra.status);
  const type = str(rec(status.platformStatus).type) ?? str(status.platform);
  if (!type) {
    throw new UserError(
      'import',
      'Infrastructure "cluster" has no status.platformStatus.type; export it with its status (oc get infrastructure cluster -o yaml)',
    );
  }
  if (type === 'External') {
    const state = rec(rec(rec(status.platformStatus).external).cloudControllerManager).state;
    throw new UserError(
      'import',
      state === 'External'
        ? 'platform External with cloudControllerManager.state External: the kubelets run with --cloud-provider=external and the platform partner supplies ' +
            "the cloud controller manager; OpenShift renders none, so there is nothing to import; deploy the partner's CCM as the partner documents"
        : 'platform External without an external cloud controller manager: the kubelets run without a cloud provider and no CCM is needed; nothing to import',
    );
  }
  if (NO_CCM_PLATFORMS.includes(type)) {
    throw new UserError(
      'import',
      `platform ${type} needs no cloud controller manager: the operator renders nothing for it and the kubelets run without ` +
        '--cloud-provider=external; nothing to import',
    );
  }
  if (!(PLATFORM_TYPES as readonly string[]).includes(type) || !OPENSHIFT.renders(type as PlatformType)) {
    throw new UserError('import', `platform ${type} is not one ccm-gitops renders; supported: ${OPENSHIFT.platforms().join(', ')}`);
  }
  const platform = type as PlatformType;
  const infrastructureName = str(status.infrastructureName);
  if (!infrastructureName) {
    throw new UserError(
      'import',
      'Infrastructure "cluster" has no status.infrastructureName; export it with its status (oc get infrastructure cluster -o yaml)',
    );
  }
  const topology = str(status.controlPlaneTopology) ?? 'HighlyAvailable';
  if (topology === 'External') {
    throw new UserError(
      'import',
      'controlPlaneTopology External (hosted control plane): the cloud controller manager runs in the management cluster, ' +
        'not on this cluster; nothing to import here',
    );
  }
  const name = options.name ?? defaultName(infrastructureName);
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name) || name.length > 40) {
    throw new UserError('import', `cluster name "${name}" is not a DNS-1123 label of at most 40 characters; pass one with --name`);
  }
  return { platform, infrastructureName, topology, name };
}

/** The operator's images.json, when exported: the images the platform needs. */
function importImages({ find, platform, spec, warnings }: ImportState): void {
  const imagesCm = find('ConfigMap', 'cloud-controller-manager-images', 'openshift-cloud-controller-manager-operator', '');
  const imagesJson = imagesCm?.data?.['images.json'];
  if (imagesJson) {
    let parsed: Record<string, unknown>;
    try {
      parsed = rec(JSON.parse(imagesJson));
    } catch (e) {
      throw new UserError(
        'import',
        `ConfigMap openshift-cloud-controller-manager-operator/cloud-controller-manager-images: images.json is not JSON (${(e as Error).message})`,
      );
    }
    const images: Record<string, string> = {};
    const needed: readonly string[] = OPENSHIFT.scaffold.imageKeys(platform);
    for (const key of IMAGE_KEYS) {
      if (typeof parsed[key] === 'string' && (key === OPERATOR_IMAGE_KEY || needed.includes(key))) {
        images[key] = parsed[key];
      }
    }
    spec.images = images;
  } else {
    spec.images = {};
    warnings.push(
      'no cloud-controller-manager-images ConfigMap in the export: pin spec.images here or in a defaults.yaml ' +
        '(oc get cm -n openshift-cloud-controller-manager-operator cloud-controller-manager-images -o yaml)',
    );
  }
}

/** The cloud config: openshift-config/<infra.spec.cloudConfig.name>, key <infra.spec.cloudConfig.key>, and its other keys as files. */
function importCloudConfig({ find, infra, platform, name, spec, files }: ImportState): void {
  const cloudConfigRef = rec(rec(infra.spec).cloudConfig);
  const ref = { name: str(cloudConfigRef.name), key: str(cloudConfigRef.key) };
  if (ref.name) {
    const cm = find('ConfigMap', ref.name, 'openshift-config', '');
    if (!cm) {
      throw new UserError(
        'import',
        `Infrastructure spec.cloudConfig names ConfigMap openshift-config/${ref.name}, which is not in the export; add it: ` +
          `oc get cm -n openshift-config ${ref.name} -o yaml`,
      );
    }
    const data = { ...(cm.data ?? {}) };
    let text: string | undefined;
    if ('cloud.conf' in data) {
      text = data['cloud.conf'];
      delete data['cloud.conf'];
    } else if (ref.key) {
      if (!(ref.key in data)) {
        throw new UserError('import', `key ${ref.key} specified in infra resource does not exist in source configmap openshift-config/${ref.name}`);
      }
      text = data[ref.key];
      delete data[ref.key];
    }
    if (text !== undefined && text !== '') {
      checkNoCredentials(platform, `ConfigMap openshift-config/${ref.name}`, text);
      // a comment is not configuration: the file the user commits carries none
      files.push({ name: `${name}.cloud.conf`, content: withoutComments(text) });
      spec.cloudConfig = { file: `${name}.cloud.conf` };
    }
    const extraKeys: Record<string, string> = {};
    for (const key of Object.keys(data).sort()) {
      checkNoCredentials(platform, `ConfigMap openshift-config/${ref.name} key ${key}`, data[key]);
      const file = `${name}.${key}`;
      files.push({ name: file, content: withoutComments(data[key]) });
      extraKeys[key] = file;
    }
    if (Object.keys(extraKeys).length > 0) {
      spec.cloudConfig = { ...(spec.cloudConfig ? rec(spec.cloudConfig) : { file: `${name}.cloud.conf` }), extraKeys };
      if (!files.some((f) => f.name === `${name}.cloud.conf`)) {
        files.push({ name: `${name}.cloud.conf`, content: '' });
      }
    }
  }
}

/** The platform's own sections, read by its facts from the Infrastructure's status and spec (and the Network, where the platform reads it). */
function importPlatformSections({ find, infra, platform, spec, warnings }: ImportState): void {
  const imported = OPENSHIFT.importedPlatformSections?.(platform, { infrastructure: infra, network: () => find('Network', 'cluster') });
  Object.assign(spec, imported?.sections);
  warnings.push(...(imported?.warnings ?? []));
}

/** The proxy, as its status says. */
function importProxy({ find, spec }: ImportState): void {
  const proxy = rec(find('Proxy', 'cluster')?.status);
  const proxySpec = pick(proxy, ['httpProxy', 'httpsProxy', 'noProxy']);
  if (Object.keys(proxySpec).length > 0) {
    spec.proxy = proxySpec;
  }
}

/** The current version's enabled and disabled feature gates that change rendering. */
function importFeatureGates({ find, spec, warnings }: ImportState): void {
  const fg = find('FeatureGate', 'cluster');
  const current = arr(rec(fg?.status).featureGates)[0];
  if (current) {
    const names = (list: unknown) =>
      arr(list)
        .map((g) => rec(g).name)
        .filter((n): n is string => typeof n === 'string' && RENDERING_FEATURE_GATES.includes(n))
        .sort();
    const enabled = names(rec(current).enabled);
    const disabled = names(rec(current).disabled);
    if (enabled.length || disabled.length) {
      spec.featureGates = { ...(enabled.length ? { enabled } : {}), ...(disabled.length ? { disabled } : {}) };
    }
  } else {
    warnings.push('no FeatureGate "cluster" with status in the export: no feature gate is assumed enabled (oc get featuregate cluster -o yaml)');
  }
}

/** The release: ClusterVersion status.desired.version, else the last Completed update; the feature set with it. */
function importRelease({ find, spec, warnings }: ImportState): void {
  const fg = find('FeatureGate', 'cluster');
  const clusterVersion = find('ClusterVersion', 'version');
  const cvStatus = rec(clusterVersion?.status);
  const release =
    rec(cvStatus.desired).version ??
    arr(cvStatus.history)
      .map(rec)
      .find((h) => h.state === 'Completed')?.version;
  const featureSet = rec(fg?.spec).featureSet;
  if (typeof release === 'string' && release !== '') {
    spec.openshift = { release, ...(typeof featureSet === 'string' && featureSet !== '' && featureSet !== 'Default' ? { featureSet } : {}) };
  } else {
    warnings.push(
      'no ClusterVersion "version" in the export: spec.openshift.release is required and not known; ' +
        'add the file to the export folder (oc get clusterversion version -o yaml > clusterversion.yaml) and import again, ' +
        "or set it to what oc get clusterversion version -o jsonpath='{.status.desired.version}' prints",
    );
  }
}

/** The operator Deployment the kube-rbac-proxy image is read from. */
const OPERATOR_DEPLOYMENT = { namespace: 'openshift-cloud-controller-manager-operator', name: 'cluster-cloud-controller-manager-operator' };

/**
 * The image of the operator Deployment's `kube-rbac-proxy` container, which operator mode needs before 4.22: not in
 * images.json, the payload substitutes it into the Deployment (openshift/cluster-cloud-controller-manager-operator@6148c0cca626
 * (release-4.21) manifests/0000_26_cloud-controller-manager-operator_11_deployment.yaml; release-4.16 to 4.21 alike).
 */
function importKubeRbacProxy({ find, spec, warnings }: ImportState): void {
  const { namespace, name } = OPERATOR_DEPLOYMENT;
  const deployment = find('Deployment', name, namespace, 'apps/');
  const image = arr(rec(rec(rec(deployment?.spec).template).spec).containers)
    .map(rec)
    .find((c) => c.name === 'kube-rbac-proxy')?.image;
  if (typeof image === 'string' && image !== '') {
    spec.images = { ...rec(spec.images), [KUBE_RBAC_PROXY_IMAGE_KEY]: image };
    return;
  }
  const release = str(rec(spec.openshift).release);
  // a malformed release gets its own error from validate-spec; only a well-formed one before 4.22 needs the image
  if (!deployment && release !== undefined && OPENSHIFT.needsKubeRbacProxy?.(release)) {
    warnings.push(
      `no Deployment ${namespace}/${name} in the export: spec.images.${KUBE_RBAC_PROXY_IMAGE_KEY}, which operator mode (spec.managementMode: operator) ` +
        `needs on release ${release}, is not recorded; add the file to the export folder (oc get deployment -n ${namespace} ${name} -o yaml > operator-deployment.yaml) ` +
        'and import again, or set it yourself',
    );
  }
}

/**
 * The TLS profile of the API server, applied only when tlsAdherence says so: "" (omitted, NoOpinion) and
 * LegacyAdheringComponentsOnly mean the operator and its operands use the default (Intermediate) profile; any other
 * value means StrictAllComponents (openshift/library-go pkg/crypto/tls_adherence.go ShouldHonorClusterTLSProfile,
 * vendored at openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c; used in pkg/tls/tls.go)
 */
function importTlsProfile({ find, spec, warnings }: ImportState): void {
  const apiserver = find('APIServer', 'cluster');
  const profile = rec(rec(apiserver?.spec).tlsSecurityProfile);
  const profileType = str(profile.type);
  const adherence = str(rec(apiserver?.spec).tlsAdherence) ?? '';
  const honored = adherence !== '' && adherence !== 'LegacyAdheringComponentsOnly';
  if (profileType && profileType !== 'Intermediate' && !honored) {
    warnings.push(
      `APIServer spec.tlsSecurityProfile "${profileType}" is not imported: tlsAdherence is ${adherence === '' ? 'not set' : `"${adherence}"`}, ` +
        'so the operator and its operands use the Intermediate profile (library-go ShouldHonorClusterTLSProfile); set tlsAdherence: StrictAllComponents on the cluster to apply it',
    );
  }
  if (profileType && profileType !== 'Intermediate' && honored) {
    if (!(TLS_PROFILE_TYPES as readonly string[]).includes(profileType)) {
      throw new UserError('import', `APIServer spec.tlsSecurityProfile.type "${profileType}" is not one of ${TLS_PROFILE_TYPES.join(', ')}`);
    }
    const custom = rec(profile.custom);
    spec.tls =
      profileType === 'Custom' ? { profile: 'Custom', minTLSVersion: custom.minTLSVersion, ciphers: custom.ciphers ?? [] } : { profile: profileType };
  } else if (!apiserver) {
    warnings.push('no APIServer "cluster" in the export: the Intermediate TLS profile is assumed (oc get apiserver cluster -o yaml)');
  }
}

/** `aws-prod-1-x7k2p` → `aws-prod-1`: the installer appends a dash and five random characters. */
export function defaultName(infrastructureName: string): string {
  const trimmed = infrastructureName.replace(/-[a-z0-9]{5}$/, '');
  return trimmed.slice(0, 40).replace(/-+$/, '');
}

function checkNoCredentials(platform: PlatformType, where: string, text: string): void {
  try {
    refuseCredentials(platform, text, OPENSHIFT.credentialHome(platform));
  } catch (e) {
    if (isUserError(e, 'cloud-config')) {
      throw new UserError('import', `${where}: ${e.message}`);
    }
    throw e;
  }
}
