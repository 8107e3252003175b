/**
 * The kubernetes distribution's phase changes: who runs node IPAM in each
 * phase, which provider can take it, the RKE2/k3s steps, the CCM's minor, the
 * Cluster API v1beta2 patch and the order of the Azure switch.
 */
import * as fs from 'fs';
import { parse } from 'yaml';
import { controlPlaneMarkdown } from '../src/kubernetes/control-plane-plan';
import { kubeadmControlPlanePatch, staticPodFlags } from '../src/kubernetes/migration/control-plane';
import { runCli } from '../src/cli';
import { MigrationPhase } from '../src/migration';
import { migrationProblems, StepContext, transitionSteps } from '../src/fleet/migration-targets';
import { loadFleet } from '../src/fleet/load';
import { kubernetesWarnings } from '../src/kubernetes/validate';
import { captureIo, findObject, fleetProblems, kubernetesSpec, migrationInput, parsedSpec, renderSpec, tempDir, writeFile } from './helpers';
import { simulate } from './oracle/leader-migration/simulator';
import { applyPatch } from './json-patch';
import { kubernetesCcmBase, upstreamCcmControllers } from './oracle/leader-migration/scenario';
import { planScenario } from './helpers/plan-scenario';

const GCP_IPAM = { version: '1.28', clusterName: 'kubernetes', allocateNodeCidrs: true, configureCloudRoutes: true, clusterCIDR: ['10.64.0.0/14'] };

function gcpControlPlane(phase: MigrationPhase): string {
  const section = parsedSpec(kubernetesSpec('GCP', 'c', GCP_IPAM, { migration: { phase, kubernetesVersion: '1.28', nodeIpam: true } })).spec
    .kubernetes!;
  return controlPlaneMarkdown({
    clusterName: 'c',
    platform: 'GCP',
    section,
    migration: migrationInput('GCP', { phase, kubernetesMinor: 28, ccmMinor: 28, nodeIpam: true }),
    outputPath: 'dist/c',
  });
}

