#!/usr/bin/env node
/**
 * Regenerates src/kubernetes/flags/cloud-provider.data.ts and binaries.data.ts: per k8s.io/cloud-provider version a
 * CCM binary is built against, every flag `app.NewCloudControllerManagerCommand` registers.
 *
 *   node test/oracle/ccm-flags.generate.js MIRRORS_DIR
 *
 * MIRRORS_DIR holds bare clones named owner+repo/repo of kubernetes/cloud-provider,
 * kubernetes/controller-manager, kubernetes/component-base and kubernetes/apiserver (the
 * published staging repos, tagged v0.NN.P like the k8s.io modules).
 *
 * For each function below, the body is read at the tag and each pflag registration's name
 * (`fs.XxxVar(&v, "name", …)`, `fs.Var(v, "name", …)`, `fs.BoolP("name", …)`) is taken,
 * constants resolved in the same file. Every nested `AddFlags`/`Bind…Flags` call found in a
 * body is printed, so a new nesting shows up (each must be one of the functions listed).
 * Conditional registrations: component-base's logsapi addFlags registers the log-json-* flags
 * only when the json format is registered, i.e. when the binary imports
 * k8s.io/component-base/logs/json/register (the binary's module is searched for it at its tag);
 * an OS-specific function (`init_windows.go`, `//go:build windows`) is read for the Windows
 * binary only; flags a package registers on Go's flag.CommandLine count where the binary adds
 * that set to its command (pflag AddGoFlagSet). Besides the two product tables it writes
 * test/oracle/ccm-flags.data.json, every binary's whole set, which the oracle reads.
 * Fixed parts not read from a function: the klog flags (k8s.io/klog/v2 klog.go InitFlags) that
 * component-base logs.AddFlags adds before 1.26 (from 1.26 klogflags.Init keeps only v and
 * vmodule), `version` (verflag) and `help` (globalflag.AddGlobalFlags' BoolP, read too).
 */
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

const mirrors = process.argv[2];
if (!mirrors) {
  console.error('usage: ccm-flags.generate.js MIRRORS_DIR');
  process.exit(2);
}
const gitDir = (repo) => path.join(mirrors, repo.replace('/', '+'), 'repo');
const show = (repo, tag, file) => execFileSync('git', ['-C', gitDir(repo), 'show', `${tag}:${file}`], { encoding: 'utf8', maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'ignore'] });
const exists = (repo, tag, file) => { try { show(repo, tag, file); return true; } catch { return false; } };

/** The versions read: each k8s.io/cloud-provider version a pinned CCM's go.mod names (src/kubernetes/<provider>/index.ts tagMinors). */
const VERSIONS = ['v0.25.10', 'v0.30.2', 'v0.33.2', 'v0.33.3', 'v0.34.2', 'v0.35.0', 'v0.36.0', 'v0.36.2'];

const KLOG_FLAGS = ['log_dir', 'log_file', 'log_file_max_size', 'logtostderr', 'alsologtostderr', 'v', 'add_dir_header', 'skip_headers', 'one_output',
  'skip_log_headers', 'stderrthreshold', 'vmodule', 'log_backtrace_at'];

/** Strip Go comments and string contents-aware brace matching: the body of the function whose header matches. */
function body(text, header) {
  const start = text.indexOf(header);
  if (start < 0) return undefined;
  let i = text.indexOf('{', start + header.length - 1);
  // skip the parameter list's closing: find the "{" that opens the body (after the header's ")")
  let depth = 0;
  const open = i;
  for (; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"' || ch === '`') {
      const q = ch;
      for (i++; i < text.length && text[i] !== q; i++) if (q === '"' && text[i] === '\\') i++;
      continue;
    }
    if (ch === '/' && text[i + 1] === '/') { while (i < text.length && text[i] !== '\n') i++; continue; }
    if (ch === '{') depth++;
    if (ch === '}' && --depth === 0) return text.slice(open, i + 1);
  }
  throw new Error(`unbalanced body after ${header}`);
}

