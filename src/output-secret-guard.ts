import { RenderedFile } from './gitops/layout';
import { secretInOutput } from './secrets/detector';
import { SynthError } from './synth-error';
import { readUnitFiles } from './util/read-tree';

/**
 * The last guard before files reach the output: whatever path a secret took
 * (spec, cloud config, kept output), it does not reach git. Throws a
 * SynthError naming the file and the kind of secret, never the value. Used
 * by the main thread and by the render workers alike.
 */
export function refuseSecretsInOutput(files: readonly RenderedFile[]): void {
  for (const f of files) {
    const found = secretInOutput(f.content);
    if (found) {
      throw new SynthError(`${f.path} would hold ${found.reason}; nothing was written. Find the input that carries it (spec, cloud config, kept output) and remove it`);
    }
  }
}

/** The same guard over a folder kept from the output as it is (`synth --only`): it is committed again, so it is read too. */
export function refuseSecretsInKeptUnit(out: string, unit: string): void {
  refuseSecretsInOutput(readUnitFiles(out, unit));
}
