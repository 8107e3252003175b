// The cdk8s app: `npx cdk8s synth` and `npm run synth` run this compiled file.
// It renders the example fleet (or --clusters DIR) into $CDK8S_OUTDIR or dist/.
import { runCliAsync } from './cli';

void runCliAsync(['synth', ...process.argv.slice(2)]).then((code) => {
  process.exitCode = code;
});
