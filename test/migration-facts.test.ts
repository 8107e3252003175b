/**
 * Version facts, OpenShift ordering, kubeadm / Cluster
 * API snippets and consistency checks, each against its upstream source.
 */
import { minorSkewProblem } from '../src/util/version-skew';
import { parse, parseAllDocuments } from 'yaml';
import { kubeletFlags, kubeControllerManagerFlags, MigrationInput, phasePlan } from '../src/migration';
import { migrationProblems, transitionSteps, StepContext } from '../src/fleet/migration-targets';
import { openshiftOverrideRemove } from '../src/openshift/migration/migration-control-plane';
import { kubeadmApiVersion, kubeadmConfig, kubeadmControlPlanePatch, staticPodFlags } from '../src/kubernetes/migration/control-plane';
import * as fs from 'fs';
import { runCli } from '../src/cli';
import { migrationWarnings } from '../src/fleet/migration-targets';
import { captureIo, kubernetesSpec, migrationInput, tempDir, writeFile } from './helpers';

const input = migrationInput;

function problems(platform: string, distribution: string, overrides: Partial<MigrationInput> = {}): string[] {
  return migrationProblems({ ...input(platform, overrides), distribution, managementMode: 'gitops', enabledFeatureGates: [] }).map(
    (p) => `${p.path.join('.')}: ${p.message}`,
  );
}

describe('2. version facts', () => {
  // kubernetes/legacy-cloud-providers: azure/ and vsphere/ exist at v0.29.0 and v0.29.5, not at v0.30.0; gce/ is still at v0.30.0
  test.each(['Azure', 'VSphere'])('%s: the last in-tree minor is 1.29; 1.30 is refused before external', (platform) => {
    expect(problems(platform, 'kubernetes', { phase: 'in-tree', kubernetesMinor: 30, ccmMinor: 30 })).toEqual([
      `spec.migration.kubernetesVersion: "1.30": kube-controller-manager 1.30 has no in-tree ${platform === 'Azure' ? 'azure' : 'vsphere'} provider (the last one is in 1.29), so nothing is left to hand over in phase "in-tree"; the cluster can only be "external"`,
    ]);
    expect(problems(platform, 'kubernetes', { phase: 'in-tree', kubernetesMinor: 29, ccmMinor: 29 })).toEqual([]);
  });

  test('GCP on OpenShift 4.15 (1.28) is already external by default (openshift/api release-4.15 payload-manifests/featuregates/featureGate-Default.yaml enables ExternalCloudProviderGCP)', () => {
    expect(problems('GCP', 'openshift', { phase: 'leader-migration-kcm', kubernetesMinor: 28, ccmMinor: 28 })).toEqual([
      'spec.migration.kubernetesVersion: "1.28": OpenShift 4.15 runs the external CCM on GCP by default (since 4.15), so the operators have already migrated it and phase "leader-migration-kcm" cannot be rendered; remove spec.migration',
    ]);
    expect(problems('GCP', 'openshift', { phase: 'leader-migration-kcm', kubernetesMinor: 27, ccmMinor: 27 })).toEqual([]);
  });

  test('OpenShift 4.8 (1.21) is refused for leader migration: its KCM needs the alpha gate, which the override cannot set', () => {
    expect(problems('AWS', 'openshift', { phase: 'leader-migration-kcm', kubernetesMinor: 21, ccmMinor: 21 })).toEqual([
      'spec.migration.kubernetesVersion: "1.21": on OpenShift 4.8 kube-controller-manager needs the alpha feature gate ControllerManagerLeaderMigration, which the KubeControllerManager override cannot set; upgrade to OpenShift 4.9 (1.22) before phase "leader-migration-kcm"',
    ]);
    expect(problems('AWS', 'kubernetes', { phase: 'leader-migration-kcm', kubernetesMinor: 21, ccmMinor: 21 })).toEqual([]);
  });

  test.each([
    [21, 'kubeadm.k8s.io/v1beta2'],
    [22, 'kubeadm.k8s.io/v1beta3'],
    [30, 'kubeadm.k8s.io/v1beta3'],
    [31, 'kubeadm.k8s.io/v1beta4'],
  ])('kubeadm 1.%i reads %s', (minor, api) => {
    expect(kubeadmApiVersion(minor)).toBe(api);
    expect(parseAllDocuments(kubeadmConfig(input('GCP', { kubernetesMinor: minor, ccmMinor: minor })))[0].toJS().apiVersion).toBe(api);
  });

  test('1.29 and 1.30 in-tree kubelets keep their cloud credential providers (DisableKubeletCloudCredentialProviders is on by default from 1.29)', () => {
    expect(kubeletFlags(input('GCP', { phase: 'in-tree', kubernetesMinor: 29, ccmMinor: 29 })).flags).toContain(
      '--feature-gates=DisableCloudProviders=false,DisableKubeletCloudCredentialProviders=false',
    );
    expect(kubeControllerManagerFlags(input('GCP', { phase: 'in-tree', kubernetesMinor: 29, ccmMinor: 29 })).flags).toContain(
      '--feature-gates=DisableCloudProviders=false',
    );
  });
});

