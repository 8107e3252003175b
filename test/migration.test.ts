import { UserError } from '../src/util/user-error';
import * as fs from 'fs';
import * as path from 'path';
import { parse, parseAllDocuments } from 'yaml';
import { runCli } from '../src/cli';
import {
  buildLeaderMigrationConfig,
  ccmLeaderMigrationFlags,
  kubeApiserverFlags,
  kubeControllerManagerFlags,
  kubeletFlags,
  leaderMigrationApiVersion,
  leaderMigrationConfigYaml,
  MigrationInput,
  MigrationPhase,
  parseLeaderMigrationConfig,
  transitionProblem,
  MIGRATION_PHASES,
} from '../src/migration';
import { migrationProblems } from '../src/fleet/migration-targets';
import { MIGRATION_SUPPORT } from '../src/migration/support';
import { OPERANDS_PER_RELEASE } from '../src/openshift/release-operands';
import { captureIo, migrationInput, platformSpec, tempDir, useTempDir, writeFile } from './helpers';

const CONTROLLERS = ['route', 'service', 'cloud-node-lifecycle', 'node-route-controller', 'service-lb-controller', 'cloud-node-lifecycle-controller'];
const NS = 'openshift-cloud-controller-manager';

/**
 * The KEP walkthrough per platform: a release where the platform is still in-tree on OpenShift, and the
 * FeatureGate's CustomNoUpgrade lists there: that release's Default lists (openshift/api release-4.X
 * config/v1/types_feature.go `defaultFeatures`) plus the platform's external gates.
 */
const WALKTHROUGH: Record<
  string,
  { version: string; cloudConf?: string; deployment: string; provider: string; custom: { enabled: string[]; disabled: string[] } }
> = {
  // 4.13
  AWS: {
    version: '1.26',
    deployment: 'aws-cloud-controller-manager',
    provider: 'aws',
    custom: {
      enabled: ['APIPriorityAndFairness', 'DownwardAPIHugePages', 'ExternalCloudProvider', 'RotateKubeletServerCertificate'],
      disabled: ['RetroactiveDefaultStorageClass'],
    },
  },
  // 4.14: the Default gates the issue names (AzureWorkloadIdentity, CloudDualStackNodeIPs, PrivateHostedZoneAWS, BuildCSIVolumes) stay on
  GCP: {
    version: '1.27',
    cloudConf: '[global]\nproject-id = p\n',
    deployment: 'gcp-cloud-controller-manager',
    provider: 'gce',
    custom: {
      enabled: [
        'AlibabaPlatform',
        'AzureWorkloadIdentity',
        'BuildCSIVolumes',
        'CloudDualStackNodeIPs',
        'ExternalCloudProvider',
        'ExternalCloudProviderAzure',
        'ExternalCloudProviderExternal',
        'ExternalCloudProviderGCP',
        'PrivateHostedZoneAWS',
      ],
      disabled: ['RetroactiveDefaultStorageClass'],
    },
  },
  // 4.11
  OpenStack: {
    version: '1.24',
    cloudConf: '[Global]\n',
    deployment: 'openstack-cloud-controller-manager',
    provider: 'openstack',
    custom: {
      enabled: ['APIPriorityAndFairness', 'DownwardAPIHugePages', 'ExternalCloudProvider', 'PodSecurity', 'RotateKubeletServerCertificate'],
      disabled: ['CSIMigrationAWS', 'CSIMigrationAzureFile', 'CSIMigrationGCE', 'CSIMigrationvSphere'],
    },
  },
  // 4.12
  VSphere: {
    version: '1.25',
    cloudConf: 'global:\n  port: 443\n',
    deployment: 'vsphere-cloud-controller-manager',
    provider: 'vsphere',
    custom: {
      enabled: ['APIPriorityAndFairness', 'DownwardAPIHugePages', 'ExternalCloudProvider', 'RotateKubeletServerCertificate'],
      disabled: ['CSIMigrationAzureFile', 'CSIMigrationvSphere'],
    },
  },
};

function writeCluster(dir: string, platform: string, phase: string, migration: Record<string, unknown> = {}): void {
  const w = WALKTHROUGH[platform];
  const extra: Record<string, unknown> = {};
  if (w.cloudConf !== undefined) {
    writeFile(dir, 'c.conf', w.cloudConf);
    extra.cloudConfig = { file: 'c.conf' };
  }
  writeFile(dir, 'c.yaml', platformSpec(platform, 'c', { ...extra, migration: { phase, kubernetesVersion: w.version, ...migration } }));
}

function synth(clusters: string, out: string): { code: number; stderr: string } {
  const cap = captureIo();
  const code = runCli(['synth', '--clusters', clusters, '--out', out, '-q'], cap.io, {});
  return { code, stderr: cap.stderr() };
}

function objects(out: string): Map<string, any> {
  const found = new Map<string, any>();
  const walk = (dir: string) => {
    for (const name of fs.readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (fs.statSync(full).isDirectory()) {
        if (name !== 'gitops') {
          walk(full);
        }
      } else if (name.endsWith('.yaml') && name !== 'kustomization.yaml') {
        const o = parse(fs.readFileSync(full, 'utf8'));
        found.set(`${o.kind} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}`, o);
      }
    }
  };
  walk(path.join(out, 'c'));
  return found;
}

