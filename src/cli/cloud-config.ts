/** The `cloud-config transform` command: a platform's transform on standard input, the result on standard output. */
import { Command } from 'commander';
import { CommandContext, PROCESS_IO } from './io';
import { CLOUD_CONFIG_PLATFORMS, CloudConfigPlatform, transformCloudConfig } from '../cloud-config';
import { TransformResult } from '../cloud-config/errors';
import { formatIssue } from '../cluster-spec/errors';
import { ClusterSpec, PlatformType } from '../cluster-spec/schema';
import { AzureSpecSection } from '../cluster-spec/sections/azure';
import { loadClusterSpec, MAX_INPUT_BYTES } from '../fleet/load';
import { cloudConfigTransformer } from '../distribution-facts';
import { UserError, isUserError } from '../util/user-error';

/** Adds `cloud-config transform` to the program; it reads standard input (at most MAX_INPUT_BYTES + 1 bytes). */
export function addCloudConfigCommand(program: Command, { io }: CommandContext): void {
  const readStdin = () => (io.in ?? PROCESS_IO.in!)();
  program
    .command('cloud-config')
    .description('cloud config tools')
    .command('transform')
    .description(
      "run a platform's cloud-config transform on standard input and write the result to standard output, " +
        "e.g. to check a config before an upgrade; exit 2 with the operator's message when it would refuse the config",
    )
    .requiredOption('-p, --platform <platform>', `one of ${CLOUD_CONFIG_PLATFORMS.join(', ')}`)
    .option('--cluster <spec>', 'take the platform inputs (region, service endpoints, feature gates, …) from this cluster spec')
    .option('-c, --clusters <dir>', 'with --cluster: the clusters folder, root of the defaults.yaml chain', '.')
    .option('--azure-cloud-name <name>', 'Azure: the Infrastructure cloud name')
    .option('--region <region>', 'AWS: the region (needed with service endpoints)')
    .option('--feature-gate <gate...>', 'enabled OpenShift feature gates')
    .action((opts: { platform: string; cluster?: string; clusters: string; azureCloudName?: string; region?: string; featureGate?: string[] }) => {
      if (!(CLOUD_CONFIG_PLATFORMS as readonly string[]).includes(opts.platform)) {
        throw new UserError('usage', `unknown platform "${opts.platform}"; use one of ${CLOUD_CONFIG_PLATFORMS.join(', ')}`);
      }
      const platform = opts.platform as CloudConfigPlatform;
      const source = readStdin();
      if (Buffer.byteLength(source, 'utf8') > MAX_INPUT_BYTES) {
        throw new UserError(
          'usage',
          `standard input is over the ${MAX_INPUT_BYTES}-byte limit of input files; a cloud config is a small text file: give the config alone`,
        );
      }
      let transform: () => TransformResult = () =>
        transformCloudConfig(platform, source, {
          enabledFeatureGates: opts.featureGate,
          azureCloudName: opts.azureCloudName,
          aws: opts.region ? { region: opts.region } : undefined,
          credentialHome: credentialHomeOf(platform),
        });
      if (opts.cluster) {
        const loaded = loadClusterSpec(opts.cluster, opts.clusters);
        if (!loaded.spec) {
          throw new UserError('usage', `the cluster spec is invalid:\n${loaded.issues.map((i) => `  ${formatIssue(i)}`).join('\n')}`);
        }
        const s = loaded.spec.spec;
        // the spec, with the command line's extra gates and cloud name, through the same transform synth runs
        const spec: ClusterSpec = {
          ...loaded.spec,
          spec: {
            ...s,
            featureGates: { ...s.featureGates, enabled: [...s.featureGates.enabled, ...(opts.featureGate ?? [])] },
            ...(opts.azureCloudName ? { azure: { cloudName: opts.azureCloudName as AzureSpecSection['cloudName'] } } : {}),
            ...(opts.region && !s.aws?.region ? { aws: { ...s.aws, region: opts.region } } : {}),
          },
        };
        const { transforms } = cloudConfigTransformer();
        const specPlatform = transforms.platformOf(spec);
        if (specPlatform !== platform) {
          throw new UserError('usage', `--platform ${platform} does not match the platform of ${opts.cluster} (${specPlatform})`);
        }
        transform = () => transforms.transform(spec, source);
      }
      let result: TransformResult;
      try {
        result = transform();
      } catch (e) {
        if (isUserError(e, 'cloud-config')) {
          throw new UserError('usage', `${e.line !== undefined ? `line ${e.line}: ` : ''}${e.message}`);
        }
        throw e;
      }
      for (const w of result.warnings) {
        io.err(`warning: ${w}\n`);
      }
      io.out(result.config);
    });
}

/** Where an OpenShift platform's CCM reads its credentials, for the transform's refusal of one; the transform's default when it is no platform type. */
function credentialHomeOf(platform: CloudConfigPlatform): string | undefined {
  const { facts } = cloudConfigTransformer();
  return facts.renders(platform as PlatformType) ? facts.credentialHome(platform as PlatformType) : undefined;
}
