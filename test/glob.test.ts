import * as path from 'path';
import { runCli } from '../src/cli';
import { nameMatcher } from '../src/pipeline/synth';
import { globMatch } from '../src/util/glob';
import { awsSpec, captureIo, useTempDir, writeFile } from './helpers';

// --only globs are matched in steps bounded by pattern x name, never by backtracking.

describe('globMatch', () => {
  test.each([
    ['aws-*', 'aws-a', true],
    ['aws-*', 'gcp-a', false],
    ['*-prod', 'eu-1-prod', true],
    ['a?c', 'abc', true],
    ['a?c', 'ac', false],
    ['*', '', true],
    ['', '', true],
    ['', 'a', false],
    ['a*b*c', 'axxbyyc', true],
    ['a*b*c', 'axxbyy', false],
    ['a.b', 'axb', false],
    ['(x|y)+', '(x|y)+', true],
    ['**a**', 'ba', true],
  ])('%s against %s is %s', (pattern, name, expected) => {
    expect(globMatch(pattern, name)).toBe(expected);
    expect(nameMatcher(pattern)(name)).toBe(expected);
  });

  test('a pattern of 30 stars takes at most (pattern + 1) x (name + 1) steps', () => {
    // GIVEN the pattern that backtracks exponentially as a regular expression
    const pattern = `${'a*'.repeat(30)}b`;
    const name = 'a'.repeat(60);
    // WHEN it is matched, counting steps
    let steps = 0;
    const matched = globMatch(pattern, name, () => steps++);
    // THEN it does not match, within the bound; and a name ending in b does
    expect(matched).toBe(false);
    expect(steps).toBeLessThanOrEqual((pattern.length + 1) * (name.length + 1));
    expect(globMatch(pattern, `${name}b`)).toBe(true);
  });
});

describe('synth --only with many stars', () => {
  const dir = useTempDir();
  test('completes with the no-match error', () => {
    // GIVEN a fleet of one cluster whose name is a run of a's
    const clusters = path.join(dir(), 'clusters');
    writeFile(clusters, 'a.yaml', awsSpec('a'.repeat(40)));
    const pattern = `${'a*'.repeat(30)}b`;
    // WHEN synth --only runs with a 30-star pattern
    const c = captureIo();
    const code = runCli(['synth', '--clusters', clusters, '--out', path.join(dir(), 'dist'), '--only', pattern, '-q'], c.io, {});
    // THEN it finishes with the usual error
    expect(code).toBe(1);
    expect(c.stderr()).toBe(`error: no cluster matches --only ${pattern}; clusters: ${'a'.repeat(40)}\n`);
  });
});
