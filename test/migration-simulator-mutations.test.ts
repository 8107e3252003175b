/**
 * Each migration bug, reintroduced into a rendered tree (or the plan's steps),
 * fails the simulator itself: the scenario is built from the mutated trees the
 * same way test/migration-simulator-rendered.test.ts builds it from the real ones.
 */
import { Controller, simulate } from './oracle/leader-migration/simulator';
import { CASES, RenderCase, renderPhases, transitions } from './helpers/rendered-phases';
import { upstreamCcmControllers } from './oracle/leader-migration/scenario';
import { Tree } from './oracle/leader-migration/trees';
import { kubernetesSpec, tempDir } from './helpers';

const rendered = new Map<string, Map<string, Tree>>();
function phasesOf(name: string): Map<string, Tree> {
  let t = rendered.get(name);
  if (!t) {
    t = renderPhases(
      CASES.find((c) => c.name === name)!,
      tempDir(),
    );
    rendered.set(name, t);
  }
  return t;
}

/** The violations (`kind controller`) of one phase change of a case whose trees `mutate` changed. */
function violations(name: string, move: string, mutate: (trees: Map<string, Tree>) => void): string[] {
  const trees = new Map(phasesOf(name));
  mutate(trees);
  const sc = transitions(
    CASES.find((c) => c.name === name)!,
    trees,
  ).find(([label]) => label === move);
  if (!sc) {
    throw new Error(`no phase change ${move}`);
  }
  return [...new Set(simulate(sc[1]).violations.map((v) => `${v.kind} ${v.controller}`))];
}

const withObjects = (t: Tree, objects: Map<string, any>): Tree => ({ ...t, objects });
const withControlPlane = (t: Tree, from: string | RegExp, to: string): Tree => {
  const text = t.controlPlane!.replace(from, to);
  if (text === t.controlPlane) {
    throw new Error(`mutation found nothing to replace: ${from}`);
  }
  return { ...t, controlPlane: text };
};
const withSteps = (t: Tree, direction: 'enter' | 'rollback', order: (steps: any[]) => any[]): Tree => ({
  ...t,
  plan: { ...t.plan, [direction]: { ...t.plan[direction], steps: order([...t.plan[direction].steps]) } },
});

