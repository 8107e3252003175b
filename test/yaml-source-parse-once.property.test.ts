import fc from 'fast-check';
import * as fs from 'fs';
import * as path from 'path';
import { LineCounter, parseDocument } from 'yaml';
import type { SpecIssue } from '../src/cluster-spec/errors';
import { readYamlSource, SPEC_FIELDS_NAMED_LIKE_CREDENTIALS } from '../src/fleet/yaml-source';
import { secretInYamlComments } from '../src/secrets/yaml-findings';
import { useTempDir } from './helpers';

// A spec is parsed once: its Document is composed from the same syntax tree the
// comment check reads. What it gives must be what the library's own
// parseDocument gives, and what a second parse of the comments finds.

const dir = useTempDir();

/** What readYamlSource reads from a text, as the library's parseDocument and a separate comment parse give it. */
function reference(text: string): { error?: { code: string; line: number }; json?: unknown; text?: string; comment?: unknown } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: false, prettyErrors: false, strict: true, logLevel: 'error' });
  const err = doc.errors[0];
  return err
    ? { error: { code: err.code, line: lines.linePos(err.pos[0]).line } }
    : {
        json: attempt(() => doc.toJS()),
        text: attempt(() => doc.toString()),
        comment: secretInYamlComments(text, SPEC_FIELDS_NAMED_LIKE_CREDENTIALS),
      };
}

/** What `f` gives, or that it throws (a document with an alias to no anchor throws when written or built). */
function attempt<T>(f: () => T): T | 'throws' {
  try {
    return f();
  } catch {
    return 'throws';
  }
}

/** What readYamlSource gives for the same text: the document in the reference's terms, or the problem it reports. */
function read(text: string): { json: unknown; text: string; comment: undefined } | SpecIssue {
  const file = path.join(dir(), 'spec.yaml');
  fs.writeFileSync(file, text);
  const r = readYamlSource(file);
  if ('source' in r) {
    return { json: attempt(() => r.source.doc.toJS()), text: attempt(() => r.source.doc.toString()), comment: undefined };
  }
  return r.issue;
}

const LINES = [
  'apiVersion: ccm-gitops.io/v1alpha1',
  'kind: CloudControllerManagerCluster',
  'metadata:',
  '  name: a # the first',
  'spec:',
  '  platform: aws',
  '  note: |',
  '    # not a comment: block scalar text',
  '    password: hunter2hunter2',
  '# password: Sup3rS3cretValue',
  '# existingSecret: ccm-creds',
  '  list: [1, 2, {a: b}]',
  '---',
  '...',
  'a: &x {b: c}',
  'b: *x',
  'key: "unterminated',
  '- item',
  '  : odd',
  '%YAML 1.2',
  '',
  '#',
  '   # indented comment token: ghp_abcdefghijklmnopqrstuvwxyz0123456789',
];

describe('readYamlSource parses a spec once', () => {
  test('GIVEN texts built from spec lines, comments, documents and broken YAML WHEN read THEN the document, its first error and its line are those of parseDocument', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...LINES), { maxLength: 14 }), (picked) => {
        // GIVEN a text of some of the lines
        const text = picked.join('\n');
        // WHEN it is read, and read by the library's own parseDocument
        const got = read(text);
        const want = reference(text);
        // THEN a parse error is the same error at the same line, and a document the same document
        if (want.error) {
          expect(got).toMatchObject({ line: want.error.line });
          expect((got as SpecIssue).message).toMatch(
            want.error.code === 'MULTIPLE_DOCS' ? /holds more than one YAML document/ : /is not valid YAML|nests deeper/,
          );
        } else if ('json' in got) {
          expect(got).toEqual({ json: want.json, text: want.text, comment: undefined });
          expect(want.comment).toBeUndefined();
        } else if (/a comment looks like a credential/.test(got.message)) {
          // refused for a comment: the credential the second parse finds, at its line
          expect(got).toMatchObject({ line: (want.comment as { line: number } | undefined)?.line });
        }
      }),
      { numRuns: 400 },
    );
  });

  test('GIVEN a credential in a comment after a block scalar holding a `#` WHEN read THEN it is refused at the comment line, not the scalar', () => {
    // GIVEN a spec whose block scalar holds a `#` line, then a commented-out password
    const text = ['metadata:', '  name: a', 'spec:', '  note: |', '    # password: notacomment1234', '# password: Sup3rS3cretValue', ''].join('\n');
    // WHEN it is read
    const got = read(text);
    // THEN the comment on line 6 is refused, never its value
    expect(got).toMatchObject({ line: 6 });
    expect(JSON.stringify(got)).not.toContain('Sup3rS3cretValue');
  });
});
