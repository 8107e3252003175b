import { InputWarning } from './load';
import { redactMessage } from '../secrets/message-redaction';

/** One group of {@link warningLines}: a message, the clusters that gave it and the files it came from, in the order first seen. */
interface WarningGroup {
  /** The message without its `cluster NAME: ` prefix. */
  readonly rest: string;
  readonly names: Set<string>;
  readonly files: Set<string>;
  readonly first: InputWarning;
}

/**
 * The lines that report warnings, each distinct warning once: a
 * warning that repeats for several clusters (the same message but for the
 * cluster name, as in a fleet of copies) is one line with the count, the
 * first three names and the files; in the order first given.
 *
 * Names and files are sets: one warning from every cluster of a large
 * fleet is one group, and a list searched for each would make it quadratic.
 */
export function warningLines(warnings: readonly InputWarning[]): string[] {
  const groups = new Map<string, WarningGroup>();
  for (const w of warnings) {
    const m = /^cluster (\S+): ([\s\S]*)$/.exec(w.message);
    const key = m ? m[2] : `\0${w.file}\0${w.message}`;
    let g = groups.get(key);
    if (!g) {
      g = { rest: m ? m[2] : w.message, names: new Set(), files: new Set(), first: w };
      groups.set(key, g);
    }
    if (m) {
      g.names.add(m[1]);
    }
    g.files.add(w.file);
  }
  // a warning echoes what it warns about: no credential goes with it
  return [...groups.values()].map((g) => redactMessage(groupLine(g)));
}

function groupLine(g: WarningGroup): string {
  if (g.names.size <= 1) {
    return `warning: ${g.first.file}: ${g.first.message}`;
  }
  const n = g.names.size;
  const shown = [...g.names].slice(0, 3).join(', ');
  const names = n > 3 ? `${shown} and ${n - 3} more` : shown;
  const [file] = g.files;
  const others = g.files.size - 1;
  const files = others === 0 ? file : `${file} and ${others} other file${others === 1 ? '' : 's'}`;
  return `warning: ${files}: ${n} clusters (${names}): ${g.rest}`;
}
