import * as fs from 'fs';
import * as path from 'path';
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
  const file = path.join(out, FLEET_JSON);
  try {
    if (!fs.lstatSync(file).isFile()) {
      return []; // synth writes a file: a link (to anything outside the output) is not read through
    }
    const text = readRecordText(file, MAX_FLEET_SUMMARY_BYTES);
    return typeof text === 'string' ? parseFleetJson(text) : [];
  } catch {
    return [];
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
