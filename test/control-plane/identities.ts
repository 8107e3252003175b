// The identities a real cluster gives its controller managers, on the harness's server: a token of the
// rendered ServiceAccount for a CCM (the TokenRequest API, as the kubelet mounts one into its pod), the
// static user of kubeadm's controller-manager.conf for the KCM, and what their logs say the server refused.
import * as fs from 'node:fs';
import type { Api, ApiObject } from './api';
import { messageOf } from './api';
import { ControlPlane, kubeconfigYaml } from './harness';
import type { RbacObject, ResourceRequest, UserInfo } from '../oracle';

/**
 * kubeadm's controller-manager.conf authenticates as this user, and its static pod runs with
 * --use-service-account-credentials=true and that kubeconfig as the authentication and authorization
 * kubeconfig too (kubernetes/kubernetes@v1.30.14 cmd/kubeadm/app/constants/constants.go ControllerManagerUser,
 * cmd/kubeadm/app/phases/controlplane/manifests.go getControllerManagerCommand).
 */
export const KCM_USER = 'system:kube-controller-manager';
export const kubeadmKcmFlags = (kubeconfig: string): string[] => [
  `--kubeconfig=${kubeconfig}`,
  `--authentication-kubeconfig=${kubeconfig}`,
  `--authorization-kubeconfig=${kubeconfig}`,
  '--use-service-account-credentials=true',
];

/**
 * A pod's process reaches the server with its ServiceAccount's token, and its delegated authentication and
 * authorization fall back to the same in-cluster config when no kubeconfig is given
 * (kubernetes/apiserver@v0.33.5 pkg/server/options/authentication.go getClient).
 */
export const podFlags = (kubeconfig: string): string[] => [
  `--kubeconfig=${kubeconfig}`,
  `--authentication-kubeconfig=${kubeconfig}`,
  `--authorization-kubeconfig=${kubeconfig}`,
];

/** The kinds that make up an identity and what it may do. */
const IDENTITY_KINDS = new Set(['ServiceAccount', 'Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding']);
export const identityObjects = (objects: Iterable<ApiObject>): ApiObject[] => [...objects].filter((o) => IDENTITY_KINDS.has(o.kind));

/** Writes a kubeconfig with a one-hour token of the ServiceAccount (never logged). */
export async function serviceAccountKubeconfig(cp: ControlPlane, namespace: string, name: string, file: string): Promise<void> {
  const res = await cp.request('POST', `/api/v1/namespaces/${namespace}/serviceaccounts/${name}/token`, {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'TokenRequest',
    spec: { expirationSeconds: 3600 },
  });
  if (res.status !== 201) throw new Error(`TokenRequest for ${namespace}/${name}: ${res.status} ${messageOf(res)}`);
  fs.writeFileSync(file, kubeconfigYaml(cp.server, cp.caFile, String(res.body.status.token)), { mode: 0o600 });
}

/** The RBAC objects the apiserver creates at start (label kubernetes.io/bootstrapping=rbac-defaults). */
export async function liveBootstrapRbac(api: Api): Promise<RbacObject[]> {
  const out: RbacObject[] = [];
  for (const [plural, kind] of [
    ['clusterroles', 'ClusterRole'],
    ['clusterrolebindings', 'ClusterRoleBinding'],
    ['roles', 'Role'],
    ['rolebindings', 'RoleBinding'],
  ]) {
    const res = await api.cp.request(
      'GET',
      `/apis/rbac.authorization.k8s.io/v1/${plural}?labelSelector=kubernetes.io%2Fbootstrapping%3Drbac-defaults`,
    );
    if (res.status !== 200) throw new Error(`list ${plural}: ${res.status} ${messageOf(res)}`);
    for (const item of res.body.items as RbacObject[]) out.push({ ...item, kind });
  }
  return out;
}

/** One request the server refused, as its Forbidden message names it. */
export interface Refusal {
  readonly user: string;
  readonly verb: string;
  readonly apiGroup: string;
  /** `resource` or `resource/subresource`. */
  readonly resource: string;
  readonly name?: string;
  readonly namespace?: string;
}

