/**
 * What the operator writes to `cloud-conf` on OpenStack, the same on every branch read
 * (openshift/cluster-cloud-controller-manager-operator@d721cd62b5ed (release-4.16) … @bc52198c1c3c
 * (release-4.23) pkg/cloud/openstack/openstack.go CloudConfigTransformer, createLoadBalancerSection,
 * updateLoadBalancerSection; only the signature changes). Never imports from `src/`.
 *
 * The source is loaded with go-ini (`ini.Load`, names case-sensitive):
 * - `[Global]` present: `secret-name`, `secret-namespace`, `kubeconfig-path` must read
 *   `openstack-credentials`, `kube-system` and "" (an absent key reads as "", Section.Key creates it),
 *   else the transform fails; then they are deleted. `[Global]` absent: a new one is appended after
 *   the existing sections (File.NewSection);
 * - `use-clouds = true`, `clouds-file = /etc/openstack/secret/clouds.yaml`, `cloud = openstack` set with
 *   Section.NewKey: an existing key keeps its place and takes the value, a new one goes last;
 * - `[BlockStorage]` deleted;
 * - `[LoadBalancer]` absent: appended with `max-shared-lb = 1`, `manage-security-groups = true`; present:
 *   `use-octavia` deleted and the two keys added last where unset.
 */
import { OutsideModel, readIni, writeGoIni } from './ini-text';

/** The legacy keys and the only values the transform accepts, in the order the refusal is checked here. */
const LEGACY: readonly (readonly [string, string])[] = [
  ['secret-name', 'openstack-credentials'],
  ['secret-namespace', 'kube-system'],
  ['kubeconfig-path', ''],
];

/** The outcome: the text written, or the refusal (the operator goes Degraded and writes nothing). */
export type Written = { readonly text: string } | { readonly refused: string };

/** `cloud.conf` as the operator writes it on OpenStack for `source`. */
export function openStackCloudConf(source: string): Written {
  // go-ini: a repeated section merges into the first, a repeated key keeps its place and takes the last value.
  const sections: { header: string; keys: [string, string][] }[] = [];
  for (const s of readIni(source)) {
    if (s.sub !== undefined) {
      throw new OutsideModel(`[${s.name} "${s.sub}"]: subsections are outside the OpenStack configs modelled`);
    }
    let section = sections.find((t) => t.header === s.name);
    if (section === undefined) {
      section = { header: s.name, keys: [] };
      sections.push(section);
    }
    for (const k of s.keys) {
      const at = section.keys.findIndex(([n]) => n === k.name);
      if (k.value === null) {
        throw new OutsideModel(`${k.name} without '=': go-ini refuses it`);
      }
      const value = k.value;
      if (at >= 0) {
        section.keys[at] = [k.name, value];
      } else {
        section.keys.push([k.name, value]);
      }
    }
  }
  if (sections.some((s) => s.header === 'DEFAULT')) {
    throw new OutsideModel('keys before the first section are outside the OpenStack configs modelled');
  }
  let global = sections.find((s) => s.header === 'Global');
  if (global !== undefined) {
    for (const [key, expected] of LEGACY) {
      const own = global.keys.find(([n]) => n === key)?.[1] ?? '';
      if (own !== expected) {
        return { refused: `'[Global] ${key}' is set to a non-default value` };
      }
    }
    global.keys = global.keys.filter(([n]) => !LEGACY.some(([k]) => k === n));
  } else {
    global = { header: 'Global', keys: [] };
    sections.push(global);
  }
  for (const [key, value] of [
    ['use-clouds', 'true'],
    ['clouds-file', '/etc/openstack/secret/clouds.yaml'],
    ['cloud', 'openstack'],
  ] as const) {
    const at = global.keys.findIndex(([n]) => n === key);
    if (at >= 0) {
      global.keys[at] = [key, value];
    } else {
      global.keys.push([key, value]);
    }
  }
  const kept = sections.filter((s) => s.header !== 'BlockStorage');
  let lb = kept.find((s) => s.header === 'LoadBalancer');
  if (lb === undefined) {
    lb = { header: 'LoadBalancer', keys: [] };
    kept.push(lb);
  }
  lb.keys = lb.keys.filter(([n]) => n !== 'use-octavia');
  for (const [key, value] of [
    ['max-shared-lb', '1'],
    ['manage-security-groups', 'true'],
  ] as const) {
    if (!lb.keys.some(([n]) => n === key)) {
      lb.keys.push([key, value]);
    }
  }
  return { text: writeGoIni(kept) };
}
