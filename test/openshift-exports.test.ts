/**
 * A real `oc get -o yaml` export of a 4.16, 4.18 or 4.20 cluster of every platform (test/openshift-exports.ts) goes
 * through `import`, then `validate-spec`, then synth, in gitops and operator mode; every rendered object is compared
 * with what that release's operator ships and renders (test/oracle/openshift-branches), and the rendered `cloud-conf`
 * with what its cloud-config sync controller writes.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments, parse, stringify } from 'yaml';
import { runCli } from '../src/cli';
import { RELEASE_REQUIRED_MESSAGE } from '../src/openshift/release-problems';
import { synthesize } from '../src/pipeline/synth';
import { captureIo, useTempDir, writeFile } from './helpers';
import { branchDiffs } from './oracle/openshift-branches/compare';
import { ClusterInputs, cloudConfDiffs } from './oracle/openshift-branches/cloud-conf';
import { DEVIATIONS } from './openshift-deviations';
import {
  behindProxy,
  clusterNameOf,
  EXPORT_PLATFORMS,
  EXPORT_VERSIONS,
  ExportPlatform,
  exportFiles,
  KUBE_RBAC_PROXY_IMAGE,
  oracleInputs,
  PROXY_STATUS,
} from './openshift-exports';

type Obj = Record<string, any>;
type Mode = 'gitops' | 'operator';

const dir = useTempDir();

/** Writes the export of `platform` at `minor` and imports it; returns the spec file and what import printed. */
function imported(platform: ExportPlatform, minor: string, omit: readonly string[] = [], infraSpec: Record<string, unknown> = {}) {
  const from = path.join(dir(), 'export');
  for (const [file, content] of Object.entries(exportFiles(platform, minor, omit, infraSpec))) {
    writeFile(from, file, content);
  }
  const clusters = path.join(dir(), 'clusters');
  const cap = captureIo();
  const code = runCli(['import', '--from', from, '--out', clusters], cap.io, {});
  return { code, clusters, spec: path.join(clusters, `${clusterNameOf(platform)}.yaml`), out: cap.stdout(), err: cap.stderr() };
}

const CASES: [ExportPlatform, string, Mode][] = Object.keys(EXPORT_VERSIONS).flatMap((minor) =>
  EXPORT_PLATFORMS.filter((p) => p !== 'AlibabaCloud' || minor === '4.16').flatMap((platform) =>
    (['gitops', 'operator'] as const).map((mode) => [platform, minor, mode] as [ExportPlatform, string, Mode]),
  ),
);

describe('an export of every platform at 4.16, 4.18 and 4.20 goes through import, validate-spec and synth', () => {
  test.each(CASES)(
    'GIVEN a %s export at %s in %s mode WHEN imported, validated and rendered THEN every object equals the release',
    (platform, minor, mode) => {
      // WHEN imported
      const imp = imported(platform, minor);
      expect({ code: imp.code, err: imp.err }).toEqual({ code: 0, err: '' });
      const spec = parse(fs.readFileSync(imp.spec, 'utf8'));
      expect(spec.spec.openshift).toEqual({ release: EXPORT_VERSIONS[minor] });
      // the kube-rbac-proxy image operator mode needs before 4.22, read from the exported operator Deployment
      expect(spec.spec.images.kubeRbacProxy).toBe(KUBE_RBAC_PROXY_IMAGE);
      if (mode === 'operator') {
        spec.spec.managementMode = 'operator';
        fs.writeFileSync(imp.spec, stringify(spec));
      }
      // THEN the validate-spec command import prints accepts it (warnings only)
      const check = captureIo();
      const next = /^next: ccm-gitops (validate-spec .*)$/m.exec(imp.out)![1].split(' ');
      expect({ code: runCli(next, check.io, {}), errors: check.stderr().match(/^error.*$/gm) }).toEqual({ code: 0, errors: null });
      // WHEN rendered
      const rendered = renderedObjects(imp.clusters, clusterNameOf(platform));
      // THEN every object equals what the release ships and its operator renders
      const cloudConfig = fs.readFileSync(path.join(imp.clusters, `${clusterNameOf(platform)}.cloud.conf`), 'utf8');
      expect(
        [
          ...branchDiffs(minor, platform, mode, withoutProxyEnv(platform, rendered)),
          ...(mode === 'gitops' ? cloudConfDiffs(minor, platform, rendered, cloudConfig, oracleInputs(platform) as ClusterInputs) : []),
        ].filter((d) => !DEVIATIONS.some((v) => v.matches.test(d))),
      ).toEqual([]);
    },
  );
});