// The message of the apiserver's Forbidden status (kubernetes/apiserver@v0.33.5
// pkg/endpoints/handlers/responsewriters/errors.go forbiddenMessage), its quotes escaped or not as klog writes it.
const Q = String.raw`\\*"`;
const V = String.raw`([^"\\]*)`;
const FORBIDDEN = new RegExp(
  `(?:${Q}${V}${Q} )?is forbidden: User ${Q}${V}${Q} cannot (\\w+) resource ${Q}${V}${Q} in API group ${Q}${V}${Q} (?:in the namespace ${Q}${V}${Q}|at the cluster scope)`,
  'g',
);

/** Every distinct request a process's log says the server refused, in the order first logged. */
export function refusalsIn(log: string): Refusal[] {
  const seen = new Map<string, Refusal>();
  for (const m of log.matchAll(FORBIDDEN)) {
    const [, name, user, verb, resource, apiGroup, namespace] = m;
    const r: Refusal = { user, verb, apiGroup, resource, ...(name ? { name } : {}), ...(namespace ? { namespace } : {}) };
    seen.set(JSON.stringify(r), r);
  }
  return [...seen.values()];
}

export const describeRefusal = (r: Refusal): string => describeRequest(r.user, r);

/** The leases (`namespace/name`) a process's log says it acquired (k8s.io/client-go tools/leaderelection). */
export function acquiredLeases(log: string): string[] {
  return [...new Set([...log.matchAll(/successfully acquired lease ([^\s"\\]+)/g)].map((m) => m[1]))].sort();
}

/** The user the server authenticates a kubeconfig's token as (a SelfSubjectReview with that token). */
export async function userOfKubeconfig(cp: ControlPlane, file: string): Promise<string> {
  const token = /^\s*token: (\S+)$/m.exec(fs.readFileSync(file, 'utf8'))?.[1];
  const res = await cp.request(
    'POST',
    '/apis/authentication.k8s.io/v1/selfsubjectreviews',
    { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
    'application/json',
    token,
  );
  if (res.status !== 201) throw new Error(`SelfSubjectReview with the token of ${file}: ${res.status} ${messageOf(res)}`);
  return String(res.body.status.userInfo.username);
}

/** One request the server answered, from its audit log: who made it, the authorizer's attributes, the answer's code. */
export interface AuditedRequest {
  readonly user: UserInfo;
  readonly request: ResourceRequest;
  readonly code: number;
}

/**
 * The distinct resource requests of an audit log (JSON lines of audit.k8s.io/v1 Events), in the order first
 * logged: objectRef carries the attributes the authorizer saw, with a list's or watch's metadata.name field
 * selector as the name (kubernetes/apiserver@v0.33.5 pkg/endpoints/request/requestinfo.go, pkg/audit/request.go),
 * except that a create of a collection gets its name from the object after authorization (LogRequestObject
 * completes objectRef): the authorizer saw none, so none is kept.
 */
export function auditedRequests(text: string): AuditedRequest[] {
  const seen = new Map<string, AuditedRequest>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const e = JSON.parse(line);
    const ref = e.objectRef;
    if (ref?.resource === undefined || e.user?.username === undefined) continue;
    const request: ResourceRequest = {
      verb: e.verb,
      apiGroup: ref.apiGroup ?? '',
      resource: ref.subresource ? `${ref.resource}/${ref.subresource}` : ref.resource,
      ...(ref.name && !(e.verb === 'create' && !ref.subresource) ? { name: ref.name } : {}),
      ...(ref.namespace ? { namespace: ref.namespace } : {}),
    };
    const a: AuditedRequest = { user: { name: e.user.username, groups: e.user.groups ?? [] }, request, code: e.responseStatus?.code ?? 0 };
    seen.set(JSON.stringify([a.user.name, request, a.code === 403]), a);
  }
  return [...seen.values()];
}

export const describeRequest = (user: string, r: ResourceRequest): string =>
  `${user} ${r.verb} ${r.apiGroup || 'core'}/${r.resource} ${r.namespace ? `in ${r.namespace}` : 'cluster-wide'}${r.name ? ` name ${r.name}` : ''}`;
