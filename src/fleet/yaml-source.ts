// Reading a spec or defaults file as YAML within bounds (size, depth, aliases, keys, UTF-8) and locating a field's line.
import * as fs from 'fs';
import { depthOf, PROTO_KEY_REFUSED } from '../util/bounded-yaml';
import { Composer, CST, Document, LineCounter, isMap, isPair, isScalar, isSeq, Node, YAMLParseError } from 'yaml';
import { describeValue, SpecIssue } from '../cluster-spec/errors';
import { credentialHomeOf } from '../distribution-facts';
import { secretInYamlComments, taggedCredential, YamlTokens, yamlTokens } from '../secrets/yaml-findings';

/** Largest spec or cloud config file read, in bytes. */
export const MAX_INPUT_BYTES = 1024 * 1024;
/** Deepest nesting of mappings and lists a spec may have (the schema needs 7). */
const MAX_DEPTH = 16;
/** Most YAML aliases one spec may expand (guards against alias bombs). */
const MAX_ALIASES = 50;
/** Most mapping entries one spec or defaults file may have, checked before anything else walks them (the example specs have under 100). */
export const MAX_KEYS = 2000;

/** A parsed YAML input file. */
export interface YamlSource {
  readonly file: string;
  readonly doc: Document;
  readonly lines: LineCounter;
  readonly data: Record<string, unknown>;
}

/** The number of mapping entries and list items of a document and the offset of the first duplicate key, in one pass (Set per mapping). */
function mappingShape(doc: Document): { entries: number; duplicate?: number; proto?: number } {
  let entries = 0;
  let duplicate: number | undefined;
  let proto: number | undefined;
  const stack: unknown[] = [doc.contents];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        entries++;
        if (isScalar(pair.key)) {
          const k = `${typeof pair.key.value}:${String(pair.key.value)}`;
          if (seen.has(k) && duplicate === undefined && pair.key.range) {
            duplicate = pair.key.range[0];
          }
          seen.add(k);
          if (pair.key.value === '__proto__' && proto === undefined) {
            proto = pair.key.range?.[0] ?? 0;
          }
        } else if (pair.key) {
          stack.push(pair.key);
        }
        stack.push(pair.value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) {
        entries++;
        stack.push(item);
      }
    }
  }
  return { entries, duplicate, proto };
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The first document of a syntax tree, as `parseDocument` composes it
 * (eemeli/yaml@v2.9.1 src/public-api.ts): a second document is the error
 * MULTIPLE_DOCS on the first. uniqueKeys off: the library's own check is
 * quadratic in the keys, so duplicates are found in one pass (mappingShape);
 * logLevel error: a collection used as a key is a field problem, not a Node
 * process warning.
 */
function firstDocument(tokens: readonly CST.Token[], length: number): Document {
  let doc: Document | undefined;
  for (const next of new Composer({ uniqueKeys: false, strict: true, logLevel: 'error' }).compose(tokens, true, length)) {
    if (doc === undefined) {
      doc = next;
    } else {
      doc.errors.push(new YAMLParseError([next.range[0], next.range[1]], 'MULTIPLE_DOCS', 'Source contains multiple documents'));
      break;
    }
  }
  // compose(…, true, …) ends with a document, even for an empty text
  return doc!;
}

