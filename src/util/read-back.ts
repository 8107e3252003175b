// Records synth writes and reads back (the journal, a shard's record, the phase records, the fleet summary): read within a size bound.
import * as fs from 'fs';

/**
 * The largest record synth reads back: far above what it writes for a fleet
 * of any size it renders (a shard record holds about 140 bytes a cluster),
 * except the fleet summary ({@link MAX_FLEET_SUMMARY_BYTES}), so
 * only a crafted or corrupt file reaches it, refused before it is read.
 */
export const MAX_RECORD_BYTES = 16 * 1024 * 1024;

/** Why a record is refused for its size. */
export const RECORD_TOO_LARGE = `is over ${MAX_RECORD_BYTES} bytes, more than any record synth writes`;

/**
 * The largest fleet summary (`.fleet.json`) read back: it holds about 2.2 KB
 * a cluster, so it passes {@link MAX_RECORD_BYTES} at some 7,700 clusters;
 * this bound leaves room for over 100,000.
 */
export const MAX_FLEET_SUMMARY_BYTES = 256 * 1024 * 1024;

/**
 * The text of a record synth wrote, or `{ tooLarge }` when it is over
 * `max` ({@link MAX_RECORD_BYTES} unless given): measured on the open file, so
 * the size read is the size checked. Errors of the file system (ENOENT …) are
 * thrown as they come.
 */
export function readRecordText(file: string, max = MAX_RECORD_BYTES): string | { readonly tooLarge: string } {
  const fd = fs.openSync(file, 'r');
  try {
    if (fs.fstatSync(fd).size > max) {
      return { tooLarge: RECORD_TOO_LARGE };
    }
    return fs.readFileSync(fd, 'utf8');
  } finally {
    fs.closeSync(fd);
  }
}
