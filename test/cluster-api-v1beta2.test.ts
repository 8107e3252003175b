/**
 * Cluster API v1beta2 KubeadmControlPlane patches: the `--current` command
 * CONTROL-PLANE.md prints regenerates the patch with the cluster's own
 * migration options, and a patch built from the live object creates the
 * extraVolumes and files lists it appends to when they are missing, and drops
 * a list it would empty (the v1beta2 CRD refuses an empty one).
 */
import * as fs from 'fs';
import * as path from 'path';
import { parse, stringify } from 'yaml';
import { runCli } from '../src/cli';
import { controlPlaneMarkdown } from '../src/kubernetes/control-plane-plan';
import { kubeadmControlPlanePatch } from '../src/kubernetes/migration/control-plane';
import { applyPatch } from './json-patch';
import { captureIo, migrationInput, parsedSpec, useTempDir } from './helpers';
import { CASES } from './helpers/rendered-phases';
import { bareKubeadmControlPlaneV1beta2 } from './oracle/leader-migration/cluster-api';

const CM = '/spec/kubeadmConfigSpec/clusterConfiguration/controllerManager';

/** A v1beta2 KubeadmControlPlane whose extra-args lists hold one setting of the cluster's own, without extraVolumes or files. */
const bareKcp = () => bareKubeadmControlPlaneV1beta2();

