/** The `import` command: a cluster spec and its cloud config from what `oc get -o yaml` exports of a live cluster. */
import * as fs from 'fs';
import * as path from 'path';
import { Command } from 'commander';
import { stringify } from 'yaml';
import type { CliIo } from './cli';
import { EXIT_INVALID_INPUT, UsageError } from './cli-errors';
import { formatIssue, SpecValidationError } from './cluster-spec/errors';
import { ImportError, importLiveCluster } from './import/live-cluster';
import { exportSource, readExport } from './import/read-export';
import { findSecretInData, findSecretInIni } from './secrets/detector';

/**
 * Adds `import` to the program; `defaultOut` is the folder specs are written to without --out.
 * `validateSpec` checks a written spec file as validate-spec does (throws SpecValidationError);
 * `setCode` sets the exit code.
 */
export function addImportCommand(
  program: Command,
  io: CliIo,
  defaultOut: string,
  validateSpec: (file: string) => void,
  setCode: (code: number) => void,
): void {
  program
    .command('import')
    .description(
      'write a cluster spec (and its cloud config) from what oc get -o yaml exports of a live cluster: Infrastructure, Network, Proxy, ' +
        'FeatureGate, APIServer, the openshift-config cloud config ConfigMap and the operator images ConfigMap (single files or Lists)',
    )
    .requiredOption('--from <path>', 'folder (or file) of the export')
    .option('-o, --out <dir>', 'folder to write the spec into', defaultOut)
    .option('--name <name>', 'cluster name (default: the infrastructure name without its random suffix)')
    .option('--force', 'replace files that exist')
    .action((opts: { from: string; out: string; name?: string; force?: boolean }) => {
      const result = importLiveCluster(readExport(opts.from), { name: opts.name, sourceOf: exportSource });
      const specFile = `${result.name}.yaml`;
      // the one secret detector over everything written (e.g. Proxy status credentials, keys in a cloud config)
      const inSpec = findSecretInData(result.spec);
      if (inSpec) {
        throw new ImportError(
          `the imported spec field ${inSpec.key} holds ${inSpec.reason.replace(/^"[^"]*" holds /, '')}; remove it from the cluster (or the export) first, credentials never go into git`,
        );
      }
      for (const f of result.files) {
        const found = findSecretInIni(f.content);
        if (found) {
          throw new ImportError(
            `${f.name} (line ${found.line}) would hold ${found.reason.replace(/^"[^"]*" holds /, '')}; credentials never go into git`,
          );
        }
      }
      const files = [...result.files, { name: specFile, content: importedSpecYaml(result.spec, opts.from) }];
      const existing = files.map((f) => path.join(opts.out, f.name)).filter((f) => fs.existsSync(f));
      if (existing.length > 0 && !opts.force) {
        throw new UsageError(
          `${existing.join(', ')} exist${existing.length === 1 ? 's' : ''}; pass --force to replace, or --name for another cluster name`,
        );
      }
      fs.mkdirSync(opts.out, { recursive: true });
      // every file is staged first, then renamed into place: a failed write leaves no partial import
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
      for (const w of result.warnings) {
        io.err(`warning: ${w}\n`);
      }
      io.out(`wrote ${files.map((f) => path.join(opts.out, f.name)).join(', ')}\n`);
      const written = path.join(opts.out, specFile);
      // the files stay for the user to complete; the exit says the import is not done until validate-spec accepts them
      try {
        validateSpec(written);
      } catch (e) {
        if (!(e instanceof SpecValidationError)) {
          throw e;
        }
        const n = e.issues.length === 1 ? '1 problem' : `${e.issues.length} problems`;
        io.err(
          `error: ccm-gitops validate-spec would refuse the spec written (${n}); fix ${written}, then run ccm-gitops validate-spec ${written}\n`,
        );
        e.issues.forEach((issue) => io.err(`  ${formatIssue(issue)}\n`));
        setCode(EXIT_INVALID_INPUT);
        return;
      }
      io.out(`next: ccm-gitops validate-spec ${written}\n`);
    });
}

/** The imported spec as YAML, with a header saying where it came from. */
function importedSpecYaml(spec: Record<string, unknown>, from: string): string {
  return (
    `# Imported with ccm-gitops import from ${path.basename(path.resolve(from))}. Review it, then move shared values to a defaults.yaml.\n` +
    stringify(spec, { lineWidth: 0 })
  );
}
