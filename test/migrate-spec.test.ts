import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'yaml';
import { EXIT_INVALID_INPUT, EXIT_OK, EXIT_USAGE, runCli } from '../src/cli';
import { convertLegacyTls, migrateSpecText } from '../src/spec-migrations/migrate-spec';
import { INTERMEDIATE_TLS, resolveTlsProfile, TLS_CIPHER_SUITES, TLS_VERSIONS, tlsFlags, TlsVersion } from '../src/cluster-spec/tls';
import { AWS_IMAGE, captureIo, useTempDir, writeFile } from './helpers';

const dir = useTempDir();

function run(args: string[]): { code: number; stdout: string; stderr: string } {
  const { io, stdout, stderr } = captureIo();
  const code = runCli(args, io, {});
  return { code, stdout: stdout(), stderr: stderr() };
}

/** A spec in the form before the TLS change (ccm-gitops before 0.1.0), with comments. */
function legacySpec(name: string, tls: string): string {
  return `# yaml-language-server: $schema=../schema/cluster-spec.schema.json
# An OpenShift cluster on AWS.
apiVersion: ccm-gitops.io/v1alpha1
kind: CloudControllerManagerCluster
metadata:
  name: ${name}
spec:
  distribution: openshift
  platform: AWS
  infrastructureName: ${name}-x7k2p
  images:
    cloudControllerManagerAWS: ${AWS_IMAGE}
  tls:   # the serving endpoints
${tls}
  gitops:
    engine: plain   # applied by hand
  openshift:
    release: 4.22.3
`;
}

/** The flags the spec rendered before the change: the Intermediate suites when none were given below TLS 1.3. */
function legacyFlags(minVersion: TlsVersion = 'VersionTLS12', cipherSuites?: string[]): string[] {
  return tlsFlags({ minVersion, cipherSuites: cipherSuites ?? INTERMEDIATE_TLS.cipherSuites });
}

