import * as fs from 'fs';
import * as path from 'path';
import { EXIT_INVALID_INPUT, EXIT_OK, EXIT_USAGE, runCli } from '../src/cli';
import { OutputTree } from '../src/pipeline/output';
import { synthesizeInto } from '../src/pipeline/synth';
import { awsSpec, platformSpec, captureIo, readTree, useTempDir, writeFile } from './helpers';

const dir = useTempDir();
let root: string;
beforeEach(() => {
  root = dir();
});

describe('ccm-gitops synth', () => {
  test('renders the fleet and reports what it wrote', () => {
    writeFile(root, 'clusters/a.yaml', awsSpec('a'));
    const { io, stdout, stderr } = captureIo();
    const code = runCli(['synth', '--clusters', path.join(root, 'clusters'), '--out', path.join(root, 'dist')], io, {});
    expect(code).toBe(EXIT_OK);
    expect(stdout()).toBe(`rendered 1 cluster into ${path.join(root, 'dist')} (29 files written)\n`);
    expect(stderr()).toBe('');
    expect(Object.keys(readTree(path.join(root, 'dist')))).toContain(
      'a/04-workloads/deployment.openshift-cloud-controller-manager.aws-cloud-controller-manager.yaml',
    );
  });

  test('the output defaults to $CDK8S_OUTDIR, as the cdk8s CLI sets it', () => {
    writeFile(root, 'clusters/a.yaml', awsSpec('a'));
    const { io } = captureIo();
    expect(runCli(['synth', '-c', path.join(root, 'clusters'), '-q'], io, { CDK8S_OUTDIR: path.join(root, 'cdk8s-out') })).toBe(EXIT_OK);
    expect(fs.existsSync(path.join(root, 'cdk8s-out', 'a', 'kustomization.yaml'))).toBe(true);
  });

  test('bad input: every problem on stderr, exit 1, no stack trace, previous output untouched', () => {
    writeFile(root, 'clusters/a.yaml', awsSpec('a'));
    const out = path.join(root, 'dist');
    expect(runCli(['synth', '-c', path.join(root, 'clusters'), '-o', out, '-q'], captureIo().io, {})).toBe(EXIT_OK);
    const before = readTree(out);
    // a valid cluster and a broken one: nothing at all is written
    writeFile(root, 'clusters/b.yaml', awsSpec('b', { platform: 'AWZ' }));
    writeFile(root, 'clusters/c.yaml', awsSpec('c', { images: {} }));
    const { io, stdout, stderr } = captureIo();
    expect(runCli(['synth', '-c', path.join(root, 'clusters'), '-o', out], io, {})).toBe(EXIT_INVALID_INPUT);
    expect(stdout()).toBe('');
    const lines = stderr().split('\n');
    expect(lines[0]).toBe('error: 2 problems found; nothing was written');
    expect(lines[1]).toMatch(/b\.yaml:7: spec\.platform: "AWZ" is not allowed/);
    expect(lines[2]).toMatch(/c\.yaml:9: spec\.images\.cloudControllerManagerAWS: is required/);
    expect(stderr()).not.toMatch(/\n\s+at /);
    expect(readTree(out)).toEqual(before);
  });

  test('transform warnings are printed but do not fail the run', () => {
    writeFile(root, 'clusters/a.conf', '[Global]\nDisableStrictZoneCheck = true\n');
    writeFile(root, 'clusters/a.yaml', awsSpec('a', { cloudConfig: { file: 'a.conf' } }));
    const { io, stderr } = captureIo();
    expect(runCli(['synth', '-c', path.join(root, 'clusters'), '-o', path.join(root, 'dist')], io, {})).toBe(EXIT_OK);
    expect(stderr()).toBe(
      `warning: ${path.join(root, 'clusters', 'a.conf')}: cluster a: '[Global] DisableStrictZoneCheck' (line 2) is not an AWS cloud provider option; dropped\n`,
    );
  });

  test('unknown options are usage errors', () => {
    const { io, stderr } = captureIo();
    expect(runCli(['synth', '--bogus'], io, {})).toBe(EXIT_USAGE);
    expect(stderr()).toContain("error: unknown option '--bogus'");
  });

  test('--help on the program and on each command', () => {
    for (const args of [['--help'], ['synth', '--help'], ['validate-spec', '--help'], ['schema', '--help']]) {
      const { io, stdout } = captureIo();
      expect(runCli(args, io, {})).toBe(EXIT_OK);
      expect(stdout()).toMatch(/^Usage: ccm-gitops/);
    }
  });
});