describe('Cluster API v1beta2: the --current command and the lists it appends to', () => {
  const tmp = useTempDir();

  test('GIVEN a v1beta2 cluster with a custom leaderName, lease namespace and node IPAM WHEN the printed --current command runs against lists without these names THEN it prints the patch CONTROL-PLANE.md prints', () => {
    // GIVEN the GCP cluster's CONTROL-PLANE.md for leader-migration-kcm
    const gcp = CASES.find((c) => c.name === 'kubernetes GCP 1.28 with node IPAM and routes')!.spec('leader-migration-kcm') as any;
    gcp.spec.kubernetes.output = { mode: 'cluster-resource-set', clusterResourceSet: { apiVersion: 'v1beta2' } };
    const spec = parsedSpec(gcp);
    const migration = migrationInput('GCP', {
      phase: 'leader-migration-kcm',
      kubernetesMinor: 28,
      ccmMinor: 27,
      leaderName: 'gce-handover',
      leaseNamespace: 'cloud-leases',
      nodeIpam: true,
      wildcard: true,
    });
    const text = controlPlaneMarkdown({ clusterName: 'c', platform: 'GCP', section: spec.spec.kubernetes!, migration, outputPath: 'dist/c' });
    const command = /`ccm-gitops (migration control-plane [^`]*)`/.exec(text)![1].split(/\s+/);
    const printed = parse(/## Cluster API\n[\s\S]*?```yaml\n([\s\S]*?)```/.exec(text)![1]);
    // WHEN the administrator runs it with the lists the printed patch is written for
    const file = path.join(tmp(), 'kcp.yaml');
    const lists = { kind: 'KubeadmControlPlane', spec: bareKcp().spec };
    for (const c of ['controllerManager', 'apiServer'] as const) lists.spec.kubeadmConfigSpec.clusterConfiguration[c].extraArgs = [];
    for (const c of ['initConfiguration', 'joinConfiguration'] as const) lists.spec.kubeadmConfigSpec[c].nodeRegistration.kubeletExtraArgs = [];
    fs.writeFileSync(file, stringify(lists));
    const cap = captureIo();
    const code = runCli(
      command.map((a) => (a === 'kcp.yaml' ? file : a)),
      cap.io,
      {},
    );
    // THEN it succeeds with the same operations: the leader-migration file names the custom lease, node IPAM is listed
    expect([code, cap.stderr()]).toEqual([0, '']);
    expect(parse(cap.stdout())).toEqual(printed);
    expect(command).toEqual(
      expect.arrayContaining([
        '--leader-name',
        'gce-handover',
        '--lease-namespace',
        'cloud-leases',
        '--node-ipam',
        '--wildcard',
        '--ccm-version',
        '1.27',
      ]),
    );
  });

  test('GIVEN a v1beta2 KubeadmControlPlane without controllerManager extraVolumes or files WHEN the leader-migration-kcm patch is built from it THEN applying it creates both lists with the leader-migration entry', () => {
    // GIVEN an in-tree AWS control plane (no cloud.conf file, no mounts) WHEN its patch is built from the object
    const kcp = bareKcp();
    const ops = parse(kubeadmControlPlanePatch(migrationInput('AWS'), 'c-control-plane', 'v1beta2', kcp));
    // THEN it applies, and the KCM's pod gets the file through its extraVolume
    const out = applyPatch(kcp, ops);
    expect(out.spec.kubeadmConfigSpec.clusterConfiguration.controllerManager.extraVolumes).toEqual([
      expect.objectContaining({ name: 'leader-migration', hostPath: '/etc/kubernetes/leader-migration.yaml' }),
    ]);
    expect(out.spec.kubeadmConfigSpec.files).toEqual([expect.objectContaining({ path: '/etc/kubernetes/leader-migration.yaml' })]);
  });

  test('GIVEN the leader-migration extraVolume and file as the only entries of their lists WHEN the external-leader-migration patch is built THEN the lists go whole, behind tests', () => {
    // GIVEN the object leader-migration-ccm left on an AWS control plane without mounts of its own
    const kcp = bareKcp();
    const lmKcm = applyPatch(kcp, parse(kubeadmControlPlanePatch(migrationInput('AWS'), 'c-control-plane', 'v1beta2', kcp)));
    const lmCcm = applyPatch(
      lmKcm,
      parse(kubeadmControlPlanePatch(migrationInput('AWS', { phase: 'leader-migration-ccm' }), 'c-control-plane', 'v1beta2', lmKcm)),
    );
    // WHEN external-leader-migration's patch is built from it and applied
    const ops = parse(kubeadmControlPlanePatch(migrationInput('AWS', { phase: 'external-leader-migration' }), 'c-control-plane', 'v1beta2', lmCcm));
    const out = applyPatch(lmCcm, ops);
    // THEN neither list is left empty (minItems 1): both are removed after a test of what they held
    expect(out.spec.kubeadmConfigSpec.clusterConfiguration.controllerManager.extraVolumes).toBeUndefined();
    expect(out.spec.kubeadmConfigSpec.files).toBeUndefined();
    expect(ops).toEqual(
      expect.arrayContaining([
        { op: 'test', path: `${CM}/extraVolumes`, value: lmCcm.spec.kubeadmConfigSpec.clusterConfiguration.controllerManager.extraVolumes },
        { op: 'remove', path: `${CM}/extraVolumes` },
      ]),
    );
  });
});

describe('Cluster API: node IPAM handed back to the KCM before the CCM leaves', () => {
  const gcp = (phase: 'leader-migration-ccm' | 'in-tree') => migrationInput('GCP', { phase, kubernetesMinor: 28, ccmMinor: 28, nodeIpam: true });

  test.each([
    ['kubeadm default without node IPAM', '*,bootstrapsigner,tokencleaner,-nodeipam', undefined],
    ["the user's own list", '*,bootstrapsigner,tokencleaner,-ttl,-nodeipam', '*,bootstrapsigner,tokencleaner,-ttl'],
  ] as const)(
    'GIVEN a v1beta2 KCM with --controllers as %s WHEN the leader-migration-ccm patch is built THEN -nodeipam goes and the other entries stay',
    (_n, value, left) => {
      // GIVEN the live object after external-leader-migration
      const kcp = bareKcp();
      kcp.spec.kubeadmConfigSpec.clusterConfiguration.controllerManager.extraArgs.push({ name: 'controllers', value });
      // WHEN the walk back builds its patch from it
      const out = applyPatch(kcp, parse(kubeadmControlPlanePatch(gcp('leader-migration-ccm'), 'c', 'v1beta2', kcp)));
      // THEN kubeadm's own default comes back (the entry removed), or the user's list without -nodeipam
      const args = out.spec.kubeadmConfigSpec.clusterConfiguration.controllerManager.extraArgs as { name: string; value: string }[];
      expect(args.find((a) => a.name === 'controllers')?.value).toEqual(left);
    },
  );

  test("GIVEN a v1beta1 KCM with the user's own --controllers WHEN the in-tree patch is built from it THEN only -nodeipam is dropped, behind a test", () => {
    // GIVEN a v1beta1 object whose KCM runs without node IPAM
    const kcp = { spec: { kubeadmConfigSpec: { clusterConfiguration: { controllerManager: { extraArgs: { controllers: '*,-ttl,-nodeipam' } } } } } };
    // WHEN the in-tree patch is built from it
    const ops = parse(kubeadmControlPlanePatch(gcp('in-tree'), 'c', 'v1beta1', kcp));
    // THEN the value is tested, then replaced by the list without -nodeipam
    expect(ops.filter((o: { path: string }) => o.path === `${CM}/extraArgs/controllers`)).toEqual([
      { op: 'test', path: `${CM}/extraArgs/controllers`, value: '*,-ttl,-nodeipam' },
      { op: 'replace', path: `${CM}/extraArgs/controllers`, value: '*,-ttl' },
    ]);
  });
});

test('GIVEN no KubeadmControlPlane WHEN the v1beta2 patch is built THEN a usage error says which object to give', () => {
  // GIVEN/WHEN the library call without the object
  let thrown: unknown;
  try {
    kubeadmControlPlanePatch(migrationInput('AWS'), 'c', 'v1beta2');
  } catch (e) {
    thrown = e;
  }
  // THEN it is the one user error type, of kind usage, with the message the command line printed before
  expect(thrown).toMatchObject({
    name: 'UserError',
    kind: 'usage',
    message:
      'Cluster API v1beta2 lists extra args by name and rejects a second entry of a name, so the patch replaces existing entries by index: give the KubeadmControlPlane as `kubectl get kubeadmcontrolplane NAME -o yaml` prints it',
  });
});
