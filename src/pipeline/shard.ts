// synth --shard I/N: which clusters a shard renders, and the record assemble checks.
import { SHARD_RECORD } from './output';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { PreparedCluster } from '../cluster/prepared-cluster';

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

/** The record of a shard output; undefined when it has none or it cannot be read. */
export function readShardRecord(dir: string): ShardRecord | undefined {
  try {
    const parsed = JSON.parse(fs.readFileSync(path.join(dir, SHARD_RECORD), 'utf8')) as { shard?: unknown; clusters?: unknown };
    if (typeof parsed.shard !== 'string' || !parsed.clusters || typeof parsed.clusters !== 'object') {
      return undefined;
    }
    const clusters = Object.entries(parsed.clusters as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string');
    return { shard: parsed.shard, clusters: new Map(clusters) };
  } catch {
    return undefined;
  }
}

/** Whether a cluster is in the shard (every cluster is when there is none). */
export const inShard = (name: string, shard: Shard | undefined) => !shard || shardOf(name, shard.count) === shard.index;

/** Cluster names in the order the fleet lists them. */
export const byName = (a: string, b: string) => (a < b ? -1 : 1);
