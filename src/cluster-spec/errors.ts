import { holdsCredentials, redactMessage } from '../secrets/message-redaction';
import { isUserError, UserError } from '../util/user-error';

/**
 * One problem found in the input, with enough context for the user to fix it:
 * the file, the line when known, the field path and a message that names the
 * bad value and the fix.
 */
export interface SpecIssue {
  /** File the problem is in, as given to the loader (relative when the input was relative). */
  readonly file: string;
  /** Dotted field path (`spec.aws.region`), or empty for a whole-file problem. */
  readonly path: string;
  /** What is wrong, with the bad value, and what to do. */
  readonly message: string;
  /** 1-based line of the offending node, when known. */
  readonly line?: number;
}

/** Formats one issue as `file:line: path: message`. */
export function formatIssue(issue: SpecIssue): string {
  const where = issue.line !== undefined ? `${issue.file}:${issue.line}` : issue.file;
  // the last guard: no message (nor a path made of a key) prints credentials, a private key or a known token
  const message = redactMessage(issue.message);
  return issue.path ? `${where}: ${redactMessage(issue.path)}: ${message}` : `${where}: ${message}`;
}

/** Sorts issues by file, line and path so that reports are stable. */
export function sortIssues(issues: readonly SpecIssue[]): SpecIssue[] {
  return [...issues].sort(
    (a, b) => compare(a.file, b.file) || (a.line ?? 0) - (b.line ?? 0) || compare(a.path, b.path) || compare(a.message, b.message),
  );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Thrown when the input has problems: the user error of kind 'spec' (its own
 * class, as the public API has always exported it). Carries every problem of
 * the run, so the user sees them all at once.
 */
export class SpecValidationError extends UserError {
  public readonly issues: readonly SpecIssue[];

  constructor(issues: readonly SpecIssue[]) {
    const sorted = sortIssues(issues);
    const count = sorted.length === 1 ? '1 problem' : `${sorted.length} problems`;
    super('spec', `${count} in the cluster specs:\n${sorted.map((i) => `  ${formatIssue(i)}`).join('\n')}`);
    this.name = 'SpecValidationError';
    this.issues = sorted;
  }
}

/** Whether `e` is the user error of kind 'spec', with its issues. */
export function isSpecError(e: unknown): e is SpecValidationError {
  return isUserError(e, 'spec') && e instanceof SpecValidationError;
}

/** Renders a value for an error message: strings quoted, long values cut, secret material (URL credentials, keys, tokens) redacted. */
export function describeValue(value: unknown): string {
  let text: string;
  if (typeof value === 'string' && holdsCredentials(value)) {
    // the field is named by the caller; what it holds is not printed, not even in part
    return 'a value holding credentials (not shown)';
  } else if (typeof value === 'string') {
    text = JSON.stringify(redactMessage(value));
  } else if (value === null) {
    text = 'null';
  } else if (value === undefined) {
    text = 'nothing';
  } else if (Array.isArray(value)) {
    text = `a list (${JSON.stringify(value)})`;
  } else if (typeof value === 'object') {
    text = `a mapping (${JSON.stringify(value)})`;
  } else {
    // what YAML and JSON hold besides strings, lists, mappings and null: numbers and booleans
    text = `${typeof value} ${typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint' ? String(value) : ''}`;
  }
  text = typeof value === 'string' ? text : redactMessage(text);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
