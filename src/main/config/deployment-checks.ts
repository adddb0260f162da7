// Checks of the deployment config the schema cannot express: addresses, auth chains and the
// secrets they need, durations, conflicting flags, and the references between sections (hooks,
// export, identity providers, role bindings).
import { listenAddressProblem, parseListenAddress } from '../../shared/config/address.js';
import { issue, type PathSegment } from '../../shared/config/config-path.js';
import { auditNameProblem } from '../audit/audit-text.js';
import { parseDurationMs } from '../../shared/config/duration.js';
import { RESERVED_HOOK_NAMES } from '../../shared/config/schema/hooks.js';
import { OtlpExportSettings } from '../../shared/config/schema/export.js';
import { applyDefaults } from '../../shared/config/schema-defaults.js';
import { schemaIssues } from '../../shared/config/schema-errors.js';
import type { LoadContext } from './load-result.js';
import { entriesOf, field, isPlainObject, knownList, stringsOf } from './shape.js';

const AUDITABLE_NAME_MAX_CHARS = 128;

export function checkDeployment(config: unknown, ctx: LoadContext): void {
  checkListeners(config, ctx);
  checkAuth(config, ctx);
  checkBreakers(config, ctx);
  checkHooks(config, ctx);
  checkExport(config, ctx);
  checkIdentity(config, ctx);
  const publicUrl = field(config, 'public_url');
  if (typeof publicUrl === 'string' && !/^https?:\/\/[^/\s]+/.test(publicUrl)) {
    ctx.issues.push(issue('public_url', 'expected an http(s) URL, e.g. https://gateway.example.com'));
  }
}

function checkListeners(config: unknown, ctx: LoadContext): void {
  const addresses: string[] = [];
  for (const key of ['listen', 'admin_listen']) {
    const text = field(config, key);
    if (typeof text !== 'string') continue;
    const problem = listenAddressProblem(text);
    if (problem !== undefined) {
      ctx.issues.push(issue(key, problem));
      continue;
    }
    const parsed = parseListenAddress(text);
    if (parsed.port !== 0) addresses.push(`${parsed.host}:${parsed.port}`);
  }
  if (addresses.length === 2 && addresses[0] === addresses[1]) {
    ctx.issues.push(issue('admin_listen', `must differ from listen (both are ${addresses[0]})`));
  }
}

function checkAuth(config: unknown, ctx: LoadContext): void {
  const providers = Object.keys(isPlainObject(field(config, 'identity-providers')) ? (field(config, 'identity-providers') as object) : {});
  const chains: Array<[string, string]> = [
    ['chain', 'keys'],
    ['admin_auth', 'admin-tokens'],
  ];
  for (const [chain, builtin] of chains) {
    for (const [index, name] of stringsOf(field(config, 'auth', chain))) {
      if (name !== builtin && !providers.includes(name)) {
        ctx.issues.push(
          issue(['auth', chain, index], `unknown auth module "${name}" (expected "${builtin}" or an identity-provider name; ${knownList(providers)})`),
        );
      }
    }
  }
  const names = (chain: string) => stringsOf(field(config, 'auth', chain)).map(([, name]) => name);
  if (names('chain').includes('keys') && field(config, 'auth', 'signing_key') === undefined) {
    ctx.issues.push(issue('auth.signing_key', 'required when auth.chain names "keys" (a secret reference to an ed25519 key)'));
  }
  if (names('admin_auth').includes('admin-tokens') && field(config, 'auth', 'admin_token') === undefined) {
    ctx.issues.push(issue('auth.admin_token', 'required when auth.admin_auth names "admin-tokens" (a secret reference)'));
  }
  const ttl = field(config, 'auth', 'key_ttl');
  if (typeof ttl === 'string' && parseDurationMs(ttl) === 0) ctx.issues.push(issue('auth.key_ttl', 'must be longer than zero'));
  if (names('chain').length > 0 && field(config, 'auth', 'upstream_credentials') === 'passthrough') {
    ctx.warnings.push(
      'auth.chain is not empty and auth.upstream_credentials is passthrough: the credential a caller authenticates with (its gateway key) is forwarded to the upstream provider',
    );
  }
  if (Array.isArray(field(config, 'auth', 'chain')) && names('chain').length === 0) {
    ctx.warnings.push('auth.chain is empty: the data plane is an OPEN RELAY; anyone who can reach it can spend every provider credential');
  }
  if (Array.isArray(field(config, 'auth', 'admin_auth')) && names('admin_auth').length === 0) {
    ctx.warnings.push('auth.admin_auth is empty: the admin plane is open (anonymous, full authority); for development only');
  }
}

