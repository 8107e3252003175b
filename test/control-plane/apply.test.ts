// Every rendered tree in dist/ applied to a real kube-apiserver with server-side
// apply, stage by stage, first as a dry run and then for real, as its GitOps
// engine applies it; each tree on a clean server (its objects removed after it).
// Runs only under `npm run test:control-plane`; `npm test` prints one line and skips.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { Api, ApiObject, applyTree, describeObject, messageOf, objectsOf, removeAll, TreeApply, yamlFilesUnder } from './api';
import { ARGO_MANAGER, CRS_MANAGER, FLUX_MANAGER, managerOf, ROOT, startCluster } from './cluster';
import { EXTRA_TREES, renderExtraTree } from './coverage';
import { ControlPlane, RUN_COMMAND, controlPlaneEnabled } from './harness';
import { liveBootstrapRbac } from './identities';
import { INVENTORIES, inventoryFor, RbacAuthorizer, ResourceRequest, serviceAccountUser, UserInfo } from '../oracle';

const DIST = path.join(ROOT, 'dist');

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
if (!enabled)
  process.stderr.write(
    `control-plane checks skipped: run \`${RUN_COMMAND}\` to build etcd, kube-apiserver and kube-controller-manager and run them\n`,
  );
const describeCp = enabled ? describe : describe.skip;

/** The rendered cluster trees (dist/<cluster>), without the fleet folder. */
function trees(): string[] {
  return fs
    .readdirSync(DIST, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith('_'))
    .map((e) => e.name)
    .sort();
}

const treeObjects = (tree: string): ApiObject[] => yamlFilesUnder(path.join(DIST, tree)).flatMap(objectsOf);

/** The objects a ClusterResourceSet of the tree carries in its ConfigMaps, for the workload cluster. */
function embeddedObjects(objects: ApiObject[]): ApiObject[] {
  const names = new Set(
    objects
      .filter((o) => o.kind === 'ClusterResourceSet')
      .flatMap((o: any) => (o.spec.resources as { kind: string; name: string }[]).filter((r) => r.kind === 'ConfigMap').map((r) => r.name)),
  );
  return objects
    .filter((o: any) => o.kind === 'ConfigMap' && names.has(o.metadata.name))
    .flatMap((o: any) => Object.values(o.data as Record<string, string>))
    .flatMap((text) => parseAllDocuments(text).map((d) => d.toJSON() as ApiObject | null))
    .filter((o): o is ApiObject => o !== null && typeof o?.kind === 'string');
}

