import { RenderedFile } from '../gitops/layout';
import { StreamedFile } from './fleet-summary';
import { batchPieces } from '../util/write-in-chunks';
import { secretInOutput } from '../secrets/detector';
import { readUnitFiles } from '../util/read-tree';
import { UserError } from '../util/user-error';

/**
 * The last guard before files reach the output: whatever path a secret took
 * (spec, cloud config, kept output), it does not reach git. Throws a
 * user error (kind 'input') naming the file and the kind of secret, never the value. Used
 * by the main thread and by the render workers alike.
 */
export function refuseSecretsInOutput(files: readonly RenderedFile[]): void {
  for (const f of files) {
    const found = secretInOutput(f.content);
    if (found) {
      throw refusal(f.path, found.reason);
    }
  }
}

function refusal(file: string, reason: string): UserError {
  return new UserError(
    'input',
    `${file} would hold ${reason}; nothing was written. Find the input that carries it (spec, cloud config, kept output) and remove it`,
  );
}

/**
 * The same guard over files given as pieces (the fleet summary), scanned in
 * batches of whole pieces: every shape it looks for lies within one line, and
 * each piece ends a line, so a batch finds what the whole file would.
 */
export function refuseSecretsInPieces(files: readonly StreamedFile[]): void {
  for (const f of files) {
    for (const batch of batchPieces(f.pieces(), 1 << 16)) {
      const found = secretInOutput(batch);
      if (found) {
        throw refusal(f.path, found.reason);
      }
    }
  }
}

/** The same guard over a folder kept from the output as it is (`synth --only`): it is committed again, so it is read too. */
export function refuseSecretsInKeptUnit(out: string, unit: string): void {
  refuseSecretsInOutput(readUnitFiles(out, unit));
}
