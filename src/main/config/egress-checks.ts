// Config-time SSRF check of every address the gateway itself will call besides provider
// base_urls (provider-checks.ts): hook webhook targets, the request-log webhook, IdP issuers and
// JWKS URLs, token URLs of minting auth modes, the OTLP trace export's endpoint. Name-level only (no DNS at validation: a name's
// answer can change later anyway); the connect-time guard (src/shared/egress) checks the
// addresses actually connected.
import { issue, type PathSegment } from '../../shared/config/config-path.js';
import { isDeniedMetadataHost, type MetadataPolicy } from '../../shared/config/metadata-hosts.js';
import type { LoadContext } from './load-result.js';
import { entriesOf, field, isPlainObject } from './shape.js';

/** Keys whose string value is a URL the gateway connects to. */
const CALLED_URL_KEYS = new Set(['url', 'webhook', 'target', 'issuer', 'jwks_url', 'token_url']);

export function checkEgressUrls(config: unknown, catalog: unknown, policy: MetadataPolicy, ctx: LoadContext): void {
  walk(config, [], [], policy, ctx);
  // Settings maps are skipped by walk (a hook's are the hook's business); an OTLP export's endpoint is ours.
  for (const [name, instance] of entriesOf(field(config, 'export'))) {
    const endpoint = field(instance, 'settings', 'endpoint');
    if (instance.module === 'otlp' && typeof endpoint === 'string') check(endpoint, ['export', name, 'settings', 'endpoint'], [], policy, ctx);
  }
  for (const [name, provider] of entriesOf(field(catalog, 'providers'))) {
    const allowed = Array.isArray(provider.allow_metadata_hosts) ? provider.allow_metadata_hosts.filter((h): h is string => typeof h === 'string') : [];
    walk(field(provider, 'auth'), ['providers', name, 'auth'], allowed, policy, ctx);
  }
}

function walk(node: unknown, path: PathSegment[], allowed: readonly string[], policy: MetadataPolicy, ctx: LoadContext): void {
  if (Array.isArray(node)) {
    node.forEach((item, i) => walk(item, [...path, i], allowed, policy, ctx));
    return;
  }
  if (!isPlainObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    // Hook settings are the hook's own business: it is the hook, not the gateway, that calls them.
    if (key === 'settings') continue;
    if (typeof value === 'string' && CALLED_URL_KEYS.has(key)) check(value, [...path, key], allowed, policy, ctx);
    else walk(value, [...path, key], allowed, policy, ctx);
  }
}

function check(text: string, path: PathSegment[], allowed: readonly string[], policy: MetadataPolicy, ctx: LoadContext): void {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return; // not a URL: the field's own schema or check says so
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return;
  if (isDeniedMetadataHost(url.hostname, policy, allowed)) {
    ctx.issues.push(issue(path, `host ${url.hostname} is a cloud-metadata endpoint (SSRF guard); allow it with security.allow_metadata_hosts`));
  }
}
