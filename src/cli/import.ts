/** The `import` command: a cluster spec and its cloud config from what `oc get -o yaml` exports of a live cluster. */
import * as fs from 'fs';
import * as path from 'path';
import { Command } from 'commander';
import { stringify } from 'yaml';
import { loadSpecFiles } from '../fleet/load';
import { CommandContext, DEFAULT_CLUSTERS_DIR } from './io';
import { defaultsRoot } from './options';
import { EXIT_INVALID_INPUT } from './exit-codes';
import { formatIssue, isSpecError } from '../cluster-spec/errors';
import { importLiveCluster, ImportResult } from '../import/live-cluster';
import { exportSource, readExport } from '../import/read-export';
import { findSecretInData, findSecretInIni } from '../secrets/detector';
import { UserError } from '../util/user-error';

/** The options of `import` as commander gives them. */
interface ImportFlags {
  readonly from: string;
  readonly out: string;
  readonly name?: string;
  readonly force?: boolean;
}

/** Adds `import` to the program. */
export function addImportCommand(program: Command, ctx: CommandContext): void {
  program
    .command('import')
    .description(
      'write a cluster spec (and its cloud config) from what oc get -o yaml exports of a live cluster: Infrastructure, Network, Proxy, ' +
        'FeatureGate, APIServer, the openshift-config cloud config ConfigMap, the operator images ConfigMap and the operator Deployment (single files or Lists)',
    )
    .requiredOption('--from <path>', 'folder (or file) of the export')
    .option('-o, --out <dir>', 'folder to write the spec into', DEFAULT_CLUSTERS_DIR)
    .option('--name <name>', 'cluster name (default: the infrastructure name without its random suffix)')
    .option('--force', 'replace files that exist')
    .action((opts: ImportFlags) => importCluster(opts, ctx));
}

/** Imports the export: the spec and its files checked for secrets, written together, then validated as validate-spec would. */
function importCluster(opts: ImportFlags, { io, setCode }: CommandContext): void {
  const result = importLiveCluster(readExport(opts.from), { name: opts.name, sourceOf: exportSource });
  const specFile = `${result.name}.yaml`;
  refuseSecrets(result);
  const files = [...result.files, { name: specFile, content: importedSpecYaml(result.spec, opts.from) }];
  writeTogether(files, opts);
  for (const w of result.warnings) {
    io.err(`warning: ${w}\n`);
  }
  io.out(`wrote ${files.map((f) => path.join(opts.out, f.name)).join(', ')}\n`);
  const written = path.join(opts.out, specFile);
  // the files stay for the user to complete; the exit says the import is not done until validate-spec accepts them
  try {
    validateWritten(written);
  } catch (e) {
    if (!isSpecError(e)) {
      throw e;
    }
    const n = e.issues.length === 1 ? '1 problem' : `${e.issues.length} problems`;
    io.err(`error: ccm-gitops validate-spec would refuse the spec written (${n}); fix ${written}, then run ccm-gitops validate-spec ${written}\n`);
    e.issues.forEach((issue) => io.err(`  ${formatIssue(issue)}\n`));
    setCode(EXIT_INVALID_INPUT);
    return;
  }
  io.out(`next: ccm-gitops validate-spec ${written}\n`);
}

/** The one secret detector over everything written (e.g. Proxy status credentials, keys in a cloud config). */
function refuseSecrets(result: ImportResult): void {
  const inSpec = findSecretInData(result.spec);
  if (inSpec) {
    throw new UserError(
      'import',
      `the imported spec field ${inSpec.key} holds ${inSpec.reason.replace(/^"[^"]*" holds /, '')}; remove it from the cluster (or the export) first, credentials never go into git`,
    );
  }
  for (const f of result.files) {
    const found = findSecretInIni(f.content);
    if (found) {
      throw new UserError(
        'import',
        `${f.name} (line ${found.line}) would hold ${found.reason.replace(/^"[^"]*" holds /, '')}; credentials never go into git`,
      );
    }
  }
}

/** Writes the files into --out: each staged first, then renamed into place, so a failed write leaves no partial import. */
function writeTogether(files: readonly { name: string; content: string }[], opts: ImportFlags): void {
  const existing = files.map((f) => path.join(opts.out, f.name)).filter((f) => fs.existsSync(f));
  if (existing.length > 0 && !opts.force) {
    throw new UserError(
      'usage',
      `${existing.join(', ')} exist${existing.length === 1 ? 's' : ''}; pass --force to replace, or --name for another cluster name`,
    );
  }
  fs.mkdirSync(opts.out, { recursive: true });
  const staged = files.map((f) => ({
    target: path.join(opts.out, f.name),
    staging: path.join(opts.out, `.${f.name}.ccm-gitops-import`),
    content: f.content,
  }));
  try {
    for (const f of staged) {
      fs.writeFileSync(f.staging, f.content);
    }
  } catch (e) {
    staged.forEach((f) => fs.rmSync(f.staging, { force: true }));
    throw e;
  }
  for (const f of staged) {
    fs.renameSync(f.staging, f.target);
  }
}

/** Checks a written spec file as validate-spec does (throws SpecValidationError). */
function validateWritten(file: string): void {
  // no defaults.yaml above it: the spec's own folder is the clusters folder its cloud config stays in
  const root = defaultsRoot([file]);
  loadSpecFiles([file], root === '.' ? path.dirname(file) : root);
}

/** The imported spec as YAML, with a header saying where it came from. */
function importedSpecYaml(spec: Record<string, unknown>, from: string): string {
  return (
    `# Imported with ccm-gitops import from ${path.basename(path.resolve(from))}. Review it, then move shared values to a defaults.yaml.\n` +
    stringify(spec, { lineWidth: 0 })
  );
}
