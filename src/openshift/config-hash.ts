/** Moved to the neutral layer `src/constructs/` (both distributions use it); re-exported for the OpenShift code. */
export { configHash, MountedConfig } from '../constructs/config-hash';