describe('ccm-gitops validate-spec', () => {
  test('valid files', () => {
    const a = writeFile(root, 'a.yaml', awsSpec('a'));
    const b = writeFile(root, 'b.yaml', awsSpec('b'));
    const { io, stdout } = captureIo();
    expect(runCli(['validate-spec', a, b, '--clusters', root], io, {})).toBe(EXIT_OK);
    expect(stdout()).toBe('2 spec files valid\n');
  });

  test('reports every problem of every file with file, line and field', () => {
    const a = writeFile(root, 'a.yaml', awsSpec('a', { platfrom: 'AWS' }));
    const b = writeFile(root, 'b.yaml', awsSpec('b', { controlPlaneTopology: 'Single' }));
    const { io, stderr } = captureIo();
    expect(runCli(['validate-spec', a, b], io, {})).toBe(EXIT_INVALID_INPUT);
    expect(stderr()).toBe(
      [
        'error: 2 problems found',
        `  ${a}:11: spec.platfrom: unknown field; did you mean "platform"?`,
        `  ${b}:11: spec.controlPlaneTopology: "Single" is not allowed; expected one of: HighlyAvailable, SingleReplica; set the Infrastructure status.controlPlaneTopology`,
        '',
      ].join('\n'),
    );
  });

  test('a folder is searched like synth, with its defaults', () => {
    writeFile(root, 'fleet/defaults.yaml', {
      apiVersion: 'ccm-gitops.io/v1alpha1',
      kind: 'CloudControllerManagerDefaults',
      spec: { controlPlaneTopology: 'SingleReplica' },
    });
    writeFile(root, 'fleet/x/a.yaml', awsSpec('a'));
    writeFile(root, 'fleet/b.yaml', awsSpec('b'));
    const { io, stdout } = captureIo();
    expect(runCli(['validate-spec', path.join(root, 'fleet')], io, {})).toBe(EXIT_OK);
    expect(stdout()).toBe('2 spec files valid\n');
  });

  test('an empty folder is a usage error', () => {
    fs.mkdirSync(path.join(root, 'empty'));
    const { io, stderr } = captureIo();
    expect(runCli(['validate-spec', path.join(root, 'empty')], io, {})).toBe(EXIT_USAGE);
    expect(stderr()).toBe(`error: no cluster spec found in ${path.join(root, 'empty')}\n`);
  });

  test('a file that does not exist', () => {
    const { io, stderr } = captureIo();
    expect(runCli(['validate-spec', path.join(root, 'nope.yaml')], io, {})).toBe(EXIT_INVALID_INPUT);
    expect(stderr()).toContain(`${path.join(root, 'nope.yaml')}: cannot be read: file not found`);
  });
});

