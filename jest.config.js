/**
 * Two projects, one run: `unit` (in process: pure logic, constructs, oracles)
 * and `e2e` (child processes: npm packaging, the newcomer's walkthrough, the
 * compiled CLI). `npm test` runs both; `npm run test:unit` is the quick loop.
 * A suite that starts the compiled `lib/`, `bin/ccm-gitops` or npm belongs in
 * E2E (test/jest-projects.test.ts fails, naming it, when one is not).
 */
const os = require('os');

const E2E = [
  'atomicity',
  'determinism',
  'fleet-folder-parts',
  'incremental',
  'lost-worker',
  'main-thread-modules',
  'newcomer',
  'package',
  'shared-validator',
];

/** @type {import('jest').Config} */
const common = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  // Property tests run from a fixed seed (FC_SEED to change it).
  setupFiles: ['<rootDir>/test/fast-check-seed.ts'],
  // Tests never import the compiled lib/ output.
  modulePathIgnorePatterns: ['<rootDir>/lib/', '<rootDir>/dist/'],
};

const e2eMatch = E2E.map((name) => `<rootDir>/test/${name}.test.ts`);

/** @type {import('jest').Config} */
module.exports = {
  // Every core: jest's default (cores - 1) leaves a 2-core machine one worker, and the suites are independent.
  maxWorkers: Math.max(2, os.cpus().length - 1),
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/test/**/*.test.ts'],
      testPathIgnorePatterns: E2E.map((name) => `/test/${name}\\.test\\.ts$`),
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: e2eMatch,
      // lib/ compiled from the current source (when a source is newer), and a render cache of this run's own
      globalSetup: '<rootDir>/test/global-setup.js',
      globalTeardown: '<rootDir>/test/global-teardown.js',
    },
  ],
};
