import * as fs from 'fs';
import * as v8 from 'v8';

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

/** Appends records to a file (created when missing), each with one write: records of concurrent runs do not interleave. */
export function appendRecords(file: string, values: Iterable<unknown>): void {
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