function checkBreakers(config: unknown, ctx: LoadContext): void {
  for (const [pool, definition] of entriesOf(field(config, 'pools'))) {
    const base = field(definition, 'breaker', 'base_cooldown_secs');
    const max = field(definition, 'breaker', 'max_cooldown_secs');
    if (typeof base === 'number' && typeof max === 'number' && max < base) {
      ctx.issues.push(issue(['pools', pool, 'breaker', 'max_cooldown_secs'], `must be >= base_cooldown_secs (${base}), got ${max}`));
    }
  }
}

function checkHooks(config: unknown, ctx: LoadContext): void {
  const hooks = field(config, 'hooks');
  const names = isPlainObject(hooks) ? Object.keys(hooks) : [];
  const defs = entriesOf(hooks);
  const gates = new Set(defs.filter(([, d]) => d.kind === 'gate').map(([name]) => name));
  for (const name of names) {
    if (RESERVED_HOOK_NAMES.includes(name) || name === '__proto__')
      ctx.issues.push(issue(['hooks', name], `"${name}" is a reserved word and cannot name a hook`));
    checkAuditableName(['hooks', name], name, 'a hook name', ctx);
  }
  for (const [name, d] of defs) {
    const gate = d.kind === 'gate';
    if ((d.socket === undefined) === (d.webhook === undefined)) ctx.issues.push(issue(['hooks', name], 'set exactly one transport: socket or webhook'));
    if (d.secret !== undefined && d.webhook === undefined) ctx.issues.push(issue(['hooks', name, 'secret'], 'only a webhook hook signs with a secret'));
    if (gate && d.at !== undefined) ctx.issues.push(issue(['hooks', name, 'at'], '`at` is for taps only (a gate runs at the routing decision)'));
    if (!gate && d.on_error !== undefined) ctx.issues.push(issue(['hooks', name, 'on_error'], '`on_error` is for gates only'));
    if (typeof d.webhook === 'string' && !isHttpUrl(d.webhook))
      ctx.issues.push(issue(['hooks', name, 'webhook'], 'expected an http(s) URL that parses (scheme, host, optional port 1..65535)'));
    const onError = d.on_error;
    if (gate && typeof onError === 'string' && !RESERVED_HOOK_NAMES.includes(onError)) {
      if (!gates.has(onError))
        ctx.issues.push(issue(['hooks', name, 'on_error'], `expected weighted, reject, first, nothing or a gate hook's name, got "${onError}"`));
      else if (fallbackLoops(name, defs)) ctx.issues.push(issue(['hooks', name, 'on_error'], `the fallback chain from "${name}" loops back on itself`));
    }
  }
  for (const [index, name] of stringsOf(field(config, 'global_hooks'))) {
    if (!names.includes(name)) ctx.issues.push(issue(['global_hooks', index], `unknown hook "${name}" (${knownList(names)})`));
  }
  for (const [pool, definition] of entriesOf(field(config, 'pools'))) {
    for (const [index, name] of stringsOf(definition.hooks)) {
      if (!names.includes(name)) ctx.issues.push(issue(['pools', pool, 'hooks', index], `unknown hook "${name}" (${knownList(names)})`));
    }
  }
}

/** An absolute http(s) URL the URL parser accepts, with a host: what the webhook transport can call. */
function isHttpUrl(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}

/** True when following `on_error` from `start` through gate names comes back to a hook already seen. */
function fallbackLoops(start: string, defs: Array<[string, Record<string, unknown>]>): boolean {
  const byName = new Map(defs);
  const seen = new Set<string>([start]);
  let next = byName.get(start)?.on_error;
  while (typeof next === 'string' && byName.has(next)) {
    if (seen.has(next)) return true;
    seen.add(next);
    next = byName.get(next)?.on_error;
  }
  return false;
}

