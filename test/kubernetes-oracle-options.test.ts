/**
 * The kubernetes oracle on option sets a user really writes, per provider: another namespace with
 * the binary's own controllers list and proxy env, the Secret namespaces of a cloud config,
 * `hostCertificates` under every scheduling preset, Azure dynamic reloading, and a Cluster API
 * ClusterResourceSet that carries the credential Secret. Each case is rendered once, as `synth`
 * writes it (stage files; a ClusterResourceSet's ConfigMaps unwrapped), and every check of
 * test/oracle/kubernetes-checks.ts runs on it: calls allowed, grants used, the argv and probes,
 * the flag set, the controllers and env the binary reads, Pod Security, the objects the pods name.
 */
import * as fs from 'fs';
import { loadFleet } from '../src/fleet/load';
import { renderCluster } from '../src/pipeline/render';
import { UPSTREAM_PROVIDERS } from '../src/kubernetes/providers';
import { SCHEDULING_PRESETS } from '../src/cluster-spec/sections/kubernetes';
import { podSecurityProblems } from './oracle';
import {
  containerProblems,
  deniedCalls,
  fatalControllers,
  noteLoadBalancer,
  Obj,
  objectsOfFiles,
  rendering,
  unknownFlags,
  unresolvedPodReferences,
  unusedGrants,
} from './oracle/kubernetes-checks';
import { kubernetesSpec, tempDir, VSPHERE_CONF_YAML, writeFile } from './helpers';

const providerOf = (platform: string) => UPSTREAM_PROVIDERS[platform as keyof typeof UPSTREAM_PROVIDERS]!.name;

/** One option set: the spec.kubernetes knobs, other spec fields, files beside the spec; or the error that refuses it. */
interface OptionCase {
  readonly platform: string;
  readonly what: string;
  readonly kubernetes: Record<string, unknown>;
  readonly spec?: Record<string, unknown>;
  readonly files?: Record<string, string>;
  /** The refusal expected instead of a rendering (a valid answer where the binary cannot work). */
  readonly refused?: RegExp;
  /** Secrets and ConfigMaps the pods name that the rendering leaves to the user (documented prerequisites). */
  readonly prerequisites?: readonly string[];
}