describe('the simulator fails each bug reintroduced into the rendered trees', () => {
  test.each(['OpenShift AWS 4.13', 'kubernetes AWS 1.26 (DaemonSet, rolling)'])(
    '%s: a CCM rendered with leader migration in leader-migration-kcm runs beside the KCMs going forward',
    (name) => {
      // GIVEN the leader-migration-kcm tree carrying what leader-migration-ccm adds (the CCM with its own file)
      const v = violations(name, 'in-tree → leader-migration-kcm', (trees) => {
        const kcm = trees.get('leader-migration-kcm')!;
        const objects = new Map(kcm.objects);
        for (const [k, o] of trees.get('leader-migration-ccm')!.objects) {
          if (!objects.has(k)) {
            objects.set(k, o);
          }
        }
        trees.set('leader-migration-kcm', withObjects(kcm, objects));
      });
      // THEN the merge starts the CCM while the KCMs still run the cloud controllers under their main lease
      expect(v).toEqual(expect.arrayContaining(['two-at-once service', 'two-at-once cloud-node-lifecycle']));
    },
  );

  test('OpenShift: the override removed before the FeatureGate merges puts an in-tree KCM without leader migration beside the CCM', () => {
    // GIVEN external-leader-migration's steps with the override removal moved before the merge
    const v = violations('OpenShift AWS 4.13', 'leader-migration-ccm → external-leader-migration', (trees) => {
      trees.set(
        'external-leader-migration',
        withSteps(trees.get('external-leader-migration')!, 'enter', (steps) => {
          const removal = steps.findIndex((s) => /oc patch kubecontrollermanager/.test(s.command ?? ''));
          const [step] = steps.splice(removal, 1);
          return [{ ...step, when: 'before-merge' }, ...steps];
        }),
      );
    });
    // THEN two at once, not "runs nowhere"
    expect(v).toEqual(['two-at-once service', 'two-at-once cloud-node-lifecycle']);
  });

  test("a 1.23 CCM given the file built at the KCM's minor (controllermanager.config.k8s.io/v1) exits, and nothing runs once the KCMs go external", () => {
    // GIVEN the 1.23 CCM's ConfigMap carrying the KCM's v1 apiVersion in every phase
    const v = violations('kubernetes AWS 1.24 with a 1.23 CCM image', 'leader-migration-ccm → external-leader-migration', (trees) => {
      for (const [phase, t] of trees) {
        const cm = t.objects.get('ConfigMap kube-system/ccm-leader-migration');
        if (cm) {
          const file = cm.data['config.yaml'].replace(/^apiVersion: \S+$/m, 'apiVersion: controllermanager.config.k8s.io/v1');
          trees.set(
            phase,
            withObjects(t, new Map(t.objects).set('ConfigMap kube-system/ccm-leader-migration', { ...cm, data: { 'config.yaml': file } })),
          );
        }
      }
    });
    expect(v).toEqual(['none-after-settling service', 'none-after-settling cloud-node-lifecycle']);
  });

  test('GCP: node IPAM switched off on the KCM in leader-migration-kcm, before any CCM runs it', () => {
    // GIVEN CONTROL-PLANE.md of leader-migration-kcm telling the administrator to stop allocating node CIDRs
    const v = violations('kubernetes GCP 1.28 with node IPAM and routes', 'in-tree → leader-migration-kcm', (trees) => {
      trees.set(
        'leader-migration-kcm',
        withControlPlane(
          trees.get('leader-migration-kcm')!,
          /^## kubeadm$/m,
          'Run kube-controller-manager with `--allocate-node-cidrs=false`.\n\n## kubeadm',
        ),
      );
    });
    // THEN nobody allocates pod CIDRs, and the KCM's route controller (which needs --allocate-node-cidrs) stops too
    expect(v).toEqual(['none-after-settling node-ipam', 'none-after-settling route']);
  });

  test('RKE2 in-tree told to switch the KCM external: rolling back to it leaves no cloud controller', () => {
    const v = violations('kubernetes AWS 1.26 on RKE2', 'leader-migration-kcm → in-tree', (trees) => {
      trees.set(
        'in-tree',
        withControlPlane(
          trees.get('in-tree')!,
          /^cloud-provider-name: aws$/m,
          'disable-cloud-controller: true\nkube-controller-manager-arg:\n  - cloud-provider=external',
        ),
      );
    });
    // (RKE2's KCM allocates node CIDRs and, with cloud-provider-name, keeps cloud routes on: in-tree it ran the route controller too)
    expect(v).toEqual(['none-after-settling service', 'none-after-settling cloud-node-lifecycle', 'none-after-settling route']);
  });

  test('RKE2 leader-migration-kcm without the file mounted into the KCM: the KCMs exit', () => {
    const v = violations('kubernetes AWS 1.26 on RKE2', 'in-tree → leader-migration-kcm', (trees) => {
      trees.set(
        'leader-migration-kcm',
        withControlPlane(trees.get('leader-migration-kcm')!, /^kube-controller-manager-extra-mount:\n( {2}- [^\n]*\n)+/m, ''),
      );
    });
    // (an exited KCM runs nothing: neither the cloud controllers nor the node IPAM RKE2 turns on in every KCM)
    expect(v).toEqual([
      'none-after-settling service',
      'none-after-settling cloud-node-lifecycle',
      'none-after-settling route',
      'none-after-settling node-ipam',
    ]);
  });

  test('RKE2 external keeping the in-tree cloud-provider-name: the KCM runs the cloud controllers beside the CCM', () => {
    const v = violations('kubernetes AWS 1.26 on RKE2', 'external-leader-migration → external', (trees) => {
      trees.set(
        'external',
        withControlPlane(
          trees.get('external')!,
          /^disable-cloud-controller: true\nkube-controller-manager-arg:\n {2}- cloud-provider=external\n/m,
          'cloud-provider-name: aws\ndisable-cloud-controller: true\nkube-controller-manager-arg:\n',
        ),
      );
      // the administrator applies the phase's RKE2 configuration ("restart one server at a time")
      const ext = trees.get('external')!;
      trees.set(
        'external',
        withSteps(ext, 'enter', (steps) => [
          ...steps,
          {
            when: 'after-merge',
            by: 'you (see CONTROL-PLANE.md)',
            action: 'apply CONTROL-PLANE.md',
            checks: [{ check: 'every kube-controller-manager restarted' }],
          },
        ]),
      );
    });
    expect(v).toEqual(expect.arrayContaining(['two-at-once service']));
  });

  test('Azure: the CCM deployed before the KCMs are external runs beside them', () => {
    // GIVEN in-tree → external with the merge (deploy the CCM) moved first
    const v = violations('kubernetes Azure 1.29', 'in-tree → external', (trees) => {
      trees.set(
        'external',
        withSteps(trees.get('external')!, 'enter', (steps) => {
          const merge = steps.findIndex((s) => s.when === 'merge');
          const [step] = steps.splice(merge, 1);
          return [step, ...steps];
        }),
      );
    });
    expect(v).toEqual(expect.arrayContaining(['two-at-once service', 'two-at-once cloud-node-lifecycle']));
  });

  test('GCP external-leader-migration with the KCM keeping node IPAM: it allocates beside the CCM', () => {
    const v = violations('kubernetes GCP 1.28 with node IPAM and routes', 'leader-migration-ccm → external-leader-migration', (trees) => {
      trees.set(
        'external-leader-migration',
        withControlPlane(trees.get('external-leader-migration')!, /\*,bootstrapsigner,tokencleaner,-nodeipam/g, '*,bootstrapsigner,tokencleaner'),
      );
    });
    expect(v).toEqual(['two-at-once node-ipam']);
  });

  test('GCP node IPAM handed to an AWS-like CCM that registers none: node IPAM runs nowhere', () => {
    // GIVEN the GCP trees simulated with the AWS CCM's registered controllers (kubernetes/cloud-provider-aws main.go: no node IPAM)
    const c = CASES.find((x) => x.name === 'kubernetes GCP 1.28 with node IPAM and routes')!;
    const sc = transitions({ ...c, platform: 'AWS' }, phasesOf(c.name)).find(([l]) => l === 'leader-migration-ccm → external-leader-migration')!;
    expect([...new Set(simulate(sc[1]).violations.map((v) => `${v.kind} ${v.controller}`))]).toEqual(['none-after-settling node-ipam']);
  });

  test("the CCM's leader-migration ConfigMap pruned while the CCM still reads it: the CCM exits and nothing runs once the KCMs go external", () => {
    // GIVEN external-leader-migration rendered without the ConfigMap its CCM mounts
    const v = violations('kubernetes AWS 1.26 (DaemonSet, rolling)', 'leader-migration-ccm → external-leader-migration', (trees) => {
      const t = trees.get('external-leader-migration')!;
      const objects = new Map(t.objects);
      objects.delete('ConfigMap kube-system/ccm-leader-migration');
      trees.set('external-leader-migration', withObjects(t, objects));
    });
    expect(v).toEqual(['none-after-settling service', 'none-after-settling cloud-node-lifecycle']);
  });

  test('an OpenShift CCM rendered with a renew deadline equal to its lease duration: client-go refuses it and the CCM exits', () => {
    // GIVEN external-leader-migration's CCM Deployment with --leader-elect-renew-deadline=137s (its lease duration)
    const v = violations('OpenShift AWS 4.13', 'leader-migration-ccm → external-leader-migration', (trees) => {
      const t = trees.get('external-leader-migration')!;
      const key = 'Deployment openshift-cloud-controller-manager/aws-cloud-controller-manager';
      const d = JSON.parse(JSON.stringify(t.objects.get(key)));
      const c = d.spec.template.spec.containers[0];
      c.command = c.command.map((x: string) => x.replace('--leader-elect-renew-deadline=107s', '--leader-elect-renew-deadline=137s'));
      trees.set('external-leader-migration', withObjects(t, new Map(t.objects).set(key, d)));
    });
    expect(v).toEqual(['none-after-settling service', 'none-after-settling cloud-node-lifecycle']);
  });
});

