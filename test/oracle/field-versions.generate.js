#!/usr/bin/env node
/**
 * Regenerates test/oracle/field-versions.data.json: for each built-in kind the renderer may
 * emit, every field path and the Kubernetes minors whose API accepts it.
 *
 *   node test/oracle/field-versions.generate.js --openapi-dir DIR --api-git GITDIR
 *
 * DIR holds `openapi-v2-1.NN.0.json[.gz]` (the API server's /openapi/v2 of that release);
 * GITDIR is a clone (bare is fine) of github.com/kubernetes/api.
 *
 * Sources, per minor:
 * - a minor with an OpenAPI document: its schema (the definitions reached from the kind);
 * - every other minor: the Go types of kubernetes/api at tag v0.NN.0 (`<group>/<version>/types.go`,
 *   the json tags of each struct, followed from the kind's root struct; `metav1.*` types from
 *   k8s.io/apimachinery are taken from the newest OpenAPI document, they are stable).
 * For minors that have both, the generator derives the Go paths as well and fails unless
 * they equal the schema's: the check that the Go reading is right.
 * (The round-trip fixtures in kubernetes/api testdata/ are NOT usable: the fuzzer leaves
 * zero values, which omitempty drops, so e.g. hostNetwork is missing in some releases.)
 *
 * It also records, per path, the minors whose OpenAPI description (or, for the Go-derived
 * minors, the field's Go doc comment) says the field is alpha, beta or behind a feature gate: the test demands a feature-gate entry for those
 * (field-versions.ts GATED_FIELDS), because the schema lists a field from the release that
 * adds it as alpha, while the API server drops or rejects it until its gate is on by default.
 */
'use strict';
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');
const { execFileSync } = require('child_process');

/** The kinds (fixture names) the table covers: what a CCM renderer emits, and their neighbours. */
const KINDS = [
  'core.v1.ConfigMap', 'core.v1.Secret', 'core.v1.Service', 'core.v1.ServiceAccount', 'core.v1.Namespace',
  'apps.v1.Deployment', 'apps.v1.DaemonSet',
  'policy.v1.PodDisruptionBudget',
  'rbac.authorization.k8s.io.v1.ClusterRole', 'rbac.authorization.k8s.io.v1.ClusterRoleBinding',
  'rbac.authorization.k8s.io.v1.Role', 'rbac.authorization.k8s.io.v1.RoleBinding',
  'coordination.k8s.io.v1.Lease', 'scheduling.k8s.io.v1.PriorityClass',
];
const FIRST_MINOR = 21;
const LAST_MINOR = 36;

function arg(name) {
  const i = process.argv.indexOf(name);
  if (i < 0 || !process.argv[i + 1]) {
    console.error(`usage: field-versions.generate.js --openapi-dir DIR --api-git GITDIR (missing ${name})`);
    process.exit(2);
  }
  return process.argv[i + 1];
}

function loadOpenApi(dir) {
  const out = {};
  for (const f of fs.readdirSync(dir).sort()) {
    const m = /^openapi-v2-1\.(\d+)\.0\.json(\.gz)?$/.exec(f);
    if (!m) continue;
    let buf = fs.readFileSync(path.join(dir, f));
    if (m[2]) buf = zlib.gunzipSync(buf);
    out[Number(m[1])] = JSON.parse(buf.toString('utf8')).definitions;
  }
  return out;
}

/** The definition name of a fixture kind, e.g. apps.v1.Deployment -> io.k8s.api.apps.v1.Deployment. */
function gvkOf(kind) {
  const parts = kind.split('.');
  const k = parts.pop();
  const version = parts.pop();
  const group = parts.join('.');
  return { group: group === 'core' ? '' : group, version, kind: k, apiVersion: group === 'core' ? version : `${group}/${version}` };
}

function findDefinition(defs, gvk) {
  for (const [name, d] of Object.entries(defs)) {
    for (const x of d['x-kubernetes-group-version-kind'] || []) {
      if (x.group === gvk.group && x.version === gvk.version && x.kind === gvk.kind) return name;
    }
  }
  return undefined;
}

