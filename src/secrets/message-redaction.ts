import { redact, secretInValue } from './detector';

/**
 * `user:password@` before a host with no scheme, which the URL forms of the
 * detector do not see: registry references (`admin:pw@registry/ccm:v1`) and
 * scp-like git remotes (`git:pw@host:org/fleet.git`). The user part holds no
 * `/` or `:`, the password no `/`, so `registry:5000/ccm@sha256:…` is not one.
 */
const SCHEMELESS_USERINFO = /(^|[\s"'`([=,])([^\s"'`@/:()[\],<>]+):([^\s"'`@/()[\],<>]*)@(?=[a-z0-9[])/gi;

/** The same, at the start of a value, with or without a scheme. */
const USERINFO_WITH_PASSWORD = /^(?:[a-z][a-z0-9+.-]*:\/\/)?[^\s@/:]+:[^\s@/]*@/i;

/**
 * A message with every credential it could echo taken out: the detector's
 * {@link redact} (URL credentials, private keys, known tokens), then
 * `user:password@` without a scheme. The last step before a message is
 * printed, so a check that echoes a value cannot leak one.
 */
export function redactMessage(text: string): string {
  return redact(text).replace(SCHEMELESS_USERINFO, (_all, lead: string) => `${lead}<redacted>@`);
}

/** Whether a value holds credentials: `user:password@` (with or without a scheme) or what the detector finds in a value. */
export function holdsCredentials(value: string): boolean {
  return USERINFO_WITH_PASSWORD.test(value) || secretInValue(value) !== undefined;
}
