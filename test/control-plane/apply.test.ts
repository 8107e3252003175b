// Every rendered tree in dist/ applied to a real kube-apiserver with server-side
// apply, first as a dry run and then for real, as its GitOps engine applies it.
// Runs only under `npm run test:control-plane`; `npm test` prints one line and skips.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Api, ApiObject, objectsOf, yamlFilesUnder } from './api';
import { ControlPlane, RUN_COMMAND, controlPlaneEnabled, startControlPlane } from './harness';
import { INVENTORIES, inventoryFor, RbacAuthorizer, ResourceRequest, serviceAccountUser, UserInfo } from '../oracle';

const ROOT = path.join(__dirname, '..', '..');
const DIST = path.join(ROOT, 'dist');
const CRDS = process.env.CCM_GITOPS_CRDS ?? path.join(ROOT, '..', 'shared', 'crds');

// The field managers of the engines' server-side apply: Argo CD's ArgoCDSSAManager
// (argo-cd common/common.go) and Flux's controllerName (kustomize-controller main.go).
const ARGO_MANAGER = 'argocd-controller';
const FLUX_MANAGER = 'kustomize-controller';

/** The kubernetes trees in dist/ and their provider keys in the oracle's inventories. */
const KUBERNETES_TREES: Readonly<Record<string, string>> = {
  'k8s-alibaba-1': 'alibaba',
  'k8s-aws-1': 'aws',
  'k8s-azure-1': 'azure',
  'k8s-do-1': 'digitalocean',
  'k8s-equinix-1': 'equinix-metal',
  'k8s-gcp-1': 'gcp',
  'k8s-nutanix-1': 'nutanix',
  'k8s-openstack-1': 'openstack',
  'k8s-vsphere-1': 'vsphere',
};

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

  it('every rendered ValidatingAdmissionPolicy type-checks on the real server without a warning', async () => {
    // GIVEN every policy of every tree, applied above
    const policies = trees()
      .flatMap((t) => yamlFilesUnder(path.join(DIST, t)).flatMap(objectsOf))
      .filter((o) => o.kind === 'ValidatingAdmissionPolicy');
    const warnings: string[] = [];
    // WHEN the server has type-checked each (its status observes the current generation)
    for (const policy of policies) {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const res = await api.cp.request('GET', await api.objectPath(policy));
        const status = res.body?.status;
        if (status?.observedGeneration === res.body?.metadata?.generation) {
          for (const w of status?.typeChecking?.expressionWarnings ?? []) warnings.push(`${policy.metadata.name}: ${w.fieldRef}: ${w.warning}`);
          break;
        }
        if (Date.now() > deadline) {
          warnings.push(`${policy.metadata.name}: not type-checked in 30 s`);
          break;
        }
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    // THEN none has a warning
    expect(warnings).toEqual([]);
  }, 300_000);

  it('the Azure idle-timeout policy refuses a Service with 3 and admits one with 30', async () => {
    // GIVEN the azure-prod-1 policy and its Deny binding, applied above
    const service = (name: string, value: string): ApiObject => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name, namespace: 'default', annotations: { 'service.beta.kubernetes.io/azure-load-balancer-tcp-idle-timeout': value } },
      spec: { ports: [{ port: 80 }] },
    });
    // WHEN a Service with each value is applied (the policy may take a moment to be enforced after its creation)
    const deadline = Date.now() + 30_000;
    let refused = await api.apply(service('idle-timeout-3', '3'), 'control-plane-test', { dryRun: true });
    while (refused.status < 300 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      refused = await api.apply(service('idle-timeout-3', '3'), 'control-plane-test', { dryRun: true });
    }
    const admitted = await api.apply(service('idle-timeout-30', '30'), 'control-plane-test', { dryRun: true });
    // THEN 3 is refused with the policy's message and 30 is admitted
    expect(refused.status).toBe(422);
    expect(String(refused.body?.message)).toContain(
      "value for annotation 'service.beta.kubernetes.io/azure-load-balancer-tcp-idle-timeout' must be no less than 4 and no more than 100",
    );
    expect(admitted.status).toBe(200);
  }, 120_000);

  it("another manager's update of a rendered field makes the engine's next apply a conflict naming the field", async () => {
    // GIVEN the aws-prod-1 CCM Deployment applied by Argo CD's manager
    const file = path.join(DIST, 'aws-prod-1', '04-workloads', 'deployment.openshift-cloud-controller-manager.aws-cloud-controller-manager.yaml');
    const [deployment] = objectsOf(file);
    const objectPath = await api.objectPath(deployment);
    const live = (await api.cp.request('GET', objectPath)).body;
    // WHEN another writer (an operator, a person with kubectl edit) updates its replicas
    live.spec.replicas = 3;
    const update = await api.cp.request('PUT', `${objectPath}?fieldManager=another-writer`, live);
    expect(update.status).toBe(200);
    // THEN the engine's next apply without force is refused with the conflict
    const conflict = await api.apply(deployment, ARGO_MANAGER);
    expect(conflict.status).toBe(409);
    expect(String(conflict.body?.message)).toContain('conflict with "another-writer"');
    expect(String(conflict.body?.message)).toContain('.spec.replicas');
    // AND a forced apply takes the field back
    const forced = await api.apply(deployment, ARGO_MANAGER, { force: true });
    expect([forced.status, forced.body?.spec?.replicas]).toEqual([200, 2]);
  }, 60_000);

  // After every tree is applied, the server holds the union of their RBAC: the oracle is built over the same union.
  it.each(Object.keys(KUBERNETES_TREES))(
    '%s: the real RBAC authorizer agrees with the oracle on every inventory call',
    async (tree) => {
      // GIVEN the rendered CCM ServiceAccount and the inventory of its provider at its image tag
      const all = trees().flatMap((t) => yamlFilesUnder(path.join(DIST, t)).flatMap(objectsOf));
      const oracle = new RbacAuthorizer(all);
      const objects = yamlFilesUnder(path.join(DIST, tree)).flatMap(objectsOf) as any[];
      const ccm = objects.find((o) => ['Deployment', 'DaemonSet'].includes(o.kind) && !String(o.metadata.name).includes('node-manager'));
      const container = ccm.spec.template.spec.containers[0];
      const tag = /:([^:/@]+)(@sha256:[0-9a-f]+)?$/.exec(container.image)?.[1];
      const provider = KUBERNETES_TREES[tree];
      const inventory = inventoryFor(provider, tag) ?? INVENTORIES[provider];
      const ccmUser = serviceAccountUser(ccm.metadata.namespace, ccm.spec.template.spec.serviceAccountName ?? 'default');
      const saCredentials = [...(container.command ?? []), ...(container.args ?? [])].includes('--use-service-account-credentials=true');
      const disagreements: string[] = [];
      // WHEN each call is sent as a SubjectAccessReview for the identity that makes it
      for (const call of inventory.calls) {
        if (call.client === 'cnm' || (call.namespace ?? '').startsWith('<')) continue;
        const user: UserInfo = call.client === 'root' || !saCredentials ? ccmUser : serviceAccountUser('kube-system', call.client);
        for (const verb of call.verbs) {
          const req: ResourceRequest = { verb, apiGroup: call.apiGroup, resource: call.resource, name: call.name, namespace: call.namespace };
          const [resource, subresource] = call.resource.split('/');
          const res = await api.cp.request('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
            apiVersion: 'authorization.k8s.io/v1',
            kind: 'SubjectAccessReview',
            spec: {
              user: user.name,
              groups: user.groups,
              resourceAttributes: { verb, group: call.apiGroup, resource, subresource, name: call.name, namespace: call.namespace },
            },
          });
          const real = res.body?.status?.allowed === true;
          const ours = oracle.allows(user, req);
          if (real !== ours) {
            disagreements.push(
              `${user.name} ${verb} ${call.apiGroup}/${call.resource} ${call.namespace ?? ''}/${call.name ?? ''}: server ${real}, oracle ${ours} (${call.source})`,
            );
          }
        }
      }
      // THEN every answer is the same
      expect(disagreements).toEqual([]);
    },
    300_000,
  );
});
