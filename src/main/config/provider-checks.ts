// Checks of each provider: a usable base_url that is not a cloud-metadata endpoint, and the
// fields its auth mode needs beyond what the schema can say.
import { formatPath, issue, type PathSegment } from '../../shared/config/config-path.js';
import { isDeniedMetadataHost, type MetadataPolicy } from '../../shared/config/metadata-hosts.js';
import { regionFromHost } from './aws-region.js';
import type { LoadContext } from './load-result.js';
import { parseServiceAccount, privateKeyProblem } from './service-account.js';
import { entriesOf, field } from './shape.js';

/** The base URL, or a message saying what is wrong (never echoing it: it may hold a secret). */
function parseBaseUrl(text: string): URL | { error: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { error: 'not a valid URL (expected e.g. https://api.example.com/v1)' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { error: `scheme ${url.protocol} is not supported (use http or https)` };
  if (url.username !== '' || url.password !== '') return { error: 'must not contain credentials; configure them under auth' };
  if (url.search !== '' || url.hash !== '') return { error: 'must not contain a query or fragment' };
  return url;
}

export function checkProviders(catalog: unknown, policy: MetadataPolicy, ctx: LoadContext): void {
  for (const [name, provider] of entriesOf(field(catalog, 'providers'))) {
    const base: PathSegment[] = ['providers', name];
    let host: string | undefined;
    if (typeof provider.base_url === 'string') {
      const url = parseBaseUrl(provider.base_url);
      if ('error' in url) ctx.issues.push(issue([...base, 'base_url'], url.error));
      else {
        host = url.hostname;
        const allowed = Array.isArray(provider.allow_metadata_hosts)
          ? provider.allow_metadata_hosts.filter((item): item is string => typeof item === 'string')
          : [];
        if (isDeniedMetadataHost(host, policy, allowed)) {
          ctx.issues.push(
            issue(
              [...base, 'base_url'],
              `host ${host} is a cloud-metadata endpoint (SSRF guard); allow it with the provider's allow_metadata_hosts or security.allow_metadata_hosts`,
            ),
          );
        }
      }
    }
    checkAuthFields(base, field(provider, 'auth'), host, ctx);
  }
}

function checkAuthFields(base: PathSegment[], auth: unknown, host: string | undefined, ctx: LoadContext): void {
  const at = (...keys: string[]) => [...base, 'auth', ...keys];
  switch (field(auth, 'mode')) {
    case 'sigv4':
      if (field(auth, 'region') === undefined && host !== undefined && regionFromHost(host) === undefined) {
        ctx.issues.push(issue(at('region'), 'required: the base_url host names no AWS region'));
      }
      return;
    case 'jwt-bearer': {
      const account = field(auth, 'service_account') !== undefined;
      const direct = field(auth, 'client_email') !== undefined || field(auth, 'private_key') !== undefined;
      if (account && direct) ctx.issues.push(issue(at(), 'give service_account, or client_email and private_key, not both'));
      else if (!account && (field(auth, 'client_email') === undefined || field(auth, 'private_key') === undefined)) {
        ctx.issues.push(issue(at(), 'needs service_account, or both client_email and private_key'));
      }
      if (!account && field(auth, 'token_url') === undefined) ctx.issues.push(issue(at('token_url'), 'required when no service_account gives a token_uri'));
      return;
    }
  }
}

/** Checks credential contents once secrets are resolved (empty ones are warned about already). */
export function checkProviderCredentials(catalog: unknown, secrets: ReadonlyMap<string, string>, ctx: LoadContext): void {
  for (const [name, provider] of entriesOf(field(catalog, 'providers'))) {
    if (field(provider, 'auth', 'mode') !== 'jwt-bearer') continue;
    const accountText = secrets.get(formatPath(['providers', name, 'auth', 'service_account']));
    if (accountText !== undefined && accountText !== '') {
      const account = parseServiceAccount(accountText);
      if ('error' in account) ctx.issues.push(issue(['providers', name, 'auth', 'service_account'], account.error));
      else if (account.tokenUri === undefined && field(provider, 'auth', 'token_url') === undefined) {
        ctx.issues.push(issue(['providers', name, 'auth', 'token_url'], 'required: the service account has no token_uri'));
      }
    }
    const keyText = secrets.get(formatPath(['providers', name, 'auth', 'private_key']));
    if (keyText !== undefined && keyText !== '') {
      const problem = privateKeyProblem(keyText);
      if (problem !== undefined) ctx.issues.push(issue(['providers', name, 'auth', 'private_key'], problem));
    }
  }
}
