/**
 * The one error type of what a user can fix: its kind says what went wrong,
 * and so the exit code and how the command line prints it (src/cli/report-error.ts).
 * Anything else a command throws is an internal error (exit 3).
 */

/** What a user error is about. */
export type UserErrorKind =
  /** How the command was called: a flag, the output folder given, a tree to compare, a config the transform refuses (exit 2). */
  | 'usage'
  /** Problems of cluster specs, each with its file and field: only `SpecValidationError` (cluster-spec/errors.ts) has this kind (exit 1). */
  | 'spec'
  /** Input that cannot be synthesized: the specs, a shard output, what a render would write (exit 1). */
  | 'input'
  /** An export of a live cluster that cannot become a spec (exit 1, nothing written). */
  | 'import'
  /** A cloud config a transform refuses, with its line when the problem is on one; the caller says it in its own terms. */
  | 'cloud-config'
  /** Options of `init` it cannot use (exit 2, nothing written). */
  | 'init'
  /** The output folder cannot be replaced safely: a lock, a journal it did not write, an old tree left (exit 1). */
  | 'output'
  /** The file system refused a write: disk full, read-only, permissions (exit 1). */
  | 'environment';

/** A problem the user can fix, of one kind; the message names the file, field or flag and what to do. */
export class UserError extends Error {
  /** 1-based line in the file read (a cloud config), when the problem is on one line. */
  public readonly line?: number;

  constructor(
    public readonly kind: UserErrorKind,
    message: string,
    line?: number,
  ) {
    super(message);
    this.name = 'UserError';
    this.line = line;
  }
}

/** Whether `e` is a user error, of one of `kinds` when any is given. */
export function isUserError(e: unknown, ...kinds: UserErrorKind[]): e is UserError {
  return e instanceof UserError && (kinds.length === 0 || kinds.includes(e.kind));
}
