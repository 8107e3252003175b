#!/usr/bin/env node
// npm run synth: compiles src/ only when a source is newer than the last
// build (a no-op `tsc` costs more than a synth of the example fleet), then
// runs the app in this process with the given arguments.
// npm run compile: `node scripts/synth.js --compile`, always compiles and
// stamps the build, and renders nothing. The tests' global setup requires it
// for compileIfStale: the suites that run bin/ccm-gitops run the current source.
'use strict';
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const root = path.resolve(__dirname, '..');
const stamp = path.join(root, 'lib', '.build-stamp');

function newestSource() {
  let newest = 0;
  const visit = (p) => {
    const st = fs.statSync(p);
    if (st.isDirectory()) {
      for (const name of fs.readdirSync(p)) {
        visit(path.join(p, name));
      }
    } else if (/\.(ts|json|js)$/.test(p)) {
      newest = Math.max(newest, st.mtimeMs);
    }
  };
  // what the build reads: the sources, the compiler options, and the rewrite of the published declarations
  for (const p of ['src', 'imports', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json', 'scripts/public-types.js']) {
    visit(path.join(root, p));
  }
  return newest;
}

function compile() {
  execFileSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
  // the published declarations name no zod type (they would need esModuleInterop): scripts/public-types.js
  require('./public-types').rewrite();
  fs.writeFileSync(stamp, '');
}

/** Compiles src/ when a source is newer than the last build (or lib/ has no build). */
function compileIfStale() {
  let built = 0;
  try {
    built = fs.statSync(stamp).mtimeMs;
  } catch {
    built = 0;
  }
  if (built === 0 || newestSource() > built || !fs.existsSync(path.join(root, 'lib', 'src', 'main.js'))) {
    compile();
  }
}

module.exports = { compileIfStale };

if (require.main !== module) {
  // required (the tests' global setup): nothing more
} else if (process.argv[2] === '--compile') {
  compile();
} else {
  compileIfStale();
  require(path.join(root, 'lib', 'src', 'main.js'));
}
