import { UserError } from '../util/user-error';

/**
 * A reader for the INI dialect of gopkg.in/gcfg.v1, which the AWS cloud
 * provider and the operator use to read `cloud.conf`. It keeps what the
 * operator keeps and fails where gcfg fails:
 *
 * - section and variable names are case-insensitive (kept as written here;
 *   the caller folds them), subsection names are case-sensitive;
 * - `;` and `#` start a comment outside double quotes;
 * - values are trimmed, double quotes keep white space, escapes `\\ \" \n \t \b`
 *   and a trailing `\` continues the value on the next line;
 * - a variable without `=` has a blank value (true for booleans);
 * - repeated variables are all kept, in order (the caller decides whether
 *   the last wins or they accumulate).
 *
 * The `ini` package is not used here because it merges repeated keys by name
 * (losing their order relative to other keys), does not fold case, accepts
 * lines gcfg rejects, and reports no line numbers.
 */

/** One `name = value` line. */
export interface GcfgEntry {
  /** Variable name as written. */
  readonly name: string;
  /** The value, or null for a blank variable (no `=`). */
  readonly value: string | null;
  /** 1-based line number. */
  readonly line: number;
}

/** One `[section]` or `[section "subsection"]` block. */
export interface GcfgSection {
  /** Section name as written. */
  readonly name: string;
  /** Subsection name, when the header has one. */
  readonly subsection?: string;
  /** 1-based line number of the header. */
  readonly line: number;
  /** The variables, in file order. */
  readonly entries: GcfgEntry[];
}

const NAME = /^[A-Za-z][A-Za-z0-9-]*/;

/** Parses gcfg text; throws a UserError of kind 'cloud-config' with the line on a syntax error. */
export function parseGcfg(text: string): GcfgSection[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  const sections: GcfgSection[] = [];
  let current: GcfgSection | undefined;
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const line = lines[i].trim();
    if (line === '' || line.startsWith(';') || line.startsWith('#')) {
      continue;
    }
    if (line.startsWith('[')) {
      current = parseHeader(line, lineNo);
      sections.push(current);
      continue;
    }
    const nameMatch = NAME.exec(line);
    if (!nameMatch) {
      throw new UserError(
        'cloud-config',
        `line ${lineNo}: expected a section header or a variable name, got ${JSON.stringify(lines[i].trim())}`,
        lineNo,
      );
    }
    if (!current) {
      throw new UserError('cloud-config', `line ${lineNo}: expected section header before variable "${nameMatch[0]}"`, lineNo);
    }
    const name = nameMatch[0];
    let rest = line.slice(name.length).trimStart();
    if (rest === '' || rest.startsWith(';') || rest.startsWith('#')) {
      current.entries.push({ name, value: null, line: lineNo });
      continue;
    }
    if (!rest.startsWith('=')) {
      throw new UserError('cloud-config', `line ${lineNo}: expected "=" after variable name "${name}"`, lineNo);
    }
    rest = rest.slice(1);
    // Continuation lines: an unescaped backslash at the end of the raw line.
    let raw = rest;
    while (endsWithContinuation(raw) && i + 1 < lines.length) {
      raw = raw.slice(0, -1) + '\n' + lines[++i];
    }
    current.entries.push({ name, value: parseValue(raw, lineNo), line: lineNo });
  }
  return sections;
}

function endsWithContinuation(raw: string): boolean {
  // An odd number of trailing backslashes: the last one escapes the line break.
  const m = /\\+$/.exec(raw);
  return m !== null && m[0].length % 2 === 1;
}

