// A real etcd and kube-apiserver on loopback, started from the binaries that
// tools/control-plane/build.sh caches, and stopped by pid on every exit path.
// Plain https requests are used rather than a client library: the checks need
// only server-side apply, GET and POST, and this keeps `npm test` free of a
// dependency that only this suite would use.
import { ChildProcess, spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as https from 'node:https';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

/** The Kubernetes tag tools/control-plane/build.sh builds by default. */
export const KUBE_VERSION = 'v1.33.5';
export const RUN_COMMAND = 'npm run test:control-plane';
const BINARIES = ['etcd', 'kube-apiserver', 'kube-controller-manager'] as const;

/**
 * The kube-controller-manager controllers the checks need: the namespace controller empties and
 * removes a deleted namespace (so each tree starts on a clean server), and the
 * validatingadmissionpolicy-status controller writes the type-checking result of a policy.
 */
export const HARNESS_CONTROLLERS = ['namespace-controller', 'validatingadmissionpolicy-status-controller'];

export function controlPlaneBinDir(): string {
  const root = process.env.CCM_GITOPS_CONTROL_PLANE_CACHE ?? path.join(os.homedir(), '.cache', 'ccm-gitops', 'control-plane');
  return path.join(root, process.env.KUBE_VERSION ?? KUBE_VERSION, 'bin');
}

/** The suite runs only when asked to (the runner sets the variable) and the binaries are built. */
export function controlPlaneEnabled(): boolean {
  if (process.env.CCM_GITOPS_CONTROL_PLANE !== '1') return false;
  return BINARIES.every((b) => fs.existsSync(path.join(controlPlaneBinDir(), b)));
}

export interface ApiResponse {
  status: number;
  body: any;
}

export interface ControlPlane {
  /** The folder of this run (logs, kubeconfig); removed by stop(). */
  readonly dir: string;
  /** A kubeconfig for the admin token, for the binaries this harness starts. */
  readonly kubeconfig: string;
  /** A kubeconfig per user of StartOptions.users, each with its own static token. */
  readonly userKubeconfigs: Readonly<Record<string, string>>;
  /** The audit log (JSON lines), when StartOptions.audit asked for one. */
  readonly auditLog?: string;
  /** The server's URL and the file of its self-signed certificate, for another kubeconfig. */
  readonly server: string;
  readonly caFile: string;
  /** Starts one more binary of the cache folder, stopped with the rest; its output goes to `<dir>/<name>.log`. */
  spawn(name: string, args: string[], logName?: string): ChildProcess;
  request(method: string, urlPath: string, body?: unknown, contentType?: string, token?: string): Promise<ApiResponse>;
  stop(): Promise<void>;
  /** The last lines of a process's output, for a failure message. */
  logTail(): string;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address() as net.AddressInfo;
      server.close(() => resolve(address.port));
    });
  });
}

export interface StartOptions {
  /**
   * Users (no groups) the server authenticates by a static token beside the admin: the identity a
   * kubeadm control-plane component has through its client certificate, system:kube-controller-manager
   * for the controller manager.
   */
  readonly users?: readonly string[];
  /** Write an audit log (metadata of every request but the admin's and the server's own) to `<dir>/audit.log`. */
  readonly audit?: boolean;
}

/** A kubeconfig naming one loopback server, its CA file and a bearer token. */
export function kubeconfigYaml(server: string, caFile: string, token: string): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: local',
    '  cluster:',
    `    server: ${server}`,
    `    certificate-authority: ${caFile}`,
    'users:',
    '- name: admin',
    '  user:',
    `    token: ${token}`,
    'contexts:',
    '- name: local',
    '  context: {cluster: local, user: admin}',
    'current-context: local',
    '',
  ].join('\n');
}

/** Metadata of each request once answered, but not the admin's (the tests) nor the server's own. */
const AUDIT_POLICY = [
  'apiVersion: audit.k8s.io/v1',
  'kind: Policy',
  'omitStages: [RequestReceived]',
  'rules:',
  '- level: None',
  '  users: [admin, "system:apiserver"]',
  '- level: Metadata',
  '',
].join('\n');

