import * as fs from 'fs';
import * as path from 'path';
import { anchor, SPEC_REFERENCE_PATH, specReferenceMarkdown } from '../src/docs/spec-reference';

const REPO = path.resolve(__dirname, '..');
const read = (f: string): string => fs.readFileSync(path.join(REPO, f), 'utf8');
const DOCS = fs
  .readdirSync(path.join(REPO, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .sort();

/** The sections of the README before it became a landing page, and where each went. */
const MOVED_SECTIONS: readonly [string, string][] = [
  ['Rendering', 'rendering.md'],
  ['Writing a cluster spec', 'writing-specs.md'],
  ['Fleets: folders and defaults', 'writing-specs.md'],
  ['Platforms', 'platforms.md'],
  ['Importing a live cluster', 'importing.md'],
  ['Migrating from the in-tree provider', 'migration.md'],
  ['Vanilla Kubernetes (distribution `kubernetes`)', 'kubernetes.md'],
  ['Cloud-config transforms', 'cloud-config.md'],
  ['Output layout', 'output-layout.md'],
  ['Pointing Argo CD or Flux at it', 'gitops.md'],
  ['Reviewing changes', 'reviewing-changes.md'],
  ['Management modes and handing over from the operator', 'operator-handover.md'],
  ['Security posture', 'security.md'],
  ['Error catalogue', 'errors.md'],
  ['Deviations from the operator', 'deviations.md'],
  ['Development', 'development.md'],
  ['Performance', 'performance.md'],
  ['Determinism and robustness', 'determinism.md'],
];

/** Markdown links outside code blocks: [text](target). */
function links(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
}

function headings(markdown: string): string[] {
  return [...markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} (.*)$/gm)].map((m) => anchor(m[1]));
}

