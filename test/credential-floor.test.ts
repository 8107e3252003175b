import { runCli } from '../src/cli';
import { passThroughCloudConfig } from '../src/cloud-config/pass-through';
import { ALIBABA_CLOUD_PLATFORM_FACTS } from '../src/openshift/alibabacloud/facts';
import { parsedSpec } from './helpers';
import { gen } from './secretlint/corpus';
import { captureIo, errorOf, fleetProblems, kubernetesSpec, platformSpec, useTempDir, writeFile } from './helpers';

/**
 * Every refusal of a credential says where that platform's credential belongs
 * instead: the floor of the distribution and platform, as its CCM reads it.
 */

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';
const AWS_SECRET = gen(40, `${ALNUM}+/`, 301);
const DO_TOKEN = 'dop_v1_' + gen(64, HEX, 302);
const ALIBABA_ID = 'LTAI' + gen(20, ALNUM, 303);
const b64 = (s: string) => Buffer.from(s).toString('base64');
const NEVER = ', and credentials never go into git';

/** Where each OpenShift platform's CCM reads its credentials (the operator's assets and CredentialsRequests). */
const OPENSHIFT_HOMES: [string, string][] = [
  ['AWS', 'the AWS cloud controller manager authenticates with the instance profile'],
  [
    'Azure',
    'the Azure cloud controller manager reads its credentials from Secret openshift-cloud-controller-manager/azure-cloud-credentials, which the cloud-credential-operator creates from CredentialsRequest openshift-azure-cloud-controller-manager',
  ],
  [
    'GCP',
    'the GCP cloud controller manager reads its credentials from Secret openshift-cloud-controller-manager/gcp-ccm-cloud-credentials, which the cloud-credential-operator creates from CredentialsRequest openshift-gcp-ccm',
  ],
  [
    'IBMCloud',
    'the IBM Cloud cloud controller manager reads its credentials from Secret openshift-cloud-controller-manager/ibm-cloud-credentials, which the cloud-credential-operator creates from CredentialsRequest openshift-ibm-cloud-controller-manager',
  ],
  [
    'PowerVS',
    'the Power VS cloud controller manager reads its credentials from Secret openshift-cloud-controller-manager/ibm-cloud-credentials, which the cloud-credential-operator creates from CredentialsRequest openshift-powervs-cloud-controller-manager',
  ],
  [
    'OpenStack',
    'the OpenStack cloud controller manager reads its credentials from Secret openshift-cloud-controller-manager/openstack-cloud-credentials, which the cloud-credential-operator creates from CredentialsRequest openshift-openstack-cloud-controller-manager',
  ],
  [
    'VSphere',
    'the vSphere cloud controller manager reads its credentials from Secret openshift-cloud-controller-manager/vsphere-cloud-credentials, which the cloud-credential-operator creates from CredentialsRequest openshift-vsphere-cloud-controller-manager',
  ],
  [
    'Nutanix',
    'the Nutanix cloud controller manager reads its credentials from Secret openshift-cloud-controller-manager/nutanix-credentials, which the cloud-credential-operator creates from CredentialsRequest openshift-nutanix-cloud-controller-manager',
  ],
  [
    'AlibabaCloud',
    'the Alibaba Cloud cloud controller manager authenticates with the control-plane instance RAM role (the operator mounts no credential Secret and sets no AccessKey env)',
  ],
];

/** Where each Kubernetes provider's CCM reads its credentials. */
const KUBERNETES_HOMES: [string, string][] = [
  [
    'AWS',
    'the AWS cloud controller manager authenticates with the instance profile, or with IRSA (a role ARN in spec.kubernetes.serviceAccount.annotations)',
  ],
  [
    'Azure',
    'the Azure cloud controller manager reads its credentials from key cloud-config of Secret azure-cloud-provider, or of the Secret named in spec.kubernetes.cloudConfig.existingSecret',
  ],
  ['GCP', 'the GCP cloud controller manager reads its credentials from an existing Secret named in spec.kubernetes.cloudConfig.existingSecret'],
  [
    'OpenStack',
    'the OpenStack cloud controller manager reads its credentials from key cloud.conf of Secret cloud-config, or of the Secret named in spec.kubernetes.cloudConfig.existingSecret',
  ],
  [
    'VSphere',
    'the vSphere cloud controller manager reads its credentials from an existing Secret named in spec.kubernetes.cloudConfig.existingSecret',
  ],
  [
    'Nutanix',
    'the Nutanix cloud controller manager reads its credentials from an existing Secret named in spec.kubernetes.cloudConfig.existingSecret',
  ],
  [
    'AlibabaCloud',
    'the Alibaba Cloud cloud controller manager authenticates with the instance RAM role, or with an AccessKey from env ACCESS_KEY_ID and ACCESS_KEY_SECRET ' +
      '(spec.kubernetes.extraEnv, valueFrom.secretKeyRef) or from the cloud config in the Secret named in spec.kubernetes.cloudConfig.existingSecret',
  ],
  [
    'DigitalOcean',
    'the DigitalOcean cloud controller manager reads its API token from key access-token of Secret digitalocean, or of the Secret named in spec.kubernetes.cloudConfig.existingSecret, as env DO_ACCESS_TOKEN',
  ],
  [
    'EquinixMetal',
    'the Equinix Metal cloud controller manager reads its credentials from key cloud-sa.json of Secret metal-cloud-config, or of the Secret named in spec.kubernetes.cloudConfig.existingSecret',
  ],
];

/** The platform's own credential shape where it has one: what a user of that platform copies. */
function credentialOf(platform: string): { value: string; reason: string } {
  if (platform === 'DigitalOcean') {
    return { value: DO_TOKEN, reason: 'a DigitalOcean token' };
  }
  if (platform === 'AlibabaCloud') {
    return { value: ALIBABA_ID, reason: 'an Alibaba Cloud AccessKey ID' };
  }
  return { value: b64(AWS_SECRET), reason: 'base64-encoded random-looking base64 token' };
}

