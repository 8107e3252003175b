/**
 * The layering of ARCHITECTURE.md, checked over every file under src/: each
 * relative import (import, export … from, import(), require) is resolved to
 * the src/ folder it lands in, and that folder must be one the importing
 * folder may use. A failure names the file and the import. The oracles under
 * test/oracle/ import nothing outside it.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import { PLATFORM_TYPES } from '../src/cluster-spec/schema';

const REPO = path.resolve(__dirname, '..');
const SRC = path.join(REPO, 'src');

/** One import of one file: `from` is the file (repo-relative), `specifier` as written. */
export interface ImportEdge {
  readonly from: string;
  readonly specifier: string;
}

/** The folders at the bottom: every layer may use them. */
const BASE = ['util', 'secrets', 'imports'] as const;

/**
 * What each folder of src/ may import besides itself and BASE (ARCHITECTURE.md).
 * `(top)` is a file directly under src/ (cli.ts, the distribution registries, index.ts …); the
 * composition layers (top, fleet, api, import, init, diff, docs) may import anything.
 */
export const MAY_IMPORT: Readonly<Record<string, readonly string[] | 'anything'>> = {
  util: [],
  secrets: [],
  constructs: [],
  'cloud-config': [],
  'cluster-spec': ['spec-migrations'],
  'spec-migrations': ['cluster-spec'],
  gitops: ['cluster-spec', 'constructs'],
  migration: ['cluster-spec', 'constructs', 'gitops'],
  cluster: ['cluster-spec', 'migration', 'gitops'],
  openshift: ['cluster', 'migration', 'cluster-spec', 'constructs', 'cloud-config', 'gitops'],
  kubernetes: ['cluster', 'migration', 'cluster-spec', 'constructs', 'cloud-config', 'gitops'],
  '(top)': 'anything',
  // the loader sits below the synth pipeline: the pipeline streams what it loads, never the reverse
  fleet: ['(top)', 'cluster', 'cluster-spec', 'spec-migrations', 'cloud-config', 'constructs', 'gitops', 'migration', 'openshift', 'kubernetes'],
  pipeline: [
    '(top)',
    'fleet',
    'cluster',
    'cluster-spec',
    'spec-migrations',
    'cloud-config',
    'constructs',
    'gitops',
    'migration',
    'openshift',
    'kubernetes',
  ],
  // the commands, one file each; the dispatcher src/cli.ts imports them, never the reverse (no cycle: checked below)
  cli: 'anything',
  api: 'anything',
  import: 'anything',
  init: 'anything',
  diff: 'anything',
  docs: 'anything',
};

/**
 * The layer (folder under src/, or `(top)` for a file directly under src/) of
 * a repo-relative path or resolved import; undefined outside src/ and imports/.
 * `src/kubernetes` (a folder's index) is the folder, `src/cli` the file.
 */
export function layerOf(file: string): string | undefined {
  const parts = file.split('/');
  if (parts[0] === 'imports') return 'imports';
  if (parts[0] !== 'src' || parts.length < 2) return undefined;
  if (parts.length > 2) return parts[1];
  const isFile = file.endsWith('.ts') || fs.existsSync(path.join(REPO, `${file}.ts`));
  return isFile ? '(top)' : parts[1];
}

/** `file → specifier (layer a may not import layer b)` for each edge that breaks MAY_IMPORT. */
export function violations(edges: readonly ImportEdge[], rules = MAY_IMPORT): string[] {
  const found: string[] = [];
  for (const { from, specifier } of edges) {
    if (!specifier.startsWith('.')) continue;
    const source = layerOf(from);
    const target = layerOf(path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier)));
    if (source === undefined || target === undefined || source === target) continue;
    if ((BASE as readonly string[]).includes(target)) continue;
    const allowed = rules[source];
    if (allowed === 'anything') continue;
    if (allowed === undefined) {
      found.push(`${from} → ${specifier} (folder src/${source} has no rule in ARCHITECTURE.md)`);
    } else if (!allowed.includes(target)) {
      found.push(`${from} → ${specifier} (src/${source} may not import src/${target})`);
    }
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) return sourceFiles(full);
      return e.name.endsWith('.ts') ? [full] : [];
    })
    .sort();
}

