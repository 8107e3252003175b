import { k8s } from 'cdk8s-plus-28';
import { CLOUD_CONF_CONFIG_MAP } from '../constants';
import { requests } from '../pod-conventions';
import { operandRenders } from '../release-operands';
import { AZURE_CREDENTIALS_SECRET } from './facts';

/**
 * The pieces the Azure operands share (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/cloud/azure/, pkg/cloud/azurestack/, cmd/azure-config-credentials-injector/main.go): the
 * credentials Secret the cloud-credential-operator writes, the
 * `azure-config-credentials-injector` init container (from the operator image)
 * that merges it into the cloud config, and the volumes both mount.
 */

/** Where the injector reads the credentials. */
export const AZURE_CREDENTIALS_PATH = '/etc/azure/credentials';

/** Volume `cloud-sa-volume`: the credentials Secret. */
export function azureCredentialsVolume(): k8s.Volume {
  return { name: 'cloud-sa-volume', secret: { secretName: AZURE_CREDENTIALS_SECRET } };
}

/** Read-only mount of `cloud-sa-volume`. */
export function azureCredentialsMount(): k8s.VolumeMount {
  return { name: 'cloud-sa-volume', mountPath: AZURE_CREDENTIALS_PATH, readOnly: true };
}

/**
 * Whether the injector of `release` reads the Secret mounted at {@link AZURE_CREDENTIALS_PATH}
 * (`OPERAND_PARTS_SINCE.azureCredentialsPath`); before it, the Secret's keys come as env.
 */
export function azureCredentialsMounted(release: string | undefined): boolean {
  return operandRenders(release, 'azureCredentialsPath');
}

/** Env `name` from key `key` of the credentials Secret. */
export function azureCredentialEnv(name: string, key: string, optional: boolean): k8s.EnvVar {
  return { name, valueFrom: { secretKeyRef: { name: AZURE_CREDENTIALS_SECRET, key, ...(optional ? { optional: true } : {}) } } };
}

/**
 * The credentials the injector of release-4.18 and earlier takes as env: client id (required), then secret, tenant and
 * federated token file (optional) on the public clouds (…@8abb0673 (release-4.18) pkg/cloud/azure/assets/*.yaml);
 * client id and secret, both required, on Azure Stack Hub (pkg/cloud/azurestack/assets/*.yaml).
 */
function injectorCredentialEnv(stackHub: boolean): k8s.EnvVar[] {
  return stackHub
    ? [azureCredentialEnv('AZURE_CLIENT_ID', 'azure_client_id', false), azureCredentialEnv('AZURE_CLIENT_SECRET', 'azure_client_secret', false)]
    : [
        azureCredentialEnv('AZURE_CLIENT_ID', 'azure_client_id', false),
        azureCredentialEnv('AZURE_CLIENT_SECRET', 'azure_client_secret', true),
        azureCredentialEnv('AZURE_TENANT_ID', 'azure_tenant_id', true),
        azureCredentialEnv('AZURE_FEDERATED_TOKEN_FILE', 'azure_federated_token_file', true),
      ];
}

/** Volume `bound-sa-token`: a projected token with audience `openshift`, for workload identity. */
export function boundServiceAccountTokenVolume(): k8s.Volume {
  return { name: 'bound-sa-token', projected: { sources: [{ serviceAccountToken: { path: 'token', audience: 'openshift' } }] } };
}

/** Read-only mount of `bound-sa-token` where the Azure SDK's federated token file points. */
export function boundServiceAccountTokenMount(): k8s.VolumeMount {
  return { name: 'bound-sa-token', mountPath: '/var/run/secrets/openshift/serviceaccount', readOnly: true };
}

/** An empty directory volume (the operator writes `emptydir:`, which the API server defaults to `emptyDir: {}`). */
export function emptyDirVolume(name: string): k8s.Volume {
  return { name, emptyDir: {} };
}

/** Volume `config-accm`: `cloud-conf` key `cloud.conf`, plus `endpoints` as `endpoints.conf` on Azure Stack Hub. */
export function azureCloudConfVolume(withEndpoints: boolean): k8s.Volume {
  const items = [{ key: 'cloud.conf', path: 'cloud.conf' }];
  if (withEndpoints) {
    items.push({ key: 'endpoints', path: 'endpoints.conf' });
  }
  return { name: 'config-accm', configMap: { name: CLOUD_CONF_CONFIG_MAP, items } };
}

/**
 * The public-cloud injector: copies the host's `apiserver-url.env` (when the
 * source directory holds one) next to the merged config, then merges the
 * credentials into `cloud.conf` with managed identity disabled and workload
 * identity allowed.
 *
 * @param image the operator image, which carries the injector
 * @param sourceVolume the volume holding the source `cloud.conf`: `config-accm` (CCM) or `host-etc-kube` (CNM)
 */
export function azureInjectCredentials(image: string, sourceVolume: 'config-accm' | 'host-etc-kube', release?: string): k8s.Container {
  const mounted = azureCredentialsMounted(release);
  return {
    name: 'azure-inject-credentials',
    image,
    command: [
      '/bin/bash',
      '-c',
      [
        '#!/bin/bash',
        'if [[ -f /etc/cloud-config/apiserver-url.env ]]; then',
        '  cp /etc/cloud-config/apiserver-url.env /etc/merged-cloud-config/',
        'fi',
        'exec /azure-config-credentials-injector \\',
        '  --cloud-config-file-path=/etc/cloud-config/cloud.conf \\',
        '  --output-file-path=/etc/merged-cloud-config/cloud.conf \\',
        '  --disable-identity-extension-auth \\',
        ...(mounted
          ? ['  --enable-azure-workload-identity=true \\', `  --creds-path=${AZURE_CREDENTIALS_PATH}`]
          : ['  --enable-azure-workload-identity=true']),
        '',
      ].join('\n'),
    ],
    ...(mounted ? {} : { env: injectorCredentialEnv(false) }),
    // the operator sets none; every container requests something so the scheduler and quotas count it
    resources: requests('10m', '10Mi'),
    terminationMessagePolicy: 'FallbackToLogsOnError',
    volumeMounts: [
      { name: sourceVolume, mountPath: '/etc/cloud-config', readOnly: true },
      { name: 'merged-cloud-config', mountPath: '/etc/merged-cloud-config' },
      ...(mounted ? [azureCredentialsMount()] : []),
    ],
  };
}

/** The Azure Stack Hub injector: the injector binary with arguments, reading `cloud-conf` and writing the `cloud-config` emptyDir. */
export function azureStackHubInjectCredentials(image: string, release?: string): k8s.Container {
  const mounted = azureCredentialsMounted(release);
  return {
    name: 'azure-inject-credentials',
    image,
    command: ['/azure-config-credentials-injector'],
    args: [
      '--cloud-config-file-path=/tmp/cloud-config/cloud.conf',
      '--output-file-path=/tmp/merged-cloud-config/cloud.conf',
      ...(mounted ? [`--creds-path=${AZURE_CREDENTIALS_PATH}`] : []),
    ],
    ...(mounted ? {} : { env: injectorCredentialEnv(true) }),
    resources: requests('10m', '10Mi'),
    terminationMessagePolicy: 'FallbackToLogsOnError',
    volumeMounts: [
      { name: 'config-accm', mountPath: '/tmp/cloud-config', readOnly: true },
      { name: 'cloud-config', mountPath: '/tmp/merged-cloud-config' },
      ...(mounted ? [azureCredentialsMount()] : []),
    ],
  };
}
