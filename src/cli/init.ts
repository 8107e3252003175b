/** The `init` command: a fleet repository scaffolded (src/init/ does the work). */
import { Command } from 'commander';
import { initCommand } from '../init/command';
import { CommandContext } from './io';

/** Adds `init` to the program. */
export function addInitCommand(program: Command, ctx: CommandContext): void {
  program
    .command('init')
    .description(
      'scaffold a fleet repository: clusters/ with commented defaults and one example per distribution and platform, ' +
        '.gitignore and the CI workflow; never overwrites a file that exists, and what it adds fits what is kept',
    )
    .argument('[dir]', 'the fleet repository', '.')
    .option('-d, --distribution <name...>', 'openshift and/or kubernetes (default: openshift)')
    .option('-p, --platform <type...>', 'platform types to write an example for (default: AWS)')
    .option(
      '-e, --engine <engine>',
      'GitOps engine: argocd (an Argo CD per cluster, or a hub), flux (one entry per cluster) or plain ' +
        '(default: the engine of an existing clusters/defaults.yaml, else argocd)',
    )
    .option(
      '--topology <topology>',
      'with argocd: per-cluster (an Argo CD in each cluster) or hub (one Argo CD applies every cluster) ' +
        '(default: the topology of an existing clusters/defaults.yaml, else per-cluster)',
    )
    .option('--repo-url <url>', 'URL the GitOps engine clones the fleet repository from (default: a placeholder to replace)')
    .option('--no-ci', 'do not write .github/workflows/ccm-gitops.yml')
    .action(
      (dir: string, opts: { distribution?: string[]; platform?: string[]; engine?: string; topology?: string; repoUrl?: string; ci: boolean }) => {
        ctx.setCode(initCommand(dir, opts, ctx.io));
      },
    );
}
