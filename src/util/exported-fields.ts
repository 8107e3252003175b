/**
 * Reading the fields of an object exported from a live cluster (`oc get -o yaml`)
 * without trusting their shape: a missing or mistyped field reads as empty.
 */

/** An exported object's fields. */
export type Obj = Record<string, unknown>;

/** The value when it is an object, else an empty one. */
export function rec(v: unknown): Obj {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {};
}

/** The value when it is a list, else an empty one. */
export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** The value when it is a non-empty string. */
export function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** The keys of `source` among `keys` that are set and not empty, in the order of `keys`. */
export function pick(source: Obj, keys: readonly string[]): Obj {
  return Object.fromEntries(keys.filter((k) => source[k] !== undefined && source[k] !== '').map((k) => [k, source[k]]));
}
