import * as fs from 'fs';
import * as path from 'path';
import { StringDecoder } from 'string_decoder';
import { RenderedFile } from '../gitops/layout';
import { MAX_FLEET_SUMMARY_BYTES, readRecordText } from '../util/read-back';

/** One cluster's line in the fleet summary (FLEET.md and .fleet.json). */
export interface FleetEntry {
  /** Cluster name. */
  readonly name: string;
  /** Spec file, relative to the clusters folder, `/`-separated. */
  readonly spec: string;
  /** Distribution. */
  readonly distribution: string;
  /** Platform type. */
  readonly platform: string;
  /** Control-plane topology. */
  readonly topology: string;
  /** Management mode. */
  readonly managementMode: string;
  /** GitOps engine. */
  readonly engine: string;
  /** Migration phase; every OpenShift cluster runs its external CCM until migration phases are modelled. */
  readonly phase: string;
  /** Number of objects applied to the cluster (GitOps engine objects not counted). */
  readonly objects: number;
  /** Stage directories, in apply order. */
  readonly stages: readonly string[];
  /** Pinned images by images.json key, sorted by key. */
  readonly images: Readonly<Record<string, string>>;
}

/** File names of the fleet summary at the root of the output. */
export const FLEET_MARKDOWN = 'FLEET.md';
/**
 * The machine-readable summary. Hidden, because manifest readers (kubectl,
 * Argo CD directory sources, the shared validator) take every `*.json` in a
 * manifest tree for a Kubernetes object and skip hidden files.
 */
export const FLEET_JSON = '.fleet.json';

/**
 * A root file given as its pieces, each ending a line (no line spans two
 * pieces): at ten thousand
 * clusters the fleet summary is tens of megabytes, which is compared with
 * the output, scanned and written a piece at a time instead of held whole.
 */
export interface StreamedFile {
  /** Path relative to the output. */
  readonly path: string;
  /** The content's pieces, in order (may be called more than once: each call gives them again). */
  readonly pieces: () => Iterable<string>;
}

