import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';

/** Properties for `ValidatingAdmissionPolicy`. */
export interface ValidatingAdmissionPolicyProps {
  /** Policy name. */
  readonly name: string;
  /** The policy spec (the v1 and v1beta1 shapes are the same). */
  readonly spec: k8s.ValidatingAdmissionPolicySpecV1Beta1;
  /**
   * Name of the binding; the binding denies requests that fail the policy.
   *
   * @default - the policy name
   */
  readonly bindingName?: string;
}

/**
 * An `admissionregistration.k8s.io/v1` ValidatingAdmissionPolicy and its
 * binding with `validationActions: [Deny]`. cdk8s-plus-28 knows Kubernetes
 * 1.28, where the API is beta; the objects are written as v1, which
 * Kubernetes 1.30+ (OpenShift 4.17+) serves. The operator's Azure assets
 * declare v1beta1 but are applied as v1; v1 is emitted everywhere.
 */
export class ValidatingAdmissionPolicy extends Construct {
  /** The policy object. */
  public readonly policy: ApiObject;
  /** The binding object. */
  public readonly binding: ApiObject;

  constructor(scope: Construct, id: string, props: ValidatingAdmissionPolicyProps) {
    super(scope, id);
    if ((props.spec.validations ?? []).length === 0) {
      throw new Error(`'spec.validations' of policy "${props.name}" must hold at least one validation, got none`);
    }
    this.policy = new ApiObject(this, 'Resource', {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: props.name },
      spec: k8s.toJson_ValidatingAdmissionPolicySpecV1Beta1(props.spec),
    });
    this.binding = new ApiObject(this, 'Binding', {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: props.bindingName ?? props.name },
      spec: { policyName: props.name, validationActions: ['Deny'] },
    });
  }
}

/**
 * The operator's CEL variables for a policy that checks a Service annotation
 * only when it is set or changed (…@bc52198c1c3c pkg/cloud/gcp/assets/validating-admission-policy.yaml
 * and pkg/cloud/azure/assets/validating-admission-service-annotation-policy.yaml):
 * `has<Name>`, `<name>Value`, `hasOld<Name>`, `old<Name>Value` and `valueHasChanged`.
 */
export function changedAnnotationVariables(annotation: string, name: string): k8s.VariableV1Beta1[] {
  const key = `'${annotation}'`;
  const lower = name.charAt(0).toLowerCase() + name.slice(1);
  return [
    { name: `has${name}`, expression: `has(object.metadata.annotations) && ${key} in object.metadata.annotations` },
    { name: `${lower}Value`, expression: `object.metadata.?annotations[${key}].orValue("")` },
    { name: `hasOld${name}`, expression: `oldObject != null && oldObject.metadata.?annotations != null && ${key} in oldObject.metadata.annotations` },
    { name: `old${name}Value`, expression: `oldObject.metadata.?annotations[${key}].orValue("")` },
    {
      name: 'valueHasChanged',
      expression: `variables.has${name} && (!variables.hasOld${name} || variables.old${name}Value != variables.${lower}Value)`,
    },
  ];
}
