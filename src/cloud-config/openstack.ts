import { TransformResult } from './errors';
import { IniSection, parseGoIni, writeGoIni } from './go-ini';
import { findSecretLikeIniKey } from './secrets';
import { UserError, isUserError } from '../util/user-error';

/**
 * The OpenStack cloud-config transform (openshift/enhancements@e91105bda6aa enhancements/cloud-integration/openstack/cloud-provider-config-upgrade.md;
 * openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/cloud/openstack/openstack.go), as a pure
 * function. The in-tree provider read credentials from a Secret named in
 * `[Global]`; the external CCM reads the cluster's `clouds.yaml` (from the
 * `openstack-cloud-credentials` Secret, mounted at /etc/openstack/secret):
 *
 * - `[Global] secret-name`, `secret-namespace`, `kubeconfig-path` are dropped
 *   when they hold the installer defaults; any other value is an error (the
 *   operator's `Upgradeable=False`) telling the user what to change;
 * - `use-clouds = true`, `clouds-file = /etc/openstack/secret/clouds.yaml`,
 *   `cloud = openstack` are always set (in a new `[Global]` after the config's
 *   sections when it has none);
 * - every block-storage option is dropped (Cinder CSI owns them);
 * - `[LoadBalancer]`: `use-octavia` is dropped, `max-shared-lb = 1` and
 *   `manage-security-groups = true` are added unless set (user values win);
 * - everything else is kept, in order.
 * Every dropped or overridden key is reported as a warning (the enhancement's
 * open question). Output is go-ini's pretty format, as the operator writes it.
 *
 * Deviations (README): a `[Global]` without `secret-name` / `secret-namespace`
 * is accepted (the operator reads an absent key as "" and refuses it); the
 * three legacy keys are checked in a fixed order (the operator's order is Go
 * map order); credential values in the config are an error.
 */

/** The legacy credential keys and the only values the transform accepts for them. */
export const OPENSTACK_LEGACY_DEFAULTS: readonly (readonly [string, string])[] = [
  ['secret-name', 'openstack-credentials'],
  ['secret-namespace', 'kube-system'],
  ['kubeconfig-path', ''],
];

/** Where the CCM finds the cluster's clouds.yaml. */
export const OPENSTACK_CLOUDS_FILE = '/etc/openstack/secret/clouds.yaml';

const ALWAYS_SET: readonly (readonly [string, string])[] = [
  ['use-clouds', 'true'],
  ['clouds-file', OPENSTACK_CLOUDS_FILE],
  ['cloud', 'openstack'],
];

const LOAD_BALANCER_DEFAULTS: readonly (readonly [string, string])[] = [
  ['max-shared-lb', '1'],
  ['manage-security-groups', 'true'],
];

/**
 * Characters a decoded go-ini value may hold that gcfg only reads inside an
 * escaped, quoted string, which go-ini would then read back differently.
 */