describeCp('rendered trees on a real kube-apiserver', () => {
  let cp: ControlPlane;
  let api: Api;

  beforeAll(async () => {
    ({ cp, api } = await startCluster());
  }, 240_000);

  afterAll(async () => {
    await cp?.stop();
  });

  /**
   * Applies a tree's objects (and what its ClusterResourceSets carry) as its engine does, runs `check`,
   * then removes what the tree created, so that the next tree starts on a clean server.
   */
  async function withObjects<T>(
    objects: ApiObject[],
    check: (applied: TreeApply[], objects: ApiObject[], manager: string) => Promise<T>,
  ): Promise<T> {
    const manager = managerOf(objects);
    const embedded = embeddedObjects(objects);
    const applied = [await applyTree(api, objects, manager)];
    if (embedded.length > 0) applied.push(await applyTree(api, embedded, CRS_MANAGER));
    try {
      return await check(applied, [...objects, ...embedded], manager);
    } finally {
      await removeAll(api, applied.flatMap((a) => a.created).reverse());
    }
  }
  const withTree = <T>(tree: string, check: (applied: TreeApply[], objects: ApiObject[], manager: string) => Promise<T>): Promise<T> =>
    withObjects(treeObjects(tree), check);

  /** The tree applies with zero errors, and the engine's next sync of it (the same apply again) has no conflict. */
  const appliesCleanly = (treeOnly: ApiObject[]): Promise<void> =>
    withObjects(treeOnly, async (applied, objects, manager) => {
      // THEN the server accepts every object
      expect(applied.flatMap((a) => a.errors)).toEqual([]);
      // AND a second apply by the same manager is accepted without a conflict (the engine's next sync)
      const again = await Promise.all(treeOnly.map((o) => api.apply(o, manager)));
      expect(again.filter((r) => r.status >= 300).map(messageOf)).toEqual([]);
      expect(objects.length).toBeGreaterThan(0);
    });

  it.each(trees())(
    '%s applies with server-side apply, dry run then for real, with zero errors',
    async (tree) => {
      // GIVEN the rendered tree and the field manager of its engine
      // WHEN each stage is applied as a dry run, then for real
      await appliesCleanly(treeObjects(tree));
    },
    300_000,
  );

  it.each(EXTRA_TREES.map((t) => [t.name, t] as const))(
    '%s (a tree the examples leave out) applies with server-side apply, dry run then for real, with zero errors',
    async (_name, extra) => {
      // GIVEN the spec rendered by synth
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccm-gitops-extra-tree-'));
      try {
        const objects = yamlFilesUnder(await renderExtraTree(extra, dir)).flatMap(objectsOf);
        // WHEN each stage is applied as a dry run, then for real
        await appliesCleanly(objects);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
    300_000,
  );

  it.each(trees().filter((t) => treeObjects(t).some((o) => o.kind === 'ValidatingAdmissionPolicy')))(
    '%s: every rendered ValidatingAdmissionPolicy type-checks on the real server without a warning',
    async (tree) => {
      await withTree(tree, async (_applied, objects) => {
        // GIVEN every policy of the tree, applied
        const policies = objects.filter((o) => o.kind === 'ValidatingAdmissionPolicy');
        const warnings: string[] = [];
        // WHEN the server has type-checked each (its status observes the current generation)
        for (const policy of policies) {
          const deadline = Date.now() + 60_000;
          for (;;) {
            const res = await api.cp.request('GET', await api.objectPath(policy));
            const status = res.body?.status;
            if (status?.observedGeneration === res.body?.metadata?.generation) {
              for (const w of status?.typeChecking?.expressionWarnings ?? []) warnings.push(`${policy.metadata.name}: ${w.fieldRef}: ${w.warning}`);
              break;
            }
            if (Date.now() > deadline) {
              warnings.push(`${policy.metadata.name}: not type-checked in 60 s`);
              break;
            }
            await new Promise((r) => setTimeout(r, 250));
          }
        }
        // THEN none has a warning
        expect(policies.length).toBeGreaterThan(0);
        expect(warnings).toEqual([]);
      });
    },
    300_000,
  );

  it('the Azure idle-timeout policy refuses a Service with 3 and admits one with 30', async () => {
    await withTree('azure-prod-1', async () => {
      // GIVEN the azure-prod-1 policy and its Deny binding, applied
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
      expect(messageOf(refused)).toContain(
        "value for annotation 'service.beta.kubernetes.io/azure-load-balancer-tcp-idle-timeout' must be no less than 4 and no more than 100",
      );
      // (201: a dry-run create of an object that does not exist yet)
      expect(admitted.status).toBe(201);
    });
  }, 300_000);

  /** One tree per kind of writer of the workload: Argo CD (gitops mode), Flux, the operator mode's own Deployment, kubernetes. */
  const OTHER_WRITER_CASES: readonly (readonly [string, string, string])[] = [
    ['aws-prod-1', 'Deployment openshift-cloud-controller-manager/aws-cloud-controller-manager', ARGO_MANAGER],
    ['azure-gov-1', 'Deployment openshift-cloud-controller-manager/azure-cloud-controller-manager', FLUX_MANAGER],
    ['aws-operator-1', 'Deployment openshift-cloud-controller-manager-operator/cluster-cloud-controller-manager-operator', ARGO_MANAGER],
    ['k8s-openstack-1', 'Deployment kube-system/openstack-cloud-controller-manager', ARGO_MANAGER],
  ];

  it.each(OTHER_WRITER_CASES)(
    "%s: another manager's update of %s's replicas makes %s's next apply a conflict naming the field",
    async (tree, workload, engine) => {
      await withTree(tree, async (_applied, objects, manager) => {
        // GIVEN the workload applied by its engine's manager
        const deployment = objects.find((o) => describeObject(o) === workload)!;
        const rendered = (deployment as any).spec.replicas as number;
        expect(manager).toBe(engine);
        const objectPath = await api.objectPath(deployment);
        const live = (await api.cp.request('GET', objectPath)).body;
        // WHEN another writer (an operator, a person with kubectl edit) updates its replicas
        live.spec.replicas = rendered + 2;
        const update = await api.cp.request('PUT', `${objectPath}?fieldManager=another-writer`, live);
        expect(update.status).toBe(200);
        // THEN the engine's next apply without force is refused with the conflict
        const conflict = await api.apply(deployment, manager);
        expect(conflict.status).toBe(409);
        expect(messageOf(conflict)).toContain('conflict with "another-writer"');
        expect(messageOf(conflict)).toContain('.spec.replicas');
        // AND a forced apply takes the field back
        const forced = await api.apply(deployment, manager, { force: true });
        expect([forced.status, forced.body?.spec?.replicas]).toEqual([200, rendered]);
      });
    },
    300_000,
  );

  it.each(Object.keys(KUBERNETES_TREES))(
    '%s: the real RBAC authorizer agrees with the oracle on every inventory call',
    async (tree) => {
      await withTree(tree, async (_applied, objects) => {
        // GIVEN the tree applied, the oracle over the same objects, the rendered CCM ServiceAccount and the inventory of its provider at its image tag
        const oracle = new RbacAuthorizer(objects);
        // the same oracle with the server's own bootstrap roles and bindings, as a real cluster has them (the plain
        // oracle counts no bootstrap binding, so that the rendered RBAC must grant what the CCM needs by itself)
        const withBootstrap = new RbacAuthorizer(objects, await liveBootstrapRbac(api));
        const bootstrapOnly: string[] = [];
        const ccm = objects.find((o) => ['Deployment', 'DaemonSet'].includes(o.kind) && !String(o.metadata.name).includes('node-manager')) as any;
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
            const ours = withBootstrap.allows(user, req);
            const line = `${user.name} ${verb} ${call.apiGroup}/${call.resource} ${call.namespace ?? ''}/${call.name ?? ''}`;
            if (real !== ours) disagreements.push(`${line}: server ${real}, oracle ${ours} (${call.source})`);
            if (call.when === undefined && ours && !oracle.allows(user, req)) bootstrapOnly.push(line);
          }
        }
        // THEN every answer is the same
        expect(disagreements).toEqual([]);
        // AND no unconditional call rides on a bootstrap binding: the rendered RBAC grants it itself. (A conditional
        // call of a controller the tree turns off may: kube-system/node-controller and route-controller are bound to
        // system:controller:* by the apiserver's bootstrap policy, kubernetes/kubernetes@v1.33.5
        // plugin/pkg/auth/authorizer/rbac/bootstrappolicy/controller_policy.go; test/kubernetes-oracle.test.ts
        // decides which conditional calls apply.)
        expect(bootstrapOnly).toEqual([]);
      });
    },
    300_000,
  );
});
