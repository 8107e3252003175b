/**
 * The differences from the release branches (test/oracle/openshift-branches) that docs/deviations.md documents, each
 * with its row there: the comparisons of rendered clusters accept them.
 */
export const DEVIATIONS: readonly { readonly row: string; readonly matches: RegExp }[] = [
  { row: 'wait for the trust bundle on every workload', matches: / init: containers (?:(.+),)?wait-for-trust-bundle, the release has \1?$/ },
  {
    row: 'Azure `azure-inject-credentials` init container',
    matches:
      / init container azure-inject-credentials: runtime \{"resources":\{"requests":\{"cpu":"10m","memory":"10Mi"\}\},(.*)\}, the release has \{"resources":undefined,\1\}$/,
  },
  {
    row: 'OpenStack/vSphere empty `--feature-gates=`',
    matches: /(openstack|vsphere)-cloud-controller-manager .* flags missing --feature-gates=<filled-in>$/,
  },
  {
    row: 'vSphere `secret-vccm` volume',
    matches:
      /vsphere-cloud-controller-manager .*: volumes \[config-vccm \| host-etc-kube \| trusted-ca\], the release has \[config-vccm \| host-etc-kube \| secret-vccm \| trusted-ca\]$/,
  },
  {
    row: 'Azure Stack Hub EndpointSlice RBAC',
    matches:
      /^rbac.authorization.k8s.io\/ClusterRole(Binding)? \/(cloud-controller-manager:)?azure-cloud-controller-manager: rendered, but release-4.\d+ neither ships nor renders it on AzureStackHub$/,
  },
  { row: 'OpenStack tolerations', matches: /openstack-cloud-controller-manager \[[^\]]*\]: tolerations .*, the release has / },
  {
    row: 'Role `kube-system/azure-cloud-provider`',
    matches:
      /Role kube-system\/azure-cloud-provider .* names=aks-managed-resource-locker verbs=get,update urls=\], the release has \[.* names=aks-managed-resource-locker verbs=get,list,update urls=\]$/,
  },
];
