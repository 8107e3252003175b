import * as fs from 'fs';
import * as path from 'path';
import { SpecValidationError } from '../src/cluster-spec/errors';
import { imagePinProblem } from '../src/cluster-spec/images';
import { loadFleet, loadSpecFiles } from '../src/fleet/load';
import { AWS_IMAGE, awsSpec, fleetProblems, useTempDir, writeFile } from './helpers';

const dir = useTempDir();
let root: string;
beforeEach(() => {
  root = dir();
});

function problems(): string[] {
  return fleetProblems(root);
}

describe('spec validation: each class of error, with file, line, field, value and fix', () => {
  test('an unknown field names the field and suggests the closest known one', () => {
    const spec = awsSpec();
    spec.spec.platfrom = 'AWS';
    writeFile(root, 'c.yaml', spec);
    expect(problems()).toEqual(['c.yaml:13: spec.platfrom: unknown field; did you mean "platform"?']);
  });

  test('an unknown field with no close match lists the known fields', () => {
    const spec = awsSpec();
    spec.spec.proxy = { socks: 'x' };
    writeFile(root, 'c.yaml', spec);
    expect(problems()).toEqual(['c.yaml:14: spec.proxy.socks: unknown field; remove it (known fields: httpProxy, httpsProxy, noProxy)']);
  });

  test('a wrong type names the expected type and the value', () => {
    writeFile(root, 'c.yaml', awsSpec('c', { infrastructureName: 42 }));
    expect(problems()).toEqual([
      'c.yaml:8: spec.infrastructureName: expected string, got number 42; set the Infrastructure status.infrastructureName ' +
        "(oc get infrastructure cluster -o jsonpath='{.status.infrastructureName}')",
    ]);
  });

  test('an unknown platform lists the platform types', () => {
    writeFile(root, 'c.yaml', awsSpec('c', { platform: 'AWZ' }));
    expect(problems()).toEqual([
      'c.yaml:7: spec.platform: "AWZ" is not allowed; expected one of: AWS, Azure, GCP, IBMCloud, PowerVS, OpenStack, VSphere, Nutanix, AlibabaCloud, DigitalOcean, EquinixMetal; ' +
        'set the Infrastructure status.platformStatus.type of the cluster',
    ]);
  });

  test('a platform without its image names the image key', () => {
    writeFile(root, 'c.yaml', awsSpec('c', { platform: 'GCP', images: {} }));
    expect(problems()).toEqual([
      'c.yaml:9: spec.images.cloudControllerManagerGCP: is required for platform GCP in gitops mode but missing; pin it by digest (repo@sha256:...) or by an explicit tag',
    ]);
  });

  test('a missing required field', () => {
    const spec = awsSpec();
    delete spec.spec.infrastructureName;
    writeFile(root, 'c.yaml', spec);
    expect(problems()).toEqual([
      'c.yaml:5: spec.infrastructureName: is required with distribution openshift; set the Infrastructure status.infrastructureName ' +
        "(oc get infrastructure cluster -o jsonpath='{.status.infrastructureName}')",
    ]);
  });

  test('a missing required image names the key, the platform and the mode', () => {
    writeFile(root, 'c.yaml', awsSpec('c', { images: {} }));
    expect(problems()).toEqual([
      'c.yaml:9: spec.images.cloudControllerManagerAWS: is required for platform AWS in gitops mode but missing; pin it by digest (repo@sha256:...) or by an explicit tag',
    ]);
  });

  test('operator mode also requires the operator image', () => {
    writeFile(root, 'c.yaml', awsSpec('c', { managementMode: 'operator', openshift: { release: '4.23.1' } }));
    expect(problems()).toEqual([
      'c.yaml:9: spec.images.cloudControllerManagerOperator: is required for platform AWS in operator mode but missing; pin it by digest (repo@sha256:...) or by an explicit tag',
    ]);
  });

  test('an unpinned image is refused', () => {
    writeFile(root, 'c.yaml', awsSpec('c', { images: { cloudControllerManagerAWS: 'quay.io/x/aws-ccm' } }));
    expect(problems()).toEqual([
      'c.yaml:10: spec.images.cloudControllerManagerAWS: "quay.io/x/aws-ccm" is not pinned (no tag or digest); pin it by digest (repo@sha256:...) or by an explicit tag',
    ]);
  });

  test('an unknown image key is an unknown field', () => {
    writeFile(root, 'c.yaml', awsSpec('c', { images: { cloudControllerManagerAWS: AWS_IMAGE, cloudControllerManagerAWZ: AWS_IMAGE } }));
    expect(problems()).toEqual(['c.yaml:11: spec.images.cloudControllerManagerAWZ: unknown field; did you mean "cloudControllerManagerAWS"?']);
  });

  test('a cloud config file that does not exist', () => {
    writeFile(root, 'c.yaml', awsSpec('c', { cloudConfig: { file: 'missing.conf' } }));
    expect(problems()).toEqual([
      'c.yaml: spec.cloudConfig.file: "missing.conf" does not exist (looked for missing.conf); create it or fix the path, relative to the spec file',
    ]);
  });

  test('a cloud config path leaving the clusters directory', () => {
    fs.writeFileSync(path.join(path.dirname(root), `${path.basename(root)}-outside.conf`), '[Global]\n');
    writeFile(root, 'c.yaml', awsSpec('c', { cloudConfig: { file: `../${path.basename(root)}-outside.conf` } }));
    try {
      expect(problems()).toEqual([
        `c.yaml: spec.cloudConfig.file: "../${path.basename(root)}-outside.conf" resolves outside the clusters directory ${root}; keep cloud configs next to their specs`,
      ]);
    } finally {
      fs.rmSync(path.join(path.dirname(root), `${path.basename(root)}-outside.conf`));
    }
  });

  test('a symlink leaving the clusters directory is refused like a path', () => {
    fs.symlinkSync('/etc/hostname', path.join(root, 'link.conf'));
    writeFile(root, 'c.yaml', awsSpec('c', { cloudConfig: { file: 'link.conf' } }));
    expect(problems()).toEqual([
      `c.yaml: spec.cloudConfig.file: "link.conf" resolves outside the clusters directory ${root}; keep cloud configs next to their specs`,
    ]);
  });

  test('a spec file that is a symlink leaving the clusters directory is refused', () => {
    writeFile(root, 'c.yaml', awsSpec('c'));
    fs.symlinkSync('/etc/hostname', path.join(root, 'evil.yaml'));
    expect(problems()).toEqual(['evil.yaml: is a symbolic link to a file outside the clusters directory (or to nothing); copy the spec in instead']);
  });

  test('an absolute cloud config path is refused', () => {
    writeFile(root, 'c.yaml', awsSpec('c', { cloudConfig: { file: '/etc/passwd' } }));
    expect(problems()).toEqual([
      'c.yaml: spec.cloudConfig.file: "/etc/passwd" is an absolute path; give a path relative to the spec file, inside the clusters directory',
    ]);
  });

  test('a cloud config that is a directory', () => {
    fs.mkdirSync(path.join(root, 'conf.d'));
    writeFile(root, 'c.yaml', awsSpec('c', { cloudConfig: { file: 'conf.d' } }));
    expect(problems()).toEqual(
      [`${path.join(root, 'conf.d')}: is not a regular file (referenced by ${path.join(root, 'c.yaml')} spec.cloudConfig.file)`].map((p) =>
        p.split(`${root}${path.sep}`).join(''),
      ),
    );
  });

  test('a cloud config the transform rejects names the cluster, the file and the line', () => {
    writeFile(root, 'c.conf', '[Global]\nDisableSecurityGroupIngress = maybe\n');
    writeFile(root, 'c.yaml', awsSpec('c', { cloudConfig: { file: 'c.conf' } }));
    expect(problems()).toEqual([
      'c.conf:2: cluster c: failed to read the cloud.conf: failed to parse INI file: line 2: [Global] DisableSecurityGroupIngress: failed to parse "maybe" as bool; use true or false',
    ]);
  });

  test('duplicate cluster names across the directory are reported on both files', () => {
    writeFile(root, 'a.yaml', awsSpec('same'));
    writeFile(root, 'nested/b.yaml', awsSpec('same'));
    expect(problems()).toEqual(
      [
        `a.yaml:4: metadata.name: "same" is also used by ${path.join(root, 'nested', 'b.yaml')}; cluster names must be unique across the fleet`,
        `nested/b.yaml:4: metadata.name: "same" is also used by ${path.join(root, 'a.yaml')}; cluster names must be unique across the fleet`,
      ].map((p) => p.split(`${root}${path.sep}`).join('')),
    );
  });

  test('a name used by three files is reported on each, with the two others', () => {
    // GIVEN three specs of one name, and a fourth of its own
    writeFile(root, 'a.yaml', awsSpec('same'));
    writeFile(root, 'b.yaml', awsSpec('other'));
    writeFile(root, 'nested/c.yaml', awsSpec('same'));
    writeFile(root, 'nested/d.yaml', awsSpec('same'));
    // WHEN the fleet loads THEN each use of the name lists the other two, in file order; the fourth name is not reported
    expect(problems()).toEqual(
      [
        `a.yaml:4: metadata.name: "same" is also used by ${path.join(root, 'nested', 'c.yaml')}, ${path.join(root, 'nested', 'd.yaml')}; cluster names must be unique across the fleet`,
        `nested/c.yaml:4: metadata.name: "same" is also used by ${path.join(root, 'a.yaml')}, ${path.join(root, 'nested', 'd.yaml')}; cluster names must be unique across the fleet`,
        `nested/d.yaml:4: metadata.name: "same" is also used by ${path.join(root, 'a.yaml')}, ${path.join(root, 'nested', 'c.yaml')}; cluster names must be unique across the fleet`,
      ].map((p) => p.split(`${root}${path.sep}`).join('')),
    );
  });

  test('a name that is not a DNS label', () => {
    writeFile(root, 'c.yaml', awsSpec('Prod_1', { infrastructureName: 'prod-1-abcde' }));
    expect(problems()).toEqual([
      'c.yaml:4: metadata.name: "Prod_1" is not a DNS-1123 label; set a DNS-1123 label (lower-case letters, digits and "-", at most 40 characters), unique across the fleet',
    ]);
  });

  test.each([
    [
      'invalid YAML',
      'a: [1, 2\n',
      'c.yaml:2: is not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]; fix the syntax at this line',
    ],
    ['a duplicate key', 'a: 1\na: 2\n', 'c.yaml:2: is not valid YAML: Map keys must be unique; fix the syntax at this line'],
    ['two documents', 'a: 1\n---\nb: 2\n', 'c.yaml:2: holds more than one YAML document; put one cluster spec per file'],
    ['an empty file', '# nothing\n', 'c.yaml: is empty; write a CloudControllerManagerCluster spec (see the README)'],
    ['a list', '- a\n', 'c.yaml: must be a YAML mapping, got a list (["a"]); write a CloudControllerManagerCluster spec'],
  ])('%s', (_name, text, expected) => {
    writeFile(root, 'c.yaml', text);
    expect(problems()).toEqual([expected]);
  });

  test('a wrong kind and missing sections', () => {
    writeFile(root, 'c.yaml', 'apiVersion: ccm-gitops.io/v1alpha1\nkind: Cluster\n');
    expect(problems()).toEqual([
      'c.yaml:1: metadata: is required; add metadata.name, the cluster name',
      'c.yaml:1: spec: is required; add the spec: distribution, platform, infrastructureName, images, ...',
      'c.yaml:2: kind: "Cluster" is not allowed; expected "CloudControllerManagerCluster"; set it to "CloudControllerManagerCluster"',
    ]);
  });

  test('an alias bomb is refused without expanding it', () => {
    const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 10; i++) {
      lines.push(
        `a${i}: &a${i} [*a${i - 1}, *a${i - 1}, *a${i - 1}, *a${i - 1}, *a${i - 1}, *a${i - 1}, *a${i - 1}, *a${i - 1}, *a${i - 1}, *a${i - 1}]`,
      );
    }
    writeFile(root, 'c.yaml', `${lines.join('\n')}\n`);
    expect(problems()).toEqual([
      'c.yaml: cannot be read: Excessive alias count indicates a resource exhaustion attack; expand the YAML aliases by hand',
    ]);
  });

  test('an oversized file is refused', () => {
    writeFile(root, 'c.yaml', `# ${'x'.repeat(1024 * 1024)}\n`);
    expect(problems()).toEqual(['c.yaml: is 1048579 bytes, over the 1048576-byte limit; inputs are small text files']);
  });

  test.each([
    ['spec.aws with another platform', { platform: 'AWS', aws: { region: 'us-east-1' } }, null],
    [
      'feature gate both enabled and disabled',
      { featureGates: { enabled: ['Foo'], disabled: ['Foo'] } },
      'c.yaml:13: spec.featureGates.enabled.0: "Foo" is listed as both enabled and disabled; keep it in one list',
    ],
    [
      'a cipher list outside the Custom profile',
      { tls: { profile: 'Modern', ciphers: ['ECDHE-RSA-AES128-GCM-SHA256'] } },
      'c.yaml:13: spec.tls.ciphers: is only read with profile Custom (profile is Modern); remove it or set spec.tls.profile: Custom',
    ],
    [
      'a Custom profile without a minimum version',
      { tls: { profile: 'Custom', ciphers: ['ECDHE-RSA-AES128-GCM-SHA256'] } },
      'c.yaml:11: spec.tls.minTLSVersion: is required with profile Custom; set VersionTLS12 (the Intermediate minimum) or another version',
    ],
    [
      'an unknown cipher name',
      { tls: { profile: 'Custom', minTLSVersion: 'VersionTLS12', ciphers: ['ECDHE-RSA-AES128-GCM-SHA256', 'TLS_FAST'] } },
      'c.yaml:16: spec.tls.ciphers.1: "TLS_FAST" is not a TLS cipher suite name; use OpenSSL names as the APIServer profile does (e.g. ECDHE-RSA-AES128-GCM-SHA256) ' +
        'or IANA names (e.g. TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256)',
    ],
    [
      'a Custom profile with only ciphers Go lacks',
      { tls: { profile: 'Custom', minTLSVersion: 'VersionTLS12', ciphers: ['DHE-RSA-AES128-GCM-SHA256'] } },
      'c.yaml:14: spec.tls.ciphers: lists no cipher suite Go implements, so VersionTLS12 connections could not be served; add at least one ECDHE suite, e.g. ECDHE-RSA-AES128-GCM-SHA256',
    ],
    [
      'a proxy with credentials',
      { proxy: { httpsProxy: 'http://me:secret@proxy:3128' } },
      'c.yaml:12: spec.proxy.httpsProxy: embeds credentials (user:password@); rendered env vars are committed to git, so use a proxy that authorises the cluster by address',
    ],
    [
      'flux without a repository',
      { gitops: { engine: 'flux' } },
      'c.yaml:11: spec.gitops.repoURL: is required with engine "flux"; set the URL of the repository that holds the rendered tree',
    ],
    [
      'a repository URL with credentials',
      { gitops: { engine: 'argocd', repoURL: 'https://me:tok@git.example.com/r.git' } },
      'c.yaml:13: spec.gitops.repoURL: embeds credentials (user:password@); give the engine a repository Secret instead (spec.gitops.flux.secretRef, or an Argo CD repository credential)',
    ],
    [
      'a repository path with ..',
      { gitops: { path: '../elsewhere' } },
      'c.yaml:12: spec.gitops.path: "../elsewhere" must be a relative path inside the repository, without ".."',
    ],
    [
      'service endpoints without region',
      { aws: { serviceEndpoints: [{ name: 'ec2', url: 'https://ec2.example.com' }] } },
      'c.yaml:11: spec.aws.region: is required when spec.aws.serviceEndpoints is set (the operator fails with "status.platformStatus.aws.region: Required value"); ' +
        'set the Infrastructure status.platformStatus.aws.region',
    ],
    [
      'a service endpoint listed twice',
      {
        aws: {
          region: 'us-east-1',
          serviceEndpoints: [
            { name: 'ec2', url: 'https://a.example.com' },
            { name: 'ec2', url: 'https://b.example.com' },
          ],
        },
      },
      'c.yaml:16: spec.aws.serviceEndpoints.1.name: "ec2" is listed twice (also at index 0); keep one endpoint per service',
    ],
  ])('%s', (_name, spec, expected) => {
    writeFile(root, 'c.yaml', awsSpec('c', spec));
    if (expected === null) {
      // valid, or reported by the schema: must not throw anything but a validation error
      try {
        loadFleet(root);
      } catch (e) {
        expect(e).toBeInstanceOf(SpecValidationError);
      }
      return;
    }
    expect(problems()).toEqual([expected]);
  });

  test('spec.aws on a GCP cluster is refused', () => {
    writeFile(
      root,
      'c.yaml',
      awsSpec('c', { platform: 'GCP', images: { cloudControllerManagerGCP: 'quay.io/o/gcp:4.20' }, aws: { region: 'us-east-1' } }),
    );
    expect(problems()).toEqual(['c.yaml:11: spec.aws: is set but spec.platform is "GCP"; remove spec.aws or set spec.platform to AWS']);
  });

  test('every problem of every file is reported in one run, sorted by file and line', () => {
    writeFile(root, 'a.yaml', awsSpec('a', { platform: 'AWZ' }));
    writeFile(root, 'b.yaml', awsSpec('b', { images: {}, gitops: { engine: 'argocd' } }));
    writeFile(root, 'b.conf', '[Global]\nPassword = x\n');
    writeFile(root, 'c.yaml', awsSpec('c', { cloudConfig: { file: 'c.conf' } }));
    writeFile(root, 'c.conf', '[Global]\npassword = x\n');
    const found = problems();
    expect(found).toEqual([
      expect.stringMatching(/^a\.yaml:7: spec\.platform: "AWZ" is not allowed/),
      'b.yaml:9: spec.images.cloudControllerManagerAWS: is required for platform AWS in gitops mode but missing; pin it by digest (repo@sha256:...) or by an explicit tag',
      'b.yaml:10: spec.gitops.repoURL: is required with engine "argocd"; set the URL of the repository that holds the rendered tree',
      "c.conf:2: cluster c: 'password' (line 2) looks like a credential; remove it: the AWS cloud controller manager authenticates with the instance profile, and credentials never go into git",
    ]);
  });

  test('a missing clusters directory and an empty one', () => {
    expect(() => loadFleet(path.join(root, 'nope'))).toThrow(
      `${path.join(root, 'nope')}: clusters directory not found; pass --clusters DIR with the folder holding the cluster specs`,
    );
    expect(() => loadFleet(root)).toThrow(`${root}: holds no cluster spec (*.yaml); add one file per cluster`);
  });
});

