import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { runCli } from '../src/cli';
import { captureIo, useTempDir } from './helpers';

const REPO = path.resolve(__dirname, '..');
const EXPORT = path.join(REPO, 'examples', 'import', 'vsphere-live');

describe('import: hostile exports', () => {
  const dir = useTempDir();

  const copyExport = (): string => {
    const from = path.join(dir(), 'export');
    fs.mkdirSync(from);
    for (const f of fs.readdirSync(EXPORT)) {
      fs.copyFileSync(path.join(EXPORT, f), path.join(from, f));
    }
    return from;
  };

  test('Proxy status credentials are refused, never written, never printed', () => {
    // GIVEN an export whose Proxy status carries user:password and a token user
    const from = copyExport();
    const config = path.join(from, 'config.yaml');
    fs.writeFileSync(
      config,
      fs.readFileSync(config, 'utf8').split('http://proxy.lab.example.com:3128').join('http://admin:hunter2@proxy.lab.example.com:3128'),
    );
    // WHEN it is imported
    const out = path.join(dir(), 'clusters');
    const cap = captureIo();
    const code = runCli(['import', '--from', from, '--out', out], cap.io, {});
    // THEN it fails, nothing is written, and the password is not printed
    expect(code).toBe(1);
    expect(cap.stderr()).toContain('error: the imported spec field spec.proxy.httpProxy holds a URL with credentials (user:password@)');
    expect(cap.stderr()).not.toContain('hunter2');
    expect(fs.existsSync(out)).toBe(false);
  });

  test('a FIFO in the export folder is refused, not read forever', () => {
    // GIVEN an export folder with a named pipe called like an export file
    const from = copyExport();
    execFileSync('mkfifo', [path.join(from, 'zz-pipe.yaml')]);
    // WHEN it is imported
    const cap = captureIo();
    const code = runCli(['import', '--from', from, '--out', path.join(dir(), 'clusters')], cap.io, {});
    // THEN it fails at once naming the file
    expect(code).toBe(1);
    expect(cap.stderr()).toContain('zz-pipe.yaml is not a regular file (a FIFO, socket, device or folder)');
  });
});
