import * as fs from 'fs';
import * as path from 'path';
import { appendRecords, encodeRecords, readRecordFile, writeRecordFile } from '../src/util/record-file';
import { useTempDir } from './helpers';

// The caches' record files: records are written in batches, one v8 serializer per batch (a serializer
// per record keeps memory outside the heap); the readers see the records one by one.

const dir = useTempDir();
const header = { version: 4, build: 'test' };

/** The records as stored: the byte length of each (a 4-byte little-endian length, then the payload). */
function storedLengths(file: string): number[] {
  const bytes = fs.readFileSync(file);
  const lengths: number[] = [];
  for (let at = 0; at < bytes.length; at += 4 + bytes.readUInt32LE(at)) {
    lengths.push(bytes.readUInt32LE(at));
  }
  return lengths;
}

function readAll(file: string): { count: number; values: unknown[] } {
  const values: unknown[] = [];
  const count = readRecordFile(
    file,
    header,
    (v) => values.push(v),
    () => values.splice(0),
  );
  return { count, values };
}

describe('record files written in batches', () => {
  test('2,500 records are stored as three batches after the header, and read back as the 2,500, in order', () => {
    // GIVEN 2,500 records of the shapes the caches write
    const values = Array.from({ length: 2500 }, (_v, i) =>
      i % 2 === 0 ? ['file', `f${i}`, { stat: `${i}`, digest: 'd' }] : { list: `l${i}`, files: 'a\nb' },
    );
    const file = path.join(dir(), 'cache.v8');
    // WHEN they are written as a record file
    writeRecordFile(file, header, values);
    // THEN the file holds four records: the header and batches of 1,024, 1,024 and 452
    expect(storedLengths(file)).toHaveLength(4);
    // AND reading gives each record, in order, counted one by one
    expect(readAll(file)).toEqual({ count: 2500, values });
  });

  test('a single record is stored as itself, not as a batch of one', () => {
    // GIVEN one record WHEN encoded THEN its bytes are those of the record alone
    const [bytes, more] = [...encodeRecords([['spec', 'a.yaml', { inputs: 'x' }]])];
    expect(more).toBeUndefined();
    const file = path.join(dir(), 'one.v8');
    writeRecordFile(file, header, [['spec', 'a.yaml', { inputs: 'x' }]]);
    expect(fs.readFileSync(file).subarray(-bytes.length)).toEqual(bytes);
  });

  test('appended records go in batches too, after what the file holds', () => {
    // GIVEN a record file of three records
    const file = path.join(dir(), 'cache.v8');
    writeRecordFile(file, header, [
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ]);
    // WHEN 1,500 more are appended
    const more = Array.from({ length: 1500 }, (_v, i) => [`n${i}`, i]);
    appendRecords(file, more);
    // THEN they are two more stored records, and reading gives all 1,503 in order
    expect(storedLengths(file)).toHaveLength(4);
    expect(readAll(file)).toEqual({ count: 1503, values: [['a', 1], ['b', 2], ['c', 3], ...more] });
  });

  test('a record shaped like a batch is refused rather than read back as other records', () => {
    // GIVEN a value with the one key a batch has WHEN it is written THEN it is refused, and no file is left half-written
    const file = path.join(dir(), 'bad.v8');
    expect(() => writeRecordFile(file, header, [['a', 1], { batch: [1, 2] }])).toThrow('a record cannot look like a batch of records');
    expect(fs.readdirSync(dir())).toEqual([]);
  });
});