/** Every import of every file under src/, read with TypeScript's own pre-processor. */
export function importsOfSrc(): ImportEdge[] {
  return sourceFiles(SRC).flatMap((file) => {
    const from = path.relative(REPO, file).split(path.sep).join('/');
    const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    return info.importedFiles.map((i) => ({ from, specifier: i.fileName }));
  });
}

/** The file a relative import lands on (`x.ts` or `x/index.ts`), repo-relative; undefined for a package or a file not found. */
export function importedFile(from: string, specifier: string, exists = (f: string) => fs.existsSync(path.join(REPO, f))): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  return [`${base}.ts`, `${base}/index.ts`, base].find((f) => f.endsWith('.ts') && exists(f));
}

/**
 * Each import cycle among the files `inScope` keeps, as `a → b → … → a`, found
 * by a depth-first walk in file and import order (so the same cycle is named the same way).
 */
export function importCycles(edges: readonly ImportEdge[], inScope: (file: string) => boolean, resolve = importedFile): string[] {
  const next = new Map<string, string[]>();
  for (const { from, specifier } of edges) {
    const to = resolve(from, specifier);
    if (!inScope(from) || to === undefined || !inScope(to)) continue;
    next.set(from, [...(next.get(from) ?? []), to]);
  }
  const cycles: string[] = [];
  const done = new Set<string>();
  const walk = (file: string, stack: string[]): void => {
    if (stack.includes(file)) {
      cycles.push([...stack.slice(stack.indexOf(file)), file].join(' → '));
      return;
    }
    if (done.has(file)) return;
    for (const to of next.get(file) ?? []) walk(to, [...stack, file]);
    done.add(file);
  };
  [...next.keys()].sort().forEach((file) => walk(file, []));
  return cycles;
}

/** The command line: the dispatcher and the commands under src/cli/. */
const isCommandLine = (file: string) => file === 'src/cli.ts' || file.startsWith('src/cli/');

/** The distributions' names (spec.distribution). */
const DISTRIBUTIONS = ['openshift', 'kubernetes'];

/**
 * Folders below the distributions that never choose by distribution
 * (ARCHITECTURE.md): what differs goes behind MigrationTarget /
 * MigrationControlPlane or into the distribution's folder. (cluster-spec is
 * left out: it defines `spec.distribution` and may check it.)
 */
export const DISTRIBUTION_NEUTRAL = ['migration', 'cluster', 'constructs', 'gitops', 'cloud-config'];

const COMPARISONS = [
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
];

/** What a comparison in a distribution-neutral folder should become. */
const BEHIND_MIGRATION_TARGET = 'a distribution: put what differs behind MigrationTarget / MigrationControlPlane';

/** What a comparison elsewhere in src/ should become. */
const BEHIND_DISTRIBUTION_REGISTRY =
  'a distribution: put what differs behind DistributionFacts / DistributionRendering (src/cluster/distribution.ts)';

/**
 * Where a distribution's name may be compared: the spec that defines it, the two
 * distributions and their registries (ARCHITECTURE.md, "Where a new distribution goes").
 */
export const DISTRIBUTION_CHOOSERS = [
  'src/cluster-spec/',
  'src/openshift/',
  'src/kubernetes/',
  'src/imports/',
  'src/distribution-facts.ts',
  'src/distributions.ts',
];

/** `file:line compares with 'name' (…)` for each comparison (===, !==, ==, !=, switch case) of a value with a distribution's name. */
export function distributionComparisons(file: string, text: string, fix = BEHIND_MIGRATION_TARGET): string[] {
  return literalComparisons(file, text, DISTRIBUTIONS, fix);
}

