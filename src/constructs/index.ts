export * from './config-hash';
export * from './platform-role';
export * from './platform-role-binding';
export * from './ccm-pod-disruption-budget';
export * from './ccm-workload';