describe('what each CCM can run comes from its upstream inventory', () => {
  test('vSphere: the route controller handed to a CCM whose Routes() needs an NSX-T routerPath runs nowhere unless that is configured', () => {
    // GIVEN a kubernetes vSphere cluster whose KCM programmed routes, its CCM rendered with --configure-cloud-routes=true
    const c: RenderCase = {
      name: 'kubernetes vSphere 1.29 with routes',
      platform: 'VSphere',
      minor: 29,
      files: {},
      kcmBase: ['--allocate-node-cidrs=true', '--configure-cloud-routes=true', '--cluster-cidr=10.64.0.0/14'],
      spec: (phase) =>
        kubernetesSpec(
          'VSphere',
          'c',
          { version: '1.29', allocateNodeCidrs: true, configureCloudRoutes: true, clusterCIDR: ['10.64.0.0/14'] },
          { migration: { phase, kubernetesVersion: '1.29' } },
        ),
    };
    const trees = renderPhases(c, tempDir());
    const run = (ccmControllers: readonly Controller[]) => {
      const sc = transitions(c, trees, { ccmControllers }).find(([l]) => l === 'leader-migration-ccm → external-leader-migration')!;
      return [...new Set(simulate(sc[1]).violations.map((v) => `${v.kind} ${v.controller}`))];
    };
    // WHEN the CCM can run what kubernetes/cloud-provider-vsphere registers, with and without the routerPath its Routes() needs
    // THEN without it the route controller runs nowhere once the KCMs are external; with it, it moves
    expect(run(upstreamCcmControllers('VSphere'))).toEqual(['none-after-settling route']);
    expect(run(upstreamCcmControllers('VSphere', { routesConfigured: true }))).toEqual([]);
  });
});

