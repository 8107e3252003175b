import * as fs from 'fs';
import * as path from 'path';
import { migrateSpecText } from './migrate-spec';

/** Where `migrate-spec` prints. */
export interface MigrateIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

/** The YAML files below a folder (or the file itself), sorted; dot-names and node_modules skipped. */
export function yamlFilesIn(p: string): string[] {
  if (!fs.statSync(p).isDirectory()) {
    return [p];
  }
  const found: string[] = [];
  for (const name of fs.readdirSync(p).sort()) {
    if (name.startsWith('.') || name === 'node_modules') {
      continue;
    }
    const child = path.join(p, name);
    if (fs.statSync(child).isDirectory()) {
      found.push(...yamlFilesIn(child));
    } else if (/\.ya?ml$/.test(name)) {
      found.push(child);
    }
  }
  return found;
}

/**
 * `ccm-gitops migrate-spec PATH... [--write]`: lists the conversions each
 * spec or defaults file needs (exit 1 when one does, so CI can check), or
 * with `--write` applies them in place (each file replaced whole by a rename).
 * Returns the exit code; 2 when a path does not exist.
 */
export function migrateSpecCommand(paths: readonly string[], opts: { write?: boolean }, io: MigrateIo): number {
  const missing = paths.filter((p) => !fs.existsSync(p));
  if (missing.length > 0) {
    io.err(`error: ${missing.join(', ')}: no such file or folder\n`);
    return 2;
  }
  const files = paths.flatMap(yamlFilesIn);
  let pending = 0;
  for (const file of files) {
    const result = migrateSpecText(fs.readFileSync(file, 'utf8'));
    if (result.changes.length === 0) {
      continue;
    }
    if (opts.write) {
      const staging = path.join(path.dirname(file), `.${path.basename(file)}.ccm-gitops-migrate`);
      fs.writeFileSync(staging, result.text);
      fs.renameSync(staging, file);
    } else {
      pending++;
    }
    for (const change of result.changes) {
      io.out(`${opts.write ? 'converted ' : ''}${file}: ${change}\n`);
    }
  }
  if (pending > 0) {
    io.err(
      `${pending} file${pending === 1 ? '' : 's'} need${pending === 1 ? 's' : ''} conversion; run ccm-gitops migrate-spec --write ${paths.join(' ')}\n`,
    );
    return 1;
  }
  if (!opts.write || files.length > 0) {
    io.out(`${files.length} file${files.length === 1 ? '' : 's'} checked; ${opts.write ? 'done' : 'none needs conversion'}\n`);
  }
  return 0;
}
