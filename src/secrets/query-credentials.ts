// Credential parameters in the query or fragment of a URL (`?token=…`, `&sig=…`), for the secret detector.
import { Span, isUrlChar, runEnd } from './token-spans';

/**
 * Query parameter names that carry a credential though no word of theirs says
 * so: an Azure SAS signature (`sig`), signed-URL signatures, an API `key`.
 */
const QUERY_SECRET_NAMES = new Set(['sig', 'signature', 'key', 'x-amz-signature', 'x-goog-signature']);

/** A parameter value that holds nothing: a boolean, or a reference to a variable (`$TOKEN`, `${TOKEN}`). */
const EMPTY_PARAMETER = /^(?:true|false|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?)?$/i;

/**
 * The value of each credential parameter in the query or fragment of the URLs
 * of a text (`?token=…`, `&access_token=…`, `?private_token=…`, `&sig=…`,
 * `#access_token=…`): a parameter whose name is a credential's by its words (`namesCredential`) or
 * is one of {@link QUERY_SECRET_NAMES}. The reason names the parameter, never
 * its value. From each `://`, to the end of its URL: each character read once.
 */
export function queryParameterSpans(text: string, first: boolean, namesCredential: (name: string) => boolean): Span[] {
  const spans = schemeQuerySpans(text, first, namesCredential);
  return first && spans.length > 0 ? spans : [...spans, ...schemelessQuerySpans(text, first, namesCredential)];
}

/**
 * A host written without a scheme then a query or fragment (`proxy.example:3128/?`,
 * `git.example.com/org/x.git?`): a dotted host or a host and port, an optional
 * path, then `?` or `#`. Anchored, with classes that end where the next part starts.
 */
const SCHEMELESS_URL = /^[A-Za-z0-9-]+(?:(?:\.[A-Za-z0-9-]+)+(?::\d{1,5})?|:\d{1,5})(?:\/[^?#]*)?[?#]/;

/**
 * The credential parameters of the URLs written without a scheme
 * (`HTTPS_PROXY=proxy.example:3128/?token=…`): each run of URL characters
 * without `://` that starts as {@link SCHEMELESS_URL}, read as if it had one.
 */
function schemelessQuerySpans(text: string, first: boolean, namesCredential: (name: string) => boolean): Span[] {
  const spans: Span[] = [];
  // only a run holding `?` or `#` can match SCHEMELESS_URL: each such run is found from its mark
  const marks = { '?': text.indexOf('?'), '#': text.indexOf('#') };
  const nextMark = (from: number): number => {
    for (const m of ['?', '#'] as const) {
      if (marks[m] >= 0 && marks[m] < from) {
        marks[m] = text.indexOf(m, from);
      }
    }
    return marks['?'] < 0 ? marks['#'] : marks['#'] < 0 ? marks['?'] : Math.min(marks['?'], marks['#']);
  };
  for (let mark = nextMark(0); mark >= 0;) {
    let i = mark;
    while (i > 0 && isUrlChar(text.charCodeAt(i - 1))) {
      i--;
    }
    const end = runEnd(text, mark, isUrlChar);
    const run = text.slice(i, end);
    // a run after `=` or `:` (`HTTPS_PROXY=host:3128/?…`) is read from there too
    const from = run.search(/[=:](?=[A-Za-z0-9-]+[.:])/) + 1;
    for (const start of from > 0 ? [0, from] : [0]) {
      const url = run.slice(start);
      if (!url.includes('://') && SCHEMELESS_URL.test(url)) {
        const shift = i + start - 3;
        for (const span of schemeQuerySpans(`://${url}`, first, namesCredential)) {
          spans.push({ ...span, start: span.start + shift, end: span.end + shift });
          if (first) {
            return spans;
          }
        }
      }
    }
    mark = nextMark(end);
  }
  return spans;
}

/** The credential parameters of the URLs with a scheme, found from each `://`. */
function schemeQuerySpans(text: string, first: boolean, namesCredential: (name: string) => boolean): Span[] {
  const spans: Span[] = [];
  for (let k = text.indexOf('://'); k >= 0;) {
    const end = runEnd(text, k + 3, isUrlChar);
    const next = text.indexOf('://', end); // a `://` inside this URL is part of it
    let i = k + 3;
    while (i < end && text.charCodeAt(i) !== 0x3f && text.charCodeAt(i) !== 0x23) {
      i++;
    }
    while (i < end) {
      const from = i + 1; // after the ?, #, & or ;
      let eq = -1;
      for (i = from; i < end; i++) {
        const c = text.charCodeAt(i);
        if (c === 0x26 || c === 0x3b || c === 0x23 || c === 0x3f) {
          break;
        }
        if (c === 0x3d && eq < 0) {
          eq = i;
        }
      }
      if (eq <= from) {
        continue;
      }
      let name = text.slice(from, eq);
      try {
        name = decodeURIComponent(name);
      } catch {
        // keep the raw form
      }
      const value = text.slice(eq + 1, i);
      if ((QUERY_SECRET_NAMES.has(name.toLowerCase()) || namesCredential(name)) && !EMPTY_PARAMETER.test(value)) {
        const shown = /^[A-Za-z0-9_.-]{1,40}$/.test(name) ? `"${name}"` : 'a parameter';
        spans.push({ start: eq + 1, end: i, reason: `a credential in the query string (${shown})` });
        if (first) {
          return spans;
        }
      }
    }
    k = next;
  }
  return spans;
}
