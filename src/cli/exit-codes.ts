/** Exit codes of the command line. */
export const EXIT_OK = 0;
export const EXIT_INVALID_INPUT = 1;
export const EXIT_USAGE = 2;
export const EXIT_INTERNAL = 3;

/** A command line that cannot be run as given. */
export class UsageError extends Error {}

/** A config the transform refuses (exit 2, as the command documents). */
export class TransformCliError extends Error {}