describe('spec loading: what a valid spec becomes', () => {
  test('defaults are applied and the cloud config is transformed', () => {
    writeFile(root, 'c.conf', '[Global]\nZone = us-east-1a\n');
    writeFile(root, 'c.yaml', awsSpec('c', { cloudConfig: { file: 'c.conf' } }));
    const fleet = loadFleet(root);
    expect(fleet.clusters).toHaveLength(1);
    const cluster = fleet.clusters[0];
    expect(cluster.spec.spec.controlPlaneTopology).toBe('HighlyAvailable');
    expect(cluster.spec.spec.managementMode).toBe('gitops');
    expect(cluster.spec.spec.gitops).toEqual({
      engine: 'plain',
      revision: 'main',
      argocd: { namespace: 'openshift-gitops', project: 'default', topology: 'per-cluster' },
      flux: { namespace: 'flux-system', interval: '10m', entrySourceRef: 'flux-system' },
    });
    expect(cluster.spec.spec.tls).toEqual({ profile: 'Intermediate' });
    expect(cluster.cloudConf.startsWith('[Global]\nZone                                            = us-east-1a\n')).toBe(true);
  });

  test('transform warnings are returned with the file and the cluster', () => {
    writeFile(root, 'c.conf', '[Global]\nDisableStrictZoneCheck = true\n');
    writeFile(root, 'c.yaml', awsSpec('c', { cloudConfig: { file: 'c.conf' } }));
    expect(loadFleet(root).warnings).toEqual([
      {
        file: path.join(root, 'c.conf'),
        message: "cluster c: '[Global] DisableStrictZoneCheck' (line 2) is not an AWS cloud provider option; dropped",
      },
    ]);
  });

  test('clusters come out sorted by name whatever the file order', () => {
    writeFile(root, 'z.yaml', awsSpec('alpha'));
    writeFile(root, 'a.yaml', awsSpec('zulu'));
    writeFile(root, 'm/x.yaml', awsSpec('mike'));
    expect(loadFleet(root).clusters.map((c) => c.spec.metadata.name)).toEqual(['alpha', 'mike', 'zulu']);
    expect(loadSpecFiles([path.join(root, 'a.yaml'), path.join(root, 'z.yaml')], root).clusters.map((c) => c.spec.metadata.name)).toEqual([
      'alpha',
      'zulu',
    ]);
  });

  test('hidden files and directories are skipped', () => {
    writeFile(root, 'c.yaml', awsSpec('c'));
    writeFile(root, '.git/x.yaml', 'not: a spec\n');
    writeFile(root, '.hidden.yaml', 'not: a spec\n');
    expect(loadFleet(root).clusters.map((c) => c.spec.metadata.name)).toEqual(['c']);
  });
});

describe('image pinning', () => {
  test.each([
    ['quay.io/a/b@sha256:' + 'c'.repeat(64), undefined],
    ['quay.io/a/b:v1.2.3', undefined],
    ['registry:5000/a/b:4.20', undefined],
    ['registry:5000/a/b', 'is not pinned (no tag or digest)'],
    ['quay.io/a/b:latest', 'is pinned to the moving tag "latest"'],
    ['quay.io/a/b@sha256:abc', 'has a malformed digest "sha256:abc" (expected sha256:<64 hex digits>)'],
    ['quay.io/a b:1', 'is not an image reference'],
  ])('%s', (ref, problem) => {
    expect(imagePinProblem(ref)).toBe(problem);
  });
});
