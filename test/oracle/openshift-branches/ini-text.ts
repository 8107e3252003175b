/**
 * The two INI libraries the operator's cloud-config transformers use, modelled only as far as the
 * compared configs need them (plain `key = value` lines, `[section]` and `[section "sub"]` headers,
 * whole-line `#`/`;` comments). A value with a quote, a backslash, `#` or `;` is outside what is
 * modelled: {@link readIni} throws {@link OutsideModel} rather than guess. Never imports from `src/`.
 *
 * Read from openshift/cluster-cloud-controller-manager-operator@d721cd62b5ed (release-4.16) to
 * @bc52198c1c3c (release-4.23), the same vendored copies on every branch read:
 * - gopkg.in/gcfg.v1 v1.2.3 (vendor/gopkg.in/gcfg.v1/set.go): section and variable names match
 *   case-insensitively, a subsection name case-sensitively; a repeated section adds to the first; a
 *   variable the target struct lacks is "extra data", which gcfg.FatalOnly drops; a variable without
 *   `=` is a blank value (true for a bool, a reset for a list);
 * - gopkg.in/ini.v1 v1.67.0 (v1.67.1 from release-4.22; file.go writeToBuffer, section.go): names
 *   case-sensitive; a repeated section is merged into the first, a repeated key keeps its place and
 *   takes the last value; written with `=` aligned on the section's longest key (PrettyFormat), one
 *   blank line between sections and none after the last (PrettySection), the empty DEFAULT section
 *   left out, a value with a newline or backtick in `"""`, one with `#` or `;` in backticks, one with
 *   surrounding spaces in double quotes.
 */

/** An input outside what this oracle models: the comparison names it instead of guessing. */
export class OutsideModel extends Error {}

/** One `key = value` line; `value` null when the line has no `=`. */
export interface IniKey {
  readonly name: string;
  readonly value: string | null;
}

/** One section as written: `name`, the optional quoted `sub` name, keys in order. */
export interface IniSection {
  readonly name: string;
  readonly sub?: string;
  readonly keys: IniKey[];
}

/**
 * The sections of an INI text, in file order, keys in order (repeats kept: each library folds them its own
 * way). Keys before the first header go to a section named `DEFAULT`.
 */
export function readIni(text: string): IniSection[] {
  const out: IniSection[] = [];
  let current: IniSection | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) {
      continue;
    }
    const header = /^\[\s*([A-Za-z0-9_.-]+)(?:\s+"([^"\\]*)")?\s*\]$/.exec(line);
    if (header) {
      current = { name: header[1], ...(header[2] !== undefined ? { sub: header[2] } : {}), keys: [] };
      out.push(current);
      continue;
    }
    const kv = /^([A-Za-z0-9_.-]+)\s*(?:=\s*(.*))?$/.exec(line);
    if (!kv || (kv[2] !== undefined && /["'`\\#;]/.test(kv[2]))) {
      throw new OutsideModel(`the line ${JSON.stringify(raw)} is outside the INI syntax this oracle models`);
    }
    if (current === undefined) {
      current = { name: 'DEFAULT', keys: [] };
      out.push(current);
    }
    current.keys.push({ name: kv[1], value: kv[2] === undefined ? null : kv[2].trim() });
  }
  return out;
}

/** The header of a section as the libraries write it: `[name]` or `[name "sub"]`. */
export function headerOf(s: { readonly name: string; readonly sub?: string }): string {
  return s.sub === undefined ? s.name : `${s.name} "${s.sub}"`;
}

/** A value as go-ini's writeToBuffer quotes it. */
function goIniValue(v: string): string {
  if (/[\n`]/.test(v)) {
    return `"""${v}"""`;
  }
  if (/[#;]/.test(v)) {
    return `\`${v}\``;
  }
  return v.trim().length !== v.length ? `"${v}"` : v;
}

/**
 * Text as go-ini's File.WriteTo writes sections (header names as given: `ServiceOverride "0"` is one name),
 * a key listed several times written once per value (shadows, in order).
 */
export function writeGoIni(sections: readonly { readonly header: string; readonly keys: readonly (readonly [string, string])[] }[]): string {
  return sections
    .map((s) => {
      const width = Math.max(0, ...s.keys.map(([k]) => k.length));
      return `[${s.header}]\n${s.keys.map(([k, v]) => `${k}${' '.repeat(width - k.length)} = ${goIniValue(v)}\n`).join('')}`;
    })
    .join('\n');
}
