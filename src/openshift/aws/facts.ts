import { transformAwsCloudConfig } from '../../cloud-config/aws';
import { ClusterSpec } from '../../cluster-spec/schema';
import type { ImportedPlatformSections, LivePlatformObjects } from '../../cluster/distribution';
import { arr, rec, str } from '../../util/exported-fields';
import { enabledFeatureGatesOf, PlatformFacts, PlatformSpecProblem } from '../platform';
import { operandRenders } from '../release-operands';

/** AWS on OpenShift: the operator's `pkg/cloud/aws`. The CCM authenticates with the instance profile (no CredentialsRequest). */
export const AWS_PLATFORM_FACTS: PlatformFacts = {
  type: 'AWS',
  requiredImages: ['cloudControllerManagerAWS'],
  credentialHome: 'the AWS cloud controller manager authenticates with the instance profile',
  importLiveSections: importAwsLiveSections,

  validate(spec: ClusterSpec): PlatformSpecProblem[] {
    const problems: PlatformSpecProblem[] = [];
    const aws = spec.spec.aws;
    const endpoints = aws?.serviceEndpoints ?? [];
    if (endpoints.length > 0 && !aws?.region) {
      problems.push({
        path: ['spec', 'aws', 'region'],
        message:
          'is required when spec.aws.serviceEndpoints is set (the operator fails with "status.platformStatus.aws.region: Required value"); ' +
          'set the Infrastructure status.platformStatus.aws.region',
      });
    }
    const seen = new Map<string, number>();
    endpoints.forEach((endpoint, index) => {
      const first = seen.get(endpoint.name);
      if (first !== undefined) {
        problems.push({
          path: ['spec', 'aws', 'serviceEndpoints', index, 'name'],
          message: `"${endpoint.name}" is listed twice (also at index ${first}); keep one endpoint per service`,
        });
      } else {
        seen.set(endpoint.name, index);
      }
    });
    return problems;
  },

  transformCloudConfig(source: string, spec: ClusterSpec) {
    return transformAwsCloudConfig(source, {
      region: spec.spec.aws?.region,
      serviceEndpoints: spec.spec.aws?.serviceEndpoints,
      enabledFeatureGates: enabledFeatureGatesOf(spec),
      joinLists: !operandRenders(spec.spec.openshift?.release, 'awsNodeIpFamiliesPerKey'),
      managedConfigOnly: !operandRenders(spec.spec.openshift?.release, 'awsConfigTransformer'),
      unknownFields: [
        ...(operandRenders(spec.spec.openshift?.release, 'awsTopologyInstanceTypePattern') ? [] : ['SupportedTopologyInstanceTypePattern']),
        ...(operandRenders(spec.spec.openshift?.release, 'awsNlbSecurityGroupModeField') ? [] : ['NLBSecurityGroupMode']),
      ],
    });
  },
};

/** The region and service endpoints of the Infrastructure's AWS platform status. */
function importAwsLiveSections({ infrastructure }: LivePlatformObjects): ImportedPlatformSections {
  const aws = rec(rec(rec(infrastructure.status).platformStatus).aws);
  const endpoints = arr(aws.serviceEndpoints).map(rec);
  const section = {
    ...(str(aws.region) ? { region: aws.region } : {}),
    ...(endpoints.length ? { serviceEndpoints: endpoints.map((e) => ({ name: e.name, url: e.url })) } : {}),
  };
  return { sections: Object.keys(section).length > 0 ? { aws: section } : {}, warnings: [] };
}
