import * as fs from 'fs';
import * as path from 'path';
import * as v8 from 'v8';
import { writeInChunks } from './write-in-chunks';

/**
 * Files of length-prefixed records (the spec and render caches): each record a
 * 4-byte little-endian length, then that many bytes of v8 serialization.
 * v8's format is Node's own (no dependency, Maps and Sets survive) and is
 * read back faster than JSON; records let a run append what changed
 * instead of rewriting a file of tens of megabytes.
 */

/**
 * Records per batch ({@link encodeRecords}): each `v8.serialize` keeps memory
 * outside the heap until a collection, so a fleet's records go a batch at a time.
 */
export const RECORDS_PER_BATCH = 1024;

/** A record holding a batch of records ({@link encodeRecords}); the readers see the records, one by one. */
interface Batch {
  readonly batch: readonly unknown[];
}

const isBatch = (value: unknown): value is Batch =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 1 && Array.isArray((value as Batch).batch);

/**
 * The bytes of `values` as records, {@link RECORDS_PER_BATCH} to a record
 * (one value alone is its own record): what {@link readRecords} reads back
 * as the values, in order. No value may be a batch itself.
 */
export function* encodeRecords(values: Iterable<unknown>): Generator<Buffer> {
  let batch: unknown[] = [];
  const flush = () => {
    const bytes = encodeRecord(batch.length === 1 ? batch[0] : ({ batch } satisfies Batch));
    batch = [];
    return bytes;
  };
  for (const value of values) {
    if (isBatch(value)) {
      throw new Error('a record cannot look like a batch of records');
    }
    batch.push(value);
    if (batch.length === RECORDS_PER_BATCH) {
      yield flush();
    }
  }
  if (batch.length > 0) {
    yield flush();
  }
}

/** One record's bytes. */
export function encodeRecord(value: unknown): Buffer {
  const payload = v8.serialize(value);
  const length = Buffer.alloc(4);
  length.writeUInt32LE(payload.length);
  return Buffer.concat([length, payload]);
}

/**
 * A record left as bytes in its file (see `rawAfter` of {@link readRecords}):
 * where its payload is, to read ({@link readRecordAt}) or copy
 * ({@link copyBytes}) later.
 */
export class RawRecord {
  constructor(
    /** Offset of the payload in the file (after its length). */
    readonly offset: number,
    /** Bytes of the payload. */
    readonly length: number,
    /** Offset of the record before it (the one `rawAfter` picked): the pair is the bytes from here to the end of this one. */
    readonly pairStart: number,
  ) {}
}

/**
 * The records of a file, read a megabyte at a time: the file (tens of
 * megabytes at ten thousand clusters) is never held whole beside what its
 * records become. A torn last record ends them (`end.torn`). The file is
 * closed when the records are all read or the caller stops early (`return`);
 * a file given open (a descriptor) is read from its start and left open.
 * When `rawAfter` says so of a record, the record after it is not decoded
 * but yielded as a {@link RawRecord} (a large value the caller reads later,
 * if ever).
 */
export function* readRecords(file: string | number, end: { torn: boolean }, rawAfter?: (value: unknown) => boolean): Generator<unknown> {
  const fd = typeof file === 'number' ? file : fs.openSync(file, 'r');
  try {
    let buffer = Buffer.alloc(1 << 20);
    /** Offset in the file of buffer[0]. */
    let base = 0;
    let start = 0;
    let filled = 0;
    let eof = false;
    let raw = false;
    /** Offset in the file of the record before this one. */
    let previous = 0;
    /** At least `n` bytes from `start` in the buffer, unless the file ends first. */
    const need = (n: number): boolean => {
      while (filled - start < n && !eof) {
        if (start > 0) {
          buffer.copy(buffer, 0, start, filled);
          filled -= start;
          base += start;
          start = 0;
        }
        if (buffer.length - filled < n - filled || filled === buffer.length) {
          const bigger = Buffer.alloc(Math.max(buffer.length * 2, n));
          buffer.copy(bigger, 0, 0, filled);
          buffer = bigger;
        }
        const read = fs.readSync(fd, buffer, filled, buffer.length - filled, base + filled);
        filled += read;
        eof = read === 0;
      }
      return filled - start >= n;
    };
    while (need(1)) {
      const length = need(4) ? buffer.readUInt32LE(start) : Infinity;
      if (length === Infinity || !need(4 + length)) {
        end.torn = true;
        return;
      }
      const value: unknown = raw ? new RawRecord(base + start + 4, length, previous) : v8.deserialize(buffer.subarray(start + 4, start + 4 + length));
      previous = base + start;
      start += 4 + length;
      if (!raw && isBatch(value)) {
        // a batch is its records (none of them is followed by a raw one)
        yield* value.batch;
        continue;
      }
      raw = !raw && rawAfter !== undefined && rawAfter(value);
      yield value;
    }
  } finally {
    if (typeof file !== 'number') {
      fs.closeSync(fd);
    }
  }
}

