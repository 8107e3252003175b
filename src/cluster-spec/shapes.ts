/**
 * The shapes of spec strings that become Kubernetes names, keys, flags, URLs
 * and image references, and the guards every string of a spec passes
 * (printable text, no credentials). Pure: zod schemas and plain functions, no
 * cdk8s import.
 */
import { z } from 'zod';
import { describeValue } from './errors';
import { classifyKey, queryCredentialSpans, secretInValue, urlCredentials } from '../secrets/detector';

/** A DNS-1123 label (kubernetes/apimachinery@v0.33.0 pkg/util/validation/validation.go IsDNS1123Label): at most 63 characters. */
export const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** A DNS-1123 subdomain (same file, IsDNS1123Subdomain): at most 253 characters. */
export const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
/** The name part of a qualified name and a label value (same file, qualifiedNameFmt, labelValueFmt). */
const QUALIFIED_NAME_PART = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
/** A flag name as written under extraArgs: the flag without its leading "--" and without "=". */
export const FLAG_NAME = /^[a-z0-9][a-z0-9-]*$/;

/**
 * The API server's limit on all annotations of one object together, in bytes
 * (kubernetes/kubernetes@v1.33.0 staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta.go
 * TotalAnnotationSizeLimitB: the sum of the lengths of keys and values).
 */
export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

/** A DNS-1123 label of at most 63 characters; `message` says what it names. */
export function dnsLabel(message = 'is not a DNS-1123 label'): z.ZodString {
  return z.string().max(63, { message: 'is longer than 63 characters (a DNS-1123 label)', abort: true }).regex(DNS_LABEL, { message });
}

/** A DNS-1123 subdomain of at most 253 characters (an object name); `message` says what it names. */
export function dnsSubdomain(message = 'is not a DNS-1123 subdomain'): z.ZodString {
  return z.string().max(253, { message: 'is longer than 253 characters (a DNS-1123 subdomain)', abort: true }).regex(DNS_SUBDOMAIN, { message });
}

/**
 * A git ref as `git check-ref-format --allow-onelevel` accepts it (git/git@v2.49.0
 * refs.c check_refname_component): no "..", "@{", "//", component starting
 * with "." or ending with ".lock", no trailing "/" or ".", not "@", none of
 * space, control characters, "~^:?*[\"; at most 255 characters.
 */
