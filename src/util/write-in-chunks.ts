import * as fs from 'fs';

/** Writes the pieces to a file in chunks of about a megabyte. */
export function writeInChunks(file: string, pieces: Iterable<string | Uint8Array>): void {
  const fd = fs.openSync(file, 'w');
  try {
    let buffered: (string | Uint8Array)[] = [];
    let size = 0;
    const flush = () => {
      const chunk = Buffer.concat(buffered.map((piece) => (typeof piece === 'string' ? Buffer.from(piece) : piece)));
      for (let off = 0; off < chunk.length;) {
        off += fs.writeSync(fd, chunk, off);
      }
      buffered = [];
      size = 0;
    };
    for (const piece of pieces) {
      buffered.push(piece);
      size += piece.length;
      if (size >= 1 << 20) {
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
