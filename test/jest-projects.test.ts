/**
 * The suite itself: a suite that starts the compiled CLI or npm in a child
 * process runs in the `e2e` project (it needs the global setup's compile and
 * is what `npm run test:unit` leaves out), and no test leans on a warm cache
 * or asserts a wall-clock time.
 */
import * as fs from 'fs';
import * as path from 'path';

const TEST = __dirname;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- jest's own config, a CommonJS module
const CONFIG = require('../jest.config.js') as { projects: { displayName: string; testMatch: string[] }[] };

/** The test files under test/, relative, `/`-separated, sorted. */
function testFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        walk(p);
      } else if (e.name.endsWith('.test.ts')) {
        out.push(path.relative(TEST, p).split(path.sep).join('/'));
      }
    }
  };
  walk(TEST);
  return out.sort();
}

/** The source without its comments, so that prose naming a command is not taken for a call. */
function code(file: string): string {
  return fs
    .readFileSync(path.join(TEST, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
}

const E2E = new Set(CONFIG.projects.find((p) => p.displayName === 'e2e')!.testMatch.map((m) => m.replace('<rootDir>/test/', '')));

/** Starts the compiled lib/, bin/ccm-gitops or npm in a child process. */
const CHILD_OF_THE_BUILD =
  /['"]lib['"],\s*['"]src['"]|lib\/src\/|['"]bin['"],\s*['"]ccm-gitops['"]|bin\/ccm-gitops|\b(spawn|spawnSync|execFileSync|execSync)\(\s*['"]npm['"]/;

describe('the jest projects', () => {
  test('GIVEN every test file WHEN it starts the compiled CLI or npm THEN it is in the e2e project, and every e2e entry exists', () => {
    const files = testFiles();
    const needsBuild = files.filter((f) => CHILD_OF_THE_BUILD.test(code(f)));
    expect(needsBuild.filter((f) => !E2E.has(f))).toEqual([]);
    expect([...E2E].filter((f) => !files.includes(f))).toEqual([]);
  });

  test('GIVEN every test file THEN none asks npm for --offline (a fresh machine has an empty cache) and none asserts a wall-clock time', () => {
    const self = path.basename(__filename);
    const offline = testFiles().filter((f) => f !== self && /['"]--offline['"]|only-if-cached/.test(code(f)));
    const clocked = testFiles().filter((f) => f !== self && /expect\([^;]*?(Date\.now\(\)|performance\.now\(\)|hrtime|\.ms\b)/.test(code(f)));
    expect({ offline, clocked }).toEqual({ offline: [], clocked: [] });
  });
});
