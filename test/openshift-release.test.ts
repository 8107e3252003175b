import { App } from 'cdk8s';
import { ClusterChart } from '../src/pipeline/cluster-chart';
import { effectiveEnabledGates, kubernetesMinorOfRelease, releaseDefaultGates } from '../src/openshift/release';
import { platformFor } from '../src/openshift/platforms';
import { checkSpec } from '../src/fleet/load';
import { RELEASE_REQUIRED_MESSAGE } from '../src/openshift/release-problems';
import { fleetProblems, OPERATOR_IMAGE, parsedSpec, platformSpec, preparedCluster, useTempDir, writeFile } from './helpers';

const tmp = useTempDir();

type Obj = Record<string, any>;

function render(raw: Record<string, any>, cloudConf = '[Global]\n'): Obj[] {
  return new ClusterChart(new App(), 'c', { cluster: preparedCluster(raw, cloudConf) }).toJson();
}

function find(objects: Obj[], kind: string, name: string, namespace?: string): Obj | undefined {
  return objects.find((o) => o.kind === kind && o.metadata.name === name && o.metadata.namespace === namespace);
}

function operatorSpec(release?: string): Record<string, any> {
  return platformSpec('AWS', 'op', { managementMode: 'operator', openshift: { release } });
}

describe('item 1: operator mode RoleBinding keeps the roleRef CVO created', () => {
  test('GIVEN operator mode WHEN rendered THEN RoleBinding openshift-cloud-controller-manager/cluster-cloud-controller-manager points at ClusterRole admin (roleRef is immutable)', () => {
    const binding = find(render(operatorSpec('4.23.1')), 'RoleBinding', 'cluster-cloud-controller-manager', 'openshift-cloud-controller-manager');
    // openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c manifests/0000_26_cloud-controller-manager-operator_02_rbac_operator.yaml
    expect(binding?.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'admin' });
  });

  test("GIVEN operator mode WHEN rendered THEN every RoleBinding/ClusterRoleBinding named like one of CVO's has CVO's roleRef", () => {
    const objects = render(operatorSpec('4.23.1'));
    const cvo: Record<string, string> = {
      'ClusterRoleBinding//system:openshift:operator:cloud-controller-manager': 'ClusterRole/system:openshift:operator:cloud-controller-manager',
      'RoleBinding/openshift-cloud-controller-manager/cluster-cloud-controller-manager': 'ClusterRole/admin',
      'RoleBinding/openshift-cloud-controller-manager-operator/cluster-cloud-controller-manager': 'Role/cluster-cloud-controller-manager',
      'RoleBinding/openshift-config/cluster-cloud-controller-manager': 'Role/cluster-cloud-controller-manager',
      'RoleBinding/openshift-config-managed/cluster-cloud-controller-manager': 'Role/cluster-cloud-controller-manager',
      'RoleBinding/kube-system/cluster-cloud-controller-manager': 'Role/cluster-cloud-controller-manager',
      'ClusterRoleBinding//system:openshift:scc:hostaccess:cloud-controller-manager-operator': 'ClusterRole/system:openshift:scc:hostaccess',
      'RoleBinding/openshift-cloud-controller-manager/cloud-controller-manager': 'Role/cloud-controller-manager',
      'RoleBinding/kube-system/cloud-controller-manager': 'Role/cloud-controller-manager',
      'ClusterRoleBinding//cloud-controller-manager': 'ClusterRole/cloud-controller-manager',
      'RoleBinding/kube-system/cloud-controller-manager:apiserver-authentication-reader': 'Role/extension-apiserver-authentication-reader',
    };
    const bindings = objects.filter((o) => o.kind === 'RoleBinding' || o.kind === 'ClusterRoleBinding');
    expect(bindings.length).toBeGreaterThan(0);
    for (const b of bindings) {
      const key = `${b.kind}/${b.metadata.namespace ?? ''}/${b.metadata.name}`;
      if (cvo[key]) {
        expect(`${key} -> ${b.roleRef.kind}/${b.roleRef.name}`).toBe(`${key} -> ${cvo[key]}`);
      }
    }
  });
});

