// The control-plane suite's coverage, checked without a server (so `npm test` runs it): the examples and the
// extra trees together stand for every OpenShift platform in both modes, every kubernetes provider and every
// output mode, the transitions walk every migration phase on both distributions, and each extra tree renders.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { objectsOf, yamlFilesUnder } from './api';
import { coverageOf, EXTRA_TREES, extraTreeSpec, renderExtraTree, TRANSITION_CASES } from './coverage';
import { MIGRATION_PHASES } from '../../src/cluster-spec/sections/migration';
import { CASES, renderPhases } from '../helpers/rendered-phases';
import { OUTPUT_MODES } from '../../src/cluster-spec/sections/kubernetes';
import { loadFleet } from '../../src/fleet/load';
import { UPSTREAM_PROVIDERS } from '../../src/kubernetes/providers';
import { PLATFORMS } from '../../src/openshift/platforms';
import { tempDir } from '../helpers';

const ROOT = path.join(__dirname, '..', '..');

describe('what the control-plane suite applies', () => {
  it('covers every OpenShift platform in gitops and operator mode, every kubernetes provider and every output mode', async () => {
    // GIVEN the example specs (rendered into dist/) and the extra trees
    const examples = loadFleet(path.join(ROOT, 'clusters')).clusters.map((c) => c.spec as unknown as Record<string, any>);
    const extras = await Promise.all(EXTRA_TREES.map(extraTreeSpec));
    // WHEN their platforms, modes, providers and output modes are listed
    const covered = [...new Set([...examples, ...extras].flatMap(coverageOf))].sort();
    // THEN nothing the product renders is left out
    const platforms = [...Object.keys(PLATFORMS), 'AzureStackHub'];
    expect(covered).toEqual(
      [
        ...platforms.flatMap((p) => [`openshift ${p} gitops`, `openshift ${p} operator`]),
        ...Object.keys(UPSTREAM_PROVIDERS).map((p) => `kubernetes ${p}`),
        ...OUTPUT_MODES.map((m) => `output ${m}`),
      ].sort(),
    );
  });

  it.each(TRANSITION_CASES)('the transitions walk every migration phase of "%s"', (name) => {
    // GIVEN the case the transitions apply forward and back
    const dir = tempDir('ccm-gitops-cp-coverage-');
    try {
      // WHEN its phases are rendered
      const phases = [
        ...renderPhases(
          CASES.find((c) => c.name === name)!,
          dir,
        ).keys(),
      ];
      // THEN they are every phase, in order
      expect(phases).toEqual([...MIGRATION_PHASES]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the transitions walk one kubernetes and one OpenShift case', () => {
    expect(TRANSITION_CASES.map((n) => n.split(' ')[0]).sort()).toEqual(['OpenShift', 'kubernetes']);
  });

  it.each(EXTRA_TREES.map((t) => [t.name, t] as const))('the extra tree "%s" renders the operator', async (_name, tree) => {
    // GIVEN the spec and its files WHEN synth renders it THEN the tree holds the operator Deployment
    const dir = tempDir('ccm-gitops-cp-coverage-');
    try {
      const objects = yamlFilesUnder(await renderExtraTree(tree, dir)).flatMap(objectsOf);
      expect(objects.filter((o) => o.kind === 'Deployment').map((o) => o.metadata.name)).toContain('cluster-cloud-controller-manager-operator');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
