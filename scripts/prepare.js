#!/usr/bin/env node
// npm ci / npm install in a clone (prepare): compiles src/ into lib/, so
// bin/ccm-gitops and `npx cdk8s synth` work right after the install.
// The published package already carries lib/ (built by prepack) and has no
// sources: installed from a tarball or git, where npm may run prepare too,
// this does nothing.
'use strict';
const fs = require('fs');
const path = require('path');

const root = path.resolve(__dirname, '..');
if (fs.existsSync(path.join(root, 'tsconfig.build.json')) && fs.existsSync(path.join(root, 'scripts', 'synth.js'))) {
  // required, synth.js runs nothing of itself: call its build
  require('./synth.js').compileIfStale();
}