/** The problems of one spec, without their `file:line: ` prefix. */
function problemsOf(dir: string, spec: Record<string, unknown>, files: Record<string, string> = {}): string[] {
  for (const [name, content] of Object.entries(files)) {
    writeFile(dir, name, content);
  }
  writeFile(dir, 'c.yaml', spec);
  return fleetProblems(dir).map((p) => p.replace(/^c\.yaml:\d+: /, ''));
}

describe('a credential in a spec names where the platform keeps it', () => {
  const dir = useTempDir();

  test.each(OPENSHIFT_HOMES)('GIVEN an OpenShift %s spec with a credential in a label WHEN loaded THEN the fix names the floor', (platform, home) => {
    const { value, reason } = credentialOf(platform);
    const spec = platformSpec(platform, 'c');
    spec.metadata.labels = { note: value };
    expect(problemsOf(dir(), spec)).toContain(
      `metadata.labels.note: holds ${reason}; remove it: everything in a spec is rendered into git; ${home}${NEVER}`,
    );
  });

  test.each(KUBERNETES_HOMES)(
    'GIVEN a Kubernetes %s spec with a credential in extraEnv WHEN loaded THEN the fix names the floor',
    (platform, home) => {
      const { value, reason } = credentialOf(platform);
      const spec = kubernetesSpec(platform, 'c', { extraEnv: [{ name: 'NOTE', value }] });
      expect(problemsOf(dir(), spec)).toContain(
        `spec.kubernetes.extraEnv.0.value: holds ${reason}; remove it: everything in a spec is rendered into git; ${home}${NEVER}`,
      );
    },
  );
});

describe('a credential in a cloud-conf file names where the platform keeps it', () => {
  const dir = useTempDir();

  test.each(OPENSHIFT_HOMES)(
    'GIVEN an OpenShift %s extra cloud-conf key with a secret WHEN loaded THEN the fix names the floor',
    (platform, home) => {
      const spec = platformSpec(platform, 'c', { cloudConfig: { file: 'c.conf', extraKeys: { extra: 's.json' } } });
      const problems = problemsOf(dir(), spec, {
        'c.conf': platform === 'AlibabaCloud' ? 'Global:\n  region: cn-hangzhou\n' : '[Global]\n',
        's.json': '{"clientSecret": "hunter2"}',
      });
      expect(problems).toContain(`s.json: cluster c: "clientSecret" holds a credential; remove it: ${home}${NEVER}`);
    },
  );

  test('GIVEN an OpenShift Alibaba cloud config with an AccessKey secret WHEN transformed THEN the fix names the instance RAM role, no CredentialsRequest', () => {
    const source = `Global:\n  region: cn-hangzhou\n  accessKeySecret: ${b64(gen(30, ALNUM, 304))}\n`;
    const message = errorOf(() => ALIBABA_CLOUD_PLATFORM_FACTS.transformCloudConfig(source, parsedSpec(platformSpec('AlibabaCloud', 'c')))).message;
    expect(message).toBe(
      `"Global.accessKeySecret" holds a credential; remove it: ${OPENSHIFT_HOMES.find(([p]) => p === 'AlibabaCloud')![1]}${NEVER}`,
    );
    expect(message).not.toContain('CredentialsRequest');
  });

  test.each([
    [
      'AlibabaCloud',
      `Global:\n  region: cn-hangzhou\n  accessKeyID: ${b64(ALIBABA_ID)}\n  accessKeySecret: ${b64(gen(30, ALNUM, 305))}\n`,
      'c.conf: cluster c: "Global.accessKeyID"',
    ],
    ['OpenStack', '[Global]\nregion = r1\npassword = hunter2\n', "c.conf:3: cluster c: 'password' (line 3)"],
  ])('GIVEN a Kubernetes %s inline cloud config with a credential WHEN loaded THEN the fix names the floor', (platform, source, where) => {
    const spec = kubernetesSpec(platform, 'c', {}, { cloudConfig: { file: 'c.conf' } });
    const home = KUBERNETES_HOMES.find(([p]) => p === platform)![1];
    expect(problemsOf(dir(), spec, { 'c.conf': source })).toContain(`${where} holds a credential; remove it: ${home}${NEVER}`);
  });

  test.each([
    ['AlibabaCloud', 'Global:\n  region: cn-hangzhou\n  accessKeySecret: c2VjcmV0\n', '"Global.accessKeySecret" holds a credential'],
    ['GCP', '[global]\nproject-id = p\ntoken = x\n', "'token' (line 3) holds a credential"],
    ['Nutanix', '{"prismCentral": {"password": "x"}}', '"prismCentral.password" holds a credential'],
  ])('GIVEN cloud-config transform --platform %s with a credential WHEN run THEN the fix names the OpenShift floor', (platform, source, what) => {
    const c = captureIo();
    const code = runCli(['cloud-config', 'transform', '--platform', platform], { ...c.io, in: () => source }, {});
    expect(c.stderr()).toContain(`${what}; remove it: ${OPENSHIFT_HOMES.find(([p]) => p === platform)![1]}${NEVER}`);
    expect(code).toBe(2);
  });

  test('GIVEN the pass-through default WHEN no floor is given THEN it names a Secret, as the operator platforms that have one', () => {
    expect(errorOf(() => passThroughCloudConfig('GCP', '[global]\ntoken = x\n')).message).toBe(
      "'token' (line 2) holds a credential; remove it: the GCP cloud controller manager reads its credentials from a Secret (created from the platform's CredentialsRequest), and credentials never go into git",
    );
  });
});