describe('node IPAM stays with kube-controller-manager until a CCM that runs it takes over', () => {
  test.each(['in-tree', 'leader-migration-kcm', 'leader-migration-ccm'] as const)(
    "GCP with nodeIpam, phase %s: CONTROL-PLANE.md never turns the KCM's node IPAM off",
    (phase) => {
      // GIVEN a GCP cluster moving node IPAM, in a phase where the KCM still runs it (alone, or under the migration lease)
      // WHEN its CONTROL-PLANE.md is written
      // (the rollback patch from the external phase tests the --controllers it removes: it is no instruction to stop)
      const [text, rollback = ''] = gcpControlPlane(phase).split('Coming back into');
      // THEN nothing tells the KCM to stop allocating node CIDRs
      expect(text).not.toMatch(/--controllers=[^\s`]*-nodeipam/);
      expect(text).not.toMatch(/controllers: "[^"]*-nodeipam/);
      expect(rollback.includes('tokencleaner,-nodeipam')).toBe(phase === 'leader-migration-ccm');
      expect(text).not.toContain('--allocate-node-cidrs=false');
      // AND every form gives node IPAM back where an external phase turned it off, the user's other entries kept
      expect(text).toContain('  remove -nodeipam from --controllers (keep the other entries)');
      expect(text).toContain(
        "# kube-controller-manager: remove -nodeipam from controllers if present (keep the other entries; drop the argument if only kubeadm's default *,bootstrapsigner,tokencleaner is left)",
      );
      expect(text).toContain(
        phase === 'leader-migration-ccm'
          ? 'Node IPAM runs under the migration lease: both files list it, and whichever controller manager holds the lease runs it; kube-controller-manager keeps its node IPAM controller and `--allocate-node-cidrs=true` in this phase (remove `-nodeipam` from its `--controllers` list if an external phase added it, keeping the other entries).'
          : 'Node IPAM stays with kube-controller-manager in this phase (no CCM runs yet): keep its `--allocate-node-cidrs=true`, and remove `-nodeipam` from its `--controllers` list if an external phase added it (keep the other entries).',
      );
    },
  );

  test.each(['external-leader-migration', 'external'] as const)(
    "GCP with nodeIpam, phase %s: the KCM drops node IPAM and keeps kubeadm's bootstrap-token controllers",
    (phase) => {
      // GIVEN the phases where the CCM runs node IPAM
      // WHEN CONTROL-PLANE.md is written
      const text = gcpControlPlane(phase);
      // THEN the KCM's --controllers keeps bootstrapsigner and tokencleaner, and the "*,-nodeipam" form appears nowhere
      expect(text).toContain(
        'Node IPAM runs in the CCM: kube-controller-manager runs `--controllers=*,bootstrapsigner,tokencleaner,-nodeipam` (below), so only the CCM assigns pod CIDRs.',
      );
      expect(text).toContain('  --controllers=*,bootstrapsigner,tokencleaner,-nodeipam');
      expect(text).toContain('controllers: "*,bootstrapsigner,tokencleaner,-nodeipam"');
      expect(text).not.toContain('*,-nodeipam');
    },
  );

  test('the static-pod form explains --controllers only where the KCM hands node IPAM over', () => {
    // GIVEN GCP with nodeIpam; WHEN the static-pod flags of each phase are printed
    const of = (phase: MigrationPhase) => staticPodFlags(migrationInput('GCP', { phase, kubernetesMinor: 28, ccmMinor: 28, nodeIpam: true }));
    // THEN the in-tree phases set no --controllers and remove -nodeipam from it; the external ones name kubeadm's list without node IPAM
    expect(of('leader-migration-kcm')).not.toContain('--controllers=');
    expect(of('leader-migration-kcm')).not.toContain('--controllers: ');
    expect(of('leader-migration-kcm')).toContain('  remove -nodeipam from --controllers (keep the other entries)');
    expect(of('external')).toContain(
      "--controllers: *,bootstrapsigner,tokencleaner,-nodeipam is kubeadm's default list without node IPAM; if yours differs, keep it and append -nodeipam.",
    );
  });

  test("migration control-plane --phase leader-migration-kcm --node-ipam leaves the KCM's node IPAM on", () => {
    // GIVEN the CLI for GCP 1.28 with node IPAM moving
    const cap = captureIo();
    // WHEN it prints the static-pod change of leader-migration-kcm
    expect(
      runCli(
        ['migration', 'control-plane', '--platform', 'GCP', '--phase', 'leader-migration-kcm', '--kubernetes-version', '1.28', '--node-ipam'],
        cap.io,
      ),
    ).toBe(0);
    // THEN no flag turns the KCM's node IPAM off; the -nodeipam an external phase set is removed
    expect(cap.stdout()).not.toContain('--allocate-node-cidrs=false');
    expect(cap.stdout()).not.toContain('--controllers=');
    expect(cap.stdout()).toContain('  remove -nodeipam from --controllers (keep the other entries)');
  });
});

test('a cluster that never ran in-tree, with node CIDRs allocated by the CCM, has the KCM drop node IPAM in its flags', () => {
  // GIVEN a GCP cluster without a migration whose CCM allocates node CIDRs
  const section = parsedSpec(kubernetesSpec('GCP', 'c', GCP_IPAM)).spec.kubernetes!;
  // WHEN its CONTROL-PLANE.md is written
  const text = controlPlaneMarkdown({ clusterName: 'c', platform: 'GCP', section, outputPath: 'dist/c' });
  // THEN the KCM's flags carry the --controllers value the note points to
  expect(text).toContain(
    'kube-controller-manager (/etc/kubernetes/manifests/kube-controller-manager.yaml):\n  --cloud-provider=external\n  --controllers=*,bootstrapsigner,tokencleaner,-nodeipam\n',
  );
});

describe('node IPAM moves only to a CCM that has it; routes only where they can work', () => {
  const problems = (platform: string, nodeIpam: boolean) =>
    migrationProblems({
      ...migrationInput(platform, { phase: 'in-tree', kubernetesMinor: 25, ccmMinor: 25, nodeIpam }),
      distribution: 'kubernetes',
      managementMode: 'gitops',
      enabledFeatureGates: [],
    }).map((p) => `${p.path.join('.')}: ${p.message}`);

  test.each(['AWS', 'OpenStack', 'VSphere'])('%s: nodeIpam true is refused (its CCM registers no node IPAM controller)', (platform) => {
    // GIVEN a provider whose CCM main.go registers only the k8s.io/cloud-provider defaults
    // WHEN node IPAM is asked to move
    // THEN one problem names the field and the fix
    expect(problems(platform, true)).toEqual([
      `spec.migration.nodeIpam: is true but the ${platform} CCM has no node IPAM controller (it runs the k8s.io/cloud-provider defaults: cloud-node, cloud-node-lifecycle, service, route), so after the move no one would assign pod CIDRs to new nodes; set nodeIpam to false and keep node IPAM in kube-controller-manager`,
    ]);
    expect(problems(platform, false)).toEqual([]);
  });

  test.each(['GCP', 'Azure'])('%s: nodeIpam true is accepted (its CCM registers node IPAM)', (platform) => {
    expect(problems(platform, true)).toEqual([]);
  });

  test('migration control-plane --platform AWS --node-ipam is refused', () => {
    // GIVEN the CLI; WHEN node IPAM is asked to move to the AWS CCM
    const cap = captureIo();
    const code = runCli(
      ['migration', 'control-plane', '--platform', 'AWS', '--phase', 'leader-migration-kcm', '--kubernetes-version', '1.26', '--node-ipam'],
      cap.io,
    );
    // THEN exit 1 with the field and the fix, and nothing printed
    expect([code, cap.stdout()]).toEqual([1, '']);
    expect(cap.stderr()).toContain('error: spec.migration.nodeIpam: is true but the AWS CCM has no node IPAM controller');
  });

  test('a kubernetes AWS 1.26 spec with allocateNodeCidrs, clusterCIDR and nodeIpam is refused by synth', () => {
    // GIVEN the spec of the issue
    const dir = tempDir();
    writeFile(
      dir,
      'c.yaml',
      kubernetesSpec(
        'AWS',
        'c',
        { version: '1.26', allocateNodeCidrs: true, clusterCIDR: ['10.64.0.0/14'] },
        { migration: { phase: 'in-tree', kubernetesVersion: '1.26', nodeIpam: true } },
      ),
    );
    // WHEN it is loaded; THEN it is refused at spec.migration.nodeIpam
    expect(fleetProblems(dir).filter((p) => p.includes('nodeIpam'))).toEqual([
      expect.stringContaining('spec.migration.nodeIpam: is true but the AWS CCM has no node IPAM controller'),
    ]);
  });

  test('AWS nodeIpam without allocateNodeCidrs gets one problem, not two', () => {
    // GIVEN nodeIpam true on AWS and allocateNodeCidrs left false
    const dir = tempDir();
    writeFile(
      dir,
      'c.yaml',
      kubernetesSpec('AWS', 'c', { version: '1.26' }, { migration: { phase: 'in-tree', kubernetesVersion: '1.26', nodeIpam: true } }),
    );
    // THEN only the missing controller is reported (allocateNodeCidrs would not help)
    expect(fleetProblems(dir).filter((p) => p.includes('nodeIpam'))).toEqual([
      expect.stringContaining('spec.migration.nodeIpam: is true but the AWS CCM has no node IPAM controller'),
    ]);
  });

  test('an AWS CCM with --allocate-node-cidrs=true for its routes is no second allocator', () => {
    // GIVEN AWS with allocateNodeCidrs (the CCM's route controller needs it) and node IPAM staying in the KCM
    const dir = tempDir();
    writeFile(
      dir,
      'c.yaml',
      kubernetesSpec(
        'AWS',
        'c',
        { version: '1.26', allocateNodeCidrs: true, configureCloudRoutes: true, clusterCIDR: ['10.64.0.0/14'] },
        { migration: { phase: 'in-tree', kubernetesVersion: '1.26' } },
      ),
    );
    // THEN it loads
    expect(loadFleet(dir).clusters.map((c) => c.spec.metadata.name)).toEqual(['c']);
  });

  test.each([
    ['OpenStack', 'when Neutron has the extraroute (or extraroute-atomic) extension'],
    ['VSphere', "with NSX-T: the cloud config's route section must set routerPath"],
  ])('%s: configureCloudRoutes is warned about', (platform, what) => {
    // GIVEN a provider whose Routes() can return false; WHEN configureCloudRoutes is on
    const warnings = kubernetesWarnings(
      parsedSpec(kubernetesSpec(platform, 'c', { configureCloudRoutes: true, allocateNodeCidrs: true, clusterCIDR: ['10.64.0.0/14'] })),
    );
    // THEN one warning says what routes need
    expect(warnings).toEqual([
      `spec.kubernetes.configureCloudRoutes: is true but the ${platform} CCM programs routes only ${what}; without that its route controller never starts and pods on other nodes are unreachable: check it, or set configureCloudRoutes to false and let the CNI route`,
    ]);
  });

  test('the simulator, given what each CCM registers, finds node IPAM running nowhere when it moves to the AWS CCM', () => {
    // GIVEN AWS 1.26 with node IPAM moving (the plan as it would be without the refusal), the AWS CCM's registered controllers
    const input = migrationInput('AWS', { phase: 'external', nodeIpam: true });
    const ctx = {
      distribution: 'kubernetes',
      ccm: { namespace: 'kube-system', serviceAccount: 'cloud-controller-manager', workload: 'daemonset/aws-cloud-controller-manager' },
      featureGates: [],
      featureSet: '',
    };
    const sc = planScenario(input, ctx, 'leader-migration-ccm', 'external-leader-migration', {
      ccmBase: kubernetesCcmBase({ configureCloudRoutes: true, allocateNodeCidrs: true }),
      kcmBaseFlags: ['--allocate-node-cidrs=true', '--configure-cloud-routes=true'],
      ccmStrategy: 'RollingUpdate',
      ccmControllers: upstreamCcmControllers('AWS'),
      required: ['node-ipam'],
    });
    // WHEN every interleaving is explored; THEN node IPAM runs nowhere once the KCMs dropped it
    expect(simulate(sc).violations.map((v) => `${v.kind} ${v.controller}`)).toContain('none-after-settling node-ipam');
    // and with GCP's CCM (which registers node-ipam-controller) it does not
    const gcp = planScenario(migrationInput('GCP', { phase: 'external', nodeIpam: true }), ctx, 'leader-migration-ccm', 'external-leader-migration', {
      ccmBase: kubernetesCcmBase({ configureCloudRoutes: true, allocateNodeCidrs: true }),
      kcmBaseFlags: ['--allocate-node-cidrs=true', '--configure-cloud-routes=true'],
      ccmStrategy: 'RollingUpdate',
      ccmControllers: upstreamCcmControllers('GCP'),
      required: ['node-ipam'],
    });
    expect(simulate(gcp).violations).toEqual([]);
  });
});

describe('RKE2 and k3s steps follow the phase', () => {
  function rancher(preset: 'rke2' | 'k3s', phase: MigrationPhase): string {
    const section = parsedSpec(kubernetesSpec('OpenStack', 'c', { version: '1.25', scheduling: { preset } })).spec.kubernetes!;
    const text = controlPlaneMarkdown({
      clusterName: 'c',
      platform: 'OpenStack',
      section,
      migration: migrationInput('OpenStack', { phase, kubernetesMinor: 25, ccmMinor: 25 }),
      outputPath: 'dist/c',
    });
    return text.slice(text.indexOf(`## ${preset === 'rke2' ? 'RKE2' : 'k3s'}`), text.indexOf('## Installing'));
  }
  const yamlOf = (section: string) => parse(/```yaml\n([\s\S]*?)```/.exec(section)![1]);

  test('RKE2 in-tree: the in-tree provider by name and config, no external CCM switch', () => {
    // GIVEN an RKE2 OpenStack 1.25 cluster in phase in-tree; WHEN CONTROL-PLANE.md is written
    const section = rancher('rke2', 'in-tree');
    // THEN the server config names the in-tree provider, and nothing turns the cloud controllers external
    expect(yamlOf(section)).toEqual({ 'cloud-provider-name': 'openstack', 'cloud-provider-config': '/etc/kubernetes/cloud.conf' });
    // nothing sets cloud-provider=external; the rollback's removal line names it
    expect(section).not.toMatch(/^\s*- cloud-provider=external/m);
    expect(section).toContain('the kubelet-arg entry cloud-provider=external;');
    expect(section).not.toContain('disable-cloud-controller');
  });

  test('RKE2 leader-migration-kcm: the leader-migration flags and the file mounted into the KCM static pod', () => {
    // GIVEN phase leader-migration-kcm (no CCM deployed yet)
    const section = rancher('rke2', 'leader-migration-kcm');
    // THEN the KCM keeps the in-tree provider, runs leader migration with its file mounted read-only, and RKE2's own CCM stays as it is
    expect(yamlOf(section)).toEqual({
      'cloud-provider-name': 'openstack',
      'cloud-provider-config': '/etc/kubernetes/cloud.conf',
      'kube-controller-manager-arg': [
        'leader-elect=true',
        'enable-leader-migration',
        'leader-migration-config=/etc/kubernetes/leader-migration.yaml',
      ],
      'kube-controller-manager-extra-mount': ['/etc/kubernetes/leader-migration.yaml:/etc/kubernetes/leader-migration.yaml:ro'],
    });
    expect(section).toContain(
      '# Write this file to /etc/kubernetes/leader-migration.yaml on every server before it restarts:\n#   apiVersion: controllermanager.config.k8s.io/v1\n',
    );
    // nothing sets cloud-provider=external; the rollback's removal line names it
    expect(section).not.toMatch(/^\s*- cloud-provider=external/m);
    expect(section).toContain('the kubelet-arg entry cloud-provider=external;');
  });

  test("RKE2 external: our CCM replaces RKE2's, the in-tree keys go, the KCM keeps the volume plugin's cloud config mounted", () => {
    const section = rancher('rke2', 'external');
    expect(yamlOf(section)).toEqual({
      'disable-cloud-controller': true,
      'kube-controller-manager-arg': ['cloud-provider=external', 'external-cloud-volume-plugin=openstack', 'cloud-config=/etc/kubernetes/cloud.conf'],
      'kubelet-arg': ['cloud-provider=external'],
      'kube-controller-manager-extra-mount': ['/etc/kubernetes/cloud.conf:/etc/kubernetes/cloud.conf:ro'],
    });
    expect(section).toContain(
      '# Remove if present: cloud-provider-name; cloud-provider-config; the kube-controller-manager-arg entries enable-leader-migration and leader-migration-config; the kube-controller-manager-extra-mount of /etc/kubernetes/leader-migration.yaml.',
    );
  });

  test.each(['in-tree', 'leader-migration-kcm', 'leader-migration-ccm'] as const)(
    'k3s %s: no config (k3s has no in-tree provider), and no external switch',
    (phase) => {
      const section = rancher('k3s', phase);
      expect(section).toContain(
        `k3s is built without the in-tree cloud providers, so a k3s cluster has no phase \`${phase}\`: it runs an external CCM from the start (phase \`external\`).`,
      );
      expect(section).not.toContain('disable-cloud-controller');
      expect(section).not.toContain('cloud-provider=external');
    },
  );
});

describe("the CCM's minor comes from its pinned image", () => {
  function awsSpec(version: string, tag: string, migration: Record<string, unknown>): Record<string, any> {
    const spec = kubernetesSpec('AWS', 'c', { version }, { migration: { kubernetesVersion: version, ...migration } }) as Record<string, any>;
    spec.spec.images.cloudControllerManagerAWS = `registry.k8s.io/provider-aws/cloud-controller-manager:${tag}`;
    return spec;
  }
  const ccmFile = (objects: any[]) => parse(findObject(objects, 'ConfigMap', 'ccm-leader-migration').data['config.yaml']);

  test('an N-1 CCM (1.23 image on a 1.24 cluster) gets the v1beta1 file its controller-manager decodes', () => {
    // GIVEN a 1.24 cluster whose CCM image is v1.23.1 and no ccmVersion
    // WHEN leader-migration-ccm is rendered
    const objects = renderSpec(tempDir(), awsSpec('1.24', 'v1.23.1', { phase: 'leader-migration-ccm' }));
    // THEN the CCM's own file is v1beta1 (k8s.io/controller-manager v0.23 has no v1), the KCM's stays v1
    expect(ccmFile(objects).apiVersion).toBe('controllermanager.config.k8s.io/v1beta1');
    expect(ccmFile(objects).resourceLock).toBe('leases');
  });

  test('a 1.21 CCM on a 1.22 cluster gets v1alpha1 and the alpha gate', () => {
    // GIVEN a 1.22 cluster with a v1.21 CCM image
    const objects = renderSpec(tempDir(), awsSpec('1.22', 'v1.21.0', { phase: 'leader-migration-ccm' }));
    // THEN its file is v1alpha1 and the CCM turns the alpha gate on
    expect(ccmFile(objects).apiVersion).toBe('controllermanager.config.k8s.io/v1alpha1');
    const ccm = objects.find((o) => o.kind === 'DaemonSet' && o.metadata.name === 'aws-cloud-controller-manager');
    expect(ccm.spec.template.spec.containers[0].args).toContain('--feature-gates=ControllerManagerLeaderMigration=true');
  });

  test("an explicit ccmVersion that differs from the image's minor is refused", () => {
    // GIVEN ccmVersion 1.24 with a v1.23.1 image
    const dir = tempDir();
    writeFile(dir, 'c.yaml', awsSpec('1.24', 'v1.23.1', { phase: 'leader-migration-ccm', ccmVersion: '1.24' }));
    // WHEN the fleet loads; THEN one problem names the field, both minors and the fix
    expect(fleetProblems(dir)).toEqual([
      expect.stringContaining(
        'spec.migration.ccmVersion: "1.24" differs from the minor of the pinned CCM image (spec.images.cloudControllerManagerAWS is built for Kubernetes 1.23); the CCM\'s leader-migration file must be one its own minor decodes: set ccmVersion to "1.23" or remove it (it is read from the image tag)',
      ),
    ]);
  });

  test('an image two minors older than the cluster is refused at the image, not at ccmVersion', () => {
    const dir = tempDir();
    writeFile(dir, 'c.yaml', awsSpec('1.24', 'v1.22.0', { phase: 'leader-migration-ccm' }));
    const problems = fleetProblems(dir);
    expect(problems.filter((p) => p.includes('ccmVersion'))).toEqual([]);
    expect(problems).toEqual([
      expect.stringContaining(
        'spec.images.cloudControllerManagerAWS: is built for Kubernetes 1.22, more than one minor older than kube-controller-manager 1.24; during a migration the CCM must be 1.23 or 1.24 (version skew policy): pin an image built for one of those',
      ),
    ]);
  });
});

describe('the Cluster API v1beta2 patch replaces existing extra args by index', () => {
  const CM = '/spec/kubeadmConfigSpec/clusterConfiguration/controllerManager/extraArgs';
  /** An in-tree GCP 1.30 KubeadmControlPlane (Cluster API v1beta2: extra args are name/value lists). */
  const kcp = () => ({
    apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
    kind: 'KubeadmControlPlane',
    metadata: { name: 'c-control-plane' },
    spec: {
      kubeadmConfigSpec: {
        clusterConfiguration: {
          controllerManager: {
            extraArgs: [
              { name: 'cluster-name', value: 'c' },
              { name: 'cloud-provider', value: 'gce' },
              { name: 'cloud-config', value: '/etc/kubernetes/cloud.conf' },
            ],
          },
          apiServer: {
            extraArgs: [
              { name: 'cloud-provider', value: 'gce' },
              { name: 'cloud-config', value: '/etc/kubernetes/cloud.conf' },
            ],
          },
        },
        initConfiguration: {
          nodeRegistration: {
            kubeletExtraArgs: [
              { name: 'cloud-provider', value: 'gce' },
              { name: 'cloud-config', value: '/etc/kubernetes/cloud.conf' },
            ],
          },
        },
        joinConfiguration: { nodeRegistration: {} },
      },
    },
  });

  test('to external: cloud-provider is replaced at its index, cloud-config removed, both behind test operations', () => {
    // GIVEN an in-tree KubeadmControlPlane whose controllerManager already has cloud-provider and cloud-config
    const current = kcp();
    // WHEN the v1beta2 patch of phase external is built from it
    const ops = parse(
      kubeadmControlPlanePatch(
        migrationInput('GCP', { phase: 'external', kubernetesMinor: 30, ccmMinor: 30, inTreeVolumes: false }),
        'c-control-plane',
        'v1beta2',
        current,
      ),
    );
    // THEN the existing entries are changed in place behind tests, never appended a second time
    expect(ops.filter((o: any) => o.path.startsWith(CM))).toEqual([
      { op: 'test', path: `${CM}/1`, value: { name: 'cloud-provider', value: 'gce' } },
      { op: 'replace', path: `${CM}/1/value`, value: 'external' },
      { op: 'test', path: `${CM}/2`, value: { name: 'cloud-config', value: '/etc/kubernetes/cloud.conf' } },
      { op: 'remove', path: `${CM}/2` },
    ]);
    // and applied, every list keeps unique names (the v1beta2 validation rule) with the phase's values
    const after = applyPatch(current, ops).spec.kubeadmConfigSpec;
    const unique = (l: { name: string }[]) => new Set(l.map((x) => x.name)).size === l.length;
    expect(after.clusterConfiguration.controllerManager.extraArgs).toEqual([
      { name: 'cluster-name', value: 'c' },
      { name: 'cloud-provider', value: 'external' },
    ]);
    // (the API server's list held only what the phase drops: removed whole, as v1beta2 refuses an empty list)
    expect(after.clusterConfiguration.apiServer.extraArgs).toBeUndefined();
    expect(after.initConfiguration.nodeRegistration.kubeletExtraArgs).toEqual([{ name: 'cloud-provider', value: 'external' }]);
    expect(after.joinConfiguration.nodeRegistration.kubeletExtraArgs).toEqual([{ name: 'cloud-provider', value: 'external' }]);
    for (const l of [after.clusterConfiguration.controllerManager.extraArgs, after.initConfiguration.nodeRegistration.kubeletExtraArgs]) {
      expect(unique(l)).toBe(true);
    }
  });

  test('without the current KubeadmControlPlane the v1beta2 patch is refused with the command that reads it', () => {
    // GIVEN the CLI; WHEN --cluster-api v1beta2 is asked without --current
    const cap = captureIo();
    const code = runCli(
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
      ],
      cap.io,
    );
    // THEN one usage error names the flag and the fix
    expect(code).not.toBe(0);
    expect(cap.stderr()).toContain(
      '--cluster-api v1beta2 needs --current FILE (kubectl get kubeadmcontrolplane NAME -o yaml > FILE): v1beta2 rejects a second extra arg of one name, so existing entries are replaced by index',
    );
  });

  test('migration control-plane --current reads the KubeadmControlPlane and names the patch after it', () => {
    const dir = tempDir();
    const file = writeFile(dir, 'kcp.yaml', kcp());
    const cap = captureIo();
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
          file,
        ],
        cap.io,
      ),
    ).toBe(0);
    expect(cap.stdout()).toContain('kubectl patch kubeadmcontrolplane c-control-plane --type=json');
    expect(parse(cap.stdout())).toContainEqual({ op: 'replace', path: `${CM}/1/value`, value: 'external' });
  });
});

