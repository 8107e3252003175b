import { unsafe } from 'ini';
import { CloudConfigError } from './errors';
import { quoteGcfgValue } from './gcfg';

/**
 * A reader for the INI dialect of gopkg.in/ini.v1 (go-ini) as the operator
 * loads OpenStack configs: names are case-sensitive, `=` or `:` separate key
 * and value, whole-line and inline `#`/`;` comments, quoted values. Values are
 * decoded with the `ini` package's `unsafe()`, which follows the same quoting
 * and inline-comment rules; the line structure is read here so that key order,
 * repeated keys and line numbers survive (`ini.parse` loses them).
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
  lines.forEach((raw, i) => {
    const lineNo = i + 1;
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) {
      return;
    }
    if (line.startsWith('[')) {
      const close = line.indexOf(']');
      if (close < 0) {
        throw new CloudConfigError(`line ${lineNo}: unclosed section: ${line}`, lineNo);
      }
      const name = line.slice(1, close).trim();
      if (name === '') {
        throw new CloudConfigError(`line ${lineNo}: empty section name`, lineNo);
      }
      current = section(name, lineNo);
      return;
    }
    const delimiter = line.search(/[=:]/);
    if (delimiter <= 0) {
      throw new CloudConfigError(`line ${lineNo}: key-value delimiter not found: ${line}`, lineNo);
    }
    const key = line.slice(0, delimiter).trim().replace(/^(["'`])(.*)\1$/, '$2');
    // ini.unsafe() unquotes before cutting an inline comment; go-ini cuts first, then unquotes, so unquote what is left too.
    let value = unsafe(line.slice(delimiter + 1).trim());
    if (/^(["']).*\1$/.test(value)) {
      value = unsafe(value);
    }
    const existing = current.entries.findIndex((e) => e.key === key);
    if (existing >= 0) {
      current.entries[existing] = { key, value, line: lineNo };
    } else {
      current.entries.push({ key, value, line: lineNo });
    }
  });
  return sections.filter((s) => s.name !== 'DEFAULT' || s.entries.length > 0);
}

/**
 * Writes sections in go-ini's pretty format (`=` aligned per section, a blank
 * line between sections, one trailing newline), with values quoted the way
 * gcfg reads them: the CCMs read these files with gcfg, which does not
 * understand go-ini's backtick and triple-quote quoting.
 */
export function writeGoIni(sections: readonly { readonly name: string; readonly entries: readonly { readonly key: string; readonly value: string }[] }[]): string {
  return sections.map((s) => {
    const width = Math.max(0, ...s.entries.map((e) => e.key.length));
    return `[${s.name}]\n${s.entries.map((e) => `${e.key.padEnd(width)} = ${quoteGcfgValue(e.value)}\n`).join('')}`;
  }).join('\n');
}
