import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import * as v8 from 'v8';
import { PreparedCluster } from './cluster/prepared-cluster';
import { buildId, preparedDigest, rememberPreparedDigest } from './render-cache';
import { writeInChunks } from './util/write-in-chunks';

/** A warning about one input file (as the loader reports it). */
export interface CachedWarning {
  readonly file: string;
  readonly message: string;
}

/** What the loader made of one spec file whose inputs have not changed since. */
export interface CachedSpec {
  /** Digest of the inputs: build, clusters folder, the spec, its defaults chain and the files it reads. */
  readonly inputs: string;
  /** Files the spec read beyond itself and its defaults (cloud config, extra keys), in order. */
  readonly reads: readonly string[];
  /** Line of `metadata.name` in the spec, for the duplicate-name message. */
  readonly nameLine?: number;
  /** Folder `spec.cloudConfig.file` is relative to. */
  readonly cloudConfigBase?: string;
  /** The validated, transformed cluster. */
  readonly prepared: PreparedCluster;
  /** Its {@link preparedDigest}. */
  readonly preparedDigest: string;
  /** The warnings loading it gave, in order. */
  readonly warnings: readonly CachedWarning[];
}

/** The first record of a spec cache file; then one record per spec, `[file, CachedSpec]`. */
interface SpecCacheHeader {
  readonly version: 2;
  readonly build: string;
}

/** The records of a spec cache file: each a 4-byte length, then that many bytes of v8 serialization. */
function* records(buffer: Buffer): Generator<unknown> {
  for (let at = 0; at + 4 <= buffer.length;) {
    const length = buffer.readUInt32LE(at);
    if (at + 4 + length > buffer.length) {
      throw new Error('truncated spec cache');
    }
    yield v8.deserialize(buffer.subarray(at + 4, at + 4 + length));
    at += 4 + length;
  }
}

function record(value: unknown): Buffer {
  const payload = v8.serialize(value);
  const length = Buffer.alloc(4);
  length.writeUInt32LE(payload.length);
  return Buffer.concat([length, payload]);
}

/**
 * The validated-spec cache (issue 18): what loading, validating and
 * transforming each spec file gave, keyed by the digest of every file that
 * load read (the spec, the `defaults.yaml` files above it, its cloud config
 * and extra keys), the clusters folder and the build. An unchanged spec is
 * neither parsed nor validated again; the checks across specs (unique
 * names, hub destinations) always run. Only specs that loaded without a
 * problem are kept. Kept outside the output like the render cache, one file
 * per clusters folder; losing it costs a full load.
 */
export class SpecCache {
  /** Opens the cache of a clusters folder in `dir` (created on save); a missing, unreadable or other build's cache is empty. */
  static forClusters(dir: string, realClusters: string): SpecCache {
    const file = path.join(dir, `specs-${createHash('sha256').update(realClusters).digest('hex').slice(0, 16)}.v8`);
    const specs = new Map<string, CachedSpec>();
    try {
      const all = records(fs.readFileSync(file));
      const header = all.next().value as SpecCacheHeader | undefined;
      if (header?.version === 2 && header.build === buildId()) {
        for (const entry of all) {
          const [name, spec] = entry as [string, CachedSpec];
          specs.set(name, spec);
        }
      }
    } catch {
      specs.clear();
    }
    return new SpecCache(file, realClusters, specs);
  }

  private dirty = false;
  private readonly digests = new Map<string, string>();
  private readonly seen = new Set<string>();

  private constructor(readonly file: string, private readonly root: string, private readonly specs: Map<string, CachedSpec>) {}

  /** The cached load of `specFile` when it and every file it read digest as recorded. */
  lookup(specFile: string, defaultsChain: readonly string[]): CachedSpec | undefined {
    this.seen.add(specFile);
    const cached = this.specs.get(specFile);
    if (!cached || this.inputsDigest(specFile, defaultsChain, cached.reads) !== cached.inputs) {
      return undefined;
    }
    rememberPreparedDigest(cached.prepared, cached.preparedDigest);
    return cached;
  }

  /** Records a spec that loaded without a problem. */
  store(specFile: string, defaultsChain: readonly string[], reads: readonly string[], loaded: Omit<CachedSpec, 'inputs' | 'reads' | 'preparedDigest'>): void {
    this.seen.add(specFile);
    this.specs.set(specFile, { ...loaded, inputs: this.inputsDigest(specFile, defaultsChain, reads), reads: [...reads], preparedDigest: preparedDigest(loaded.prepared) });
    this.dirty = true;
  }

  /** Writes the cache when it changed (temporary file, then rename), keeping only the specs this run looked up or stored; best effort. */
  save(): void {
    for (const name of [...this.specs.keys()]) {
      if (!this.seen.has(name)) {
        this.specs.delete(name);
        this.dirty = true;
      }
    }
    if (!this.dirty) {
      return;
    }
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      const tmp = `${this.file}.${process.pid}.tmp`;
      const names = [...this.specs.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      // record by record: never the whole cache as one buffer
      writeInChunks(tmp, (function* (specs) {
        yield record({ version: 2, build: buildId() } satisfies SpecCacheHeader);
        for (const name of names) {
          yield record([name, specs.get(name)!]);
        }
      })(this.specs));
      fs.renameSync(tmp, this.file);
    } catch {
      // best effort: the next run loads what it cannot find
    }
  }

  /** Digest of the inputs of one spec; a file that cannot be read digests as missing (its load would have failed or differs). */
  private inputsDigest(specFile: string, defaultsChain: readonly string[], reads: readonly string[]): string {
    const hash = createHash('sha256').update(`${buildId()}\0${this.root}\0${specFile}\0`);
    for (const f of [specFile, ...defaultsChain]) {
      hash.update(`${f}\0${this.fileDigest(f)}\0`);
    }
    hash.update('reads\0');
    for (const f of reads) {
      // where it really is, too: the loader refuses a file that resolves outside the clusters folder
      let real: string;
      try {
        real = fs.realpathSync(f);
      } catch {
        real = '';
      }
      hash.update(`${f}\0${real}\0${this.fileDigest(f)}\0`);
    }
    return hash.digest('hex');
  }

  /** Digest of a file's bytes, once per run (defaults files are shared by many specs). */
  private fileDigest(file: string): string {
    let digest = this.digests.get(file);
    if (digest === undefined) {
      try {
        digest = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
      } catch (e) {
        digest = `unreadable:${(e as NodeJS.ErrnoException).code ?? ''}`;
      }
      this.digests.set(file, digest);
    }
    return digest;
  }
}