describe("item 2: RELEASE_VERSION is the cluster's release", () => {
  test('GIVEN spec.openshift.release 4.22.3 in operator mode WHEN rendered THEN both operator containers report RELEASE_VERSION=4.22.3', () => {
    const deployment = find(
      render(operatorSpec('4.22.3')),
      'Deployment',
      'cluster-cloud-controller-manager-operator',
      'openshift-cloud-controller-manager-operator',
    )!;
    for (const c of deployment.spec.template.spec.containers) {
      expect(c.env.find((e: Obj) => e.name === 'RELEASE_VERSION')).toEqual({ name: 'RELEASE_VERSION', value: '4.22.3' });
    }
    expect(JSON.stringify(deployment)).not.toContain('0.0.1-snapshot');
  });

  test('GIVEN operator mode without a release WHEN checked THEN one error names spec.openshift.release', () => {
    const problems = checkSpec(
      parsedSpec({
        ...operatorSpec(),
        spec: { ...operatorSpec().spec, images: { ...operatorSpec().spec.images, cloudControllerManagerOperator: OPERATOR_IMAGE } },
      }),
    );
    expect(problems.filter((p) => p.path.join('.') === 'spec.openshift.release')).toEqual([
      { path: ['spec', 'openshift', 'release'], message: RELEASE_REQUIRED_MESSAGE },
    ]);
  });

  test('GIVEN a gitops-mode spec without a release WHEN checked THEN it is refused with one error naming the field and the command that reads it', () => {
    const problems = checkSpec(parsedSpec(platformSpec('AWS', 'g', { openshift: { release: undefined } })));
    expect(problems).toEqual([
      {
        path: ['spec', 'openshift', 'release'],
        message:
          'is required for an OpenShift cluster: it decides which rendered objects the release payload ships as they are (and so the ClusterVersion overrides), ' +
          "the default feature gates and the version the operator reports; set the cluster's release, read with: oc get clusterversion version -o jsonpath='{.status.desired.version}'",
      },
    ]);
  });

  test('GIVEN a fleet with a release-less OpenShift spec WHEN loaded THEN the problem names the file and the field', () => {
    const dir = tmp();
    writeFile(dir, 'g.yaml', platformSpec('AWS', 'g', { openshift: { release: undefined } }));
    const lines = fleetProblems(dir);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('g.yaml');
    expect(lines[0]).toContain('spec.openshift.release');
    expect(lines[0]).toContain("oc get clusterversion version -o jsonpath='{.status.desired.version}'");
  });
});

describe("operator mode renders each release's operator Deployment", () => {
  test('GIVEN operator mode on 4.21 WHEN checked THEN no release problem: the release-4.21 Deployment (kube-rbac-proxy) is rendered', () => {
    // openshift/cluster-cloud-controller-manager-operator@6148c0cc (release-4.21) manifests/0000_26_cloud-controller-manager-operator_11_deployment.yaml
    const problems = checkSpec(parsedSpec(operatorSpec('4.21.9')));
    expect(problems.filter((p) => p.path.join('.') === 'spec.openshift.release')).toEqual([]);
  });
});

