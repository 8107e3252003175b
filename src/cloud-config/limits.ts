import { CloudConfigError } from './errors';

/**
 * Limits every cloud-config parser applies before parsing, so hostile input
 * (400,000 nested brackets, alias bombs, out-of-range numbers) gives one
 * CloudConfigError instead of a stack overflow or a silent `null`. Real
 * configs nest fewer than 10 levels.
 */
export const MAX_CONFIG_DEPTH = 64;
/** Most YAML aliases a cloud config may expand. */
export const MAX_CONFIG_ALIASES = 50;

/**
 * Deepest nesting of `[` and `{` in a text, in one linear pass. With
 * `jsonStrings` the brackets inside JSON strings are skipped; without it every
 * bracket counts (an upper bound, for YAML flow collections).
 */
export function bracketDepth(text: string, jsonStrings: boolean): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) {
        i++;
      } else if (c === 0x22) {
        inString = false;
      }
      continue;
    }
    if (c === 0x22 && jsonStrings) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > max) {
        max = depth;
      }
    } else if ((c === 0x5d || c === 0x7d) && depth > 0) {
      depth--;
    }
  }
  return max;
}

/** Refuses a text nested deeper than MAX_CONFIG_DEPTH. */
export function refuseDeepNesting(text: string, jsonStrings: boolean): void {
  const depth = bracketDepth(text, jsonStrings);
  if (depth > MAX_CONFIG_DEPTH) {
    throw new CloudConfigError(
      `failed to read the cloud.conf: it nests ${depth} levels deep, over the limit of ${MAX_CONFIG_DEPTH}; a cloud config is a few levels deep`,
    );
  }
}

/**
 * JSON.parse with the limits: nesting bounded first; numbers outside the
 * float64 range (`1e400`, which JSON.parse makes Infinity and JSON.stringify
 * writes as null) refused. Throws CloudConfigError; SyntaxError passes through.
 */
export function parseJsonWithLimits(text: string): unknown {
  refuseDeepNesting(text, true);
  let bad: string | undefined;
  const value: unknown = JSON.parse(text, (key, v: unknown) => {
    if (typeof v === 'number' && !Number.isFinite(v) && bad === undefined) {
      bad = key;
    }
    return v;
  });
  if (bad !== undefined) {
    throw new CloudConfigError(
      `failed to read the cloud.conf: "${bad}" is a number outside the float64 range (it would be written as null); give a number in range`,
    );
  }
  return value;
}
