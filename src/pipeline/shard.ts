// synth --shard I/N: which clusters a shard renders, and the record assemble checks.
import { SHARD_RECORD } from './output';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { PreparedCluster } from '../cluster/prepared-cluster';
import { DNS_LABEL } from '../cluster-spec/shapes';
import { readRecordText } from '../util/read-back';

/** One share of a fleet: shard `index` (1-based) of `count`. */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/** Parses `I/N` (1 <= I <= N <= 1000); undefined when malformed. */
export function parseShard(text: string): Shard | undefined {
  const m = /^(\d{1,4})\/(\d{1,4})$/.exec(text);
  const index = m ? Number(m[1]) : 0;
  const count = m ? Number(m[2]) : 0;
  return m && index >= 1 && count >= 1 && index <= count && count <= 1000 ? { index, count } : undefined;
}

/**
 * The shard (1-based) a cluster belongs to among `count`: from a SHA-256 of
 * its name, so the split depends neither on the input order nor on the other
 * clusters, and a cluster stays in its shard while the fleet grows.
 */
export function shardOf(name: string, count: number): number {
  return (createHash('sha256').update(name).digest().readUInt32BE(0) % count) + 1;
}

/** What a `--shard` output records of the inputs its clusters were rendered from, read back by `assemble`. */
export interface ShardRecord {
  /** The shard, `I/N`. */
  readonly shard: string;
  /** Each cluster's {@link shardInputsDigest}, by name. */
  readonly clusters: ReadonlyMap<string, string>;
}

/**
 * Digest of what a cluster renders from: its spec (defaults merged), its
 * path in the clusters folder, the transformed cloud config and migration.
 * Not the spec file as given (another checkout's path renders the same).
 */
export function shardInputsDigest(cluster: PreparedCluster): string {
  const { spec, specPath, cloudConf, cloudConfExtraData, migration } = cluster;
  // Maps and Sets spelled out, as preparedDigest does: they would all stringify as {}
  const json = JSON.stringify({ spec, specPath, cloudConf, cloudConfExtraData, migration }, (_k, v: unknown) =>
    v instanceof Map ? { Map: [...v] } : v instanceof Set ? { Set: [...v] } : typeof v === 'function' ? String(v) : v,
  );
  return createHash('sha256').update(json).digest('hex');
}

export function shardRecordContent(shard: Shard, inputs: ReadonlyMap<string, string>): string {
  const clusters = Object.fromEntries([...inputs].sort(([a], [b]) => byName(a, b)));
  return `${JSON.stringify({ shard: `${shard.index}/${shard.count}`, clusters }, null, 2)}\n`;
}

/** The record of a shard output; undefined when it has none, it cannot be read or it is refused ({@link loadShardRecord}). */
export function readShardRecord(dir: string): ShardRecord | undefined {
  const loaded = loadShardRecord(dir);
  return loaded && 'shard' in loaded ? loaded : undefined;
}

/**
 * The record of a shard output, undefined when there is none, or why it is
 * refused: a record synth wrote is a file (never a link), its shard `I/N`,
 * each key a cluster name (a DNS-1123 label: never `__proto__` or a path)
 * and each value a SHA-256 digest.
 */
export function loadShardRecord(dir: string): ShardRecord | { readonly refused: string } | undefined {
  const file = path.join(dir, SHARD_RECORD);
  const st = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!st) {
    return undefined;
  }
  if (!st.isFile()) {
    return { refused: `is ${st.isSymbolicLink() ? 'a symlink' : 'not a file'}, not a file synth wrote` };
  }
  let parsed: unknown;
  try {
    const text = readRecordText(file);
    if (typeof text !== 'string') {
      return { refused: text.tooLarge };
    }
    parsed = JSON.parse(text);
  } catch {
    return { refused: 'is not JSON' };
  }
  const record = (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {}) as { shard?: unknown; clusters?: unknown };
  if (typeof record.shard !== 'string' || !parseShard(record.shard)) {
    return { refused: `field "shard" is ${shownValue(record.shard)}, not I/N` };
  }
  if (!record.clusters || typeof record.clusters !== 'object' || Array.isArray(record.clusters)) {
    return { refused: `field "clusters" is ${shownValue(record.clusters)}, not a mapping of cluster names to digests` };
  }
  const clusters = Object.entries(record.clusters as Record<string, unknown>);
  for (const [name, digest] of clusters) {
    if (name.length > 63 || !DNS_LABEL.test(name)) {
      return { refused: `names the cluster ${shownValue(name)}, not a cluster name` };
    }
    if (typeof digest !== 'string' || !/^[0-9a-f]{64}$/.test(digest)) {
      return { refused: `holds ${shownValue(digest)} for ${name}, not a SHA-256 digest` };
    }
  }
  return { shard: record.shard, clusters: new Map(clusters as [string, string][]) };
}

/** A value of a crafted record in a message: JSON, cut short. */
function shownValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** Whether a cluster is in the shard (every cluster is when there is none). */
export const inShard = (name: string, shard: Shard | undefined) => !shard || shardOf(name, shard.count) === shard.index;

/** Cluster names in the order the fleet lists them. */
export const byName = (a: string, b: string) => (a < b ? -1 : 1);