/** `file:line compares with 'name' (fix)` for each comparison (===, !==, ==, !=, switch case) of a value with one of `names`. */
function literalComparisons(file: string, text: string, names: readonly string[], fix: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const named = (n: ts.Node): string | undefined =>
    (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) && names.includes(n.text) ? n.text : undefined;
  const report = (node: ts.Node, name: string) => {
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    found.push(`${file}:${line} compares with '${name}' (${fix})`);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isBinaryExpression(node) && COMPARISONS.includes(node.operatorToken.kind)) {
      const name = named(node.left) ?? named(node.right);
      if (name) report(node, name);
    } else if (ts.isCaseClause(node)) {
      const name = named(node.expression);
      if (name) report(node, name);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The oracles: models written from upstream, never from the product. */
const ORACLE = path.join(REPO, 'test', 'oracle');

/**
 * `file → specifier (…)` for each import of an oracle file that leaves
 * test/oracle/: src/ (or the package itself), and test helpers that render
 * through it, would let the product check itself.
 */
export function oracleEscapes(edges: readonly ImportEdge[]): string[] {
  return edges.flatMap(({ from, specifier }) => {
    if (specifier === 'ccm-gitops' || specifier.startsWith('ccm-gitops/')) {
      return [`${from} → ${specifier} (an oracle imports nothing of the product)`];
    }
    if (!specifier.startsWith('.')) return [];
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
    return target.startsWith('test/oracle/')
      ? []
      : [`${from} → ${specifier} (an oracle imports nothing outside test/oracle/; it reads rendered output)`];
  });
}

/** Every import of every file under test/oracle/. */
function importsOfOracle(): ImportEdge[] {
  const files = (dir: string): string[] =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : /\.(ts|js|mjs|cjs)$/.test(e.name) ? [path.join(dir, e.name)] : []))
      .sort();
  return files(ORACLE).flatMap((file) => {
    const from = path.relative(REPO, file).split(path.sep).join('/');
    const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    return info.importedFiles.map((i) => ({ from, specifier: i.fileName }));
  });
}

describe('the oracles are independent of the product', () => {
  test('GIVEN oracle imports of src/, of the package, of a test helper THEN each is named; within test/oracle/ or a package THEN nothing', () => {
    expect(
      oracleEscapes([
        { from: 'test/oracle/leader-migration/trees.ts', specifier: '../../../src/gitops/prune-protection' },
        { from: 'test/oracle/leader-migration/x.ts', specifier: 'ccm-gitops/lib/migration' },
        { from: 'test/oracle/leader-migration/x.ts', specifier: '../../helpers' },
        { from: 'test/oracle/leader-migration/x.ts', specifier: './simulator' },
        { from: 'test/oracle/gitops/replay.ts', specifier: '../rbac-authorizer' },
        { from: 'test/oracle/leader-migration/x.ts', specifier: 'yaml' },
      ]),
    ).toEqual([
      'test/oracle/leader-migration/trees.ts → ../../../src/gitops/prune-protection (an oracle imports nothing outside test/oracle/; it reads rendered output)',
      'test/oracle/leader-migration/x.ts → ccm-gitops/lib/migration (an oracle imports nothing of the product)',
      'test/oracle/leader-migration/x.ts → ../../helpers (an oracle imports nothing outside test/oracle/; it reads rendered output)',
    ]);
  });

  test('GIVEN every file under test/oracle/ (import, export … from, import(), require) THEN none imports outside test/oracle/', () => {
    const edges = importsOfOracle();
    expect(edges).toEqual(expect.arrayContaining([{ from: 'test/oracle/leader-migration/trees.ts', specifier: './simulator' }]));
    expect(oracleEscapes(edges)).toEqual([]);
  });
});

/** The platform names a spec or the cloud-config transform compares with (`PLATFORM_TYPES`, and the transform's Azure Stack Hub). */
const PLATFORM_NAMES = [...PLATFORM_TYPES, 'AzureStackHub'];

/** The per-platform and per-provider folders, where a platform's own behaviour lives: `src/openshift/<platform>/`, `src/kubernetes/<provider>/`. */
export function inPlatformFolder(file: string): boolean {
  return /^src\/(openshift|kubernetes)\/[^/]+\//.test(file) && !/^src\/(openshift|kubernetes)\/(migration|flags)\//.test(file);
}

/** `file:line compares with 'name' (…)` for each comparison (===, !==, ==, !=, switch case) of a value with a platform's name. */
export function platformComparisons(file: string, text: string): string[] {
  return literalComparisons(
    file,
    text,
    PLATFORM_NAMES,
    'a platform: put what differs behind its facts (src/openshift/<platform>/) or its provider (src/kubernetes/<provider>/)',
  );
}

