// A cdk8s app of your own that already renders a chart, and adds the cloud
// controller manager of a cluster to it with ccm-gitops' constructs.
//   npm install ccm-gitops cdk8s constructs && npx tsc && npx cdk8s synth
import { ApiObject, App, Chart, ChartProps } from 'cdk8s';
import { Construct } from 'constructs';
import { ClusterChart, loadCluster } from 'ccm-gitops';

/** The chart the app had before: here, one Namespace of the platform team's tools. */
class PlatformToolsChart extends Chart {
  constructor(scope: Construct, id: string, props: ChartProps = {}) {
    super(scope, id, props);
    new ApiObject(this, 'Namespace', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'platform-tools' },
    });
  }
}

const app = new App();
const tools = new PlatformToolsChart(app, 'platform-tools');

// The cluster spec is the same YAML the ccm-gitops CLI reads: validated, its
// folder defaults merged and its cloud config transformed as `ccm-gitops synth` does.
const cluster = loadCluster('clusters/aws-prod-1.yaml', { clusters: 'clusters' });

// Every object the cluster needs (namespaces, RBAC, cloud-conf, the CCM
// Deployment, PDB, …), each annotated with its Argo CD sync wave, as a chart
// inside the existing one.
new ClusterChart(tools, 'ccm', { cluster });

app.synth();
