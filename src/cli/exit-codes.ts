/** Exit codes of the command line. */
export const EXIT_OK = 0;
export const EXIT_INVALID_INPUT = 1;
export const EXIT_USAGE = 2;
export const EXIT_INTERNAL = 3;
