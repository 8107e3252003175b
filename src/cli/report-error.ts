/** How an error a command throws reads on standard error, and the exit code it sets. */
import { CommanderError } from 'commander';
import { formatIssue, isSpecError } from '../cluster-spec/errors';
import { errnoText, isErrnoError } from '../pipeline/output';
import { isUserError } from '../util/user-error';
import { EXIT_INTERNAL, EXIT_INVALID_INPUT, EXIT_OK, EXIT_USAGE } from './exit-codes';
import { CliIo } from './io';

/**
 * Prints an error and returns its exit code: 1 for bad input, 2 for usage, 3
 * (with a request to report it) for anything not foreseen. `writes`: the
 * command writes output, so its errors say that nothing was written.
 */
export function reportError(e: unknown, io: CliIo, env: NodeJS.ProcessEnv, writes = true): number {
  const nothingWritten = writes ? '; nothing was written' : '';
  if (isUserError(e, 'import')) {
    io.err(`error: ${e.message}; nothing was written\n`);
    return EXIT_INVALID_INPUT;
  }
  if (isUserError(e, 'usage')) {
    io.err(`error: ${e.message}\n`);
    return EXIT_USAGE;
  }
  if (e instanceof CommanderError) {
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') {
      return EXIT_OK;
    }
    return EXIT_USAGE;
  }
  if (isSpecError(e)) {
    io.err(`error: ${e.issues.length === 1 ? '1 problem' : `${e.issues.length} problems`} found${nothingWritten}\n`);
    for (const issue of e.issues) {
      io.err(`  ${formatIssue(issue)}\n`);
    }
    return EXIT_INVALID_INPUT;
  }
  if (isUserError(e, 'output', 'environment', 'input')) {
    io.err(`error: ${e.message}\n`);
    return EXIT_INVALID_INPUT;
  }
  if (isErrnoError(e)) {
    // an environment problem met outside the output writer (which names its own): reading the specs, a folder
    io.err(
      `error: cannot ${e.syscall === 'scandir' || e.syscall === 'open' || e.syscall === 'read' || e.syscall === 'stat' || e.syscall === 'lstat' ? 'read' : 'access'} ` +
        `${e.path ?? 'a file'}: ${errnoText(e)}${nothingWritten}\n`,
    );
    return EXIT_INVALID_INPUT;
  }
  const err = e as Error;
  io.err(`error: internal error: ${err?.message ?? String(e)}; nothing was written. Please report this with the input that caused it.\n`);
  if (env.CCM_GITOPS_DEBUG) {
    io.err(`${err?.stack ?? ''}\n`);
  }
  return EXIT_INTERNAL;
}
