// npm ci / npm install from git in a clone run `prepare`: it must build lib/,
// or bin/ccm-gitops and the package's main are missing after the install.
jest.mock('../scripts/synth.js', () => ({ compileIfStale: jest.fn() }));

test('GIVEN a clone (tsconfig.build.json and scripts/synth.js present) WHEN prepare runs THEN it builds lib/ when stale', () => {
  // WHEN
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the script runs when loaded, after the mocks above
  require('../scripts/prepare.js');
  // THEN
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the mocked module, as the script sees it
  expect((require('../scripts/synth.js') as { compileIfStale: jest.Mock }).compileIfStale).toHaveBeenCalledTimes(1);
});
