import { passThroughCloudConfig } from '../../cloud-config/pass-through';
import { openshiftCredentialHome } from '../credential-home';
import { PlatformFacts } from '../platform';
import { ALIBABA_RELEASE_MINOR } from '../release';

/** Alibaba Cloud on OpenShift (tech preview): the operator's last shipped `pkg/cloud/alibaba`. The cloud config passes through unchanged. */
export const ALIBABA_CLOUD_PLATFORM_FACTS: PlatformFacts = {
  type: 'AlibabaCloud',
  requiredImages: ['cloudControllerManagerAlibaba'],
  techPreview: true,
  onlyRelease: ALIBABA_RELEASE_MINOR,
  // The binary tries the addon token file, an AccessKey in the cloud config, env ACCESS_KEY_ID/ACCESS_KEY_SECRET, then the
  // instance RAM role (kubernetes/cloud-provider-alibaba-cloud@v2.12.4 pkg/provider/alibaba/base/clientMgr.go GetTokenAuth); the
  // operator's Deployment mounts no Secret and sets no env of these (openshift/cluster-cloud-controller-manager-operator@d721cd62b5ed
  // pkg/cloud/alibaba/assets/alibaba-cloud-controller-manager-deployment.yaml, release-4.16), and there is no CredentialsRequest.
  credentialHome:
    'the Alibaba Cloud cloud controller manager authenticates with the control-plane instance RAM role (the operator mounts no credential Secret and sets no AccessKey env)',
  validate: () => [],
  transformCloudConfig: (source) => passThroughCloudConfig('Alibaba Cloud', source, openshiftCredentialHome(ALIBABA_CLOUD_PLATFORM_FACTS)),
};