describe('5. version skew of the CCM against kube-apiserver', () => {
  test.each([
    [26, 26, undefined],
    [25, 26, undefined],
    [
      27,
      26,
      'cloud-controller-manager 1.27 is newer than the kube-apiserver 1.26; the version skew policy allows 1.25 to 1.26: set spec.migration.ccmVersion to one of those',
    ],
    [
      24,
      26,
      'cloud-controller-manager 1.24 is 2 minors older than the kube-apiserver 1.26; the version skew policy allows 1.25 to 1.26: set spec.migration.ccmVersion to one of those',
    ],
  ])('CCM 1.%i against kube-apiserver 1.%i', (ccm, kas, expected) => {
    expect(minorSkewProblem('cloud-controller-manager', `1.${ccm}`, `1.${kas}`, 'set spec.migration.ccmVersion to one of those')).toBe(expected);
  });

  test('the spec refuses N+1 and accepts N-1', () => {
    expect(problems('AWS', 'kubernetes', { ccmMinor: 27 })).toEqual([
      'spec.migration.ccmVersion: "1.27": cloud-controller-manager 1.27 is newer than the kube-apiserver 1.26; the version skew policy allows 1.25 to 1.26: set spec.migration.ccmVersion to one of those',
    ]);
    expect(problems('AWS', 'kubernetes', { ccmMinor: 25 })).toEqual([]);
  });
});

