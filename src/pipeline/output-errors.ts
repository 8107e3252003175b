// How an errno reads in the errors of writing the output folder, and the file system's refusals as user errors.
import { UserError, isUserError } from '../util/user-error';

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

/** Runs a file-system step, turning errno errors into a user error of kind 'environment' that names the cause. */
export function envErrors<T>(dir: string, phase: 'write' | 'commit', step: () => T): T {
  try {
    return step();
  } catch (e) {
    if (!isErrnoError(e) || isUserError(e)) {
      throw e;
    }
    const where = e.path ? ` at ${e.path}` : '';
    throw new UserError(
      'environment',
      phase === 'write'
        ? `cannot write ${dir}: ${errnoText(e)}${where}; ${dir} is unchanged`
        : `cannot write ${dir}: ${errnoText(e)}${where}; the commit is journaled and the next synth completes it once the cause is fixed`,
    );
  }
}
