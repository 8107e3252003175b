// Name globs (`*`, `?`) matched without backtracking blow-up.

/**
 * Whether `text` matches `pattern` (`*` any run of characters, `?` one, the
 * rest literal). Greedy with one resume point: a later `*` supersedes an
 * earlier one, so the steps are at most about (pattern + 1) x (text + 1),
 * never exponential as a backtracking regular expression of many stars is.
 * `onStep` is called once per step (for tests that bound the work).
 */
export function globMatch(pattern: string, text: string, onStep?: () => void): boolean {
  const p = Array.from(pattern);
  const t = Array.from(text);
  let pi = 0;
  let ti = 0;
  let star = -1;
  let resume = 0;
  while (ti < t.length) {
    onStep?.();
    if (pi < p.length && p[pi] === '*') {
      star = pi++;
      resume = ti;
    } else if (pi < p.length && (p[pi] === '?' || p[pi] === t[ti])) {
      pi++;
      ti++;
    } else if (star >= 0) {
      // the last star takes one more character; earlier stars need never change
      pi = star + 1;
      ti = ++resume;
    } else {
      return false;
    }
  }
  while (pi < p.length && p[pi] === '*') {
    pi++;
  }
  return pi === p.length;
}
