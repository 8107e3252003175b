import { LineCounter, parse as parseYaml, parseDocument, visit } from 'yaml';
import { TransformResult } from './errors';
import { findSecretLikeField, findSecretLikeIniKey } from './secrets';
import { MAX_CONFIG_ALIASES, parseJsonWithLimits, refuseDeepNesting, refuseHostileData, refuseYamlStackExhaustion } from './limits';
import { withoutGcfgComments } from './gcfg';
import { secretInYamlComments, taggedCredential } from '../secrets/yaml-findings';
import { UserError, isUserError } from '../util/user-error';

/**
 * The operator passes these platforms' configs through unchanged (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/cloud/cloud.go,
 * GetCloudConfigTransformer): GCP, IBM Cloud, Power VS, Nutanix and Alibaba Cloud. The only check
 * added is that no credential is committed: JSON or YAML configs are checked
 * by field, INI configs by key. Comments are dropped (a comment is not
 * configuration, and a commented-out credential must not reach git).
 */
export function passThroughCloudConfig(
  platform: string,
  source: string,
  home = `the ${platform} cloud controller manager reads its credentials from a Secret (created from the platform's CredentialsRequest)`,
): TransformResult {
  const trimmed = source.trimStart();
  let structured: unknown;
  if (trimmed.startsWith('{')) {
    try {
      structured = parseJsonWithLimits(source);
    } catch (e) {
      if (isUserError(e, 'cloud-config')) {
        throw e;
      }
      structured = undefined;
    }
  } else if (looksLikeYaml(trimmed)) {
    refuseDeepNesting(source, false);
    try {
      structured = parseYaml(source, { maxAliasCount: MAX_CONFIG_ALIASES });
    } catch (e) {
      refuseYamlStackExhaustion([e as Error]);
      if (/alias/i.test((e as Error).message)) {
        throw new UserError(
          'cloud-config',
          `failed to read the cloud.conf: its YAML aliases expand to more than ${MAX_CONFIG_ALIASES} nodes; write the values out`,
        );
      }
      structured = undefined;
    }
  }
  refuseHostileData(structured);
  const floor = `${home}, and credentials never go into git`;
  if (structured !== undefined && !trimmed.startsWith('{')) {
    refuseHiddenYamlCredential(source, floor);
  }
  const field = structured !== undefined ? findSecretLikeField(structured) : undefined;
  if (field) {
    throw new UserError('cloud-config', `"${field}" holds a credential; remove it: ${floor}`);
  }
  const key = structured === undefined ? findSecretLikeIniKey(source) : undefined;
  if (key) {
    throw new UserError('cloud-config', `'${key.key}' (line ${key.line}) holds a credential; remove it: ${floor}`, key.line);
  }
  return { config: withoutComments(source), warnings: [] };
}

/** Refuses a credential in a YAML config's comments or behind a tag (`password: !!binary …`), which its parsed data does not show. */
function refuseHiddenYamlCredential(source: string, floor: string): void {
  const comment = secretInYamlComments(source);
  if (comment) {
    throw new UserError(
      'cloud-config',
      `a comment (line ${comment.line}) looks like a credential (${comment.reason}); remove it: ${floor}`,
      comment.line,
    );
  }
  const lines = new LineCounter();
  const tagged = taggedCredential(parseDocument(source, { lineCounter: lines, logLevel: 'silent' }), lines);
  if (tagged) {
    throw new UserError(
      'cloud-config',
      `"${tagged.key}" (line ${tagged.line}) has ${tagged.tag === 'a custom tag' ? tagged.tag : `the tag ${tagged.tag}`}, which hides its value from the ` +
        `credential checks; remove the value: ${floor}`,
      tagged.line,
    );
  }
}

/**
 * A cloud config without its comments, in its own format: JSON as it is, a
 * YAML mapping without its comments, INI without whole-line and inline
 * comments as gcfg reads them (which never cuts a value go-ini reads
 * differently: go-ini cuts at any `#`/`;`, gcfg only outside quotes).
 */
export function withoutComments(source: string): string {
  const trimmed = source.trimStart();
  if (trimmed.startsWith('{')) {
    return source;
  }
  return looksLikeYaml(trimmed) ? withoutYamlComments(source) : withoutGcfgComments(source);
}

/**
 * Whether a config's first line that is not blank, a comment or a YAML
 * document marker is a YAML mapping key (`name:`), as opposed to an INI line.
 */
function looksLikeYaml(trimmed: string): boolean {
  const first = trimmed.split(/\r\n|\n|\r/).find((line) => !/^\s*(?:[#;].*|---\s*|%YAML.*)?$/.test(line));
  return /^[A-Za-z0-9_"'-]+\s*:/.test(first ?? '');
}

/** A YAML config without its comments; the text is written again only when it has some, so a config without comments is kept byte for byte. */
function withoutYamlComments(source: string): string {
  const doc = parseDocument(source);
  if (doc.errors.length > 0) {
    return source; // not YAML after all: the CCM's own reader reports it
  }
  let found = doc.comment != null || doc.commentBefore != null;
  visit(doc, (_key, node) => {
    const n = node as { comment?: string | null; commentBefore?: string | null };
    if (n.comment != null || n.commentBefore != null) {
      found = true;
      n.comment = null;
      n.commentBefore = null;
    }
  });
  if (!found) {
    return source;
  }
  doc.comment = null;
  doc.commentBefore = null;
  return doc.toString();
}

/**
 * Refuses a file that goes into `cloud-conf` unchanged when it holds a
 * private key or a credential (the pass-through checks); `home` says where the
 * platform's credentials belong instead. Throws a UserError of kind 'cloud-config'.
 */
export function refuseCredentials(platform: string, text: string, home?: string): void {
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text)) {
    throw new UserError('cloud-config', 'holds a private key; remove it: cloud-conf is committed to git and never carries credentials');
  }
  passThroughCloudConfig(platform, text, home);
}