/** Reads and parses one YAML input: one mapping document, aliases bounded. */
export function readYamlSource(file: string): { source: YamlSource } | { issue: SpecIssue } {
  const text = readInput(file);
  if (typeof text !== 'string') {
    return { issue: text };
  }
  let parsed: YamlTokens;
  let doc: Document;
  try {
    // parsed once: the Document and the comment check read the same syntax tree
    parsed = yamlTokens(text);
    doc = firstDocument(parsed.tokens, text.length);
  } catch (e) {
    return { issue: { file, path: '', message: `cannot be parsed as YAML: ${(e as Error).message}` } };
  }
  const { lines } = parsed;
  if (doc.errors.length > 0) {
    const err = doc.errors[0];
    if (/Maximum call stack size exceeded/.test(err.message)) {
      return {
        issue: { file, path: '', message: `nests deeper than the YAML reader can follow; a cluster spec is at most ${MAX_DEPTH} levels deep` },
      };
    }
    const multi = err.code === 'MULTIPLE_DOCS';
    return {
      issue: {
        file,
        path: '',
        line: lines.linePos(err.pos[0]).line,
        message: multi
          ? 'holds more than one YAML document; put one cluster spec per file'
          : `is not valid YAML: ${err.message.split('\n')[0]}; fix the syntax at this line`,
      },
    };
  }
  const shape = mappingShape(doc);
  if (shape.entries > MAX_KEYS) {
    return {
      issue: { file, path: '', message: `has ${shape.entries} keys and list items, over the limit of ${MAX_KEYS}; a cluster spec has a few dozen` },
    };
  }
  if (shape.duplicate !== undefined) {
    return {
      issue: {
        file,
        path: '',
        line: lines.linePos(shape.duplicate).line,
        message: 'is not valid YAML: Map keys must be unique; fix the syntax at this line',
      },
    };
  }
  if (shape.proto !== undefined) {
    // built into an object, the key sets its prototype (or is dropped) instead of being read as a field
    return {
      issue: {
        file,
        path: '',
        line: lines.linePos(shape.proto).line,
        message: PROTO_KEY_REFUSED,
      },
    };
  }
  const hidden = hiddenCredential(text, doc, parsed);
  if (hidden) {
    return { issue: { file, ...hidden } };
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (e) {
    return { issue: { file, path: '', message: `cannot be read: ${(e as Error).message}; expand the YAML aliases by hand` } };
  }
  if (data === null || data === undefined) {
    return { issue: { file, path: '', message: 'is empty; write a CloudControllerManagerCluster spec (see the README)' } };
  }
  if (!isPlainObject(data)) {
    return { issue: { file, path: '', message: `must be a YAML mapping, got ${describeValue(data)}; write a CloudControllerManagerCluster spec` } };
  }
  if (depthOf(data, MAX_DEPTH) > MAX_DEPTH) {
    return {
      issue: {
        file,
        path: '',
        message: `nests more than ${MAX_DEPTH} levels deep; a cluster spec is at most ${MAX_DEPTH} levels deep, so this is not one`,
      },
    };
  }
  return { source: { file, doc, lines, data } };
}

/**
 * The spec fields whose names read as a credential's but hold a name or a
 * switch (the schema's; test/hostile-credentials.test.ts keeps the list equal
 * to it): commented out, they are no credential.
 */
export const SPEC_FIELDS_NAMED_LIKE_CREDENTIALS: ReadonlySet<string> = new Set([
  'existingSecret',
  'imagePullSecrets',
  'secret',
  'useServiceAccountCredentials',
]);

/**
 * A credential the parsed data would not show: in a comment (committed with the
 * spec), or behind a tag (`!!binary` bytes, any tag on a credential key). Says
 * where and what it looks like, never the value.
 */
function hiddenCredential(text: string, doc: Document, parsed: YamlTokens): Omit<SpecIssue, 'file'> | undefined {
  // a spec that names its distribution and platform: the fix says where that platform's credentials belong
  const home = credentialHomeOf({ spec: { distribution: scalarAt(doc, 'distribution'), platform: scalarAt(doc, 'platform') } });
  const never = home ? `${home}, and credentials never go into git` : undefined;
  const comment = secretInYamlComments(text, SPEC_FIELDS_NAMED_LIKE_CREDENTIALS, parsed);
  if (comment) {
    return {
      path: '',
      line: comment.line,
      message: `a comment looks like a credential (${comment.reason}); remove it: comments are committed to git with the spec${never ? `; ${never}` : ', and credentials never go into git'}`,
    };
  }
  const tagged = taggedCredential(doc, parsed.lines);
  if (tagged) {
    return {
      path: tagged.key,
      line: tagged.line,
      message:
        tagged.tag === '!!binary'
          ? `has the tag !!binary, whose bytes no check reads; a spec holds text: remove the tag${never ? `; ${never}` : ', and keep credentials in a Secret'}`
          : `has ${tagged.tag === 'a custom tag' ? tagged.tag : `the tag ${tagged.tag}`} on a key that names a credential; remove the value: ${never ?? 'credentials never go into git, keep them in a Secret'}`,
    };
  }
  return undefined;
}

/** A plain value of `spec.<key>` in a YAML document, when it is one. */
function scalarAt(doc: Document, key: string): unknown {
  const node = doc.getIn(['spec', key], true);
  return isScalar(node) ? node.value : undefined;
}

/** Where a field of a merged spec comes from: the first source (spec, then deeper defaults) that sets it. */
export function locate(fieldPath: readonly (string | number)[], sources: readonly YamlSource[]): { file: string; line?: number } {
  for (const src of sources) {
    if (fieldPath.length > 0 && src.doc.hasIn(fieldPath)) {
      return { file: src.file, line: lineOf(src.doc, src.lines, fieldPath) };
    }
  }
  const spec = sources[0];
  return { file: spec.file, line: lineOf(spec.doc, spec.lines, fieldPath) };
}

/** Reads a text input; returns an issue instead of throwing. */
export function readInput(file: string): string | SpecIssue {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return { file, path: '', message: 'cannot be read: file not found' };
  }
  if (!stat.isFile()) {
    return { file, path: '', message: 'is not a regular file' };
  }
  if (stat.size > MAX_INPUT_BYTES) {
    return { file, path: '', message: `is ${stat.size} bytes, over the ${MAX_INPUT_BYTES}-byte limit; inputs are small text files` };
  }
  let buffer: Buffer;
  try {
    buffer = fs.readFileSync(file);
  } catch (e) {
    return { file, path: '', message: `cannot be read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
  }
  if (buffer.includes(0)) {
    return { file, path: '', message: 'is binary (contains NUL bytes); inputs must be UTF-8 text' };
  }
  try {
    // fatal: a Latin-1 byte is refused, not turned into U+FFFD in the rendered output
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(buffer);
  } catch {
    const offset = firstInvalidUtf8(buffer);
    const line = buffer.subarray(0, offset).toString('latin1').split('\n').length;
    return {
      file,
      path: '',
      line,
      message: `is not UTF-8 text (byte 0x${buffer[offset].toString(16).toUpperCase().padStart(2, '0')} at offset ${offset}, e.g. Latin-1); save it as UTF-8`,
    };
  }
}

/** Offset of the first byte that is not part of a valid UTF-8 sequence. */
function firstInvalidUtf8(buffer: Buffer): number {
  let i = 0;
  while (i < buffer.length) {
    const b = buffer[i];
    const n = b < 0x80 ? 0 : b >= 0xc2 && b < 0xe0 ? 1 : b >= 0xe0 && b < 0xf0 ? 2 : b >= 0xf0 && b < 0xf5 ? 3 : -1;
    if (n < 0) {
      return i;
    }
    for (let k = 1; k <= n; k++) {
      if (i + k >= buffer.length || (buffer[i + k] & 0xc0) !== 0x80) {
        return i;
      }
    }
    i += n + 1;
  }
  return 0;
}

/**
 * 1-based line of a field: the line of its key when the last path segment is
 * a key of a mapping (also when the key is unknown or the value a block),
 * else of the node itself; falls back to the nearest existing parent.
 */
export function lineOf(doc: Document, lines: LineCounter, fieldPath: readonly (string | number)[]): number | undefined {
  for (let depth = fieldPath.length; depth >= 0; depth--) {
    const prefix = fieldPath.slice(0, depth);
    const last = prefix[prefix.length - 1];
    if (typeof last === 'string') {
      const parentPath = prefix.slice(0, -1);
      const parent = parentPath.length ? doc.getIn(parentPath, true) : doc.contents;
      if (isMap(parent)) {
        const pair = parent.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === last);
        const keyNode = pair?.key as Node | undefined;
        if (keyNode?.range) {
          return lines.linePos(keyNode.range[0]).line;
        }
      }
    }
    const node = (prefix.length ? doc.getIn(prefix, true) : doc.contents) as Node | undefined;
    if (node && typeof node === 'object' && node.range) {
      return lines.linePos(node.range[0]).line;
    }
  }
  return undefined;
}
