/**
 * One copy of each repeated value: what synth keeps per cluster at
 * ten thousand clusters repeats the same few values (a repository URL, a
 * namespace, a platform name), and values read from a worker's message or a
 * cache file arrive as copies. A pool per run keeps one of each; callers
 * treat what it returns as read-only.
 */
export class SharedValues {
  private readonly values = new Map<string, unknown>();
  private readonly words = new Map<string, string>();

  /** The pool's copy of a JSON value (a fresh parse the first time: no string of it keeps a larger text alive). */
  value<T>(value: T): T {
    if (value === undefined) {
      return value;
    }
    const key = JSON.stringify(value);
    let shared = this.values.get(key);
    if (shared === undefined) {
      shared = JSON.parse(key);
      this.values.set(key, shared);
    }
    return shared as T;
  }

  /** The pool's copy of a string. */
  word<T extends string>(word: T): T {
    let shared = this.words.get(word);
    if (shared === undefined) {
      shared = fresh(word);
      this.words.set(shared, shared);
    }
    return shared as T;
  }
}

/**
 * A copy of a string that holds its own characters: a string cut from a
 * larger one (a value parsed from a spec's text) may keep the whole text
 * alive.
 */
export function fresh<T extends string>(text: T): T {
  return JSON.parse(JSON.stringify(text)) as T;
}
