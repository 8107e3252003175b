// Every rendered tree in dist/ applied to a real kube-apiserver with server-side
// apply, first as a dry run and then for real, as its GitOps engine applies it.
// Runs only under `npm run test:control-plane`; `npm test` prints one line and skips.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Api, ApiObject, objectsOf, yamlFilesUnder } from './api';
import { ControlPlane, RUN_COMMAND, controlPlaneEnabled, startControlPlane } from './harness';

const ROOT = path.join(__dirname, '..', '..');
const DIST = path.join(ROOT, 'dist');
const CRDS = process.env.CCM_GITOPS_CRDS ?? path.join(ROOT, '..', 'shared', 'crds');

// The field managers of the engines' server-side apply: Argo CD's ArgoCDSSAManager
// (argo-cd common/common.go) and Flux's controllerName (kustomize-controller main.go).
const ARGO_MANAGER = 'argocd-controller';
const FLUX_MANAGER = 'kustomize-controller';

const enabled = controlPlaneEnabled();
if (!enabled) process.stderr.write(`control-plane checks skipped: run \`${RUN_COMMAND}\` to build kube-apiserver and etcd and run them\n`);
const describeCp = enabled ? describe : describe.skip;

/** The rendered cluster trees (dist/<cluster>), without the fleet folder. */
function trees(): string[] {
  return fs
    .readdirSync(DIST, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith('_'))
    .map((e) => e.name)
    .sort();
}

function managerOf(files: string[]): string {
  return files.some((f) => objectsOf(f).some((o) => o.apiVersion.startsWith('kustomize.toolkit.fluxcd.io/'))) ? FLUX_MANAGER : ARGO_MANAGER;
}

/** Namespaces first, as the engines' sync waves order them; the rest in file order. */
function applyOrder(objects: ApiObject[]): ApiObject[] {
  return [...objects.filter((o) => o.kind === 'Namespace'), ...objects.filter((o) => o.kind !== 'Namespace')];
}

function describeError(tree: string, obj: ApiObject, phase: string, status: number, body: any): string {
  const message = typeof body === 'object' && body !== null ? String(body.message) : String(body).slice(0, 400);
  return `${tree}: ${phase} ${obj.kind} ${obj.metadata.namespace ?? ''}/${obj.metadata.name}: ${status} ${message}`;
}

describeCp('rendered trees on a real kube-apiserver', () => {
  let cp: ControlPlane;
  let api: Api;

  beforeAll(async () => {
    cp = await startControlPlane();
    api = new Api(cp);
    const crdFiles = fs
      .readdirSync(CRDS)
      .filter((f) => f.endsWith('.yaml'))
      .sort()
      .map((f) => path.join(CRDS, f));
    await api.installCrds(crdFiles);
  }, 240_000);

  afterAll(async () => {
    await cp?.stop();
  });

  it.each(trees())(
    '%s applies with server-side apply, dry run then for real, with zero errors',
    async (tree) => {
      // GIVEN the rendered tree and the field manager of its engine
      const files = yamlFilesUnder(path.join(DIST, tree));
      const manager = managerOf(files);
      const objects = applyOrder(files.flatMap(objectsOf));
      const errors: string[] = [];
      // WHEN each object is applied as a dry run, then for real
      for (const dryRun of [true, false]) {
        for (const obj of objects) {
          try {
            const res = await api.apply(obj, manager, { dryRun });
            if (res.status >= 300) errors.push(describeError(tree, obj, dryRun ? 'dry-run' : 'apply', res.status, res.body));
          } catch (e) {
            errors.push(`${tree}: ${obj.kind} ${obj.metadata.name}: ${(e as Error).message}`);
          }
        }
      }
      // THEN the server accepts every object
      expect(errors).toEqual([]);
      // AND a second apply by the same manager is accepted without a conflict (the engine's next sync)
      const again = await Promise.all(objects.map((o) => api.apply(o, manager)));
      expect(again.filter((r) => r.status >= 300).map((r) => r.body?.message)).toEqual([]);
    },
    300_000,
  );
});