/**
 * Platform-name comparisons outside the platform folders, by file: none is left (what differs per
 * platform is behind its facts or its provider), so a new one fails the test.
 */
export const PLATFORM_COMPARISONS_LEFT: Readonly<Record<string, number>> = {};

/** The providers' names as they start a function of theirs (`awsIrsaProblems`, `vsphereSecretEnvProblems` …). */
const PROVIDER_FUNCTION = /^(aws|azure|gcp|gce|vsphere|openstack|alibaba|nutanix|digitalocean|equinix)/i;

/** `file:line name` for each function of `text` named after a provider: a provider's check, which belongs in its folder. */
export function providerFunctions(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  return source.statements
    .filter((s): s is ts.FunctionDeclaration => ts.isFunctionDeclaration(s) && s.name !== undefined && PROVIDER_FUNCTION.test(s.name.text))
    .map(
      (s) =>
        `${file}:${source.getLineAndCharacterOfPosition(s.getStart(source)).line + 1} ${s.name!.text} (a provider's check: move it to src/kubernetes/<provider>/, behind UpstreamProvider.specProblems or cloudConfigProblems)`,
    );
}

/** The distributions' folders: reached from outside only through their registries. */
const DISTRIBUTION_FOLDERS = ['openshift', 'kubernetes'];

/**
 * The files outside the distributions that import them: the two registries, and
 * the package's public barrel, which re-exports the documented constructs (docs/api.md).
 */
export const DISTRIBUTION_GATES = ['src/distribution-facts.ts', 'src/distributions.ts', 'src/index.ts'];

/** `file → specifier (…)` for each import of a distribution's folder from outside it, but from its registries. */
export function distributionReachIns(edges: readonly ImportEdge[]): string[] {
  return edges
    .filter(({ from, specifier }) => {
      if (!specifier.startsWith('.') || DISTRIBUTION_GATES.includes(from)) return false;
      const source = layerOf(from);
      const target = layerOf(path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier)));
      return target !== undefined && source !== target && DISTRIBUTION_FOLDERS.includes(target);
    })
    .map(
      ({ from, specifier }) =>
        `${from} → ${specifier} (reach a distribution through its registry: a hook of DistributionFacts in src/distribution-facts.ts or of DistributionRendering in src/distributions.ts)`,
    );
}

/** The one table of what migration allows per platform, which both distributions read (ARCHITECTURE.md). */
export const MIGRATION_SUPPORT_TABLE = 'src/migration/support.ts';

