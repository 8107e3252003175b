import { FieldChange, hasChanges, TreeDiff } from './diff-trees';
import { redact } from '../secrets/detector';

/** Most field changes listed per object before summarizing the rest. */
const MAX_FIELDS = 40;

/** Renders a diff as Markdown for a pull-request comment: risky changes first, then each cluster's objects. */
export function diffMarkdown(diff: TreeDiff): string {
  if (!hasChanges(diff)) {
    return '## ccm-gitops diff\n\nNo changes to the rendered manifests.\n';
  }
  const changes = [...diff.clusters.values()].flat();
  const count = (state: string) => changes.filter((c) => c.state === state).length;
  const lines: string[] = [
    '## ccm-gitops diff',
    '',
    `${diff.clusters.size} cluster${diff.clusters.size === 1 ? '' : 's'} changed: ${count('added')} objects added, ${count('removed')} removed, ${count('changed')} changed.`,
  ];
  if (diff.addedClusters.length > 0) {
    lines.push(`Clusters added: ${diff.addedClusters.map((c) => `\`${c}\``).join(', ')}.`);
  }
  if (diff.removedClusters.length > 0) {
    lines.push(`Clusters removed: ${diff.removedClusters.map((c) => `\`${c}\``).join(', ')}.`);
  }
  lines.push('');
  if (diff.risks.length > 0) {
    lines.push('### ⚠️ Risky changes', '');
    for (const r of diff.risks) {
      lines.push(`- \`${r.cluster}\`${r.object ? ` ${r.object}` : ''}: ${r.message}`);
    }
    lines.push('');
  }
  for (const [cluster, objects] of diff.clusters) {
    lines.push(`### ${cluster}`, '');
    for (const o of objects) {
      if (o.state !== 'changed') {
        lines.push(`- ${o.object}: ${o.state}`);
        continue;
      }
      lines.push(`- ${o.object}: changed`);
      for (const line of o.summary ?? []) {
        lines.push(`  - ${line}`);
      }
      for (const f of o.fields.slice(0, MAX_FIELDS)) {
        lines.push(`  - ${fieldLine(f)}`);
      }
      if (o.fields.length > MAX_FIELDS) {
        lines.push(`  - … and ${o.fields.length - MAX_FIELDS} more fields`);
      }
    }
    lines.push('');
  }
  if (diff.otherFiles.length > 0) {
    lines.push('<details><summary>Other files changed</summary>', '', ...diff.otherFiles.map((f) => `- \`${f}\``), '', '</details>', '');
  }
  return `${lines.join('\n')}`;
}

/**
 * The text a `data:` URL carries (MachineConfig file contents, RFC 2397:
 * `data:[<mediatype>][;base64],<data>`), or the value itself.
 */
export function decodeDataUrl(value: unknown): unknown {
  if (typeof value !== 'string' || !value.startsWith('data:')) {
    return value;
  }
  const comma = value.indexOf(',');
  if (comma < 0) {
    return value;
  }
  const meta = value.slice(5, comma);
  const payload = value.slice(comma + 1);
  try {
    return meta.endsWith(';base64') ? Buffer.from(payload, 'base64').toString('utf8') : decodeURIComponent(payload);
  } catch {
    return value;
  }
}

function fieldLine(change: FieldChange): string {
  const decoded =
    (typeof change.before === 'string' && change.before.startsWith('data:')) ||
    (typeof change.after === 'string' && change.after.startsWith('data:'));
  const f: FieldChange = decoded ? { path: change.path, before: decodeDataUrl(change.before), after: decodeDataUrl(change.after) } : change;
  if (decoded && typeof f.before === 'string' && typeof f.after === 'string') {
    return `\`${f.path}\` changed (data: URL, decoded):\n${textDiff(f.before, f.after)}`;
  }
  if (f.before === undefined) {
    return `\`${f.path}\` added: ${show(f.after)}`;
  }
  if (f.after === undefined) {
    return `\`${f.path}\` removed (was ${show(f.before)})`;
  }
  if (typeof f.before === 'string' && typeof f.after === 'string' && (f.before.includes('\n') || f.after.includes('\n'))) {
    return `\`${f.path}\` changed:\n${textDiff(f.before, f.after)}`;
  }
  return `\`${f.path}\` changed: ${show(f.before)} → ${show(f.after)}`;
}

function show(v: unknown): string {
  const text = redact(typeof v === 'string' ? v : JSON.stringify(v));
  const cut = text.length > 120 ? `${text.slice(0, 117)}...` : text;
  return `\`${cut.replace(/`/g, "'")}\``;
}

/** The removed and added lines of a multi-line value, as an indented diff block. */
function textDiff(before: string, after: string): string {
  const a = before.split('\n');
  const b = after.split('\n');
  // a LeaderMigrationConfiguration line `component: X` says nothing alone: name its controller (the `name:` line above it)
  const withController = (lines: string[], i: number): string => {
    const m = /^\s*component:\s*/.test(lines[i]) ? /^\s*-?\s*name:\s*(\S+)/.exec(lines[i - 1] ?? '') : null;
    return m ? `${lines[i]}   # controller ${m[1]}` : lines[i];
  };
  const removed = a
    .map((_l, i) => i)
    .filter((i) => !b.includes(a[i]))
    .map((i) => redact(withController(a, i)));
  const added = b
    .map((_l, i) => i)
    .filter((i) => !a.includes(b[i]))
    .map((i) => redact(withController(b, i)));
  return ['    ```diff', ...removed.map((l) => `    - ${l}`), ...added.map((l) => `    + ${l}`), '    ```'].join('\n');
}
