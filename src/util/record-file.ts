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
 * The records of a file's bytes, in order. A torn last record (a run
 * killed while it appended) ends them: `end.torn` tells.
 */
export function* decodeRecords(buffer: Buffer, end: { torn: boolean }): Generator<unknown> {
  for (let at = 0; at < buffer.length;) {
    const length = at + 4 <= buffer.length ? buffer.readUInt32LE(at) : Infinity;
    if (at + 4 + length > buffer.length) {
      end.torn = true;
      return;
    }
    yield v8.deserialize(buffer.subarray(at + 4, at + 4 + length));
    at += 4 + length;
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