/** The fleet summary files (Markdown for reviewers, JSON for tools), entries sorted by name, as pieces of a line or a cluster each. */
export function fleetSummaryStreams(entries: readonly FleetEntry[]): StreamedFile[] {
  const sorted = [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return [
    { path: FLEET_JSON, pieces: () => fleetJsonPieces(sorted) },
    { path: FLEET_MARKDOWN, pieces: () => fleetMarkdownPieces(sorted) },
  ];
}

/** The fleet summary files (Markdown for reviewers, JSON for tools), entries sorted by name. */
export function fleetSummaryFiles(entries: readonly FleetEntry[]): RenderedFile[] {
  return fleetSummaryStreams(entries).map((f) => ({ path: f.path, content: [...f.pieces()].join('') }));
}

/**
 * `JSON.stringify({ clusters }, null, 2)` and a newline, a cluster at a
 * time: a cluster's object is indented two levels deeper, and a string
 * value never holds a raw newline, so re-indenting its lines is exact
 * (tested against the whole stringify).
 */
function* fleetJsonPieces(entries: readonly FleetEntry[]): Generator<string> {
  if (entries.length === 0) {
    yield '{\n  "clusters": []\n}\n';
    return;
  }
  yield '{\n  "clusters": [\n';
  for (let i = 0; i < entries.length; i++) {
    yield `    ${JSON.stringify(entries[i], null, 2).split('\n').join('\n    ')}${i === entries.length - 1 ? '' : ','}\n`;
  }
  yield '  ]\n}\n';
}

/**
 * The entries of the summary synth wrote in an output folder: none when it
 * has none, or it is a link, not a file, over the bound of a record, or not JSON.
 */
export function readFleetEntries(out: string): FleetEntry[] {
  return readFleetSummary(out, (e) => e);
}

/**
 * What `pick` keeps of each entry of the summary in an output folder (as
 * {@link readFleetEntries}). The file synth wrote is read a cluster at a
 * time: parsed whole, some 20 MB at 10,000 clusters became over 100 MB of
 * short-lived objects the main thread's heap kept until a full collection.
 * Any other form of it is parsed whole, with the same result.
 */
export function readFleetSummary<T>(out: string, pick: (entry: FleetEntry) => T): T[] {
  const file = path.join(out, FLEET_JSON);
  try {
    if (!fs.lstatSync(file).isFile()) {
      return []; // synth writes a file: a link (to anything outside the output) is not read through
    }
    const fd = fs.openSync(file, 'r');
    try {
      if (fs.fstatSync(fd).size > MAX_FLEET_SUMMARY_BYTES) {
        return [];
      }
      const picked = pickAsWritten(fileChunks(fd), pick);
      if (picked !== undefined) {
        return picked;
      }
    } finally {
      fs.closeSync(fd);
    }
    const text = readRecordText(file, MAX_FLEET_SUMMARY_BYTES);
    return typeof text === 'string' ? parseFleetJson(text).map(pick) : [];
  } catch {
    return [];
  }
}

/** The text of an open file, a chunk at a time (UTF-8, a character split across chunks kept whole). */
function* fileChunks(fd: number): Generator<string> {
  const decoder = new StringDecoder('utf8');
  const chunk = Buffer.alloc(1 << 20);
  for (let n = fs.readSync(fd, chunk); n > 0; n = fs.readSync(fd, chunk)) {
    yield decoder.write(chunk.subarray(0, n));
  }
  yield decoder.end();
}

const JSON_HEAD = '{\n  "clusters": [\n';
const ENTRY_START = '    {\n';
/** Ends an entry: its other lines are indented further. */
const ENTRY_END = '\n    }';
const ENTRY_NEXT = ',\n';
const JSON_TAIL = '\n  ]\n}\n';

/**
 * The picked entries when the text is exactly as {@link fleetJsonPieces}
 * writes it for one cluster or more, each entry parsed on its own; undefined
 * for any other text (an empty summary included).
 */
export function pickAsWritten<T>(chunks: Iterable<string>, pick: (entry: FleetEntry) => T): T[] | undefined {
  const picked: T[] = [];
  let text = '';
  let started = false;
  let last = false; // the last entry was read: only the tail may follow
  let from = 0; // where to look for the next entry's end
  for (const chunk of chunks) {
    text += chunk;
    if (!started) {
      if (text.length < JSON_HEAD.length) {
        continue;
      }
      if (!text.startsWith(JSON_HEAD)) {
        return undefined;
      }
      text = text.slice(JSON_HEAD.length);
      started = true;
    }
    let at = 0;
    for (let end = text.indexOf(ENTRY_END, from); !last && end >= 0; end = text.indexOf(ENTRY_END, at)) {
      const after = end + ENTRY_END.length;
      if (after + ENTRY_NEXT.length > text.length) {
        break; // whether another entry follows is still to come
      }
      const entry = text.startsWith(ENTRY_START, at) ? parseOr(text.slice(at, after)) : undefined;
      if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
        return undefined;
      }
      picked.push(pick(entry as FleetEntry));
      last = !text.startsWith(ENTRY_NEXT, after);
      at = last ? after : after + ENTRY_NEXT.length;
    }
    text = text.slice(at);
    from = last ? 0 : Math.max(0, text.length - ENTRY_END.length - ENTRY_NEXT.length);
    if (text.length > JSON_TAIL.length && last) {
      return undefined;
    }
  }
  return last && text === JSON_TAIL ? picked : undefined;
}

/** The value of a JSON text, or undefined when it is not JSON. */
function parseOr(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Reads the entries back from the JSON summary. */
export function parseFleetJson(content: string): FleetEntry[] {
  const parsed = JSON.parse(content) as { clusters?: FleetEntry[] };
  return Array.isArray(parsed.clusters) ? parsed.clusters : [];
}

function* fleetMarkdownPieces(entries: readonly FleetEntry[]): Generator<string> {
  const count = (key: 'platform' | 'engine' | 'managementMode') => {
    const counts = new Map<string, number>();
    for (const e of entries) {
      counts.set(e[key], (counts.get(e[key]) ?? 0) + 1);
    }
    return [...counts.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
  };
  yield [
    '# Fleet',
    '',
    `${entries.length} cluster${entries.length === 1 ? '' : 's'}, ${entries.reduce((n, e) => n + e.objects, 0)} objects.`,
    `Platforms: ${count('platform')}. Engines: ${count('engine')}. Modes: ${count('managementMode')}.`,
    '',
    '| cluster | platform | distribution | topology | mode | engine | phase | objects | images |',
    '|---|---|---|---|---|---|---|---:|---|',
    '',
  ].join('\n');
  for (const e of entries) {
    yield (
      `| [${e.name}](${e.name}/) | ${e.platform} | ${e.distribution} | ${e.topology} | ${e.managementMode} | ${e.engine} | ${e.phase} | ${e.objects} | ` +
      `${Object.entries(e.images)
        .map(([k, v]) => `${k}: \`${v}\``)
        .join('<br>')} |\n`
    );
  }
  yield '\nGenerated by ccm-gitops from the cluster specs; do not edit.\n';
}
