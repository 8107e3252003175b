#!/usr/bin/env node
// node scripts/bench-ab.js N DIR_A DIR_B [DIR ...] [--rounds R] [--tmp DIR] [--mem] [--json FILE]
// node scripts/bench-ab.js N --without PIECE[,PIECE...] [--rounds R] [--tmp DIR] [--mem] [--json FILE]:
// the user-visible figures of two or more builds of ccm-gitops, interleaved
// (A, B, A, B, ...: a machine shared with other jobs slows both alike), to
// decide whether a piece pays for itself. Each DIR is a checkout (or a copy
// of one) with its compiled lib/ and scripts/bench.js: a build with the
// piece and one without it. `--without` makes the builds itself: this
// checkout, then per PIECE (see PIECES below) a copy of its lib/ with that
// piece switched off (or the same build with a CLI option), so every
// "without" figure of docs/performance.md is rebuilt by one command. On one
// generated fleet of N clusters (as `npm run bench` makes it), each round
// and build: a full synth into an empty folder with no cache, the unchanged
// fleet twice (the second is reported), `--only` of a changed cluster,
// `--check` with one stale cluster, and `diff` of two trees one cluster
// apart. `--mem` stops after the unchanged runs (peak RSS at 10,000
// clusters). Prints, per build and figure, the median and range of the
// rounds (wall, and CPU: user + system of the process and its worker
// threads; peak RSS for full and unchanged) and the gain of the first build
// over each other. On a machine other jobs load, CPU time is the figure to
// trust: wall time grows with their load, CPU time much less.
'use strict';
const { execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { exampleTemplates, makeFleet } = require('./bench');

const SETTLE_WAIT_MS = 2100;
const argv = process.argv.slice(2);
const option = (name, fallback) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
const valued = new Set(['--rounds', '--tmp', '--json', '--without']);
const positional = argv.filter((a, i) => !a.startsWith('--') && !valued.has(argv[i - 1]));
const without = option('--without', '').split(',').filter((p) => p !== '');
const usage = 'usage: node scripts/bench-ab.js N (DIR_A DIR_B [DIR ...] | --without PIECE[,PIECE...]) [--rounds R] [--tmp DIR] [--mem] [--json FILE]';
const root = path.resolve(__dirname, '..');

/**
 * The pieces docs/performance.md weighs, each as a build without it: `args`
 * given to every run of this checkout's build, or `patches` to the compiled
 * lib/ of a copy of it (each `from` must occur exactly once, so a patch that
 * no longer fits fails here instead of measuring the piece still in place).
 */
const PIECES = {
  'render-cache': {
    what: 'render cache (src/pipeline/render-cache.ts): RenderCache.forOutput gives no cache',
    patches: [['src/pipeline/render-cache.js', 'static forOutput(dir, realOutput) {', 'static forOutput(dir, realOutput) { return undefined;']],
  },
  'spec-cache': {
    what: 'spec cache (src/pipeline/spec-cache.ts): SpecCache.forClusters gives no cache',
    patches: [['src/pipeline/spec-cache.js', 'static forClusters(dir, realClusters, now = Date.now()) {', 'static forClusters(dir, realClusters, now = Date.now()) { return undefined;']],
  },
  metadata: {
    what: "folders checked by metadata: verifyUnit always reads and digests the folder's files",
    patches: [['src/pipeline/render-cache.js', 'if (cached.stat !== undefined && cached.files', 'if (false && cached.stat !== undefined && cached.files']],
  },
  'yaml-emitter': {
    what: "YAML emitter (src/gitops/yaml-emitter.ts): every document goes to yaml's stringify",
    patches: [['src/gitops/yaml-emitter.js', 'const fast = tryEmit(value);', 'const fast = undefined;']],
  },
  'facts-apart': {
    what: 'facts apart from constructs: the CLI loads the rendering code (cdk8s) before any command',
    patches: [['src/cli.js', '"use strict";\n', '"use strict";\nrequire("./pipeline/render");\n']],
  },
  pool: {
    what: 'render worker pool (src/pipeline/render-pool.ts): --jobs 1 renders on the main thread',
    args: ['--jobs', '1'],
  },
};

/** A build of this checkout without `piece`: its folder and the CLI options each run adds. */
function buildWithout(piece, into) {
  const p = PIECES[piece];
  if (!p) {
    console.error(`bench-ab: no piece ${piece}: one of ${Object.keys(PIECES).join(', ')}`);
    process.exit(2);
  }
  if (!p.patches) {
    return { dir: root, label: `without ${piece}`, args: p.args };
  }
  const copy = path.join(into, `without-${piece}`);
  fs.mkdirSync(copy, { recursive: true });
  fs.cpSync(path.join(root, 'lib'), path.join(copy, 'lib'), { recursive: true });
  fs.cpSync(path.join(root, 'scripts'), path.join(copy, 'scripts'), { recursive: true });
  fs.copyFileSync(path.join(root, 'package.json'), path.join(copy, 'package.json'));
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(copy, 'node_modules'));
  for (const [file, from, to] of p.patches) {
    const at = path.join(copy, 'lib', file);
    const text = fs.readFileSync(at, 'utf8');
    if (text.split(from).length !== 2) {
      console.error(`bench-ab: lib/${file} does not hold \`${from}\` exactly once: update PIECES['${piece}'] to the current code`);
      process.exit(2);
    }
    fs.writeFileSync(at, text.replace(from, to));
  }
  return { dir: copy, label: `without ${piece}`, args: [] };
}

const n = Number(positional[0]);
const rounds = Number(option('--rounds', '3'));
const mem = argv.includes('--mem');
const tmp = path.resolve(option('--tmp', os.tmpdir()));
const jsonFile = path.resolve(option('--json', 'bench-ab-results.json'));
if (!(n > 0) || (without.length === 0 ? positional.length < 3 : positional.length > 1)) {
  console.error(usage);
  process.exit(2);
}

