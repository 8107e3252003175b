/**
 * MIGRATION.md's Mermaid diagrams against the protocol simulator: for every
 * phase change of the rendered cases, the leases each controller manager may
 * hold and the cloud controllers it may run once each step has settled, as the
 * diagram draws them, are what the simulator observes over every interleaving
 * of the same change built from the rendered trees.
 */
import { simulate, SimScenario } from './oracle/leader-migration/simulator';
import { CASES, RenderCase, renderPhases, transitions } from './helpers/rendered-phases';
import { Tree } from './oracle/leader-migration/trees';
import { holdingsMermaid, phaseChangeHoldings, StepHolding } from '../src/migration';
import { useTempDir } from './helpers';

type Seen = { label: string; kcm: { leases: string[]; runs: string[] }; ccm: { leases: string[]; runs: string[] } };

/** The diagrams of a MIGRATION.md, in order (the change into the phase, then its rollback), read back note by note. */
function diagrams(markdown: string): Seen[][] {
  const side = (text: string) => {
    if (text === 'holds no lease, runs no cloud controller') {
      return { leases: [], runs: [] };
    }
    const m = /^may hold (.*)<br\/>may run (.*)$/.exec(text)!;
    return { leases: m[1] === 'no lease' ? [] : m[1].split(' and ').sort(), runs: m[2] === 'no cloud controller' ? [] : m[2].split(', ').sort() };
  };
  return [...markdown.matchAll(/```mermaid\n([\s\S]*?)```/g)].map((block) => {
    const notes = [...block[1].matchAll(/^ {2}Note over (KCM,CCM|KCM|CCM): (.*)$/gm)].map((n) => [n[1], n[2]] as const);
    const out: Seen[] = [];
    for (let i = 0; i < notes.length; i += 3) {
      out.push({ label: notes[i][1], kcm: side(notes[i + 1][1]), ccm: side(notes[i + 2][1]) });
    }
    return out;
  });
}

/** What the simulator observes once the first `k` steps have settled. */
function observed(sc: SimScenario, k: number): Omit<Seen, 'label'> {
  const s = simulate({ ...sc, steps: sc.steps.slice(0, k) }).settled;
  const of = (c: 'kube-controller-manager' | 'cloud-controller-manager') => ({ leases: [...s.leases[c]].sort(), runs: [...s.runs[c]].sort() });
  return { kcm: of('kube-controller-manager'), ccm: of('cloud-controller-manager') };
}

describe('MIGRATION.md draws what the simulator observes', () => {
  const tmp = useTempDir();

  /** Every step of every phase change: [move, step, drawn, observed]; `hide` leaves controllers out of what the simulator observes. */
  function compare(c: RenderCase, hide: readonly string[] = []): [string, number, Omit<Seen, 'label'>, Omit<Seen, 'label'>][] {
    const trees = renderPhases(c, tmp());
    const byLabel = new Map(transitions(c, trees));
    const phases = [...trees.keys()];
    const out: [string, number, Omit<Seen, 'label'>, Omit<Seen, 'label'>][] = [];
    const shown = (x: { leases: string[]; runs: string[] }) => ({ ...x, runs: x.runs.filter((r) => !hide.includes(r)) });
    for (let i = 1; i < phases.length; i++) {
      const b: Tree = trees.get(phases[i])!;
      const moves = [`${phases[i - 1]} → ${phases[i]}`, ...(b.plan.rollback ? [`${phases[i]} → ${phases[i - 1]}`] : [])];
      const drawn = diagrams(b.migration!);
      expect(drawn).toHaveLength(moves.length);
      drawn.forEach((diagram, n) => {
        expect(diagram).toHaveLength(byLabel.get(moves[n])!.steps.length + 1);
        diagram.forEach((seen, k) => {
          const o = observed(byLabel.get(moves[n])!, k);
          out.push([moves[n], k, { kcm: seen.kcm, ccm: seen.ccm }, { kcm: shown(o.kcm), ccm: shown(o.ccm) }]);
        });
      });
    }
    return out;
  }

  test("kubernetes AWS 1.26 on RKE2: the diagrams draw the node IPAM and routes RKE2's KCM runs", () => {
    // GIVEN the RKE2 case (its KCM always allocates node CIDRs) WHEN its diagrams are compared with the simulator, nothing hidden
    const rows = compare(CASES.find((c) => c.name === 'kubernetes AWS 1.26 on RKE2')!);
    for (const [move, k, drawn, seen] of rows) {
      expect([move, k, drawn]).toEqual([move, k, seen]);
    }
    // THEN the first diagram starts with the KCM running node IPAM and the route controller
    expect(rows[0][2].kcm.runs).toEqual(expect.arrayContaining(['node-ipam', 'route']));
  });

  test.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    // GIVEN each phase rendered by synth, and each phase change built from two trees
    // WHEN the diagrams of each phase's MIGRATION.md are read (one per change into the phase and its rollback, one note per step and the start)
    const rows = compare(c, c.disagreement?.unmodelled);
    // THEN each note equals what the simulator observes once that step has settled (a known disagreement's controllers aside)
    for (const [move, k, drawn, seen] of rows) {
      expect([move, k, drawn]).toEqual([move, k, seen]);
    }
    expect(rows.length).toBeGreaterThan(0);
  });
});

describe('the diagram', () => {
  test('a step in which either controller manager may take the migration lease draws it under both', () => {
    // GIVEN the KCMs with leader migration and a CCM deployed with its own file
    const kcmFile = (component: string) =>
      [
        'apiVersion: controllermanager.config.k8s.io/v1',
        'kind: LeaderMigrationConfiguration',
        'leaderName: lm',
        'controllerLeaders:',
        ...['route', 'service', 'cloud-node-lifecycle'].flatMap((n) => [`  - name: ${n}`, `    component: ${component}`]),
      ].join('\n') + '\n';
    const holdings: StepHolding[] = phaseChangeHoldings({
      kcmMinor: 26,
      ccmMinor: 26,
      kcmBaseFlags: ['--allocate-node-cidrs=false'],
      kcm: {
        flags: ['--cloud-provider=aws', '--enable-leader-migration', '--leader-migration-config=/k.yaml'],
        file: kcmFile('kube-controller-manager'),
      },
      steps: [
        {
          label: 'merge',
          ccm: {
            flags: ['--configure-cloud-routes=false', '--enable-leader-migration', '--leader-migration-config=/c.yaml'],
            file: kcmFile('cloud-controller-manager'),
          },
        },
      ],
    });
    // WHEN it is drawn
    expect(holdingsMermaid(holdings)).toEqual([
      '```mermaid',
      'sequenceDiagram',
      '  participant KCM as kube-controller-manager',
      '  participant CCM as cloud-controller-manager',
      '  Note over KCM,CCM: before the change',
      '  Note over KCM: may hold kube-system/kube-controller-manager and kube-system/lm<br/>may run service, cloud-node-lifecycle',
      '  Note over CCM: holds no lease, runs no cloud controller',
      '  Note over KCM,CCM: after step 1 (merge)',
      '  Note over KCM: may hold kube-system/kube-controller-manager and kube-system/lm<br/>may run service, cloud-node-lifecycle',
      '  Note over CCM: may hold kube-system/cloud-controller-manager and kube-system/lm<br/>may run service, cloud-node-lifecycle',
      '```',
    ]);
  });
});
