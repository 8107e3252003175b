// Removes the run's own render cache (test/global-setup.js).
const fs = require('fs');

module.exports = () => {
  const dir = process.env.CCM_GITOPS_CACHE_DIR;
  if (dir && /ccm-gitops-test-cache-/.test(dir)) {
    fs.rmSync(dir, { recursive: true, force: true });
  }
};