/** Renders a case as synth does; the error text when the spec is refused. */
function renderOnce(c: OptionCase): Obj[] | string {
  const dir = tempDir();
  try {
    for (const [name, text] of Object.entries(c.files ?? {})) {
      writeFile(dir, name, text);
    }
    writeFile(dir, 'c.yaml', kubernetesSpec(c.platform, 'k', c.kubernetes, c.spec ?? {}));
    const [cluster] = loadFleet(dir).clusters;
    const objects = objectsOfFiles(renderCluster(cluster).files);
    noteLoadBalancer(objects, cluster.spec.spec.kubernetes?.equinixMetalLoadBalancer);
    return objects;
  } catch (e) {
    return String(e);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Every finding of every check on one rendering. */
function findings(platform: string, objects: Obj[]): string[] {
  const r = rendering(providerOf(platform), objects);
  return [
    ...deniedCalls(r),
    ...unusedGrants(r),
    ...containerProblems(r.ccm.container, r.facts, 'CCM'),
    ...r.cnms.flatMap((c) => containerProblems(c.container, c.facts, c.workload.metadata.name)),
    ...unknownFlags(r),
    ...fatalControllers(r),
    ...podSecurityProblems(objects),
  ];
}

/** Proxy variables a cluster behind an egress proxy sets (no credentials in the URL). */
const PROXY_ENV = [
  { name: 'HTTPS_PROXY', value: 'http://proxy.example.com:3128' },
  { name: 'NO_PROXY', value: '10.0.0.0/8,.svc,.cluster.local' },
];

/** Per provider, a controllers list its users set (the binary's own names and aliases) and other knobs of that provider. */
const PER_PROVIDER: Readonly<Record<string, { readonly controllers?: readonly string[]; readonly extra?: Record<string, unknown> }>> = {
  AWS: { controllers: ['*', 'tagging'] },
  Azure: { controllers: ['*', '-cloud-node', '-route'], extra: { cloudNodeManager: { enabled: true, windows: true } } },
  GCP: { controllers: ['*', '-nodeipam', '-route'] },
  VSphere: { controllers: ['cloud-node', 'cloud-node-lifecycle'] },
  OpenStack: { controllers: ['cloud-node', 'cloud-node-lifecycle', 'service'] },
  // controller-runtime based: no --controllers
  AlibabaCloud: {},
  Nutanix: { controllers: ['cloud-node-controller', 'cloud-node-lifecycle-controller'] },
  DigitalOcean: { controllers: ['*', '-node-route-controller'] },
  EquinixMetal: { controllers: ['*', '-route'], extra: { equinixMetalLoadBalancer: 'metallb' } },
};

/**
 * The object holding each provider's cloud config or credentials by default, which the user
 * creates in the CCM's namespace (docs/kubernetes.md lists them; a ClusterResourceSet carries it
 * through `output.clusterResourceSet.resources`). AWS and GCP read the instance metadata.
 */
const CREDENTIALS: Readonly<Record<string, string>> = {
  Azure: 'Secret <ns>/azure-cloud-provider (azure-cloud-controller-manager volume cloud-config)',
  VSphere: 'ConfigMap <ns>/vsphere-cloud-config (vsphere-cloud-controller-manager volume cloud-config)',
  OpenStack: 'Secret <ns>/cloud-config (openstack-cloud-controller-manager volume cloud-config)',
  AlibabaCloud: 'ConfigMap <ns>/cloud-config (alibaba-cloud-controller-manager volume cloud-config)',
  Nutanix: 'ConfigMap <ns>/nutanix-config (nutanix-cloud-controller-manager volume cloud-config)',
  DigitalOcean: 'Secret <ns>/digitalocean (digitalocean-cloud-controller-manager env DO_ACCESS_TOKEN)',
  EquinixMetal: 'Secret <ns>/metal-cloud-config (equinix-metal-cloud-controller-manager volume cloud-config)',
};
const credentials = (platform: string, ns = 'kube-system') => (CREDENTIALS[platform] ? [CREDENTIALS[platform].replace('<ns>', ns)] : []);
const PLATFORMS = Object.keys(PER_PROVIDER);

const CASES: OptionCase[] = [
  // another namespace, the binary's own controllers, proxy env, least privilege
  ...PLATFORMS.map((platform) => ({
    platform,
    what: 'namespace cloud-system, controllers, proxy extraEnv, least privilege',
    kubernetes: {
      namespace: 'cloud-system',
      ...(PER_PROVIDER[platform].controllers ? { controllers: PER_PROVIDER[platform].controllers } : {}),
      extraEnv: PROXY_ENV,
      useServiceAccountCredentials: platform !== 'AlibabaCloud',
      ...PER_PROVIDER[platform].extra,
    },
    prerequisites: credentials(platform, 'cloud-system'),
  })),
  // the Secret namespaces a cloud config names
  {
    platform: 'VSphere',
    what: 'inline vsphere.conf with Secrets in vmware-system and vc2-system, namespace cloud-system',
    kubernetes: { namespace: 'cloud-system', useServiceAccountCredentials: true },
    spec: { cloudConfig: { file: 'vsphere.conf' } },
    files: { 'vsphere.conf': VSPHERE_CONF_YAML },
  },
  // the node's CA directory under every preset
  ...PLATFORMS.flatMap((platform) =>
    SCHEDULING_PRESETS.map((preset) => ({
      platform,
      what: `hostCertificates, preset ${preset}`,
      kubernetes: { hostCertificates: true, scheduling: { preset } },
      prerequisites: credentials(platform),
      ...(preset === 'rke2' || preset === 'k3s'
        ? { refused: new RegExp(`spec\\.kubernetes\\.hostCertificates: mounts the node's /etc/kubernetes/pki`) }
        : {}),
    })),
  ),
  // Azure dynamic reloading: the file watcher (the rendered --cloud-config), in both profiles and another namespace
  ...[false, true].map((sa) => ({
    platform: 'Azure',
    what: `dynamic reloading, namespace cloud-system, ${sa ? 'least privilege' : 'superset'}`,
    kubernetes: { namespace: 'cloud-system', useServiceAccountCredentials: sa, extraArgs: { 'enable-dynamic-reloading': true } },
    prerequisites: credentials('Azure', 'cloud-system'),
  })),
  // every Equinix Metal load-balancer implementation, in both profiles: its calls allowed, its grants used
  ...['kube-vip', 'metallb', 'metallb-crd', 'emlb'].flatMap((lb) =>
    [false, true].map((sa) => ({
      platform: 'EquinixMetal',
      what: `load balancer ${lb}, ${sa ? 'least privilege' : 'superset'}`,
      kubernetes: { equinixMetalLoadBalancer: lb, useServiceAccountCredentials: sa },
      prerequisites: credentials('EquinixMetal'),
    })),
  ),
  // a ClusterResourceSet that carries the credential Secret with the stages
  ...PLATFORMS.map((platform) => ({
    platform,
    what: 'ClusterResourceSet carrying the credential Secret',
    kubernetes: {
      ...(PER_PROVIDER[platform].controllers ? { controllers: PER_PROVIDER[platform].controllers } : {}),
      output: { mode: 'cluster-resource-set', clusterResourceSet: { resources: [{ kind: 'Secret', name: 'ccm-credentials' }] } },
    },
    // the ClusterResourceSet's Secret ccm-credentials holds this object's manifest
    prerequisites: credentials(platform),
  })),
];

describe('kubernetes oracle: option sets per provider', () => {
  test('every provider has each option set', () => {
    const sets = (what: RegExp) => [...new Set(CASES.filter((c) => what.test(c.what)).map((c) => c.platform))].sort();
    const all = [...PLATFORMS].sort();
    expect([sets(/^namespace/), sets(/^hostCertificates/), sets(/^ClusterResourceSet/)]).toEqual([all, all, all]);
    expect(all.map(providerOf).sort()).toEqual(
      Object.values(UPSTREAM_PROVIDERS)
        .map((p) => p.name)
        .sort(),
    );
  });

  test.each(CASES.map((c) => [c.platform, c.what, c] as [string, string, OptionCase]))('%s, %s: every check passes', (platform, _what, c) => {
    // GIVEN the option set WHEN it is rendered as synth writes it
    const objects = renderOnce(c);
    if (c.refused) {
      // THEN it is refused where the binary cannot work with it
      expect(objects).toMatch(c.refused);
      return;
    }
    expect(typeof objects === 'string' ? objects : undefined).toBeUndefined();
    // THEN the oracle finds nothing the binaries would refuse, miss or not use
    expect(findings(platform, objects as Obj[])).toEqual([]);
    // AND the pods name only objects the rendering contains, besides the documented prerequisites
    expect(unresolvedPodReferences(objects as Obj[])).toEqual(c.prerequisites ?? []);
    // AND a ClusterResourceSet carries the object holding them, after its stages
    const crs = (objects as Obj[]).find((o) => o.kind === 'ClusterResourceSet');
    if (crs) {
      expect((crs.spec.resources as Obj[]).at(-1)).toEqual({ kind: 'Secret', name: 'ccm-credentials' });
    }
  });
});
