// The errors of writing the output folder, and how an errno reads in them.

/** Thrown when the output directory cannot be replaced safely. */
export class OutputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutputError';
  }
}

/** The output folder given cannot be one (a file, or below a file): a usage error. */
export class OutputLocationError extends OutputError {
  constructor(message: string) {
    super(message);
    this.name = 'OutputLocationError';
  }
}

/**
 * Thrown when the new tree is in place but the old one (the backup of the
 * replaced folders) cannot be removed, e.g. immutable files (`chattr +i`).
 */
export class OldTreeLeftError extends OutputError {
  constructor(message: string) {
    super(message);
    this.name = 'OldTreeLeftError';
  }
}

/** Error texts of the file-system errors a user can meet, by code. */
const ERRNO_TEXT: Readonly<Record<string, string>> = {
  ENOSPC: 'no space left on device',
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EDQUOT: 'disk quota exceeded',
  ENOTDIR: 'not a directory',
  EISDIR: 'is a directory',
  ENOENT: 'no such file or directory',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files in the system',
  ELOOP: 'too many levels of symbolic links',
  EIO: 'input/output error',
  EBUSY: 'resource busy',
  EEXIST: 'file exists',
  ENAMETOOLONG: 'file name too long',
  EXDEV: 'cross-device link',
  ENOTEMPTY: 'directory not empty',
};

/** A file-system error (errno code), as Node throws them. */
export function isErrnoError(e: unknown): e is NodeJS.ErrnoException & { code: string } {
  return e instanceof Error && typeof (e as NodeJS.ErrnoException).code === 'string' && /^E[A-Z0-9]+$/.test((e as NodeJS.ErrnoException).code!);
}

/** `<text> (<CODE>)` for a file-system error. */
export function errnoText(e: NodeJS.ErrnoException & { code: string }): string {
  const text = ERRNO_TEXT[e.code] ?? e.message.replace(/^E[A-Z0-9]+: /, '').replace(/,.*$/s, '');
  return `${text} (${e.code})`;
}

/** The file system refused a write (disk full, read-only, permissions): an environment problem, not a bug. */
export class OutputEnvironmentError extends OutputError {
  constructor(message: string) {
    super(message);
    this.name = 'OutputEnvironmentError';
  }
}

/** Runs a file-system step, turning errno errors into an OutputEnvironmentError that names the cause. */
export function envErrors<T>(dir: string, phase: 'write' | 'commit', step: () => T): T {
  try {
    return step();
  } catch (e) {
    if (!isErrnoError(e) || e instanceof OutputError) {
      throw e;
    }
    const where = e.path ? ` at ${e.path}` : '';
    throw new OutputEnvironmentError(
      phase === 'write'
        ? `cannot write ${dir}: ${errnoText(e)}${where}; ${dir} is unchanged`
        : `cannot write ${dir}: ${errnoText(e)}${where}; the commit is journaled and the next synth completes it once the cause is fixed`,
    );
  }
}
