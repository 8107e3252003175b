import { parse } from 'yaml';
import { clusterOwnership, PAYLOAD_OBJECTS } from '../src/openshift/cvo-ownership';
import { HANDOVER_FILE } from '../src/openshift/handover';
import { renderCluster } from '../src/pipeline/render';
import { platformSpec, preparedCluster } from './helpers';

type Obj = Record<string, any>;

function rendered(spec: Record<string, any>): { objects: Obj[]; handover: string } {
  const out = renderCluster(preparedCluster(spec));
  const objects = out.files
    .filter((f) => /\/0[0-9]-[^/]+\/[^/]+\.yaml$/.test(f.path) && !f.path.endsWith('kustomization.yaml'))
    .map((f) => parse(f.content) as Obj);
  const handover = out.files.find((f) => f.path === `${spec.metadata.name}/${HANDOVER_FILE}`)?.content ?? '';
  return { objects, handover };
}

const key = (o: { kind: string; namespace?: string; name: string }) => `${o.kind} ${o.namespace ?? ''}/${o.name}`;

describe('item 3: one writer per object, CVO or GitOps', () => {
  test('GIVEN GCP at 4.22.3 in gitops mode WHEN rendered THEN the CredentialsRequest is as the release ships it, and its override, which earlier versions set, is still among those the way back replaces', () => {
    const { objects } = rendered(platformSpec('GCP', 'g', { openshift: { release: '4.22.3' } }));
    const own = clusterOwnership(objects as any, { mode: 'gitops', release: '4.22.3' });
    expect(own.overrides.map((o) => o.name)).not.toContain('openshift-gcp-ccm');
    expect(own.ccmOverrides.map((o) => o[3])).toContain('openshift-gcp-ccm');
    expect(clusterOwnership(objects as any, { mode: 'gitops', release: '4.23.1' }).ccmOverrides.map((o) => o[3])).not.toContain('openshift-gcp-ccm');
  });

  test('GIVEN gitops mode on 4.23 WHEN rendered THEN every rendered payload object but the ClusterOperator is rendered as the release ships it, and only the operator Deployment and the ClusterOperator are overridden', () => {
    const { objects } = rendered(platformSpec('AWS', 'g', { openshift: { release: '4.23.1' } }));
    const own = clusterOwnership(objects as any, { mode: 'gitops', release: '4.23.1' });
    expect(own.rendered.filter((d) => d.decision === 'override').map((d) => key(d.object))).toEqual(['ClusterOperator /cloud-controller-manager']);
    expect(own.rendered.map((d) => key(d.object))).toContain('Role openshift-cloud-controller-manager/cloud-controller-manager');
    expect(own.overrides).toEqual([
      { kind: 'ClusterOperator', group: 'config.openshift.io', namespace: '', name: 'cloud-controller-manager', unmanaged: true },
      {
        kind: 'Deployment',
        group: 'apps',
        namespace: 'openshift-cloud-controller-manager-operator',
        name: 'cluster-cloud-controller-manager-operator',
        unmanaged: true,
      },
    ]);
    expect(own.scaleDownOperator).toBe(true);
  });

  test("GIVEN gitops mode WHEN rendered THEN Role openshift-cloud-controller-manager/cloud-controller-manager has the payload's rules (no flip with CVO)", () => {
    const { objects } = rendered(platformSpec('AWS', 'g', { openshift: { release: '4.23.1' } }));
    const role = objects.find(
      (o) => o.kind === 'Role' && o.metadata.name === 'cloud-controller-manager' && o.metadata.namespace === 'openshift-cloud-controller-manager',
    )!;
    // openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c manifests/0000_26_cloud-controller-manager-operator_03_rbac_provider.yaml
    expect(role.rules).toEqual([
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], resourceNames: ['cloud-controller-manager'], verbs: ['get', 'list', 'update'] },
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
    ]);
  });

  test("GIVEN gitops mode on 4.21 WHEN rendered THEN ClusterRole cloud-controller-manager is 4.21's (no metrics rules) and only the operator and its ClusterOperator are overridden", () => {
    const { objects } = rendered(platformSpec('AWS', 'g', { openshift: { release: '4.21.5' } }));
    // …@release-4.21 manifests/0000_26_cloud-controller-manager-operator_03_rbac_provider.yaml
    expect(
      objects.find((o) => o.kind === 'ClusterRole' && o.metadata.name === 'cloud-controller-manager')!.rules.map((r: Obj) => r.resources.join(',')),
    ).toEqual(['nodes,services', 'events']);
    const own = clusterOwnership(objects as any, { mode: 'gitops', release: '4.21.5' });
    expect(own.overrides.map((o) => `${o.kind} ${o.namespace}/${o.name}`)).toEqual([
      'ClusterOperator /cloud-controller-manager',
      'Deployment openshift-cloud-controller-manager-operator/cluster-cloud-controller-manager-operator',
    ]);
  });

  test("GIVEN operator mode on 4.21 WHEN rendered THEN the operator ClusterRole and metrics Service are 4.21's (no metrics rules, port https), so only the Deployment and images ConfigMap are overridden", () => {
    const { objects } = rendered(platformSpec('AWS', 'o', { managementMode: 'operator', openshift: { release: '4.21.5' } }));
    const own = clusterOwnership(objects as any, { mode: 'operator', release: '4.21.5' });
    expect(own.overrides.map((o) => o.name)).toEqual(['cloud-controller-manager-images', 'cluster-cloud-controller-manager-operator']);
    const service = objects.find((o) => o.kind === 'Service' && o.metadata.name === 'cloud-controller-manager-operator')!;
    expect(service.spec.ports).toEqual([{ name: 'https', port: 9258, targetPort: 'https' }]);
  });

  test("GIVEN operator mode WHEN rendered THEN the operator Deployment and the images ConfigMap (pinned images) are overridden, the RBAC is the release's", () => {
    const { objects, handover } = rendered(platformSpec('AWS', 'o', { managementMode: 'operator', openshift: { release: '4.23.1' } }));
    const own = clusterOwnership(objects as any, { mode: 'operator', release: '4.23.1' });
    expect(own.overrides.map((o) => `${o.kind} ${o.namespace}/${o.name}`)).toEqual([
      'ConfigMap openshift-cloud-controller-manager-operator/cloud-controller-manager-images',
      'Deployment openshift-cloud-controller-manager-operator/cluster-cloud-controller-manager-operator',
    ]);
    expect(own.scaleDownOperator).toBe(false);
    expect(handover).not.toContain('--replicas=0');
  });

  test("GIVEN operator mode on 4.22 WHEN rendered THEN Role openshift-config-managed is 4.22's (read only) and the hostaccess binding, absent from 4.22, is not rendered", () => {
    const { objects } = rendered(platformSpec('AWS', 'o', { managementMode: 'operator', openshift: { release: '4.22.3' } }));
    const role = objects.find((o) => o.kind === 'Role' && o.metadata.namespace === 'openshift-config-managed')!;
    // openshift/cluster-cloud-controller-manager-operator@release-4.22 manifests/0000_26_cloud-controller-manager-operator_02_rbac_operator.yaml
    expect(role.rules).toEqual([{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }]);
    const own = clusterOwnership(objects as any, { mode: 'operator', release: '4.22.3' });
    expect(own.overrides.map((o) => o.name)).toEqual(['cloud-controller-manager-images', 'cluster-cloud-controller-manager-operator']);
    // release-4.22 (b99c3d88) ships no hostaccess binding, so operator mode renders none there
    expect(objects.filter((o) => o.metadata.name === 'system:openshift:scc:hostaccess:cloud-controller-manager-operator')).toEqual([]);
    expect(own.notRendered.map((o) => o.name)).toContain('system:openshift:scc:hostaccess:cloud-controller-manager-operator');
  });

  test('GIVEN no release WHEN rendered THEN objects that are identical wherever the payload has them (the NetworkPolicies) need no override', () => {
    const { objects } = rendered(platformSpec('AWS', 'g', { openshift: { release: undefined } }));
    const own = clusterOwnership(objects as any, { mode: 'gitops' });
    expect(own.overrides.map((o) => o.kind)).toEqual(['ClusterOperator', 'Deployment']);
  });

  test('every payload object is known by group, kind, namespace and name once', () => {
    const keys = PAYLOAD_OBJECTS.map((o) => `${o.group}/${o.kind}/${o.namespace ?? ''}/${o.name}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  test('GIVEN gitops mode WHEN rendered THEN HANDOVER.md holds the override patch, the scale-down and the way back, with exact commands', () => {
    const { handover } = rendered(platformSpec('AWS', 'g', { openshift: { release: '4.23.1' } }));
    const ours =
      '[["ClusterOperator","config.openshift.io","","cloud-controller-manager"],["ConfigMap","","openshift-cloud-controller-manager-operator","cloud-controller-manager-images"],' +
      '["Deployment","apps","openshift-cloud-controller-manager-operator","cluster-cloud-controller-manager-operator"]]';
    const keepOwn =
      '\'.spec.overrides = ([(.spec.overrides // [])[] | select([.kind, (.group // ""), (.namespace // ""), .name] as $k | any($ours[]; . == $k) | not)] + $set)\' | oc replace -f -';
    // the hand over replaces only ccm-gitops' entries (of either mode) and keeps the cluster's own
    expect(handover).toContain(
      `oc get clusterversion version -o json | jq --argjson ours '${ours}' --argjson set '[{"kind":"ClusterOperator","group":"config.openshift.io","namespace":"","name":"cloud-controller-manager","unmanaged":true},` +
        `{"kind":"Deployment","group":"apps","namespace":"openshift-cloud-controller-manager-operator","name":"cluster-cloud-controller-manager-operator","unmanaged":true}]' ${keepOwn}`,
    );
    expect(handover).toContain(
      'oc -n openshift-cloud-controller-manager-operator scale deployment cluster-cloud-controller-manager-operator --replicas=0',
    );
    expect(handover).toContain('## Way back');
    // the way back never removes the whole list
    expect(handover).not.toContain('"path":"/spec/overrides"');
    expect(handover).toContain(`oc get clusterversion version -o json | jq --argjson ours '${ours}' --argjson set '[]' ${keepOwn}`);
    // openshift/cluster-version-operator@6e719331fb58 pkg/payload/precondition/clusterversion/upgradeable.go
    expect(handover).toContain('Disabling ownership via cluster version overrides prevents upgrades between minor or major versions.');
    expect(handover).toContain(
      '| Role openshift-cloud-controller-manager/cloud-controller-manager | as the release ships it | as release 4.23 ships it |',
    );
  });

  test('distribution kubernetes gets no handover', () => {
    const out = renderCluster(
      preparedCluster({
        apiVersion: 'ccm-gitops.io/v1alpha1',
        kind: 'CloudControllerManagerCluster',
        metadata: { name: 'k' },
        spec: {
          distribution: 'kubernetes',
          platform: 'AWS',
          images: { cloudControllerManagerAWS: 'quay.io/x/y@sha256:' + 'a'.repeat(64) },
          kubernetes: { version: '1.33' },
        },
      }),
    );
    expect(out.files.map((f) => f.path)).not.toContain(`k/${HANDOVER_FILE}`);
  });
});

describe('HANDOVER.md on Alibaba Cloud says no minor update exists', () => {
  test('GIVEN an Alibaba Cloud cluster at 4.16.20 WHEN rendered THEN the minor-update advice says the operator holds Upgradeable=False and 4.17 has no Alibaba Cloud, not "take the way back, update"', () => {
    const { handover } = rendered(platformSpec('AlibabaCloud', 'ali', { openshift: { release: '4.16.20' } }));
    const minor = handover.split('\n').find((l) => l.startsWith('- **Minor update**'));
    expect(minor).toBe(
      '- **Minor update** (4.Y to 4.Y+1): not possible on Alibaba Cloud, the way back or not: the cloud-controller-manager operator of 4.16 sets ' +
        '`Upgradeable=False` (reason `PlatformTechPreview`) on its ClusterOperator, and 4.17 has no Alibaba Cloud. Only z-stream updates remain.',
    );
  });
});
