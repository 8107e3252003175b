#!/usr/bin/env node
// npm pack / npm publish (prepack): compiles src/ and imports/ into lib/ when
// a source is newer than the last build (as npm run synth and the tests do),
// and removes compiled files whose source no longer exists, so the package
// carries exactly the current build. Consumers never compile: the tarball
// holds lib/ (package.json "files").
'use strict';
const fs = require('fs');
const path = require('path');

const root = path.resolve(__dirname, '..');
require('./synth.js').compileIfStale();

const removed = [];
for (const dir of ['src', 'imports']) {
  const visit = (rel) => {
    const abs = path.join(root, 'lib', rel);
    if (!fs.existsSync(abs)) {
      return;
    }
    for (const name of fs.readdirSync(abs)) {
      const child = path.join(rel, name);
      if (fs.statSync(path.join(root, 'lib', child)).isDirectory()) {
        visit(child);
      } else {
        const source = child.replace(/\.d\.ts$|\.js$/, '.ts');
        if (source !== child && !fs.existsSync(path.join(root, source))) {
          fs.rmSync(path.join(root, 'lib', child));
          removed.push(child);
        }
      }
    }
  };
  visit(dir);
}
if (removed.length > 0) {
  console.error(`prepack: removed ${removed.length} compiled file(s) without a source: ${removed.join(', ')}`);
}