describe('Azure in-tree → external on kubernetes', () => {
  const ctx: StepContext = {
    distribution: 'kubernetes',
    ccm: { namespace: 'kube-system', serviceAccount: 'cloud-controller-manager', workload: 'deployment/azure-cloud-controller-manager' },
    featureGates: [],
    featureSet: '',
  };

  test('the CCM is deployed right after the KCMs, and the kubelets roll after it', () => {
    // GIVEN Azure 1.29 (no leader migration: the cloud controllers run nowhere between the KCM switch and the CCM)
    const input = migrationInput('Azure', { phase: 'external', kubernetesMinor: 29, ccmMinor: 29 });
    // WHEN the steps of in-tree → external are planned
    const steps = transitionSteps(input, ctx, 'in-tree', 'external').steps;
    // THEN the KCMs switch before the merge, the merge deploys the CCM, and only then do the kubelets roll
    expect(steps.map((s) => `${s.when}: ${s.action}`)).toEqual([
      "before-merge: switch every kube-controller-manager to --cloud-provider=external and drop kube-apiserver's --cloud-provider (the kubelets keep the in-tree provider for now); the cloud controllers run nowhere until the CCM is up, so merge right after the last one; restart the kube-controller-manager of one node, wait until it is Ready, then the next",
      'merge: deploy the CCM',
      "after-merge: switch each node's kubelet to --cloud-provider=external (without --cloud-config) and restart it, one node at a time",
    ]);
    expect(steps[0].kcm?.flags).toContain('--cloud-provider=external');
    expect(steps[2].checks).toEqual([
      {
        check: "every node's kubelet runs --cloud-provider=external and the node keeps its providerID",
        command: 'kubectl get nodes -o custom-columns=NAME:.metadata.name,PROVIDER-ID:.spec.providerID',
        probes: [{ kind: 'nodes-initialized' }],
      },
    ]);
  });
});

