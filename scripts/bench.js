#!/usr/bin/env node
// npm run bench: renders N copies of the example cluster (N = 1, 10, 100 by
// default, or the numbers given as arguments) each in a fresh process, and
// prints wall time (whole process and per phase) and peak RSS as a Markdown
// table. Needs the compiled lib/ (npm run bench compiles first).
'use strict';
const { execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const root = path.resolve(__dirname, '..');
const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
const ns = sizes.length > 0 ? sizes : [1, 10, 100];

if (process.env.CCM_GITOPS_BENCH_CHILD) {
  child(Number(process.env.CCM_GITOPS_BENCH_CHILD), process.env.CCM_GITOPS_BENCH_DIR);
} else {
  parent();
}

function parent() {
  const rows = [];
  for (const n of ns) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccm-gitops-bench-'));
    try {
      makeFleet(n, path.join(dir, 'clusters'));
      const start = process.hrtime.bigint();
      const out = execFileSync(process.execPath, [__filename], {
        env: { ...process.env, CCM_GITOPS_BENCH_CHILD: String(n), CCM_GITOPS_BENCH_DIR: dir },
        encoding: 'utf8',
      });
      const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
      rows.push({ n, wallMs, ...JSON.parse(out) });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  const f = (x) => x.toFixed(0);
  console.log(`ccm-gitops synth benchmark (node ${process.version}, ${os.cpus().length} cores)\n`);
  console.log('| clusters | files | process wall ms | require ms | load+validate ms | render ms | write ms | ms/cluster (in-process) | peak RSS MiB |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const inProcess = r.loadMs + r.renderMs + r.writeMs;
    console.log(`| ${r.n} | ${r.files} | ${f(r.wallMs)} | ${f(r.requireMs)} | ${f(r.loadMs)} | ${f(r.renderMs)} | ${f(r.writeMs)} | ${(inProcess / r.n).toFixed(1)} | ${(r.maxRssKiB / 1024).toFixed(0)} |`);
  }
}

/** N copies of the example AWS cluster (with its folder defaults and cloud config). */
function makeFleet(n, dir) {
  const example = path.join(root, 'clusters');
  fs.mkdirSync(path.join(dir, 'us-east-1'), { recursive: true });
  fs.copyFileSync(path.join(example, 'defaults.yaml'), path.join(dir, 'defaults.yaml'));
  fs.copyFileSync(path.join(example, 'us-east-1', 'defaults.yaml'), path.join(dir, 'us-east-1', 'defaults.yaml'));
  const spec = fs.readFileSync(path.join(example, 'us-east-1', 'aws-prod-1.yaml'), 'utf8');
  const conf = fs.readFileSync(path.join(example, 'us-east-1', 'aws-prod-1.cloud.conf'), 'utf8');
  for (let i = 0; i < n; i++) {
    const name = `aws-bench-${String(i).padStart(4, '0')}`;
    fs.writeFileSync(path.join(dir, 'us-east-1', `${name}.yaml`), spec.replace(/aws-prod-1/g, name));
    fs.writeFileSync(path.join(dir, 'us-east-1', `${name}.cloud.conf`), conf);
  }
}

function child(n, dir) {
  const t0 = performance.now();
  const lib = require(path.join(root, 'lib', 'src', 'index.js'));
  const t1 = performance.now();
  const fleet = lib.loadFleet(path.join(dir, 'clusters'));
  const t2 = performance.now();
  const files = lib.renderFleet(fleet);
  const t3 = performance.now();
  lib.writeTreeAtomically(path.join(dir, 'dist'), files);
  const t4 = performance.now();
  if (fleet.clusters.length !== n) {
    throw new Error(`expected ${n} clusters, rendered ${fleet.clusters.length}`);
  }
  process.stdout.write(JSON.stringify({
    files: files.length,
    requireMs: t1 - t0,
    loadMs: t2 - t1,
    renderMs: t3 - t2,
    writeMs: t4 - t3,
    maxRssKiB: process.resourceUsage().maxRSS,
  }));
}
