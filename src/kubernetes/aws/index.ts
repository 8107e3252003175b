import { core, UpstreamProvider } from '../provider';
import { awsIrsaProblems } from './validate';

/** AWS (kubernetes/cloud-provider-aws): credentials from the instance profile or IRSA; the config is optional. */
export const AWS: UpstreamProvider = {
  platform: 'AWS',
  name: 'aws',
  imageKey: 'cloudControllerManagerAWS',
  cloudProvider: 'aws',
  framework: 'cloud-provider',
  defaultKind: 'DaemonSet',
  defaultPort: 10258,
  clusterNameFlag: false,
  extraFlags: [],
  config: {
    what: 'cloud config',
    mountDir: '/etc/kubernetes/cloud-config',
    fileName: 'cloud.conf',
    flag: '--cloud-config',
    inline: true,
    configMapAllowed: true,
  },
  priorityClassName: {
    name: 'system-node-critical',
    source: 'kubernetes/cloud-provider-aws@v1.35.0 charts/aws-cloud-controller-manager/templates/daemonset.yaml',
  },
  requests: { cpu: '200m', memory: '50Mi' },
  grants: [
    {
      identity: 'provider',
      rule: core(['events'], ['create', 'patch']),
      source: 'kubernetes/cloud-provider-aws@v1.35.0 pkg/providers/v1/aws.go (Initialize: eventBroadcaster.StartRecordingToSink)',
    },
    {
      identity: 'tagging-controller',
      rule: core(['nodes'], ['get', 'patch']),
      whenController: ['tagging', 'tagging-controller'],
      source:
        'kubernetes/cloud-provider-aws@v1.35.0 pkg/controllers/tagging/tagging_controller_wrapper.go (TaggingControllerClientName; disabled by default: cmd/aws-cloud-controller-manager/main.go)',
    },
  ],
  authenticationReader: true,
  entrypoint: {
    kind: 'binary',
    binary: '/bin/aws-cloud-controller-manager',
    source: 'kubernetes/cloud-provider-aws@v1.35.0 Dockerfile (ENTRYPOINT)',
  },
  leaderElection: {
    lock: 'leases',
    name: 'cloud-controller-manager',
    source: 'kubernetes/cloud-provider-aws@v1.35.0 go.mod k8s.io/cloud-provider v0.35.0 options/options.go',
  },
  servedPort: { port: 10258, source: 'kubernetes/cloud-provider@v0.35.0 options/options.go (CloudControllerManagerPort)' },
  providerClient: {
    name: 'aws-cloud-provider',
    source: 'kubernetes/cloud-provider-aws@v1.35.0 pkg/providers/v1/aws.go (Initialize: events, discovery)',
  },
  // no node IPAM: kubernetes/cloud-provider-aws@v1.35.0 cmd/aws-cloud-controller-manager/main.go registers app.DefaultInitFuncConstructors plus tagging
  tagsFollowKubernetes: true,
  tagMinors: { 'v1.35.0': { minor: '1.35', source: 'kubernetes/cloud-provider-aws@v1.35.0 go.mod (k8s.io/cloud-provider v0.35.0)' } },
  serviceAccountRole: true,
  specProblems: awsIrsaProblems,
};
