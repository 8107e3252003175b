import { Construct } from 'constructs';
import { CCM_SERVICE_ACCOUNT, OPERAND_NAMESPACE, RELEASE_ANNOTATIONS } from '../constants';
import { PlatformRole } from '../../constructs/platform-role';
import { operandRenders } from '../release-operands';

/** Properties for `AzureCloudProviderRbac`. */
export interface AzureCloudProviderRbacProps {
  /**
   * The cluster's OpenShift release: the `kube-system` Role and RoleBinding come with `OPERAND_PARTS_SINCE.azureCloudProviderRole`.
   *
   * @default - main's shape
   */
  readonly release?: string;
}

/**
 * The Azure platform RBAC (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/cloud/azure/), shared by Azure and Azure Stack
 * Hub: Role `kube-system/azure-cloud-provider` for the
 * `aks-managed-resource-locker` lease of the cloud provider's own identity
 * (`kube-system/azure-cloud-provider`), and ClusterRole
 * `azure-cloud-controller-manager` letting the CCM read EndpointSlices.
 *
 * Fixed: the lease rule drops `list`, which cannot be limited by resource
 * name; Azure Stack Hub gets the EndpointSlice rule too (the operator omits it
 * there, though the same CCM needs it: OCPBUGS-29012).
 */
export class AzureCloudProviderRbac extends Construct {
  constructor(scope: Construct, id: string, props: AzureCloudProviderRbacProps = {}) {
    super(scope, id);
    if (operandRenders(props.release, 'azureCloudProviderRole')) {
      this.leaseRole();
    }
    new PlatformRole(this, 'EndpointSlicesRole', {
      name: 'azure-cloud-controller-manager',
      rules: [{ apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['get', 'list', 'watch'] }],
      bindingName: 'cloud-controller-manager:azure-cloud-controller-manager',
      serviceAccounts: [`${OPERAND_NAMESPACE}/${CCM_SERVICE_ACCOUNT}`],
    });
  }

  private leaseRole(): void {
    new PlatformRole(this, 'LeaseRole', {
      name: 'azure-cloud-provider',
      namespace: 'kube-system',
      rules: [
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], resourceNames: ['aks-managed-resource-locker'], verbs: ['get', 'update'] },
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
      ],
      bindingName: 'azure-cloud-provider:azure-cloud-provider',
      serviceAccounts: ['kube-system/azure-cloud-provider'],
      // …@bc52198c1c3c pkg/cloud/azure{,stack}/assets/azure-cloud-provider-role.yaml carry the release annotations
      annotations: RELEASE_ANNOTATIONS,
    });
  }
}
