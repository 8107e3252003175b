import { Document, stringify } from 'yaml';

/**
 * A fast YAML emitter for plain JSON data (what cdk8s `toJson()` returns),
 * byte-identical to `yaml` (eemeli/yaml@v2.9.1)
 * `stringify(value, { keepUndefined: true, lineWidth: 0, version: '1.1', aliasDuplicateObjects: false })`.
 *
 * Why: building the `yaml` Document (createNode, Pair, Scalar, tag look-ups
 * per node) was most of a cluster's render CPU. The objects we
 * write are plain maps, lists, strings, numbers, booleans and null, so their
 * YAML can be written directly, following the same rules.
 *
 * The rules are those of the published yaml@2.9.1 (npm; built from eemeli/yaml
 * src/stringify/), read in its dist/stringify/ (stringify.js,
 * stringifyCollection.js, stringifyPair.js, stringifyString.js,
 * stringifyNumber.js, stringifyDocument.js), dist/nodes/YAMLMap.js,
 * dist/nodes/YAMLSeq.js and dist/doc/createNode.js, with these options:
 * - `lineWidth: 0`: foldFlowLines returns its input unchanged and
 *   lineLengthOverLimit is false, so strings are never folded and a block
 *   scalar is always literal (`|`), never folded (`>`);
 * - `version: '1.1'`: a plain string that a YAML 1.1 tag other than `!!str`
 *   would resolve (null, bool, int, float, sexagesimal, timestamp, merge) is
 *   quoted, and (`customTags`) one the YAML 1.2 core schema would (`0o17`); the tests are read from the `yaml` package's own 1.1 schema below
 *   (not copied), so they cannot drift;
 * - `keepUndefined: true`: `undefined` is written as `null`, in maps and lists;
 * - no comments, anchors, tags or flow collections (plain JSON data has none),
 *   except the empty `{}` and `[]`.
 *
 * Anything outside what is written here falls back to `stringify` for the
 * WHOLE document (see {@link canEmitFast}): class instances, Array subclasses, Map/Set/Date,
 * bigint, symbols, functions (so also a `toJSON` method, which the `yaml`
 * package would call), a top-level scalar, the string `<<` (the 1.1
 * merge key, which the `yaml` package writes plain as a value), and a key
 * longer than 1024 characters once written (the `yaml` package then writes an
 * explicit `? key`). test/yaml-emitter.test.ts compares both, on every object
 * the example fleet renders, on a table of tricky cases and on random data.
 */
export const EMITTER_YAML_OPTIONS = {
  keepUndefined: true,
  lineWidth: 0,
  version: '1.1',
  aliasDuplicateObjects: false,
  customTags: yaml12Tests(),
} as const;

/**
 * The YAML 1.2 core schema's implicit tags (other than `!!str`), added to the
 * 1.1 schema for their tests only: kustomize, Argo CD and Flux read YAML 1.2,
 * where a plain `0o17` is the integer 15, so such a string must be quoted too.
 * Read from the `yaml` package's own 1.2 schema; without `identify` they never
 * write a value, so numbers and booleans are written as before.
 */
function yaml12Tests(): { tag: string; default: true; test: RegExp; resolve: (s: string) => unknown }[] {
  const schema = new Document(null, { version: '1.2' }).schema as unknown as {
    tags: readonly { default?: unknown; tag: string; test?: RegExp; resolve: (s: string) => unknown }[];
  };
  return schema.tags
    .filter((t) => t.default && t.tag !== 'tag:yaml.org,2002:str' && t.test)
    .map((t) => ({ tag: t.tag, default: true, test: t.test!, resolve: t.resolve }));
}

/** How many documents were written by the fast path, and how many fell back to `yaml`'s `stringify`. */
export const emitterStats = { fast: 0, fallback: 0 };

/** Thrown by the writers when the fast path cannot write a value exactly. */
class Unsupported extends Error {}
const UNSUPPORTED = new Unsupported('value not supported by the fast YAML emitter');

/**
 * YAML of `value`, exactly as
 * `stringify(value, { keepUndefined: true, lineWidth: 0, version: '1.1', aliasDuplicateObjects: false })`.
 */
export function emitYaml(value: unknown): string {
  const fast = tryEmit(value);
  if (fast !== undefined) {
    emitterStats.fast++;
    return fast;
  }
  emitterStats.fallback++;
  return stringify(value, EMITTER_YAML_OPTIONS);
}