describe('3. OpenShift ordering', () => {
  const ctx: StepContext = {
    distribution: 'openshift',
    ccm: {
      namespace: 'openshift-cloud-controller-manager',
      serviceAccount: 'cloud-controller-manager',
      workload: 'deployment/aws-cloud-controller-manager',
    },
    featureGates: ['ExternalCloudProvider'],
    featureSet: 'CustomNoUpgrade',
    machineConfig: '99-master-kcm-leader-migration',
  };
  const os = (phase: MigrationInput['phase']) =>
    input('AWS', { phase, kcmConfigPath: '/etc/kubernetes/static-pod-certs/leader-migration/config.yaml' });

  test('the override is removed with a merge patch of our two keys only (idempotent, other overrides stay)', () => {
    expect(openshiftOverrideRemove()).toMatch(
      /^oc patch kubecontrollermanager cluster --type=merge -p '\{"spec":\{"unsupportedConfigOverrides":\{"extendedArguments":\{"enable-leader-migration":null,"leader-migration-config":null\}\}\}\}' && /,
    );
  });

  test('GIVEN an override whose only keys were ours WHEN it is removed THEN unsupportedConfigOverrides goes too, behind a test of its emptied value', () => {
    // GIVEN/WHEN the removal command; a merge patch leaves {"extendedArguments":{}}, and any non-empty
    // unsupportedConfigOverrides keeps the operator Upgradeable=False
    const command = openshiftOverrideRemove();
    // THEN a JSON patch removes the field only when nothing but the emptied map is left; other overrides keep it
    const json = /--type=json -p '([^']*)'/.exec(command);
    expect(json && JSON.parse(json[1])).toEqual([
      { op: 'test', path: '/spec/unsupportedConfigOverrides', value: { extendedArguments: {} } },
      { op: 'remove', path: '/spec/unsupportedConfigOverrides' },
    ]);
    expect(command).toContain('|| echo "unsupportedConfigOverrides keeps other overrides"');
  });

  test('rollback to in-tree: the override is removed and checked gone from every KCM BEFORE the merge, the MachineConfig is deleted in its own step AFTER it', () => {
    const t = transitionSteps(os('in-tree'), ctx, 'leader-migration-kcm', 'in-tree');
    expect(t.steps.map((s) => s.when)).toEqual(['before-merge', 'merge', 'after-merge']);
    expect(t.steps[0].command).toBe(openshiftOverrideRemove());
    expect(t.steps[0].checks[0].command).toContain('.status.nodeStatuses[*]');
    expect(t.steps[0].checks[0].command).toContain('{.spec.unsupportedConfigOverrides.extendedArguments}');
    expect(t.steps[1].action).toBe(
      'prune the lease RBAC and stop rendering the MachineConfig 99-master-kcm-leader-migration (it is never pruned: it stays on the hosts until the next step)',
    );
    expect(t.steps[2].command).toBe('oc delete machineconfig 99-master-kcm-leader-migration');
    expect(t.steps[2].checks.map((c) => c.command)).toEqual(['oc wait machineconfigpool/master --for=condition=Updated --timeout=60m']);
  });

  test('to external: the MachineConfig outlives the override (removed in external-leader-migration), leaves git in external and is deleted in the step after the merge', () => {
    const toExtLm = transitionSteps(os('external-leader-migration'), ctx, 'leader-migration-ccm', 'external-leader-migration');
    expect(toExtLm.steps.map((s) => `${s.when} ${s.command ?? ''}`)).toEqual(['merge ', `after-merge ${openshiftOverrideRemove()}`]);
    const toExt = transitionSteps(os('external'), ctx, 'external-leader-migration', 'external');
    expect(toExt.steps.map((s) => `${s.when} ${s.command ?? ''}`)).toEqual([
      'before-merge ',
      'merge ',
      'after-merge oc delete machineconfig 99-master-kcm-leader-migration',
    ]);
    expect(toExt.steps[1].action).toContain('stop rendering the MachineConfig 99-master-kcm-leader-migration (it is never pruned');
  });

  test('GIVEN leader-migration-ccm → external-leader-migration WHEN the steps are planned THEN the override goes as soon as the newest KCM revision is external, and the pools are waited for only after it is gone', () => {
    // WHEN
    const t = transitionSteps(os('external-leader-migration'), ctx, 'leader-migration-ccm', 'external-leader-migration');
    // THEN the merge waits for the revisioned config only, not for a rollout or the machine-config pools
    expect(t.steps[0].checks).toEqual([
      {
        check:
          'the newest kube-controller-manager revision (latestAvailableRevision) runs --cloud-provider=external: the command prints "cloud-provider":["external"] (do not wait for the nodes to roll it out)',
        command:
          "oc -n openshift-kube-controller-manager get configmap config-$(oc get kubecontrollermanager cluster -o jsonpath='{.status.latestAvailableRevision}') -o jsonpath='{.data.config\\.yaml}' | grep -o '\"cloud-provider\":\\[\"external\"\\]'",
      },
    ]);
    // AND the override removal follows, with the pools checked after it (then the protocol's lease check)
    expect(t.steps[1].command).toBe(openshiftOverrideRemove());
    expect(t.steps[1].checks.map((c) => c.command).slice(0, 2)).toEqual([
      'oc get kubecontrollermanager cluster -o jsonpath=\'{.status.latestAvailableRevision}{" :"}{range .status.nodeStatuses[*]}{" "}{.currentRevision}{end}{"\\n"}{.spec.unsupportedConfigOverrides.extendedArguments}{"\\n"}\'',
      'oc wait machineconfigpool --all --for=condition=Updated --timeout=120m',
    ]);
  });

  test('GIVEN the precondition of phase external WHEN its KCM check is read THEN it checks that the override has neither of our keys, not only the revisions', () => {
    const toExt = transitionSteps(os('external'), ctx, 'external-leader-migration', 'external');
    expect(toExt.steps[0].checks[0]).toEqual({
      check:
        "every kube-controller-manager runs the latest revision (each node's currentRevision equals latestAvailableRevision), and spec.unsupportedConfigOverrides.extendedArguments has neither enable-leader-migration nor leader-migration-config (second line)",
      command:
        'oc get kubecontrollermanager cluster -o jsonpath=\'{.status.latestAvailableRevision}{" :"}{range .status.nodeStatuses[*]}{" "}{.currentRevision}{end}{"\\n"}{.spec.unsupportedConfigOverrides.extendedArguments}{"\\n"}\'',
      probes: [{ kind: 'kcm-revisions' }, { kind: 'kcm-override', present: false, keys: ['enable-leader-migration', 'leader-migration-config'] }],
    });
  });

  test('GIVEN the precondition of phase leader-migration-ccm WHEN its KCM check is read THEN it checks that the override has both our keys', () => {
    const toCcm = transitionSteps(os('leader-migration-ccm'), ctx, 'leader-migration-kcm', 'leader-migration-ccm');
    expect(toCcm.steps[0].checks[0].check).toContain(
      'spec.unsupportedConfigOverrides.extendedArguments has enable-leader-migration and leader-migration-config',
    );
  });
});

