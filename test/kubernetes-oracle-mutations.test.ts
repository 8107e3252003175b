/**
 * Mutation tests of the kubernetes oracle: a product change that breaks what a binary reads is
 * simulated on the rendered manifest (an env variable dropped, a controller renamed in
 * `--controllers`, a flag the Linux binary does not register added), and the oracle's checks
 * (test/oracle/kubernetes-checks.ts) must report it, word for word. A check that stays silent on
 * these would also let the product regress silently.
 */
import { UPSTREAM_PROVIDERS } from '../src/kubernetes/providers';
import { controllersOf, inventoryFor } from './oracle';
import { deniedCalls, effectiveArgv, fatalControllers, flagsOf, Obj, rendering, unknownFlags } from './oracle/kubernetes-checks';
import * as fs from 'fs';
import { kubernetesSpec, renderSpec, tempDir } from './helpers';

/** The objects with every container of the workloads `which` selects rewritten by `edit`. */
function mutateContainers(objects: Obj[], which: (w: Obj) => boolean, edit: (c: Obj) => Obj): Obj[] {
  return objects.map((o) =>
    (o.kind === 'Deployment' || o.kind === 'DaemonSet') && which(o)
      ? {
          ...o,
          spec: {
            ...o.spec,
            template: { ...o.spec.template, spec: { ...o.spec.template.spec, containers: (o.spec.template.spec.containers as Obj[]).map(edit) } },
          },
        }
      : o,
  );
}