/** `file:line …` for each object literal that writes a MigrationSupport (its `inTreeProvider`) outside the neutral table. */
export function migrationSupportWriters(file: string, text: string): string[] {
  if (file === MIGRATION_SUPPORT_TABLE) return [];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && node.name.text === 'inTreeProvider') {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      found.push(`${file}:${line} writes a platform's migration support (put it in ${MIGRATION_SUPPORT_TABLE}, which every distribution reads)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the rule engine', () => {
  test('GIVEN kubernetes importing openshift WHEN checked THEN the file and the import are named', () => {
    expect(violations([{ from: 'src/kubernetes/upstream-ccm-rbac.ts', specifier: '../openshift/constants' }])).toEqual([
      'src/kubernetes/upstream-ccm-rbac.ts → ../openshift/constants (src/kubernetes may not import src/openshift)',
    ]);
  });

  test('GIVEN migration importing a distribution or the spec importing a renderer THEN each edge is named', () => {
    expect(
      violations([
        { from: 'src/migration/plan-files.ts', specifier: '../kubernetes/providers' },
        { from: 'src/migration/plan-files.ts', specifier: '../openshift/platform' },
        { from: 'src/cluster-spec/schema.ts', specifier: '../openshift/spec-section' },
        { from: 'src/cluster-spec/schema.ts', specifier: '../migration/phases' },
      ]),
    ).toEqual([
      'src/migration/plan-files.ts → ../kubernetes/providers (src/migration may not import src/kubernetes)',
      'src/migration/plan-files.ts → ../openshift/platform (src/migration may not import src/openshift)',
      'src/cluster-spec/schema.ts → ../openshift/spec-section (src/cluster-spec may not import src/openshift)',
      'src/cluster-spec/schema.ts → ../migration/phases (src/cluster-spec may not import src/migration)',
    ]);
  });

  test('GIVEN a folder without a rule THEN it is named; GIVEN allowed or package imports THEN nothing', () => {
    expect(
      violations([
        { from: 'src/newthing/a.ts', specifier: '../migration/phases' },
        { from: 'src/kubernetes/a.ts', specifier: '../migration/phases' },
        { from: 'src/kubernetes/a.ts', specifier: './b' },
        { from: 'src/kubernetes/a.ts', specifier: '../../imports/k8s' },
        { from: 'src/kubernetes/a.ts', specifier: '../util/version-skew' },
        { from: 'src/kubernetes/a.ts', specifier: 'cdk8s' },
        { from: 'src/cli.ts', specifier: './kubernetes' },
      ]),
    ).toEqual(['src/newthing/a.ts → ../migration/phases (folder src/newthing has no rule in ARCHITECTURE.md)']);
  });

  test('GIVEN a file directly under src/ THEN a lower layer may not import it; a folder index is its folder', () => {
    expect(
      violations([
        { from: 'src/migration/a.ts', specifier: '../cli' },
        { from: 'src/migration/a.ts', specifier: '../kubernetes' },
      ]),
    ).toEqual([
      'src/migration/a.ts → ../cli (src/migration may not import src/(top))',
      'src/migration/a.ts → ../kubernetes (src/migration may not import src/kubernetes)',
    ]);
  });
});

describe('the import-cycle check', () => {
  const files = new Set(['src/cli.ts', 'src/cli/a.ts', 'src/cli/b.ts', 'src/cli/c.ts', 'src/pipeline/x.ts']);
  const exists = (f: string) => files.has(f);
  const resolve = (from: string, specifier: string) => importedFile(from, specifier, exists);

  test('GIVEN a command importing the dispatcher, and two commands importing each other THEN each cycle is named, file by file', () => {
    const edges = [
      { from: 'src/cli.ts', specifier: './cli/a' },
      { from: 'src/cli/a.ts', specifier: '../cli' },
      { from: 'src/cli/b.ts', specifier: './c' },
      { from: 'src/cli/c.ts', specifier: './b' },
    ];
    expect(importCycles(edges, isCommandLine, resolve)).toEqual([
      'src/cli.ts → src/cli/a.ts → src/cli.ts',
      'src/cli/b.ts → src/cli/c.ts → src/cli/b.ts',
    ]);
  });

  test('GIVEN the dispatcher importing commands that share a helper, and a cycle through a file out of scope THEN nothing', () => {
    const edges = [
      { from: 'src/cli.ts', specifier: './cli/a' },
      { from: 'src/cli.ts', specifier: './cli/b' },
      { from: 'src/cli/a.ts', specifier: './c' },
      { from: 'src/cli/b.ts', specifier: './c' },
      { from: 'src/cli/c.ts', specifier: '../pipeline/x' },
      { from: 'src/pipeline/x.ts', specifier: '../cli/c' },
      { from: 'src/cli/c.ts', specifier: 'commander' },
    ];
    expect(importCycles(edges, isCommandLine, resolve)).toEqual([]);
  });
});

describe('the distribution rule', () => {
  test('GIVEN a comparison or a switch case on a distribution name THEN the file and line are named', () => {
    const text = [
      "if (input.distribution === 'openshift') {}",
      'const k = "kubernetes" != d;',
      'switch (d) {',
      "  case 'kubernetes': break;",
      '}',
    ].join('\n');
    expect(distributionComparisons('src/migration/x.ts', text)).toEqual([
      "src/migration/x.ts:1 compares with 'openshift' (a distribution: put what differs behind MigrationTarget / MigrationControlPlane)",
      "src/migration/x.ts:2 compares with 'kubernetes' (a distribution: put what differs behind MigrationTarget / MigrationControlPlane)",
      "src/migration/x.ts:4 compares with 'kubernetes' (a distribution: put what differs behind MigrationTarget / MigrationControlPlane)",
    ]);
  });

  test('GIVEN a comparison outside the registries THEN the file and line are named with the registry to use', () => {
    // GIVEN a composition file choosing by spec.distribution
    const text = "const mode = spec.spec.distribution === 'kubernetes' ? 'x' : 'plain';";
    // WHEN it is checked with the registry's fix
    const found = distributionComparisons('src/pipeline/x.ts', text, BEHIND_DISTRIBUTION_REGISTRY);
    // THEN the file, line and the interfaces to put it behind are named
    expect(found).toEqual([
      "src/pipeline/x.ts:1 compares with 'kubernetes' (a distribution: put what differs behind DistributionFacts / DistributionRendering (src/cluster/distribution.ts))",
    ]);
  });

  test('GIVEN the names used otherwise (field paths, text, other values compared) THEN nothing', () => {
    const text = [
      "const path = ['spec', 'kubernetes', 'clusterName'];",
      "const s = `on ${'openshift'}`;",
      "if (phase === 'external') {}",
      "const t = 'openshift' + x;",
    ].join('\n');
    expect(distributionComparisons('src/migration/x.ts', text)).toEqual([]);
  });
});

describe('the registry rule', () => {
  test('GIVEN composition code importing a distribution THEN the file and import are named; GIVEN the registries, the barrel or a distribution itself THEN nothing', () => {
    // GIVEN imports of the distributions from the loader, a command, the registries, the barrel and inside a distribution
    const edges = [
      { from: 'src/fleet/load.ts', specifier: '../openshift/platform-facts' },
      { from: 'src/cloud-config-command.ts', specifier: './openshift/azure/facts' },
      { from: 'src/api/load-cluster.ts', specifier: '../kubernetes' },
      { from: 'src/distribution-facts.ts', specifier: './openshift/distribution-facts' },
      { from: 'src/distributions.ts', specifier: './kubernetes/distribution' },
      { from: 'src/index.ts', specifier: './openshift/openshift-static-set' },
      { from: 'src/openshift/aws/facts.ts', specifier: '../platform' },
      { from: 'src/fleet/load.ts', specifier: '../migration/support' },
    ];
    // WHEN they are checked
    // THEN only the composition code's reach-ins are named
    expect(distributionReachIns(edges)).toEqual([
      'src/fleet/load.ts → ../openshift/platform-facts (reach a distribution through its registry: a hook of DistributionFacts in src/distribution-facts.ts or of DistributionRendering in src/distributions.ts)',
      'src/cloud-config-command.ts → ./openshift/azure/facts (reach a distribution through its registry: a hook of DistributionFacts in src/distribution-facts.ts or of DistributionRendering in src/distributions.ts)',
      'src/api/load-cluster.ts → ../kubernetes (reach a distribution through its registry: a hook of DistributionFacts in src/distribution-facts.ts or of DistributionRendering in src/distributions.ts)',
    ]);
  });
});

describe('the platform rule', () => {
  test('GIVEN a comparison with a platform name THEN the file and line are named; GIVEN a table keyed by it THEN nothing', () => {
    // GIVEN comparisons and a switch on platform names, and a lookup table
    const text = [
      "if (spec.spec.platform === 'AWS') {}",
      'switch (p) {',
      "  case 'AzureStackHub': break;",
      '}',
      "const t = { AWS: 1 }['AWS'];",
      "if (phase === 'external') {}",
    ].join('\n');
    // WHEN it is checked
    // THEN the comparisons are named with where the difference goes
    expect(platformComparisons('src/kubernetes/validate.ts', text)).toEqual([
      "src/kubernetes/validate.ts:1 compares with 'AWS' (a platform: put what differs behind its facts (src/openshift/<platform>/) or its provider (src/kubernetes/<provider>/))",
      "src/kubernetes/validate.ts:3 compares with 'AzureStackHub' (a platform: put what differs behind its facts (src/openshift/<platform>/) or its provider (src/kubernetes/<provider>/))",
    ]);
  });

  test('GIVEN the folders THEN a platform or provider folder holds its own comparisons; the shared files and migration/ do not', () => {
    expect(
      [
        'src/openshift/aws/facts.ts',
        'src/kubernetes/aws/index.ts',
        'src/kubernetes/validate.ts',
        'src/openshift/migration/x.ts',
        'src/kubernetes/flags/index.ts',
        'src/cli.ts',
      ].map(inPlatformFolder),
    ).toEqual([true, true, false, false, false, false]);
  });

  test('GIVEN a function named after a provider THEN it is named as a provider check', () => {
    const text = ['export function awsIrsaProblems() {}', 'function unknownFlagProblems() {}', 'export function vsphereSecretEnvProblems() {}'].join(
      '\n',
    );
    expect(providerFunctions('src/kubernetes/validate.ts', text)).toEqual([
      "src/kubernetes/validate.ts:1 awsIrsaProblems (a provider's check: move it to src/kubernetes/<provider>/, behind UpstreamProvider.specProblems or cloudConfigProblems)",
      "src/kubernetes/validate.ts:3 vsphereSecretEnvProblems (a provider's check: move it to src/kubernetes/<provider>/, behind UpstreamProvider.specProblems or cloudConfigProblems)",
    ]);
  });
});

describe('the migration support rule', () => {
  test("GIVEN a platform's facts writing its migration support THEN the file and line are named; GIVEN the neutral table THEN nothing", () => {
    // GIVEN the same literal in an OpenShift platform's facts and in the neutral table
    const text = ['export const F = {', "  migrationSupport: () => ({ inTreeProvider: 'aws', volumePlugin: 'aws' }),", '};'].join('\n');
    // WHEN each is checked
    // THEN only the platform's facts are named
    expect(migrationSupportWriters('src/openshift/aws/facts.ts', text)).toEqual([
      "src/openshift/aws/facts.ts:2 writes a platform's migration support (put it in src/migration/support.ts, which every distribution reads)",
    ]);
    expect(migrationSupportWriters(MIGRATION_SUPPORT_TABLE, text)).toEqual([]);
  });
});

describe('src/ follows ARCHITECTURE.md', () => {
  const edges = importsOfSrc();

  test('the parser sees the imports (a sanity check on the reader)', () => {
    expect(edges).toEqual(expect.arrayContaining([{ from: 'src/index.ts', specifier: './pipeline/cluster-chart' }]));
  });

  test('no import breaks a rule', () => {
    expect(violations(edges)).toEqual([]);
  });

  test('the table keeps the layer rules: no distribution imports the other; migration, cluster spec and constructs import no renderer', () => {
    const renderers = ['openshift', 'kubernetes'];
    const may = (from: string, to: string) => MAY_IMPORT[from] === 'anything' || MAY_IMPORT[from].includes(to);
    const edgesAllowed = [
      ['kubernetes', 'openshift'],
      ['openshift', 'kubernetes'],
      ...['migration', 'cluster-spec', 'spec-migrations', 'constructs', 'cluster', 'gitops'].flatMap((low) => renderers.map((r) => [low, r])),
      ...['migration', 'gitops', 'cluster', 'fleet', '(top)'].map((up) => ['cluster-spec', up]),
    ].filter(([from, to]) => may(from, to));
    expect(edgesAllowed).toEqual([]);
  });

  test('GIVEN the fleet loader and the synth pipeline THEN the pipeline may import the loader, the loader never the pipeline (no cycle), and each has its own row', () => {
    expect([MAY_IMPORT.fleet === 'anything', MAY_IMPORT.pipeline === 'anything']).toEqual([false, false]);
    expect(MAY_IMPORT.pipeline).toContain('fleet');
    expect(violations([{ from: 'src/fleet/load.ts', specifier: '../pipeline/phase-guard' }])).toEqual([
      'src/fleet/load.ts → ../pipeline/phase-guard (src/fleet may not import src/pipeline)',
    ]);
  });

  test('the distribution-neutral folders never compare spec.distribution (src/migration/: the protocol only; the neutral layers below the distributions)', () => {
    const files = DISTRIBUTION_NEUTRAL.flatMap((folder) => sourceFiles(path.join(SRC, folder)));
    expect(files.length).toBeGreaterThan(0);
    expect(
      files.flatMap((file) => distributionComparisons(path.relative(REPO, file).split(path.sep).join('/'), fs.readFileSync(file, 'utf8'))),
    ).toEqual([]);
  });

  test('no file outside the distributions and their registries compares spec.distribution (one seam: src/distribution-facts.ts, src/distributions.ts)', () => {
    const files = sourceFiles(SRC)
      .map((f) => path.relative(REPO, f).split(path.sep).join('/'))
      .filter((f) => !DISTRIBUTION_CHOOSERS.some((allowed) => f === allowed || (allowed.endsWith('/') && f.startsWith(allowed))));
    expect(files.length).toBeGreaterThan(100);
    expect(
      files.flatMap((file) => distributionComparisons(file, fs.readFileSync(path.join(REPO, file), 'utf8'), BEHIND_DISTRIBUTION_REGISTRY)),
    ).toEqual([]);
  });

  test("GIVEN src/kubernetes/validate.ts THEN it only dispatches: no platform comparison, no provider check (each provider's are in its folder)", () => {
    const file = 'src/kubernetes/validate.ts';
    const text = fs.readFileSync(path.join(REPO, file), 'utf8');
    expect([...platformComparisons(file, text), ...providerFunctions(file, text)]).toEqual([]);
  });

  test('GIVEN every file of src/ outside the platform and provider folders THEN it compares no platform name but those left, counted', () => {
    const counts: Record<string, number> = {};
    for (const file of sourceFiles(SRC).map((f) => path.relative(REPO, f).split(path.sep).join('/'))) {
      if (inPlatformFolder(file) || file.startsWith('src/imports/')) continue;
      const found = platformComparisons(file, fs.readFileSync(path.join(REPO, file), 'utf8'));
      if (found.length > 0) counts[file] = found.length;
    }
    expect(counts).toEqual(PLATFORM_COMPARISONS_LEFT);
  });

  test('GIVEN every file of src/ outside the distributions THEN none imports them but their registries and the public barrel', () => {
    expect(distributionReachIns(edges)).toEqual([]);
  });

  test("GIVEN every file of src/ THEN only the neutral table writes a platform's migration support (both distributions read it)", () => {
    const files = sourceFiles(SRC).map((f) => path.relative(REPO, f).split(path.sep).join('/'));
    expect(files).toContain(MIGRATION_SUPPORT_TABLE);
    expect(files.flatMap((file) => migrationSupportWriters(file, fs.readFileSync(path.join(REPO, file), 'utf8')))).toEqual([]);
  });

  test('GIVEN every source file of src/ but the generated imports/ THEN none is over 800 lines (split it by responsibility)', () => {
    const files = sourceFiles(SRC).filter((f) => !f.startsWith(path.join(SRC, 'imports') + path.sep));
    expect(files.length).toBeGreaterThan(100);
    const long = files
      .map((f) => [path.relative(REPO, f).split(path.sep).join('/'), fs.readFileSync(f, 'utf8').split('\n').length - 1] as const)
      .filter(([, lines]) => lines > 800)
      .map(([f, lines]) => `${f}: ${lines} lines`);
    expect(long).toEqual([]);
  });

  test('GIVEN the dispatcher src/cli.ts and the commands in src/cli/ THEN no import cycle among them (a command never imports the dispatcher)', () => {
    expect(edges.filter((e) => e.from.startsWith('src/cli/')).length).toBeGreaterThan(10);
    expect(importCycles(edges, isCommandLine)).toEqual([]);
  });

  test('GIVEN the long-function exceptions of eslint.config.mjs THEN each names a source file that exists (a moved file takes its entry along)', () => {
    const config = fs.readFileSync(path.join(REPO, 'eslint.config.mjs'), 'utf8');
    const listed = [...config.matchAll(/^\s*\['(src\/[^']+\.ts)', /gm)].map((m) => m[1]);
    expect(listed.length).toBe(config.split('\n').filter((l) => l.trim().startsWith("['src/")).length);
    expect(listed.length).toBeGreaterThan(10);
    expect(listed.filter((f) => !fs.existsSync(path.join(REPO, f)))).toEqual([]);
  });

  test('every folder of src/ has a rule', () => {
    const folders = fs
      .readdirSync(SRC, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    expect(folders.filter((f) => !(f in MAY_IMPORT) && !(BASE as readonly string[]).includes(f))).toEqual([]);
  });
});
