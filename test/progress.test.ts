import * as path from 'path';
import { runCli } from '../src/cli';
import { ProgressLine } from '../src/pipeline/progress';
import { awsSpec, useTempDir, writeFile } from './helpers';

/** A clock that moves only when told. */
function fakeClock(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
  };
}

describe('synth progress', () => {
  test('GIVEN no terminal WHEN clusters load and render over twelve seconds THEN a line every five seconds, with counts and rate', () => {
    const clock = fakeClock();
    const lines: string[] = [];
    const p = new ProgressLine({ write: (t) => lines.push(t), tty: false, now: clock.now });
    p.start(100);
    for (let i = 0; i < 60; i++) {
      clock.advance(200);
      p.loaded();
      p.rendered();
    }
    p.writing();
    p.finish();
    expect(lines).toEqual(['synth: 25/100 clusters loaded, 24 rendered (5/s), 5 s\n', 'synth: 50/100 clusters loaded, 49 rendered (5/s), 10 s\n']);
  });

  test('GIVEN a terminal WHEN the run goes on THEN one line is redrawn in place and cleared at the end', () => {
    const clock = fakeClock();
    const out: string[] = [];
    const p = new ProgressLine({ write: (t) => out.push(t), tty: true, now: clock.now, redrawMs: 200 });
    p.start(3);
    clock.advance(100);
    p.loaded();
    clock.advance(150);
    p.loaded();
    clock.advance(1000);
    p.rendered();
    p.writing();
    clock.advance(300);
    p.writing();
    p.finish();
    expect(out).toEqual([
      '\rsynth: 2/3 clusters loaded, 0 rendered (0/s), 0 s\x1b[K',
      '\rsynth: 2/3 clusters loaded, 1 rendered (1/s), 1 s\x1b[K',
      '\rsynth: 2/3 clusters loaded, 1 rendered (1/s), writing the output, 2 s\x1b[K',
      '\r\x1b[K',
    ]);
  });

  describe('from the command line', () => {
    const dir = useTempDir();
    const synth = (extra: string[]): { code: number; out: string; err: string } => {
      for (const n of ['a', 'b', 'c']) {
        writeFile(dir(), `c/${n}.yaml`, awsSpec(n));
      }
      // each reading of the clock is three seconds later: a slow run, told without sleeping
      let t = 0;
      let out = '';
      let err = '';
      const code = runCli(
        ['synth', '-j', '1', '--clusters', path.join(dir(), 'c'), '--out', path.join(dir(), 'out'), ...extra],
        {
          out: (s) => {
            out += s;
          },
          err: (s) => {
            err += s;
          },
          errIsTTY: false,
          now: () => (t += 3000),
        },
        {},
      );
      return { code, out, err };
    };

    test('GIVEN a slow synth not on a terminal WHEN it runs THEN progress lines go to standard error before the summary', () => {
      const r = synth([]);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/^rendered 3 clusters into .* \(\d+ files written\)\n$/);
      const lines = r.err.split('\n').filter((l) => l);
      expect(lines.length).toBeGreaterThanOrEqual(3);
      expect(lines.every((l) => /^synth: [0-3]\/3 clusters loaded, [0-3] rendered \(\d+\/s\)(, writing the output)?, \d+ s$/.test(l))).toBe(true);
      expect(lines[lines.length - 1]).toContain('3/3 clusters loaded, 3 rendered');
    });

    test('GIVEN --quiet WHEN the same slow synth runs THEN nothing is printed', () => {
      expect(synth(['-q'])).toEqual({ code: 0, out: '', err: '' });
    });
  });
});