function ccmScript(o: any): string {
  return o.spec.template.spec.containers[0].command[2];
}

function plan(out: string): any {
  return JSON.parse(fs.readFileSync(path.join(out, 'c', '.migration.json'), 'utf8'));
}

/** The AWS input of these tests: CCM at 1.27 against 1.26 unless a test says otherwise. */
function input(overrides: Partial<MigrationInput> = {}): MigrationInput {
  return migrationInput('AWS', { ccmMinor: 27, ...overrides });
}

describe('the KEP walkthrough, phase by phase, forward and back', () => {
  const tmp = useTempDir();

  // OpenStack (4.11) and vSphere (4.12) run other operands than ccm-gitops renders on their in-tree releases: their CCM phases are refused (below)
  test.each(Object.keys(WALKTHROUGH).filter((p) => OPERANDS_PER_RELEASE.includes(p as never)))(
    '%s: each side gets its own file, KCM first, then the CCM, then the KCMs external; rollbacks on the way',
    (platform) => {
      // GIVEN a cluster spec of the platform at a release where its provider is still in-tree
      const w = WALKTHROUGH[platform];
      const clusters = path.join(tmp(), 'clusters');
      const out = path.join(tmp(), 'dist');
      fs.mkdirSync(clusters);
      const seen: Record<string, Map<string, any>> = {};
      for (const phase of [
        'in-tree',
        'leader-migration-kcm',
        'leader-migration-ccm',
        'leader-migration-kcm',
        'in-tree',
        'leader-migration-kcm',
        'leader-migration-ccm',
        'external-leader-migration',
        'external',
        'external-leader-migration',
        'external',
      ]) {
        // WHEN each phase is rendered into the same output, one change at a time
        writeCluster(clusters, platform, phase);
        const r = synth(clusters, out);
        // THEN every step renders
        expect(r).toEqual({ code: 0, stderr: '' });
        expect(plan(out).phase).toBe(phase);
        seen[phase] = objects(out);
      }
      const kcmFile = (set: Map<string, any>) =>
        decodeURIComponent(
          set
            .get('MachineConfig 99-master-kcm-leader-migration')
            .spec.config.storage.files[0].contents.source.replace(/^data:text\/plain;charset=utf-8,/, ''),
        );

      // in-tree: no CCM, no migration objects
      const inTree = seen['in-tree'];
      expect([...inTree.keys()].filter((k) => k.startsWith('Deployment') || k.includes('leader-migration') || k.startsWith('FeatureGate'))).toEqual(
        [],
      );

      // leader-migration-kcm: the KCM's own file on the hosts (component kube-controller-manager) and the lease RBAC; no CCM yet
      const kcmPhase = seen['leader-migration-kcm'];
      expect(
        [...kcmPhase.keys()].filter((k) => k.startsWith('Deployment') || k.startsWith('FeatureGate') || k.includes('ccm-leader-migration')),
      ).toEqual([]);
      const mc = kcmPhase.get('MachineConfig 99-master-kcm-leader-migration');
      expect(mc.metadata.labels).toEqual({ 'machineconfiguration.openshift.io/role': 'master' });
      // never pruned, like the FeatureGate: pruning it early removes the file a KCM may still be started with
      expect(mc.metadata.annotations['argocd.argoproj.io/sync-options']).toBe('Prune=false');
      expect(mc.metadata.annotations['kustomize.toolkit.fluxcd.io/prune']).toBe('disabled');
      expect(mc.spec.config.storage.files[0].path).toBe(
        '/etc/kubernetes/static-pod-resources/kube-controller-manager-certs/leader-migration/config.yaml',
      );
      const kcmParsed = parseLeaderMigrationConfig(kcmFile(kcmPhase));
      expect(kcmParsed.problems).toEqual([]);
      expect(kcmParsed.config!.controllerLeaders).toEqual(CONTROLLERS.map((name) => ({ name, component: 'kube-controller-manager' })));
      expect(kcmPhase.get('Role kube-system/cloud-provider-leader-migration').rules).toEqual([
        {
          apiGroups: ['coordination.k8s.io'],
          resources: ['leases'],
          resourceNames: ['cloud-provider-extraction-migration'],
          verbs: ['get', 'update'],
        },
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
      ]);
      expect(kcmPhase.get('RoleBinding kube-system/cloud-provider-leader-migration').subjects).toEqual([
        { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'system:kube-controller-manager' },
        { kind: 'ServiceAccount', name: 'kube-controller-manager', namespace: 'kube-system' },
        { kind: 'ServiceAccount', name: 'cloud-controller-manager', namespace: NS },
      ]);

      // leader-migration-ccm and external-leader-migration: the CCM with its OWN file (component cloud-controller-manager), same lease name and namespace
      for (const phase of ['leader-migration-ccm', 'external-leader-migration']) {
        const set = seen[phase];
        const parsed = parseLeaderMigrationConfig(set.get(`ConfigMap ${NS}/ccm-leader-migration`).data['config.yaml']);
        expect(parsed.problems).toEqual([]);
        expect(parsed.config!.leaderName).toBe('cloud-provider-extraction-migration');
        expect(parsed.config!.controllerLeaders).toEqual(CONTROLLERS.map((name) => ({ name, component: 'cloud-controller-manager' })));
        const script = ccmScript(set.get(`Deployment ${NS}/${w.deployment}`));
        expect(script).toContain(
          '--leader-elect=true \\\n  --leader-elect-resource-namespace=kube-system \\\n  --enable-leader-migration \\\n  --leader-migration-config=/etc/leader-migration/config.yaml',
        );
        const pod = set.get(`Deployment ${NS}/${w.deployment}`).spec.template.spec;
        expect(pod.volumes).toContainEqual({ name: 'leader-migration', configMap: { name: 'ccm-leader-migration' } });
        expect(set.get('Role kube-system/cloud-controller-manager-leader-election').rules[0].resourceNames).toEqual(['cloud-controller-manager']);
        // the KCM's file does not change: no second reboot round of the masters
        expect(kcmFile(set)).toBe(kcmFile(kcmPhase));
      }
      expect(seen['leader-migration-ccm'].has('FeatureGate cluster')).toBe(false);

      // external-leader-migration: the gate that switches the operators, keeping the release's Default gates; the MachineConfig outlives the override
      expect(seen['external-leader-migration'].get('FeatureGate cluster').spec).toEqual({
        featureSet: 'CustomNoUpgrade',
        customNoUpgrade: w.custom,
      });

      // external: migration off on the CCM, no host file, the gate stays (never pruned)
      const ext = seen.external;
      expect(ccmScript(ext.get(`Deployment ${NS}/${w.deployment}`))).not.toContain('leader-migration');
      expect([...ext.keys()].filter((k) => k.includes('leader-migration'))).toEqual([]);
      expect(ext.get('FeatureGate cluster').spec).toEqual({ featureSet: 'CustomNoUpgrade', customNoUpgrade: w.custom });
      expect(ext.get('FeatureGate cluster').metadata.annotations['argocd.argoproj.io/sync-options']).toBe('Prune=false');
    },
  );
});

