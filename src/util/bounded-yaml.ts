// The data of a parsed YAML document within bounds: alias expansion and nesting, refused with a reason instead of a crash.
import type { Document } from 'yaml';

/** Nodes the aliases of one document may expand to (the yaml library's own default). */
export const MAX_YAML_ALIASES = 100;

/** Deepest nesting of mappings and lists a Kubernetes object read back may have. */
export const MAX_YAML_DEPTH = 100;

/** Nesting depth of parsed YAML data, counted without recursion and stopping past `limit`. */
export function depthOf(value: unknown, limit: number): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (v !== null && typeof v === 'object') {
      max = Math.max(max, d + 1);
      if (max > limit) {
        return max;
      }
      for (const child of Object.values(v)) {
        stack.push([child, d + 1]);
      }
    }
  }
  return max;
}

/** Why a key is refused: `__proto__` is read by JavaScript as an object's prototype (or dropped), never as data. */
export const PROTO_KEY_REFUSED = "has the key __proto__, which JavaScript reads as an object's prototype; remove it";

/** Whether parsed data holds a `__proto__` key at any depth (an own property, as JSON.parse and the yaml package make it), counted without recursion. */
export function hasProtoKey(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v !== null && typeof v === 'object') {
      if (!Array.isArray(v) && Object.prototype.hasOwnProperty.call(v, '__proto__')) {
        return true;
      }
      for (const child of Object.values(v) as unknown[]) {
        stack.push(child);
      }
    }
  }
  return false;
}

/**
 * Why a document that did not parse is refused, when the parser ran out of
 * stack on its nesting (`- - - …` 20,000 deep): the nesting bound, not the
 * parser's own words.
 */
export function nestingRefusal(doc: Document, what: string): string | undefined {
  return doc.errors.some((e) => e.message.includes('Maximum call stack size exceeded'))
    ? `it nests more than ${MAX_YAML_DEPTH} levels deep; no ${what} does`
    : undefined;
}

/**
 * A document's data, or why it is refused: aliases that expand past
 * {@link MAX_YAML_ALIASES} nodes (an alias bomb), or nesting past
 * {@link MAX_YAML_DEPTH} levels (`what` says which objects never nest so deep),
 * or a `__proto__` key.
 */
export function boundedData(doc: Document, what: string): { readonly data: unknown } | { readonly refused: string } {
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (e) {
    if (e instanceof ReferenceError) {
      return { refused: `its aliases expand past ${MAX_YAML_ALIASES} nodes; write the values out instead of aliases` };
    }
    if (e instanceof RangeError) {
      return { refused: `it nests more than ${MAX_YAML_DEPTH} levels deep; no ${what} does` };
    }
    throw e;
  }
  if (depthOf(data, MAX_YAML_DEPTH) > MAX_YAML_DEPTH) {
    return { refused: `it nests more than ${MAX_YAML_DEPTH} levels deep; no ${what} does` };
  }
  if (hasProtoKey(data)) {
    return { refused: PROTO_KEY_REFUSED };
  }
  return { data };
}
