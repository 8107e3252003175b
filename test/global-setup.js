// The e2e suites run bin/ccm-gitops (or lib/ in a child process): lib/ is
// compiled first when a source is newer than it, so they run the current
// source. Their render cache is a fresh folder of this run's own, never the
// user's ~/.cache: no run leans on what an earlier one left behind.
const fs = require('fs');
const os = require('os');
const path = require('path');

module.exports = () => {
  require('../scripts/synth.js').compileIfStale();
  process.env.CCM_GITOPS_CACHE_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'ccm-gitops-test-cache-'));
};