describe('the walkthrough on a platform whose release renders other operands', () => {
  const tmp = useTempDir();

  test.each(Object.keys(WALKTHROUGH).filter((p) => !OPERANDS_PER_RELEASE.includes(p as never)))(
    'GIVEN %s at its in-tree release WHEN in-tree, leader-migration-kcm and then leader-migration-ccm are rendered THEN in-tree renders, leader-migration-kcm is refused as a dead end and the CCM phase on spec.openshift.release',
    (platform) => {
      const clusters = path.join(tmp(), 'clusters');
      const out = path.join(tmp(), 'dist');
      fs.mkdirSync(clusters);
      const codes = ['in-tree', 'leader-migration-kcm', 'leader-migration-ccm'].map((phase) => {
        writeCluster(clusters, platform, phase);
        const r = synth(clusters, out);
        return {
          phase,
          code: r.code,
          refused: /spec\.openshift\.release: "4\.1[12]\.0": phase "leader-migration-ccm" deploys the cloud controller manager/.test(r.stderr),
          deadEnd: /spec\.migration\.phase: "leader-migration-kcm" leads nowhere on OpenShift 4\.1[12]/.test(r.stderr),
        };
      });
      // leader-migration-kcm would strand the cluster: no later phase renders, and its override blocks the update that migrates it
      expect(codes).toEqual([
        { phase: 'in-tree', code: 0, refused: false, deadEnd: false },
        { phase: 'leader-migration-kcm', code: 1, refused: false, deadEnd: true },
        { phase: 'leader-migration-ccm', code: 1, refused: true, deadEnd: false },
      ]);
    },
  );
});