describe('ccm-gitops validate-spec: files from outside the clusters folder', () => {
  const SECRET = 'root:$6$s3cr3tHashValue:19000:0:99999:7:::';

  function outsideFile(name: string, content: string): string {
    return writeFile(root, `outside/${name}`, content);
  }

  test('a spec argument that is a symbolic link out of its folder is refused, and its content never printed', () => {
    // GIVEN a spec "file" that links to a file outside its folder
    const target = outsideFile('shadow', `${SECRET}\n`);
    fs.mkdirSync(path.join(root, 'clusters'));
    const link = path.join(root, 'clusters', 'c.yaml');
    fs.symlinkSync(target, link);
    // WHEN it is validated by name
    const { io, stdout, stderr } = captureIo();
    const code = runCli(['validate-spec', link], io, {});
    // THEN it is refused as synth refuses it in a folder, without reading it
    expect(code).toBe(EXIT_INVALID_INPUT);
    expect(stderr()).toBe(
      [
        'error: 1 problem found',
        `  ${link}: is a symbolic link to a file outside the clusters directory (or to nothing); copy the spec in instead`,
        '',
      ].join('\n'),
    );
    expect(stdout() + stderr()).not.toContain('s3cr3t');
  });

  test('a spec argument linking to a file inside the clusters folder is read', () => {
    const real = writeFile(root, 'clusters/real/a.yaml', awsSpec('a'));
    const link = path.join(root, 'clusters', 'a.yaml');
    fs.symlinkSync(real, link);
    const { io, stdout } = captureIo();
    expect(runCli(['validate-spec', link, '--clusters', path.join(root, 'clusters')], io, {})).toBe(EXIT_OK);
    expect(stdout()).toBe('1 spec file valid\n');
  });

  test.each([
    ['spec.cloudConfig.file', { file: 'c.conf' }],
    ['spec.cloudConfig.extraKeys.ca-bundle.pem', { file: 'plain.conf', extraKeys: { 'ca-bundle.pem': 'c.conf' } }],
  ])('%s naming a hard link (which may be /etc/shadow) is refused, with the fix, and its content never printed', (field, cloudConfig) => {
    // GIVEN a cloud-config file in the clusters folder that is a hard link to a file outside it
    const target = outsideFile('shadow', `[Global]\nzone = ${SECRET}\n`);
    writeFile(root, 'clusters/plain.conf', '[Global]\n');
    const spec = writeFile(root, 'clusters/c.yaml', awsSpec('c', { cloudConfig }));
    const conf = path.join(root, 'clusters', 'c.conf');
    fs.linkSync(target, conf);
    // WHEN the folder is validated
    const { io, stdout, stderr } = captureIo();
    const code = runCli(['validate-spec', path.join(root, 'clusters')], io, {});
    // THEN the link is refused, naming the field and how to replace it with a copy
    expect(code).toBe(EXIT_INVALID_INPUT);
    expect(stderr()).toContain(
      `  ${spec}: ${field}: "c.conf" is a hard link (the file has 2 names), so it may be a file outside the clusters directory ${path.join(root, 'clusters')}; ` +
        `replace it with a copy (cp ${conf} ${conf}.copy && mv ${conf}.copy ${conf})\n`,
    );
    expect(stdout() + stderr()).not.toContain('s3cr3t');
  });

  test('a defaults.yaml that is a symbolic link out of the clusters folder is refused, by synth too, and never read', () => {
    // GIVEN a defaults.yaml linking to a file outside the clusters folder
    const target = outsideFile('defaults.yaml', `apiVersion: ccm-gitops.io/v1alpha1\nkind: CloudControllerManagerDefaults\nspec:\n  ${SECRET}: x\n`);
    writeFile(root, 'clusters/c.yaml', awsSpec('c'));
    const defaults = path.join(root, 'clusters', 'defaults.yaml');
    fs.symlinkSync(target, defaults);
    const expected = `  ${defaults}: is a symbolic link to a file outside the clusters directory (or to nothing); copy the defaults file in instead\n`;
    // WHEN the folder is validated, and rendered
    const validated = captureIo();
    expect(runCli(['validate-spec', path.join(root, 'clusters')], validated.io, {})).toBe(EXIT_INVALID_INPUT);
    const synth = captureIo();
    expect(runCli(['synth', '-c', path.join(root, 'clusters'), '-o', path.join(root, 'dist'), '--no-cache'], synth.io, {})).toBe(EXIT_INVALID_INPUT);
    // THEN both refuse it the way they refuse a linked spec
    expect(validated.stderr()).toContain(expected);
    expect(synth.stderr()).toContain(expected);
    expect(validated.stderr() + synth.stderr()).not.toContain('s3cr3t');
  });

  test('the spec cache does not hide a cloud config or defaults.yaml replaced by a link with the same content', () => {
    // GIVEN a fleet rendered once with the spec cache
    const env = { CCM_GITOPS_CACHE_DIR: path.join(root, 'cache') };
    const clusters = path.join(root, 'clusters');
    writeFile(root, 'clusters/c.yaml', awsSpec('c', { cloudConfig: { file: 'c.conf' } }));
    const conf = writeFile(root, 'clusters/c.conf', '[Global]\n');
    const defaults = writeFile(root, 'clusters/defaults.yaml', { apiVersion: 'ccm-gitops.io/v1alpha1', kind: 'CloudControllerManagerDefaults' });
    const synth = () => {
      const cap = captureIo();
      return { code: runCli(['synth', '-c', clusters, '-o', path.join(root, 'dist'), '-q'], cap.io, env), stderr: cap.stderr() };
    };
    expect(synth().code).toBe(EXIT_OK);
    // WHEN the cloud config becomes a hard link to a file outside with the same bytes
    const outside = outsideFile('c.conf', '[Global]\n');
    fs.rmSync(conf);
    fs.linkSync(outside, conf);
    // THEN the cached load does not pass it
    expect(synth()).toEqual({ code: EXIT_INVALID_INPUT, stderr: expect.stringContaining('"c.conf" is a hard link (the file has 2 names)') });
    // AND WHEN, the copy back in place, defaults.yaml becomes a link out of the folder with the same bytes
    fs.rmSync(conf);
    fs.writeFileSync(conf, '[Global]\n');
    expect(synth().code).toBe(EXIT_OK);
    const linked = outsideFile('defaults.yaml', fs.readFileSync(defaults, 'utf8'));
    fs.rmSync(defaults);
    fs.symlinkSync(linked, defaults);
    // THEN it is refused too
    expect(synth()).toEqual({
      code: EXIT_INVALID_INPUT,
      stderr: expect.stringContaining(`${defaults}: is a symbolic link to a file outside the clusters directory`),
    });
  });

  test('a defaults.yaml linking to a file inside the clusters folder is read', () => {
    writeFile(root, 'clusters/shared/defaults.yaml', {
      apiVersion: 'ccm-gitops.io/v1alpha1',
      kind: 'CloudControllerManagerDefaults',
      spec: { controlPlaneTopology: 'SingleReplica' },
    });
    writeFile(root, 'clusters/x/c.yaml', awsSpec('c'));
    fs.symlinkSync(path.join(root, 'clusters', 'shared', 'defaults.yaml'), path.join(root, 'clusters', 'x', 'defaults.yaml'));
    const { io, stdout } = captureIo();
    expect(runCli(['validate-spec', path.join(root, 'clusters', 'x', 'c.yaml'), '--clusters', path.join(root, 'clusters')], io, {})).toBe(EXIT_OK);
    expect(stdout()).toBe('1 spec file valid\n');
  });
});

