import { execFileSync } from 'child_process';
import * as path from 'path';
import { App, Chart } from 'cdk8s';
import { platformFor, PreparedCluster } from '../src/openshift/platforms';
import { platformSpec, preparedCluster } from './helpers';

type Obj = Record<string, any>;

/**
 * Every rendered ValidatingAdmissionPolicy evaluated with a real CEL engine
 * (test/cel/evaluate-vap.mjs, @marcbachmann/cel-js) against requests that
 * must be allowed and denied, from what the operator's policies say they
 * enforce (their messages; openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c
 * pkg/cloud/{aws,gcp,azure}/assets/validating-admission-*.yaml).
 */

function policies(): Obj[] {
  const variants: [string, Record<string, unknown>, string, Record<string, string>?][] = [
    ['AWS', {}, '[Global]\n'],
    ['GCP', {}, '[global]\nproject-id = p\n'],
    ['Azure', {}, '{"cloud":"AzurePublicCloud"}\n'],
    [
      'Azure',
      { azure: { cloudName: 'AzureStackCloud' }, cloudConfig: { file: 'x', extraKeys: { endpoints: 'e' } } },
      '{"vmType":"standard"}\n',
      { endpoints: '{"name":"AzureStackCloud"}' },
    ],
  ];
  const out = new Map<string, Obj>();
  for (const [platform, spec, conf, extra] of variants) {
    const prepared: PreparedCluster = { ...preparedCluster(platformSpec(platform, 'c', spec), conf), cloudConfExtraData: extra };
    const chart = new Chart(new App(), 'c', { disableResourceNameHashes: true });
    platformFor(prepared.spec.spec.platform)!.renderOperands(chart, prepared);
    for (const o of chart.toJson().filter((x: Obj) => x.kind === 'ValidatingAdmissionPolicy')) {
      out.set(o.metadata.name, o);
    }
  }
  return [...out.values()];
}

interface Case {
  readonly name: string;
  readonly policy: string;
  readonly operation: 'CREATE' | 'UPDATE';
  readonly resource: string;
  readonly object: Obj;
  readonly oldObject?: Obj;
  readonly userInfo?: Obj;
  /** undefined: allowed; else a message the denial must carry. */
  readonly denied?: string;
}

const svc = (annotations?: Record<string, string>): Obj => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 's', namespace: 'n', ...(annotations ? { annotations } : {}) },
  spec: { type: 'LoadBalancer' },
});
const node = (name: string): Obj => ({ apiVersion: 'v1', kind: 'Node', metadata: { name } });

const AWS = 'openshift-cloud-controller-manager-cloud-provider-aws';
const AWS_TYPE = 'service.beta.kubernetes.io/aws-load-balancer-type';
const AWS_MSG =
  "The annotation 'service.beta.kubernetes.io/aws-load-balancer-type' may not be added, removed, or have its value changed. Changing the type of an existing load balancer is not supported.";
const GCP = 'network-tier-annotation-validation-policy';
const TIER = 'cloud.google.com/network-tier';
const GCP_MSG = "The annotation 'cloud.google.com/network-tier', if specified, must be either 'Standard' or 'Premium'.";
const IDLE = 'azure-load-balancer-tcp-idle-timeout-annotation-validation-policy';
const IDLE_KEY = 'service.beta.kubernetes.io/azure-load-balancer-tcp-idle-timeout';
const IDLE_INT = "value for annotation 'service.beta.kubernetes.io/azure-load-balancer-tcp-idle-timeout' must be an integer";
const IDLE_RANGE =
  "value for annotation 'service.beta.kubernetes.io/azure-load-balancer-tcp-idle-timeout' must be no less than 4 and no more than 100";
const NODE = 'openshift-cloud-controller-manager-cloud-provider-azure-node-admission';
const CNM = 'system:serviceaccount:openshift-cloud-controller-manager:cloud-node-manager';
const CLAIM = 'authentication.kubernetes.io/node-name';

