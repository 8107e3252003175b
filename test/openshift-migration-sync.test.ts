import * as fs from 'fs';
import * as path from 'path';
import { runCli } from '../src/cli';
import { OPERANDS_PER_RELEASE } from '../src/openshift/release-operands';
import { captureIo, platformSpec, readTree, useTempDir, writeFile } from './helpers';
import { Tree } from './oracle/cvo/mode-change';
import { KCM_MACHINE_CONFIG, MigrationReplay, PhaseChangeReport } from './oracle/cvo/migration-sync';

/** Per platform: a Kubernetes minor where it is still in-tree on OpenShift (the spec's release follows it), and its cloud.conf. */
const PLATFORMS: Record<string, { version: string; cloudConf?: string; phases?: string[] }> = {
  AWS: { version: '1.26' },
  // No leader migration (the Azure CCM never takes the migration lease): in-tree, then external (one way: the FeatureGate)
  Azure: {
    version: '1.26',
    cloudConf: '{"cloud": "AzurePublicCloud", "tenantId": "t", "subscriptionId": "s", "resourceGroup": "rg", "location": "westeurope"}\n',
    phases: ['in-tree', 'external'],
  },
  GCP: { version: '1.27', cloudConf: '[global]\nproject-id = p\n' },
  OpenStack: { version: '1.24', cloudConf: '[Global]\n' },
  VSphere: { version: '1.25', cloudConf: 'global:\n  port: 443\n' },
};

/** Forward through every phase, with the rollbacks of the KEP walkthrough on the way. */
const PHASES = [
  'in-tree',
  'leader-migration-kcm',
  'leader-migration-ccm',
  'leader-migration-kcm',
  'in-tree',
  'leader-migration-kcm',
  'leader-migration-ccm',
  'external-leader-migration',
  'external',
];
const FORWARD = ['in-tree', 'leader-migration-kcm', 'leader-migration-ccm', 'external-leader-migration', 'external'];

const tmp = useTempDir();

/** The rendered `dist/c/` tree of each phase, rendered one after the other into one output by the CLI. */
function trees(platform: string, engine: 'argocd' | 'flux'): Tree[] {
  const p = PLATFORMS[platform];
  const clusters = path.join(tmp(), 'clusters');
  const out = path.join(tmp(), 'dist');
  fs.mkdirSync(clusters, { recursive: true });
  if (p.cloudConf !== undefined) {
    writeFile(clusters, 'c.conf', p.cloudConf);
  }
  return (p.phases ?? PHASES).map((phase) => {
    writeFile(
      clusters,
      'c.yaml',
      platformSpec(platform, 'c', {
        ...(p.cloudConf !== undefined ? { cloudConfig: { file: 'c.conf' } } : {}),
        gitops: { engine, repoURL: 'https://git.example.com/fleet.git' },
        migration: { phase, kubernetesVersion: p.version },
      }),
    );
    const cap = captureIo();
    const code = runCli(['synth', '--clusters', clusters, '--out', out, '-q'], cap.io, {});
    expect({ phase, code, stderr: cap.stderr() }).toEqual({ phase, code: 0, stderr: '' });
    return readTree(path.join(out, 'c'));
  });
}

function replay(all: Tree[]): PhaseChangeReport[] {
  const r = new MigrationReplay(all[0], all);
  return all.slice(1).map((t) => r.change(t));
}

// Azure (4.13), OpenStack (4.11) and vSphere (4.12) run other operands than ccm-gitops renders on their in-tree
// releases: their CCM phases are refused (test/openshift-release-operands.test.ts), so no merge there is replayed.
const CASES = Object.keys(PLATFORMS)
  .filter((p) => OPERANDS_PER_RELEASE.includes(p as never))
  .flatMap((platform) => (['argocd', 'flux'] as const).map((engine) => [platform, engine] as const));

describe('each OpenShift migration merge replayed as a GitOps sync with prune (CVO model, KCM view)', () => {
  test.each(CASES)(
    '%s with %s: no KCM loses its file, no stall, no two writers, no operand unmanaged or pruned going forward, no minor update with overrides',
    (platform, engine) => {
      // GIVEN the rendered tree of each phase, and the cluster handed over in gitops mode at the first
      const all = trees(platform, engine);
      // WHEN each merge is replayed: the plan's steps, the tree difference applied and pruned by the engine
      const reports = replay(all);
      // THEN every phase change is clean (a rollback may delete the CCM it no longer runs)
      const forward = (r: PhaseChangeReport) => {
        const [from, to] = r.change.split(' → ');
        return FORWARD.indexOf(to) > FORWARD.indexOf(from);
      };
      expect(reports.map((r) => ({ ...r, operandsDeleted: forward(r) ? r.operandsDeleted : [] }))).toEqual(
        reports.map((r) => ({
          change: r.change,
          kcmExits: [],
          fights: [],
          unmanaged: [],
          operandsDeleted: [],
        })),
      );
      const phases = PLATFORMS[platform].phases ?? PHASES;
      expect(reports.map((r) => r.change)).toEqual(phases.slice(1).map((to, i) => `${phases[i]} → ${to}`));
    },
  );
});

