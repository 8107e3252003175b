/**
 * What to do about a missing or bad field, by field path. Used to finish
 * validation messages with a fix the user can apply. `*` matches one list index.
 */
export const FIELD_HINTS: Readonly<Record<string, string>> = {
  apiVersion: 'set it to "ccm-gitops.io/v1alpha1"',
  kind: 'set it to "CloudControllerManagerCluster"',
  metadata: 'add metadata.name, the cluster name',
  spec: 'add the spec: distribution, platform, infrastructureName, images, ...',
  'metadata.name': 'set a DNS-1123 label (lower-case letters, digits and "-", at most 40 characters), unique across the fleet',
  'spec.distribution': 'set "openshift"',
  'spec.platform': 'set the Infrastructure status.platformStatus.type of the cluster',
  'spec.infrastructureName':
    "set the Infrastructure status.infrastructureName (oc get infrastructure cluster -o jsonpath='{.status.infrastructureName}')",
  'spec.controlPlaneTopology': 'set the Infrastructure status.controlPlaneTopology',
  'spec.managementMode': '"gitops" renders the operands directly; "operator" renders the in-cluster operator instead',
  'spec.images': 'pin each image under its images.json key, by digest (repo@sha256:...) or by an explicit tag',
  'spec.cloudConfig.file': 'give the path of the cloud config file, relative to the spec file and inside the clusters directory',
  'spec.proxy.httpProxy': 'set the Proxy status.httpProxy (an http:// or https:// URL without credentials)',
  'spec.proxy.httpsProxy': 'set the Proxy status.httpsProxy (an http:// or https:// URL without credentials)',
  'spec.proxy.noProxy': 'set the Proxy status.noProxy (a comma-separated list without spaces)',
  'spec.featureGates.enabled.*': 'list OpenShift feature gate names, e.g. AWSServiceLBNetworkSecurityGroup',
  'spec.featureGates.disabled.*': 'list OpenShift feature gate names, e.g. AWSServiceLBNetworkSecurityGroup',
  'spec.tls.minVersion': "use the APIServer TLS profile's minTLSVersion",
  'spec.tls.cipherSuites.*': 'use IANA cipher suite names as Go accepts them',
  'spec.gitops.engine': '"argocd" renders an Application, "flux" Kustomizations and a GitRepository, "plain" only the stages',
  'spec.gitops.repoURL': 'set the URL of the git repository that holds the rendered dist/ tree',
  'spec.gitops.revision': 'set the branch, tag or commit the GitOps engine should follow',
  'spec.gitops.path': "set the path of this cluster's rendered directory inside the repository, e.g. dist/<cluster>",
  'spec.aws.region': 'set the Infrastructure status.platformStatus.aws.region',
  'spec.aws.serviceEndpoints.*.name': 'set the AWS service name, e.g. ec2, elasticloadbalancing, s3',
  'spec.aws.serviceEndpoints.*.url': 'set an https:// URL',
};

/** The hint for a path such as `spec.aws.serviceEndpoints.0.url`, if any. */
export function hintFor(path: readonly (string | number)[]): string | undefined {
  const key = path.map((p) => (typeof p === 'number' ? '*' : p)).join('.');
  return FIELD_HINTS[key];
}