function parseHeader(line: string, lineNo: number): GcfgSection {
  const m = /^\[\s*([A-Za-z][A-Za-z0-9.-]*)\s*(?:"((?:[^"\\]|\\.)*)"\s*)?\]\s*(?:[;#].*)?$/.exec(line);
  if (!m) {
    throw new UserError('cloud-config', `line ${lineNo}: invalid section header ${JSON.stringify(line)}`, lineNo);
  }
  let subsection: string | undefined;
  if (m[2] !== undefined) {
    subsection = m[2].replace(/\\(.)/g, (_all, c: string) => {
      if (c !== '"' && c !== '\\') {
        throw new UserError('cloud-config', `line ${lineNo}: invalid escape "\\${c}" in subsection name (only \\" and \\\\ are allowed)`, lineNo);
      }
      return c;
    });
  }
  return { name: m[1], subsection, line: lineNo, entries: [] };
}

const ESCAPES: Readonly<Record<string, string>> = { '\\': '\\', '"': '"', n: '\n', t: '\t', b: '\b' };

function parseValue(raw: string, lineNo: number): string {
  let out = '';
  let quoted = false;
  // Length of `out` up to which white space is protected from trimming.
  let keep = 0;
  let i = 0;
  const body = raw.replace(/^\s+/, '');
  while (i < body.length) {
    const c = body[i];
    if (c === '\\') {
      const next = body[i + 1];
      if (next === '\n') {
        i += 2;
        continue;
      }
      if (next === undefined || ESCAPES[next] === undefined) {
        throw new UserError('cloud-config', `line ${lineNo}: invalid escape sequence "\\${next ?? ''}" in value`, lineNo);
      }
      out += ESCAPES[next];
      keep = out.length;
      i += 2;
      continue;
    }
    if (c === '"') {
      quoted = !quoted;
      keep = out.length;
      i++;
      continue;
    }
    if (!quoted && (c === ';' || c === '#')) {
      break;
    }
    out += c;
    if (quoted) {
      keep = out.length;
    }
    i++;
  }
  if (quoted) {
    throw new UserError('cloud-config', `line ${lineNo}: unterminated quoted value`, lineNo);
  }
  // Trim trailing white space that is not protected by quotes or escapes.
  let end = out.length;
  while (end > keep && /\s/.test(out[end - 1])) {
    end--;
  }
  return out.slice(0, end);
}

/**
 * Writes a value so that gcfg (the reader of the AWS cloud provider) reads it
 * back unchanged. go-ini, which the operator writes with, quotes with
 * backticks or triple quotes that gcfg does not understand; plain values are
 * written the same way by both.
 */
export function quoteGcfgValue(value: string): string {
  if (!/[\\"#;\n\t\b]/.test(value) && value.trim() === value) {
    return value;
  }
  const escaped = value.replace(/[\\"\n\t\b]/g, (c) => ({ '\\': '\\\\', '"': '\\"', '\n': '\\n', '\t': '\\t', '\b': '\\b' })[c]!);
  return `"${escaped}"`;
}

/**
 * The text without its comments, as gcfg reads it: whole-line `;`/`#` lines
 * are dropped and an inline comment is cut where gcfg starts one (outside
 * double quotes, not escaped). A comment is not configuration, and a
 * commented-out value must not reach git. A text without comments is returned
 * as it is (line endings included). Linear in the text.
 */
export function withoutGcfgComments(text: string): string {
  const out: string[] = [];
  let changed = false;
  let continued = false;
  let quoted = false;
  for (const line of text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/)) {
    const trimmed = line.trim();
    if (!continued && (trimmed.startsWith(';') || trimmed.startsWith('#'))) {
      changed = true;
      continue;
    }
    if (!continued) {
      quoted = false;
    }
    let end = line.length;
    let escaped = false;
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if (escaped) {
        escaped = false;
      } else if (c === '\\') {
        escaped = true;
      } else if (c === '"') {
        quoted = !quoted;
      } else if (!quoted && (c === ';' || c === '#')) {
        end = i;
        break;
      }
    }
    continued = end === line.length && escaped;
    changed ||= end < line.length;
    out.push(end < line.length ? line.slice(0, end).trimEnd() : line);
  }
  return changed ? out.join('\n') : text;
}
