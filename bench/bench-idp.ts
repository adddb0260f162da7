// Bench support for the identity scenario: a minimal identity provider in the bench process
// (its discovery document and JWKS over loopback HTTP, one RS256 key) and one token it signed
// for a user in group `eng`. The gateway fetches the JWKS once and then verifies from its
// caches, which is what the scenario measures. The listener is unref'd: it never keeps the
// bench alive.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { GatewayConfigFiles } from './scenario.js';
import { governGateway } from './governed-gateway.js';

const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'bench', alg: 'RS256', use: 'sig' }] });

const server = createServer((req, res) => {
  if (req.url === '/.well-known/openid-configuration') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ issuer: ISSUER, jwks_uri: `${ISSUER}/jwks` }));
  } else if (req.url === '/jwks') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(jwks);
  } else res.writeHead(404).end();
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
server.unref();
const ISSUER = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

/** The IdP token the identity scenario's requests carry. */
export const BENCH_IDP_TOKEN = await new SignJWT({ groups: ['eng'] })
  .setProtectedHeader({ alg: 'RS256', kid: 'bench' })
  .setIssuer(ISSUER)
  .setAudience('gateway')
  .setSubject('bench-user')
  .setIssuedAt()
  .setExpirationTime('1d')
  .sign(privateKey);

/** The governed bench gateway, with `auth.chain: [corp]` (this IdP) instead of `[keys]`. */
export function identityGateway(files: GatewayConfigFiles): void {
  governGateway(files);
  const gateway = files.gateway;
  gateway.auth = { ...(gateway.auth as object), chain: ['corp'] };
  gateway['identity-providers'] = { corp: { module: 'oidc', settings: { issuer: ISSUER, audience: 'gateway' } } };
  gateway.role_bindings = { corp: { eng: { group: 'bench' } } };
}
