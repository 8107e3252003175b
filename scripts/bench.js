#!/usr/bin/env node
// npm run bench [-- N ...] [--tmp DIR] [--jobs J] [--json FILE]: fleet-scale
// figures of `ccm-gitops synth`, each run in a fresh process through the CLI,
// as a pipeline runs it.
//
// For each N (default 100, 1000, 10000): a generated fleet of N mixed
// clusters (every example in clusters/ in turn, renamed: both distributions,
// all platforms and output modes) is synthesized into an empty folder, with
// no cache, three times (REPEATS); the bench prints the median run's wall and
// CPU time, peak RSS (worker threads included) and files written, with the
// range of the three (peak RSS varies by some 10% between runs). At the largest N it then measures, on that output:
//   no-op       the same fleet again: must write no file (the first run after
//               the render reads every file once; the second checks metadata);
//   --only      one cluster's spec changed, `synth --only NAME`;
//   one change  another cluster's spec changed, plain `synth`: files written;
//   --check     a third change, `synth --check` (exit 1, one stale cluster);
//   diff        `ccm-gitops diff` of the output before and after "one change";
//   shards      `--shard I/2` twice, then `assemble` of the two outputs;
//   warnings    the grouping of one warning given by every cluster (a fleet of
//               one platform sharing a cloud config), timed in this process;
//   write floor a plain Node loop writing as many files of the same sizes.
// Then, apart from the fleet, the secret scan of one 1 MiB value (the input
// limit) in this process: in a cloud config (findSecretInIni, as the cloud
// config transforms call it) and as a spec value such as an annotation
// (secretInValue, as the fleet loader calls it); goal under 1 s each.
// The render cache lives in the bench folder (warm after the first synth).
// Each run starts 2.1 s after the previous one ended (SETTLE_WAIT_MS), as
// pipeline runs are apart: files changed within 2 s are read, not trusted.
// The warm no-op, --only and one-change runs are each run 3 times (REPEATS);
// the median is reported, with the three times and peak RSS range.
// `--tmp DIR` puts fleets and outputs elsewhere (`/dev/shm` takes the disk
// out). Writes the figures as JSON (default bench-results.json). Needs lib/
// (npm run bench compiles).
'use strict';
const { execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const root = path.resolve(__dirname, '..');

/**
 * Milliseconds a run waits before it starts: files changed within 2 s of a
 * run are read again rather than trusted by their metadata (git's "racily
 * clean" rule, SETTLE_MS in src/pipeline/render-cache.ts). A pipeline never runs
 * synth twice within two seconds; back-to-back bench runs would.
 */
const SETTLE_WAIT_MS = 2100;

/** Runs of the fast scenarios vary by a few tenths of a second on a shared machine: each is run this many times (odd). */
const REPEATS = 3;

if (process.env.CCM_GITOPS_BENCH_CLI) {
  cliChild(JSON.parse(process.env.CCM_GITOPS_BENCH_CLI));
} else if (require.main === module) {
  parent(process.argv.slice(2));
}
module.exports = { exampleTemplates, makeFleet, secretScan };

function option(argv, name) {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
}

function parent(argv) {
  const jsonFile = path.resolve(option(argv, '--json') ?? 'bench-results.json');
  const tmp = path.resolve(option(argv, '--tmp') ?? os.tmpdir());
  const jobs = option(argv, '--jobs');
  const valued = new Set(['--json', '--tmp', '--jobs']);
  const sizes = argv.filter((a, i) => !valued.has(a) && !valued.has(argv[i - 1])).map(Number).filter((n) => n > 0);
  const ns = sizes.length > 0 ? sizes : [100, 1000, 10000];
  const templates = exampleTemplates();
  const jobArgs = jobs ? ['--jobs', jobs] : [];
  const rows = [];
  let scenarios;
  const largest = Math.max(...ns);
  for (const n of ns) {
    const dir = fs.mkdtempSync(path.join(tmp, 'ccm-gitops-bench-'));
    try {
      const clusters = path.join(dir, 'clusters');
      const names = makeFleet(n, templates, clusters);
      const out = path.join(dir, 'dist');
      const env = { CCM_GITOPS_CACHE_DIR: path.join(dir, 'cache') };
      // peak RSS varies by some 10% between runs of one fleet: whether it grows with N is read from medians
      const full = median(REPEATS, () => {
        fs.rmSync(out, { recursive: true, force: true });
        fs.rmSync(env.CCM_GITOPS_CACHE_DIR, { recursive: true, force: true });
        const r = cli(['synth', '-c', clusters, '-o', out, ...jobArgs], env);
        expectCode(r, 0, 'full synth');
        return r;
      });
      rows.push({ clusters: n, ...full, objects: fleetObjects(out) });
      if (n === largest) {
        scenarios = runScenarios({ dir, clusters, out, names, env, jobArgs, templates });
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  const result = {
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    cores: os.cpus().length,
    loadAverage: os.loadavg().map((l) => round(l, 2)),
    tmp,
    jobs: jobs ? Number(jobs) : 'one per core',
    full: rows,
    largest,
    scenarios,
    secretScan: secretScan(),
  };
  fs.writeFileSync(jsonFile, `${JSON.stringify(result, null, 2)}\n`);

  const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
  console.log(`ccm-gitops synth benchmark (node ${process.version}, ${result.cores} cores, load average ${result.loadAverage.join(' ')}, under ${tmp})\n`);
  console.log('| clusters | objects | files written | wall | CPU | peak RSS | note |');
  console.log('|---:|---:|---:|---:|---:|---:|---|');
  for (const r of rows) {
    console.log(`| ${r.clusters} | ${r.objects} | ${r.written} | ${s(r.wallMs)} | ${s(r.cpuMs)} | ${r.peakRssMiB} MiB | ${r.note} |`);
  }
  if (scenarios) {
    console.log(`\nOn the ${largest}-cluster output:\n`);
    console.log('| run | wall | files written | peak RSS | note |');
    console.log('|---|---:|---:|---:|---|');
    for (const [name, f] of Object.entries(scenarios.runs)) {
      console.log(`| ${name} | ${s(f.wallMs)} | ${f.written ?? '-'} | ${f.peakRssMiB === undefined ? '-' : `${f.peakRssMiB} MiB`} | ${f.note ?? ''} |`);
    }
    console.log(`| write floor | ${s(scenarios.writeFloorMs)} | ${scenarios.writeFloorFiles} | - | a plain Node loop writing files of the same sizes |`);
  }
  console.log('\nSecret scan of one 1 MiB value (goal under 1 s):\n');
  console.log('| value | cloud config (findSecretInIni) | spec value (secretInValue) |');
  console.log('|---|---:|---:|');
  for (const r of result.secretScan) {
    console.log(`| ${r.value} | ${s(r.iniMs)} | ${s(r.valueMs)} |`);
  }
  console.log(`\nJSON: ${path.relative(process.cwd(), jsonFile) || jsonFile}`);
}

/**
 * Time to scan one 1 MiB value for secrets, median of REPEATS, in this
 * process: the reported stall (`node-tags = xxxx…`, minutes before the scans
 * were linear) and runs of what the rules expand over (base64 characters,
 * `a:` pairs before an `@`, JWT headers).
 */
function secretScan() {
  const { findSecretInIni, secretInValue } = require(path.join(root, 'lib', 'src', 'secrets', 'detector.js'));
  const mib = 1024 * 1024;
  const values = {
    'x…': 'x'.repeat(mib),
    'base64 characters': 'Ab0+/'.repeat(mib / 4).slice(0, mib),
    'a:a:…@host': `${'a:'.repeat(mib / 2 - 10)}@h.example`,
    '-eyJ-eyJ…': '-eyJ'.repeat(mib / 4),
  };
  const time = (run) => {
    const times = Array.from({ length: REPEATS }, () => {
      const start = process.hrtime.bigint();
      run();
      return Number(process.hrtime.bigint() - start) / 1e6;
    }).sort((a, b) => a - b);
    return round(times[Math.floor(REPEATS / 2)], 0);
  };
  return Object.entries(values).map(([value, text]) => ({
    value,
    iniMs: time(() => findSecretInIni(`[global]\nproject-id = p\nnode-tags = ${text}\n`)),
    valueMs: time(() => secretInValue(text)),
  }));
}

/** The scenarios on the largest output. */
function runScenarios({ dir, clusters, out, names, env, jobArgs }) {
  const runs = {};
  const noop = cli(['synth', '-c', clusters, '-o', out, ...jobArgs], env);
  expectCode(noop, 0, 'no-op synth');
  if (!/no file written/.test(noop.stdout)) {
    throw new Error(`the no-op synth wrote files: ${noop.stdout}`);
  }
  runs['no-op (unchanged fleet)'] = { ...figures(noop), note: 'first run after the render: every file read once to take its fingerprint' };
  runs['no-op again'] = median(REPEATS, () => {
    const noop2 = cli(['synth', '-c', clusters, '-o', out, ...jobArgs], env);
    expectCode(noop2, 0, 'second no-op synth');
    if (!/no file written/.test(noop2.stdout)) {
      throw new Error(`the second no-op synth wrote files: ${noop2.stdout}`);
    }
    return noop2;
  }, 'caches warm: folders checked by metadata, specs not parsed');

  // copies of the example that sets its topology (the highly available AWS one): a topology change changes their output
  const candidates = names.filter((c) => c.file.includes(`${path.sep}us-east-1${path.sep}`)
    && /controlPlaneTopology: (HighlyAvailable|SingleReplica)/.test(fs.readFileSync(c.file, 'utf8')));
  if (candidates.length === 0) {
    // the fleet is too small to hold a copy of the example these runs change (N < 20)
    const floor = writeFloor(out, path.join(dir, 'floor'));
    return { runs, writeFloorMs: floor.ms, writeFloorFiles: floor.files };
  }
  const pick = (i) => candidates[Math.floor((candidates.length * i) / 4)];
  runs['--only NAME (its spec changed)'] = median(REPEATS, () => {
    changeSpec(clusters, pick(1));
    const only = cli(['synth', '-c', clusters, '-o', out, '--only', pick(1).name, ...jobArgs], env);
    expectCode(only, 0, '--only');
    return only;
  });

  const before = path.join(dir, 'dist-before');
  fs.cpSync(out, before, { recursive: true });
  // an odd number of changes: the tree differs from `before` in that cluster
  runs['one spec changed, no --only'] = median(REPEATS, () => {
    changeSpec(clusters, pick(2));
    const one = cli(['synth', '-c', clusters, '-o', out, ...jobArgs], env);
    expectCode(one, 0, 'one change');
    return one;
  });

  changeSpec(clusters, pick(3));
  const check = cli(['synth', '-c', clusters, '-o', out, '--check', ...jobArgs], env);
  expectCode(check, 1, '--check');
  runs['--check, one cluster stale'] = { ...figures(check), written: 0, note: `${check.stderr.split('\n').filter((l) => /^ {2}\w+: /.test(l)).length} stale files listed` };

  const diff = cli(['diff', before, out], env);
  expectCode(diff, 1, 'diff');
  runs['diff of two trees, one cluster changed'] = { ...figures(diff), written: 0 };

  const nocache = cli(['synth', '-c', clusters, '-o', out, '--no-cache', ...jobArgs], env);
  expectCode(nocache, 0, 'no-cache synth');
  runs['--no-cache after one change'] = { ...figures(nocache), note: 'every cluster rendered and compared' };

  const shardOuts = [];
  let shardMs = 0;
  for (const i of [1, 2]) {
    const shardOut = path.join(dir, `shard-${i}`);
    const r = cli(['synth', '-c', clusters, '-o', shardOut, '--shard', `${i}/2`, '--no-cache', ...jobArgs], {});
    if (r.code !== 0) {
      runs['--shard 1/2, 2/2, assemble'] = { wallMs: 0, note: `not available: ${r.stderr.split('\n')[0]}` };
      break;
    }
    shardMs = Math.max(shardMs, r.wallMs);
    shardOuts.push(shardOut);
  }
  if (shardOuts.length === 2) {
    const assembled = path.join(dir, 'assembled');
    const a = cli(['assemble', '-c', clusters, '-o', assembled, ...shardOuts], {});
    expectCode(a, 0, 'assemble');
    runs['--shard I/2 (slowest shard)'] = { wallMs: shardMs, note: 'one CI job of two, cold cache' };
    runs['assemble of 2 shards'] = figures(a);
  }

  runs[`warnings: one given by ${names.length} clusters`] = warningGrouping(names.length);

  const floor = writeFloor(out, path.join(dir, 'floor'));
  return { runs, writeFloorMs: floor.ms, writeFloorFiles: floor.files };
}

/** Time to group one warning given by each of `n` clusters into its line (`warningLines`), median of REPEATS. */
function warningGrouping(n) {
  const { warningLines } = require(path.join(root, 'lib', 'src', 'fleet', 'warning-lines.js'));
  const warnings = Array.from({ length: n }, (_, i) => ({ file: 'clusters/shared.conf', message: `cluster c-${i}: '[Global] secret-name' (line 2) is dropped` }));
  const times = Array.from({ length: REPEATS }, () => {
    const start = process.hrtime.bigint();
    const lines = warningLines(warnings);
    if (lines.length !== 1) {
      throw new Error(`${n} repeats of one warning gave ${lines.length} lines`);
    }
    return Number(process.hrtime.bigint() - start) / 1e6;
  }).sort((a, b) => a - b);
  const ms = times[Math.floor(REPEATS / 2)];
  return { wallMs: round(ms, 2), written: 0, note: `${round(ms, 1)} ms: one line; the grouping only, in the bench process` };
}

/** Runs the CLI in a fresh process; returns its exit code, output, wall and CPU time and peak RSS. */
function cli(args, env) {
  process.stderr.write(`ccm-gitops ${args.map((a) => path.basename(a)).join(' ')}\n`);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, SETTLE_WAIT_MS);
  const start = process.hrtime.bigint();
  let stdout;
  try {
    stdout = execFileSync(process.execPath, [__filename], {
      env: { PATH: process.env.PATH, ...env, CCM_GITOPS_BENCH_CLI: JSON.stringify(args) },
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
  } catch (e) {
    throw new Error(`bench child failed: ${e.stderr || e.message}`);
  }
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  return { wallMs, ...JSON.parse(stdout) };
}

function cliChild(args) {
  const cpu0 = process.cpuUsage();
  // as bin/ccm-gitops runs it: synth renders in worker threads
  const { runCliAsync } = require(path.join(root, 'lib', 'src', 'cli.js'));
  let out = '';
  let err = '';
  void runCliAsync(args, { out: (t) => { out += t; }, err: (t) => { err += t; } }, process.env).then((code) => {
    const cpu = process.cpuUsage(cpu0);
    process.stdout.write(JSON.stringify({
      code,
      stdout: out.slice(0, 10000),
      stderr: err.slice(0, 100000),
      cpuMs: (cpu.user + cpu.system) / 1000,
      maxRssKiB: process.resourceUsage().maxRSS,
    }));
  });
}

/** The figures of the run of median wall time among `n` (each a fresh process), with the range in the note. */
function median(n, run, note) {
  const all = Array.from({ length: n }, run).map((r) => figures(r)).sort((a, b) => a.wallMs - b.wallMs);
  const rss = all.map((f) => f.peakRssMiB);
  const range = `median of ${n}: ${all.map((f) => (f.wallMs / 1000).toFixed(2)).join(', ')} s; peak RSS ${Math.min(...rss)}–${Math.max(...rss)} MiB`;
  return { ...all[Math.floor(n / 2)], note: note ? `${note}; ${range}` : range };
}

function figures(r) {
  const m = /\((\d+) files? written\)/.exec(r.stdout);
  process.stderr.write(`  ${(r.wallMs / 1000).toFixed(2)} s wall, ${(r.cpuMs / 1000).toFixed(2)} s CPU, ${Math.round(r.maxRssKiB / 1024)} MiB: ${r.stdout.trim().split('\n')[0]}\n`);
  return { wallMs: round(r.wallMs), cpuMs: round(r.cpuMs), peakRssMiB: Math.round(r.maxRssKiB / 1024), written: m ? Number(m[1]) : /no file written/.test(r.stdout) ? 0 : undefined };
}

function expectCode(r, code, what) {
  if (r.code !== code) {
    throw new Error(`${what}: exit ${r.code}, expected ${code}\n${r.stdout}${r.stderr.slice(0, 2000)}`);
  }
}

function round(x, digits = 1) {
  const p = 10 ** digits;
  return Math.round(x * p) / p;
}

/** Objects in the fleet summary of an output. */
function fleetObjects(out) {
  return JSON.parse(fs.readFileSync(path.join(out, '.fleet.json'), 'utf8')).clusters.reduce((s, c) => s + c.objects, 0);
}

/** Changes a copy of the highly available AWS example to a single replica. */
function changeSpec(clusters, { file }) {
  const text = fs.readFileSync(file, 'utf8');
  // on a small fleet the same copy may be picked twice: then it goes back
  const changed = /controlPlaneTopology: HighlyAvailable/.test(text)
    ? text.replace('controlPlaneTopology: HighlyAvailable', 'controlPlaneTopology: SingleReplica')
    : text.replace('controlPlaneTopology: SingleReplica', 'controlPlaneTopology: HighlyAvailable');
  if (changed === text) {
    throw new Error(`bench: ${file} sets no topology to change`);
  }
  fs.writeFileSync(file, changed);
}

/** Writes as many files, of the same sizes, as an output holds, with one mkdir per folder: what the disk alone costs. */
function writeFloor(out, dest) {
  const files = [];
  const walk = (d, rel) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) {
        walk(path.join(d, e.name), `${rel}/${e.name}`);
      } else {
        files.push({ rel: `${rel}/${e.name}`, size: fs.statSync(path.join(d, e.name)).size });
      }
    }
  };
  walk(out, '');
  const start = process.hrtime.bigint();
  const made = new Set();
  for (const f of files) {
    const p = path.join(dest, f.rel);
    const d = path.dirname(p);
    if (!made.has(d)) {
      fs.mkdirSync(d, { recursive: true });
      made.add(d);
    }
    fs.writeFileSync(p, 'x'.repeat(f.size));
  }
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  fs.rmSync(dest, { recursive: true, force: true });
  return { ms: round(ms), files: files.length };
}

/** Every example spec under clusters/ (relative path, text), sorted. */
function exampleTemplates() {
  const out = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) {
        walk(full);
      } else if (/\.ya?ml$/.test(e.name) && !/^defaults\.ya?ml$/.test(e.name)) {
        out.push({ rel: path.relative(path.join(root, 'clusters'), full), text: fs.readFileSync(full, 'utf8') });
      }
    }
  };
  walk(path.join(root, 'clusters'));
  return out;
}

/** N clusters: the example tree (defaults, cloud configs) with the specs replaced by renamed copies, cycling over the examples. Returns names and files. */
function makeFleet(n, templates, dir) {
  fs.cpSync(path.join(root, 'clusters'), dir, { recursive: true });
  for (const t of templates) {
    fs.rmSync(path.join(dir, t.rel));
  }
  const names = [];
  const width = Math.max(4, String(n - 1).length);
  for (let i = 0; i < n; i++) {
    const t = templates[i % templates.length];
    const suffix = `b${String(i).padStart(width, '0')}`;
    let name = '';
    const text = t.text.replace(/(metadata:\n {2}name: )(\S+)/, (_m, head, old) => {
      name = `${old.slice(0, 34)}-${suffix}`;
      return `${head}${name}`;
    });
    const file = path.join(dir, path.dirname(t.rel), `${suffix}-${path.basename(t.rel)}`);
    fs.writeFileSync(file, text);
    names.push({ name, file });
  }
  return names;
}
