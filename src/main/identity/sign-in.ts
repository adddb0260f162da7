// The hosted sign-in page at GET /auth/token: the OAuth authorization code flow with PKCE
// (S256), `state` and `nonce` against the provider's IdP, for each provider with a
// `browser_login` block (a chooser when there are several). The IdP sends the browser back to
// `<public_url>/auth/token?code&state`; main redeems the code at the token endpoint (undici,
// client_secret_basic with the secret reference's value), verifies the ID token (audience =
// the client id, nonce checked), and shows the identity's key once on the result page. The
// page's Refresh button posts a one-time ticket (never in a URL) that rotates the key.
// Pending logins and tickets live in main's memory for a few minutes, bounded.
import { Buffer } from 'node:buffer';
import { createHash, randomBytes } from 'node:crypto';
import { formatPath } from '../../shared/config/config-path.js';
import type { CompiledIdentityProvider } from '../../shared/identity/identity.js';
import { OidcFailure, OidcVerifier } from '../../shared/identity/oidc-verifier.js';
import type { ConfigState } from '../config-state.js';
import type { Logger } from '../../shared/log.js';
import { ExchangeRefusal, type IdentityService } from './service.js';
import { chooserPage, errorPage, redirect, resultPage, type PageAnswer } from './sign-in-page.js';

const PENDING_TTL_MS = 10 * 60_000;
const TICKET_TTL_MS = 15 * 60_000;
const ENTRIES_MAX = 10_000;

interface PendingLogin {
  provider: string;
  codeVerifier: string;
  nonce: string;
  redirectUri: string;
  expiresMs: number;
}

interface RefreshTicket {
  provider: string;
  sub: string;
  groups: string[];
  baseUrl: string;
  expiresMs: number;
}

/** Insert with a bound: expired entries go first, then the oldest. */
function remember<T extends { expiresMs: number }>(map: Map<string, T>, key: string, value: T): void {
  if (map.size >= ENTRIES_MAX) {
    const now = Date.now();
    for (const [k, v] of map) if (v.expiresMs <= now) map.delete(k);
    if (map.size >= ENTRIES_MAX) map.delete(map.keys().next().value!);
  }
  map.set(key, value);
}

/** One-time: the entry is removed whether or not it is still valid. */
function take<T extends { expiresMs: number }>(map: Map<string, T>, key: string): T | undefined {
  const value = map.get(key);
  map.delete(key);
  return value !== undefined && value.expiresMs > Date.now() ? value : undefined;
}

export class SignInFlow {
  private readonly pending = new Map<string, PendingLogin>();
  private readonly tickets = new Map<string, RefreshTicket>();
  private readonly idTokenVerifiers = new Map<string, { fingerprint: string; verifier: OidcVerifier }>();

  constructor(
    private readonly identity: IdentityService,
    private readonly config: ConfigState,
    private readonly log: Logger,
  ) {}

  private browserProviders(): CompiledIdentityProvider[] {
    return this.identity.providers().filter((p) => p.browserClientId !== null);
  }

  /** `public_url` when set, else the origin the browser used. */
  private baseUrl(host: string): string {
    const configured = this.config.loaded.config?.public_url;
    if (configured !== undefined) return configured.replace(/\/$/, '');
    return `http://${host}`;
  }

  /** GET /auth/token with its query string and Host header. */
  async get(query: string, host: string): Promise<PageAnswer> {
    const params = new URLSearchParams(query);
    const providers = this.browserProviders();
    if (providers.length === 0) return errorPage(404, 'No identity provider here has browser sign-in (browser_login).');
    if (params.has('error')) return errorPage(401, `The identity provider refused the sign-in: ${params.get('error')}`);
    const code = params.get('code');
    if (code !== null) return this.callback(code, params.get('state') ?? '');
    const chosen = params.get('provider');
    if (chosen !== null) {
      const p = providers.find((x) => x.name === chosen);
      return p === undefined ? errorPage(404, `No identity provider named "${chosen}" has browser sign-in.`) : this.start(p, host);
    }
    if (providers.length === 1) return this.start(providers[0]!, host);
    return chooserPage(providers.map((p) => p.name));
  }

  private async start(p: CompiledIdentityProvider, host: string): Promise<PageAnswer> {
    let endpoint: string | undefined;
    try {
      endpoint = (await this.identity.verifier(p).endpoints()).authorization_endpoint;
    } catch (err) {
      return errorPage(503, `The identity provider cannot be reached (${(err as Error).message}).`);
    }
    if (endpoint === undefined) return errorPage(503, 'The identity provider publishes no authorization endpoint.');
    const state = randomBytes(24).toString('base64url');
    const codeVerifier = randomBytes(32).toString('base64url');
    const nonce = randomBytes(16).toString('base64url');
    const redirectUri = `${this.baseUrl(host)}/auth/token`;
    remember(this.pending, state, { provider: p.name, codeVerifier, nonce, redirectUri, expiresMs: Date.now() + PENDING_TTL_MS });
    const url = new URL(endpoint);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', p.browserClientId!);
    url.searchParams.set('redirect_uri', redirectUri);
    url.searchParams.set('scope', p.browserScope);
    url.searchParams.set('state', state);
    url.searchParams.set('nonce', nonce);
    url.searchParams.set('code_challenge', createHash('sha256').update(codeVerifier).digest('base64url'));
    url.searchParams.set('code_challenge_method', 'S256');
    return redirect(url.toString());
  }

