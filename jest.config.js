/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  // Property tests run from a fixed seed (FC_SEED to change it).
  setupFiles: ['<rootDir>/test/fast-check-seed.ts'],
  // Suites that run bin/ccm-gitops in a child process get lib/ compiled from the current source.
  globalSetup: '<rootDir>/test/global-setup.js',
  // Tests never import the compiled lib/ output.
  modulePathIgnorePatterns: ['<rootDir>/lib/', '<rootDir>/dist/'],
};