const deref = (defs, s) => (s && s.$ref ? defs[s.$ref.replace('#/definitions/', '')] : s);

/** Every path of a schema: objects by property, arrays as [], maps as *. */
function schemaPaths(defs, rootName) {
  const out = new Map(); // path -> description
  const walk = (schema, prefix, stack, description) => {
    const s = deref(defs, schema);
    if (!s) return;
    if (prefix) out.set(prefix, description || s.description || '');
    const ref = schema && schema.$ref;
    if (ref && stack.includes(ref)) return;
    const next = ref ? [...stack, ref] : stack;
    if (s.type === 'array' && s.items) {
      walk(s.items, `${prefix}[]`, next, undefined);
      return;
    }
    if (s.properties) {
      for (const [k, v] of Object.entries(s.properties)) {
        walk(v, prefix ? `${prefix}.${k}` : k, next, v.description);
      }
    }
    if (s.additionalProperties && typeof s.additionalProperties === 'object') {
      walk(s.additionalProperties, `${prefix}.*`, next, undefined);
    }
  };
  walk({ $ref: `#/definitions/${rootName}` }, '', [], '');
  return out;
}

function gitShow(gitDir, ref) {
  try {
    return execFileSync('git', ['--git-dir', gitDir, 'show', ref], { encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return undefined;
  }
}

/** The package directory of a fixture-style group.version, e.g. apps.v1 -> apps/v1, rbac.authorization.k8s.io.v1 -> rbac/v1. */
function packageDir(group, version) {
  const short = group === '' ? 'core' : group.split('.')[0];
  return `${short}/${version}`;
}

/** struct name -> [{ name (json), type (Go), inline }] of one types.go. */
function parseStructs(source) {
  const structs = {};
  const lines = source.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const alias = /^type (\w+) ((?:map\[[\w.]+\]|\[\])[\w.*]+)\s*$/.exec(lines[i]);
    if (alias) {
      structs[alias[1]] = { alias: alias[2] };
      continue;
    }
    const m = /^type (\w+) struct \{\s*$/.exec(lines[i]);
    if (!m) continue;
    const fields = [];
    let doc = [];
    for (i++; i < lines.length && !/^\}/.test(lines[i]); i++) {
      const line = lines[i].trim();
      if (line.startsWith('//')) {
        const text = line.replace(/^\/\/\s?/, '');
        // `+marker` lines (e.g. +k8s:alpha(since: ...) declarative-validation tags) are not part of the API doc
        if (!text.startsWith('+')) doc.push(text);
        continue;
      }
      const fieldDoc = doc.join(' ');
      doc = [];
      if (!line) continue;
      const f = /^(?:(\w+)\s+)?([\w.*\[\]]+(?:\[[\w.*]+\][\w.*\[\]]+)?)\s+`([^`]*)`/.exec(line);
      if (!f) continue;
      const tag = /json:"([^"]*)"/.exec(f[3]);
      if (!tag) continue;
      const jsonName = tag[1].split(',')[0];
      if (jsonName === '-') continue;
      const inline = !f[1] || tag[1].split(',').includes('inline');
      fields.push({ name: jsonName, type: f[2], inline: inline && jsonName === '', doc: fieldDoc });
    }
    structs[m[1]] = fields;
  }
  return structs;
}

/**
 * Every path of a kind from the Go types at one tag. `packages` maps a package dir to its
 * parsed structs; metav1 types resolve through the newest OpenAPI document.
 */
function goPaths(packages, pkg, root, newestDefs, gated = new Set()) {
  const out = new Set();
  const qualified = { v1: 'core/v1', corev1: 'core/v1', api: 'core/v1' };
  const walkType = (type, curPkg, prefix, stack) => {
    let t = type.replace(/^\*/, '');
    if (t.startsWith('[]')) {
      if (t === '[]byte') return; // base64 string
      walkType(t.slice(2), curPkg, `${prefix}[]`, stack);
      out.add(`${prefix}[]`);
      return;
    }
    const map = /^map\[[\w.]+\](.+)$/.exec(t);
    if (map) {
      out.add(`${prefix}.*`);
      walkType(map[1], curPkg, `${prefix}.*`, stack);
      return;
    }
    let targetPkg = curPkg;
    const q = /^(\w+)\.(\w+)$/.exec(t);
    if (q) {
      if (q[1] === 'metav1') {
        const def = `io.k8s.apimachinery.pkg.apis.meta.v1.${q[2]}`;
        if (newestDefs[def]) {
          for (const p of schemaPaths(newestDefs, def).keys()) out.add(`${prefix}.${p}`);
        }
        return;
      }
      if (!qualified[q[1]]) return; // intstr, resource, types, runtime: leaves
      targetPkg = qualified[q[1]];
      t = q[2];
    }
    const fields = packages[targetPkg] && packages[targetPkg][t];
    if (!fields) return; // a named scalar (type X string) or a leaf
    if (fields.alias) {
      walkType(fields.alias, targetPkg, prefix, stack);
      return;
    }
    const key = `${targetPkg}.${t}`;
    if (stack.includes(key)) return;
    for (const f of fields) {
      if (f.inline) {
        if (/^(metav1\.)?TypeMeta$/.test(f.type)) {
          out.add(prefix ? `${prefix}.apiVersion` : 'apiVersion');
          out.add(prefix ? `${prefix}.kind` : 'kind');
        } else {
          walkType(f.type, targetPkg, prefix, [...stack, key]);
        }
        continue;
      }
      const p = prefix ? `${prefix}.${f.name}` : f.name;
      out.add(p);
      if (GATE_WORDS.test(f.doc || '')) gated.add(p);
      walkType(f.type, targetPkg, p, [...stack, key]);
    }
  };
  walkType(root, pkg, '', []);
  return out;
}

const GATE_WORDS = /\balpha\b|\bbeta\b|feature gate|featuregate|feature-gate|\bgate\b/i;

function main() {
  const openapi = loadOpenApi(arg('--openapi-dir'));
  const apiGit = arg('--api-git');
  const schemaMinors = Object.keys(openapi).map(Number).sort((a, b) => a - b);
  const newest = openapi[schemaMinors[schemaMinors.length - 1]];
  const parsed = {};
  const packagesAt = (minor) => {
    if (!parsed[minor]) {
      parsed[minor] = {};
      for (const dir of ['core/v1', 'apps/v1', 'policy/v1', 'rbac/v1', 'coordination/v1', 'scheduling/v1']) {
        const src = gitShow(apiGit, `v0.${minor}.0:${dir}/types.go`);
        if (src) parsed[minor][dir] = parseStructs(src);
      }
    }
    return parsed[minor];
  };
  const goPathsAt = (minor, gvk, gated) => {
    const packages = packagesAt(minor);
    const dir = packageDir(gvk.group, gvk.version);
    if (!packages[dir] || !packages[dir][gvk.kind]) return undefined;
    return goPaths(packages, dir, gvk.kind, newest, gated);
  };
  const kinds = {};
  const problems = [];
  for (const kind of KINDS) {
    const gvk = gvkOf(kind);
    const presence = new Map(); // path -> Set(minor)
    const gated = new Map(); // path -> Set(minor) whose description names a gate/alpha/beta
    const servedIn = [];
    for (let minor = FIRST_MINOR; minor <= LAST_MINOR; minor++) {
      let paths;
      if (openapi[minor]) {
        const defs = openapi[minor];
        const root = findDefinition(defs, gvk);
        if (!root) continue;
        const sp = schemaPaths(defs, root);
        paths = new Set(sp.keys());
        for (const [p, d] of sp) {
          if (GATE_WORDS.test(d)) {
            if (!gated.has(p)) gated.set(p, new Set());
            gated.get(p).add(minor);
          }
        }
        // cross-check against the Go types of the same release
        const gp = goPathsAt(minor, gvk);
        if (gp) {
          const onlyGo = [...gp].filter((p) => !paths.has(p));
          const onlySchema = [...paths].filter((p) => !gp.has(p));
          if (onlyGo.length) problems.push(`${kind} 1.${minor}: in the Go types, not the schema: ${onlyGo.join(', ')}`);
          if (onlySchema.length) problems.push(`${kind} 1.${minor}: in the schema, not the Go types: ${onlySchema.join(', ')}`);
        }
      } else {
        // the Go doc comment of each field stands in for the OpenAPI description
        const noted = new Set();
        paths = goPathsAt(minor, gvk, noted);
        if (!paths) continue;
        for (const p of noted) {
          if (!gated.has(p)) gated.set(p, new Set());
          gated.get(p).add(minor);
        }
      }
      servedIn.push(minor);
      for (const p of paths) {
        if (!presence.has(p)) presence.set(p, new Set());
        presence.get(p).add(minor);
      }
    }
    const fields = {};
    const gateNoted = {};
    for (const p of [...presence.keys()].sort()) {
      fields[p] = ranges([...presence.get(p)].sort((a, b) => a - b));
      if (gated.has(p)) gateNoted[p] = ranges([...gated.get(p)].sort((a, b) => a - b));
    }
    kinds[`${gvk.apiVersion} ${gvk.kind}`] = { served: ranges(servedIn), fields, gateNoted };
  }
  const data = {
    generatedBy: 'test/oracle/field-versions.generate.js',
    minors: { first: FIRST_MINOR, last: LAST_MINOR },
    sources: {
      openapi: schemaMinors.map((m) => `OpenAPI v2 (/openapi/v2) of Kubernetes v1.${m}.0 (shared/crds/kubernetes/openapi-v2-1.${m}.0.json)`),
      goTypes: `kubernetes/api@v0.NN.0 <group>/<version>/types.go (json tags) for the other minors ${FIRST_MINOR}..${LAST_MINOR}`,
    },
    kinds,
  };
  if (problems.length) {
    console.error(problems.join('\n'));
    if (!process.argv.includes('--allow-mismatch')) process.exit(1);
  }
  const out = path.join(__dirname, 'field-versions.data.json');
  write(out, data);
  console.log(`wrote ${out}`);
}

/** [21,22,23,25] -> "21-23,25" */
function ranges(sorted) {
  const out = [];
  for (const m of sorted) {
    const last = out[out.length - 1];
    if (last && last[1] === m - 1) last[1] = m;
    else out.push([m, m]);
  }
  return out.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(',');
}

/** JSON with one field per line (readable diffs when regenerated). */
function write(file, data) {
  const lines = ['{'];
  lines.push(` "generatedBy": ${JSON.stringify(data.generatedBy)},`);
  lines.push(` "minors": ${JSON.stringify(data.minors)},`);
  lines.push(` "sources": ${JSON.stringify(data.sources)},`);
  lines.push(' "kinds": {');
  const kindNames = Object.keys(data.kinds);
  kindNames.forEach((k, ki) => {
    const { served, fields, gateNoted } = data.kinds[k];
    lines.push(`  ${JSON.stringify(k)}: {`);
    lines.push(`   "served": ${JSON.stringify(served)},`);
    const block = (name, obj, last) => {
      const keys = Object.keys(obj);
      lines.push(`   ${JSON.stringify(name)}: {${keys.length ? '' : '}' + (last ? '' : ',')}`);
      if (!keys.length) return;
      keys.forEach((p, i) => lines.push(`    ${JSON.stringify(p)}: ${JSON.stringify(obj[p])}${i < keys.length - 1 ? ',' : ''}`));
      lines.push(`   }${last ? '' : ','}`);
    };
    block('fields', fields, false);
    block('gateNoted', gateNoted, true);
    lines.push(`  }${ki < kindNames.length - 1 ? ',' : ''}`);
  });
  lines.push(' }', '}');
  fs.writeFileSync(file, lines.join('\n') + '\n');
}

main();
