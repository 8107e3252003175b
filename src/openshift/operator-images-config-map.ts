import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { OPERATOR_NAMESPACE, RELEASE_ANNOTATIONS } from './constants';

/** Properties for `OperatorImagesConfigMap`. */
export interface OperatorImagesConfigMapProps {
  /** Images by images.json key; only the keys given are written. */
  readonly images: Readonly<Record<string, string | undefined>>;
}

/**
 * ConfigMap `cloud-controller-manager-images` (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c manifests/0000_26_cloud-controller-manager-operator_01_images.configmap.yaml): the
 * `images.json` the operator reads its operand images from. Rendered in
 * `operator` mode only; keys are sorted so the JSON is stable.
 */
export class OperatorImagesConfigMap extends Construct {
  /** The ConfigMap object. */
  public readonly apiObject: ApiObject;
  /** The rendered data, for config hashing. */
  public readonly data: Readonly<Record<string, string>>;

  constructor(scope: Construct, id: string, props: OperatorImagesConfigMapProps) {
    super(scope, id);
    const images: Record<string, string> = {};
    for (const key of Object.keys(props.images).sort()) {
      const value = props.images[key];
      if (value) {
        images[key] = value;
      }
    }
    this.data = { 'images.json': `${JSON.stringify(images, null, 2)}\n` };
    this.apiObject = new k8s.KubeConfigMap(this, 'Resource', {
      metadata: { name: 'cloud-controller-manager-images', namespace: OPERATOR_NAMESPACE, annotations: { ...RELEASE_ANNOTATIONS } },
      data: { ...this.data },
    });
  }
}
