import * as path from 'path';
import { defaultsChain, loadFleet, mergeDefaults } from '../src/fleet/load';
import { AWS_IMAGE, awsSpec, fleetProblems, TEST_RELEASE, useTempDir, writeFile } from './helpers';

const dir = useTempDir();

const problems = fleetProblems;

const defaults = (spec: Record<string, unknown>, labels?: Record<string, string>) => ({
  apiVersion: 'ccm-gitops.io/v1alpha1',
  kind: 'CloudControllerManagerDefaults',
  ...(labels ? { metadata: { labels } } : {}),
  spec,
});

/** A spec with only what is specific to one cluster. */
const thin = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'ccm-gitops.io/v1alpha1',
  kind: 'CloudControllerManagerCluster',
  metadata: { name },
  spec: { infrastructureName: `${name}-x1`, ...spec },
});

describe('folder defaults', () => {
  test('mappings merge key by key; lists and scalars of the later file replace', () => {
    expect(mergeDefaults({ a: { b: 1, c: [1, 2] }, d: 'x' }, { a: { c: [3], e: 2 }, d: 'y' })).toEqual({ a: { b: 1, c: [3], e: 2 }, d: 'y' });
  });

  test('defaults apply from the clusters folder down; deeper folders win; the spec wins over all', () => {
    // GIVEN fleet-wide defaults, region defaults and a spec that overrides one field
    const root = dir();
    writeFile(
      root,
      'defaults.yaml',
      defaults(
        {
          distribution: 'openshift',
          platform: 'AWS',
          openshift: { release: TEST_RELEASE },
          images: { cloudControllerManagerAWS: AWS_IMAGE },
          gitops: { engine: 'argocd', repoURL: 'https://git.example.com/fleet.git', argocd: { project: 'fleet' } },
          featureGates: { enabled: ['A', 'B'] },
        },
        { owner: 'platform' },
      ),
    );
    writeFile(
      root,
      'us-east-1/defaults.yaml',
      defaults({ aws: { region: 'us-east-1' }, gitops: { argocd: { project: 'us-east' } } }, { region: 'us-east-1' }),
    );
    writeFile(root, 'us-east-1/prod-1.yaml', thin('prod-1', { controlPlaneTopology: 'SingleReplica', featureGates: { enabled: ['C'] } }));
    writeFile(root, 'eu-west-1/prod-2.yaml', thin('prod-2'));
    // WHEN
    const [one, two] = loadFleet(root).clusters;
    // THEN
    expect(one.spec.metadata).toEqual({ name: 'prod-1', labels: { owner: 'platform', region: 'us-east-1' } });
    expect(one.spec.spec.aws).toEqual({ region: 'us-east-1' });
    expect(one.spec.spec.gitops.argocd.project).toBe('us-east');
    expect(one.spec.spec.gitops.repoURL).toBe('https://git.example.com/fleet.git');
    expect(one.spec.spec.controlPlaneTopology).toBe('SingleReplica');
    expect(one.spec.spec.featureGates.enabled).toEqual(['C']);
    expect(two.spec.spec.aws).toBeUndefined();
    expect(two.spec.spec.gitops.argocd.project).toBe('fleet');
    expect(two.spec.spec.featureGates.enabled).toEqual(['A', 'B']);
  });

  test('a cloud config path set in defaults is relative to the defaults file', () => {
    const root = dir();
    writeFile(root, 'shared/aws.conf', '[Global]\nZone = shared-zone\n');
    writeFile(
      root,
      'defaults.yaml',
      defaults({
        distribution: 'openshift',
        platform: 'AWS',
        openshift: { release: TEST_RELEASE },
        images: { cloudControllerManagerAWS: AWS_IMAGE },
        cloudConfig: { file: 'shared/aws.conf' },
      }),
    );
    writeFile(root, 'a/b/c.yaml', thin('c'));
    expect(loadFleet(root).clusters[0].cloudConf).toContain('Zone                                            = shared-zone');
  });

  test('a problem in a value from defaults is reported at the defaults file, once', () => {
    const root = dir();
    writeFile(
      root,
      'defaults.yaml',
      defaults({
        distribution: 'openshift',
        platform: 'AWS',
        images: { cloudControllerManagerAWS: 'quay.io/x/y' },
        openshift: { release: TEST_RELEASE },
      }),
    );
    writeFile(root, 'a.yaml', thin('a'));
    writeFile(root, 'b.yaml', thin('b'));
    expect(problems(root)).toEqual([
      'defaults.yaml:7: spec.images.cloudControllerManagerAWS: "quay.io/x/y" is not pinned (no tag or digest); pin it by digest (repo@sha256:...) or by an explicit tag',
    ]);
  });

  test('an unknown field in defaults is reported at the defaults file', () => {
    const root = dir();
    writeFile(
      root,
      'defaults.yaml',
      defaults({
        distribution: 'openshift',
        platform: 'AWS',
        images: { cloudControllerManagerAWS: AWS_IMAGE },
        prxy: {},
        openshift: { release: TEST_RELEASE },
      }),
    );
    writeFile(root, 'a.yaml', thin('a'));
    expect(problems(root)).toEqual(['defaults.yaml:8: spec.prxy: unknown field; did you mean "proxy"?']);
  });

  test('a missing field is reported at the spec', () => {
    const root = dir();
    writeFile(root, 'defaults.yaml', defaults({ distribution: 'openshift', images: { cloudControllerManagerAWS: AWS_IMAGE } }));
    writeFile(root, 'a.yaml', thin('a'));
    expect(problems(root)).toEqual([
      'a.yaml:5: spec.platform: is required; expected one of: AWS, Azure, GCP, IBMCloud, PowerVS, OpenStack, VSphere, Nutanix, AlibabaCloud, DigitalOcean, EquinixMetal; set the Infrastructure status.platformStatus.type of the cluster',
    ]);
  });

  test.each([
    [
      { apiVersion: 'ccm-gitops.io/v1alpha1', kind: 'CloudControllerManagerCluster', spec: {} },
      'defaults.yaml:2: kind: "CloudControllerManagerCluster" is not allowed; a defaults file has kind "CloudControllerManagerDefaults"',
    ],
    [
      { ...defaults({}), metadata: { name: 'x' } },
      'defaults.yaml:5: metadata.name: cannot be set in a defaults file; each cluster spec names itself',
    ],
    [{ ...defaults({}), status: {} }, 'defaults.yaml:4: status: unknown field; a defaults file holds apiVersion, kind, metadata.labels and spec'],
    [{ ...defaults({}), spec: ['x'] }, 'defaults.yaml:3: spec: must be a mapping, got a list (["x"])'],
  ])('a malformed defaults file is reported on its own (%#)', (content, expected) => {
    const root = dir();
    writeFile(root, 'defaults.yaml', content);
    writeFile(root, 'a.yaml', awsSpec('a'));
    expect(problems(root)).toEqual([expected]);
  });

  test('defaults files are not cluster specs, and only folders on the way to a spec count', () => {
    const root = dir();
    writeFile(root, 'defaults.yaml', defaults({}));
    writeFile(root, 'x/defaults.yml', defaults({}));
    writeFile(root, 'y/defaults.yaml', defaults({}));
    writeFile(root, 'x/c.yaml', awsSpec('c'));
    expect(defaultsChain(path.join(root, 'x', 'c.yaml'), root)).toEqual([path.join(root, 'defaults.yaml'), path.join(root, 'x', 'defaults.yml')]);
    expect(loadFleet(root).clusters.map((c) => c.spec.metadata.name)).toEqual(['c']);
  });
});
