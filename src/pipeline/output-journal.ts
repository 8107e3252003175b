// The journal and lock that make replacing the output folder atomic, and the recovery of an interrupted run.
import * as fs from 'fs';
import * as path from 'path';
import { isErrnoError, errnoText } from './output-errors';
import { isLink } from './output-files';
import { readRecordText } from '../util/read-back';
import { isUserError, UserError } from '../util/user-error';

/**
 * What synth leaves beside an output folder `dist` while it writes (and a
 * killed run leaves behind): the journal of a commit, the lock, the staging
 * and backup folders. Their names, for `.gitignore` and for readers that must
 * not take a half-written tree for a rendered one.
 */
export function outputSidecars(base: string): { readonly journal: string; readonly lock: string; readonly patterns: readonly string[] } {
  return {
    journal: `.${base}.journal`,
    lock: `.${base}.lock`,
    patterns: [`.${base}.lock`, `.${base}.journal`, `.${base}.journal.tmp`, `.${base}.new-*/`, `.${base}.old-*/`],
  };
}

/** The journal or lock an interrupted (or running) synth left beside `dir`, if any. */
export function interruptedRunFile(dir: string): string | undefined {
  const abs = path.resolve(dir);
  const target = fs.existsSync(abs) ? fs.realpathSync(abs) : abs;
  const { journal, lock } = outputSidecars(path.basename(target));
  return [journal, lock].map((n) => path.join(path.dirname(target), n)).find((f) => fs.existsSync(f));
}

/** The commit in progress, as the journal records it (names relative to the output's parent and root). */
export interface Journal {
  readonly staging: string;
  readonly backup: string;
  /** Units to swap in from staging. */
  readonly units: readonly string[];
  /** Top-level entries to remove. */
  readonly removed: readonly string[];
  /** Root files to move in from staging. */
  readonly rootFiles: readonly string[];
}

/** The error of a journal that names anything but the sidecars and plain names of its output folder. */
function journalError(journalFile: string, why: string): UserError {
  return new UserError(
    'output',
    `${journalFile}: ${why}; it was not written by ccm-gitops synth: remove it and run ccm-gitops synth again; nothing was changed`,
  );
}

/** A name that stays where it is joined: not empty, not `.` or `..`, no separator, no NUL. */
export function isPlainName(name: unknown): name is string {
  return typeof name === 'string' && name !== '' && name !== '.' && name !== '..' && !/[/\\\0]/.test(name);
}

/**
 * Reads a journal and checks that it names only what synth writes: staging and
 * backup folders `.<base>.new-<pid>` / `.<base>.old-<pid>` (real folders or
 * absent, never symlinks), and plain names inside the output folder. A crafted
 * journal (committed to a repository) could otherwise move or delete anything.
 */
export function readJournal(journalFile: string, parent: string, base: string): Journal {
  let parsed: unknown;
  try {
    const text = readRecordText(journalFile);
    if (typeof text !== 'string') {
      throw journalError(journalFile, text.tooLarge);
    }
    parsed = JSON.parse(text);
  } catch (e) {
    if (isUserError(e)) {
      throw e;
    }
    if (isErrnoError(e)) {
      throw e;
    }
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw journalError(journalFile, 'is not a JSON object');
  }
  const record = parsed as Record<string, unknown>;
  const sidecar = (field: 'staging' | 'backup', kind: 'new' | 'old'): string => {
    const value = record[field];
    const prefix = `.${base}.${kind}-`;
    if (typeof value !== 'string' || !value.startsWith(prefix) || !/^[1-9][0-9]*$/.test(value.slice(prefix.length))) {
      throw journalError(journalFile, `field "${field}" is ${shown(value)}, not ${prefix}<pid>`);
    }
    if (isLink(path.join(parent, value))) {
      throw journalError(journalFile, `field "${field}" names ${path.join(parent, value)}, a symlink`);
    }
    return value;
  };
  const names = (field: 'units' | 'removed' | 'rootFiles'): string[] => {
    const value = record[field];
    if (!Array.isArray(value)) {
      throw journalError(journalFile, `field "${field}" is ${shown(value)}, not a list of names`);
    }
    const bad = (value as unknown[]).find((n) => !isPlainName(n));
    if (bad !== undefined) {
      throw journalError(journalFile, `field "${field}" holds ${shown(bad)}, not a plain name inside ${base}`);
    }
    return value as string[];
  };
  return {
    staging: sidecar('staging', 'new'),
    backup: sidecar('backup', 'old'),
    units: names('units'),
    removed: names('removed'),
    rootFiles: names('rootFiles'),
  };
}

/** A value of a crafted file in a message: JSON, cut short. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * Applies a journal; every step can run again after a kill (roll forward):
 * a unit still in staging is swapped in (the current one moved to the backup
 * first), removed entries are moved to the backup, staged root files renamed
 * over the old ones. Then the backup, the staging folder and the journal go.
 */
