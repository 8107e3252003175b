import * as fs from 'fs';
import * as path from 'path';
import { FleetEntry, fleetSummaryFiles, FLEET_JSON, pickAsWritten, readFleetEntries, readFleetSummary } from '../src/pipeline/fleet-summary';
import { useTempDir } from './helpers';

// The summary synth wrote is read back a cluster at a time (the phase guard,
// the output's known clusters, --only's kept lines); any other text is parsed
// whole. Either way the entries are JSON.parse's.

const dir = useTempDir();

function entry(i: number): FleetEntry {
  return {
    name: `c-${String(i).padStart(4, '0')}`,
    spec: `ö/c-${i}.yaml`,
    distribution: i % 2 === 0 ? 'openshift' : 'kubernetes',
    platform: 'AWS',
    topology: 'HighlyAvailable',
    managementMode: 'gitops',
    engine: 'argocd',
    phase: 'external',
    objects: i,
    stages: ['01-namespaces-rbac', '04-workloads'],
    // an escaped newline and brace in a value: text, never an entry's end
    images: { cloudControllerManagerAWS: `quay.io/ccm:v${i} \n    },\n  ]`, 'x—y': '雪' },
  };
}

function summaryText(entries: readonly FleetEntry[]): string {
  return fleetSummaryFiles(entries).find((f) => f.path === FLEET_JSON)!.content;
}

/** The text in pieces of `size` characters. */
function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) {
    out.push(text.slice(i, i + size));
  }
  return out;
}

function writeSummary(text: string): string {
  const out = dir();
  fs.writeFileSync(path.join(out, FLEET_JSON), text);
  return out;
}

describe('reading the fleet summary back', () => {
  test.each([1, 2, 3, 40])(
    'GIVEN the summary synth writes for %i clusters WHEN it is read in pieces of any size THEN each entry is JSON.parse gives',
    (count) => {
      const entries = Array.from({ length: count }, (_, i) => entry(i));
      const text = summaryText(entries);
      const parsed = (JSON.parse(text) as { clusters: FleetEntry[] }).clusters;
      for (const size of [1, 2, 5, 6, 7, 8, 13, 64, 1000, text.length]) {
        expect(pickAsWritten(pieces(text, size), (e) => e)).toEqual(parsed);
      }
      expect(readFleetEntries(writeSummary(text))).toEqual(parsed);
      expect(readFleetSummary(writeSummary(text), (e) => [e.name, e.phase])).toEqual(parsed.map((e) => [e.name, e.phase]));
    },
  );

  test('GIVEN a summary over the 1 MiB read size with a character split across two reads WHEN it is read THEN the entries are whole', () => {
    // the first spec's name is padded until byte 1 MiB falls inside a character of several bytes
    const padded = (pad: number) =>
      summaryText(Array.from({ length: 2500 }, (_, i) => (i === 0 ? { ...entry(i), spec: 'a'.repeat(pad) } : entry(i))));
    const bytes = Buffer.from(padded(0));
    let inside = 1 << 20; // the last byte at or before 1 MiB that continues a character
    while ((bytes[inside] & 0xc0) !== 0x80) {
      inside--;
    }
    const text = padded((1 << 20) - inside);
    expect(Buffer.from(text)[1 << 20] & 0xc0).toBe(0x80);
    const parsed = (JSON.parse(text) as { clusters: FleetEntry[] }).clusters;
    expect(readFleetEntries(writeSummary(text))).toEqual(parsed);
  });

  const one = summaryText([entry(1), entry(2)]);
  test.each([
    ['empty fleet', '{\n  "clusters": []\n}\n', []],
    ['compact JSON', JSON.stringify({ clusters: [entry(1)] }), [entry(1)]],
    ['no final newline', one.slice(0, -1), [entry(1), entry(2)]],
    ['a blank line after it', `${one}\n`, [entry(1), entry(2)]],
    ['another key after the list', one.replace('\n  ]\n}', '\n  ],\n  "more": 1\n}'), [entry(1), entry(2)]],
    ['an entry that is not an object', one.replace('    },\n    {', '    },\n    7,\n    {'), [entry(1), 7, entry(2)]],
    ['a truncated file', one.slice(0, one.length / 2), []],
    ['not JSON', 'clusters: []\n', []],
    ['clusters not a list', '{\n  "clusters": {}\n}\n', []],
  ])('GIVEN a summary edited by hand (%s) WHEN it is read THEN the entries are JSON.parse gives, or none', (_, text, expected) => {
    expect(pickAsWritten([text], (e) => e)).toBeUndefined();
    expect(readFleetEntries(writeSummary(text))).toEqual(expected);
  });

  test('GIVEN a link where the summary was WHEN it is read THEN it is not followed', () => {
    const out = dir();
    const target = path.join(out, 'elsewhere.json');
    fs.writeFileSync(target, summaryText([entry(1)]));
    fs.symlinkSync(target, path.join(out, FLEET_JSON));
    expect(readFleetEntries(out)).toEqual([]);
  });
});