/** Started and not yet exited (a process killed by a signal keeps a null exitCode). */
const running = (child: ChildProcess): boolean => child.pid !== undefined && child.exitCode === null && child.signalCode === null;

/** SIGTERM, then SIGKILL after 10 s; resolves once the process has exited. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (!running(child)) return;
  const exited = new Promise((r) => child.once('exit', r));
  process.kill(child.pid!, 'SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((r) => (timer = setTimeout(() => r(false), 10_000)));
  const gone = await Promise.race([exited.then(() => true), timedOut]);
  clearTimeout(timer);
  if (!gone && running(child)) {
    process.kill(child.pid!, 'SIGKILL');
    await exited;
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function startControlPlane(options: StartOptions = {}): Promise<ControlPlane> {
  const bin = controlPlaneBinDir();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccm-gitops-control-plane-'));
  const children: ChildProcess[] = [];
  const agents: https.Agent[] = [];
  const log: string[] = [];
  const stopSync = (): void => {
    for (const child of children) if (running(child)) process.kill(child.pid!, 'SIGKILL');
  };
  process.once('exit', stopSync);
  const run = (name: string, args: string[], logName = name): ChildProcess => {
    const out = fs.openSync(path.join(dir, `${logName}.log`), 'w');
    const child = spawn(path.join(bin, name), args, { stdio: ['ignore', out, out] });
    fs.closeSync(out);
    children.push(child);
    return child;
  };
  const stop = async (): Promise<void> => {
    for (const child of [...children].reverse()) await stopProcess(child);
    for (const agent of agents) agent.destroy();
    process.removeListener('exit', stopSync);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const logTail = (): string =>
    ['etcd', 'kube-apiserver', 'kube-controller-manager']
      .map((n) => {
        const file = path.join(dir, `${n}.log`);
        const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').slice(-30).join('\n') : '';
        return `--- ${n}\n${text}`;
      })
      .concat(log)
      .join('\n');
  try {
    const [etcdClient, etcdPeer, apiPort] = [await freePort(), await freePort(), await freePort()];
    const etcdUrl = `http://127.0.0.1:${etcdClient}`;
    const peerUrl = `http://127.0.0.1:${etcdPeer}`;
    run('etcd', [
      `--data-dir=${path.join(dir, 'etcd')}`,
      `--listen-client-urls=${etcdUrl}`,
      `--advertise-client-urls=${etcdUrl}`,
      `--listen-peer-urls=${peerUrl}`,
      `--initial-advertise-peer-urls=${peerUrl}`,
      `--initial-cluster=default=${peerUrl}`,
      '--name=default',
      '--listen-metrics-urls=',
    ]);
    const token = randomBytes(24).toString('hex');
    const userTokens = (options.users ?? []).map((user) => [user, randomBytes(24).toString('hex')] as const);
    fs.writeFileSync(
      path.join(dir, 'tokens.csv'),
      [`${token},admin,admin,system:masters`, ...userTokens.map(([user, t]) => `${t},${user},${user}`)].map((l) => `${l}\n`).join(''),
      { mode: 0o600 },
    );
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    fs.writeFileSync(path.join(dir, 'sa.key'), privateKey.export({ type: 'pkcs1', format: 'pem' }), { mode: 0o600 });
    fs.writeFileSync(path.join(dir, 'sa.pub'), publicKey.export({ type: 'spki', format: 'pem' }));
    const certDir = path.join(dir, 'certs');
    const auditLog = options.audit === true ? path.join(dir, 'audit.log') : undefined;
    if (auditLog !== undefined) fs.writeFileSync(path.join(dir, 'audit-policy.yaml'), AUDIT_POLICY);
    run('kube-apiserver', [
      ...(auditLog === undefined ? [] : [`--audit-policy-file=${path.join(dir, 'audit-policy.yaml')}`, `--audit-log-path=${auditLog}`]),
      `--etcd-servers=${etcdUrl}`,
      '--bind-address=127.0.0.1',
      '--advertise-address=127.0.0.1',
      `--secure-port=${apiPort}`,
      `--cert-dir=${certDir}`,
      `--token-auth-file=${path.join(dir, 'tokens.csv')}`,
      '--authorization-mode=RBAC',
      '--service-account-issuer=https://kubernetes.default.svc',
      `--service-account-key-file=${path.join(dir, 'sa.pub')}`,
      `--service-account-signing-key-file=${path.join(dir, 'sa.key')}`,
      '--service-cluster-ip-range=10.0.0.0/24',
    ]);
    let ca: Buffer | undefined;
    const agent = new https.Agent({ keepAlive: true });
    agents.push(agent);
    const request = (method: string, urlPath: string, body?: unknown, contentType = 'application/json', bearer = token): Promise<ApiResponse> =>
      new Promise((resolve, reject) => {
        const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
        const req = https.request(
          {
            host: '127.0.0.1',
            port: apiPort,
            method,
            path: urlPath,
            agent,
            ca,
            // The chain is checked against the server's own self-signed certificate; its names are not ours to choose.
            checkServerIdentity: () => undefined,
            headers: {
              authorization: `Bearer ${bearer}`,
              accept: 'application/json',
              ...(payload === undefined ? {} : { 'content-type': contentType, 'content-length': Buffer.byteLength(payload) }),
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => {
              const text = Buffer.concat(chunks).toString('utf8');
              let parsed: unknown = text;
              try {
                parsed = JSON.parse(text);
              } catch {
                // /readyz and friends answer in plain text.
              }
              resolve({ status: res.statusCode ?? 0, body: parsed });
            });
          },
        );
        req.on('error', reject);
        req.setTimeout(60_000, () => req.destroy(new Error(`${method} ${urlPath}: no answer in 60 s`)));
        if (payload !== undefined) req.write(payload);
        req.end();
      });
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (children.some((c) => c.exitCode !== null)) throw new Error(`a control-plane process exited early\n${logTail()}`);
      const certFile = path.join(certDir, 'apiserver.crt');
      if (ca === undefined && fs.existsSync(certFile)) ca = fs.readFileSync(certFile);
      if (ca !== undefined) {
        const ready = await request('GET', '/readyz').catch((e: Error) => ({ status: 0, body: e.message }));
        if (ready.status === 200) break;
        log.splice(0, log.length, `last /readyz: ${ready.status} ${String(ready.body).slice(-400)}`);
      }
      if (Date.now() > deadline) throw new Error(`kube-apiserver not ready in 120 s\n${logTail()}`);
      await sleep(500);
    }
    const server = `https://127.0.0.1:${apiPort}`;
    const caFile = path.join(certDir, 'apiserver.crt');
    const kubeconfig = path.join(dir, 'kubeconfig');
    fs.writeFileSync(kubeconfig, kubeconfigYaml(server, caFile, token), { mode: 0o600 });
    const userKubeconfigs: Record<string, string> = {};
    for (const [i, [user, t]] of userTokens.entries()) {
      userKubeconfigs[user] = path.join(dir, `kubeconfig-user-${i}`);
      fs.writeFileSync(userKubeconfigs[user], kubeconfigYaml(server, caFile, t), { mode: 0o600 });
    }
    run('kube-controller-manager', [
      `--kubeconfig=${kubeconfig}`,
      `--controllers=${HARNESS_CONTROLLERS.join(',')}`,
      '--leader-elect=false',
      '--use-service-account-credentials=false',
      '--bind-address=127.0.0.1',
      `--secure-port=${await freePort()}`,
      `--cert-dir=${path.join(dir, 'kcm-certs')}`,
      '--authentication-skip-lookup=true',
    ]);
    return { dir, kubeconfig, userKubeconfigs, ...(auditLog === undefined ? {} : { auditLog }), server, caFile, spawn: run, request, stop, logTail };
  } catch (e) {
    await stop();
    throw e;
  }
}
