#!/usr/bin/env node
// npm run bench [-- N ...] [--json FILE]: renders generated fleets of N mixed
// clusters (N = 1, 10, 100, 1000 by default), each fleet in one fresh process,
// and prints per N: wall and CPU time, peak RSS, objects and files written,
// and the per-cluster marginal cost; then the slope of render time over N
// (linear fit), the ratio of our per-cluster cost to `kubectl kustomize`
// building that cluster's output (skipped without kubectl), and the example
// fleet's `synth` time. Writes the same as JSON (default bench-results.json);
// `--cpu-prof` also writes one V8 CPU profile per fleet into bench-profiles/.
// The clusters are copies of every example in clusters/ (both distributions,
// all platforms and output modes), renamed. Needs lib/ (npm run bench compiles).
'use strict';
const { execFileSync, spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const root = path.resolve(__dirname, '..');

if (process.env.CCM_GITOPS_BENCH_CHILD) {
  child(process.env.CCM_GITOPS_BENCH_DIR);
} else if (require.main === module) {
  parent(process.argv.slice(2));
}
module.exports = { exampleTemplates, makeFleet };

function parent(argv) {
  const jsonAt = argv.indexOf('--json');
  const jsonFile = path.resolve(jsonAt >= 0 ? argv[jsonAt + 1] : 'bench-results.json');
  // --tmp DIR: where the generated fleets and their output go (default: the OS temp folder); /dev/shm takes the disk out of the figures
  const tmpAt = argv.indexOf('--tmp');
  const tmp = tmpAt >= 0 ? path.resolve(argv[tmpAt + 1]) : os.tmpdir();
  // --cpu-prof: each fleet's process writes a V8 CPU profile into bench-profiles/ (open it in Chrome DevTools)
  const profile = argv.includes('--cpu-prof');
  const flagArgs = new Set([jsonAt, tmpAt].filter((i) => i >= 0).flatMap((i) => [i, i + 1]));
  const sizes = argv.filter((_a, i) => !flagArgs.has(i)).map(Number).filter((n) => n > 0);
  const ns = sizes.length > 0 ? sizes : [1, 10, 100, 1000];
  const templates = exampleTemplates();
  const rows = [];
  let kustomize;
  for (const n of ns) {
    const dir = fs.mkdtempSync(path.join(tmp, 'ccm-gitops-bench-'));
    try {
      makeFleet(n, templates, path.join(dir, 'clusters'));
      const start = process.hrtime.bigint();
      const flags = profile ? ['--cpu-prof', '--cpu-prof-dir', path.resolve('bench-profiles'), '--cpu-prof-name', `synth-${n}.cpuprofile`] : [];
      const out = execFileSync(process.execPath, [...flags, __filename], {
        env: { ...process.env, CCM_GITOPS_BENCH_CHILD: '1', CCM_GITOPS_BENCH_DIR: dir },
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      });
      const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
      const r = JSON.parse(out);
      if (r.clusters !== n) {
        throw new Error(`expected ${n} clusters, rendered ${r.clusters}`);
      }
      rows.push({ n, wallMs, ...r });
      if (!kustomize && n >= templates.length) {
        kustomize = kustomizeSample(path.join(dir, 'dist'), templates.length);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  const fit = linearFit(rows.map((r) => [r.n, r.loadMs + r.renderMs + r.writeMs]));
  const cpuFit = linearFit(rows.map((r) => [r.n, r.loadMs + r.renderMs]));
  const example = exampleSynth();
  const marginal = rows.length > 1 ? fit.slope : (rows[0].loadMs + rows[0].renderMs + rows[0].writeMs) / rows[0].n;
  const result = {
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    cores: os.cpus().length,
    rows: rows.map((r) => ({
      clusters: r.n,
      wallMs: round(r.wallMs),
      cpuMs: round(r.cpuMs),
      peakRssMiB: round(r.maxRssKiB / 1024),
      objects: r.objects,
      files: r.files,
      requireMs: round(r.requireMs),
      loadMs: round(r.loadMs),
      renderMs: round(r.renderMs),
      writeMs: round(r.writeMs),
      perClusterMs: round((r.loadMs + r.renderMs + r.writeMs) / r.n, 2),
    })),
    slopeMsPerCluster: round(fit.slope, 3),
    slopeWithoutWriteMsPerCluster: round(cpuFit.slope, 3),
    tmp,
    interceptMs: round(fit.intercept),
    r2: round(fit.r2, 4),
    kustomize: kustomize ? { ...kustomize, ratio: round(marginal / kustomize.msPerCluster, 3) } : undefined,
    exampleFleetSynthMs: round(example.ms),
    exampleFleetClusters: example.clusters,
  };
  fs.writeFileSync(jsonFile, `${JSON.stringify(result, null, 2)}\n`);

  const f = (x) => x.toFixed(0);
  console.log(`ccm-gitops synth benchmark (node ${process.version}, ${os.cpus().length} cores, ${templates.length} example clusters as templates)\n`);
  console.log('| clusters | objects | files | wall ms | CPU ms | peak RSS MiB | require ms | load+validate ms | render ms | write ms | ms/cluster |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of result.rows) {
    console.log(`| ${r.clusters} | ${r.objects} | ${r.files} | ${f(r.wallMs)} | ${f(r.cpuMs)} | ${f(r.peakRssMiB)} | ${f(r.requireMs)} | ${f(r.loadMs)} | ${f(r.renderMs)} | ${f(r.writeMs)} | ${r.perClusterMs.toFixed(2)} |`);
  }
  console.log('');
  console.log(`marginal cost (slope of load+render+write over clusters): ${result.slopeMsPerCluster} ms/cluster, intercept ${result.interceptMs} ms, R² ${result.r2}`);
  console.log(`marginal cost without the write (load+render): ${result.slopeWithoutWriteMsPerCluster} ms/cluster; fleets written under ${tmp}`);
  if (result.kustomize) {
    console.log(`kubectl kustomize of one cluster's output: ${result.kustomize.msPerCluster} ms (mean of ${result.kustomize.sample} clusters); `
      + `our per-cluster cost / kustomize: ${result.kustomize.ratio}`);
  } else {
    console.log('kubectl kustomize: skipped (kubectl not found, or no fleet large enough to sample)');
  }
  console.log(`example fleet (clusters/, ${result.exampleFleetClusters} clusters) via the CLI synth: ${result.exampleFleetSynthMs} ms`);
  console.log(`\nJSON: ${path.relative(process.cwd(), jsonFile) || jsonFile}`);
}

function round(x, digits = 1) {
  const p = 10 ** digits;
  return Math.round(x * p) / p;
}

/** Least-squares line through (x, y) points, with R². */
function linearFit(points) {
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const slope = sxx === 0 ? 0 : sxy / sxx;
  const intercept = my - slope * mx;
  const ssTot = points.reduce((s, [, y]) => s + (y - my) ** 2, 0);
  const ssRes = points.reduce((s, [x, y]) => s + (y - (intercept + slope * x)) ** 2, 0);
  return { slope, intercept, r2: ssTot === 0 ? 1 : 1 - ssRes / ssTot };
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

/** N clusters: the example tree (defaults, cloud configs) with the specs replaced by renamed copies, cycling over the examples. */
function makeFleet(n, templates, dir) {
  fs.cpSync(path.join(root, 'clusters'), dir, { recursive: true });
  for (const t of templates) {
    fs.rmSync(path.join(dir, t.rel));
  }
  for (let i = 0; i < n; i++) {
    const t = templates[i % templates.length];
    const name = `b${String(i).padStart(4, '0')}`;
    const text = t.text.replace(/(metadata:\n {2}name: )(\S+)/, (_m, head, old) => `${head}${old.slice(0, 34)}-${name}`);
    fs.writeFileSync(path.join(dir, path.dirname(t.rel), `${name}-${path.basename(t.rel)}`), text);
  }
}

/** Mean `kubectl kustomize` time over a sample of rendered clusters (one per template), or undefined without kubectl. */
function kustomizeSample(dist, count) {
  const probe = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    return undefined;
  }
  const clusters = fs.readdirSync(dist).filter((d) => !d.startsWith('_') && fs.existsSync(path.join(dist, d, 'kustomization.yaml'))).sort().slice(0, count);
  let total = 0;
  for (const c of clusters) {
    const start = process.hrtime.bigint();
    const r = spawnSync('kubectl', ['kustomize', path.join(dist, c)], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    total += Number(process.hrtime.bigint() - start) / 1e6;
    if (r.status !== 0) {
      throw new Error(`kubectl kustomize ${c} failed: ${r.stderr}`);
    }
  }
  return { sample: clusters.length, msPerCluster: round(total / clusters.length) };
}

/** The example fleet through the CLI, as `npm run synth` runs it (without the compile), into a temporary folder. */
function exampleSynth() {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'ccm-gitops-bench-example-'));
  try {
    const start = process.hrtime.bigint();
    execFileSync(process.execPath, [path.join(root, 'bin', 'ccm-gitops'), 'synth', '--clusters', path.join(root, 'clusters'), '--out', path.join(out, 'dist'), '-q'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    return { ms, clusters: fs.readdirSync(path.join(out, 'dist')).filter((d) => !d.startsWith('_') && !d.startsWith('.') && !/\.(md|json)$/.test(d)).length };
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

function child(dir) {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const lib = require(path.join(root, 'lib', 'src', 'index.js'));
  const t1 = performance.now();
  const fleet = lib.loadFleet(path.join(dir, 'clusters'));
  const t2 = performance.now();
  const rendered = fleet.clusters.map(lib.renderCluster);
  const files = [...rendered.flatMap((c) => c.files), ...lib.fleetFiles(fleet, rendered.map((c) => c.entry))];
  const t3 = performance.now();
  lib.writeTreeAtomically(path.join(dir, 'dist'), files);
  const t4 = performance.now();
  const cpu = process.cpuUsage(cpu0);
  process.stdout.write(JSON.stringify({
    clusters: fleet.clusters.length,
    objects: rendered.reduce((s, c) => s + c.entry.objects, 0),
    files: files.length,
    requireMs: t1 - t0,
    loadMs: t2 - t1,
    renderMs: t3 - t2,
    writeMs: t4 - t3,
    cpuMs: (cpu.user + cpu.system) / 1000,
    maxRssKiB: process.resourceUsage().maxRSS,
  }));
}