describe('4. kubeadm and Cluster API snippets', () => {
  test('the Cluster API patch appends to files and extraVolumes instead of replacing them', () => {
    const ops = parse(kubeadmControlPlanePatch(input('OpenStack', { kubernetesMinor: 25, ccmMinor: 25 }), 'c-control-plane'));
    expect(ops).toContainEqual({
      op: 'add',
      path: '/spec/kubeadmConfigSpec/files/-',
      value: expect.objectContaining({ path: '/etc/kubernetes/leader-migration.yaml' }),
    });
    expect(ops).toContainEqual({
      op: 'add',
      path: '/spec/kubeadmConfigSpec/clusterConfiguration/controllerManager/extraVolumes/-',
      value: {
        name: 'leader-migration',
        hostPath: '/etc/kubernetes/leader-migration.yaml',
        mountPath: '/etc/kubernetes/leader-migration.yaml',
        readOnly: true,
        pathType: 'File',
      },
    });
    expect(ops).toContainEqual({
      op: 'add',
      path: '/spec/kubeadmConfigSpec/clusterConfiguration/controllerManager/extraArgs/cloud-provider',
      value: 'openstack',
    });
    expect(ops.some((o: { op: string; path: string }) => o.op === 'replace' || /\/(files|extraVolumes)$/.test(o.path))).toBe(false);
  });

  test('Cluster API v1beta2 appends extra args it does not find as name/value entries', () => {
    const empty = {
      kind: 'KubeadmControlPlane',
      spec: {
        kubeadmConfigSpec: {
          clusterConfiguration: { controllerManager: { extraArgs: [] } },
          joinConfiguration: { nodeRegistration: { kubeletExtraArgs: [] } },
        },
      },
    };
    const ops = parse(kubeadmControlPlanePatch(input('GCP', { phase: 'external', kubernetesMinor: 30, ccmMinor: 30 }), 'c', 'v1beta2', empty));
    expect(ops).toContainEqual({
      op: 'add',
      path: '/spec/kubeadmConfigSpec/clusterConfiguration/controllerManager/extraArgs/-',
      value: { name: 'cloud-provider', value: 'external' },
    });
    expect(ops).toContainEqual({
      op: 'add',
      path: '/spec/kubeadmConfigSpec/joinConfiguration/nodeRegistration/kubeletExtraArgs/-',
      value: { name: 'cloud-provider', value: 'external' },
    });
  });

  test("moving node IPAM keeps kubeadm's default controllers (*,bootstrapsigner,tokencleaner)", () => {
    const flags = kubeControllerManagerFlags(input('GCP', { phase: 'external-leader-migration', nodeIpam: true })).flags;
    expect(flags).toContain('--controllers=*,bootstrapsigner,tokencleaner,-nodeipam');
    expect(staticPodFlags(input('GCP', { phase: 'external', nodeIpam: true }))).toContain('if yours differs, keep it and append -nodeipam');
  });

  test('clean-up removes the leader-migration extraVolume, and kubelet args on existing nodes are explained', () => {
    const text = kubeadmConfig(input('GCP', { phase: 'external-leader-migration' }));
    expect(text).toContain(
      '# kube-controller-manager: remove the "leader-migration" extraVolume (/etc/kubernetes/leader-migration.yaml, pathType File) and the file itself if present',
    );
    expect(text).toContain('/var/lib/kubelet/kubeadm-flags.env');
    expect(kubeadmControlPlanePatch(input('GCP', { phase: 'in-tree' }))).toContain('remove the "leader-migration" extraVolume');
  });

  test('the KCM never gets --leader-elect-resource-namespace (it would move its main lease)', () => {
    for (const phase of ['leader-migration-kcm', 'leader-migration-ccm'] as const) {
      expect(
        kubeControllerManagerFlags(input('AWS', { phase, leaseNamespace: 'cloud-migration' })).flags.some((f) =>
          f.startsWith('--leader-elect-resource-namespace'),
        ),
      ).toBe(false);
    }
  });
});