const dir = fs.mkdtempSync(path.join(tmp, 'ccm-gitops-ab-'));
const builds = without.length > 0
  ? [{ dir: root, label: 'with every piece', args: [] }, ...without.map((piece) => buildWithout(piece, path.join(dir, 'builds')))]
  : positional.slice(1).map((d) => ({ dir: path.resolve(d), label: path.basename(path.resolve(d)), args: [] }));
for (const b of builds.filter((x) => x.dir !== root || without.length === 0)) {
  process.stderr.write(`${b.label}: ${b.dir}\n`);
}
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

// as a user runs synth: from the repository, the clusters and output folders named relatively
const FLEET_ARGS = ['-c', 'clusters', '-o', 'dist'];

/** One CLI run of a build, in a fresh process (in the fleet's folder), as `npm run bench` runs it; checks the exit code. */
function run(build, cliArgs, env, code) {
  const args = [...cliArgs, ...(cliArgs[0] === 'synth' ? build.args : [])];
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, SETTLE_WAIT_MS);
  const start = process.hrtime.bigint();
  const stdout = execFileSync(process.execPath, [path.join(build.dir, 'scripts', 'bench.js')], {
    cwd: dir,
    env: { PATH: process.env.PATH, ...env, CCM_GITOPS_BENCH_CLI: JSON.stringify(args) },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  const r = JSON.parse(stdout);
  if (r.code !== code) {
    throw new Error(`${build.label}: ccm-gitops ${args.join(' ')} exited ${r.code}, not ${code}: ${r.stderr}`);
  }
  return { wallMs, cpuMs: r.cpuMs, rssMiB: Math.round(r.maxRssKiB / 1024), stdout: r.stdout };
}

const samples = builds.map(() => ({}));
const add = (b, figure, value) => (samples[b][figure] ??= []).push(value);
/** A run's wall time under `figure`, and its CPU time (user + system) beside it. */
const addTimes = (b, figure, r) => {
  add(b, figure, r.wallMs);
  add(b, `${figure}: CPU`, r.cpuMs);
  return r;
};
try {
  for (let round = 0; round < rounds; round++) {
    builds.forEach((build, b) => {
      process.stderr.write(`round ${round + 1}/${rounds}: ${build.label}\n`);
      const out = path.join(dir, 'dist');
      const env = { CCM_GITOPS_CACHE_DIR: path.join(dir, 'cache') };
      const clean = () => [out, env.CCM_GITOPS_CACHE_DIR].forEach((d) => fs.rmSync(d, { recursive: true, force: true }));
      clean();
      const full = run(build, ['synth', ...FLEET_ARGS], env, 0);
      addTimes(b, 'full synth', full);
      // as the shipped CI workflow runs it (examples/ci/ccm-gitops.yml): a fresh runner, no cache kept
      addTimes(b, '--check, no cache (CI)', run(build, ['synth', ...FLEET_ARGS, '--check'], { CCM_GITOPS_CACHE_DIR: path.join(dir, 'cold-cache') }, 0));
      fs.rmSync(path.join(dir, 'cold-cache'), { recursive: true, force: true });
      add(b, 'full synth peak RSS', full.rssMiB);
      const first = run(build, ['synth', ...FLEET_ARGS], env, 0);
      addTimes(b, 'unchanged, first run after a full synth', first);
      add(b, 'unchanged, first run: peak RSS', first.rssMiB);
      const unchanged = run(build, ['synth', ...FLEET_ARGS], env, 0);
      if (!/no file written/.test(unchanged.stdout)) {
        throw new Error(`${build.label}: the unchanged synth wrote files: ${unchanged.stdout}`);
      }
      addTimes(b, 'unchanged', unchanged);
      add(b, 'unchanged peak RSS', unchanged.rssMiB);
      if (!mem) {
        toggle(pick(1));
        addTimes(b, '--only', run(build, ['synth', ...FLEET_ARGS, '--only', pick(1).name], env, 0));
        toggle(pick(1));
        const before = path.join(dir, 'before');
        fs.cpSync(out, before, { recursive: true });
        toggle(pick(3));
        addTimes(b, '--check', run(build, ['synth', ...FLEET_ARGS, '--check'], env, 1));
        run(build, ['synth', ...FLEET_ARGS], env, 0);
        toggle(pick(3)); // the fleet as it was, for the next build
        addTimes(b, 'diff', run(build, ['diff', before, out], env, 1));
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
const result = { node: process.version, cores: os.cpus().length, loadAverage: os.loadavg(), clusters: n, rounds, builds: builds.map((b) => b.label), samples };
fs.writeFileSync(jsonFile, `${JSON.stringify(result, null, 2)}\n`);
console.log(`${n} clusters, ${rounds} interleaved rounds, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
console.log(`| figure | ${builds.map((b) => b.label).join(' | ')} | ${builds.slice(1).map((b) => `gain of ${builds[0].label} over ${b.label}`).join(' | ')} |`);
console.log(`|---|${builds.map(() => '---:').join('|')}|${builds.slice(1).map(() => '---:').join('|')}|`);
for (const figure of figures) {
  const cells = samples.map((s) => `${show(figure, median(s[figure]))} (${show(figure, Math.min(...s[figure]))}–${show(figure, Math.max(...s[figure]))})`);
  const gains = samples.slice(1).map((s) => `${Math.round((1 - median(samples[0][figure]) / median(s[figure])) * 100)}%`);
  console.log(`| ${figure} | ${cells.join(' | ')} | ${gains.join(' | ')} |`);
}
console.log(`\nJSON: ${path.relative(process.cwd(), jsonFile) || jsonFile}`);