describe('the migration docs say what each step changes', () => {
  function synthMigration(phase: MigrationPhase): { md: string; plan: any } {
    const dir = tempDir();
    writeFile(
      dir,
      'clusters/c.yaml',
      kubernetesSpec('OpenStack', 'c', { version: '1.25', clusterName: 'kubernetes' }, { migration: { phase, kubernetesVersion: '1.25' } }),
    );
    const cap = captureIo();
    expect([runCli(['synth', '--clusters', `${dir}/clusters`, '--out', `${dir}/dist`, '-q'], cap.io, {}), cap.stderr()]).toEqual([0, '']);
    return { md: fs.readFileSync(`${dir}/dist/c/MIGRATION.md`, 'utf8'), plan: JSON.parse(fs.readFileSync(`${dir}/dist/c/.migration.json`, 'utf8')) };
  }

  test("leader-migration-ccm lists the next phase's KCM flag only as a rollback removal", () => {
    // GIVEN OpenStack 1.25 in leader-migration-ccm (the KCM does not change on the way in)
    const { md, plan } = synthMigration('leader-migration-ccm');
    // THEN the forward removals are empty and --external-cloud-volume-plugin is named for the rollback from external-leader-migration only
    const kcm = plan.components.find((c: any) => c.component === 'kube-controller-manager');
    expect([kcm.remove, kcm.removeOnRollback]).toEqual([[], ['--external-cloud-volume-plugin']]);
    expect(md).toContain('| rolling back from `external-leader-migration`: `--external-cloud-volume-plugin` |');
  });

  test('the kubernetes KCM roll checks what each pod runs, not the action again', () => {
    // GIVEN OpenStack 1.25 entering leader-migration-kcm
    const { plan } = synthMigration('leader-migration-kcm');
    // THEN the roll's check names the flags to see in each pod's command line
    const roll = plan.enter.steps.find((s: any) => s.kcm);
    expect(roll.checks[0].check).toBe(
      'every kube-controller-manager pod (one per control-plane node) has restarted and runs --cloud-provider=openstack --cloud-config=/etc/kubernetes/cloud.conf --leader-elect=true --enable-leader-migration --leader-migration-config=/etc/kubernetes/leader-migration.yaml (and reads its leader-migration file)',
    );
  });

  test('docs/migration.md: kubeadm v1beta2 was removed in 1.27 (kubeadm 1.26 still migrates it)', () => {
    // GIVEN the migration reference; THEN the kubeadm row says 1.27, as kubeadmApiVersion does
    const doc = fs.readFileSync(`${__dirname}/../docs/migration.md`, 'utf8');
    expect(doc).toContain('`v1beta2` removed in 1.27, kubernetes/kubernetes PR #114540');
    expect(doc).not.toContain('removed in 1.26');
  });
});
