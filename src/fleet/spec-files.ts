// Finding the spec files of a fleet: which files under the clusters folder are specs, defaults or neither, and links that leave it.
import * as fs from 'fs';
import * as path from 'path';
import { SpecIssue, SpecValidationError } from '../cluster-spec/errors';

/** Name of the per-folder defaults file. */
const DEFAULTS_FILE = /^defaults\.ya?ml$/;
/** kustomize's own file names: a kustomization beside the specs (Flux's layout) is never a spec. */
const KUSTOMIZATION_FILE = /^(kustomization\.ya?ml|Kustomization)$/;
/**
 * The folder `flux bootstrap --path=clusters/<name>` writes: `<path>/flux-system/`
 * with gotk-components.yaml, gotk-sync.yaml and a kustomization.yaml
 * (fluxcd/flux2@v2.6.0 pkg/manifestgen/install/options.go and
 * pkg/manifestgen/sync/options.go, ManifestFile). Flux's own objects, not specs.
 */
function isFluxSystemFolder(dir: string, name: string): boolean {
  return name === 'flux-system' && ['gotk-sync.yaml', 'gotk-components.yaml'].some((f) => fs.existsSync(path.join(dir, f)));
}
/** Kind of a defaults file. */
export const DEFAULTS_KIND = 'CloudControllerManagerDefaults';

/**
 * Lists the spec files below a clusters directory: `*.yaml` / `*.yml`,
 * sorted, hidden entries and `defaults.yaml` files skipped.
 */
export function listSpecFiles(dir: string): string[] {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(dir);
  } catch {
    throw new SpecValidationError([
      { file: dir, path: '', message: 'clusters directory not found; pass --clusters DIR with the folder holding the cluster specs' },
    ]);
  }
  if (!stat.isDirectory()) {
    throw new SpecValidationError([
      { file: dir, path: '', message: 'is not a directory; pass --clusters DIR with the folder holding the cluster specs' },
    ]);
  }
  const out: string[] = [];
  const outside: SpecIssue[] = [];
  const realRoot = fs.realpathSync(dir);
  const walk = (d: string): void => {
    const entries = fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (entries.some((e) => e.name === 'defaults.yaml') && entries.some((e) => e.name === 'defaults.yml')) {
      outside.push({
        file: path.join(d, 'defaults.yml'),
        path: '',
        message: 'is beside defaults.yaml; keep one defaults file per folder (both would be merged, in no obvious order)',
      });
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) {
        continue;
      }
      const full = path.join(d, entry.name);
      // never skip silently: what looks like a spec but cannot be read as one is refused
      if (/\.ya?ml$/i.test(entry.name) && !/\.ya?ml$/.test(entry.name)) {
        outside.push({ file: full, path: '', message: 'has an upper-case extension; synth reads *.yaml and *.yml only: rename it' });
        continue;
      }
      if (!entry.isDirectory() && !entry.isFile() && !entry.isSymbolicLink() && /\.ya?ml$/.test(entry.name)) {
        outside.push({ file: full, path: '', message: 'is not a regular file (a FIFO, socket or device); a spec is a file' });
        continue;
      }
      if (entry.isSymbolicLink() && isDirectoryLink(full)) {
        outside.push({
          file: full,
          path: '',
          message: 'is a symbolic link to a folder; synth does not follow folder links (loops, specs from elsewhere): move the folder in',
        });
        continue;
      }
      if (entry.isDirectory()) {
        // Flux bootstrapped into a cluster's folder: its objects and the kustomization that lists them are Flux's
        if (!isFluxSystemFolder(full, entry.name)) {
          walk(full);
        }
      } else if (
        (entry.isFile() || entry.isSymbolicLink()) &&
        /\.ya?ml$/.test(entry.name) &&
        !DEFAULTS_FILE.test(entry.name) &&
        !KUSTOMIZATION_FILE.test(entry.name)
      ) {
        const linked = entry.isSymbolicLink() ? linkOutsideProblem(full, realRoot, 'spec') : undefined;
        if (linked) {
          outside.push({ file: full, path: '', message: linked });
          continue;
        }
        out.push(full);
      }
    }
  };
  walk(dir);
  if (outside.length > 0) {
    throw new SpecValidationError(outside);
  }
  return out;
}

/**
 * Why a symbolic link may not be read: it leads outside the clusters folder
 * (`realRoot`, resolved) or to nothing. Undefined for a link that stays
 * inside. The same rule for spec files, defaults files and `validate-spec`
 * arguments: a link is never a way to read a file from elsewhere.
 */
export function linkOutsideProblem(file: string, realRoot: string, what: 'spec' | 'defaults file'): string | undefined {
  let target: string | undefined;
  try {
    target = fs.realpathSync(file);
  } catch {
    target = undefined;
  }
  const rel = target === undefined ? '..' : path.relative(realRoot, target);
  return rel.startsWith('..') || path.isAbsolute(rel)
    ? `is a symbolic link to a file outside the clusters directory (or to nothing); copy the ${what} in instead`
    : undefined;
}

/** Whether a path is a symbolic link (not followed); false when it does not exist. */
export function isSymbolicLink(file: string): boolean {
  try {
    return fs.lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

function isDirectoryLink(file: string): boolean {
  try {
    return fs.statSync(file).isDirectory();
  } catch {
    return false;
  }
}

/** The spec files below a clusters directory ({@link listSpecFiles}); refuses a directory that holds none. */
export function fleetSpecFiles(dir: string): string[] {
  const files = listSpecFiles(dir);
  if (files.length === 0) {
    throw new SpecValidationError([{ file: dir, path: '', message: 'holds no cluster spec (*.yaml); add one file per cluster' }]);
  }
  return files;
}