describe('5. consistency checks stop synth (kubernetes distribution)', () => {
  // GIVEN specs whose CCM settings disagree with the migration
  const cases: [string, Record<string, unknown>, Record<string, unknown>, string][] = [
    [
      'IPAM moves but the CCM does not allocate',
      { version: '1.28', clusterName: 'kubernetes' },
      { nodeIpam: true },
      'spec.migration.nodeIpam: is true but spec.kubernetes.allocateNodeCidrs is false: node IPAM moves to the CCM, so the CCM must allocate node CIDRs; set spec.kubernetes.allocateNodeCidrs to true (with spec.kubernetes.clusterCIDR), or nodeIpam to false if kube-controller-manager never allocated them',
    ],
    [
      'the CCM allocates but IPAM does not move',
      { version: '1.28', clusterName: 'kubernetes', allocateNodeCidrs: true, clusterCIDR: ['10.64.0.0/14'] },
      {},
      'spec.migration.nodeIpam: is false but spec.kubernetes.allocateNodeCidrs is true: the CCM would allocate node CIDRs while kube-controller-manager keeps its own node IPAM controller (two allocators); set nodeIpam to true so IPAM moves under the migration lease and kube-controller-manager gets -nodeipam, or allocateNodeCidrs to false',
    ],
    [
      'no cluster name',
      { version: '1.28' },
      {},
      'spec.kubernetes.clusterName: is not set: during a migration the CCM must run with kube-controller-manager\'s --cluster-name (its default is "kubernetes"; GCP names or tags cloud resources such as load balancers after it, so a different name orphans them): set it to the value kube-controller-manager runs with',
    ],
    [
      'a lease namespace the CCM does not run in',
      { version: '1.28', clusterName: 'kubernetes' },
      { leaseNamespace: 'cloud-migration' },
      'spec.migration.leaseNamespace: "cloud-migration" differs from spec.kubernetes.namespace "kube-system": the CCM elects its leader in the lease namespace while it runs leader migration and in its own namespace afterwards, and a rolling update between the two elects two CCM leaders that both run the cloud controllers; run the CCM in "cloud-migration"',
    ],
  ];
  test.each(cases)('%s', (_name, kubernetes, migration, message) => {
    const dir = tempDir();
    try {
      writeFile(
        dir,
        'c.yaml',
        kubernetesSpec('GCP', 'c', kubernetes, { migration: { phase: 'leader-migration-kcm', kubernetesVersion: '1.28', ...migration } }),
      );
      const cap = captureIo();
      // WHEN synth runs
      const code = runCli(['synth', '--clusters', dir, '--out', `${dir}.out`, '-q'], cap.io, {});
      // THEN it refuses with the rule
      expect(code).toBe(1);
      expect(cap.stderr()).toContain(message);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(`${dir}.out`, { recursive: true, force: true });
    }
  });

  test("warnings: a non-default lease namespace must be the KCM's; routes after IPAM moves", () => {
    const w = migrationWarnings({
      ...input('GCP', { nodeIpam: true, leaseNamespace: 'cloud-migration' }),
      distribution: 'kubernetes',
      managementMode: 'gitops',
      enabledFeatureGates: [],
      kubernetes: {
        allocateNodeCidrs: true,
        configureCloudRoutes: false,
        namespace: 'cloud-migration',
        clusterName: 'kubernetes',
        clusterNameFlag: true,
      },
    }).map((p) => `${p.path.join('.')}: ${p.message}`);
    expect(w).toEqual([
      'spec.migration.leaseNamespace: "cloud-migration" is not kube-system: it must be the namespace kube-controller-manager already elects its leader in (its --leader-elect-resource-namespace), because both its leases use it; ccm-gitops never changes that flag, since moving it during the roll would give the KCMs two main leases; the plan\'s checks and migration preflight require --leader-elect-resource-namespace=cloud-migration on every kube-controller-manager',
      'spec.kubernetes.configureCloudRoutes: is false while node IPAM moves from kube-controller-manager: a KCM that allocated node CIDRs also programmed cloud routes unless it ran --configure-cloud-routes=false, and after the migration nobody would; set it to true unless kube-controller-manager runs --configure-cloud-routes=false',
    ]);
  });
});

