/**
 * The field-level facts the OpenShift branch oracle compares: one plain
 * record per object, the same function reading an object of an operator
 * release branch (by generate.ts) and an object ccm-gitops renders (by
 * test/openshift-branches.test.ts). What is not listed here (labels,
 * tolerations, resources, images) is not compared; the cloud.conf text is
 * compared by cloud-conf.ts.
 * Never imports from `src/`.
 */

type Obj = Record<string, any>;

/** A value the operator fills in at run time (image, TLS profile, infrastructure name): any rendered value matches. */
export const FILLED_IN = '<filled-in>';

/** One container: its command-line flags, env names, mount names and ports. */
export interface ContainerFacts {
  readonly name: string;
  /** `--flag=value` (or `--flag`) as the command line has them, in order; a value {@link FILLED_IN} matches any. */
  readonly flags: readonly string[];
  /** Flags the operator adds only when a value is set (`{{- if .x }}` in the asset): present or absent. */
  readonly optionalFlags?: readonly string[];
  readonly env: readonly string[];
  readonly mounts: readonly string[];
  readonly ports: readonly string[];
  /** Resource requests and limits, terminationMessagePolicy, securityContext (keys sorted). */
  readonly runtime?: string;
}

/** The facts of one object. */
export interface ObjectFacts {
  /** `<group>/<kind> <namespace>/<name>` (namespace empty for cluster-scoped objects). */
  readonly id: string;
  readonly containers?: readonly ContainerFacts[];
  readonly initContainers?: readonly ContainerFacts[];
  readonly volumes?: readonly string[];
  readonly serviceAccount?: string;
  readonly hostNetwork?: boolean;
  /** Replicas, strategy, priority class, node selector, tolerations and pod annotations, each as {@link stable} JSON. */
  readonly scheduling?: Readonly<Record<string, string>>;
  /** Service ports as `name:port->targetPort`. */
  readonly servicePorts?: readonly string[];
  /** RBAC rules, one line each, sorted. */
  readonly rules?: readonly string[];
  /** A binding's roleRef and subjects. */
  readonly binding?: string;
  /** A CredentialsRequest's secret and provider spec (permissions sorted). */
  readonly credentials?: string;
  /** A NetworkPolicy's spec, keys sorted. */
  readonly networkPolicy?: string;
  /** A ValidatingAdmissionPolicy's match constraints and conditions, failure policy, variables and validations. */
  readonly admissionPolicy?: string;
  /** A ValidatingAdmissionPolicyBinding's policy and actions. */
  readonly admissionBinding?: string;
  /** Labels and annotations of a Namespace (keys sorted). */
  readonly namespaceMeta?: string;
  /** A PodDisruptionBudget's spec without its selector. */
  readonly disruptionBudget?: string;
}

