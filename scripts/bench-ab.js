#!/usr/bin/env node
// node scripts/bench-ab.js N DIR_A DIR_B [DIR ...] [--rounds R] [--tmp DIR] [--mem] [--json FILE]:
// the user-visible figures of two or more builds of ccm-gitops, interleaved
// (A, B, A, B, ...: a machine shared with other jobs slows both alike), to
// decide whether a piece pays for itself. Each DIR is a checkout (or a copy
// of one) with its compiled lib/ and scripts/bench.js: a build with the
// piece and one without it. On one generated fleet of N clusters (as
// `npm run bench` makes it), each round and build: a full synth into an
// empty folder with no cache, the unchanged fleet twice (the second is
// reported), `--only` of a changed cluster, `--check` with one stale
// cluster, and `diff` of two trees one cluster apart. `--mem` stops after
// the unchanged runs (peak RSS at 10,000 clusters). Prints, per build and
// figure, the median and range of the rounds (wall; peak RSS for full and
// unchanged) and the gain of the first build over each other.
'use strict';
const { execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { exampleTemplates, makeFleet } = require('./bench');

const SETTLE_WAIT_MS = 2100;
const argv = process.argv.slice(2);
const option = (name, fallback) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
const valued = new Set(['--rounds', '--tmp', '--json']);
const positional = argv.filter((a, i) => !a.startsWith('--') && !valued.has(argv[i - 1]));
const [n, ...builds] = [Number(positional[0]), ...positional.slice(1).map((d) => path.resolve(d))];
if (!(n > 0) || builds.length < 2) {
  console.error('usage: node scripts/bench-ab.js N DIR_A DIR_B [DIR ...] [--rounds R] [--tmp DIR] [--mem] [--json FILE]');
  process.exit(2);
}
const rounds = Number(option('--rounds', '3'));
const mem = argv.includes('--mem');
const tmp = path.resolve(option('--tmp', os.tmpdir()));
const jsonFile = path.resolve(option('--json', 'bench-ab-results.json'));

const dir = fs.mkdtempSync(path.join(tmp, 'ccm-gitops-ab-'));
const clusters = path.join(dir, 'clusters');
const names = makeFleet(n, exampleTemplates(), clusters);
// copies of the example that sets its topology: changing it changes their output
const candidates = names.filter((c) => c.file.includes(`${path.sep}us-east-1${path.sep}`)
  && /controlPlaneTopology: (HighlyAvailable|SingleReplica)/.test(fs.readFileSync(c.file, 'utf8')));
const pick = (i) => candidates[Math.floor((candidates.length * i) / 4)];
if (pick(1) === pick(3)) {
  console.error(`a fleet of ${n} holds too few copies of the example these runs change: take N of 100 or more`);
  process.exit(2);
}

/** Flips a cluster's topology: twice gives the spec back. */
function toggle({ file }) {
  const text = fs.readFileSync(file, 'utf8');
  fs.writeFileSync(file, /controlPlaneTopology: HighlyAvailable/.test(text)
    ? text.replace('controlPlaneTopology: HighlyAvailable', 'controlPlaneTopology: SingleReplica')
    : text.replace('controlPlaneTopology: SingleReplica', 'controlPlaneTopology: HighlyAvailable'));
}

/** One CLI run of a build, in a fresh process, as `npm run bench` runs it; checks the exit code. */
function run(build, args, env, code) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, SETTLE_WAIT_MS);
  const start = process.hrtime.bigint();
  const stdout = execFileSync(process.execPath, [path.join(build, 'scripts', 'bench.js')], {
    env: { PATH: process.env.PATH, ...env, CCM_GITOPS_BENCH_CLI: JSON.stringify(args) },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  const r = JSON.parse(stdout);
  if (r.code !== code) {
    throw new Error(`${build}: ccm-gitops ${args.join(' ')} exited ${r.code}, not ${code}: ${r.stderr}`);
  }
  return { wallMs, rssMiB: Math.round(r.maxRssKiB / 1024), stdout: r.stdout };
}

const samples = builds.map(() => ({}));
const add = (b, figure, value) => (samples[b][figure] ??= []).push(value);
try {
  for (let round = 0; round < rounds; round++) {
    builds.forEach((build, b) => {
      process.stderr.write(`round ${round + 1}/${rounds}: ${build}\n`);
      const out = path.join(dir, 'dist');
      const env = { CCM_GITOPS_CACHE_DIR: path.join(dir, 'cache') };
      const clean = () => [out, env.CCM_GITOPS_CACHE_DIR].forEach((d) => fs.rmSync(d, { recursive: true, force: true }));
      clean();
      const full = run(build, ['synth', '-c', clusters, '-o', out], env, 0);
      add(b, 'full synth', full.wallMs);
      add(b, 'full synth peak RSS', full.rssMiB);
      const first = run(build, ['synth', '-c', clusters, '-o', out], env, 0);
      add(b, 'unchanged, first run after a full synth', first.wallMs);
      add(b, 'unchanged, first run: peak RSS', first.rssMiB);
      const unchanged = run(build, ['synth', '-c', clusters, '-o', out], env, 0);
      if (!/no file written/.test(unchanged.stdout)) {
        throw new Error(`${build}: the unchanged synth wrote files: ${unchanged.stdout}`);
      }
      add(b, 'unchanged', unchanged.wallMs);
      add(b, 'unchanged peak RSS', unchanged.rssMiB);
      if (!mem) {
        toggle(pick(1));
        add(b, '--only', run(build, ['synth', '-c', clusters, '-o', out, '--only', pick(1).name], env, 0).wallMs);
        toggle(pick(1));
        const before = path.join(dir, 'before');
        fs.cpSync(out, before, { recursive: true });
        toggle(pick(3));
        add(b, '--check', run(build, ['synth', '-c', clusters, '-o', out, '--check'], env, 1).wallMs);
        run(build, ['synth', '-c', clusters, '-o', out], env, 0);
        toggle(pick(3)); // the fleet as it was, for the next build
        add(b, 'diff', run(build, ['diff', before, out], env, 1).wallMs);
        fs.rmSync(before, { recursive: true, force: true });
      }
      clean();
    });
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const show = (figure, v) => (/RSS/.test(figure) ? `${v} MiB` : `${(v / 1000).toFixed(2)} s`);
const figures = Object.keys(samples[0]);
const result = { node: process.version, cores: os.cpus().length, loadAverage: os.loadavg(), clusters: n, rounds, builds, samples };
fs.writeFileSync(jsonFile, `${JSON.stringify(result, null, 2)}\n`);
console.log(`${n} clusters, ${rounds} interleaved rounds, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
console.log(`| figure | ${builds.map((b) => path.basename(b)).join(' | ')} | ${builds.slice(1).map((b) => `gain of ${path.basename(builds[0])} over ${path.basename(b)}`).join(' | ')} |`);
console.log(`|---|${builds.map(() => '---:').join('|')}|${builds.slice(1).map(() => '---:').join('|')}|`);
for (const figure of figures) {
  const cells = samples.map((s) => `${show(figure, median(s[figure]))} (${show(figure, Math.min(...s[figure]))}–${show(figure, Math.max(...s[figure]))})`);
  const gains = samples.slice(1).map((s) => `${Math.round((1 - median(samples[0][figure]) / median(s[figure])) * 100)}%`);
  console.log(`| ${figure} | ${cells.join(' | ')} | ${gains.join(' | ')} |`);
}
console.log(`\nJSON: ${path.relative(process.cwd(), jsonFile) || jsonFile}`);
