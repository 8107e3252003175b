import * as fs from 'fs';
import * as path from 'path';

/** The package's own name in package.json. */
export const PACKAGE_NAME = 'ccm-gitops';

/**
 * The root folder of the installed ccm-gitops package: the nearest folder
 * above this file whose package.json is named `ccm-gitops` (src/ in a clone,
 * lib/src/ in the installed package: both resolve to the package root).
 */
export function packageRoot(from: string = __dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file) && (JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string }).name === PACKAGE_NAME) {
      return dir;
    }
    if (path.dirname(dir) === dir) {
      throw new Error(`no package.json of ${PACKAGE_NAME} above ${from}`);
    }
  }
}

/** The version in ccm-gitops' package.json (what `ccm-gitops --version` prints). */
export function packageVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}