export const GIT_REF = /^(?!@$)(?![./])(?!.*(?:\.\.|@\{|\/\/|\/\.|\.lock\/|\.lock$|[./]$))[^\x00-\x20\x7f~^:?*[\\]+$/;

/** The problem of a label or annotation key (IsQualifiedName), or undefined. */
export function qualifiedNameProblem(key: string, what: 'label' | 'annotation'): string | undefined {
  const slash = key.lastIndexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  if (prefix !== undefined && (prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix))) {
    return `is not ${what === 'label' ? 'a label' : 'an annotation'} key: its prefix before "/" is not a DNS-1123 subdomain (at most 253 lower-case letters, digits, "-" and ".")`;
  }
  return name.length <= 63 && QUALIFIED_NAME_PART.test(name)
    ? undefined
    : `is not ${what === 'label' ? 'a label' : 'an annotation'} key (at most 63 letters, digits, "-", "_", "." between alphanumerics, optional "prefix/")`;
}

/** The problem of a label value (IsValidLabelValue), or undefined. */
export function labelValueProblem(value: string): string | undefined {
  return value === '' || (value.length <= 63 && QUALIFIED_NAME_PART.test(value))
    ? undefined
    : 'is not a label value (at most 63 letters, digits, "-", "_", "." between alphanumerics; no spaces or line breaks)';
}

/** Whether a label or annotation key names a credential (`example.com/db-password`): its name part, after the prefix. */
export function keyNamesCredential(key: string): boolean {
  return classifyKey(key.slice(key.lastIndexOf('/') + 1)) === 'secret';
}

/** A path and a message, as the spec checks return them. */
export interface ShapeProblem {
  readonly path: (string | number)[];
  readonly message: string;
}

/**
 * The problems of a label or annotation map: keys that are not qualified
 * names or name a credential, label values of the wrong shape, annotations
 * over the API server's total size.
 */
export function metadataMapProblems(at: (string | number)[], map: Record<string, unknown> | undefined, what: 'label' | 'annotation'): ShapeProblem[] {
  const problems: ShapeProblem[] = [];
  let size = 0;
  for (const [key, value] of Object.entries(map ?? {})) {
    size += Buffer.byteLength(key) + (typeof value === 'string' ? Buffer.byteLength(value) : 0);
    if (!isPrintableAscii(key)) {
      continue; // the text guard names the code point, never the key
    }
    const keyProblem = qualifiedNameProblem(key, what);
    const valueProblem = what === 'label' && typeof value === 'string' ? labelValueProblem(value) : undefined;
    if (keyProblem) {
      problems.push({ path: [...at, key], message: `${describeValue(key)} ${keyProblem}` });
    } else if (keyNamesCredential(key)) {
      problems.push({ path: [...at, key], message: `names a credential; ${what} values are committed to git; reference a Secret instead` });
    } else if (valueProblem) {
      problems.push({ path: [...at, key], message: `${describeValue(value)} ${valueProblem}` });
    }
  }
  if (what === 'annotation' && size > TOTAL_ANNOTATION_SIZE_LIMIT) {
    problems.push({
      path: at,
      message: `hold ${size} bytes, over the API server's limit of ${TOTAL_ANNOTATION_SIZE_LIMIT} bytes (256 KiB) for all annotations of one object; keep large data in a ConfigMap`,
    });
  }
  return problems;
}

/** The message of a credential-named flag, by where the flags are committed. */
const CREDENTIAL_FLAG = 'looks like a credential; flags are committed to git: put it in a Secret and mount it (spec.kubernetes.extraVolumes)';

/**
 * The problems of an `extraArgs` map: a flag named after a credential (a
 * boolean or an absolute path to a file of a `token`-like flag passes), a
 * value that holds another flag after white space (`v: "2 --password=x"`
 * renders `--v=2 --password=x`).
 */
export function extraArgsProblems(at: (string | number)[], args: Record<string, unknown>): ShapeProblem[] {
  const problems: ShapeProblem[] = [];
  for (const [name, value] of Object.entries(args).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const literal = typeof value !== 'boolean' && !(typeof value === 'string' && /^\/\S*$/.test(value) && !/pass|secret|pwd/i.test(name));
    if (classifyKey(name) === 'secret' && literal) {
      problems.push({ path: [...at, name], message: CREDENTIAL_FLAG });
    } else if (typeof value === 'string' && /\s-/.test(value)) {
      problems.push({ path: [...at, name], message: 'holds another flag after white space; one flag per entry: give each flag its own key' });
    }
  }
  return problems;
}

/** A command item that is a flag: `-v`, `--name` or `--name=value`. */
const COMMAND_FLAG = /^--?([A-Za-z0-9][-A-Za-z0-9_.]*)(=([\s\S]*))?$/;

/**
 * The problem of one `spec.kubernetes.command` item: either a path or binary
 * word (no white space, no "=") or one flag; a flag named after a credential
 * is refused whatever its value.
 */
export function commandItemProblem(item: string): string | undefined {
  const flag = COMMAND_FLAG.exec(item);
  if (flag) {
    if (classifyKey(flag[1]) === 'secret') {
      return 'names a credential; the command is committed to git: put it in a Secret and mount it (spec.kubernetes.extraVolumes)';
    }
    return /\s-/.test(flag[3] ?? '') ? 'holds another flag after white space; one flag per item: give each flag its own item' : undefined;
  }
  return /^[^\s=-][^\s=]*$/.test(item) ? undefined : 'is not a path, a binary name or one --name=value flag; give each word its own item';
}

/**
 * The userinfo of a URL or host, found by the secret detector or by the
 * WHATWG URL parser (which reads `https:\\user:pw@host` as a user too), or a
 * credential parameter in its query (`?private_token=…`).
 * `ssh` lets an ssh login name through (`ssh://git@host/x`, `git@host:org/x.git`);
 * `host` also refuses a schemeless `user:password@host`.
 *
 * @returns the kind of credential, never the value
 */
export function userinfoProblem(value: string, options: { ssh?: boolean; host?: boolean } = {}): string | undefined {
  const found = urlCredentials(value) ?? queryCredentialSpans(value, true)[0];
  if (found) {
    return found.reason;
  }
  const scp = /^([^@/\s]*)@[^\s/:@]+:/.exec(value);
  if (scp && !/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    // scp-like git@host:org/x.git: a login name only
    return scp[1].includes(':') ? 'user:password@' : options.ssh ? undefined : 'a user name before the host';
  }
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url && (url.username !== '' || url.password !== '')) {
    if (url.password !== '') {
      return 'user:password@';
    }
    return options.ssh && /^(git\+)?ssh:$/.test(url.protocol) ? undefined : 'a user name before the host';
  }
  if (options.host && !/^[a-z][a-z0-9+.-]*:\/\//i.test(value) && value.includes('@')) {
    return value.slice(0, value.lastIndexOf('@')).includes(':') ? 'user:password@' : 'a user name before the host';
  }
  return undefined;
}

