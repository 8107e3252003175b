/**
 * The support table users read in docs/operator-handover.md: per release, the platforms gitops and
 * operator mode render, and how the cluster is updated. Written from the tables that decide it, so a
 * test keeps the page true. Pure: no cdk8s import.
 */
import { PlatformType } from '../cluster-spec/schema';
import { compareMinor, OPERATOR_BRANCH_COMMITS } from './release';
import { platformFactsFor } from './platform-facts';
import { operatorModeRenderedSince } from './release-payload';
import { gitopsRenderedSince, OPERANDS_RENDERED_SINCE } from './release-operands';

/** The OpenShift platforms, in the order the docs name them (Azure covers Azure Stack Hub). */
const PLATFORMS: readonly PlatformType[] = ['AWS', 'Azure', 'GCP', 'IBMCloud', 'PowerVS', 'OpenStack', 'VSphere', 'Nutanix', 'AlibabaCloud'];

const NAMES: Readonly<Partial<Record<PlatformType, string>>> = {
  Azure: 'Azure, Azure Stack Hub',
  IBMCloud: 'IBM Cloud',
  PowerVS: 'Power VS',
  VSphere: 'vSphere',
  AlibabaCloud: 'Alibaba Cloud',
};

/**
 * Extended Update Support releases: the even-numbered minors (Red Hat's OpenShift life cycle policy), between
 * which an EUS-to-EUS update goes through the odd minor with the worker pools paused.
 */
export const EUS_RELEASES: readonly string[] = ['4.16', '4.18', '4.20', '4.22'];

/** The oldest release in the table: the oldest in support on the day the table was written. */
export const OLDEST_SUPPORTED_RELEASE = '4.16';

function rendersInGitops(platform: PlatformType, minor: string): boolean {
  const only = platformFactsFor(platform)?.onlyRelease?.minor;
  if (only !== undefined) {
    return minor === only;
  }
  return compareMinor(minor, gitopsRenderedSince(platform)) >= 0;
}

function rendersInOperator(platform: PlatformType, minor: string): boolean {
  const only = platformFactsFor(platform)?.onlyRelease?.minor;
  if (only !== undefined) {
    return minor === only;
  }
  return compareMinor(minor, operatorModeRenderedSince(platformFactsFor(platform)!)) >= 0;
}

function platformList(minor: string, renders: (p: PlatformType, m: string) => boolean): string {
  const names = PLATFORMS.filter((p) => renders(p, minor)).map((p) => NAMES[p] ?? p);
  return names.length === 0 ? 'refused' : names.join(', ');
}

function updatePath(minor: string): string {
  // Before 4.22 CVO refuses a z-stream while any override is set (precondition ClusterVersionOverridesSet).
  const zStream = compareMinor(minor, OPERANDS_RENDERED_SINCE) >= 0 ? 'z-stream: CVO applies it, then bump the spec' : 'z-stream: way back first';
  const eus = EUS_RELEASES.includes(minor) && EUS_RELEASES.some((m) => compareMinor(m, minor) > 0) ? '; EUS-to-EUS: way back first' : '';
  return `${zStream}; minor: way back first${eus}`;
}

/** The rows of the support table, oldest release first: release (EUS marked), gitops mode, operator mode, update path. */
export function supportTableRows(): string[][] {
  const minors = Object.keys(OPERATOR_BRANCH_COMMITS)
    .filter((m) => compareMinor(m, OLDEST_SUPPORTED_RELEASE) >= 0)
    .sort(compareMinor);
  return minors.map((m) => [
    EUS_RELEASES.includes(m) ? `${m} (EUS)` : m,
    platformList(m, rendersInGitops),
    platformList(m, rendersInOperator),
    updatePath(m),
  ]);
}

/** The support table as Markdown. */
export function supportTableMarkdown(): string {
  const lines = ['| release | gitops mode | operator mode | update path (see above) |', '|---|---|---|---|'];
  for (const row of supportTableRows()) {
    lines.push(`| ${row.join(' | ')} |`);
  }
  return lines.join('\n');
}