/** The value of a {@link RawRecord} of an open file. */
export function readRecordAt(fd: number, raw: RawRecord): unknown {
  const payload = Buffer.allocUnsafe(raw.length);
  readExactly(fd, payload, raw.offset);
  return v8.deserialize(payload);
}

/** Fills `buffer` from an open file at `position`; a file that ends first is an error. */
function readExactly(fd: number, buffer: Buffer, position: number): void {
  for (let at = 0; at < buffer.length;) {
    const read = fs.readSync(fd, buffer, at, buffer.length - at, position + at);
    if (read === 0) {
      throw new Error(`${buffer.length} bytes at ${position} are cut short`);
    }
    at += read;
  }
}

/** The first record of a cache file: what wrote it. */
export interface RecordFileHeader {
  readonly version: number;
  /** The build of ccm-gitops that wrote it: another build's records are not read. */
  readonly build: string;
}

/**
 * Reads a record file whose first record is `header` (same version and
 * build), passing each later record to `each`, in order (a record after
 * one `rawAfter` picks as a {@link RawRecord}). Returns how many
 * there were, or -1 when the file is not one to append to: missing, of
 * another version or build, or with a torn last record (the records before
 * it were passed). A corrupt file calls `reset` (forget what `each` got)
 * and gives -1. The file is closed in every case.
 */
export function readRecordFile(
  file: string | number,
  header: RecordFileHeader,
  each: (record: unknown) => void,
  reset: () => void,
  rawAfter?: (value: unknown) => boolean,
): number {
  const end = { torn: false };
  let count = -1;
  let all: Generator<unknown> | undefined;
  try {
    all = readRecords(file, end, rawAfter);
    const first = all.next().value as RecordFileHeader | undefined;
    if (first?.version === header.version && first.build === header.build) {
      count = 0;
      for (const record of all) {
        each(record);
        count++;
      }
    }
  } catch {
    reset();
    return -1;
  } finally {
    // closes the file when the header said to stop early
    all?.return(undefined);
  }
  return end.torn ? -1 : count;
}

/**
 * Copies `length` bytes at `start` of one open file to the end of another,
 * through `buffer` (a run of records copied without decoding them): one
 * write per buffer's worth, so a write holds whole records when the range
 * is cut at records no longer than the buffer.
 */
export function copyBytes(from: number, start: number, length: number, to: number, buffer: Buffer): void {
  for (let done = 0; done < length;) {
    const chunk = buffer.subarray(0, Math.min(buffer.length, length - done));
    readExactly(from, chunk, start + done);
    writeAll(to, chunk);
    done += chunk.length;
  }
}

/**
 * Writes all of `bytes` to an open file: at `position`, or where the file is
 * (its end, for a file opened to append). A short write is continued.
 */
export function writeAll(fd: number, bytes: Uint8Array, position?: number): void {
  for (let off = 0; off < bytes.length;) {
    off += fs.writeSync(fd, bytes, off, bytes.length - off, position === undefined ? null : position + off);
  }
}

/** Writes a whole record file: `header`, then the records, to a temporary file renamed over `file` (removed on an error); a batch at a time, never as one buffer. */
export function writeRecordFile(file: string, header: RecordFileHeader, records: Iterable<unknown>): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeInChunks(
      tmp,
      (function* () {
        yield encodeRecord(header);
        yield* encodeRecords(records);
      })(),
    );
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
  fs.renameSync(tmp, file);
}

/** Appends records to a file (created when missing), a batch per write ({@link encodeRecords}): records of concurrent runs do not interleave. */
export function appendRecords(file: string, values: Iterable<unknown>): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const fd = fs.openSync(file, 'a');
  try {
    for (const bytes of encodeRecords(values)) {
      writeAll(fd, bytes);
    }
  } finally {
    fs.closeSync(fd);
  }
}