describe('README: the landing page', () => {
  const readme = read('README.md');

  test('is under 10 KB', () => {
    expect(Buffer.byteLength(readme)).toBeLessThan(10_000);
  });

  test('shows the two set-up commands on the first screen', () => {
    const firstScreen = readme.split('\n').slice(0, 25).join('\n');
    expect(firstScreen).toContain('npm ci && npm run synth');
    expect(firstScreen).toContain('npm ci && npm test');
  });

  test('has the walkthrough from init to a reviewed pull request', () => {
    const walkthrough = readme.slice(readme.indexOf('## Five minutes from `init` to a reviewed pull request'));
    for (const step of [
      'npm install',
      'npx ccm-gitops init',
      'npx ccm-gitops validate-spec clusters',
      'npx ccm-gitops synth',
      'npx ccm-gitops diff',
      'kubectl apply -k dist/_fleet/argocd/cluster/<cluster>/root',
    ]) {
      expect(walkthrough).toContain(step);
    }
  });

  test('GIVEN a package that is not on the npm registry WHEN a reader copies an install line THEN it names a tarball of this version or the git repository (no tag: none is pushed), never the bare name', () => {
    const version = (JSON.parse(read('package.json')) as { version: string }).version;
    const pages = ['README.md', 'docs/installing.md', 'docs/api.md', 'docs/versioning.md', 'examples/cdk8s-app/README.md'];
    const installs = pages.flatMap((f) => [...read(f).matchAll(/npm install (?:--save-exact )?(\S+)/g)].map((m) => `${f}: ${m[1]}`));
    // the package name alone (or with @version) resolves on the registry, where it does not exist
    expect(installs.filter((l) => /: ccm-gitops(@\S*)?$/.test(l))).toEqual([]);
    const walkthrough = readme.slice(readme.indexOf('## Five minutes'));
    expect(walkthrough).toMatch(/npm install --save-exact git\+https:\/\/<git-host>\/<org>\/ccm-gitops\.git(?!#)/);
    expect(walkthrough).toContain(`npm install --save-exact ./ccm-gitops-${version}.tgz`);
    const installing = read('docs/installing.md');
    // the placeholder is explained, the build step and the warning are named
    expect(installing).toContain('`<git-host>/<org>` stands for');
    expect(installing).toContain('runs its `prepare` script');
    expect(installing).toContain('npm warn install-scripts');
    expect(installing).toContain('npm install-scripts approve ccm-gitops');
  });

  test('links every page of docs/', () => {
    const targets = new Set(links(readme).map((l) => l.split('#')[0]));
    expect(DOCS.map((f) => `docs/${f}`).filter((f) => !targets.has(f))).toEqual([]);
  });
});

describe('docs/', () => {
  test('every section moved out of the README is a section of its page', () => {
    for (const [title, page] of MOVED_SECTIONS) {
      expect([page, headings(read(`docs/${page}`))]).toEqual([page, expect.arrayContaining([anchor(title)])]);
    }
  });

  test('each page starts from what the reader wants to do', () => {
    for (const f of DOCS) {
      const text = read(`docs/${f}`).replace(/^<!--.*-->\n/, '');
      const intro = text.split('\n\n')[1] ?? '';
      expect([f, /^# /.test(text), /\byou\b/i.test(intro)]).toEqual([f, true, true]);
    }
  });

  test('every relative link in README, CHANGELOG, docs/ and the example READMEs resolves, anchors included', () => {
    const files = ['README.md', 'CHANGELOG.md', 'examples/cdk8s-app/README.md', ...DOCS.map((f) => `docs/${f}`)];
    const broken: string[] = [];
    for (const file of files) {
      for (const link of links(read(file))) {
        if (/^[a-z]+:/.test(link)) {
          continue;
        }
        const [target, hash] = link.split('#');
        const resolved = target === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), target));
        if (!fs.existsSync(path.join(REPO, resolved))) {
          broken.push(`${file}: ${link} (no ${resolved})`);
        } else if (hash && resolved.endsWith('.md') && !headings(read(resolved)).includes(hash)) {
          broken.push(`${file}: ${link} (no heading #${hash} in ${resolved})`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  test(`${SPEC_REFERENCE_PATH} is what the JSON Schema generates (run npm run docs when this fails)`, () => {
    expect(read(SPEC_REFERENCE_PATH)).toBe(specReferenceMarkdown());
  });

  test('the spec reference lists every field of the schema', () => {
    const reference = read(SPEC_REFERENCE_PATH);
    for (const field of [
      'metadata.name',
      'spec.platform',
      'spec.tls.profile',
      'spec.tls.ciphers',
      'spec.gitops.argocd.namespace',
      'spec.aws.serviceEndpoints[].url',
      'spec.kubernetes.version',
      'spec.vsphere.failureDomains[].topology.datacenter',
    ]) {
      expect(reference).toContain(`| \`${field}\``);
    }
  });
});

describe('one story per topic', () => {
  test('GIVEN the pages that told one story twice WHEN a newcomer looks for one THEN there is one page, under the name they look for', () => {
    for (const gone of ['kubernetes-distribution.md', 'migrating.md', 'gitops-engines.md', 'openshift-handover.md', 'performance-figures.md']) {
      expect([gone, DOCS.includes(gone)]).toEqual([gone, false]);
    }
    for (const kept of ['kubernetes.md', 'migration.md', 'gitops.md', 'operator-handover.md', 'performance.md']) {
      expect([kept, DOCS.includes(kept)]).toEqual([kept, true]);
    }
  });

  test("GIVEN every page, the README and init WHEN they name where a cluster's entry point is THEN it is the path synth renders, never a bootstrap/ folder", () => {
    const texts = ['README.md', ...DOCS.map((f) => `docs/${f}`), 'src/init/scaffold.ts', 'src/init/command.ts'].map((f) => [f, read(f)] as const);
    expect(
      texts
        .filter(([, t]) => /bootstrap\/(argocd|flux)|_fleet\/argocd\/<namespace>|dist\/<cluster>\/gitops`? on that cluster/.test(t))
        .map(([f]) => f),
    ).toEqual([]);
    for (const f of ['README.md', 'docs/gitops.md']) {
      expect([f, read(f).includes('dist/_fleet/argocd/cluster/<cluster>/root')]).toEqual([f, true]);
    }
    expect(read('docs/gitops.md')).toContain('dist/_fleet/argocd/hub/<namespace>/root');
    expect(read('docs/gitops.md')).toContain('dist/<cluster>/flux-entry');
  });
});

describe('citations anyone can follow', () => {
  /** Every file of src/ (but the generated imports/) and docs/, with the README and ARCHITECTURE.md. */
  const cited = (): string[] => {
    const out: string[] = ['README.md', 'ARCHITECTURE.md'];
    const walk = (rel: string): void => {
      for (const e of fs.readdirSync(path.join(REPO, rel), { withFileTypes: true })) {
        const r = `${rel}/${e.name}`;
        if (e.isDirectory()) {
          if (r !== 'src/imports') {
            walk(r);
          }
        } else {
          out.push(r);
        }
      }
    };
    walk('src');
    walk('docs');
    return out.sort();
  };

  test('GIVEN src/, docs/, the README and ARCHITECTURE.md WHEN they cite THEN never a moving branch (@main, @master) nor a document no reader can open (seed, reference §)', () => {
    const moving = /@(main|master)\b|\bseed 0|reference §/i;
    const found = cited().flatMap((f) =>
      read(f)
        .split('\n')
        .flatMap((line, i) => (moving.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });
});
