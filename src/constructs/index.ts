export * from './config-hash';
export * from './platform-role';
export * from './platform-role-binding';
