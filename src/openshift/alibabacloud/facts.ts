import { passThroughCloudConfig } from '../../cloud-config/pass-through';
import { PlatformFacts } from '../platform';

/** Alibaba Cloud on OpenShift (tech preview): the operator's last shipped `pkg/cloud/alibaba`. The cloud config passes through unchanged. */
export const ALIBABA_CLOUD_PLATFORM_FACTS: PlatformFacts = {
  type: 'AlibabaCloud',
  requiredImages: ['cloudControllerManagerAlibaba'],
  techPreview: true,
  validate: () => [],
  transformCloudConfig: (source) => passThroughCloudConfig('Alibaba Cloud', source),
};
