// Migration phases on a real kube-apiserver: each phase's tree applied over the previous one by
// the engine's field manager (what the next tree drops is pruned), every phase forward and then
// each step back, reading errors, conflicts and managedFields after every step.
// Runs only under `npm run test:control-plane` (apply.test.ts prints the line that says so).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Api, ApiObject, applyTree, describeObject, removeAll } from './api';
import { managerOf, startCluster } from './cluster';
import { TRANSITION_CASES } from './coverage';
import { ControlPlane, controlPlaneEnabled } from './harness';

const describeCp = controlPlaneEnabled() ? describe : describe.skip;

/** Argo CD keeps an object git no longer has when it says Prune=false (argo-cd common/common.go SyncOptionDisablePrune). */
const keptOnPrune = (o: ApiObject): boolean =>
  String((o.metadata.annotations as Record<string, string> | undefined)?.['argocd.argoproj.io/sync-options'] ?? '').includes('Prune=false');

describeCp('migration phases on a real kube-apiserver', () => {
  let cp: ControlPlane;
  let api: Api;
  let dir: string;

  beforeAll(async () => {
    ({ cp, api } = await startCluster());
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccm-gitops-transitions-'));
  }, 240_000);

  afterAll(async () => {
    await cp?.stop();
    if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
  });

  it.each(TRANSITION_CASES)(
    '%s: every phase forward and each step back applies without an error or a conflict, and the engine alone owns what it applied',
    async (name) => {
      // GIVEN every phase of the case, rendered
      // (loaded here, not at the top: `npm test` skips this file without loading the renderer)
      const { CASES, renderPhases } = await import('../helpers/rendered-phases');
      const c = CASES.find((x) => x.name === name)!;
      const phases = renderPhases(c, path.join(dir, name.replace(/[^a-z0-9]+/gi, '-')));
      const order = [...phases.keys()];
      const sequence = [...order, ...order.slice(0, -1).reverse()];
      const problems: string[] = [];
      let live = new Map<string, ApiObject>();
      let created: ApiObject[] = [];
      // WHEN the engine applies each phase's tree over the previous one (no force) and prunes what it dropped
      for (const [i, phase] of sequence.entries()) {
        const step = i === 0 ? phase : `${sequence[i - 1]} -> ${phase}`;
        const tree = phases.get(phase)!;
        const objects = [...tree.objects.values()] as ApiObject[];
        const manager = managerOf(objects);
        const applied = await applyTree(api, objects, manager);
        created.push(...applied.created);
        problems.push(...applied.errors.map((e) => `${step}: ${e}`));
        const pruned = [...live.entries()].filter(([k, o]) => !tree.objects.has(k) && !keptOnPrune(o)).map(([, o]) => o);
        await removeAll(api, pruned);
        created = created.filter((o) => !pruned.includes(o));
        // THEN every object it applied is managed by its manager alone (status writers aside)
        for (const obj of objects) {
          const res = await api.cp.request('GET', await api.objectPath(obj));
          const owners = ((res.body?.metadata?.managedFields ?? []) as { manager: string; operation: string; subresource?: string }[])
            .filter((f) => f.subresource === undefined)
            .map((f) => `${f.manager}/${f.operation}`);
          if (owners.join() !== `${manager}/Apply`) problems.push(`${step}: ${describeObject(obj)} managed by ${owners.join(', ')}`);
        }
        live = new Map(tree.objects as Map<string, ApiObject>);
      }
      await removeAll(api, created.reverse());
      // AND no step had an error or a conflict
      expect(problems).toEqual([]);
      expect(sequence.length).toBeGreaterThan(2);
    },
    600_000,
  );
});
