import { passThroughCloudConfig } from '../../cloud-config/pass-through';
import { openshiftCredentialHome } from '../credential-home';
import { PlatformFacts } from '../platform';
import { ALIBABA_RELEASE_MINOR } from '../release';

/**
 * Alibaba Cloud has no minor update: its operator sets Upgradeable=False on its ClusterOperator
 * (openshift/cluster-cloud-controller-manager-operator@d721cd62 (release-4.16) pkg/controllers/clusteroperator_controller.go),
 * and release-4.17 has no Alibaba Cloud.
 */
const ALIBABA_MINOR_UPDATE =
  '- **Minor update** (4.Y to 4.Y+1): not possible on Alibaba Cloud, the way back or not: the cloud-controller-manager operator of 4.16 sets ' +
  '`Upgradeable=False` (reason `PlatformTechPreview`) on its ClusterOperator, and 4.17 has no Alibaba Cloud. Only z-stream updates remain.';

/** Alibaba Cloud on OpenShift (tech preview): the operator's last shipped `pkg/cloud/alibaba`. The cloud config passes through unchanged. */
export const ALIBABA_CLOUD_PLATFORM_FACTS: PlatformFacts = {
  type: 'AlibabaCloud',
  requiredImages: ['cloudControllerManagerAlibaba'],
  techPreview: true,
  onlyRelease: { minor: ALIBABA_RELEASE_MINOR, name: 'Alibaba Cloud', removedIn: '4.17', minorUpdate: ALIBABA_MINOR_UPDATE },
  // The binary tries the addon token file, an AccessKey in the cloud config, env ACCESS_KEY_ID/ACCESS_KEY_SECRET, then the
  // instance RAM role (kubernetes/cloud-provider-alibaba-cloud@v2.12.4 pkg/provider/alibaba/base/clientMgr.go GetTokenAuth); the
  // operator's Deployment mounts no Secret and sets no env of these (openshift/cluster-cloud-controller-manager-operator@d721cd62b5ed
  // pkg/cloud/alibaba/assets/alibaba-cloud-controller-manager-deployment.yaml, release-4.16), and there is no CredentialsRequest.
  credentialHome:
    'the Alibaba Cloud cloud controller manager authenticates with the control-plane instance RAM role (the operator mounts no credential Secret and sets no AccessKey env)',
  validate: () => [],
  transformCloudConfig: (source) => passThroughCloudConfig('Alibaba Cloud', source, openshiftCredentialHome(ALIBABA_CLOUD_PLATFORM_FACTS)),
};