const CASES: Case[] = [
  // AWS: the load balancer type is fixed once the Service exists
  { name: 'AWS: update of a Service without annotations', policy: AWS, operation: 'UPDATE', resource: 'services', object: svc(), oldObject: svc() },
  {
    name: 'AWS: update keeping the type',
    policy: AWS,
    operation: 'UPDATE',
    resource: 'services',
    object: svc({ [AWS_TYPE]: 'nlb', other: 'x' }),
    oldObject: svc({ [AWS_TYPE]: 'nlb' }),
  },
  {
    name: 'AWS: update of other annotations only',
    policy: AWS,
    operation: 'UPDATE',
    resource: 'services',
    object: svc({ a: '1' }),
    oldObject: svc({ a: '2' }),
  },
  { name: 'AWS: create with a type', policy: AWS, operation: 'CREATE', resource: 'services', object: svc({ [AWS_TYPE]: 'nlb' }) },
  {
    name: 'AWS: type added',
    policy: AWS,
    operation: 'UPDATE',
    resource: 'services',
    object: svc({ [AWS_TYPE]: 'nlb' }),
    oldObject: svc(),
    denied: AWS_MSG,
  },
  {
    name: 'AWS: type removed',
    policy: AWS,
    operation: 'UPDATE',
    resource: 'services',
    object: svc({ a: '1' }),
    oldObject: svc({ [AWS_TYPE]: 'nlb', a: '1' }),
    denied: AWS_MSG,
  },
  {
    name: 'AWS: type changed',
    policy: AWS,
    operation: 'UPDATE',
    resource: 'services',
    object: svc({ [AWS_TYPE]: 'external' }),
    oldObject: svc({ [AWS_TYPE]: 'nlb' }),
    denied: AWS_MSG,
  },
  // GCP: network tier Standard or Premium when set or changed
  { name: 'GCP: create without the annotation', policy: GCP, operation: 'CREATE', resource: 'services', object: svc() },
  { name: 'GCP: create with other annotations', policy: GCP, operation: 'CREATE', resource: 'services', object: svc({ a: 'b' }) },
  { name: 'GCP: create Premium', policy: GCP, operation: 'CREATE', resource: 'services', object: svc({ [TIER]: 'Premium' }) },
  { name: 'GCP: create Standard', policy: GCP, operation: 'CREATE', resource: 'services', object: svc({ [TIER]: 'Standard' }) },
  {
    name: 'GCP: update keeping an old invalid value',
    policy: GCP,
    operation: 'UPDATE',
    resource: 'services',
    object: svc({ [TIER]: 'Gold', a: '1' }),
    oldObject: svc({ [TIER]: 'Gold' }),
  },
  {
    name: 'GCP: update adding Premium to a Service without annotations',
    policy: GCP,
    operation: 'UPDATE',
    resource: 'services',
    object: svc({ [TIER]: 'Premium' }),
    oldObject: svc(),
  },
  { name: 'GCP: update without annotations at all', policy: GCP, operation: 'UPDATE', resource: 'services', object: svc(), oldObject: svc() },
  { name: 'GCP: create Gold', policy: GCP, operation: 'CREATE', resource: 'services', object: svc({ [TIER]: 'Gold' }), denied: GCP_MSG },
  {
    name: 'GCP: update Standard to premium',
    policy: GCP,
    operation: 'UPDATE',
    resource: 'services',
    object: svc({ [TIER]: 'premium' }),
    oldObject: svc({ [TIER]: 'Standard' }),
    denied: GCP_MSG,
  },
  // Azure: TCP idle timeout an integer 4..100 when set or changed
  { name: 'Azure: create without the annotation', policy: IDLE, operation: 'CREATE', resource: 'services', object: svc() },
  { name: 'Azure: create 4', policy: IDLE, operation: 'CREATE', resource: 'services', object: svc({ [IDLE_KEY]: '4' }) },
  { name: 'Azure: create 100', policy: IDLE, operation: 'CREATE', resource: 'services', object: svc({ [IDLE_KEY]: '100' }) },
  {
    name: 'Azure: update keeping an old out-of-range value',
    policy: IDLE,
    operation: 'UPDATE',
    resource: 'services',
    object: svc({ [IDLE_KEY]: '200', a: '1' }),
    oldObject: svc({ [IDLE_KEY]: '200' }),
  },
  { name: 'Azure: update without annotations at all', policy: IDLE, operation: 'UPDATE', resource: 'services', object: svc(), oldObject: svc() },
  { name: 'Azure: create 3', policy: IDLE, operation: 'CREATE', resource: 'services', object: svc({ [IDLE_KEY]: '3' }), denied: IDLE_RANGE },
  {
    name: 'Azure: update to 101',
    policy: IDLE,
    operation: 'UPDATE',
    resource: 'services',
    object: svc({ [IDLE_KEY]: '101' }),
    oldObject: svc({ [IDLE_KEY]: '30' }),
    denied: IDLE_RANGE,
  },
  { name: 'Azure: create abc', policy: IDLE, operation: 'CREATE', resource: 'services', object: svc({ [IDLE_KEY]: 'abc' }), denied: IDLE_INT },
  // Azure: the cloud node manager updates only the Node it runs on
  {
    name: 'Azure nodes: another user updates any Node',
    policy: NODE,
    operation: 'UPDATE',
    resource: 'nodes',
    object: node('a'),
    oldObject: node('a'),
    userInfo: { username: 'system:serviceaccount:openshift-machine-config-operator:machine-config-daemon' },
  },
  {
    name: 'Azure nodes: the node manager updates its own Node',
    policy: NODE,
    operation: 'UPDATE',
    resource: 'nodes',
    object: node('a'),
    oldObject: node('a'),
    userInfo: { username: CNM, extra: { [CLAIM]: ['a'] } },
  },
  {
    name: 'Azure nodes: the node manager without a node claim',
    policy: NODE,
    operation: 'UPDATE',
    resource: 'nodes',
    object: node('a'),
    oldObject: node('a'),
    userInfo: { username: CNM },
    denied: 'this user must have a "authentication.kubernetes.io/node-name" claim',
  },
  {
    name: 'Azure nodes: the node manager of node b updates node a',
    policy: NODE,
    operation: 'UPDATE',
    resource: 'nodes',
    object: node('a'),
    oldObject: node('a'),
    userInfo: { username: CNM, extra: { [CLAIM]: ['b'] } },
    denied: 'updates to Node a may only be effected from the cloud node manager running on the same node',
  },
];