/** The value parsed by the WHATWG URL class when it has a host and one of `protocols`. */
function webUrl(value: string, protocols: readonly string[]): URL | undefined {
  try {
    const url = new URL(value);
    return protocols.includes(url.protocol) && url.hostname !== '' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** An https:// URL (parsed with the WHATWG URL class), or its problem. */
export function httpsUrlProblem(value: string): string | undefined {
  if (!URL.canParse(value)) {
    return 'is not a URL';
  }
  return webUrl(value, ['https:']) ? undefined : 'is not an https:// URL';
}

/** An http:// or https:// URL (parsed with the WHATWG URL class), or its problem. */
export function httpUrlProblem(value: string): string | undefined {
  return webUrl(value, ['http:', 'https:']) ? undefined : 'is not an http:// or https:// URL';
}

/** Whether an image reference carries userinfo (`admin:pw@registry.example.com/ccm:v1`) rather than a digest. */
export function imageHasUserinfo(ref: string): boolean {
  const at = ref.indexOf('@');
  if (at < 0) {
    return false;
  }
  const slash = ref.indexOf('/');
  // repo@sha256:<hex> is a digest (malformed ones are the pin check's); an "@" before the first "/" is a user
  return slash >= 0 ? at < slash : !/^sha(256|384|512):/.test(ref.slice(at + 1));
}

/** A path pattern: `*` matches one segment (a list index or a map key). */
type Pattern = readonly string[];

function pattern(text: string): Pattern {
  return text.split('.');
}

function matches(p: Pattern, at: readonly (string | number)[]): boolean {
  return p.length === at.length && p.every((segment, i) => segment === '*' || segment === String(at[i]));
}

/**
 * The free-text fields: their values may hold any letter of any script (not
 * bidi controls, zero-width characters or control characters other than tab
 * and line breaks). Every other string, and every map key, is printable
 * ASCII: a new field is covered by default.
 */
export const FREE_TEXT_FIELDS: readonly string[] = [
  // annotation values carry arbitrary text for other tools
  'spec.kubernetes.podAnnotations.*',
  'spec.kubernetes.serviceAccount.annotations.*',
  // env literals are whatever the program reads
  'spec.kubernetes.extraEnv.*.value',
  // vCenter inventory names are the administrator's, in any script
  'spec.vsphere.vcenters.*.datacenters.*',
  'spec.vsphere.failureDomains.*.name',
  'spec.vsphere.failureDomains.*.region',
  'spec.vsphere.failureDomains.*.zone',
  'spec.vsphere.failureDomains.*.topology.datacenter',
  'spec.vsphere.failureDomains.*.topology.computeCluster',
  'spec.vsphere.failureDomains.*.topology.datastore',
  'spec.vsphere.failureDomains.*.topology.networks.*',
  'spec.vsphere.failureDomains.*.topology.resourcePool',
  'spec.vsphere.failureDomains.*.topology.folder',
  'spec.vsphere.nodeNetworking.internal.network',
  'spec.vsphere.nodeNetworking.external.network',
];
const FREE_TEXT = FREE_TEXT_FIELDS.map(pattern);

/** What a code point is, for a message that names it instead of showing it. */
function kindOf(cp: number): string {
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) {
    return 'a line break or control character';
  }
  if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp === 0x200e || cp === 0x200f || cp === 0x061c) {
    return 'a bidirectional control';
  }
  if ((cp >= 0x200b && cp <= 0x200d) || cp === 0x2060 || cp === 0xfeff || cp === 0x00ad || cp === 0x180e) {
    return 'a zero-width character';
  }
  if (cp === 0x00a0 || cp === 0x202f || cp === 0x3000 || (cp >= 0x2000 && cp <= 0x200a) || cp === 0x205f || cp === 0x1680) {
    return 'a no-break or special space';
  }
  if (cp >= 0xd800 && cp <= 0xdfff) {
    return 'an unpaired surrogate';
  }
  return 'a non-ASCII character';
}

