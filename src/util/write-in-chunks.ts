import * as fs from 'fs';

/**
 * Writes the pieces to a file in chunks of about a megabyte: runs of strings
 * are encoded once, and byte pieces (cache records) are written as they are,
 * by one gathering write per chunk, never copied into a chunk buffer.
 */
export function writeInChunks(file: string, pieces: Iterable<string | Uint8Array>): void {
  const fd = fs.openSync(file, 'w');
  try {
    let buffered: (string | Uint8Array)[] = [];
    let size = 0;
    const flush = () => {
      const buffers: Uint8Array[] = [];
      let text: string[] = [];
      for (const piece of buffered) {
        if (typeof piece === 'string') {
          text.push(piece);
          continue;
        }
        if (text.length > 0) {
          buffers.push(Buffer.from(text.join('')));
          text = [];
        }
        buffers.push(piece);
      }
      if (text.length > 0) {
        buffers.push(Buffer.from(text.join('')));
      }
      let total = buffers.reduce((n, b) => n + b.length, 0);
      let written = total > 0 ? fs.writevSync(fd, buffers) : 0;
      if (written < total) {
        // a short write (rare on a regular file): the rest, as one buffer
        const rest = Buffer.concat(buffers).subarray(written);
        total = rest.length;
        for (written = 0; written < total;) {
          written += fs.writeSync(fd, rest, written);
        }
      }
      buffered = [];
      size = 0;
    };
    for (const piece of pieces) {
      buffered.push(piece);
      size += piece.length;
      // a megabyte, or as many pieces as one gathering write takes (IOV_MAX is 1,024 on Linux)
      if (size >= 1 << 20 || buffered.length >= 1000) {
        flush();
      }
    }
    flush();
  } finally {
    fs.closeSync(fd);
  }
}

/** The pieces joined into strings of about `size` characters, never splitting a piece (a piece that ends a line keeps lines whole). */
export function* batchPieces(pieces: Iterable<string>, size: number): Generator<string> {
  let batch: string[] = [];
  let length = 0;
  for (const piece of pieces) {
    batch.push(piece);
    length += piece.length;
    if (length >= size) {
      yield batch.join('');
      batch = [];
      length = 0;
    }
  }
  if (batch.length > 0) {
    yield batch.join('');
  }
}
