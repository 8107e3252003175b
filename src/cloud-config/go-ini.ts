import { quoteGcfgValue } from './gcfg';
import { UserError } from '../util/user-error';

/**
 * A reader for the INI dialect of gopkg.in/ini.v1 (go-ini) with the default
 * options the operator loads OpenStack configs with (`ini.Load`,
 * openshift/cluster-cloud-controller-manager-operator `pkg/cloud/openstack/openstack.go`),
 * following go-ini@v1.67.0 `parser.go`: case-sensitive names, `=` or `:`
 * between key and value, whole-line `#`/`;` comments, an inline comment cut at
 * the first `#` or `;`, then one pair of surrounding quotes removed, a trailing
 * backslash joining the next lines. The `ini` package reads this dialect
 * differently (it unquotes first and unescapes), so the lines are read here.
 */

/** One key of a section. */
export interface IniEntry {
  /** Key as written. */
  readonly key: string;
  /** Decoded value. */
  readonly value: string;
  /** 1-based line. */
  readonly line: number;
}

/** One section, keys in file order (a repeated key keeps its first place and its last value, as go-ini does). */
export interface IniSection {
  /** Section name; keys before any header go to section `DEFAULT`. */
  readonly name: string;
  /** 1-based line of the header (0 for `DEFAULT`). */
  readonly line: number;
  /** The keys. */
  readonly entries: IniEntry[];
}

/** Parses go-ini text into sections in file order; a repeated section is merged into its first occurrence. */
export function parseGoIni(text: string): IniSection[] {
  const sections: IniSection[] = [];
  const byName = new Map<string, IniSection>();
  const section = (name: string, line: number): IniSection => {
    let s = byName.get(name);
    if (!s) {
      s = { name, line, entries: [] };
      byName.set(name, s);
      sections.push(s);
    }
    return s;
  };
  let current = section('DEFAULT', 0);
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const line = lines[i].trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) {
      continue;
    }
    if (line.startsWith('[')) {
      const close = line.lastIndexOf(']');
      if (close < 0) {
        throw new UserError('cloud-config', `line ${lineNo}: unclosed section: ${line}`, lineNo);
      }
      const name = line.slice(1, close).trim();
      if (name === '') {
        throw new UserError('cloud-config', `line ${lineNo}: empty section name`, lineNo);
      }
      current = section(name, lineNo);
      continue;
    }
    const { key, rest } = readKey(line, lineNo);
    let value = rest.trim();
    if (value.endsWith('\\') && !/^("""|`)/.test(value)) {
      // go-ini joins continuation lines before it looks for an inline comment
      value = value.slice(0, -1);
      while (i + 1 < lines.length) {
        const next = lines[++i].trim();
        if (next === '') {
          break;
        }
        value += next;
        if (!value.endsWith('\\')) {
          break;
        }
        value = value.slice(0, -1);
      }
    }
    value = readValue(value, lineNo);
    const existing = current.entries.findIndex((e) => e.key === key);
    if (existing >= 0) {
      current.entries[existing] = { key, value, line: lineNo };
    } else {
      current.entries.push({ key, value, line: lineNo });
    }
  }
  return sections.filter((s) => s.name !== 'DEFAULT' || s.entries.length > 0);
}

/** The key of a `key = value` line (go-ini's `readKeyName`: a key may be quoted with `"`, `"""` or a backtick) and the text after the delimiter. */
function readKey(line: string, lineNo: number): { key: string; rest: string } {
  const quote = line.startsWith('"""') && line.length > 6 ? '"""' : line.startsWith('"') ? '"' : line.startsWith('`') ? '`' : '';
  if (quote !== '') {
    const close = line.indexOf(quote, quote.length);
    const delimiter = close < 0 ? -1 : line.slice(close + quote.length).search(/[=:]/);
    if (close < 0 || delimiter < 0) {
      throw new UserError(
        'cloud-config',
        `line ${lineNo}: ${close < 0 ? 'missing closing key quote' : 'key-value delimiter not found'}: ${line}`,
        lineNo,
      );
    }
    return { key: line.slice(quote.length, close).trim(), rest: line.slice(close + quote.length + delimiter + 1) };
  }
  const delimiter = line.search(/[=:]/);
  if (delimiter <= 0) {
    throw new UserError('cloud-config', `line ${lineNo}: key-value delimiter not found: ${line}`, lineNo);
  }
  return { key: line.slice(0, delimiter).trim(), rest: line.slice(delimiter + 1) };
}

/** A value as go-ini's `readValue` decodes it on one line: `"""…"""` or a backtick pair kept verbatim, else the inline comment cut, then one pair of surrounding quotes removed. */
function readValue(text: string, lineNo: number): string {
  const quote = text.length > 3 && text.startsWith('"""') ? '"""' : text.startsWith('`') ? '`' : '';
  if (quote !== '') {
    const close = text.lastIndexOf(quote);
    if (close < quote.length) {
      throw new UserError('cloud-config', `line ${lineNo}: a value opened with ${quote} continues on the next lines; write it on one line`, lineNo);
    }
    return text.slice(quote.length, close);
  }
  const comment = text.search(/[#;]/);
  const value = comment < 0 ? text : text.slice(0, comment).trim();
  for (const q of ["'", '"']) {
    if (value.length >= 2 && value.startsWith(q) && value.endsWith(q) && value.indexOf(q, 1) === value.length - 1) {
      return value.slice(1, -1);
    }
  }
  return value;
}

/**
 * Writes sections in go-ini's pretty format (`=` aligned per section, a blank
 * line between sections, one trailing newline), with values quoted the way
 * gcfg reads them: the CCMs read these files with gcfg, which does not
 * understand go-ini's backtick and triple-quote quoting.
 */
export function writeGoIni(
  sections: readonly { readonly name: string; readonly entries: readonly { readonly key: string; readonly value: string }[] }[],
): string {
  return sections
    .map((s) => {
      const width = Math.max(0, ...s.entries.map((e) => e.key.length));
      return `[${s.name}]\n${s.entries.map((e) => `${e.key.padEnd(width)} = ${quoteGcfgValue(e.value)}\n`).join('')}`;
    })
    .join('\n');
}
