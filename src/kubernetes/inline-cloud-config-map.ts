import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';

/** Properties for `InlineCloudConfigMap`. */
export interface InlineCloudConfigMapProps {
  /** ConfigMap name. */
  readonly name: string;
  /** Namespace of the CCM. */
  readonly namespace: string;
  /** The key the CCM reads. */
  readonly key: string;
  /** The cloud config, already checked for credentials. */
  readonly content: string;
}

/** A non-secret cloud config given inline (spec.cloudConfig.file), as a ConfigMap the CCM mounts. */
export class InlineCloudConfigMap extends Construct {
  /** The ConfigMap. */
  public readonly apiObject: ApiObject;

  constructor(scope: Construct, id: string, props: InlineCloudConfigMapProps) {
    super(scope, id);
    if (props.content.trim() === '') {
      throw new Error(`'content' of ConfigMap ${props.name} must hold the cloud config, got an empty file`);
    }
    this.apiObject = new k8s.KubeConfigMap(this, 'Resource', {
      metadata: { name: props.name, namespace: props.namespace },
      data: { [props.key]: props.content },
    });
  }
}
