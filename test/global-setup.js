// Suites that run bin/ccm-gitops (or lib/ in a child process) run the
// current source: lib/ is compiled first when a source is newer than it.
module.exports = () => {
  require('../scripts/synth.js').compileIfStale();
};