  private async callback(code: string, state: string): Promise<PageAnswer> {
    const login = take(this.pending, state);
    if (login === undefined) return errorPage(400, 'This sign-in is unknown, expired or already used (state check failed).');
    const p = this.identity.provider(login.provider);
    if (p === undefined || p.browserClientId === null) return errorPage(404, `No identity provider named "${login.provider}" has browser sign-in.`);
    const verifier = this.identity.verifier(p);
    const clientSecret = this.config.loaded.secrets.get(formatPath(['identity-providers', p.name, 'browser_login', 'client_secret'])) ?? '';
    let idToken: unknown;
    try {
      const tokenEndpoint = (await verifier.endpoints()).token_endpoint;
      if (tokenEndpoint === undefined) return errorPage(503, 'The identity provider publishes no token endpoint.');
      const res = await verifier.fetch(tokenEndpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
          authorization: `Basic ${Buffer.from(`${encodeURIComponent(p.browserClientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}`,
        },
        body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: login.redirectUri, code_verifier: login.codeVerifier }).toString(),
        signal: AbortSignal.timeout(10_000),
      } as never);
      const body = (await res.json()) as { id_token?: unknown; error?: unknown };
      if (res.status !== 200) return errorPage(401, `The identity provider refused the code (${typeof body.error === 'string' ? body.error : res.status}).`);
      idToken = body.id_token;
    } catch (err) {
      this.log.warn({ provider: p.name, err: (err as Error).message }, 'sign-in: the token endpoint call failed');
      return errorPage(503, 'The identity provider could not be reached to finish the sign-in.');
    }
    if (typeof idToken !== 'string') return errorPage(401, 'The identity provider returned no ID token.');
    const verified = await this.idTokenVerifier(p).verifyWithNonce(idToken, login.nonce);
    if (verified instanceof OidcFailure) return errorPage(401, verified.message);
    const baseUrl = login.redirectUri.slice(0, -'/auth/token'.length);
    return this.answer(p, verified.sub, verified.groups, false, baseUrl);
  }

  /** POST /auth/token as a form (the Refresh button): rotate, then the result page again. */
  async refresh(form: string): Promise<PageAnswer> {
    const ticket = take(this.tickets, new URLSearchParams(form).get('ticket') ?? '');
    if (ticket === undefined) return errorPage(400, 'This page is too old to refresh from; sign in again.');
    const p = this.identity.provider(ticket.provider);
    if (p === undefined) return errorPage(404, `No identity provider named "${ticket.provider}".`);
    return this.answer(p, ticket.sub, ticket.groups, true, ticket.baseUrl);
  }

  private async answer(p: CompiledIdentityProvider, sub: string, groups: string[], rotate: boolean, baseUrl: string): Promise<PageAnswer> {
    const outcome = await this.identity.exchangeVerified(p, sub, groups, rotate);
    if (outcome instanceof ExchangeRefusal) return errorPage(outcome.status, outcome.message);
    const ticket = randomBytes(24).toString('base64url');
    remember(this.tickets, ticket, { provider: p.name, sub, groups, baseUrl, expiresMs: Date.now() + TICKET_TTL_MS });
    return resultPage(outcome.key, `${baseUrl}/v1`, outcome.expires_at, outcome.group, ticket);
  }

  /** ID tokens are addressed to the client id, which may differ from the provider's audience. */
  private idTokenVerifier(p: CompiledIdentityProvider): NonceVerifier {
    const fingerprint = JSON.stringify(p);
    const had = this.idTokenVerifiers.get(p.name);
    if (had !== undefined && had.fingerprint === fingerprint) return new NonceVerifier(had.verifier);
    const verifier = new OidcVerifier(
      {
        issuer: p.issuer,
        audience: p.browserClientId!,
        role_claim: p.roleClaim,
        jwks_url: p.jwksUrl ?? undefined,
        ca_cert_pem: p.caCertPem ?? undefined,
        clockSkewSec: p.clockSkewSec,
      },
      1_000,
    );
    this.idTokenVerifiers.set(p.name, { fingerprint, verifier });
    return new NonceVerifier(verifier);
  }
}

/** The ID token's `nonce` must be the one this login sent. */
class NonceVerifier {
  constructor(private readonly verifier: OidcVerifier) {}

  async verifyWithNonce(token: string, nonce: string) {
    const verified = await this.verifier.verify(token);
    if (verified instanceof OidcFailure) return verified;
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { nonce?: unknown };
    if (payload.nonce !== nonce) return new OidcFailure('malformed', "the ID token does not carry this sign-in's nonce");
    return verified;
  }
}