describe('the replay catches a FeatureGate that refuses minor updates after the way back too', () => {
  test('GIVEN the AWS trees whose HANDOVER.md lacks the "for good" sentence WHEN replayed THEN each phase change with a NoUpgrade FeatureGate on the cluster reports it', () => {
    const all = trees('AWS', 'argocd').map((t) => ({
      ...t,
      'HANDOVER.md': t['HANDOVER.md'].replace(/refuses minor updates for good/g, 'refuses minor updates'),
    }));
    const reports = replay(all);
    const gate =
      'ClusterOperator config-operator stays Upgradeable=False (FeatureGates_RestrictedFeatureGates_CustomNoUpgrade) after the way back; HANDOVER.md does not say minor updates are refused for good';
    expect(reports.filter((r) => r.minorUpdateAfterWayBack !== undefined).map((r) => [r.change, r.minorUpdateAfterWayBack])).toEqual([
      ['leader-migration-ccm → external-leader-migration', gate],
      ['external-leader-migration → external', gate],
    ]);
  });
});

describe('the replay catches a minor update the handover would let the user attempt with overrides set', () => {
  test('GIVEN the GCP trees whose HANDOVER.md lacks the minor-update line WHEN replayed THEN each phase change reports it (CVO refuses while overrides are set)', () => {
    const all = trees('GCP', 'argocd').map((t) => ({ ...t, 'HANDOVER.md': t['HANDOVER.md'].replace(/^- \*\*Minor update\*\*.*$/m, '') }));
    expect([...new Set(replay(all).map((r) => r.minorUpdateWithOverrides))]).toEqual([
      'HANDOVER.md does not say to remove the overrides (the way back) before a minor update',
    ]);
  });
});

describe('the replay catches a MachineConfig pruned before the KCMs left it', () => {
  test("GIVEN the AWS trees with the MachineConfig's prune protection removed WHEN replayed THEN the rollback's merge prunes it while a KCM may still read its file (its before-merge step skipped)", () => {
    const strip = (t: Tree): Tree =>
      Object.fromEntries(
        Object.entries(t).map(([p, c]) => [
          p,
          p.includes('machineconfig.')
            ? c.replace(/^ *(argocd\.argoproj\.io\/sync-options: Prune=false|kustomize\.toolkit\.fluxcd\.io\/prune: disabled)\n/gm, '')
            : c,
        ]),
      );
    const all = trees('AWS', 'argocd').map(strip);
    expect(all.some((t) => Object.keys(t).some((p) => p.includes('machineconfig.')))).toBe(true);
    const exits = replay(all).flatMap((r) => r.kcmExits);
    expect(exits).toEqual([
      'leader-migration-kcm → in-tree, merge: the sync prunes MachineConfig 99-master-kcm-leader-migration while a kube-controller-manager may still run with ' +
        '--leader-migration-config=/etc/kubernetes/static-pod-certs/leader-migration/config.yaml: it exits at start',
    ]);
  });

  test("GIVEN the rendered trees WHEN the MachineConfig is in git THEN it carries both engines' prune protection (what the replay relies on)", () => {
    const t = trees('AWS', 'flux')[1];
    const mc = Object.entries(t).find(([p]) => p.includes('machineconfig.'))![1];
    expect(mc).toContain('kustomize.toolkit.fluxcd.io/prune: disabled');
    expect(KCM_MACHINE_CONFIG).toBe('machineconfiguration.openshift.io/machineconfig//99-master-kcm-leader-migration');
  });
});

describe('the handover says what a minor update does to a cluster whose migration set a NoUpgrade FeatureGate', () => {
  test('GIVEN the AWS tree of phase external-leader-migration WHEN its HANDOVER.md is read THEN the minor update line says the FeatureGate refuses minor updates for good', () => {
    const t = trees('AWS', 'argocd')[7];
    expect(JSON.parse(t['.migration.json']).phase).toBe('external-leader-migration');
    expect(t['HANDOVER.md']).toContain(
      'The rendered FeatureGate sets `CustomNoUpgrade`, which cannot be turned off and refuses minor updates for good, overrides or not: only z-stream updates remain.',
    );
    expect(t['HANDOVER.md']).toContain('(with a migration, `spec.migration.kubernetesVersion` to the Kubernetes minor it ships)');
  });
});