/** Whether {@link emitYaml} writes `value` itself (true) or hands it to `yaml`'s `stringify` (false). */
export function canEmitFast(value: unknown): boolean {
  return tryEmit(value) !== undefined;
}

function tryEmit(value: unknown): string | undefined {
  try {
    if (isPlainArray(value)) {
      return `${value.length === 0 ? '[]' : seqBody(value, '')}\n`;
    }
    if (isPlainObject(value)) {
      const keys = Object.keys(value);
      return `${keys.length === 0 ? '{}' : mapBody(value, keys, '')}\n`;
    }
    return undefined; // a top-level scalar has its own rules (document markers, no indent): not needed here
  } catch (e) {
    if (e instanceof Unsupported) {
      return undefined;
    }
    throw e;
  }
}

function isPlainArray(value: unknown): value is readonly unknown[] {
  // not a subclass: the yaml package walks a list with its iterator, which a subclass may change
  return Array.isArray(value) && Object.getPrototypeOf(value) === Array.prototype;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') {
    return false;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

const INDENT_STEP = '  ';

/**
 * A block map at `indent` (the indent of its keys), without the indent of its
 * first line (stringifyCollection: items joined with `\n` + indent).
 */
function mapBody(obj: Record<string, unknown>, keys: readonly string[], indent: string): string {
  // stringifyPair: key and value are written with indent + indentStep
  const inner = indent + INDENT_STEP;
  let out = '';
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const k = stringOf(key, true, inner);
    if (k.length > 1024) {
      throw UNSUPPORTED; // the yaml package writes an explicit key `? ...`
    }
    if (i > 0) {
      out += `\n${indent}`;
    }
    out += `${k}:${valueAfterKey(obj[key], inner)}`;
  }
  return out;
}

/** What follows `key:` for a value whose nodes sit at `indent`. */
function valueAfterKey(value: unknown, indent: string): string {
  if (isPlainArray(value)) {
    // an empty collection is written flow (`[]`) on the key's line; a block one on the next line
    return value.length === 0 ? ' []' : `\n${indent}${seqBody(value, indent)}`;
  }
  if (isPlainObject(value)) {
    const keys = Object.keys(value);
    return keys.length === 0 ? ' {}' : `\n${indent}${mapBody(value, keys, indent)}`;
  }
  return ` ${scalarOf(value, indent)}`;
}

/** A block sequence at `indent` (the indent of its `- `), without the indent of its first line. */
function seqBody(items: readonly unknown[], indent: string): string {
  // YAMLSeq.toString: itemIndent = indent + '  ', each item prefixed with '- '
  const inner = indent + INDENT_STEP;
  let out = '';
  // a plain loop, not for..of: holes in sparse arrays are undefined, as the yaml package's iteration gives them
  for (let i = 0; i < items.length; i++) {
    if (i > 0) {
      out += `\n${indent}`;
    }
    const item = items[i];
    if (isPlainArray(item)) {
      out += item.length === 0 ? '- []' : `- ${seqBody(item, inner)}`;
    } else if (isPlainObject(item)) {
      const keys = Object.keys(item);
      out += keys.length === 0 ? '- {}' : `- ${mapBody(item, keys, inner)}`;
    } else {
      out += `- ${scalarOf(item, inner)}`;
    }
  }
  return out;
}

/** A scalar value (never a key) whose node sits at `indent`. */
function scalarOf(value: unknown, indent: string): string {
  switch (typeof value) {
    case 'string':
      return stringOf(value, false, indent);
    case 'number':
      // stringifyNumber (int and float tags of the 1.1 schema, no format, no minFractionDigits)
      if (!Number.isFinite(value)) {
        return Number.isNaN(value) ? '.nan' : value < 0 ? '-.inf' : '.inf';
      }
      return Object.is(value, -0) ? '-0' : JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
      return 'null'; // keepUndefined: the null tag writes nullStr
    case 'object':
      if (value === null) {
        return 'null';
      }
      throw UNSUPPORTED;
    default:
      throw UNSUPPORTED; // bigint, symbol, function
  }
}

// ---------------------------------------------------------------- strings

/**
 * The YAML 1.1 tags (other than `!!str`) whose `test` makes a plain string
 * ambiguous, read from the yaml package's own schema for these options
 * (plainString's `actualString` check: `tag.default && tag.tag !== str && tag.test`).
 */