describe('Cluster API rolls the KCMs scale-up first', () => {
  test('a single KCM moved to another lease namespace: in place it never overlaps; scale-up first, a new machine elects a second leader', () => {
    // GIVEN one KCM whose change moves its main lease to another namespace
    const sc = {
      kcmMinor: 26,
      ccmMinor: 26,
      kcmBaseFlags: [],
      ccmStrategy: 'RollingUpdate' as const,
      kcmReplicas: 1,
      kcm: { flags: ['--cloud-provider=aws'] },
      steps: [{ label: 'KCM moves its lease', kcm: { flags: ['--cloud-provider=aws', '--leader-elect-resource-namespace=elsewhere'] } }],
    };
    // WHEN it rolls in place (the static pod restarts) and scale-up first (kubernetes-sigs/cluster-api@v1.7.0 upgradeControlPlane)
    const inPlace = simulate(sc).violations;
    const scaleUp = simulate({ ...sc, kcmRollout: 'scale-up-first' }).violations;
    // THEN only the scale-up rollout has two KCMs running the cloud controllers at once
    expect(inPlace).toEqual([]);
    expect(scaleUp.map((x) => `${x.kind} ${x.controller}`)).toEqual(['two-at-once service', 'two-at-once cloud-node-lifecycle']);
    expect(scaleUp[0].trace).toContain('a new control-plane machine joins with cfg1 (KCM moves its lease)');
  });
});