/** Top-level arguments of the call whose "(" is at `at`. */
function args(text, at) {
  const out = [];
  let depth = 0, cur = '';
  for (let i = at; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"' || ch === '`') {
      const q = ch; let j = i + 1;
      for (; j < text.length && text[j] !== q; j++) if (q === '"' && text[j] === '\\') j++;
      cur += text.slice(i, j + 1); i = j; continue;
    }
    if (ch === '(' || ch === '{' || ch === '[') { depth++; if (depth === 1) continue; }
    if (ch === ')' || ch === '}' || ch === ']') { depth--; if (depth === 0) { out.push(cur.trim()); return out; } }
    if (ch === ',' && depth === 1) { out.push(cur.trim()); cur = ''; continue; }
    cur += ch;
  }
  throw new Error('unterminated call');
}

const CONSTS = { 'logsapi.LogFlushFreqFlagName': 'log-flush-frequency', LogFlushFreqFlagName: 'log-flush-frequency' };

/** The json-only block of logsapi addFlags: `if _, err := logRegistry.get("json"); err == nil { … }`. */
const JSON_ONLY = 'if _, err := logRegistry.get("json"); err == nil {';

function flagNames(text, full, where) {
  const at = full.indexOf(JSON_ONLY);
  const jsonBlock = at < 0 ? '' : body(full.slice(at), JSON_ONLY);
  const b = at < 0 ? full : full.slice(0, at) + full.slice(at + JSON_ONLY.length - 1 + jsonBlock.length);
  const json = at < 0 ? [] : flagNames(text, jsonBlock, where).names;
  const names = [];
  const re = /\.(Var|VarP|[A-Z][A-Za-z0-9]*?(Var|VarP|P)?)\(/g;
  let m;
  while ((m = re.exec(b))) {
    const method = m[1];
    if (!/^(String|Bool|Int|Int32|Int64|Uint|Uint32|Float32|Float64|Duration|IP|IPNet|StringSlice|StringArray|Int32Slice|StringToString|)(Var|VarP|P)?$/.test(method) || method === '' || method === 'P') continue;
    const a = args(b, m.index + m[0].length - 1);
    const isVar = /Var(P)?$/.test(method);
    let n = isVar ? a[1] : a[0];
    if (n === undefined) continue;
    if (/^".*"$/.test(n)) n = n.slice(1, -1);
    else if (CONSTS[n]) n = CONSTS[n];
    else {
      const c = new RegExp(`\\b${n.replace('.', '\\.')}\\s*=\\s*"([^"]+)"`).exec(text);
      if (!c) throw new Error(`${where}: cannot resolve flag name ${n}`);
      n = c[1];
    }
    names.push(n);
  }
  const nested = [...b.matchAll(/[\w.]*(AddFlags|Bind\w*Flags|AddFlag|AddGlobalFlags)\(/g)].map((x) => x[0]);
  return { names, nested, json };
}

/** The functions read, by repo, file and header, for one version. */
function parts(v) {
  const minor = Number(v.split('.')[1]);
  const p = [
    ['kubernetes/cloud-provider', 'options/options.go', 'func (o *CloudControllerManagerOptions) Flags('],
    ['kubernetes/cloud-provider', 'options/kubecloudshared.go', 'func (o *KubeCloudSharedOptions) AddFlags('],
    ['kubernetes/cloud-provider', 'options/cloudprovider.go', 'func (s *CloudProviderOptions) AddFlags('],
    ['kubernetes/cloud-provider', 'options/servicecontroller.go', 'func (o *ServiceControllerOptions) AddFlags('],
    ['kubernetes/controller-manager', 'options/generic.go', 'func (o *GenericControllerManagerConfigurationOptions) AddFlags('],
    ['kubernetes/controller-manager', 'options/debugging.go', 'func (o *DebuggingOptions) AddFlags('],
    ['kubernetes/controller-manager', 'pkg/leadermigration/options/options.go', 'func (o *LeaderMigrationOptions) AddFlags('],
    ['kubernetes/component-base', 'config/options/leaderelectionconfig.go', 'func BindLeaderElectionFlags('],
    ['kubernetes/component-base', 'cli/globalflag/globalflags.go', 'func AddGlobalFlags('],
    ['kubernetes/apiserver', 'pkg/server/options/serving.go', 'func (s *SecureServingOptions) AddFlags('],
    ['kubernetes/apiserver', 'pkg/server/options/authentication.go', 'func (s *DelegatingAuthenticationOptions) AddFlags('],
    ['kubernetes/apiserver', 'pkg/server/options/authentication.go', 'func (s *ClientCertAuthenticationOptions) AddFlags('],
    ['kubernetes/apiserver', 'pkg/server/options/authentication.go', 'func (s *RequestHeaderAuthenticationOptions) AddFlags('],
    ['kubernetes/apiserver', 'pkg/server/options/authorization.go', 'func (s *DelegatingAuthorizationOptions) AddFlags('],
  ];
  if (exists('kubernetes/cloud-provider', v, 'options/nodecontroller.go')) p.push(['kubernetes/cloud-provider', 'options/nodecontroller.go', 'func (o *NodeControllerOptions) AddFlags(']);
  if (exists('kubernetes/cloud-provider', v, 'options/webhook.go')) {
    p.push(['kubernetes/cloud-provider', 'options/webhook.go', 'func (o *WebhookOptions) AddFlags(']);
    p.push(['kubernetes/cloud-provider', 'options/webhook.go', 'func (o *WebhookServingOptions) AddFlags(']);
  }
  // 1.26+: the command adds the LoggingConfiguration flags itself (logsapi.AddFlags) and skips them in AddGlobalFlags
  if (minor >= 26) p.push(['kubernetes/component-base', 'logs/api/v1/options.go', 'func addFlags(']);
  return p;
}

/** `Type.Method` or `function` of a header. */
const label = (header) => header.replace(/^func \(\w+ \*(\w+)\) (\w+)\($/, '$1.$2').replace(/^func (\w+)\($/, '$1');

/** The flags of the functions listed, with their sources. */
function read(list) {
  const flags = new Set();
  const json = new Set();
  const sources = [];
  for (const [repo, v, file, header] of list) {
    const text = show(repo, v, file);
    const b = body(text, header);
    if (!b) throw new Error(`${repo}@${v} ${file}: no ${header}`);
    const { names, nested, json: j } = flagNames(text, b, `${repo}@${v} ${file}`);
    names.forEach((n) => flags.add(n));
    j.forEach((n) => json.add(n));
    sources.push(`${repo}@${v} ${file} (${label(header)})`);
    if (nested.length) console.error(`${repo}@${v} ${file} ${header}: nested ${nested.join(' ')}`);
  }
  return { flags, json, sources };
}

const result = {};
for (const v of VERSIONS) {
  const minor = Number(v.split('.')[1]);
  const { flags, json, sources } = read(parts(v).map(([repo, file, header]) => [repo, v, file, header]));
  if (json.size) sources.push(`kubernetes/component-base@${v} logs/api/v1/options.go (addFlags: ${[...json].join(', ')} only when the json format is registered)`);
  ['feature-gates', 'version'].forEach((n) => flags.add(n));
  // logs.AddFlags (through AddGlobalFlags): every klog flag before 1.26, only v/vmodule/log-flush-frequency after (skipped then: logsapi adds them)
  if (minor < 26) {
    KLOG_FLAGS.forEach((n) => flags.add(n));
    flags.add('log-flush-frequency');
    sources.push(`kubernetes/component-base@${v} logs/logs.go (AddFlags: klog.InitFlags, every klog flag, deprecated)`);
  }
  sources.push(`kubernetes/component-base@${v} featuregate/feature_gate.go (AddFlag: feature-gates), version/verflag/verflag.go (version)`);
  result[v] = { flags: [...flags].sort(), json: [...json].sort(), sources };
}

/** k8s.io/cloud-provider options a custom command binds itself (Azure): the shared pieces without CloudControllerManagerOptions.Flags. */
function sharedPieces(v) {
  return parts(v).filter(([, file, header]) => !header.includes('CloudControllerManagerOptions) Flags') && !file.startsWith('logs/api') && !file.includes('webhook') && !file.includes('nodecontroller'))
    .map(([repo, file, header]) => [repo, v, file, header]);
}
// logs.AddFlags without SkipLoggingConfigurationFlags from 1.26 on: klogflags.Init keeps v and vmodule, plus log-flush-frequency
const LOGS_ADDFLAGS_126 = ['v', 'vmodule', 'log-flush-frequency'];

/** Per binary at its pinned tag: the shared set it starts from (a k8s.io/cloud-provider version) and what it adds or lacks. */
const BINARIES = {
  'aws@v1.35.0': { base: 'v0.35.0', module: ['kubernetes/cloud-provider-aws', 'v1.35.0'], note: ['kubernetes/cloud-provider-aws@v1.35.0 cmd/aws-cloud-controller-manager/main.go (app.NewCloudControllerManagerCommand with the tagging controller flags), go.mod (k8s.io/cloud-provider v0.35.0)'], read: [['kubernetes/cloud-provider-aws', 'v1.35.0', 'pkg/controllers/options/tagging_controller.go', 'func (o *TaggingControllerOptions) AddFlags(']] },
  'gcp@v35.0.0': {
    base: 'v0.34.2',
    module: ['kubernetes/cloud-provider-gcp', 'ccm/v35.0.0'],
    read: [
      ['kubernetes/cloud-provider-gcp', 'ccm/v35.0.0', 'cmd/cloud-controller-manager/main.go', 'func main('],
      ['kubernetes/cloud-provider-gcp', 'ccm/v35.0.0', 'cmd/cloud-controller-manager/options/nodeipamcontroller.go', 'func (o *NodeIPAMControllerOptions) AddFlags('],
    ],
  },
  'openstack@v1.36.0': { base: 'v0.36.0', module: ['kubernetes/cloud-provider-openstack', 'v1.36.0'], read: [['kubernetes/cloud-provider-openstack', 'v1.36.0', 'pkg/openstack/openstack.go', 'func AddExtraFlags(']] },
  'openstack@v1.25.6': { base: 'v0.25.10', module: ['kubernetes/cloud-provider-openstack', 'v1.25.6'], read: [['kubernetes/cloud-provider-openstack', 'v1.25.6', 'pkg/openstack/openstack.go', 'func AddExtraFlags(']] },
  'nutanix@v0.5.2': { base: 'v0.33.3', module: ['nutanix-cloud-native/cloud-provider-nutanix', 'v0.5.2'], read: [], note: ['nutanix-cloud-native/cloud-provider-nutanix@v0.5.2 main.go (app.NewCloudControllerManagerCommand, no flags of its own), go.mod (k8s.io/cloud-provider v0.33.3)'] },
  'digitalocean@v0.1.68': { base: 'v0.36.2', module: ['digitalocean/digitalocean-cloud-controller-manager', 'v0.1.68'], read: [], note: ['digitalocean/digitalocean-cloud-controller-manager@v0.1.68 cloud-controller-manager/cmd/digitalocean-cloud-controller-manager/main.go (app.NewCloudControllerManagerCommand, no flags of its own), go.mod (k8s.io/cloud-provider v0.36.2)'] },
  'equinix-metal@v3.8.1': { base: 'v0.30.2', module: ['kubernetes-sigs/cloud-provider-equinix-metal', 'v3.8.1'], read: [], note: ['kubernetes-sigs/cloud-provider-equinix-metal@v3.8.1 main.go (app.NewCloudControllerManagerCommand, no flags of its own), go.mod (k8s.io/cloud-provider v0.30.2)'] },
  // its own cobra command: CloudControllerManagerOptions.Flags, AddGlobalFlags without the skip option (no logsapi flags)
  'vsphere@v1.36.0': {
    base: 'v0.36.0',
    without: ['logging-format', 'log-text-split-stream', 'log-text-info-buffer-size'],
    fixed: [...LOGS_ADDFLAGS_126],
    // the paravirtual package's init registers on Go's flag.CommandLine, which main adds to pflag.CommandLine (AddGoFlagSet)
    // (the only init() of the repository's packages that registers a flag; vsphere/cloud.go's only registers the provider,
    // vclib/fixtures is test-only; controller-runtime v0.19.0, whose client/config init registers --kubeconfig, is an
    // indirect dependency that no package of the repository imports directly; dependencies' init()s are not read further)
    read: [
      ['kubernetes/cloud-provider-vsphere', 'v1.36.0', 'pkg/cloudprovider/vsphere/options/flags.go', 'func AddFlags('],
      ['kubernetes/cloud-provider-vsphere', 'v1.36.0', 'pkg/cloudprovider/vsphereparavirtual/cloud.go', 'func init('],
    ],
    note: ['kubernetes/cloud-provider-vsphere@v1.36.0 cmd/vsphere-cloud-controller-manager/main.go (ccmOptions.Flags, verflag.AddFlags, globalflag.AddGlobalFlags without SkipLoggingConfigurationFlags, globalflag.Register is-legacy-paravirtual, voptions.AddFlags)',
      'kubernetes/cloud-provider-vsphere@v1.36.0 cmd/vsphere-cloud-controller-manager/main.go (pflag.CommandLine.AddGoFlagSet(goflag.CommandLine): cobra parses pflag.CommandLine too)'],
  },
  // its own options (cmd/cloud-controller-manager/app/options) over the k8s.io pieces at v0.33.2
  'azure@v1.33.2': {
    read: [
      ['kubernetes-sigs/cloud-provider-azure', 'v1.33.2', 'cmd/cloud-controller-manager/app/options/options.go', 'func (o *CloudControllerManagerOptions) Flags('],
      ['kubernetes-sigs/cloud-provider-azure', 'v1.33.2', 'cmd/cloud-controller-manager/app/options/dynamic.go', 'func (o *DynamicReloadingOptions) AddFlags('],
      ['kubernetes-sigs/cloud-provider-azure', 'v1.33.2', 'cmd/cloud-controller-manager/app/options/nodeipamcontroller.go', 'func (o *NodeIPAMControllerOptions) AddFlags('],
      // NewCloudControllerManagerCommand binds log-format on the command's flags after the named sets
      ['kubernetes-sigs/cloud-provider-azure', 'v1.33.2', 'pkg/log/flag.go', 'func BindCLIFlags('],
      ...sharedPieces('v0.33.2'),
    ],
    fixed: [...LOGS_ADDFLAGS_126, 'feature-gates', 'version'],
    note: ['kubernetes-sigs/cloud-provider-azure@v1.33.2 cmd/cloud-controller-manager/app/controllermanager.go (verflag.AddFlags, globalflag.AddGlobalFlags without SkipLoggingConfigurationFlags)'],
  },
  // the Linux image: addOSFlags of init_others.go (//go:build !windows) registers nothing
  'azure-cloud-node-manager@v1.33.2': {
    read: [
      ['kubernetes-sigs/cloud-provider-azure', 'v1.33.2', 'cmd/cloud-node-manager/app/options/options.go', 'func (o *CloudNodeManagerOptions) Flags('],
      ['kubernetes-sigs/cloud-provider-azure', 'v1.33.2', 'cmd/cloud-node-manager/app/options/init_others.go', 'func (o *CloudNodeManagerOptions) addOSFlags('],
      ...sharedPieces('v0.33.2').filter(([repo, , file]) => repo === 'kubernetes/apiserver' || file.includes('globalflag')),
    ],
    fixed: [...LOGS_ADDFLAGS_126, 'version'],
    note: ['kubernetes-sigs/cloud-provider-azure@v1.33.2 cmd/cloud-node-manager/app/nodemanager.go (verflag.AddFlags, globalflag.AddGlobalFlags without SkipLoggingConfigurationFlags)'],
  },
  // the Windows image (cloud-node-manager.exe): addOSFlags of init_windows.go adds windows-service
  'azure-cloud-node-manager-windows@v1.33.2': {
    read: [
      ['kubernetes-sigs/cloud-provider-azure', 'v1.33.2', 'cmd/cloud-node-manager/app/options/options.go', 'func (o *CloudNodeManagerOptions) Flags('],
      ['kubernetes-sigs/cloud-provider-azure', 'v1.33.2', 'cmd/cloud-node-manager/app/options/init_windows.go', 'func (o *CloudNodeManagerOptions) addOSFlags('],
      ...sharedPieces('v0.33.2').filter(([repo, , file]) => repo === 'kubernetes/apiserver' || file.includes('globalflag')),
    ],
    fixed: [...LOGS_ADDFLAGS_126, 'version'],
    note: ['kubernetes-sigs/cloud-provider-azure@v1.33.2 cmd/cloud-node-manager/app/nodemanager.go (verflag.AddFlags, globalflag.AddGlobalFlags without SkipLoggingConfigurationFlags); init_windows.go is //go:build windows'],
  },
};

/** Non-test Go files of a module at a tag that import the json log format (registering it, so logsapi adds its flags). */
function jsonRegistered([repo, tag]) {
  let out = '';
  try {
    out = execFileSync('git', ['-C', gitDir(repo), 'grep', '-l', 'k8s.io/component-base/logs/json/register', tag, '--', '*.go', ':!*_test.go', ':!vendor/**', ':!test/**', ':!hack/**'], { encoding: 'utf8' });
  } catch (e) {
    if (e.status !== 1) throw e; // 1: no match
  }
  return out.split('\n').filter(Boolean).map((l) => `${repo}@${tag} ${l.slice(tag.length + 1)}`);
}

const binaries = {};
const whole = {};
for (const [key, b] of Object.entries(BINARIES)) {
  const { flags, sources } = read(b.read);
  (b.fixed ?? []).forEach((n) => flags.add(n));
  if (b.base && result[b.base].json.length) {
    const by = b.module ? jsonRegistered(b.module) : [];
    if (by.length) {
      result[b.base].json.forEach((n) => flags.add(n));
      sources.push(...by.map((f) => `${f} (imports k8s.io/component-base/logs/json/register: the log-json-* flags)`));
    } else if (b.module) sources.push(`${b.module[0]}@${b.module[1]} (no import of k8s.io/component-base/logs/json/register: no log-json-* flags)`);
  }
  const extra = [...flags].filter((n) => !b.base || !result[b.base].flags.includes(n)).sort();
  binaries[key] = { ...(b.base ? { base: b.base } : {}), ...(b.without ? { without: b.without } : {}), extra, sources: [...sources, ...(b.note ?? [])] };
  const without = new Set(b.without ?? []);
  const all = new Set([...(b.base ? result[b.base].flags : []).filter((n) => !without.has(n)), ...extra]);
  whole[key] = { flags: [...all].sort(), sources: [...(b.base ? result[b.base].sources : []), ...binaries[key].sources] };
}

const q = (xs) => `[${xs.map((f) => `'${f}'`).join(', ')}]`;
const lines = [
  '// Generated by test/oracle/ccm-flags.generate.js from the sources it names: do not edit.',
  '',
  '/** Every flag app.NewCloudControllerManagerCommand registers, per k8s.io/cloud-provider version, with the functions read. */',
  'export const CLOUD_PROVIDER_FLAGS: Readonly<Record<string, { readonly flags: readonly string[]; readonly sources: readonly string[] }>> = {',
];
for (const [v, { flags, sources }] of Object.entries(result)) {
  lines.push(`  '${v}': {`, `    flags: ${q(flags)},`, '    sources: [', ...sources.map((s) => `      '${s}',`), '    ],', '  },');
}
lines.push('};', '');
const out = path.join(__dirname, '..', '..', 'src', 'kubernetes', 'flags', 'cloud-provider.data.ts');
fs.writeFileSync(out, lines.join('\n'));

const blines = [
  '// Generated by test/oracle/ccm-flags.generate.js from the sources it names: do not edit.',
  '',
  '/**',
  ' * Per binary at a pinned tag (`<provider>@<tag>`): the k8s.io/cloud-provider flag set it starts from',
  ' * (`base`, a key of CLOUD_PROVIDER_FLAGS), the flags of that set it lacks, and the flags it adds.',
  ' */',
  'export const BINARY_FLAGS: Readonly<Record<string, { readonly base?: string; readonly without?: readonly string[]; readonly extra: readonly string[]; readonly sources: readonly string[] }>> = {',
];
for (const [k, b] of Object.entries(binaries)) {
  blines.push(`  '${k}': {`);
  if (b.base) blines.push(`    base: '${b.base}',`);
  if (b.without) blines.push(`    without: ${q(b.without)},`);
  blines.push(`    extra: ${q(b.extra)},`, '    sources: [', ...b.sources.map((s) => `      '${s}',`), '    ],', '  },');
}
blines.push('};', '');
const bout = path.join(__dirname, '..', '..', 'src', 'kubernetes', 'flags', 'binaries.data.ts');
fs.writeFileSync(bout, blines.join('\n'));
const oout = path.join(__dirname, 'ccm-flags.data.json');
fs.writeFileSync(oout, `${JSON.stringify(whole, null, 1)}\n`);
console.error(`wrote ${out}, ${bout} and ${oout}`);
