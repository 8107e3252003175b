import * as fs from 'fs';
import * as path from 'path';
import { readCapped, runCli } from '../src/cli';
import { MAX_INPUT_BYTES } from '../src/fleet/load';
import { useTempDir } from './helpers';

/**
 * `cloud-config transform` reads standard input up to the limit of input
 * files, refuses more with one error, and checks a config of that size in
 * well under the timeout (the secret scan of its values is linear).
 */

const TIMEOUT_MS = 20_000;

function transform(platform: string, input: string): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const code = runCli(
    ['cloud-config', 'transform', '--platform', platform],
    {
      out: (t) => {
        out += t;
      },
      err: (t) => {
        err += t;
      },
      in: () => input,
    },
    {},
  );
  return { code, out, err };
}

/** A config of exactly `bytes` bytes whose last value fills it. */
function configOf(head: string, bytes: number, key = 'node-tags'): string {
  return `${head}${key} = ${'x'.repeat(bytes - Buffer.byteLength(`${head}${key} = \n`))}\n`;
}

describe('cloud-config transform: standard input', () => {
  test('GIVEN one byte more than the limit WHEN transformed THEN exit 2 with one error and no output', () => {
    const r = transform('GCP', configOf('[global]\nproject-id = p\n', MAX_INPUT_BYTES + 1));
    expect(r).toEqual({
      code: 2,
      out: '',
      err: 'error: standard input is over the 1048576-byte limit of input files; a cloud config is a small text file: give the config alone\n',
    });
  });

  test.each([
    ['GCP', '[global]\nproject-id = p\n', 'node-tags'],
    ['AWS', '[Global]\nZone = us-east-1a\n', 'KubernetesClusterID'],
  ])(
    'GIVEN a %s config of exactly the limit, one value filling it WHEN transformed THEN it completes',
    (platform, head, key) => {
      const input = configOf(head, MAX_INPUT_BYTES, key);
      expect(Buffer.byteLength(input)).toBe(MAX_INPUT_BYTES);
      const r = transform(platform, input);
      expect(r.code).toBe(0);
      expect(r.out).toContain(`${key}`);
    },
    TIMEOUT_MS,
  );
});

describe('readCapped', () => {
  const dir = useTempDir();
  test.each([
    ['a file under the limit', 100, 1000, 100],
    ['a file of the limit', 1000, 1000, 1000],
    ['a file over the limit', 300_000, 1000, 1001],
  ])('GIVEN %s WHEN read THEN all of it or the limit and one byte is read', (_name, size, limit, expected) => {
    const file = path.join(dir(), 'in.txt');
    fs.writeFileSync(file, 'a'.repeat(size));
    const fd = fs.openSync(file, 'r');
    try {
      expect(readCapped(fd, limit)).toHaveLength(expected);
    } finally {
      fs.closeSync(fd);
    }
  });
});