const EXPORT_MODULES = ['prometheus', 'otlp'];

function checkExport(config: unknown, ctx: LoadContext): void {
  let otlp = 0;
  for (const [name, instance] of entriesOf(field(config, 'export'))) {
    if (typeof instance.module === 'string' && !EXPORT_MODULES.includes(instance.module)) {
      ctx.issues.push(issue(['export', name, 'module'], `unknown export module "${instance.module}" (${knownList(EXPORT_MODULES)})`));
    }
    if (instance.module === 'otlp') {
      if (++otlp > 1) ctx.issues.push(issue(['export', name], 'only one `module: otlp` instance is supported'));
      checkOtlpExport(name, instance, ctx);
      continue;
    }
    if (instance.headers !== undefined) ctx.issues.push(issue(['export', name, 'headers'], 'only a `module: otlp` instance takes headers'));
    if (instance.module !== 'prometheus') continue;
    const buffer = field(instance, 'settings', 'buffer_seconds');
    if (typeof buffer !== 'number' || !(buffer > 0)) {
      ctx.issues.push(issue(['export', name, 'settings', 'buffer_seconds'], 'required by module "prometheus": seconds of samples kept, a number > 0'));
    }
  }
}

/** A name that reaches the audit chain (hook:<name>, idp:<provider>:...): no "|", no control character, at most 128 characters. */
function checkAuditableName(path: PathSegment[], name: string, what: string, ctx: LoadContext): void {
  const problem = auditNameProblem(name);
  if (problem !== null) ctx.issues.push(issue(path, `${what} ${problem}`));
  else if (name.length > AUDITABLE_NAME_MAX_CHARS) ctx.issues.push(issue(path, `${what} is at most ${AUDITABLE_NAME_MAX_CHARS} characters`));
}

function checkOtlpExport(name: string, instance: Record<string, unknown>, ctx: LoadContext): void {
  const settings = applyDefaults(OtlpExportSettings, field(instance, 'settings') ?? {});
  ctx.issues.push(...schemaIssues(OtlpExportSettings, settings, ['export', name, 'settings']));
  if (!isPlainObject(settings)) return;
  // Its host is checked against the metadata denylist with the other called URLs (egress-checks.ts).
  const endpoint = settings.endpoint;
  if (typeof endpoint === 'string' && !/^https?:\/\/[^/\s]+/.test(endpoint)) {
    ctx.issues.push(issue(['export', name, 'settings', 'endpoint'], 'expected an http(s) URL, e.g. http://127.0.0.1:4318/v1/traces'));
  }
  if (typeof settings.max_batch_spans === 'number' && typeof settings.max_queue_spans === 'number' && settings.max_batch_spans > settings.max_queue_spans) {
    ctx.issues.push(issue(['export', name, 'settings', 'max_batch_spans'], 'must not exceed max_queue_spans'));
  }
}

function checkIdentity(config: unknown, ctx: LoadContext): void {
  const providers = field(config, 'identity-providers');
  for (const name of isPlainObject(providers) ? Object.keys(providers) : [])
    checkAuditableName(['identity-providers', name], name, 'an identity-provider name', ctx);
  for (const [name, provider] of entriesOf(providers)) {
    if (field(provider, 'settings', 'key_ttl') !== undefined) {
      ctx.issues.push(issue(['identity-providers', name, 'settings', 'key_ttl'], 'key lifetime is set on auth.key_ttl only'));
    }
    const module = field(provider, 'module');
    if (typeof module === 'string' && module !== 'oidc') {
      ctx.issues.push(issue(['identity-providers', name, 'module'], `unknown identity-provider module "${module}" (expected "oidc")`));
    }
  }
  const known = isPlainObject(providers) ? Object.keys(providers) : [];
  for (const [provider, groups] of entriesOf(field(config, 'role_bindings'))) {
    if (!known.includes(provider)) {
      ctx.issues.push(issue(['role_bindings', provider], `unknown identity provider "${provider}" (${knownList(known)})`));
    }
    for (const [group, binding] of entriesOf(groups)) {
      if (binding.group === undefined && binding.admin_scope === undefined) {
        ctx.issues.push(issue(['role_bindings', provider, group], 'needs group or admin_scope'));
      }
    }
  }
}