describe('item 4: the release decides the default feature gates', () => {
  test.each([
    // openshift/api@release-4.21 features/features.go: TechPreviewNoUpgrade/DevPreviewNoUpgrade only
    ['4.21.4', 'Default', []],
    ['4.21.4', 'TechPreviewNoUpgrade', ['AWSServiceLBNetworkSecurityGroup', 'VSphereMixedNodeEnv']],
    // openshift/api@release-4.22: AWSServiceLBNetworkSecurityGroup in Default
    ['4.22.0', 'Default', ['AWSServiceLBNetworkSecurityGroup']],
    // openshift/api@release-4.23: VSphereMixedNodeEnv in Default too; VSphereMultiVCenterDay2 in TechPreview
    ['4.23.2', 'Default', ['AWSServiceLBNetworkSecurityGroup', 'VSphereMixedNodeEnv']],
    ['4.23.2', 'TechPreviewNoUpgrade', ['AWSServiceLBNetworkSecurityGroup', 'VSphereMixedNodeEnv', 'VSphereMultiVCenterDay2']],
    // openshift/api@release-5.1: AWSServiceLBNetworkSecurityGroup removed (f89b3ce1d)
    ['5.1.0', 'Default', ['VSphereMixedNodeEnv']],
    // release-4.20: gates exist but the operator of 4.20 reads none of them
    ['4.20.9', 'TechPreviewNoUpgrade', []],
    ['4.16.3', 'Default', []],
  ] as const)('release %s feature set %s enables %j', (release, set, gates) => {
    expect(releaseDefaultGates(release, set)).toEqual(gates);
  });

  test('explicit lists apply on top: disabled removes a default, enabled adds one', () => {
    expect(
      effectiveEnabledGates({ release: '4.23.0', featureSet: 'Default', enabled: ['VSphereMultiVCenterDay2'], disabled: ['VSphereMixedNodeEnv'] }),
    ).toEqual(['AWSServiceLBNetworkSecurityGroup', 'VSphereMultiVCenterDay2']);
  });

  test('an explicitly enabled rendering gate changes nothing on a release whose operator does not read it yet', () => {
    // openshift/cluster-cloud-controller-manager-operator@release-4.20 reads neither gate
    expect(effectiveEnabledGates({ release: '4.20.3', enabled: ['VSphereMixedNodeEnv', 'CloudControllerManagerWebhook'], disabled: [] })).toEqual([
      'CloudControllerManagerWebhook',
    ]);
    expect(effectiveEnabledGates({ enabled: ['VSphereMixedNodeEnv'], disabled: [] })).toEqual(['VSphereMixedNodeEnv']);
  });

  test('GIVEN an AWS spec naming release 4.22.1 and no gates WHEN the cloud config is transformed THEN NLBSecurityGroupMode = Managed', () => {
    const spec = parsedSpec(platformSpec('AWS', 'a', { openshift: { release: '4.22.1' } }));
    const result = platformFor('AWS')!.transformCloudConfig('[Global]\n', spec);
    expect(result.config.split('\n')).toContain('NLBSecurityGroupMode                            = Managed');
  });

  test('GIVEN release 4.22.1 and the gate disabled WHEN transformed THEN NLBSecurityGroupMode is left out', () => {
    const spec = parsedSpec(
      platformSpec('AWS', 'a', { openshift: { release: '4.22.1' }, featureGates: { disabled: ['AWSServiceLBNetworkSecurityGroup'] } }),
    );
    expect(platformFor('AWS')!.transformCloudConfig('[Global]\n', spec).config).not.toContain('NLBSecurityGroupMode');
  });

  test('GIVEN a vSphere spec naming release 4.23.0 WHEN rendered THEN the CCM labels nodes (VSphereMixedNodeEnv by Default)', () => {
    const objects = render(platformSpec('VSphere', 'v', { openshift: { release: '4.23.0' } }), 'global:\n  port: 443\n');
    const d = objects.find((o) => o.kind === 'Deployment')!;
    expect(d.spec.template.spec.containers[0].command[2]).toContain('--node-labels="$(ADDITIONAL_NODE_LABELS)"');
  });

  test('the release maps to the Kubernetes minor it ships (openshift/api go.mod k8s.io/api)', () => {
    expect(kubernetesMinorOfRelease('4.16.0')).toBe('1.29');
    expect(kubernetesMinorOfRelease('4.22.7')).toBe('1.35');
    expect(kubernetesMinorOfRelease('3.11.0')).toBeUndefined();
  });

  test('GIVEN a release the table does not know WHEN checked THEN one error lists the known ones', () => {
    const problems = checkSpec(parsedSpec(platformSpec('AWS', 'a', { openshift: { release: '4.9.0' } })));
    expect(problems).toContainEqual({
      path: ['spec', 'openshift', 'release'],
      message: '"4.9.0" is a release this version has no feature-gate table for (known: 4.11 to 5.2); name a known release or upgrade ccm-gitops',
    });
  });

  test('GIVEN release 5.2.0, which has a gate table but no operator release branch, WHEN checked THEN one error names the newest release the operator has a branch for', () => {
    for (const mode of ['gitops', 'operator'] as const) {
      const problems = checkSpec(parsedSpec(platformSpec('AWS', 'a', { managementMode: mode, openshift: { release: '5.2.0' } })));
      expect(problems.filter((p) => p.path.join('.') === 'spec.openshift.release')).toEqual([
        {
          path: ['spec', 'openshift', 'release'],
          message:
            '"5.2.0": openshift/cluster-cloud-controller-manager-operator has no release-5.2 branch, so what its operator renders there is not known ' +
            '(the newest release known is 5.1); name the release the cluster runs, or upgrade ccm-gitops',
        },
      ]);
    }
  });

  test('GIVEN release 5.1.0, whose operator branch exists, WHEN checked THEN no release error', () => {
    const problems = checkSpec(parsedSpec(platformSpec('AWS', 'a', { openshift: { release: '5.1.0' } })));
    expect(problems.filter((p) => p.path.join('.') === 'spec.openshift.release')).toEqual([]);
  });

  test('GIVEN AlibabaCloud on release 4.17 WHEN checked THEN refused: its assets shipped in 4.16 only', () => {
    const problems = checkSpec(parsedSpec(platformSpec('AlibabaCloud', 'ali', { openshift: { release: '4.17.2' } })));
    expect(problems).toContainEqual({
      path: ['spec', 'openshift', 'release'],
      message: '"4.17.2": the operator shipped Alibaba Cloud operands in release 4.16 only (removed in 4.17); name the cluster\'s 4.16.z release',
    });
  });

  test('GIVEN AlibabaCloud without a release WHEN checked THEN the release is required', () => {
    const problems = checkSpec(parsedSpec(platformSpec('AlibabaCloud', 'ali', { openshift: { release: undefined } })));
    expect(problems).toContainEqual({ path: ['spec', 'openshift', 'release'], message: RELEASE_REQUIRED_MESSAGE });
  });
});
