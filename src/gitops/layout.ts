import { Stage, stageOf, STAGES, SYNC_WAVE_ANNOTATION } from './stages';
import { emitYaml } from './yaml-emitter';

/** One file of the rendered tree. */
export interface RenderedFile {
  /** Path relative to the output directory, with `/` separators. */
  readonly path: string;
  /** File content. */
  readonly content: string;
}

/** A Kubernetes object as cdk8s renders it. */
export interface RenderedObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string };
  readonly [key: string]: unknown;
}

/**
 * File name of an object: `<kind>.<name>.yaml`, or `<kind>.<namespace>.<name>.yaml`
 * for namespaced objects, lower-case kind, `:` in RBAC names written as `_`
 * (colons are not portable in file names). No hashes.
 */
export function fileNameOf(obj: RenderedObject): string {
  const parts = [obj.kind.toLowerCase()];
  if (obj.metadata.namespace) {
    parts.push(obj.metadata.namespace);
  }
  parts.push(obj.metadata.name.replace(/:/g, '_'));
  return `${parts.join('.')}.yaml`;
}

/**
 * A `kustomization.yaml` listing resources in the given order. The same bytes
 * as cdk8s `Yaml.stringify` of this one document (yaml `stringify` with
 * keepUndefined, lineWidth 0, version 1.1; no object repeats, so no aliases).
 */
export function kustomization(resources: readonly string[]): string {
  return emitYaml({ apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', resources: [...resources] });
}

/**
 * Serializes one object (YAML 1.1 scalars, as kubectl reads them, no line
 * wrapping, undefined kept as null): the bytes of yaml `stringify` with
 * cdk8s's `Yaml.stringify` options and no alias detection (the objects come
 * from JSON, so no value is shared), written by the fast emitter.
 */
export function toYaml(obj: RenderedObject): string {
  return emitYaml(obj);
}

/** Files of objects grouped into one directory: one object per file, sorted, plus its kustomization. */
export function directoryFiles(dir: string, objects: readonly RenderedObject[]): RenderedFile[] {
  const byName = new Map<string, RenderedObject>();
  for (const obj of objects) {
    const name = fileNameOf(obj);
    if (byName.has(name)) {
      throw new Error(`two objects map to ${dir}/${name}: ${obj.apiVersion} ${obj.kind} ${obj.metadata.namespace ?? ''}/${obj.metadata.name}`);
    }
    byName.set(name, obj);
  }
  const names = [...byName.keys()].sort();
  return [
    ...names.map((name) => ({ path: `${dir}/${name}`, content: toYaml(byName.get(name)!) })),
    { path: `${dir}/kustomization.yaml`, content: kustomization(names) },
  ];
}

/** Groups objects by stage; only stages that hold objects are returned, in apply order. */
export function groupByStage(objects: readonly RenderedObject[]): { stage: Stage; objects: RenderedObject[] }[] {
  const groups = new Map<Stage, RenderedObject[]>();
  for (const obj of objects) {
    const stage = stageOf(obj.apiVersion, obj.kind, obj.metadata.name);
    const list = groups.get(stage);
    if (list) {
      list.push(obj);
    } else {
      groups.set(stage, [obj]);
    }
  }
  return STAGES.filter((s) => groups.has(s)).map((stage) => ({ stage, objects: groups.get(stage)! }));
}

/**
 * Objects as one multi-document YAML for tools that apply a single file
 * (k3s/RKE2 server/manifests, a ClusterResourceSet ConfigMap): in stage
 * order, by file name within a stage, without the Argo CD sync-wave
 * annotation (the order of the documents replaces it).
 */
export function bundleYaml(objects: readonly RenderedObject[]): string {
  const docs: string[] = [];
  for (const group of groupByStage(objects)) {
    const sorted = [...group.objects].sort((a, b) => (fileNameOf(a) < fileNameOf(b) ? -1 : fileNameOf(a) > fileNameOf(b) ? 1 : 0));
    for (const obj of sorted) {
      docs.push(toYaml(withoutSyncWave(obj)));
    }
  }
  return docs.join('---\n');
}

function withoutSyncWave(obj: RenderedObject): RenderedObject {
  const annotations = { ...((obj.metadata as { annotations?: Record<string, string> }).annotations ?? {}) };
  delete annotations[SYNC_WAVE_ANNOTATION];
  const { annotations: _drop, ...metadata } = obj.metadata as { annotations?: Record<string, string>; name: string };
  return { ...obj, metadata: Object.keys(annotations).length > 0 ? { ...metadata, annotations } : metadata } as RenderedObject;
}
