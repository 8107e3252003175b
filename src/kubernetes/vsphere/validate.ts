/** vSphere's checks of a spec and of its cloud config (`UpstreamProvider.specProblems`, `cloudConfigProblems`). */
import { KubernetesProblem } from '../provider';
import { ClusterSpec } from '../../cluster-spec/schema';
import { vsphereSecretNamespaces } from './secret-namespaces';

/**
 * vSphere: an empty global secret namespace makes the CCM watch Secrets in
 * every namespace (kubernetes/cloud-provider-vsphere@v1.36.0 pkg/cloudprovider/vsphere/cloud.go
 * Initialize; pkg/common/kubernetes/informers.go: namespace "" is the cluster-wide factory),
 * which no least-privilege Role can allow.
 */
export function vsphereCloudConfigProblems(_spec: ClusterSpec, cloudConf: string): KubernetesProblem[] {
  const read = vsphereSecretNamespaces(cloudConf);
  if (!read || read.global !== '') {
    return [];
  }
  return [
    {
      path: [read.globalField],
      message:
        'is empty: the vSphere CCM then lists and watches Secrets in every namespace, which the rendered RBAC does not allow; ' +
        'set it to the namespace of the vCenter credentials Secret (the upstream manifest uses kube-system)',
    },
  ];
}

/**
 * vSphere: env that moves the credential Secrets (kubernetes/cloud-provider-vsphere@v1.36.0
 * pkg/common/config/config.go FromEnv: VSPHERE_SECRET_NAME/NAMESPACE, VCENTER_<n>_SECRET_*) would
 * take the CCM where the rendered RBAC, which follows vsphere.conf, does not reach.
 */
export function vsphereSecretEnvProblems(spec: ClusterSpec): KubernetesProblem[] {
  const k = spec.spec.kubernetes;
  if (!k) {
    return [];
  }
  return k.extraEnv.flatMap((e, i) =>
    /^(VSPHERE_SECRET_(NAME|NAMESPACE)|VCENTER_.+_SECRET_(NAME|NAMESPACE))$/.test(e.name)
      ? [
          {
            path: ['spec', 'kubernetes', 'extraEnv', i],
            message: `${e.name} overrides the Secret vsphere.conf names, which the rendered RBAC follows; set secretName/secretNamespace in vsphere.conf instead`,
          },
        ]
      : [],
  );
}