const GCFG_AMBIGUOUS = /[\\"#;\x00-\x1f\x7f]/;

/** Runs the OpenStack transform. Throws a UserError of kind 'cloud-config' when the operator would refuse the config. */
export function transformOpenStackCloudConfig(source: string): TransformResult {
  const secret = findSecretLikeIniKey(source);
  if (secret) {
    throw new UserError(
      'cloud-config',
      `'${secret.key}' (line ${secret.line}) holds a credential; remove it: the OpenStack cloud controller manager reads ` +
        "credentials from the cluster's clouds.yaml (Secret openstack-cloud-credentials, from the OpenStack CredentialsRequest), and credentials never go into git",
      secret.line,
    );
  }
  let sections: IniSection[];
  try {
    sections = parseGoIni(source);
  } catch (e) {
    if (isUserError(e, 'cloud-config')) {
      throw new UserError('cloud-config', `failed to read the cloud.conf: ${e.message}`, e.line);
    }
    throw e;
  }
  const outside = sections.find((s) => s.name === 'DEFAULT' && s.line === 0);
  if (outside) {
    const first = outside.entries[0];
    throw new UserError(
      'cloud-config',
      `failed to read the cloud.conf: line ${first.line}: '${first.key}' is outside any section; move it into its section ` +
        "(e.g. [Global]): the OpenStack CCM's reader rejects keys before the first section header",
      first.line,
    );
  }
  for (const s of sections) {
    const odd = s.entries.find((e) => GCFG_AMBIGUOUS.test(e.value));
    if (odd) {
      throw new UserError(
        'cloud-config',
        `'[${s.name}] ${odd.key}' (line ${odd.line}) holds a backslash, a double quote, '#', ';' or a control character: the operator reads this file ` +
          'with go-ini and the CCM reads cloud-conf with gcfg, which read these characters differently, so the value cannot be carried over unchanged; remove them',
        odd.line,
      );
    }
  }
  const warnings: string[] = [];
  const out = sections.map((s) => ({ name: s.name, line: s.line, entries: s.entries.map((e) => ({ ...e })) }));

  let global = out.find((s) => s.name === 'Global');
  if (global) {
    for (const [key, expected] of OPENSTACK_LEGACY_DEFAULTS) {
      const entry = global.entries.find((e) => e.key === key);
      if (entry && entry.value !== expected) {
        throw new UserError(
          'cloud-config',
          `'[Global] ${key}' is set to a non-default value ${JSON.stringify(entry.value)}; ` +
            `${expected ? `remove it or set it to ${JSON.stringify(expected)}` : 'remove it'}: the external CCM reads credentials from the cluster's clouds.yaml`,
          entry.line,
        );
      }
      if (entry) {
        warnings.push(`'[Global] ${key}' (line ${entry.line}) is dropped: the external CCM reads credentials from the cluster's clouds.yaml`);
      }
    }
    global.entries = global.entries.filter((e) => !OPENSTACK_LEGACY_DEFAULTS.some(([k]) => k === e.key));
  } else {
    for (const other of out.filter((s) => s.name.toLowerCase() === 'global')) {
      warnings.push(
        `section '[${other.name}]' (line ${other.line}) is kept next to the new [Global]: the operator matches section names case-sensitively and adds [Global], ` +
          "while the CCM's gcfg reader reads both as one section; rename it to [Global]",
      );
    }
    // go-ini's File.NewSection appends: the new [Global] follows the config's own sections.
    global = { name: 'Global', line: 0, entries: [] };
    out.push(global);
  }
  for (const [key, value] of ALWAYS_SET) {
    const entry = global.entries.find((e) => e.key === key);
    if (entry) {
      if (entry.value !== value) {
        warnings.push(
          `'[Global] ${key}' = ${JSON.stringify(entry.value)} (line ${entry.line}) is overridden with ${JSON.stringify(value)}: the CCM uses the cluster's clouds.yaml`,
        );
      }
      entry.value = value;
    } else {
      global.entries.push({ key, value, line: 0 });
    }
  }

  const blockStorage = out.find((s) => s.name === 'BlockStorage');
  if (blockStorage) {
    const keys = blockStorage.entries.map((e) => e.key);
    warnings.push(
      `section '[BlockStorage]' (line ${blockStorage.line}) is dropped${keys.length ? ` with ${keys.join(', ')}` : ''}: block storage is configured in the Cinder CSI driver`,
    );
  }
  const kept = out.filter((s) => s.name !== 'BlockStorage');

  let lb = kept.find((s) => s.name === 'LoadBalancer');
  if (!lb) {
    lb = { name: 'LoadBalancer', line: 0, entries: [] };
    kept.push(lb);
  }
  const octavia = lb.entries.find((e) => e.key === 'use-octavia');
  if (octavia) {
    warnings.push(`'[LoadBalancer] use-octavia' (line ${octavia.line}) is dropped: the external CCM always uses Octavia`);
    lb.entries = lb.entries.filter((e) => e.key !== 'use-octavia');
  }
  for (const [key, value] of LOAD_BALANCER_DEFAULTS) {
    if (!lb.entries.some((e) => e.key === key)) {
      lb.entries.push({ key, value, line: 0 });
    }
  }
  return { config: writeGoIni(kept), warnings };
}