describe('phase changes are one step at a time', () => {
  const tmp = useTempDir();

  test.each([
    [
      'in-tree',
      'leader-migration-ccm',
      'moves from "in-tree" to "leader-migration-ccm" in one change, which skips "leader-migration-kcm"; each phase is its own reviewed change: the legal next step is "leader-migration-kcm"',
    ],
    [
      'in-tree',
      'external',
      'moves from "in-tree" to "external" in one change, which skips "leader-migration-kcm", "leader-migration-ccm", "external-leader-migration"; each phase is its own reviewed change: the legal next step is "leader-migration-kcm"',
    ],
    [
      'external',
      'leader-migration-ccm',
      'moves from "external" to "leader-migration-ccm" in one change, which rolls back past "external-leader-migration"; each phase is its own reviewed change: the legal next step is "external-leader-migration"',
    ],
  ])('%s → %s is refused with the legal next step, and the output is kept', (from, to, message) => {
    // GIVEN a cluster rendered at phase `from` (GCP on 1.27 allows every phase)
    const clusters = path.join(tmp(), 'clusters');
    const out = path.join(tmp(), 'dist');
    fs.mkdirSync(clusters);
    writeCluster(clusters, 'GCP', from);
    expect(synth(clusters, out).code).toBe(0);
    // WHEN the spec jumps to `to`
    writeCluster(clusters, 'GCP', to);
    const r = synth(clusters, out);
    // THEN synth refuses, naming the file, the field and the legal step, and dist/ is as it was
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`c.yaml: spec.migration.phase: ${message} (last render: `);
    expect(plan(out).phase).toBe(from);
  });

  test('OpenShift refuses to roll back past external-leader-migration once the FeatureGate set a feature set that cannot be turned off', () => {
    const clusters = path.join(tmp(), 'clusters');
    const out = path.join(tmp(), 'dist');
    fs.mkdirSync(clusters);
    for (const phase of ['in-tree', 'leader-migration-kcm', 'leader-migration-ccm', 'external-leader-migration']) {
      writeCluster(clusters, 'AWS', phase);
      expect(synth(clusters, out).code).toBe(0);
    }
    writeCluster(clusters, 'AWS', 'leader-migration-ccm');
    const r = synth(clusters, out);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'c.yaml: spec.migration.phase: moves from "external-leader-migration" back to "leader-migration-ccm", but phase "external-leader-migration" set the FeatureGate to CustomNoUpgrade, ' +
        'which OpenShift cannot turn off: the operators keep kube-controller-manager and the kubelets external, so this cluster stays "external-leader-migration" or moves on',
    );
  });

  test('rollback is one step back', () => {
    expect(transitionProblem(MIGRATION_PHASES, 'external', 'external-leader-migration')).toBeUndefined();
    expect(transitionProblem(MIGRATION_PHASES, 'external-leader-migration', 'leader-migration-ccm')).toBeUndefined();
    expect(transitionProblem(MIGRATION_PHASES, 'leader-migration-ccm', 'leader-migration-kcm')).toBeUndefined();
  });

  test('Azure has no leader-migration phases: in-tree → external is its one step', () => {
    const seq = ['in-tree', 'external'] as const;
    expect(transitionProblem(seq, 'in-tree', 'external')).toBeUndefined();
    expect(transitionProblem(seq, 'leader-migration-kcm', 'external')).toBe(
      'the last render has phase "leader-migration-kcm", which this platform does not have (its phases: in-tree → external); ' +
        'set the phase back to "leader-migration-kcm" only if the cluster really is there, or remove the cluster\'s output to start over at "external"',
    );
  });
});

