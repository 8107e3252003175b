// Where a Kubernetes provider's CCM reads its credentials, for the fix of every refusal of a credential.
import { upstreamProviderFor } from './providers';
import { platformName } from '../cluster-spec/platform-names';
import { PlatformType } from '../cluster-spec/schema';

const EXISTING_SECRET = 'spec.kubernetes.cloudConfig.existingSecret';

/** Platforms whose CCM authenticates without a Secret of ours first: their own statement. */
const HOMES: Partial<Record<PlatformType, string>> = {
  // the AWS SDK's default chain: the pod's web identity (IRSA) or the node's instance profile
  AWS: 'the AWS cloud controller manager authenticates with the instance profile, or with IRSA (a role ARN in spec.kubernetes.serviceAccount.annotations)',
  // the addon token file, an AccessKey in the cloud config, env ACCESS_KEY_ID/ACCESS_KEY_SECRET, then the instance RAM role
  // (kubernetes/cloud-provider-alibaba-cloud@v2.12.4 pkg/provider/alibaba/base/clientMgr.go GetTokenAuth, token.go LoadAK)
  AlibabaCloud:
    'the Alibaba Cloud cloud controller manager authenticates with the instance RAM role, or with an AccessKey from env ACCESS_KEY_ID and ACCESS_KEY_SECRET ' +
    `(spec.kubernetes.extraEnv, valueFrom.secretKeyRef) or from the cloud config in the Secret named in ${EXISTING_SECRET}`,
};

/**
 * Where the provider's CCM reads its credentials on Kubernetes: its own
 * statement, else the Secret it reads by default (as env when it takes its
 * token so), else the Secret the spec names.
 */
export function kubernetesCredentialHome(platform: PlatformType): string | undefined {
  const provider = upstreamProviderFor(platform);
  if (!provider) {
    return undefined;
  }
  const own = HOMES[platform];
  if (own) {
    return own;
  }
  const ccm = `the ${platformName(platform)} cloud controller manager`;
  const what = provider.config.what === 'API token' ? 'its API token' : 'its credentials';
  const source = provider.config.defaultSource;
  if (source?.kind !== 'Secret') {
    return `${ccm} reads ${what} from an existing Secret named in ${EXISTING_SECRET}`;
  }
  const env = provider.config.envVar ? `, as env ${provider.config.envVar}` : '';
  return `${ccm} reads ${what} from key ${source.key} of Secret ${source.name}, or of the Secret named in ${EXISTING_SECRET}${env}`;
}
