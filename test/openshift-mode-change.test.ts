import { renderCluster } from '../src/pipeline/render';
import { platformSpec, preparedCluster } from './helpers';
import { Override } from './oracle/cvo/model';
import {
  changeMode,
  fights,
  handOver,
  installedCluster,
  operandIds,
  operatorRuns,
  sectionActions,
  Tree,
  unmanagedOperands,
} from './oracle/cvo/mode-change';

/** The rendered `dist/<name>/` tree of a spec. */
function tree(platform: string, mode: 'gitops' | 'operator', engine: 'argocd' | 'flux', release: string): Tree {
  const spec = platformSpec(platform, 'm', {
    managementMode: mode,
    gitops: { engine, repoURL: 'https://git.example.com/fleet.git' },
    openshift: { release },
  });
  return Object.fromEntries(
    renderCluster(preparedCluster(spec))
      .files.filter((f) => f.path.startsWith('m/'))
      .map((f) => [f.path.slice(2), f.content]),
  );
}

/** An override the cluster had before ccm-gitops: it must survive every mode change. */
const OWN: Override = { kind: 'Deployment', group: 'apps', namespace: 'openshift-monitoring', name: 'prometheus-operator', unmanaged: true };

const CASES = (['AWS', 'Azure', 'GCP', 'VSphere'] as const).flatMap((platform) =>
  (['argocd', 'flux'] as const).flatMap((engine) => ['4.22.3', '4.23.1'].map((release) => [platform, engine, release] as const)),
);

describe('gitops → operator → gitops, replayed from the rendered trees (CVO model)', () => {
  test.each(CASES)(
    "%s with %s on %s: no object has two writers for ever, no operand is deleted or left unmanaged, the cluster's own override stays",
    (platform, engine, release) => {
      // GIVEN the trees of both modes and a cluster installed by the release, with an override of its own
      const gitops = tree(platform, 'gitops', engine, release);
      const operator = tree(platform, 'operator', engine, release);
      const operands = operandIds(gitops);
      expect(operands.size).toBeGreaterThan(3);
      const state = installedCluster(operands, [OWN], gitops);

      const after = (leg: string) => ({
        leg,
        fights: fights(state, operands),
        unmanaged: unmanagedOperands(state, operands),
        deleted: [...state.operandsDeleted],
        own: state.overrides.some((o) => o.namespace === OWN.namespace),
        operator: operatorRuns(state),
      });

      // WHEN it is handed over in gitops mode, goes back to operator mode by the way back, and moves to gitops mode again
      handOver(state, gitops, operands);
      const legs = [after('gitops')];
      changeMode(state, operator, operands);
      legs.push(after('operator'));
      changeMode(state, gitops, operands);
      legs.push(after('gitops again'));

      // THEN after each leg one writer per object, every operand kept and written (by GitOps, or by the operator, back in operator mode), the own override kept
      const clean = (leg: string, operator: boolean) => ({ leg, fights: [], unmanaged: [], deleted: [], own: true, operator });
      expect(legs).toEqual([clean('gitops', false), clean('operator', true), clean('gitops again', false)]);
    },
  );
});

describe('the commands the replay runs', () => {
  test("GIVEN the gitops tree WHEN its way back is read THEN GitOps stops, the operands leave it unpruned, the merge follows the operator tree's hand over", () => {
    const argo = sectionActions(tree('AWS', 'gitops', 'argocd', '4.23.1')['HANDOVER.md'], 'Way back');
    expect(argo.map((a) => a.do)).toEqual(['suspend', 'untrack', 'untrack', 'merge', 'follow-hand-over']);
    expect(argo[1]).toEqual({
      do: 'untrack',
      refs: [
        'admissionregistration.k8s.io/validatingadmissionpolicy//openshift-cloud-controller-manager-cloud-provider-aws',
        'admissionregistration.k8s.io/validatingadmissionpolicybinding//openshift-cloud-controller-manager-cloud-provider-aws',
      ],
    });
    const flux = sectionActions(tree('AWS', 'gitops', 'flux', '4.23.1')['HANDOVER.md'], 'Way back');
    expect(flux.map((a) => a.do)).toEqual(['suspend', 'prune-disabled', 'prune-disabled', 'merge', 'follow-hand-over']);
  });

  test("GIVEN the operator tree WHEN its hand over is read THEN it sets the operator mode's overrides keeping the cluster's own, then syncs", () => {
    const actions = sectionActions(tree('AWS', 'operator', 'argocd', '4.23.1')['HANDOVER.md'], 'Hand over');
    expect(actions.map((a) => a.do)).toEqual(['suspend', 'merge', 'set-overrides', 'sync']);
    const set = actions[2] as Extract<(typeof actions)[number], { do: 'set-overrides' }>;
    expect(set.set.map((o) => `${o.kind} ${o.name}`)).toEqual([
      'ConfigMap cloud-controller-manager-images',
      'Deployment cluster-cloud-controller-manager-operator',
    ]);
    expect(set.ours.map((k) => k.join(' '))).toEqual([
      'ClusterOperator config.openshift.io  cloud-controller-manager',
      'ConfigMap  openshift-cloud-controller-manager-operator cloud-controller-manager-images',
      'Deployment apps openshift-cloud-controller-manager-operator cluster-cloud-controller-manager-operator',
    ]);
  });
});
