/**
 * Credentials a YAML text hides from a check of its parsed data: in its
 * comments (a comment is committed with the file), and behind an explicit tag
 * (`password: !!binary …` parses to bytes, not a string). Both report where,
 * never the value.
 */
import { CST, Document, LineCounter, Parser, isPair, isScalar, visit } from 'yaml';
import { classifyKey, findSecretInIni, LocatedFinding, secretInValue } from './detector';

/** A comment of a YAML text: its offset and source (with its `#`). */
interface Comment {
  readonly offset: number;
  readonly source: string;
}

/**
 * A YAML text's concrete syntax tree and the line counter filled while parsing
 * it: a reader that composes its Document from these tokens hands them here,
 * so the text is parsed once.
 */
export interface YamlTokens {
  readonly tokens: readonly CST.Token[];
  readonly lines: LineCounter;
}

/** Parses a YAML text to its concrete syntax tree, counting its lines. */
export function yamlTokens(text: string): YamlTokens {
  const lines = new LineCounter();
  return { tokens: [...new Parser(lines.addNewLine).parse(text)], lines };
}

/** The comments of a YAML text in source order, read from its concrete syntax tree (a `#` in a block scalar is text, not a comment). Iterative. */
function yamlComments(tokens: readonly CST.Token[]): Comment[] {
  const comments: Comment[] = [];
  const stack: unknown[] = [...tokens];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      stack.push(...(node as unknown[]));
    } else if (node !== null && typeof node === 'object') {
      const token = node as { type?: unknown; offset?: unknown; source?: unknown };
      if (token.type === 'comment' && typeof token.offset === 'number' && typeof token.source === 'string') {
        comments.push({ offset: token.offset, source: token.source });
      }
      for (const value of Object.values(node)) {
        if (value !== null && typeof value === 'object') {
          stack.push(value);
        }
      }
    }
  }
  return comments.sort((a, b) => a.offset - b.offset);
}

/**
 * The first credential in a comment of a YAML text, with its 1-based line: each
 * comment is read as a commented-out `key: value` line is in an INI config (a
 * credential-named key over one word, or a value of a credential's shape; prose
 * passes). `fieldNames` are the format's own fields whose names read as a
 * credential's (`existingSecret`): commented out, only their value is read.
 * `parsed` is the text's syntax tree when the caller has it ({@link yamlTokens}).
 */
export function secretInYamlComments(
  text: string,
  fieldNames: ReadonlySet<string> = new Set(),
  parsed: YamlTokens = yamlTokens(text),
): LocatedFinding | undefined {
  const { tokens, lines } = parsed;
  for (const comment of yamlComments(tokens)) {
    let found = findSecretInIni(comment.source);
    if (found?.key !== undefined && fieldNames.has(found.key) && found.reason === `"${found.key}" holds a credential`) {
      // a field of the file's own format commented out (`# existingSecret: ccm-creds`): its name is no credential, its value may be
      found = secretInValue(comment.source.slice(comment.source.indexOf(found.key) + found.key.length));
    }
    if (found) {
      return { ...found, line: lines.linePos(comment.offset).line };
    }
  }
  return undefined;
}

/** A value under a credential key, or any value, that carries an explicit tag hiding it from the checks. */
export interface TaggedValue {
  /** The dotted path of the key. */
  readonly key: string;
  /** A core tag in its short form (`!!binary`, `!!str`), or `a custom tag`. */
  readonly tag: string;
  /** 1-based line, when the document has a line counter. */
  readonly line?: number;
}

/** The core tags' long prefix, written back in the short form a user typed. */
const CORE_TAG_PREFIX = 'tag:yaml.org,2002:';

/**
 * The first value of a YAML document that an explicit tag hides: `!!binary`
 * anywhere (bytes pass no text check), and any tag (`!!str`, `!!binary`,
 * `!custom`) on the value of a key that names a credential (`password`,
 * `DB_PASSWORD_ENV`, `tokenFile`).
 */
export function taggedCredential(doc: Document, lines?: LineCounter): TaggedValue | undefined {
  let found: TaggedValue | undefined;
  visit(doc, {
    Pair(_key, pair, path) {
      const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
      const value = pair.value as { tag?: string; range?: [number, number, number] } | null;
      const tag = value?.tag;
      if (key === undefined || !tag || !(tag === `${CORE_TAG_PREFIX}binary` || classifyKey(key) !== 'plain')) {
        return undefined;
      }
      const keys = path.filter(isPair).map((p) => (isScalar(p.key) ? String(p.key.value) : '?'));
      found = {
        key: [...keys, key].join('.'),
        // a tag of the user's own is not repeated: it could be anything they typed
        tag: tag.startsWith(CORE_TAG_PREFIX) ? `!!${tag.slice(CORE_TAG_PREFIX.length)}` : 'a custom tag',
        line: lines && value?.range ? lines.linePos(value.range[0]).line : undefined,
      };
      return visit.BREAK;
    },
  });
  return found;
}

/**
 * Why a YAML document of a file read back (an exported object, a rendered
 * object) is refused for a tag that hides a value from the credential checks,
 * as a spec is; undefined when it has none. `what` names the document (`an exported object`).
 */
export function tagRefusal(doc: Document, lines: LineCounter | undefined, what: string): string | undefined {
  const tagged = taggedCredential(doc, lines);
  if (!tagged) {
    return undefined;
  }
  const where = `"${tagged.key}"${tagged.line === undefined ? '' : ` (line ${tagged.line})`}`;
  return tagged.tag === '!!binary'
    ? `${where} has the tag !!binary, whose bytes no check reads; ${what} holds text: remove the tag, and keep credentials in a Secret`
    : `${where} has ${tagged.tag === 'a custom tag' ? tagged.tag : `the tag ${tagged.tag}`} on a key that names a credential; ` +
        'remove the value: credentials never go into git, keep them in a Secret';
}
