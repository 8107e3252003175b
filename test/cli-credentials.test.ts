import * as fs from 'fs';
import * as path from 'path';
import { EXIT_INVALID_INPUT, EXIT_USAGE, runCli } from '../src/cli';
import { describeValue } from '../src/cluster-spec/errors';
import { holdsCredentials, redactMessage } from '../src/secrets/message-redaction';
import { awsSpec, captureIo, platformSpec, useTempDir, writeFile } from './helpers';

/** A value a message echoes never prints a credential: messages name the field, the formatter takes the secret out. */
describe('credentials echoed in messages', () => {
  const dir = useTempDir();
  const PASSWORD = 'S3cretPw';
  const TOKEN = `ghp_${'a1B2c3D4e5'.repeat(3)}abcdef`;

  function validate(spec: Record<string, unknown>): { code: number; out: string; stderr: string } {
    const clusters = path.join(dir(), 'clusters');
    writeFile(clusters, 'c.yaml', spec);
    const cap = captureIo();
    const code = runCli(['validate-spec', clusters], cap.io, {});
    return { code, out: cap.stdout() + cap.stderr(), stderr: cap.stderr() };
  }

  test('an image with user:password@ before the registry is named, never printed', () => {
    // GIVEN an image reference with registry credentials in it
    const { code, out, stderr } = validate(awsSpec('c', { images: { cloudControllerManagerAWS: `admin:${PASSWORD}@registry.example.com/ccm:v1` } }));
    // THEN the message names the field and does not print the value
    expect(code).toBe(EXIT_INVALID_INPUT);
    expect(stderr).toContain(
      'spec.images.cloudControllerManagerAWS: embeds registry credentials (a user before the registry host); registry credentials go in an imagePullSecret ' +
        '(spec.kubernetes.imagePullSecrets), never in the image reference',
    );
    expect(out).not.toContain(PASSWORD);
  });

  test('an scp-like repoURL with a password is named, never printed', () => {
    const { code, out, stderr } = validate(awsSpec('c', { gitops: { engine: 'argocd', repoURL: `git:${PASSWORD}@host:org/fleet.git` } }));
    expect(code).toBe(EXIT_INVALID_INPUT);
    expect(stderr).toContain(
      'spec.gitops.repoURL: embeds credentials (user:password@); give the engine a repository Secret instead (spec.gitops.flux.secretRef, or an Argo CD repository credential)',
    );
    expect(out).not.toContain(PASSWORD);
  });

  test('the vSphere vCenter mismatch names the servers without their credentials', () => {
    // GIVEN vCenter servers written with user:password@
    const { code, out, stderr } = validate(
      platformSpec('VSphere', 'c', {
        vsphere: {
          vcenters: [
            { server: `admin:${PASSWORD}@vc1.example.com`, datacenters: ['dc1'] },
            { server: 'vc2.example.com', datacenters: ['dc1'] },
          ],
          failureDomains: [{ name: 'a', region: 'r', zone: 'z', server: `root:${PASSWORD}@vc9.example.com`, topology: { datacenter: 'dc1' } }],
        },
      }),
    );
    // THEN the mismatch is reported, each value holding credentials replaced
    expect(code).toBe(EXIT_INVALID_INPUT);
    expect(stderr).toContain(
      'spec.vsphere.vcenters.0.server: embeds credentials (user:password@); give the vCenter host name only; its credentials go in the vSphere credentials Secret',
    );
    expect(stderr).toContain(
      'spec.vsphere.failureDomains.0.server: embeds credentials (user:password@); give the vCenter host name only; its credentials go in the vSphere credentials Secret',
    );
    expect(out).not.toContain(PASSWORD);
  });

  test.each([
    ['user:password@', `https://bot:${PASSWORD}@git.example.com/platform/fleet.git`],
    ['a GitHub token', `https://${TOKEN}@github.com/o/fleet.git`],
    ['scp-like user:password@', `git:${PASSWORD}@host:org/fleet.git`],
    ['a token in the query string', `https://git.example.com/platform/fleet.git?private_token=${PASSWORD}`],
    ['an access token in the fragment', `https://git.example.com/platform/fleet.git#access_token=${PASSWORD}`],
  ])('init --repo-url with %s: exit 2, the option named, the value never printed, nothing written', (_, url) => {
    // GIVEN an empty folder WHEN init is given a repository URL with credentials
    const root = dir();
    const cap = captureIo();
    const code = runCli(['init', root, '--repo-url', url], cap.io, {});
    // THEN it refuses, naming the option and the fix
    expect(code).toBe(EXIT_USAGE);
    expect(cap.stderr()).toBe(
      'error: --repo-url holds credentials, a user name before the host or a token in its query (user:password@, token@, ?token=); give the URL without them, ' +
        'and the GitOps engine a repository credential (an Argo CD repository Secret, or spec.gitops.flux.secretRef); nothing was written\n',
    );
    expect(cap.stdout() + cap.stderr()).not.toContain(PASSWORD);
    expect(cap.stderr()).not.toContain(TOKEN);
    expect(fs.readdirSync(root)).toEqual([]);
  });

  test('any line the CLI prints on standard error passes the formatter: a usage error echoing an argument', () => {
    const cap = captureIo();
    expect(runCli(['synth', '--jobs', `https://bot:${PASSWORD}@x.example.com`], cap.io, {})).toBe(EXIT_USAGE);
    expect(cap.stderr()).toBe('error: --jobs "https://<redacted>@x.example.com" is not a number of threads from 1 to 256\n');
  });

  test('the formatter takes out user:password@ with and without a scheme, and keeps registry ports and digests', () => {
    expect(redactMessage(`"admin:${PASSWORD}@registry.example.com/ccm:v1" and (git:${PASSWORD}@host:org/f.git, vc2)`)).toBe(
      '"<redacted>@registry.example.com/ccm:v1" and (<redacted>@host:org/f.git, vc2)',
    );
    expect(redactMessage('"registry.example.com:5000/ccm@sha256:0123" and git@github.com:org/f.git')).toBe(
      '"registry.example.com:5000/ccm@sha256:0123" and git@github.com:org/f.git',
    );
    expect([
      holdsCredentials(`admin:${PASSWORD}@r.example.com/x`),
      holdsCredentials('git@github.com:org/f.git'),
      holdsCredentials('r.example.com:5000/x@sha256:0'),
    ]).toEqual([true, false, false]);
    expect(describeValue(`https://bot:${PASSWORD}@git.example.com/f.git`)).toBe('a value holding credentials (not shown)');
  });
});
