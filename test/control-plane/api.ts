// Discovery, server-side apply and CRD installation over a ControlPlane.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { ApiResponse, ControlPlane } from './harness';

export interface ApiObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; [key: string]: unknown };
  [key: string]: unknown;
}

interface Resource {
  plural: string;
  namespaced: boolean;
}

/** The YAML documents of a file that are API objects (a kustomization.yaml is read by kustomize, not the server). */
export function objectsOf(file: string): ApiObject[] {
  if (path.basename(file) === 'kustomization.yaml') return [];
  return parseAllDocuments(fs.readFileSync(file, 'utf8'))
    .map((d) => d.toJSON() as ApiObject | null)
    .filter((o): o is ApiObject => o !== null && typeof o === 'object' && typeof o.kind === 'string');
}

export function yamlFilesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...yamlFilesUnder(full));
    else if (entry.name.endsWith('.yaml')) out.push(full);
  }
  return out;
}

export class Api {
  private readonly resources = new Map<string, Map<string, Resource>>();

  constructor(readonly cp: ControlPlane) {}

  /** Forgets discovery, after CRDs change what the server serves. */
  rediscover(): void {
    this.resources.clear();
  }

  async resource(apiVersion: string, kind: string): Promise<Resource | undefined> {
    let kinds = this.resources.get(apiVersion);
    if (kinds === undefined) {
      const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
      const res = await this.cp.request('GET', base);
      kinds = new Map();
      if (res.status === 200) {
        for (const r of res.body.resources as { name: string; kind: string; namespaced: boolean }[]) {
          if (!r.name.includes('/')) kinds.set(r.kind, { plural: r.name, namespaced: r.namespaced });
        }
      }
      this.resources.set(apiVersion, kinds);
    }
    return kinds.get(kind);
  }

  async objectPath(obj: ApiObject): Promise<string> {
    const r = await this.resource(obj.apiVersion, obj.kind);
    if (r === undefined) throw new Error(`the server serves no ${obj.kind} in ${obj.apiVersion}`);
    const base = obj.apiVersion.includes('/') ? `/apis/${obj.apiVersion}` : `/api/${obj.apiVersion}`;
    const ns = r.namespaced ? `/namespaces/${obj.metadata.namespace ?? 'default'}` : '';
    return `${base}${ns}/${r.plural}/${obj.metadata.name}`;
  }

  /** Server-side apply of one object as `manager`. */
  async apply(obj: ApiObject, manager: string, opts: { dryRun?: boolean; force?: boolean } = {}): Promise<ApiResponse> {
    const query = new URLSearchParams({ fieldManager: manager });
    if (opts.dryRun === true) query.set('dryRun', 'All');
    if (opts.force === true) query.set('force', 'true');
    return this.cp.request('PATCH', `${await this.objectPath(obj)}?${query.toString()}`, obj, 'application/apply-patch+yaml');
  }

  /** Installs CRDs and waits until each is Established. */
  async installCrds(files: string[], timeoutMs = 60_000): Promise<void> {
    const crds = files.flatMap(objectsOf).filter((o) => o.kind === 'CustomResourceDefinition');
    for (const crd of crds) {
      const res = await this.apply(crd, 'ccm-gitops-control-plane-test', { force: true });
      if (res.status >= 300) throw new Error(`CRD ${crd.metadata.name}: ${res.status} ${JSON.stringify(res.body).slice(0, 600)}`);
    }
    const deadline = Date.now() + timeoutMs;
    for (const crd of crds) {
      for (;;) {
        const res = await this.cp.request('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`);
        const conditions = (res.body?.status?.conditions ?? []) as { type: string; status: string }[];
        if (conditions.some((c) => c.type === 'Established' && c.status === 'True')) break;
        if (Date.now() > deadline) throw new Error(`CRD ${crd.metadata.name} not Established in ${timeoutMs / 1000} s`);
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    this.rediscover();
  }
}

/** `Kind namespace/name` of an object, for messages. */
export function describeObject(obj: ApiObject): string {
  return `${obj.kind} ${obj.metadata.namespace === undefined ? '' : `${obj.metadata.namespace}/`}${obj.metadata.name}`;
}

/**
 * The engines' apply stages: Namespaces and ClusterRoles first, then the rest, each stage dry-run
 * as a whole before it is applied (Flux's ssa ResourceManager.ApplyAllStaged in fluxcd/pkg;
 * Argo CD orders Namespaces first within a wave). A dry run of a namespaced object fails while its
 * namespace is only dry-run itself, so a tree is dry-run stage by stage.
 */
export function applyStages(objects: ApiObject[]): ApiObject[][] {
  const first = (o: ApiObject): boolean => o.kind === 'Namespace' || o.kind === 'ClusterRole';
  return [objects.filter(first), objects.filter((o) => !first(o))].filter((s) => s.length > 0);
}

export interface TreeApply {
  /** The objects that did not exist before, for removeAll. */
  readonly created: ApiObject[];
  /** One line per refused request: `phase Kind ns/name: status message`. */
  readonly errors: string[];
}

/** Applies objects stage by stage, each stage first as a dry run, as `manager`. */
export async function applyTree(api: Api, objects: ApiObject[], manager: string, opts: { force?: boolean } = {}): Promise<TreeApply> {
  const created: ApiObject[] = [];
  const errors: string[] = [];
  for (const stage of applyStages(objects)) {
    for (const obj of stage) if ((await api.cp.request('GET', await api.objectPath(obj))).status === 404) created.push(obj);
    for (const dryRun of [true, false]) {
      for (const obj of stage) {
        const res = await api.apply(obj, manager, { dryRun, force: opts.force });
        if (res.status >= 300) errors.push(`${dryRun ? 'dry-run' : 'apply'} ${describeObject(obj)}: ${res.status} ${messageOf(res)}`);
      }
    }
  }
  return { created, errors };
}

export function messageOf(res: ApiResponse): string {
  return typeof res.body === 'object' && res.body !== null ? String(res.body.message) : String(res.body).slice(0, 400);
}

/** Deletes objects (namespaced ones before Namespaces) and waits until the server serves none of them. */
export async function removeAll(api: Api, objects: ApiObject[], timeoutMs = 180_000): Promise<void> {
  const ordered = [...objects.filter((o) => o.kind !== 'Namespace'), ...objects.filter((o) => o.kind === 'Namespace')];
  for (const obj of ordered) {
    const res = await api.cp.request('DELETE', await api.objectPath(obj), {
      kind: 'DeleteOptions',
      apiVersion: 'v1',
      propagationPolicy: 'Background',
    });
    if (res.status >= 300 && res.status !== 404) throw new Error(`delete ${describeObject(obj)}: ${res.status} ${messageOf(res)}`);
  }
  const deadline = Date.now() + timeoutMs;
  for (const obj of ordered) {
    while ((await api.cp.request('GET', await api.objectPath(obj))).status !== 404) {
      if (Date.now() > deadline) throw new Error(`${describeObject(obj)} still served ${timeoutMs / 1000} s after its deletion`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}