/** Every object synth renders for the cluster `name` (its stage folders; not the GitOps engine's or kustomizations). */
function renderedObjects(clusters: string, name: string): Obj[] {
  const result = synthesize({ clusters, out: path.join(dir(), 'dist') });
  return result.files
    .filter((f) => f.path.startsWith(`${name}/`) && /^[^/]+\/\d\d-[^/]+\/[^/]+\.yaml$/.test(f.path) && !f.path.endsWith('/kustomization.yaml'))
    .flatMap((f) => parseAllDocuments(f.content).map((d) => d.toJS() as Obj));
}

/**
 * The rendered objects without the proxy env, after checking it is what the operator adds: every container (not init
 * container) of every Deployment and DaemonSet gets HTTP_PROXY, HTTPS_PROXY and NO_PROXY from the Proxy status, in that
 * order, after its own (openshift/cluster-cloud-controller-manager-operator@276696ccf679 (release-4.20)
 * pkg/cloud/common/substitution.go setProxySettings, getProxyArgs; the same on release-4.16 and 4.18). The operator
 * Deployment of operator mode gets the same env: the `proxy` row of docs/deviations.md (its manifest has no
 * `config.openshift.io/inject-proxy`, so CVO adds none).
 */
function withoutProxyEnv(platform: ExportPlatform, rendered: readonly Obj[]): Obj[] {
  const expected = behindProxy(platform)
    ? [
        { name: 'HTTP_PROXY', value: PROXY_STATUS.httpProxy },
        { name: 'HTTPS_PROXY', value: PROXY_STATUS.httpsProxy },
        { name: 'NO_PROXY', value: PROXY_STATUS.noProxy },
      ]
    : [];
  return rendered.map((o) => {
    if (!['Deployment', 'DaemonSet'].includes(o.kind) || !o.metadata?.namespace?.startsWith('openshift-cloud-controller-manager')) {
      return o;
    }
    const containers = (o.spec.template.spec.containers as Obj[]).map((c) => {
      const env = (c.env ?? []) as Obj[];
      const proxy = env.filter((e) => ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY'].includes(e.name));
      // the metrics sidecar of the operator (before 4.22) reaches no cloud API: no proxy
      const want = c.name === 'kube-rbac-proxy' ? [] : expected;
      expect({ where: `${o.metadata.name} ${c.name}`, proxy }).toEqual({ where: `${o.metadata.name} ${c.name}`, proxy: want });
      return { ...c, env: env.filter((e) => !proxy.includes(e)) };
    });
    return { ...o, spec: { ...o.spec, template: { ...o.spec.template, spec: { ...o.spec.template.spec, containers } } } };
  });
}

describe('import stops at the first problem: an export without ClusterVersion, of every platform', () => {
  test.each(EXPORT_PLATFORMS.map((p) => [p, p === 'AlibabaCloud' ? '4.16' : '4.20']))(
    'GIVEN a %s export at %s without clusterversion.yaml WHEN imported THEN exit 1, the oc command that exports it named, and the problem validate-spec would report',
    (platform, minor) => {
      const imp = imported(platform, minor, ['clusterversion.yaml']);
      expect(imp.code).toBe(1);
      expect(imp.err.split('\n')).toEqual([
        'warning: no ClusterVersion "version" in the export: spec.openshift.release is required and not known; ' +
          'add the file to the export folder (oc get clusterversion version -o yaml > clusterversion.yaml) and import again, ' +
          "or set it to what oc get clusterversion version -o jsonpath='{.status.desired.version}' prints",
        `error: ccm-gitops validate-spec would refuse the spec written (1 problem); fix ${imp.spec}, then run ccm-gitops validate-spec ${imp.spec}`,
        `  ${imp.spec}:6: spec.openshift.release: ${RELEASE_REQUIRED_MESSAGE}`,
        '',
      ]);
      expect(imp.out).not.toContain('next:');
    },
  );
});

describe('import stops at a release the platform does not render', () => {
  test('GIVEN an Alibaba Cloud export at 4.18 WHEN imported THEN exit 1 with the refusal validate-spec would report', () => {
    const imp = imported('AlibabaCloud', '4.18');
    expect(imp.code).toBe(1);
    expect(imp.err.split('\n')).toEqual([
      `error: ccm-gitops validate-spec would refuse the spec written (2 problems); fix ${imp.spec}, then run ccm-gitops validate-spec ${imp.spec}`,
      `  ${imp.spec}:10: spec.images.cloudControllerManagerAlibaba: is required for platform AlibabaCloud in gitops mode but missing; pin it by digest (repo@sha256:...) or by an explicit tag`,
      `  ${imp.spec}:16: spec.openshift.release: "4.18.27": the operator shipped Alibaba Cloud operands in release 4.16 only (removed in 4.17); name the cluster's 4.16.z release`,
      '',
    ]);
  });
});

describe('import records the kube-rbac-proxy image operator mode needs before 4.22', () => {
  test('GIVEN a VSphere export at 4.18 without the operator Deployment WHEN imported THEN exit 0, no image recorded, and the oc command that exports the Deployment named', () => {
    const imp = imported('VSphere', '4.18', ['operator-deployment.yaml']);
    expect(imp.code).toBe(0);
    expect(parse(fs.readFileSync(imp.spec, 'utf8')).spec.images.kubeRbacProxy).toBeUndefined();
    expect(imp.err.split('\n')).toEqual([
      'warning: no Deployment openshift-cloud-controller-manager-operator/cluster-cloud-controller-manager-operator in the export: ' +
        'spec.images.kubeRbacProxy, which operator mode (spec.managementMode: operator) needs on release 4.18.27, is not recorded; ' +
        'add the file to the export folder (oc get deployment -n openshift-cloud-controller-manager-operator cluster-cloud-controller-manager-operator -o yaml > operator-deployment.yaml) ' +
        'and import again, or set it yourself',
      '',
    ]);
  });
});

describe('AWS before 4.19 with no cloud config named: the operator writes no cloud-conf', () => {
  test.each(['4.16', '4.18', '4.20'])(
    'GIVEN an AWS export at %s whose Infrastructure names no cloud config WHEN imported and rendered THEN every object equals the release',
    (minor) => {
      const imp = imported('AWS', minor, ['cloud-provider-config.yaml'], { cloudConfig: {} });
      expect({ code: imp.code, err: imp.err }).toEqual({ code: 0, err: '' });
      expect(parse(fs.readFileSync(imp.spec, 'utf8')).spec.cloudConfig).toBeUndefined();
      const rendered = renderedObjects(imp.clusters, clusterNameOf('AWS'));
      const cloudConf = rendered.filter((o) => o.kind === 'ConfigMap' && o.metadata.name === 'cloud-conf');
      // THEN 4.16 and 4.18 render none (their CCM mounts none); 4.20 always syncs it, transformed from an empty source
      expect(cloudConf.length).toBe(minor === '4.20' ? 1 : 0);
      expect(
        [
          ...branchDiffs(minor, 'AWS', 'gitops', withoutProxyEnv('AWS', rendered), { cloudConfigNamed: false }),
          ...cloudConfDiffs(minor, 'AWS', rendered, ''),
        ].filter((d) => !DEVIATIONS.some((v) => v.matches.test(d))),
      ).toEqual([]);
    },
  );
});