/** JSON with object keys sorted, so the same content gives the same string. */
export function stable(v: unknown): string {
  if (Array.isArray(v)) {
    return `[${v.map(stable).join(',')}]`;
  }
  if (v !== null && typeof v === 'object') {
    return `{${Object.keys(v as Obj)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stable((v as Obj)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/** Kinds without a namespace: the API server ignores a namespace their manifest sets (the Alibaba assets of release-4.16 do). */
const CLUSTER_SCOPED = new Set([
  'Namespace',
  'ClusterRole',
  'ClusterRoleBinding',
  'ClusterOperator',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding',
  'FeatureGate',
  'MachineConfig',
]);

/** The identity of an object as {@link ObjectFacts.id} spells it. */
export function idOf(o: Obj): string {
  const api = String(o.apiVersion ?? '');
  const group = api.includes('/') ? api.split('/')[0] : '';
  const namespace = CLUSTER_SCOPED.has(o.kind) ? '' : (o.metadata?.namespace ?? '');
  return `${group}/${o.kind} ${namespace}/${o.metadata?.name ?? ''}`;
}

const FLAG = /^(-{1,2}[A-Za-z][\w.-]*)(=.*)?$/;

/** The flags of a container: its `args`, or the words after `exec` of a `bash -c` script. */
function flagsOf(c: Obj): { flags: string[]; optional: string[] } {
  const script: string | undefined = Array.isArray(c.command) && c.command[0] === '/bin/bash' ? c.command[c.command.length - 1] : undefined;
  const words: string[] = [];
  if (script !== undefined) {
    const exec = script.slice(script.lastIndexOf('exec '));
    words.push(...exec.split(/[\s\\]+/).filter((w) => w.length > 0));
  }
  words.push(...((c.args ?? []) as string[]), ...(script === undefined ? ((c.command ?? []) as string[]).slice(1) : []));
  const flags: string[] = [];
  const optional: string[] = [];
  for (const w of words) {
    const optionalWord = w.startsWith('?');
    const word = optionalWord ? w.slice(1) : w;
    if (FLAG.test(word)) {
      (optionalWord ? optional : flags).push(word.replace(/^(-{1,2}[^=]+)="(.*)"$/, '$1=$2'));
    }
  }
  return { flags, optional };
}

function containerFacts(c: Obj): ContainerFacts {
  const { flags, optional } = flagsOf(c);
  return {
    name: c.name,
    flags,
    ...(optional.length > 0 ? { optionalFlags: optional } : {}),
    env: ((c.env ?? []) as Obj[]).map((e) => e.name).sort(),
    mounts: ((c.volumeMounts ?? []) as Obj[]).map((m) => `${m.name}:${m.mountPath}`).sort(),
    ports: ((c.ports ?? []) as Obj[]).map((p) => `${p.name ?? ''}:${p.containerPort}`).sort(),
    runtime: stable({ resources: c.resources, terminationMessagePolicy: c.terminationMessagePolicy, securityContext: c.securityContext }),
  };
}

function ruleLine(r: Obj): string {
  const list = (k: string) => [...((r[k] ?? []) as string[])].sort().join(',');
  return `groups=${list('apiGroups')} resources=${list('resources')} names=${list('resourceNames')} verbs=${list('verbs')} urls=${list('nonResourceURLs')}`;
}

/** The GitOps engines' and ccm-gitops' own annotations: how the tree is synced, no release fact. */
const TOOL_ANNOTATION = /^(argocd\.argoproj\.io|kustomize\.toolkit\.fluxcd\.io|ccm-gitops\.io)\//;

function releaseAnnotations(annotations: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(annotations ?? {}).filter(([k]) => !TOOL_ANNOTATION.test(k)));
}

/** The facts of one object (apiVersion, kind, metadata and the fields above). */
export function factsOf(o: Obj): ObjectFacts {
  const id = idOf(o);
  switch (o.kind) {
    case 'Deployment':
    case 'DaemonSet': {
      const pod = o.spec?.template?.spec ?? {};
      return {
        id,
        containers: ((pod.containers ?? []) as Obj[]).map(containerFacts),
        ...(pod.initContainers ? { initContainers: (pod.initContainers as Obj[]).map(containerFacts) } : {}),
        volumes: ((pod.volumes ?? []) as Obj[]).map((v) => v.name).sort(),
        // `serviceAccount` is the deprecated alias the OpenStack asset uses.
        serviceAccount: pod.serviceAccountName ?? pod.serviceAccount ?? '',
        hostNetwork: pod.hostNetwork === true,
        scheduling: Object.fromEntries(
          Object.entries({
            replicas: o.spec?.replicas,
            strategy: o.spec?.strategy ?? o.spec?.updateStrategy,
            priorityClassName: pod.priorityClassName,
            nodeSelector: pod.nodeSelector,
            // An absent operator means Equal (kubernetes/api@v0.35.0 core/v1/types.go Toleration.Operator: "Defaults to Equal").
            tolerations: ((pod.tolerations ?? []) as Obj[]).map((t) => stable({ operator: 'Equal', ...t })).sort(),
            // ccm-gitops' own bookkeeping (`ccm-gitops.io/*`, e.g. the config hash that rolls the pods) is no release fact.
            annotations: Object.fromEntries(
              Object.entries((o.spec?.template?.metadata?.annotations ?? {}) as Record<string, string>).filter(
                ([k]) => !k.startsWith('ccm-gitops.io/'),
              ),
            ),
          }).map(([k, v]) => [k, stable(v ?? null)]),
        ),
      };
    }
    case 'Service':
      return {
        id,
        servicePorts: ((o.spec?.ports ?? []) as Obj[]).map((p) => `${p.name ?? ''}:${p.port}->${p.targetPort ?? p.port}`),
      };
    case 'Role':
    case 'ClusterRole':
      return { id, rules: ((o.rules ?? []) as Obj[]).map(ruleLine).sort() };
    case 'RoleBinding':
    case 'ClusterRoleBinding':
      return {
        id,
        binding: stable({
          roleRef: { kind: o.roleRef?.kind, name: o.roleRef?.name },
          subjects: ((o.subjects ?? []) as Obj[]).map((s) => `${s.kind} ${s.namespace ?? ''}/${s.name}`).sort(),
        }),
      };
    case 'CredentialsRequest': {
      const provider = { ...(o.spec?.providerSpec ?? {}) };
      if (Array.isArray(provider.permissions)) {
        provider.permissions = [...provider.permissions].sort();
      }
      return {
        id,
        credentials: stable({ secretRef: o.spec?.secretRef, providerSpec: provider, serviceAccountNames: o.spec?.serviceAccountNames }),
      };
    }
    case 'NetworkPolicy':
      return { id, networkPolicy: stable(o.spec ?? {}) };
    case 'ValidatingAdmissionPolicy':
      return {
        id,
        admissionPolicy: stable({
          failurePolicy: o.spec?.failurePolicy,
          matchConstraints: o.spec?.matchConstraints,
          validations: o.spec?.validations,
          variables: o.spec?.variables,
          matchConditions: o.spec?.matchConditions,
          paramKind: o.spec?.paramKind,
        }),
      };
    case 'Namespace':
      return { id, namespaceMeta: stable({ labels: o.metadata?.labels ?? {}, annotations: releaseAnnotations(o.metadata?.annotations) }) };
    case 'ValidatingAdmissionPolicyBinding':
      return {
        id,
        admissionBinding: stable({
          policyName: o.spec?.policyName,
          validationActions: o.spec?.validationActions,
          matchResources: o.spec?.matchResources,
        }),
      };
    case 'PodDisruptionBudget': {
      const { selector: _selector, ...rest } = o.spec ?? {};
      return { id, disruptionBudget: stable(rest) };
    }
    default:
      return { id };
  }
}

/** Whether a rendered flag matches an expected one ({@link FILLED_IN} matches any value). */
export function flagMatches(expected: string, rendered: string): boolean {
  if (expected === rendered) {
    return true;
  }
  const eq = expected.indexOf('=');
  return eq > 0 && expected.includes(FILLED_IN) && rendered.startsWith(expected.slice(0, eq + 1));
}
