/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  // Property tests run from a fixed seed (FC_SEED to change it).
  setupFiles: ['<rootDir>/test/fast-check-seed.ts'],
  // Tests never read the compiled lib/ output.
  modulePathIgnorePatterns: ['<rootDir>/lib/', '<rootDir>/dist/'],
};
