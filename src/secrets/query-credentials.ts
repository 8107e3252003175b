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