const AMBIGUOUS_TESTS: readonly RegExp[] = (() => {
  const schema = new Document(null, EMITTER_YAML_OPTIONS).schema as unknown as {
    tags: readonly { default?: unknown; tag: string; test?: RegExp }[];
    compat?: readonly { default?: unknown; tag: string; test?: RegExp }[] | null;
  };
  return [...schema.tags, ...(schema.compat ?? [])].filter((t) => t.default && t.tag !== 'tag:yaml.org,2002:str' && t.test).map((t) => t.test!);
})();

function resolvesAsNonString(str: string): boolean {
  for (const test of AMBIGUOUS_TESTS) {
    if (test.test(str)) {
      return true;
    }
  }
  return false;
}

// stringifyString: control characters and unpaired surrogates force double quotes
const FORCE_DOUBLE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u{D800}-\u{DFFF}]/u;
// plainString: what a plain scalar may not contain or start/end with
const NOT_PLAIN = /^[\n\t ,[\]{}#&*!|>'"%@`]|^[?-]$|^[?-][ \t]|[\n:][ \t]|[ \t]\n|[\n\t ]#|[\n\t :]$/;
const DOCUMENT_MARKER = /^(%|---|\.\.\.)/m;

/**
 * A string node at `indent` (never the empty top-level indent), as a key
 * (`implicitKey`) or a value. stringifyString with type unset and the
 * default `PLAIN` string type, lineWidth 0.
 */
function stringOf(value: string, implicitKey: boolean, indent: string): string {
  const cached = SINGLE_LINE.get(value);
  if (cached !== undefined) {
    return cached;
  }
  const written = writeString(value, implicitKey, indent);
  if (!value.includes('\n') && !DOCUMENT_MARKER.test(value)) {
    // A single-line string without a document marker is written the same as a key or a
    // value at any indent: plain, or quoted on one line (indent only follows a newline,
    // implicitKey only changes newline handling, the marker rule alone reads the indent).
    if (SINGLE_LINE.size >= SINGLE_LINE_MAX) {
      SINGLE_LINE.clear();
    }
    SINGLE_LINE.set(value, written);
  }
  return written;
}

/** Written single-line strings (keys and values repeat across objects and clusters). */
const SINGLE_LINE = new Map<string, string>();
const SINGLE_LINE_MAX = 20_000;

function writeString(value: string, implicitKey: boolean, indent: string): string {
  if (value === '<<') {
    // the 1.1 merge key: the yaml package gives this node the merge tag (written plain); not worth mirroring
    throw UNSUPPORTED;
  }
  if (FORCE_DOUBLE.test(value)) {
    return doubleQuoted(value, implicitKey, indent);
  }
  return plain(value, implicitKey, indent);
}

function plain(value: string, implicitKey: boolean, indent: string): string {
  const multiLine = value.includes('\n');
  if (implicitKey && multiLine) {
    return quoted(value, implicitKey, indent);
  }
  if (NOT_PLAIN.test(value)) {
    return implicitKey || !multiLine ? quoted(value, implicitKey, indent) : block(value, implicitKey, indent);
  }
  if (!implicitKey && multiLine) {
    // multi-line strings prefer block style
    return block(value, implicitKey, indent);
  }
  // single-line from here on
  if (DOCUMENT_MARKER.test(value) && implicitKey && indent === INDENT_STEP) {
    // (indent is never '' here: the top-level scalar is not written by the fast path)
    return quoted(value, implicitKey, indent);
  }
  if (resolvesAsNonString(value)) {
    return quoted(value, implicitKey, indent);
  }
  return value;
}

function quoted(value: string, implicitKey: boolean, indent: string): string {
  // singleQuote option unset: single quotes only for a string with " and no '
  const hasDouble = value.includes('"');
  const hasSingle = value.includes("'");
  return hasDouble && !hasSingle ? singleQuoted(value, implicitKey, indent) : doubleQuoted(value, implicitKey, indent);
}

function singleQuoted(value: string, implicitKey: boolean, indent: string): string {
  if ((implicitKey && value.includes('\n')) || /[ \t]\n|\n[ \t]/.test(value)) {
    return doubleQuoted(value, implicitKey, indent);
  }
  // ctx.indent is never empty here, so no document-marker indent
  return `'${value.replace(/'/g, "''").replace(/\n+/g, `$&\n${indent}`)}'`;
}

/** doubleQuotedString with doubleQuotedAsJSON false, doubleQuotedMinMultiLineLength 40, no folding. */
function doubleQuoted(value: string, implicitKey: boolean, indent: string): string {
  const json = JSON.stringify(value);
  if (json.indexOf('\\') === -1) {
    return json;
  }
  let str = '';
  let start = 0;
  for (let i = 0, ch = json[i]; ch; ch = json[++i]) {
    if (ch === ' ' && json[i + 1] === '\\' && json[i + 2] === 'n') {
      // a space before a newline is escaped
      str += `${json.slice(start, i)}\\ `;
      i += 1;
      start = i;
      ch = '\\';
    }
    if (ch === '\\') {
      switch (json[i + 1]) {
        case 'u': {
          str += json.slice(start, i);
          const code = json.substr(i + 2, 4);
          switch (code) {
            case '0000':
              str += '\\0';
              break;
            case '0007':
              str += '\\a';
              break;
            case '000b':
              str += '\\v';
              break;
            case '001b':
              str += '\\e';
              break;
            case '0085':
              str += '\\N';
              break;
            case '00a0':
              str += '\\_';
              break;
            case '2028':
              str += '\\L';
              break;
            case '2029':
              str += '\\P';
              break;
            default:
              str += code.substr(0, 2) === '00' ? `\\x${code.substr(2)}` : json.substr(i, 6);
          }
          i += 5;
          start = i + 1;
          break;
        }
        case 'n':
          if (implicitKey || json[i + 2] === '"' || json.length < 40) {
            i += 1;
          } else {
            // a line break is written as an empty line (folding eats the first newline)
            str += `${json.slice(start, i)}\n\n`;
            while (json[i + 2] === '\\' && json[i + 3] === 'n' && json[i + 4] !== '"') {
              str += '\n';
              i += 2;
            }
            str += indent;
            // a space after a newline is escaped
            if (json[i + 2] === ' ') {
              str += '\\';
            }
            i += 1;
            start = i + 1;
          }
          break;
        default:
          i += 1;
      }
    }
  }
  return start ? str + json.slice(start) : json;
}

/** blockString with blockQuote true, lineWidth 0 (always literal), no comment. */
function block(value: string, implicitKey: boolean, indent: string): string {
  if (/\n[\t ]+$/.test(value)) {
    return quoted(value, implicitKey, indent);
  }
  if (!value) {
    return '|\n';
  }
  let endStart: number;
  for (endStart = value.length; endStart > 0; --endStart) {
    const ch = value[endStart - 1];
    if (ch !== '\n' && ch !== '\t' && ch !== ' ') {
      break;
    }
  }
  let end = value.substring(endStart);
  const endNlPos = end.indexOf('\n');
  let chomp: string;
  if (endNlPos === -1) {
    chomp = '-'; // strip
  } else if (value === end || endNlPos !== end.length - 1) {
    chomp = '+'; // keep
  } else {
    chomp = ''; // clip
  }
  let body = value;
  if (end) {
    body = body.slice(0, -end.length);
    if (end[end.length - 1] === '\n') {
      end = end.slice(0, -1);
    }
    end = end.replace(BLOCK_END_NEWLINES, `$&${indent}`);
  }
  let startWithSpace = false;
  let startEnd: number;
  let startNlPos = -1;
  for (startEnd = 0; startEnd < body.length; ++startEnd) {
    const ch = body[startEnd];
    if (ch === ' ') {
      startWithSpace = true;
    } else if (ch === '\n') {
      startNlPos = startEnd;
    } else {
      break;
    }
  }
  let start = body.substring(0, startNlPos < startEnd ? startNlPos + 1 : startEnd);
  if (start) {
    body = body.substring(start.length);
    start = start.replace(/\n+/g, `$&${indent}`);
  }
  // indent is never '' here (no top-level scalar), so the indentation indicator is 2
  const header = (startWithSpace ? '2' : '') + chomp;
  body = body.replace(/\n+/g, `$&${indent}`);
  return `|${header}\n${indent}${start}${body}${end}`;
}

const BLOCK_END_NEWLINES = /(^|(?<!\n))\n+(?!\n|$)/g;