/** Renders one spec from a directory of its own (once per describe: the mutations copy the objects). */
function renderOnce(spec: Record<string, unknown>): Obj[] {
  const dir = tempDir();
  try {
    return renderSpec(dir, spec);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const isCcm = (w: Obj) => !/cloud-node-manager/.test(w.metadata.name);
const isLinuxCnm = (w: Obj) => /cloud-node-manager/.test(w.metadata.name) && !/windows/.test(w.metadata.name);
const isWindowsCnm = (w: Obj) => /cloud-node-manager/.test(w.metadata.name) && /windows/.test(w.metadata.name);
/** Flags added to the binary's argv: to args, or to the PowerShell line of a Windows HostProcess container. */
const addArgs = (extra: string[]) => (c: Obj) =>
  c.command?.[0] === 'powershell.exe'
    ? { ...c, command: [...(c.command as string[]).slice(0, -1), `${(c.command as string[]).at(-1)} ${extra.join(' ')}`] }
    : { ...c, args: [...((c.args ?? []) as string[]), ...extra] };
const mapArgs = (f: (a: string) => string) => (c: Obj) => ({ ...c, args: ((c.args ?? []) as string[]).map(f) });
const mapEnv = (f: (e: Obj[]) => Obj[]) => (c: Obj) => ({ ...c, env: f((c.env ?? []) as Obj[]) });

const NUTANIX_ENV_SOURCE =
  'nutanix-cloud-native/cloud-provider-nutanix@v0.5.2 internal/constants/constants.go, pkg/provider/utils.go, pkg/provider/manager.go (CCMNamespaceKey; GetCCMNamespace errors when empty; setInformers: klog.Fatal)';

describe('kubernetes oracle mutations: the namespace variable Nutanix reads', () => {
  let nutanix: Obj[];
  beforeAll(() => {
    nutanix = renderOnce(kubernetesSpec('Nutanix'));
  });

  test('the rendering as it is: the binary starts and its informers are allowed', () => {
    const r = rendering('nutanix', nutanix);
    expect([...fatalControllers(r), ...deniedCalls(r)]).toEqual([]);
  });

  test.each([
    ['dropped', (e: Obj[]) => e.filter((v) => v.name !== 'POD_NAMESPACE')],
    ['set to ""', (e: Obj[]) => e.map((v) => (v.name === 'POD_NAMESPACE' ? { name: 'POD_NAMESPACE', value: '' } : v))],
  ])('POD_NAMESPACE %s: reported as an exit of the binary', (_what, edit) => {
    // GIVEN the Nutanix rendering WHEN its CCM container loses the variable
    const r = rendering('nutanix', mutateContainers(nutanix, isCcm, mapEnv(edit)));
    // THEN the oracle reports the exit, citing the source that makes it
    expect(inventoryFor('nutanix')!.namespaceEnv!.source).toBe(NUTANIX_ENV_SOURCE);
    expect(fatalControllers(r)).toEqual([`env POD_NAMESPACE is unset or empty: the binary exits (${NUTANIX_ENV_SOURCE})`]);
  });

  test('POD_NAMESPACE pointed at another namespace while the Role stays: the informers there are reported as denied', () => {
    // GIVEN the Nutanix rendering WHEN the variable is a literal namespace the rendered Role does not cover
    const r = rendering(
      'nutanix',
      mutateContainers(
        nutanix,
        isCcm,
        mapEnv((e) => e.map((v) => (v.name === 'POD_NAMESPACE' ? { name: 'POD_NAMESPACE', value: 'nutanix-system' } : v))),
      ),
    );
    // THEN the binary starts, but each Secret and ConfigMap informer call in nutanix-system is denied
    expect(fatalControllers(r)).toEqual([]);
    expect(deniedCalls(r)).toEqual([
      'kube-system/cloud-controller-manager (cloud-provider-nutanix) list core/configmaps in nutanix-system [nutanix-cloud-native/cloud-provider-nutanix@v0.5.2 pkg/provider/manager.go, pkg/provider/client.go]',
      'kube-system/cloud-controller-manager (cloud-provider-nutanix) list core/secrets in nutanix-system [nutanix-cloud-native/cloud-provider-nutanix@v0.5.2 pkg/provider/manager.go, pkg/provider/client.go]',
      'kube-system/cloud-controller-manager (cloud-provider-nutanix) watch core/configmaps in nutanix-system [nutanix-cloud-native/cloud-provider-nutanix@v0.5.2 pkg/provider/manager.go, pkg/provider/client.go]',
      'kube-system/cloud-controller-manager (cloud-provider-nutanix) watch core/secrets in nutanix-system [nutanix-cloud-native/cloud-provider-nutanix@v0.5.2 pkg/provider/manager.go, pkg/provider/client.go]',
    ]);
  });
});

describe('kubernetes oracle mutations: a controller renamed in the rendered --controllers', () => {
  /** Every k8s.io/cloud-provider based binary (Alibaba is controller-runtime based: no --controllers). */
  const PLATFORMS = Object.entries(UPSTREAM_PROVIDERS)
    .filter(([, p]) => p.framework === 'cloud-provider')
    .map(([platform, p]) => [platform, p.name] as [string, string])
    .sort();

  test('eight binaries are mutated', () => {
    expect(PLATFORMS.map(([, p]) => p)).toEqual(['aws', 'azure', 'digitalocean', 'equinix-metal', 'gcp', 'nutanix', 'openstack', 'vsphere']);
  });

  test.each(PLATFORMS)('%s: its first canonical controller renamed (a trailing "s") is reported as an exit', (platform, provider) => {
    // GIVEN the binary rendered with its first canonical controller named explicitly (and GCP's node IPAM off, as
    // node IPAM needs --allocate-node-cidrs there)
    const cf = controllersOf(provider);
    const name = cf.known[0];
    const off = (cf.fatalUnless ?? []).map((f) => `-${f.controller}`);
    const objects = renderOnce(kubernetesSpec(platform, 'k', { controllers: ['*', name, ...off] }));
    expect(fatalControllers(rendering(provider, objects))).toEqual([]);
    // WHEN the rendered flag names it wrongly
    const r = rendering(
      provider,
      mutateContainers(
        objects,
        isCcm,
        mapArgs((a) => (a.startsWith('--controllers=') ? a.replace(name, `${name}s`) : a)),
      ),
    );
    // THEN the oracle reports that the binary refuses it at start
    expect(fatalControllers(r)).toEqual([
      `--controllers names "${name}s", not a controller of this binary: it exits (${controllersOf(provider).source})`,
    ]);
  });

  test('Nutanix with the short name cloud-node (its main passes no alias map): reported with its source', () => {
    // GIVEN Nutanix rendered with canonical names WHEN one becomes the generic alias
    const objects = renderOnce(kubernetesSpec('Nutanix', 'k', { controllers: ['cloud-node-controller', 'cloud-node-lifecycle-controller'] }));
    const r = rendering(
      'nutanix',
      mutateContainers(
        objects,
        isCcm,
        mapArgs((a) => (a.startsWith('--controllers=') ? '--controllers=cloud-node,cloud-node-lifecycle-controller' : a)),
      ),
    );
    // THEN
    expect(fatalControllers(r)).toEqual([
      '--controllers names "cloud-node", not a controller of this binary: it exits (nutanix-cloud-native/cloud-provider-nutanix@v0.5.2 main.go (app.DefaultInitFuncConstructors; NewCloudControllerManagerCommand with an empty alias map))',
    ]);
  });
});

describe('kubernetes oracle mutations: a flag the binary does not register', () => {
  let azure: Obj[];
  beforeAll(() => {
    azure = renderOnce(kubernetesSpec('Azure', 'k', { cloudNodeManager: { enabled: true, windows: true } }));
  });

  test('--windows-service on the Linux cloud-node-manager is reported; on the Windows one it is a flag of that binary', () => {
    // GIVEN Azure with both cloud-node-manager DaemonSets, as rendered: no finding
    expect(unknownFlags(rendering('azure', azure))).toEqual([]);
    // WHEN the Windows-only flag is added to both
    const r = rendering(
      'azure',
      mutateContainers(azure, (w) => isLinuxCnm(w) || isWindowsCnm(w), addArgs(['--windows-service'])),
    );
    // THEN only the Linux DaemonSet is reported (init_windows.go is built for Windows only)
    const linux = r.cnms.find((c) => isLinuxCnm(c.workload))!;
    expect(unknownFlags(r)).toEqual([`--windows-service is not a flag of ${linux.workload.metadata.name} v1.33.2 (${linux.facts.flags!.source})`]);
    expect(linux.facts.flags!.source).toMatch(/^kubernetes-sigs\/cloud-provider-azure@v1\.33\.2 /);
    // AND the Windows binary's flags are read through its PowerShell line: the flag is there, and a bogus one is reported
    const windows = r.cnms.find((c) => isWindowsCnm(c.workload))!;
    expect(flagsOf(effectiveArgv(windows.container, windows.facts).slice(1)).get('windows-service')).toBe('true');
    const bogus = rendering('azure', mutateContainers(azure, isWindowsCnm, addArgs(['--bogus=1'])));
    expect(unknownFlags(bogus)).toEqual([`--bogus is not a flag of ${windows.workload.metadata.name} v1.33.2 (${windows.facts.flags!.source})`]);
  });

  test.each([
    ['AWS', 'aws', '--log-json-split-stream=true', 'log-json-split-stream', 'v1.35.0'],
    ['GCP', 'gcp', '--log-json-info-buffer-size=1Mi', 'log-json-info-buffer-size', 'v35.0.0'],
  ])('%s CCM with a json log flag (the json format is not registered): reported', (platform, provider, arg, name, tag) => {
    // GIVEN the CCM as rendered WHEN a flag registered only with the json log format is added
    const objects = renderOnce(kubernetesSpec(platform));
    const r = rendering(provider, mutateContainers(objects, isCcm, addArgs([arg])));
    // THEN
    expect(unknownFlags(r)).toEqual([`--${name} is not a flag of ${provider} ${tag} (${r.facts.flags!.source})`]);
  });

  test('vSphere with a Go flag set flag (--enable-vpc-mode, added with AddGoFlagSet): not reported', () => {
    const objects = renderOnce(kubernetesSpec('VSphere'));
    expect(unknownFlags(rendering('vsphere', mutateContainers(objects, isCcm, addArgs(['--enable-vpc-mode=false']))))).toEqual([]);
  });
});
