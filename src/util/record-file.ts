import * as fs from 'fs';
import * as path from 'path';
import * as v8 from 'v8';
import { writeInChunks } from './write-in-chunks';

/**
 * Files of length-prefixed records (the caches of issue 18): each record a
 * 4-byte little-endian length, then that many bytes of v8 serialization.
 * v8's format is Node's own (no dependency, Maps and Sets survive) and is
 * read back faster than JSON; records let a run append what changed
 * instead of rewriting a file of tens of megabytes.
 */

/** One record's bytes. */
export function encodeRecord(value: unknown): Buffer {
  const payload = v8.serialize(value);
  const length = Buffer.alloc(4);
  length.writeUInt32LE(payload.length);
  return Buffer.concat([length, payload]);
}

/**
 * The records of a file, read a megabyte at a time: the file (tens of
 * megabytes at ten thousand clusters) is never held whole beside what its
 * records become. A torn last record ends them (`end.torn`). The file is
 * closed when the records are all read or the caller stops early (`return`).
 */
export function* readRecords(file: string, end: { torn: boolean }): Generator<unknown> {
  const fd = fs.openSync(file, 'r');
  try {
    let buffer = Buffer.alloc(1 << 20);
    let start = 0;
    let filled = 0;
    let eof = false;
    /** At least `n` bytes from `start` in the buffer, unless the file ends first. */
    const need = (n: number): boolean => {
      while (filled - start < n && !eof) {
        if (start > 0) {
          buffer.copy(buffer, 0, start, filled);
          filled -= start;
          start = 0;
        }
        if (buffer.length - filled < n - filled || filled === buffer.length) {
          const bigger = Buffer.alloc(Math.max(buffer.length * 2, n));
          buffer.copy(bigger, 0, 0, filled);
          buffer = bigger;
        }
        const read = fs.readSync(fd, buffer, filled, buffer.length - filled, null);
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
      const value = v8.deserialize(buffer.subarray(start + 4, start + 4 + length));
      start += 4 + length;
      yield value;
    }
  } finally {
    fs.closeSync(fd);
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
 * build), passing each later record to `each`, in order. Returns how many
 * there were, or -1 when the file is not one to append to: missing, of
 * another version or build, or with a torn last record (the records before
 * it were passed). A corrupt file calls `reset` (forget what `each` got)
 * and gives -1. The file is closed in every case.
 */
export function readRecordFile(file: string, header: RecordFileHeader, each: (record: unknown) => void, reset: () => void): number {
  const end = { torn: false };
  let count = -1;
  let all: Generator<unknown> | undefined;
  try {
    all = readRecords(file, end);
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

/** Writes a whole record file: `header`, then the records, to a temporary file renamed over `file`; record by record, never as one buffer. */
export function writeRecordFile(file: string, header: RecordFileHeader, records: Iterable<unknown>): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeInChunks(tmp, (function* () {
    yield encodeRecord(header);
    for (const record of records) {
      yield encodeRecord(record);
    }
  })());
  fs.renameSync(tmp, file);
}

/** Appends records to a file (created when missing), each with one write: records of concurrent runs do not interleave. */
export function appendRecords(file: string, values: Iterable<unknown>): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const fd = fs.openSync(file, 'a');
  try {
    for (const value of values) {
      const bytes = encodeRecord(value);
      for (let off = 0; off < bytes.length;) {
        off += fs.writeSync(fd, bytes, off);
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}