describe('admission policies evaluated with a real CEL engine', () => {
  const rendered = policies();
  const results: Obj[] = JSON.parse(
    execFileSync(process.execPath, [path.join(__dirname, 'cel', 'evaluate-vap.mjs')], {
      input: JSON.stringify({ policies: rendered, cases: CASES }),
      encoding: 'utf8',
      timeout: 60_000,
    }),
  );

  test('every rendered policy is exercised', () => {
    expect(rendered.map((p) => p.metadata.name).sort()).toEqual([AWS, IDLE, GCP, NODE].sort());
    for (const p of rendered) {
      expect(CASES.filter((c) => c.policy === p.metadata.name && c.denied).length).toBeGreaterThan(0);
      expect(CASES.filter((c) => c.policy === p.metadata.name && !c.denied).length).toBeGreaterThan(0);
    }
  });

  test.each(CASES.map((c, i) => [c.name, i] as const))('%s', (_name, i) => {
    const c = CASES[i];
    const r = results[i];
    if (c.denied === undefined) {
      expect(r).toMatchObject({ allowed: true, denials: [] });
    } else {
      expect(r.allowed).toBe(false);
      expect(r.denials).toContain(c.denied);
    }
  });
});

describe("the policies follow the operator's text (openshift/cluster-cloud-controller-manager-operator@bc52198c1c3c pkg/cloud/<platform>/assets)", () => {
  const byName = Object.fromEntries(policies().map((p) => [p.metadata.name, p.spec]));

  test('failurePolicy only where the operator sets it (AWS, Azure node admission)', () => {
    expect(byName[AWS].failurePolicy).toBe('Fail');
    expect(byName[NODE].failurePolicy).toBe('Fail');
    expect(byName[GCP].failurePolicy).toBeUndefined();
    expect(byName[IDLE].failurePolicy).toBeUndefined();
  });

  test("AWS: the operator's single expression, no variables", () => {
    expect(byName[AWS].variables).toBeUndefined();
    expect(byName[AWS].validations.map((v: Obj) => v.expression)).toEqual([
      `(has(object.metadata.annotations) && '${AWS_TYPE}' in object.metadata.annotations) ==\n` +
        `  (has(oldObject.metadata.annotations) && '${AWS_TYPE}' in oldObject.metadata.annotations) &&\n` +
        `  (has(object.metadata.annotations) && '${AWS_TYPE}' in object.metadata.annotations ?\n` +
        `  object.metadata.annotations['${AWS_TYPE}'] == oldObject.metadata.annotations['${AWS_TYPE}'] : true)\n`,
    ]);
  });

  test("GCP and Azure idle timeout: the operator's variable names and expressions", () => {
    expect(byName[GCP].variables.map((v: Obj) => v.name)).toEqual([
      'hasNetworkTier',
      'networkTierValue',
      'hasOldNetworkTier',
      'oldNetworkTierValue',
      'valueHasChanged',
    ]);
    expect(byName[GCP].validations.map((v: Obj) => v.expression)).toEqual([
      "!variables.valueHasChanged || variables.networkTierValue in ['Standard', 'Premium']\n",
    ]);
    expect(byName[IDLE].variables.map((v: Obj) => v.name)).toEqual([
      'hasIdleTimeout',
      'idleTimeoutValue',
      'hasOldIdleTimeout',
      'oldIdleTimeoutValue',
      'valueHasChanged',
    ]);
    expect(byName[IDLE].validations.map((v: Obj) => v.expression)).toEqual([
      "!variables.hasIdleTimeout || !variables.valueHasChanged || variables.idleTimeoutValue.matches('^[0-9]+$')",
      '!variables.hasIdleTimeout || !variables.valueHasChanged || (int(variables.idleTimeoutValue) >= 4 && int(variables.idleTimeoutValue) <= 100)',
    ]);
  });

  test("Azure node admission: the operator's expressions", () => {
    expect(byName[NODE].validations.map((v: Obj) => v.expression)).toEqual([
      "has(request.userInfo.extra) && ('authentication.kubernetes.io/node-name' in request.userInfo.extra)",
      'object.metadata.name == request.userInfo.extra["authentication.kubernetes.io/node-name"][0]',
    ]);
  });
});
