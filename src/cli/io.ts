/** Where the commands write and read, and what each gets from the dispatcher (`src/cli.ts`). */
import * as fs from 'fs';
import { MAX_INPUT_BYTES } from '../fleet/load';
import { isErrnoError } from '../pipeline/output';

/** Default folder of cluster specs (the example fleet in this repository). */
export const DEFAULT_CLUSTERS_DIR = 'clusters';
/** Default output folder; the cdk8s CLI passes its `output` as CDK8S_OUTDIR. */
export const DEFAULT_OUT_DIR = 'dist';

/** Where the CLI writes; injectable for tests. */
export interface CliIo {
  /** Standard output. */
  readonly out: (text: string) => void;
  /** Standard error. */
  readonly err: (text: string) => void;
  /**
   * Reads standard input: all of it, or at least one byte more than
   * MAX_INPUT_BYTES when it is longer (the command refuses it then).
   *
   * @default - reads file descriptor 0, at most MAX_INPUT_BYTES + 1 bytes
   */
  readonly in?: () => string;
  /**
   * Whether standard error is a terminal: synth's progress is one line
   * redrawn in place there, a line every few seconds elsewhere.
   *
   * @default - not known: no progress (the process's standard error says)
   */
  readonly errIsTTY?: boolean;
  /**
   * The clock of the progress line, in milliseconds.
   *
   * @default Date.now
   */
  readonly now?: () => number;
}

/** The process's own standard streams. */
export const PROCESS_IO: CliIo = {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  in: () => readCapped(0, MAX_INPUT_BYTES),
  errIsTTY: process.stderr.isTTY === true,
};

/** What a command gets from the dispatcher: where it writes, the environment, and how it sets the exit code. */
export interface CommandContext {
  readonly io: CliIo;
  readonly env: NodeJS.ProcessEnv;
  /** synth renders in worker threads (`runCliAsync`) rather than on this thread. */
  readonly workers: boolean;
  readonly setCode: (code: number) => void;
  /** The command never writes (validate-spec): its errors do not end with "nothing was written". */
  readonly writesNothing: () => void;
}

/**
 * Reads a file descriptor to its end, or to `limit` bytes and one more: an
 * endless pipe (`yes | ccm-gitops cloud-config transform`) is never read whole.
 */
export function readCapped(fd: number, limit: number): string {
  const chunks: Buffer[] = [];
  const buffer = Buffer.alloc(64 * 1024);
  let total = 0;
  while (total <= limit) {
    let n: number;
    try {
      n = fs.readSync(fd, buffer, 0, Math.min(buffer.length, limit + 1 - total), null);
    } catch (e) {
      if (isErrnoError(e) && e.code === 'EAGAIN') {
        // a non-blocking pipe with nothing yet: wait a little, as a blocking read would
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
        continue;
      }
      if (isErrnoError(e) && e.code === 'EOF') {
        break; // Windows reports the end of a pipe so
      }
      throw e;
    }
    if (n === 0) {
      break;
    }
    chunks.push(Buffer.from(buffer.subarray(0, n)));
    total += n;
  }
  return Buffer.concat(chunks).toString('utf8');
}