/** `U+202E`. */
export function codePoint(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Whether a string is printable ASCII only (space to "~"). */
export function isPrintableAscii(text: string): boolean {
  return /^[\x20-\x7e]*$/.test(text);
}

/** The first code point of a string outside printable ASCII. */
function firstOutsideAscii(text: string): number | undefined {
  const m = /[^\x20-\x7e]/u.exec(text);
  return m ? m[0].codePointAt(0) : undefined;
}

/** The first code point of free text that hides what a reviewer sees: bidi controls, zero-width characters, controls other than tab and line breaks. */
function firstHidden(text: string): number | undefined {
  const m =
    /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.exec(
      text,
    );
  return m ? m[0].codePointAt(0) : undefined;
}

function textProblem(cp: number, free: boolean, key: boolean): string {
  const where = key ? 'a key holds' : 'holds';
  const what = `${where} ${codePoint(cp)} (${kindOf(cp)})`;
  if (free) {
    return `${what}; invisible characters hide what a reviewer sees: remove it`;
  }
  return kindOf(cp) === 'a line break or control character'
    ? `${what}; this field takes one line of printable ASCII: remove it`
    : `${what}; this field takes printable ASCII only (look-alike letters and invisible characters hide what a reviewer sees): retype it`;
}

/** Every string of parsed spec data with its path, map keys included (iterative: depth cannot exhaust the stack). */
function leaves(data: unknown): { at: (string | number)[]; value: string; key: boolean }[] {
  const out: { at: (string | number)[]; value: string; key: boolean }[] = [];
  const stack: [unknown, (string | number)[]][] = [[data, []]];
  while (stack.length > 0) {
    const [v, at] = stack.pop()!;
    if (typeof v === 'string') {
      out.push({ at, value: v, key: false });
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push([item, [...at, i]]));
    } else if (v !== null && typeof v === 'object') {
      for (const [k, item] of Object.entries(v)) {
        out.push({ at, value: k, key: true });
        stack.push([item, [...at, k]]);
      }
    }
  }
  return out.reverse();
}

/**
 * One function over every string of a spec: outside the free-text fields
 * ({@link FREE_TEXT_FIELDS}) only printable ASCII passes (Cyrillic look-alikes,
 * bidi controls, zero-width and no-break spaces are refused); in free text,
 * what hides text from a reviewer is refused. A key's problem is reported at
 * its map, so the path never shows the key.
 */
export function textProblems(data: unknown): ShapeProblem[] {
  const problems: ShapeProblem[] = [];
  for (const { at, value, key } of leaves(data)) {
    if (!at.every((segment) => typeof segment === 'number' || isPrintableAscii(segment))) {
      continue; // below a key already reported
    }
    const free = !key && FREE_TEXT.some((p) => matches(p, at));
    const cp = free ? firstHidden(value) : firstOutsideAscii(value);
    if (cp !== undefined) {
      problems.push({ path: at, message: textProblem(cp, free, key) });
    }
  }
  return problems;
}

/** A URL or host field: how it is read and what to do instead of embedding a credential. */
interface UrlField {
  readonly at: Pattern;
  /** An ssh login name (`git@`) is allowed. */
  readonly ssh?: boolean;
  /** A schemeless `user:password@host` is refused too. */
  readonly host?: boolean;
  /** A comma-separated list of hosts. */
  readonly list?: boolean;
  readonly fix: string;
}

const PROXY_FIX = 'rendered env vars are committed to git, so use a proxy that authorises the cluster by address';

