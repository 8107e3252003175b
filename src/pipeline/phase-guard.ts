import * as fs from 'fs';
import * as path from 'path';
import { FLEET_JSON, readFleetSummary } from './fleet-summary';
import { MIGRATION_JSON, MIGRATION_MARKDOWN } from '../migration/plan-files';
import { readRecordText } from '../util/read-back';

/**
 * What the one-phase-per-change guard knows of a cluster's last render. The
 * record (`.migration.json`) is read with the rendered tree beside it
 * (`MIGRATION.md`'s heading, the `.fleet.json` line), so deleting or
 * corrupting the record, or renaming the cluster, cannot hide the phase.
 */
export type PreviousPhase =
  /** Nothing migrating was rendered for this cluster (no record, no plan in the tree). */
  | { readonly kind: 'none' }
  /** The phase of the last render and the record it was read from. */
  | { readonly kind: 'known'; readonly phase: string; readonly record: string; readonly renamedFrom?: string }
  /** The phase cannot be trusted: why, in words, naming the files and never their content. */
  | { readonly kind: 'unknown'; readonly record: string; readonly why: string };

/** A cluster as the guard identifies it across renames. */
export interface GuardedCluster {
  readonly name: string;
  /** Stable identity (`clusterIdentity`, `cluster-spec/identity.ts`); undefined when the spec gives none. */
  readonly identity?: string;
}

interface PhaseRecord {
  readonly state: 'absent' | 'corrupt' | 'ok';
  readonly phase?: string;
  readonly identity?: string;
  readonly why?: string;
}

function readRecord(file: string): PhaseRecord {
  const st = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!st) {
    // most clusters migrate nothing: no file, and no exception to build for it
    return { state: 'absent' };
  }
  if (!st.isFile()) {
    // synth writes a file: a link (to anything outside dist) or a device is not read
    return { state: 'corrupt', why: `is ${st.isSymbolicLink() ? 'a symlink' : 'not a file'}, not a file synth wrote` };
  }
  let text: string;
  try {
    const read = readRecordText(file);
    if (typeof read !== 'string') {
      return { state: 'corrupt', why: read.tooLarge };
    }
    text = read;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT'
      ? { state: 'absent' }
      : { state: 'corrupt', why: `cannot be read: ${(e as NodeJS.ErrnoException).code ?? 'error'}` };
  }
  try {
    const plan = JSON.parse(text) as { phase?: unknown; identity?: unknown };
    if (typeof plan?.phase !== 'string') {
      return { state: 'corrupt', why: 'has no "phase"' };
    }
    return { state: 'ok', phase: plan.phase, identity: typeof plan.identity === 'string' ? plan.identity : undefined };
  } catch {
    return { state: 'corrupt', why: 'is not valid JSON' };
  }
}

/** The phase in `MIGRATION.md`'s first line, `# Migration of NAME: phase \`PHASE\``; undefined when absent. */
function markdownPhase(file: string): { present: boolean; phase?: string } {
  const st = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!st) {
    return { present: false };
  }
  if (!st.isFile()) {
    // present, but not read through a link: the record alone then says the phase
    return { present: true };
  }
  let text: string;
  try {
    // the heading is the first line: a few hundred bytes are enough
    const fd = fs.openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(512);
      text = buffer.subarray(0, fs.readSync(fd, buffer, 0, buffer.length, 0)).toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return { present: false };
  }
  const m = /^# Migration of [^\n]*: phase `([a-z-]+)`/.exec(text);
  return { present: true, phase: m?.[1] };
}

/**
 * Reads the previous phase of each cluster from an output folder. Built once
 * per synth: the folder is listed and `.fleet.json` parsed once, not once per cluster.
 */
export class PhaseRecords {
  private readonly folders: ReadonlySet<string>;
  private readonly fleetPhases: ReadonlyMap<string, string>;
  private renamed?: Map<string, { name: string; phase: string }>;

  constructor(
    private readonly out: string,
    private readonly fleetNames: ReadonlySet<string>,
  ) {
    let folders: string[] = [];
    try {
      folders = fs
        .readdirSync(out, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name);
    } catch {
      // no output yet: nothing was rendered
    }
    this.folders = new Set(folders);
    // no summary (or a shard's, or an old one): the record and MIGRATION.md still say the phase
    this.fleetPhases = new Map(readFleetSummary(out, (e) => [e.name, e.phase] as const));
  }

  /** The previous phase of one cluster. */
  previous(cluster: GuardedCluster): PreviousPhase {
    const record = path.join(this.out, cluster.name, MIGRATION_JSON);
    if (!this.folders.has(cluster.name)) {
      const old = cluster.identity ? this.renamedClusters().get(cluster.identity) : undefined;
      return old
        ? { kind: 'known', phase: old.phase, record: path.join(this.out, old.name, MIGRATION_JSON), renamedFrom: old.name }
        : { kind: 'none' };
    }
    const r = readRecord(record);
    const md = markdownPhase(path.join(this.out, cluster.name, MIGRATION_MARKDOWN));
    const listed = this.fleetPhases.get(cluster.name);
    // the tree's own account of the phase: the plan's heading, and a summary line that says something migrates
    const tree: { phase: string; file: string }[] = [
      ...(md.phase ? [{ phase: md.phase, file: MIGRATION_MARKDOWN }] : []),
      ...(listed !== undefined && (listed !== 'external' || md.present) ? [{ phase: listed, file: FLEET_JSON }] : []),
    ];
    const seen = tree.map((t) => `"${t.phase}" in ${t.file}`).join(' and ');
    if (r.state === 'ok') {
      const other = tree.find((t) => t.phase !== r.phase);
      return other
        ? { kind: 'unknown', record, why: `says phase "${r.phase}", but the rendered tree says ${seen}` }
        : { kind: 'known', phase: r.phase!, record };
    }
    if (r.state === 'corrupt') {
      return { kind: 'unknown', record, why: `${r.why}${tree.length > 0 ? ` (the rendered tree says ${seen})` : ''}` };
    }
    if (md.present || tree.length > 0) {
      return {
        kind: 'unknown',
        record,
        why: `is missing, but the rendered tree holds a migration plan${tree.length > 0 ? ` (${seen})` : ` (${MIGRATION_MARKDOWN})`}`,
      };
    }
    return { kind: 'none' };
  }

  /** Records of folders no cluster of the fleet has any more, by identity: where a renamed cluster was. */
  private renamedClusters(): Map<string, { name: string; phase: string }> {
    if (!this.renamed) {
      this.renamed = new Map();
      for (const name of [...this.folders].filter((f) => !this.fleetNames.has(f)).sort()) {
        const r = readRecord(path.join(this.out, name, MIGRATION_JSON));
        if (r.state === 'ok' && r.identity && !this.renamed.has(r.identity)) {
          this.renamed.set(r.identity, { name, phase: r.phase! });
        }
      }
    }
    return this.renamed;
  }
}