describe('ccm-gitops schema', () => {
  test('prints the JSON Schema', () => {
    const { io, stdout } = captureIo();
    expect(runCli(['schema'], io, {})).toBe(EXIT_OK);
    const schema = JSON.parse(stdout());
    expect(schema.title).toBe('CloudControllerManagerCluster (ccm-gitops.io/v1alpha1)');
    expect(schema.properties.spec.properties.platform.enum).toContain('AWS');
  });
});

describe('ccm-gitops synth --only and --check', () => {
  const fleet = () => {
    writeFile(root, 'clusters/a.yaml', awsSpec('alpha'));
    writeFile(root, 'clusters/b.yaml', awsSpec('beta'));
    writeFile(root, 'clusters/c.yaml', awsSpec('gamma'));
  };
  const synth = (...args: string[]) => {
    const r = captureIo();
    const code = runCli(['synth', '-c', path.join(root, 'clusters'), '-o', path.join(root, 'dist'), ...args], r.io, {});
    return { code, out: r.stdout(), err: r.stderr() };
  };

  test('--only renders the matching clusters and keeps the others as they were', () => {
    fleet();
    expect(synth('-q').code).toBe(EXIT_OK);
    const full = readTree(path.join(root, 'dist'));
    // GIVEN a change to two clusters, and a hand-edited file in a third that --only must not touch
    writeFile(root, 'clusters/a.yaml', awsSpec('alpha', { controlPlaneTopology: 'SingleReplica' }));
    writeFile(root, 'clusters/b.yaml', awsSpec('beta', { controlPlaneTopology: 'SingleReplica' }));
    // WHEN only "alpha" is rendered
    const r = synth('--only', 'al*');
    // THEN alpha changed, beta kept its old output, and the fleet summary covers all three
    expect(r.out).toBe(`rendered 1 cluster (2 kept from ${path.join(root, 'dist')}) into ${path.join(root, 'dist')} (27 files written)\n`);
    const after = readTree(path.join(root, 'dist'));
    expect(after['alpha/04-workloads/deployment.openshift-cloud-controller-manager.aws-cloud-controller-manager.yaml']).toContain('replicas: 1');
    expect(after['beta/04-workloads/deployment.openshift-cloud-controller-manager.aws-cloud-controller-manager.yaml']).toBe(
      full['beta/04-workloads/deployment.openshift-cloud-controller-manager.aws-cloud-controller-manager.yaml'],
    );
    expect(JSON.parse(after['.fleet.json']).clusters.map((c: { name: string }) => c.name)).toEqual(['alpha', 'beta', 'gamma']);
    expect(JSON.parse(after['.fleet.json']).clusters.map((c: { topology: string }) => c.topology)).toEqual([
      'SingleReplica',
      'HighlyAvailable',
      'HighlyAvailable',
    ]);
  });

  test('--only that matches nothing is an error naming the clusters', () => {
    fleet();
    const r = synth('--only', 'nope');
    expect(r.code).toBe(EXIT_INVALID_INPUT);
    expect(r.err).toBe('error: no cluster matches --only nope; clusters: alpha, beta, gamma\n');
  });

  test('--only that matches nothing renders nothing first (clusters go to render as they load, but not these)', () => {
    // GIVEN a fleet never rendered (no output to keep: without --only, every cluster would be rendered)
    fleet();
    const out = path.join(root, 'dist');
    const tree = OutputTree.open(out);
    // WHEN synth is asked for a name that is not in it
    const run = () => synthesizeInto({ clusters: path.join(root, 'clusters'), out, only: ['nope'] }, tree);
    // THEN it fails before any cluster was staged
    expect(run).toThrow('no cluster matches --only nope; clusters: alpha, beta, gamma');
    const staged = () =>
      fs
        .readdirSync(root)
        .filter((n) => n.startsWith('.dist.new-'))
        .flatMap((n) => fs.readdirSync(path.join(root, n)));
    expect(staged()).toEqual([]);
    tree.close();
    expect(fs.readdirSync(root).filter((n) => n.startsWith('.dist'))).toEqual([]);
  });

  test('--check passes on a fresh tree and fails, listing files, on a stale one; it never writes', () => {
    fleet();
    synth('-q');
    const check = synth('--check');
    expect(check.code).toBe(EXIT_OK);
    expect(check.out).toBe(`${path.join(root, 'dist')} is up to date (3 clusters)\n`);
    writeFile(root, 'clusters/b.yaml', awsSpec('beta', { controlPlaneTopology: 'SingleReplica' }));
    fs.writeFileSync(path.join(root, 'dist', 'stray.yaml'), 'x');
    const before = readTree(path.join(root, 'dist'));
    const stale = synth('--check');
    expect(stale.code).toBe(EXIT_INVALID_INPUT);
    const out = path.join(root, 'dist');
    expect(stale.err).toBe(
      [
        `error: ${out} is stale (6 files); run ccm-gitops synth and commit the result`,
        `  changed: ${out}/.fleet.json`,
        `  changed: ${out}/FLEET.md`,
        `  changed: ${out}/beta/04-workloads/deployment.openshift-cloud-controller-manager.aws-cloud-controller-manager.yaml`,
        `  changed: ${out}/beta/05-policies/kustomization.yaml`,
        `  extra: ${out}/beta/05-policies/poddisruptionbudget.openshift-cloud-controller-manager.aws-cloud-controller-manager.yaml`,
        `  extra: ${out}/stray.yaml`,
        '',
      ].join('\n'),
    );
    expect(readTree(out)).toEqual(before);
  });
});