describe('refused migrations', () => {
  const gcp = MIGRATION_SUPPORT.GCP!({} as never);
  const azure = MIGRATION_SUPPORT.Azure!({ spec: {} } as never);
  const base = {
    distribution: 'openshift',
    platform: 'GCP',
    support: gcp,
    managementMode: 'gitops',
    phase: 'leader-migration-kcm' as MigrationPhase,
    kubernetesMinor: 27,
    ccmMinor: 27,
    nodeIpam: false,
    leaderElect: true,
    enabledFeatureGates: [] as string[],
  };

  test.each<[string, Record<string, unknown>, string, string]>([
    [
      'a platform that never was in-tree',
      { platform: 'Nutanix', support: undefined, phase: 'in-tree' },
      'spec.migration.phase',
      '"in-tree" is not possible on Nutanix: it never had an in-tree cloud provider, so there is nothing to migrate; set phase to "external" or remove spec.migration',
    ],
    [
      'a CCM without leader migration',
      { platform: 'Azure', support: azure, kubernetesMinor: 26, ccmMinor: 26 },
      'spec.migration.phase',
      '"leader-migration-kcm" is not possible on Azure: the Azure CCM accepts --enable-leader-migration but never takes the migration lease (it has its own controller-manager app); Azure moves from "in-tree" straight to "external"',
    ],
    [
      'a KCM with no in-tree provider left',
      { distribution: 'kubernetes', kubernetesMinor: 31, ccmMinor: 31 },
      'spec.migration.kubernetesVersion',
      '"1.31": kube-controller-manager 1.31 has no in-tree gce provider (the last one is in 1.30), so nothing is left to hand over in phase "leader-migration-kcm"; the cluster can only be "external"',
    ],
    [
      'an OpenShift release that is external by default',
      { kubernetesMinor: 28, ccmMinor: 28 },
      'spec.migration.kubernetesVersion',
      '"1.28": OpenShift 4.15 runs the external CCM on GCP by default (since 4.15), so the operators have already migrated it and phase "leader-migration-kcm" cannot be rendered; remove spec.migration',
    ],
    [
      'leader election off',
      { leaderElect: false },
      'spec.migration.leaderElect',
      'is false: leader migration only runs when the kube-controller-manager has --leader-elect=true (with it off, migration is silently disabled and both sides run the cloud controllers); turn leader election on before phase "leader-migration-kcm"',
    ],
    [
      'a KCM older than 1.21',
      { distribution: 'kubernetes', kubernetesMinor: 20, ccmMinor: 20 },
      'spec.migration.kubernetesVersion',
      '"1.20": leader migration needs kube-controller-manager 1.21 or newer; upgrade the control plane to 1.21 before phase "leader-migration-kcm"',
    ],
    [
      'a CCM newer than kube-apiserver (the skew policy forbids N+1)',
      { ccmMinor: 28 },
      'spec.migration.ccmVersion',
      '"1.28": cloud-controller-manager 1.28 is newer than the kube-apiserver 1.27; the version skew policy allows 1.26 to 1.27: set spec.migration.ccmVersion to one of those',
    ],
    [
      'operator mode',
      { managementMode: 'operator' },
      'spec.managementMode',
      '"operator": the operator renders the CCM itself and never enables leader migration; use managementMode "gitops" for phase "leader-migration-kcm"',
    ],
    [
      'node IPAM on OpenShift',
      { nodeIpam: true },
      'spec.migration.nodeIpam',
      'is true but on OpenShift the network plugin allocates node CIDRs, not a controller manager; node IPAM does not move, set it to false',
    ],
    [
      'in-tree volumes the KCM no longer has',
      { distribution: 'kubernetes', phase: 'external', kubernetesMinor: 31, ccmMinor: 31, inTreeVolumes: true },
      'spec.migration.inTreeVolumes',
      'is true but kube-controller-manager 1.31 has no in-tree gce volume plugin (the last one is in 1.30); finish CSI migration and set it to false',
    ],
    [
      'an OpenShift FeatureGate on a release whose Default gates are not known',
      { phase: 'external', kubernetesMinor: 21, ccmMinor: 21 },
      'spec.migration.kubernetesVersion',
      '"1.21": the FeatureGate must keep OpenShift 4.8\'s Default feature gates, which this version does not know (known: 4.9 to 4.14); set kubernetesVersion to the cluster\'s release',
    ],
    [
      'the removed feature gate',
      { enabledFeatureGates: ['ControllerManagerLeaderMigration'] },
      'spec.featureGates.enabled.0',
      '"ControllerManagerLeaderMigration" is on by default from 1.22 and unknown from 1.27 (a controller manager given it fails with "unrecognized feature gate"); remove it, ccm-gitops adds it where 1.21 needs it',
    ],
  ])('%s', (_name, overrides, field, message) => {
    expect(migrationProblems({ ...base, ...overrides }).map((p) => [p.path.join('.'), p.message])).toEqual([[field, message]]);
  });

  test('the same rules stop synth, with file, line and field, and nothing is written', () => {
    // GIVEN a spec asking for leader migration with leader election off
    const dir = tempDir();
    try {
      writeFile(
        dir,
        'clusters/c.yaml',
        platformSpec('AWS', 'c', { migration: { phase: 'leader-migration-kcm', kubernetesVersion: '1.26', leaderElect: false } }),
      );
      // WHEN it is rendered (into a folder beside the clusters folder: synth refuses one inside it)
      const r = synth(path.join(dir, 'clusters'), path.join(dir, 'dist'));
      // THEN synth fails with the rule and writes nothing
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /c\.yaml:\d+: spec\.migration\.leaderElect: is false: leader migration only runs when the kube-controller-manager has --leader-elect=true/,
      );
      expect(fs.existsSync(path.join(dir, 'dist'))).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('kube-apiserver --cloud-provider is never emitted on 1.33+, kubelet --cloud-config never on 1.34+', () => {
    const vsphere = MIGRATION_SUPPORT.VSphere!({} as never)!;
    const at = (minor: number) =>
      input({ platform: 'VSphere', support: { ...vsphere, lastInTreeMinor: 99 }, phase: 'in-tree', kubernetesMinor: minor });
    expect(kubeApiserverFlags(at(32)).flags).toEqual([
      '--cloud-provider=vsphere',
      '--cloud-config=/etc/kubernetes/cloud.conf',
      '--feature-gates=DisableCloudProviders=false',
    ]);
    expect(() => kubeApiserverFlags(at(33))).toThrow(
      new UserError(
        'input',
        'kube-apiserver --cloud-provider was removed in Kubernetes 1.33; a 1.33 kube-apiserver fails with "unknown flag: --cloud-provider"',
      ),
    );
    expect(() => kubeletFlags(at(34))).toThrow(
      new UserError('input', 'kubelet --cloud-config was removed in Kubernetes 1.34; a 1.34 kubelet cannot run the in-tree vsphere provider'),
    );
    // AND both are the one user error type, of kind input
    const thrown = (f: () => unknown): unknown => {
      try {
        f();
      } catch (e) {
        return e;
      }
      return undefined;
    };
    expect(thrown(() => kubeApiserverFlags(at(33)))).toMatchObject({ name: 'UserError', kind: 'input' });
    expect(thrown(() => kubeletFlags(at(34)))).toMatchObject({ name: 'UserError', kind: 'input' });
    expect(kubeApiserverFlags({ ...at(35), phase: 'external' }).flags).toEqual([]);
    expect(kubeletFlags({ ...at(35), phase: 'external' })).toEqual({ flags: ['--cloud-provider=external'], remove: ['--cloud-config'] });
  });

  test('the leader-migration gate appears only for 1.21 components', () => {
    expect(kubeControllerManagerFlags(input({ kubernetesMinor: 21 })).flags).toContain('--feature-gates=ControllerManagerLeaderMigration=true');
    for (const minor of [22, 24, 26]) {
      expect(kubeControllerManagerFlags(input({ kubernetesMinor: minor })).flags.join(' ')).not.toContain('ControllerManagerLeaderMigration');
    }
    const mount = { configPath: '/etc/lm/config.yaml', leaseNamespace: 'kube-system' };
    expect(ccmLeaderMigrationFlags(['--feature-gates=A=true'], { ...mount, ccmMinor: 21 })).toContain(
      '--feature-gates=A=true,ControllerManagerLeaderMigration=true',
    );
    expect(ccmLeaderMigrationFlags(['--feature-gates=A=true'], { ...mount, ccmMinor: 27 }).join(' ')).not.toContain(
      'ControllerManagerLeaderMigration',
    );
  });
});

describe('the control-plane flags per phase', () => {
  test('kube-controller-manager: in-tree, leader migration, then external with in-tree volumes and node IPAM', () => {
    expect(kubeControllerManagerFlags(input({ phase: 'in-tree' }))).toEqual({
      flags: ['--cloud-provider=aws'],
      remove: ['--enable-leader-migration', '--leader-migration-config'],
    });
    expect(kubeControllerManagerFlags(input()).flags).toEqual([
      '--cloud-provider=aws',
      '--leader-elect=true',
      '--enable-leader-migration',
      '--leader-migration-config=/etc/kubernetes/leader-migration.yaml',
    ]);
    expect(kubeControllerManagerFlags(input({ phase: 'leader-migration-ccm' })).flags).toEqual(kubeControllerManagerFlags(input()).flags);
    expect(kubeControllerManagerFlags(input({ phase: 'external-leader-migration', nodeIpam: true }))).toEqual({
      flags: ['--cloud-provider=external', '--external-cloud-volume-plugin=aws', '--controllers=*,bootstrapsigner,tokencleaner,-nodeipam'],
      remove: ['--enable-leader-migration', '--leader-migration-config'],
    });
    const gcp = MIGRATION_SUPPORT.GCP!({} as never);
    expect(kubeControllerManagerFlags(input({ support: gcp, phase: 'external', inTreeVolumes: false, kubernetesMinor: 31 }))).toEqual({
      flags: ['--cloud-provider=external'],
      remove: ['--enable-leader-migration', '--leader-migration-config', '--cloud-config'],
    });
    expect(kubeControllerManagerFlags(input({ support: gcp, phase: 'in-tree', kubernetesMinor: 29 })).flags).toEqual([
      '--cloud-provider=gce',
      '--cloud-config=/etc/kubernetes/cloud.conf',
      '--feature-gates=DisableCloudProviders=false',
    ]);
  });

  test('kubelets switch with the KCMs, in external-leader-migration', () => {
    for (const phase of ['in-tree', 'leader-migration-kcm', 'leader-migration-ccm'] as const) {
      expect(kubeletFlags(input({ phase })).flags).toEqual(['--cloud-provider=aws']);
    }
    expect(kubeletFlags(input({ phase: 'external-leader-migration' })).flags).toEqual(['--cloud-provider=external']);
    expect(kubeletFlags(input({ phase: 'external' })).flags).toEqual(['--cloud-provider=external']);
  });
});

describe('LeaderMigrationConfiguration', () => {
  test.each([
    [21, 'controllermanager.config.k8s.io/v1alpha1', 'leases'],
    [22, 'controllermanager.config.k8s.io/v1beta1', 'leases'],
    [23, 'controllermanager.config.k8s.io/v1beta1', 'leases'],
    [24, 'controllermanager.config.k8s.io/v1', undefined],
    [30, 'controllermanager.config.k8s.io/v1', undefined],
  ])('kube-controller-manager 1.%i gets %s (resourceLock %s), and it parses back without problems', (minor, apiVersion, lock) => {
    const config = buildLeaderMigrationConfig({
      kubernetesMinor: minor,
      leaderName: 'cloud-provider-extraction-migration',
      component: '*',
      nodeIpam: true,
    });
    expect(config.apiVersion).toBe(apiVersion);
    expect(config.resourceLock).toBe(lock);
    const text = leaderMigrationConfigYaml(config);
    expect(text).toContain('    component: "*"\n');
    expect(text).not.toMatch(/component: \*/);
    const parsed = parseLeaderMigrationConfig(text);
    expect(parsed.problems).toEqual([]);
    expect(parsed.config).toEqual(config);
    expect(config.controllerLeaders.map((c) => c.name)).toEqual([...CONTROLLERS, 'nodeipam', 'node-ipam-controller']);
  });

  test('no version exists before 1.21', () => {
    expect(() => leaderMigrationApiVersion(20)).toThrow('leader migration needs kube-controller-manager 1.21 or newer, got 1.20');
  });

  const V1 = 'apiVersion: controllermanager.config.k8s.io/v1\nkind: LeaderMigrationConfiguration\n';
  const V1B = 'apiVersion: controllermanager.config.k8s.io/v1beta1\nkind: LeaderMigrationConfiguration\n';
  test.each([
    ['empty file', '', ['decode: the file is empty']],
    [
      'wrong kind',
      'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n',
      [
        'decode: unexpected config type "kubelet.config.k8s.io/v1beta1", kind "KubeletConfiguration"; want controllermanager.config.k8s.io/{v1alpha1,v1beta1,v1} LeaderMigrationConfiguration',
      ],
    ],
    [
      'resourceLock under v1',
      `${V1}leaderName: x\nresourceLock: leases\ncontrollerLeaders: []\n`,
      ['decode: strict decoding error: unknown field "resourceLock" (v1 has no resourceLock; it always uses leases)'],
    ],
    [
      'empty leaderName',
      `${V1}leaderName: ""\ncontrollerLeaders: []\n`,
      ['leaderName: Required value: leaderName must be set for LeaderMigrationConfiguration'],
    ],
    [
      'invalid resourceLock',
      `${V1B}leaderName: x\nresourceLock: configmaps\ncontrollerLeaders: []\n`,
      ["resourceLock: Invalid value: \"configmaps\": resource Lock must be one of 'leases' or 'endpoints'"],
    ],
    [
      'missing resourceLock in v1beta1',
      `${V1B}leaderName: x\ncontrollerLeaders: []\n`,
      ["resourceLock: Invalid value: \"\": resource Lock must be one of 'leases' or 'endpoints'"],
    ],
    [
      'endpoints lock',
      `${V1B}leaderName: x\nresourceLock: endpoints\ncontrollerLeaders: []\n`,
      ['resourceLock: "endpoints" passes validation but client-go 0.25 and newer removed the endpoints lock; use "leases"'],
    ],
    [
      'empty name and component',
      `${V1}leaderName: x\ncontrollerLeaders:\n  - name: ""\n    component: ""\n`,
      ['controllerLeaders[0].component: Required value', 'controllerLeaders[0].name: Required value'],
    ],
    [
      'unknown controller and component',
      `${V1}leaderName: x\ncontrollerLeaders:\n  - name: route-controller\n    component: ccm\n`,
      [
        'controllerLeaders[0].component: "ccm" is neither kube-controller-manager, cloud-controller-manager nor "*"; the controller would run nowhere',
        'controllerLeaders[0].name: "route-controller" is no canonical cloud controller name; it would run under the main lock on both sides',
      ],
    ],
    [
      'duplicate names',
      `${V1}leaderName: x\ncontrollerLeaders:\n  - name: route\n    component: "*"\n  - name: route\n    component: "*"\n`,
      ['controllerLeaders[1].name: "route" is listed twice; the last entry wins'],
    ],
    [
      'leaderName not a DNS subdomain',
      `${V1}leaderName: Bad_Name\ncontrollerLeaders: []\n`,
      ['leaderName: "Bad_Name" is not a DNS-1123 subdomain; the API server rejects the Lease'],
    ],
    ['empty controllerLeaders (valid)', `${V1}leaderName: x\ncontrollerLeaders: []\n`, []],
  ])('%s', (_name, text, problems) => {
    expect(parseLeaderMigrationConfig(text).problems).toEqual(problems);
  });

  test('an unquoted "*" is a YAML error', () => {
    const problems = parseLeaderMigrationConfig(`${V1}leaderName: x\ncontrollerLeaders:\n  - name: route\n    component: *\n`).problems;
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^yaml: /);
  });
});

describe('MIGRATION.md', () => {
  const tmp = useTempDir();

  test.each(MIGRATION_PHASES)('phase %s (AWS, OpenShift 4.13)', (phase) => {
    const clusters = path.join(tmp(), 'clusters');
    const out = path.join(tmp(), 'dist');
    fs.mkdirSync(clusters);
    writeCluster(clusters, 'AWS', phase);
    expect(synth(clusters, out).code).toBe(0);
    const md = fs.readFileSync(path.join(out, 'c', 'MIGRATION.md'), 'utf8');
    expect(md).toContain(`# Migration of c: phase \`${phase}\``);
    expect(md).toMatchSnapshot();
  });

  test('in-tree with preStage renders RBAC and the CredentialsRequest but no CCM', () => {
    const clusters = path.join(tmp(), 'clusters');
    const out = path.join(tmp(), 'dist');
    fs.mkdirSync(clusters);
    writeCluster(clusters, 'GCP', 'in-tree', { preStage: true });
    expect(synth(clusters, out).code).toBe(0);
    const keys = [...objects(out).keys()];
    expect(keys).toContain('CredentialsRequest openshift-cloud-credential-operator/openshift-gcp-ccm');
    expect(keys).toContain('Role kube-system/cloud-provider-leader-migration');
    // GCP at 4.14: the operator renders no gcp-cloud-controller-manager ClusterRole before release-4.16
    expect(keys).not.toContain('ClusterRole gcp-cloud-controller-manager');
    expect(keys.filter((k) => /^(Deployment|ConfigMap openshift-cloud-controller-manager\/cloud-conf|Service |PodDisruptionBudget)/.test(k))).toEqual(
      [],
    );
    expect(plan(out).rendered).toContainEqual({
      kind: 'CredentialsRequest',
      name: 'openshift-gcp-ccm',
      namespace: 'openshift-cloud-credential-operator',
    });
  });
});

describe('ccm-gitops migration control-plane', () => {
  test('kubeadm v1beta3 for a 1.26 control plane in leader-migration-kcm', () => {
    const cap = captureIo();
    expect(
      runCli(
        ['migration', 'control-plane', '--platform', 'aws', '--phase', 'leader-migration-kcm', '--kubernetes-version', '1.26', '--format', 'kubeadm'],
        cap.io,
      ),
    ).toBe(0);
    const docs = parseAllDocuments(cap.stdout()).map((d) => d.toJS());
    expect(docs.map((d) => `${d.apiVersion} ${d.kind}`)).toEqual([
      'kubeadm.k8s.io/v1beta3 ClusterConfiguration',
      'kubeadm.k8s.io/v1beta3 InitConfiguration',
      'kubeadm.k8s.io/v1beta3 JoinConfiguration',
    ]);
    expect(docs[0].controllerManager.extraArgs).toEqual({
      'cloud-provider': 'aws',
      'leader-elect': 'true',
      'enable-leader-migration': 'true',
      'leader-migration-config': '/etc/kubernetes/leader-migration.yaml',
    });
    // the file the KCM reads names kube-controller-manager: its own file
    expect(cap.stdout()).toContain('#       component: kube-controller-manager');
    expect(cap.stdout()).not.toContain('cloud-controller-manager\n');
    expect(docs[0].controllerManager.extraVolumes).toEqual([
      {
        name: 'leader-migration',
        hostPath: '/etc/kubernetes/leader-migration.yaml',
        mountPath: '/etc/kubernetes/leader-migration.yaml',
        readOnly: true,
        pathType: 'File',
      },
    ]);
    expect(docs[2].nodeRegistration.kubeletExtraArgs).toEqual({ 'cloud-provider': 'aws' });
  });

  test('a Cluster API JSON patch carries the kubelet switch and no leader-migration file in external', () => {
    const cap = captureIo();
    expect(
      runCli(
        ['migration', 'control-plane', '--platform', 'OpenStack', '--phase', 'external', '--kubernetes-version', '1.25', '--format', 'cluster-api'],
        cap.io,
      ),
    ).toBe(0);
    const ops = parse(cap.stdout());
    const kcm = '/spec/kubeadmConfigSpec/clusterConfiguration/controllerManager/extraArgs';
    // (the KCM's provider as external-leader-migration left it is tested first: from another phase the patch fails whole)
    expect(ops.filter((o: { path: string }) => o.path.startsWith(kcm))).toEqual([
      { op: 'test', path: `${kcm}/cloud-provider`, value: 'external' },
      { op: 'add', path: `${kcm}/cloud-provider`, value: 'external' },
      { op: 'add', path: `${kcm}/external-cloud-volume-plugin`, value: 'openstack' },
      { op: 'add', path: `${kcm}/cloud-config`, value: '/etc/kubernetes/cloud.conf' },
    ]);
    expect(ops).toContainEqual({
      op: 'add',
      path: '/spec/kubeadmConfigSpec/joinConfiguration/nodeRegistration/kubeletExtraArgs/cloud-provider',
      value: 'external',
    });
    expect(ops.some((o: { path: string }) => o.path.includes('/files'))).toBe(false);
  });

  test('--cluster-api v1beta2 writes name/value extra args; an unknown version is a usage error', () => {
    const cap = captureIo();
    const current = writeFile(tempDir(), 'kcp.yaml', {
      kind: 'KubeadmControlPlane',
      metadata: { name: 'c' },
      spec: { kubeadmConfigSpec: { clusterConfiguration: { controllerManager: { extraArgs: [] } } } },
    });
    expect(
      runCli(
        [
          'migration',
          'control-plane',
          '--platform',
          'GCP',
          '--phase',
          'external',
          '--kubernetes-version',
          '1.30',
          '--format',
          'cluster-api',
          '--cluster-api',
          'v1beta2',
          '--current',
          current,
        ],
        cap.io,
      ),
    ).toBe(0);
    expect(parse(cap.stdout())).toContainEqual({
      op: 'add',
      path: '/spec/kubeadmConfigSpec/clusterConfiguration/controllerManager/extraArgs/-',
      value: { name: 'cloud-provider', value: 'external' },
    });
    const bad = captureIo();
    expect(
      runCli(
        [
          'migration',
          'control-plane',
          '--platform',
          'GCP',
          '--phase',
          'external',
          '--kubernetes-version',
          '1.30',
          '--format',
          'cluster-api',
          '--cluster-api',
          'v1',
        ],
        bad.io,
      ),
    ).not.toBe(0);
    expect(bad.stderr()).toContain('--cluster-api "v1" is not a Cluster API version; use one of v1beta1, v1beta2');
  });

  test('kubeadm v1beta4 lists extra args as name/value pairs on 1.31+', () => {
    const cap = captureIo();
    expect(
      runCli(
        ['migration', 'control-plane', '--platform', 'GCP', '--phase', 'external', '--kubernetes-version', '1.31', '--format', 'kubeadm'],
        cap.io,
      ),
    ).toBe(0);
    expect(parseAllDocuments(cap.stdout())[0].toJS().controllerManager.extraArgs).toEqual([{ name: 'cloud-provider', value: 'external' }]);
  });

  test('a refused migration exits 1 with the rule', () => {
    const cap = captureIo();
    expect(runCli(['migration', 'control-plane', '--platform', 'Nutanix', '--phase', 'in-tree', '--kubernetes-version', '1.28'], cap.io)).toBe(1);
    expect(cap.stderr()).toBe(
      'error: spec.migration.phase: "in-tree" is not possible on Nutanix: it never had an in-tree cloud provider, so there is nothing to migrate; set phase to "external" or remove spec.migration\n',
    );
  });
});