function renderedTlsFlags(root: string, name: string): string[] {
  const deployment = parse(
    fs.readFileSync(
      path.join(root, 'dist', name, '04-workloads', 'deployment.openshift-cloud-controller-manager.aws-cloud-controller-manager.yaml'),
      'utf8',
    ),
  );
  const container = deployment.spec.template.spec.containers.find((c: any) => c.name === 'cloud-controller-manager');
  const words: string[] = [...(container.command ?? []), ...(container.args ?? [])].join(' ').split(/\s+/);
  return words.filter((w) => w.startsWith('--tls-')).map((w) => w.replace(/[\\'"]+$/, ''));
}

describe('ccm-gitops migrate-spec: the TLS change', () => {
  test('GIVEN a spec in the old TLS form WHEN synth runs THEN the error names the replacement and migrate-spec', () => {
    const root = dir();
    writeFile(root, 'clusters/a.yaml', legacySpec('a', '    minVersion: VersionTLS12'));
    const synth = run(['synth', '-c', path.join(root, 'clusters'), '-o', path.join(root, 'dist')]);
    expect(synth.code).toBe(EXIT_INVALID_INPUT);
    expect(synth.stderr).toContain(
      'a.yaml:14: spec.tls.minVersion: was replaced by spec.tls.profile (and minTLSVersion with profile Custom) in ccm-gitops 0.1.0; ' +
        'run `ccm-gitops migrate-spec --write <file>` to convert it',
    );
  });

  test.each([
    ['TLS 1.2, default suites → Intermediate', '    minVersion: VersionTLS12', 'VersionTLS12', undefined, { profile: 'Intermediate' }],
    [
      'nothing but the suites of Intermediate → Intermediate',
      `    cipherSuites: [${INTERMEDIATE_TLS.cipherSuites.join(', ')}]`,
      undefined,
      [...INTERMEDIATE_TLS.cipherSuites],
      { profile: 'Intermediate' },
    ],
    ['TLS 1.3 → Modern', '    minVersion: VersionTLS13', 'VersionTLS13', undefined, { profile: 'Modern' }],
    [
      'TLS 1.2, own suites → Custom',
      '    minVersion: VersionTLS12\n    cipherSuites:\n      - TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
      'VersionTLS12',
      ['TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256'],
      { profile: 'Custom', minTLSVersion: 'VersionTLS12', ciphers: ['TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256'] },
    ],
    [
      'TLS 1.0, default suites → Custom (Old has more suites)',
      '    minVersion: VersionTLS10',
      'VersionTLS10',
      undefined,
      { profile: 'Custom', minTLSVersion: 'VersionTLS10', ciphers: [...INTERMEDIATE_TLS.cipherSuites] },
    ],
  ] as const)(
    '%s: --write converts it, keeps the comments, and the CCM gets the same --tls flags as before',
    (_, tls, minVersion, suites, expected) => {
      const root = dir();
      const file = writeFile(root, 'clusters/a.yaml', legacySpec('a', tls));
      const write = run(['migrate-spec', '--write', path.join(root, 'clusters')]);
      expect(write.code).toBe(EXIT_OK);
      expect(write.stdout).toMatch(
        new RegExp(
          `^converted ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: spec\\.tls: \\{.*\\} → \\{profile: ${expected.profile}.*\\} \\(tls-profile, 0\\.1\\.0\\)\n`,
        ),
      );
      const text = fs.readFileSync(file, 'utf8');
      expect(parse(text).spec.tls).toEqual(expected);
      expect(text).toContain('# An OpenShift cluster on AWS.\n');
      expect(text).toContain('engine: plain # applied by hand');
      expect(run(['synth', '-c', path.join(root, 'clusters'), '-o', path.join(root, 'dist'), '-q']).code).toBe(EXIT_OK);
      expect(renderedTlsFlags(root, 'a')).toEqual(legacyFlags(minVersion, suites ? [...suites] : undefined));
    },
  );

  test('without --write: lists what needs converting, exit 1, files untouched; after --write: exit 0', () => {
    const root = dir();
    const spec = writeFile(root, 'clusters/a.yaml', legacySpec('a', '    minVersion: VersionTLS13'));
    const defaults = writeFile(
      root,
      'clusters/defaults.yaml',
      'apiVersion: ccm-gitops.io/v1alpha1\nkind: CloudControllerManagerDefaults\nspec:\n  tls:\n    minVersion: VersionTLS12\n',
    );
    writeFile(root, 'clusters/b.yaml', legacySpec('b', '    profile: Modern'));
    const before = fs.readFileSync(spec, 'utf8');
    const check = run(['migrate-spec', path.join(root, 'clusters')]);
    expect(check.code).toBe(EXIT_INVALID_INPUT);
    expect(check.stdout).toBe(
      `${spec}: spec.tls: {minVersion: VersionTLS13} → {profile: Modern} (tls-profile, 0.1.0)\n` +
        `${defaults}: spec.tls: {minVersion: VersionTLS12} → {profile: Intermediate} (tls-profile, 0.1.0)\n`,
    );
    expect(check.stderr).toBe(`2 files need conversion; run ccm-gitops migrate-spec --write ${path.join(root, 'clusters')}\n`);
    expect(fs.readFileSync(spec, 'utf8')).toBe(before);

    expect(run(['migrate-spec', '--write', path.join(root, 'clusters')]).code).toBe(EXIT_OK);
    expect(fs.readdirSync(path.join(root, 'clusters')).sort()).toEqual(['a.yaml', 'b.yaml', 'defaults.yaml']);
    expect(run(['migrate-spec', path.join(root, 'clusters')])).toEqual({
      code: EXIT_OK,
      stdout: '3 files checked; none needs conversion\n',
      stderr: '',
    });
    expect(run(['validate-spec', path.join(root, 'clusters')]).code).toBe(EXIT_OK);
  });

  test('a path that does not exist is a usage error', () => {
    expect(run(['migrate-spec', path.join(dir(), 'nope')]).code).toBe(EXIT_USAGE);
  });

  test('every old setting converts to one that renders the same flags', () => {
    const suiteLists: (string[] | undefined)[] = [
      undefined,
      [...INTERMEDIATE_TLS.cipherSuites],
      ['TLS_RSA_WITH_AES_128_CBC_SHA'],
      [...INTERMEDIATE_TLS.cipherSuites].reverse(),
      TLS_CIPHER_SUITES.filter((s) => !s.includes('RC4') && !s.includes('3DES')),
    ];
    for (const minVersion of [undefined, ...TLS_VERSIONS]) {
      for (const cipherSuites of suiteLists) {
        const converted = convertLegacyTls({ minVersion, cipherSuites });
        expect(tlsFlags(resolveTlsProfile(converted))).toEqual(legacyFlags(minVersion, cipherSuites));
      }
    }
  });

  test('text in the current form comes back unchanged, byte for byte', () => {
    const text = legacySpec('a', '    profile: Custom\n    minTLSVersion: VersionTLS12\n    ciphers: [ECDHE-RSA-AES128-GCM-SHA256]');
    expect(migrateSpecText(text)).toEqual({ text, changes: [] });
  });
});