/** Every URL and host field of the spec. */
const URL_FIELDS: readonly UrlField[] = [
  {
    at: pattern('spec.gitops.repoURL'),
    ssh: true,
    fix: 'give the engine a repository Secret instead (spec.gitops.flux.secretRef, or an Argo CD repository credential)',
  },
  {
    at: pattern('spec.gitops.argocd.destinationServer'),
    host: true,
    fix: 'register the cluster in Argo CD (a cluster Secret) and give only its API server URL',
  },
  { at: pattern('spec.proxy.httpProxy'), host: true, fix: PROXY_FIX },
  { at: pattern('spec.proxy.httpsProxy'), host: true, fix: PROXY_FIX },
  { at: pattern('spec.proxy.noProxy'), host: true, list: true, fix: 'list host names, domains and CIDRs only' },
  { at: pattern('spec.aws.serviceEndpoints.*.url'), host: true, fix: 'give the endpoint URL only; the CCM authenticates with its own credentials' },
  {
    at: pattern('spec.vsphere.vcenters.*.server'),
    host: true,
    fix: 'give the vCenter host name only; its credentials go in the vSphere credentials Secret',
  },
  {
    at: pattern('spec.vsphere.failureDomains.*.server'),
    host: true,
    fix: 'give the vCenter host name only; its credentials go in the vSphere credentials Secret',
  },
  { at: pattern('spec.kubernetes.workloadIdentity.audience'), fix: 'give the audience only' },
];

/**
 * Credentials in a spec: userinfo in URL and host fields, userinfo in image
 * references, and anything the secret detector finds in any other string.
 * Messages name the kind of credential, never the value, and `home`: where the
 * platform's credentials belong, when the spec names a platform its distribution renders.
 */
export function credentialProblems(data: unknown, home?: string): ShapeProblem[] {
  const problems: ShapeProblem[] = [];
  for (const { at, value, key } of leaves(data)) {
    if (key || !at.every((segment) => typeof segment === 'number' || isPrintableAscii(segment))) {
      continue; // a key outside printable ASCII is the text guard's, reported at its map
    }
    const field = URL_FIELDS.find((f) => matches(f.at, at));
    const reason = field
      ? (field.list ? value.split(',') : [value]).map((v) => userinfoProblem(v.trim(), field)).find((r) => r !== undefined)
      : undefined;
    if (field && reason) {
      problems.push({ path: at, message: `embeds credentials (${reason}); ${field.fix}` });
      continue;
    }
    if (at.length === 3 && at[0] === 'spec' && at[1] === 'images' && imageHasUserinfo(value)) {
      problems.push({
        path: at,
        message:
          'embeds registry credentials (a user before the registry host); registry credentials go in an imagePullSecret (spec.kubernetes.imagePullSecrets), never in the image reference',
      });
      continue;
    }
    const found = secretInValue(value);
    if (found) {
      problems.push({
        path: at,
        message: home
          ? `holds ${found.reason}; remove it: everything in a spec is rendered into git; ${home}, and credentials never go into git`
          : `holds ${found.reason}; remove it: everything in a spec is rendered into git. Keep credentials in a Secret`,
      });
    }
  }
  return problems;
}

/**
 * The guards over every string of a spec, first problem per field: text
 * (code points) before credentials. A field with a guard problem gets no
 * other message, as the others may show the value.
 */
export function guardProblems(data: unknown, credentialHome?: string): ShapeProblem[] {
  const seen = new Set<string>();
  return [...textProblems(data), ...credentialProblems(data, credentialHome)].filter((p) => {
    const k = pathKey(p.path);
    return seen.has(k) ? false : (seen.add(k), true);
  });
}

/** A path as one string, for sets of reported fields. */
export function pathKey(at: readonly (string | number)[]): string {
  return JSON.stringify(at.map(String));
}

/**
 * The guard problems, then every other problem whose field has none and
 * whose path shows no key outside printable ASCII (the guard reports those).
 */
export function withGuards(guards: readonly ShapeProblem[], others: readonly ShapeProblem[]): ShapeProblem[] {
  const guarded = new Set(guards.map((g) => pathKey(g.path)));
  return [...guards, ...others.filter((p) => !guarded.has(pathKey(p.path)) && p.path.every((s) => typeof s === 'number' || isPrintableAscii(s)))];
}
