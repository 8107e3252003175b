/**
 * The flag set of each CCM (and cloud-node-manager) binary at the image tags the project
 * has read, shared by the spec checks (an unknown extraArgs flag is refused) and the oracle
 * (every rendered flag of every example must be in it). The k8s.io/cloud-provider part is
 * one set per library version (`cloud-provider.data.ts`); each binary adds its own flags
 * (`binaries.data.ts`); both are generated from the sources they cite by
 * test/oracle/ccm-flags.generate.js. Pure: no cdk8s import.
 */
import { BINARY_FLAGS } from './binaries.data';
import { CLOUD_PROVIDER_FLAGS } from './cloud-provider.data';
import { closest } from '../../cluster-spec/zod-issues';

/** The flags one binary accepts at one tag, with where each part was read. */
export interface FlagTable {
  /** `<binary>@<tag>`: the provider name (or `azure-cloud-node-manager`) and the image tag. */
  readonly key: string;
  readonly tag: string;
  /** Names without dashes, as registered (klog's own keep their underscores). */
  readonly flags: readonly string[];
  readonly sources: readonly string[];
}

/** The table of `<binary>@<tag>`, when it was read. */
export function flagTable(key: string): FlagTable | undefined {
  const b = BINARY_FLAGS[key];
  if (!b) {
    return undefined;
  }
  const base = b.base ? CLOUD_PROVIDER_FLAGS[b.base] : undefined;
  const without = new Set(b.without ?? []);
  const flags = [...new Set([...(base?.flags ?? []).filter((f) => !without.has(f)), ...b.extra])].sort();
  return { key, tag: key.slice(key.indexOf('@') + 1), flags, sources: [...(base?.sources ?? []), ...b.sources] };
}

/** The tags of a binary whose flag set was read. */
export function flagTableTags(binary: string): string[] {
  return Object.keys(BINARY_FLAGS)
    .filter((k) => k.startsWith(`${binary}@`))
    .map((k) => k.slice(binary.length + 1));
}

/**
 * The table for a binary at the tag the image pins; a digest-only pin uses the one tag read,
 * when there is one. Undefined when the tag was not read: its flags are not checked.
 */
export function flagTableFor(binary: string, tag: string | undefined): FlagTable | undefined {
  const tags = flagTableTags(binary);
  const t = tag ?? (tags.length === 1 ? tags[0] : undefined);
  return t === undefined ? undefined : flagTable(`${binary}@${t}`);
}

/**
 * Whether a flag name is in a set: `-`/`_` are one separator, as the binaries that set
 * cliflag.WordSepNormalizeFunc read them (klog's `log_dir` is then `--log-dir` too).
 */
export function isKnownFlag(name: string, flags: readonly string[]): boolean {
  const n = normalize(name);
  return flags.some((f) => normalize(f) === n);
}

/** Up to `max` known flags closest to a misspelt one, closest first. */
export function closestFlags(name: string, flags: readonly string[], max = 5): string[] {
  const left = [...flags];
  const out: string[] = [];
  const key = name.replace(/^-+/, '');
  while (out.length < max) {
    const c = closest(key, left);
    if (c === undefined) {
      break;
    }
    out.push(c);
    left.splice(left.indexOf(c), 1);
  }
  return out;
}

/** The known flags to print for an unknown one: the closest when there are any, else all of them. */
export function knownFlagsHint(name: string, flags: readonly string[]): string {
  const near = closestFlags(name, flags);
  // nothing a typo away: the flags that share a word with it (webhook-secure-port: secure-port, …)
  const words = normalize(name)
    .split('-')
    .filter((w) => w.length > 2);
  const related =
    near.length > 0
      ? near
      : [...flags]
          .sort()
          .filter((f) =>
            normalize(f)
              .split('-')
              .some((w) => words.includes(w)),
          )
          .slice(0, 8);
  return related.length > 0 ? `closest known flags: ${related.join(', ')} (${flags.length} known)` : `known flags: ${[...flags].sort().join(', ')}`;
}

const normalize = (name: string) => name.replace(/^-+/, '').replace(/_/g, '-');
