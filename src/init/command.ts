import * as fs from 'fs';
import * as path from 'path';
import { initFleet, InitOptions } from './init';
import { entryPointOf, INIT_CLUSTERS_DIR, INIT_GITIGNORE, INIT_OUT_DIR } from './scaffold';
import { isUserError } from '../util/user-error';

/** Where `init` prints. */
export interface InitIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

/**
 * `ccm-gitops init [DIR]`: scaffolds a fleet repository, prints what it
 * wrote, what it kept and what to do next. Returns the exit code: 0, or 2
 * for options it cannot use (nothing written).
 */
export function initCommand(dir: string, opts: InitOptions, io: InitIo): number {
  let result;
  try {
    result = initFleet(dir, opts);
  } catch (e) {
    if (isUserError(e, 'init')) {
      io.err(`error: ${e.message}; nothing was written\n`);
      return 2;
    }
    throw e;
  }
  for (const n of result.scaffold.notes) {
    io.err(`note: ${n}\n`);
  }
  for (const s of result.scaffold.skipped) {
    io.err(`note: no ${s.distribution} example on ${s.platform}: ${s.reason}\n`);
  }
  for (const f of result.written) {
    io.out(`wrote ${path.join(dir, f)}\n`);
  }
  for (const f of result.kept) {
    io.out(`kept  ${path.join(dir, f)} (exists; not changed)\n`);
  }
  if (result.kept.includes('.gitignore')) {
    const have = fs
      .readFileSync(path.join(dir, '.gitignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim());
    const missing = INIT_GITIGNORE.filter((l) => !have.includes(l));
    if (missing.length > 0) {
      io.out(`add to ${path.join(dir, '.gitignore')}: ${missing.join(' ')}\n`);
    }
  }
  const { engine, topology, examples } = result.scaffold;
  const entry = entryPointOf(engine, '<cluster>', INIT_OUT_DIR, topology);
  const hub = engine === 'argocd' && topology === 'hub';
  const apply = hub
    ? `kubectl apply -k ${entry}   (once, on the hub, into its Argo CD; register each cluster in it first)`
    : engine === 'argocd'
      ? `kubectl apply -k ${entry}   (on that cluster, into its Argo CD)`
      : engine === 'flux'
        ? `add ${entry} to that cluster's flux-system kustomization (or kubectl apply -k it)`
        : `kubectl apply -k ${entry}`;
  io.out(
    `next: replace the values marked REPLACE in ${INIT_CLUSTERS_DIR}/, then\n` +
      `  npx ccm-gitops validate-spec ${INIT_CLUSTERS_DIR}\n` +
      `  npx ccm-gitops synth --clusters ${INIT_CLUSTERS_DIR} --out ${INIT_OUT_DIR}\n` +
      `and commit ${INIT_CLUSTERS_DIR}/ with ${INIT_OUT_DIR}/. Once it is on the default branch, apply each cluster's entry point once:\n` +
      `  ${apply}\n` +
      (examples.length > 0 && !hub ? `(synth renders one for every cluster: ${examples.map((c) => entryPointOf(engine, c)).join(', ')})\n` : ''),
  );
  return 0;
}
