import { z } from 'zod';
import { describeValue } from './errors';
import { hintFor } from './hints';
import { retiredFieldMessage } from '../spec-migrations/migrate-spec';

/** A schema problem turned into a path and a user-facing message. */
export interface SchemaProblem {
  /** Path of the offending field. */
  readonly path: (string | number)[];
  /** Message naming the bad value and the fix. */
  readonly message: string;
}

/** Turns zod issues into problems with messages that name the value and the fix. */
export function schemaProblems(schema: z.ZodType, issues: readonly z.core.$ZodIssue[]): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  for (const issue of issues) {
    const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
    const input = (issue as { input?: unknown }).input;
    if (issue.code === 'unrecognized_keys') {
      const known = knownKeysAt(schema, path);
      for (const key of issue.keys) {
        const suggestion = closest(key, known);
        const fix = suggestion ? `did you mean "${suggestion}"?` : `remove it${known.length ? ` (known fields: ${known.join(', ')})` : ''}`;
        problems.push({ path: [...path, key], message: retiredFieldMessage([...path, key]) ?? `unknown field; ${fix}` });
      }
      continue;
    }
    let message: string;
    switch (issue.code) {
      case 'invalid_type':
        message = input === undefined ? 'is required' : `expected ${issue.expected}, got ${describeValue(input)}`;
        break;
      case 'invalid_value':
        message =
          input === undefined
            ? `is required; expected ${issue.values.length === 1 ? describeValue(issue.values[0]) : `one of: ${issue.values.map((v) => String(v)).join(', ')}`}`
            : `${describeValue(input)} is not allowed; expected ${issue.values.length === 1 ? describeValue(issue.values[0]) : `one of: ${issue.values.map((v) => String(v)).join(', ')}`}`;
        break;
      case 'invalid_format':
        message = `${describeValue(input)} ${issue.message}`;
        break;
      case 'too_small':
        message =
          issue.origin === 'string' && Number(issue.minimum) === 1
            ? 'must not be empty'
            : `${describeValue(input)} is too small (minimum ${String(issue.minimum)})`;
        break;
      case 'too_big':
        message = `${describeValue(input)} ${issue.message}`;
        break;
      case 'invalid_key': {
        // a map key of the wrong shape: the key's own check says what is wrong
        const inner = issue.issues[0];
        message = `${describeValue(input)} ${inner?.message ?? 'is not an allowed key'}`;
        break;
      }
      default:
        message = `${describeValue(input)}: ${issue.message}`;
    }
    const hint = hintFor(path);
    problems.push({ path, message: hint ? `${message}; ${hint}` : message });
  }
  return problems;
}

interface Def {
  readonly type: string;
  readonly shape?: Record<string, z.ZodType>;
  readonly innerType?: z.ZodType;
  readonly element?: z.ZodType;
}

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/** The field names the schema accepts at a path (for "did you mean"). */
export function knownKeysAt(schema: z.ZodType, path: readonly (string | number)[]): string[] {
  let current: z.ZodType | undefined = schema;
  const unwrap = (s: z.ZodType): z.ZodType => {
    let d = defOf(s);
    while (d.innerType && ['optional', 'default', 'prefault', 'nullable', 'readonly'].includes(d.type)) {
      s = d.innerType;
      d = defOf(s);
    }
    return s;
  };
  for (const segment of path) {
    if (!current) {
      return [];
    }
    const def = defOf(unwrap(current));
    if (def.type === 'object' && typeof segment === 'string') {
      current = (def.shape ?? {})[segment];
    } else if (def.type === 'array') {
      current = def.element;
    } else {
      return [];
    }
  }
  if (!current) {
    return [];
  }
  const def = defOf(unwrap(current));
  return def.type === 'object' ? Object.keys(def.shape ?? {}) : [];
}

/** The known key closest to a misspelt one, if it is close enough. */
export function closest(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = candidate.toLowerCase() === key.toLowerCase() ? 0 : distance(key.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return bestDistance <= Math.max(2, Math.floor(key.length / 4)) ? best : undefined;
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_v, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const saved = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = saved;
    }
  }
  return row[b.length];
}
