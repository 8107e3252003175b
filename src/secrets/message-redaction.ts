import { redact, secretInValue } from './detector';

/** `user:password@` at the start of a value, with or without a scheme. */
const USERINFO_WITH_PASSWORD = /^(?:[a-z][a-z0-9+.-]*:\/\/)?[^\s@/:]+:[^\s@/]*@/i;

/**
 * A message with every credential it could echo taken out by the detector's
 * {@link redact} (URL credentials with or without a scheme, private keys,
 * known tokens), in one linear pass. The last step before a message is
 * printed, so a check that echoes a value cannot leak one.
 */
export function redactMessage(text: string): string {
  return redact(text);
}

/** Whether a value holds credentials: `user:password@` (with or without a scheme) or what the detector finds in a value. */
export function holdsCredentials(value: string): boolean {
  return USERINFO_WITH_PASSWORD.test(value) || secretInValue(value) !== undefined;
}