export function applyJournal(parent: string, target: string, journal: Journal, journalFile: string, dir: string): void {
  const staging = path.join(parent, journal.staging);
  const backup = path.join(parent, journal.backup);
  fs.mkdirSync(backup, { recursive: true });
  for (const unit of journal.units) {
    const staged = path.join(staging, unit);
    if (!fs.existsSync(staged)) {
      continue; // swapped in before the kill
    }
    const current = path.join(target, unit);
    if (fs.existsSync(current)) {
      fs.rmSync(path.join(backup, unit), { recursive: true, force: true });
      fs.renameSync(current, path.join(backup, unit));
    }
    fs.renameSync(staged, current);
  }
  for (const entry of journal.removed) {
    const current = path.join(target, entry);
    if (fs.existsSync(current) || isLink(current)) {
      fs.rmSync(path.join(backup, entry), { recursive: true, force: true });
      fs.renameSync(current, path.join(backup, entry));
    }
  }
  for (const file of journal.rootFiles) {
    const staged = path.join(staging, file);
    if (fs.existsSync(staged)) {
      fs.renameSync(staged, path.join(target, file));
    }
  }
  fs.unlinkSync(journalFile);
  // the new tree is in place from here: a folder that cannot be removed is reported as what it is
  removeOldTree(dir, backup, [backup, staging]);
}

/** Removes the folders a finished commit leaves (old tree, empty staging), or says where the old tree is left. */
function removeOldTree(dir: string, oldTree: string, folders: readonly string[]): void {
  for (const folder of folders) {
    try {
      fs.rmSync(folder, { recursive: true, force: true });
    } catch (e) {
      if (!isErrnoError(e)) {
        throw e;
      }
      const where = e.path && e.path !== folder ? ` at ${e.path}` : '';
      throw new UserError(
        'output',
        `${dir} holds the new tree, but the old one could not be removed (${errnoText(e)}${where}): it is left at ${oldTree}; ` +
          `remove it by hand (rm -rf ${oldTree}; when that is refused, its files may be immutable: lsattr -R ${oldTree}, then chattr -R -i ${oldTree})`,
      );
    }
  }
}

/**
 * Completes a commit a killed run left (its journal), removes staging and
 * backup folders of runs that no longer run, and restores a tree the
 * whole-tree swap of earlier versions left renamed away.
 */
export function recoverInterruptedRun(parent: string, base: string, target: string, journalFile: string, dir: string): void {
  const sidecarFolders = (): string[] =>
    fs
      .readdirSync(parent)
      .filter((n) => n.startsWith(`.${base}.new-`) || n.startsWith(`.${base}.old-`))
      .sort();
  const journal = fs.existsSync(journalFile) ? readJournal(journalFile, parent, base) : undefined;
  // a link in a sidecar's name (committed, or planted) would be renamed into the output or written through: refused before anything moves
  const link = sidecarFolders()
    .map((n) => path.join(parent, n))
    .find(isLink);
  if (link !== undefined) {
    throw new UserError(
      'output',
      `${link} is a symlink, not a folder synth wrote; synth follows and removes no link beside ${dir}: ` +
        `remove it (rm ${link}) and run ccm-gitops synth again; nothing was changed`,
    );
  }
  if (journal) {
    applyJournal(parent, target, journal, journalFile, dir);
  }
  const leftovers = sidecarFolders();
  const backups = leftovers.filter((n) => n.startsWith(`.${base}.old-`));
  if (!fs.existsSync(target) && backups.length > 0) {
    fs.renameSync(path.join(parent, backups[backups.length - 1]), target);
  }
  for (const name of leftovers) {
    const full = path.join(parent, name);
    if (full !== target && !isRunning(name)) {
      if (name.startsWith(`.${base}.old-`)) {
        removeOldTree(dir, full, [full]);
      } else {
        fs.rmSync(full, { recursive: true, force: true });
      }
    }
  }
  fs.rmSync(`${journalFile}.tmp`, { force: true });
}

/** Takes the output's lock file, or throws naming the synth that holds it. A lock of a process that no longer runs is taken over. */
export function takeLock(lock: string, dir: string): void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(lock, 'wx');
      fs.writeSync(fd, `${process.pid}\n`);
      fs.closeSync(fd);
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw e;
      }
    }
    // synth writes a file holding its pid: a link or a folder there is none of its own, and is neither read through nor removed
    const st = fs.lstatSync(lock, { throwIfNoEntry: false });
    if (st && !st.isFile()) {
      throw new UserError(
        'output',
        `${lock} is ${st.isSymbolicLink() ? 'a symlink' : 'not a file'}, not a lock synth wrote (a file holding a process id); ` +
          `remove it (rm -r ${lock}) and run ccm-gitops synth again; nothing was written`,
      );
    }
    let holder: string;
    try {
      holder = fs.readFileSync(lock, 'utf8').trim();
    } catch {
      holder = '';
    }
    if (holder !== '' && isRunning(`-${holder}`)) {
      throw new UserError(
        'output',
        `another ccm-gitops synth (pid ${holder}) is writing ${dir}; wait for it to finish (or remove ${lock} if it is not running)`,
      );
    }
    fs.rmSync(lock, { force: true });
  }
  throw new UserError('output', `cannot lock ${dir}: ${lock} keeps reappearing; is another synth starting?`);
}

export function releaseLock(lock: string): void {
  try {
    if (fs.readFileSync(lock, 'utf8').trim() === String(process.pid)) {
      fs.unlinkSync(lock);
    }
  } catch {
    // already gone
  }
}

/** Whether the process whose id ends a name (`…-<pid>`) still runs; this process counts as running. */
function isRunning(name: string): boolean {
  const pid = Number(name.slice(name.lastIndexOf('-') + 1));
  if (!Number.isInteger(pid) || pid <= 0) {
    return false;
  }
  if (pid === process.pid) {
    return true;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
