import { RenderedFile } from '../gitops/layout';
import { FLEET_DIRECTORY } from '../gitops/repo-path';
import { openUnitParts, TreeSink, UnitParts } from './output';
import { refuseSecretsInOutput } from './output-secret-guard';
import { UnitDigest } from './render-cache';
import { UserError } from '../util/user-error';

/**
 * The fleet folder (`_fleet/`: the Argo CD roots, two or three files per
 * cluster) given to the sink a share at a time in the shares' order, each
 * share through the last secret guard, and digested as it goes: none is
 * held until the last render, where the memory peak is. A share that
 * comes back before one ahead of it waits for it: a few at most, as many
 * as the workers render at once.
 */
export class FleetFolderParts {
  private readonly parts: UnitParts;
  private readonly digest = new UnitDigest();
  private readonly early = new Map<number, readonly RenderedFile[]>();
  private next = 0;
  private given = 0;

  /**
   * @param shares how many shares there are
   */
  constructor(
    sink: TreeSink,
    private readonly shares: number,
  ) {
    this.parts = openUnitParts(sink, FLEET_DIRECTORY);
  }

  /** Files given to the sink so far. */
  get files(): number {
    return this.given;
  }

  /** Share `k`'s files (`argoCdShares` order). */
  put(k: number, files: readonly RenderedFile[]): void {
    this.early.set(k, files);
    for (let part = this.early.get(this.next); part; part = this.early.get(this.next)) {
      this.early.delete(this.next++);
      refuseSecretsInOutput(part);
      this.parts.put(part);
      this.digest.add(part);
      this.given += part.length;
    }
  }

  /** Every share given: whether the folder on disk was already as rendered, and the rendered folder's digest (`unitDigest`). */
  close(): { same: boolean; digest: string } {
    if (this.next !== this.shares) {
      throw new UserError('input', `internal error: share ${this.next + 1} of ${this.shares} of the Argo CD roots did not come back`);
    }
    return { same: this.parts.close(), digest: this.digest.digest() };
  }
}