describe('8. one plan per cluster and phase', () => {
  test("phasePlan is computed once per input and carries both sides' files", () => {
    const m = input('GCP', { phase: 'leader-migration-ccm', kubernetesMinor: 27, ccmMinor: 27 });
    const p = phasePlan(m);
    expect(phasePlan(m)).toBe(p);
    expect(p.kcm.file).toContain('component: kube-controller-manager');
    expect(p.ccm.file).toContain('component: cloud-controller-manager');
    expect(p.ccm.deployed).toBe(true);
    expect(p.kcm.path).toBe('/etc/kubernetes/leader-migration.yaml');
    // the control-plane snippet writes exactly the KCM file of the plan
    expect(kubeadmConfig(m)).toContain(p.kcm.file!.trimEnd().replace(/^/gm, '#   '));
  });

  test('MIGRATION.md of the kubernetes distribution names the KCM file path and has no OpenShift wording', () => {
    const dir = tempDir();
    try {
      writeFile(
        dir,
        'c.yaml',
        kubernetesSpec(
          'GCP',
          'c',
          { version: '1.27', clusterName: 'kubernetes' },
          { migration: { phase: 'leader-migration-kcm', kubernetesVersion: '1.27' } },
        ),
      );
      const cap = captureIo();
      expect(runCli(['synth', '--clusters', dir, '--out', `${dir}.out`, '-q'], cap.io, {})).toBe(0);
      const md = fs.readFileSync(`${dir}.out/c/MIGRATION.md`, 'utf8');
      expect(md).toContain('kube-controller-manager (`/etc/kubernetes/leader-migration.yaml`):');
      expect(md).toContain('| cloud-controller-manager | - | - | not deployed in this phase |');
      expect(md.toLowerCase()).not.toMatch(/openshift|machineconfig|oc patch/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(`${dir}.out`, { recursive: true, force: true });
    }
  });
});