describe('ccm-gitops cloud-config transform', () => {
  const run = (args: string[], input: string) => {
    let out = '';
    let err = '';
    const code = runCli(
      ['cloud-config', 'transform', ...args],
      {
        out: (t) => {
          out += t;
        },
        err: (t) => {
          err += t;
        },
        in: () => input,
      },
      {},
    );
    return { code, out, err };
  };

  test('transforms standard input to standard output, warnings on standard error', () => {
    const r = run(['--platform', 'OpenStack'], '[Global]\nsecret-name = openstack-credentials\n');
    expect(r.code).toBe(EXIT_OK);
    expect(r.out).toBe(
      '[Global]\nuse-clouds  = true\nclouds-file = /etc/openstack/secret/clouds.yaml\ncloud       = openstack\n\n' +
        '[LoadBalancer]\nmax-shared-lb          = 1\nmanage-security-groups = true\n',
    );
    expect(r.err).toBe("warning: '[Global] secret-name' (line 2) is dropped: the external CCM reads credentials from the cluster's clouds.yaml\n");
  });

  test("a refused config exits 2 with the operator's message and the line", () => {
    const r = run(['-p', 'OpenStack'], '[Global]\nsecret-name = my-creds\n');
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toBe(
      'error: line 2: \'[Global] secret-name\' is set to a non-default value "my-creds"; remove it or set it to "openstack-credentials": ' +
        "the external CCM reads credentials from the cluster's clouds.yaml\n",
    );
  });

  test('--cluster takes the region, endpoints and feature gates from the spec and its folder defaults', () => {
    writeFile(root, 'defaults.yaml', {
      apiVersion: 'ccm-gitops.io/v1alpha1',
      kind: 'CloudControllerManagerDefaults',
      spec: { aws: { region: 'eu-west-1' } },
    });
    const spec = writeFile(
      root,
      'x/c.yaml',
      awsSpec('c', {
        aws: { serviceEndpoints: [{ name: 'ec2', url: 'https://ec2.example.com' }] },
        featureGates: { enabled: ['AWSServiceLBNetworkSecurityGroup'] },
      }),
    );
    const r = run(['-p', 'AWS', '--cluster', spec, '--clusters', root], '');
    expect(r.code).toBe(EXIT_OK);
    expect(r.out).toContain('NLBSecurityGroupMode                            = Managed\n');
    expect(r.out).toContain('[ServiceOverride "0"]\nService       = ec2\nRegion        = eu-west-1\n');
  });

  test('--cluster runs the same transform as synth: vSphere vCenters and the Azure cloud come from the spec', () => {
    const vsphere = writeFile(root, 'v.yaml', platformSpec('VSphere', 'v', { vsphere: { vcenters: [{ server: 'vc1', datacenters: ['dc1'] }] } }));
    const v = run(['-p', 'VSphere', '--cluster', vsphere], '[Global]\ninsecure-flag = 1\n');
    expect(v.code).toBe(EXIT_OK);
    // The spec's release 4.22 writes the Go structs' field order.
    expect(v.out).toBe('global:\n  insecureFlag: true\nvcenter:\n  vc1:\n    server: vc1\n    datacenters:\n    - dc1\n');
    const azure = writeFile(root, 'a.yaml', platformSpec('Azure', 'a', { azure: { cloudName: 'AzureUSGovernmentCloud' } }));
    expect(JSON.parse(run(['-p', 'Azure', '--cluster', azure], '{}').out).cloud).toBe('AzureUSGovernmentCloud');
    writeFile(root, 'h.json', '{}');
    writeFile(root, 'e.json', '{}');
    const ash = writeFile(
      root,
      'h.yaml',
      platformSpec('Azure', 'h', { azure: { cloudName: 'AzureStackCloud' }, cloudConfig: { file: 'h.json', extraKeys: { endpoints: 'e.json' } } }),
    );
    expect(run(['-p', 'Azure', '--cluster', ash], '{}').err).toBe(`error: --platform Azure does not match the platform of ${ash} (AzureStackHub)\n`);
    expect(run(['-p', 'AzureStackHub', '--cluster', ash], '{}').code).toBe(EXIT_OK);
  });

  test('other options, a mismatching spec and an unknown platform', () => {
    expect(JSON.parse(run(['-p', 'Azure', '--azure-cloud-name', 'AzureChinaCloud'], '{}').out).cloud).toBe('AzureChinaCloud');
    const spec = writeFile(root, 'c.yaml', awsSpec('c'));
    expect(run(['-p', 'OpenStack', '--cluster', spec], '').err).toBe(`error: --platform OpenStack does not match the platform of ${spec} (AWS)\n`);
    const bogus = run(['-p', 'Bogus'], '');
    expect(bogus.code).toBe(2);
    expect(bogus.err).toBe(
      'error: unknown platform "Bogus"; use one of AWS, Azure, AzureStackHub, GCP, IBMCloud, PowerVS, OpenStack, VSphere, Nutanix, AlibabaCloud\n',
    );
  });
});
