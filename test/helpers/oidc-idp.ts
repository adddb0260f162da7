// A real identity provider for the identity tests: the `oidc-provider` package on loopback
// (plain HTTP, or HTTPS with a certificate from the test CA). Each test identity is a client
// of the client_credentials grant, so its tokens are real JWT access tokens signed by the
// IdP's keys, with `sub` = the client id, `aud` = the audience and a `groups` claim.
// rotateKeys() swaps in a provider with a new signing key (same issuer), as an IdP does.
// A user may get tokens for another audience (another resource server of the same IdP), and
// a second IdP may sign with the first one's keys (signingKeys), so its tokens carry a valid
// signature under the first IdP's JWKS but a different `iss`.
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { SignJWT } from 'jose';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, request } from 'undici';

export interface IdpUser {
  groups: string[];
  /** Token lifetime in seconds (default 600). */
  ttlSec?: number;
  /** The `aud` of this user's tokens (default: the IdP's audience). */
  audience?: string;
}

export interface TestIdp {
  issuer: string;
  audience: string;
  /** A signed JWT access token for `user` (a client id of `users`). */
  token(user: string): Promise<string>;
  /** New signing key; the old one is no longer published. */
  rotateKeys(): void;
  /** The current signing keys (private JWKs), for a second IdP that signs with the same keys. */
  signingKeys(): Array<Record<string, unknown>>;
  /** A confidential client of the authorization code flow (the gateway's sign-in page). */
  addCodeClient(clientId: string, clientSecret: string, redirectUri: string): void;
  close(): Promise<void>;
}

function signingJwk(): Record<string, unknown> {
  const jwk = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }) as Record<string, unknown>;
  return { ...jwk, kid: `k-${randomBytes(4).toString('hex')}`, alg: 'RS256', use: 'sig' };
}

export async function startIdp(opts: {
  users: Record<string, IdpUser>;
  audience?: string;
  tls?: { cert: string; key: string };
  /** Sign with these keys instead of a fresh one. */
  signingKeys?: Array<Record<string, unknown>>;
}): Promise<TestIdp> {
  const audience = opts.audience ?? 'gateway';
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | null = null;
  const serve = (req: IncomingMessage, res: ServerResponse): void => handler!(req, res);
  const server: Server = opts.tls === undefined ? createHttpServer(serve) : createHttpsServer(opts.tls, serve);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const issuer = `${opts.tls === undefined ? 'http' : 'https'}://127.0.0.1:${port}`;
  const secrets = new Map(Object.keys(opts.users).map((id) => [id, `secret-${randomBytes(8).toString('hex')}`]));

  let keys = opts.signingKeys?.map((k) => ({ ...k })) ?? [signingJwk()];
  const codeClients: Array<Record<string, unknown>> = [];
  const build = (): void => {
    const provider = new Provider(issuer, {
      clients: [
        ...[...secrets].map(([client_id, client_secret]) => ({
          client_id,
          client_secret,
          grant_types: ['client_credentials'],
          redirect_uris: [],
          response_types: [],
        })),
        ...codeClients,
      ],
      jwks: { keys } as never,
      // Sign-in: any login name is an account whose groups are those of the user of that name.
      findAccount: (_ctx: unknown, id: string) => ({
        accountId: id,
        claims: () => ({ sub: id, groups: opts.users[id]?.groups ?? [] }),
      }),
      claims: { openid: ['sub'], groups: ['groups'] },
      conformIdTokenClaims: false,
      cookies: { keys: ['test-cookie-key'] },
      features: {
        devInteractions: { enabled: true },
        clientCredentials: { enabled: true },
        resourceIndicators: {
          enabled: true,
          // Only the client_credentials users get the JWT access token; sign-in wants the ID token.
          defaultResource: (_ctx: unknown, client: { grantTypes: string[] }) => (client.grantTypes.includes('client_credentials') ? 'urn:gateway' : undefined),
          getResourceServerInfo: (_ctx: unknown, _resource: string, client: { clientId: string }) => ({
            scope: 'api',
            audience: opts.users[client.clientId]?.audience ?? audience,
            accessTokenFormat: 'jwt',
            accessTokenTTL: opts.users[client.clientId]?.ttlSec ?? 600,
          }),
        },
      },
      extraTokenClaims: (_ctx: unknown, token: { clientId?: string }) => ({ groups: opts.users[token.clientId ?? '']?.groups ?? [] }),
    } as never);
    handler = provider.callback() as unknown as (req: IncomingMessage, res: ServerResponse) => void;
  };
  build();

  return {
    issuer,
    audience,
    async token(user: string): Promise<string> {
      const secret = secrets.get(user);
      if (secret === undefined) throw new Error(`no test user ${user}`);
      const res = await request(`${issuer}/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`,
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'api', resource: 'urn:gateway' }).toString(),
        ...(opts.tls === undefined ? {} : { dispatcher: tlsAgent }),
      });
      const body = (await res.body.json()) as { access_token?: string };
      if (res.statusCode !== 200 || typeof body.access_token !== 'string') throw new Error(`IdP token: ${res.statusCode} ${JSON.stringify(body)}`);
      return body.access_token;
    },
    rotateKeys: () => {
      keys = [signingJwk()];
      build();
    },
    signingKeys: () => keys.map((k) => ({ ...k })),
    addCodeClient: (client_id, client_secret, redirectUri) => {
      codeClients.push({
        client_id,
        client_secret,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: 'client_secret_basic',
      });
      build();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

// The test's own calls to an HTTPS IdP trust the test CA (the gateway gets it as ca_cert_pem).
const tlsAgent = new Agent({ connect: { ca: readFileSync(join(process.cwd(), 'test', 'fixtures', 'tls', 'ca.pem'), 'utf8') } });

/** An unsigned (`alg: none`) token with the given claims. */
export function unsignedToken(claims: Record<string, unknown>): string {
  const part = (o: unknown): string => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.`;
}

/** A well-formed RS256 token from `issuer` for mallory (group eng, audience gateway), signed by
 * a key the IdP never published (kid `rogue`): its signature cannot verify. */
export function foreignSignedToken(issuer: string): Promise<string> {
  const rogueKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  return new SignJWT({ groups: ['eng'] })
    .setProtectedHeader({ alg: 'RS256', kid: 'rogue' })
    .setIssuer(issuer)
    .setAudience('gateway')
    .setSubject('mallory')
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(rogueKey);
}
