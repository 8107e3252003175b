import { UserError } from '../util/user-error';

/**
 * Limits every cloud-config parser applies before parsing, so hostile input
 * (400,000 nested brackets, alias bombs, out-of-range numbers) gives one
 * UserError of kind 'cloud-config' instead of a stack overflow or a silent `null`. Real
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
    throw new UserError(
      'cloud-config',
      `failed to read the cloud.conf: it nests ${depth} levels deep, over the limit of ${MAX_CONFIG_DEPTH}; a cloud config is a few levels deep`,
    );
  }
}

/** The error of a config nested past {@link MAX_CONFIG_DEPTH} where no bracket shows it (block YAML). */
function tooDeep(): UserError {
  return new UserError(
    'cloud-config',
    `failed to read the cloud.conf: it nests more than ${MAX_CONFIG_DEPTH} levels deep, over the limit of ${MAX_CONFIG_DEPTH}; a cloud config is a few levels deep`,
  );
}

/** Refuses a YAML config the parser could not follow for its nesting (its stack ran out): the nesting bound, not the parser's words. */
export function refuseYamlStackExhaustion(errors: readonly { readonly message: string }[]): void {
  if (errors.some((e) => e.message.includes('Maximum call stack size exceeded'))) {
    throw tooDeep();
  }
}

/**
 * Refuses parsed config data nested past {@link MAX_CONFIG_DEPTH} (block
 * YAML, which {@link bracketDepth} does not see) or holding a `__proto__`
 * key, which JavaScript reads as an object's prototype instead of data.
 * Walked without recursion.
 */
export function refuseHostileData(data: unknown): void {
  const stack: [unknown, string, number][] = [[data, '', 0]];
  while (stack.length > 0) {
    const [v, at, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') {
      continue;
    }
    if (depth >= MAX_CONFIG_DEPTH) {
      throw tooDeep();
    }
    for (const [k, child] of Object.entries(v)) {
      const where = at === '' ? k : `${at}.${k}`;
      if (k === '__proto__' && !Array.isArray(v)) {
        throw new UserError(
          'cloud-config',
          `failed to read the cloud.conf: "${where}" is a key JavaScript reads as an object's prototype; remove it`,
        );
      }
      stack.push([child, where, depth + 1]);
    }
  }
}

/**
 * JSON.parse with the limits: nesting bounded first; numbers outside the
 * float64 range (`1e400`, which JSON.parse makes Infinity and JSON.stringify
 * writes as null) and `__proto__` keys refused. Throws a UserError of kind 'cloud-config'; SyntaxError passes through.
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
    throw new UserError(
      'cloud-config',
      `failed to read the cloud.conf: "${bad}" is a number outside the float64 range (it would be written as null); give a number in range`,
    );
  }
  refuseHostileData(value);
  return value;
}
