// The SSRF guard at connect time (issue 15): every spelling of the metadata address, a name
// that resolves there (through the guard's own resolver, swapped for a test one), a redirect
// there, and a DNS answer that changes between validation and connect are refused before a
// byte is sent; each allow setting lets exactly its host through. Real sockets: a local HTTP
// server on 127.0.0.1 stands in for any host a test resolver points at 127.0.0.1; nothing here
// ever connects to a metadata address (the guard refuses first, or the test asks the policy).
import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Pool, request } from 'undici';
import { EgressRefusedError } from '../../../src/shared/egress/connector.js';
import { egressAgent } from '../../../src/shared/egress/dispatchers.js';
import { DEFAULT_EGRESS_POLICY, egressRefusal, setEgressPolicy } from '../../../src/shared/egress/policy.js';
import { setEgressResolver, type ResolvedAddress } from '../../../src/shared/egress/resolver.js';
import { validateEgressUrl } from '../../../src/shared/egress/validate.js';
import { UpstreamOrigins } from '../../../src/worker/upstream/origins.js';
import { OidcVerifier } from '../../../src/shared/identity/oidc-verifier.js';

let server: Server;
let port = 0;
let hits = 0;

before(async () => {
  server = createServer((req, res) => {
    hits++;
    if (req.url?.startsWith('/redirect-to/')) {
      res.writeHead(302, { location: decodeURIComponent(req.url.slice('/redirect-to/'.length)) }).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

after(async () => {
  await egressAgent().close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

afterEach(() => {
  setEgressPolicy(DEFAULT_EGRESS_POLICY);
  setEgressResolver(null);
});

/** A resolver with a fixed table; names not in it do not resolve. */
function table(entries: Record<string, string | string[] | (() => string)>): (name: string) => Promise<ResolvedAddress[]> {
  return async (name) => {
    const entry = entries[name];
    if (entry === undefined) throw Object.assign(new Error(`test resolver: no ${name}`), { code: 'ENOTFOUND' });
    const addresses = typeof entry === 'function' ? [entry()] : Array.isArray(entry) ? entry : [entry];
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

async function get(url: string): Promise<number> {
  const res = await request(url, { dispatcher: egressAgent(), headersTimeout: 5000, bodyTimeout: 5000 });
  await res.body.dump();
  return res.statusCode;
}

async function refused(url: string): Promise<void> {
  const before = hits;
  await assert.rejects(get(url), (err: Error) => {
    assert.ok(err instanceof EgressRefusedError, `expected the guard's refusal, got ${err.name}: ${err.message}`);
    return true;
  });
  assert.equal(hits, before, 'nothing reached the local server');
}

describe('SSRF guard at connect time', () => {
  const spellings: Array<[string, string]> = [
    ['the metadata IP', 'http://169.254.169.254/latest/meta-data/'],
    ['the IPv6 IMDS address', 'http://[fd00:ec2::254]/'],
    ['the IPv4-mapped IPv6 form (dotted)', 'http://[::ffff:169.254.169.254]/'],
    ['the IPv4-mapped IPv6 form (hex)', 'http://[::ffff:a9fe:a9fe]/'],
    ['the IPv4-compatible IPv6 form', 'http://[::a9fe:a9fe]/'],
    ['the NAT64 form', 'http://[64:ff9b::a9fe:a9fe]/'],
    ['the integer form', 'http://2852039166/'],
    ['the hex integer form', 'http://0xa9fea9fe/'],
    ['the dotted octal form', 'http://0251.0376.0251.0376/'],
    ['the dotted hex form', 'http://0xa9.0xfe.0xa9.0xfe/'],
    ['the short form', 'http://169.254.43518/'],
    ['a trailing-dot name on the list', 'http://metadata.google.internal./'],
    ['a name on the list', 'http://metadata.google.internal/'],
  ];
  for (const [what, url] of spellings) {
    it(`refuses ${what}: ${url}`, async () => {
      // The listed name would resolve to the local server: the name itself is refused.
      setEgressResolver(table({ 'metadata.google.internal': '127.0.0.1' }));
      await refused(url);
    });
  }

  it('refuses a name that resolves to the metadata address (test resolver)', async () => {
    setEgressResolver(table({ 'innocent.example': '169.254.169.254' }));
    await refused('http://innocent.example/');
  });

  it('refuses a name with one good and one metadata answer', async () => {
    setEgressResolver(table({ 'mixed.example': ['127.0.0.1', '::ffff:169.254.169.254'] }));
    await refused(`http://mixed.example:${port}/`);
  });

  it('refuses a redirect to the metadata address (IdP discovery through the OIDC verifier)', async () => {
    const target = encodeURIComponent('http://169.254.169.254/latest/meta-data/iam/security-credentials/');
    // The issuer's discovery URL answers 302 to the metadata address; the verifier's fetch follows it.
    const verifier = new OidcVerifier({ issuer: `http://127.0.0.1:${port}/redirect-to/${target}#`, audience: 'x' });
    await assert.rejects(verifier.endpoints(), (err: Error) => {
      const cause = (err as Error & { cause?: Error }).cause;
      assert.ok(cause instanceof EgressRefusedError, `expected the guard's refusal as the cause, got ${String(cause)}`);
      return true;
    });
  });

  it('refuses a redirect to a name that resolves there', async () => {
    setEgressResolver(table({ 'cdn.example': '169.254.169.254' }));
    const verifier = new OidcVerifier({ issuer: `http://127.0.0.1:${port}/redirect-to/${encodeURIComponent('http://cdn.example/x')}#`, audience: 'x' });
    await assert.rejects(verifier.endpoints(), (err: Error) => (err as Error & { cause?: Error }).cause instanceof EgressRefusedError);
  });

  it('refuses DNS rebinding: the name validated as 127.0.0.1, then answers the metadata address at connect', async () => {
    let answers = 0;
    setEgressResolver(table({ 'rebind.example': () => (answers++ === 0 ? '127.0.0.1' : '169.254.169.254') }));
    const url = `http://rebind.example:${port}/`;
    assert.equal(await validateEgressUrl(url), null, 'the first answer passes validation');
    await refused(url);
    assert.equal(answers, 2, 'the connect resolved again and was checked');
  });

  it('lets loopback and ordinary names through (tests and the mock live on 127.0.0.1)', async () => {
    setEgressResolver(table({ 'upstream.example': '127.0.0.1' }));
    assert.equal(await get(`http://127.0.0.1:${port}/`), 200);
    assert.equal(await get(`http://upstream.example:${port}/`), 200);
  });

  it('checks upstream pools too (UpstreamOrigins), and a provider allow list lets exactly its host through', async () => {
    setEgressResolver(table({ 'instance-data': '127.0.0.1', 'metadata.goog': '127.0.0.1' }));
    const origins = new UpstreamOrigins();
    origins.configure({ http1Only: true, h2PriorKnowledge: false, requestTimeoutMs: 5000, connectionsPerOrigin: 4 });
    try {
      const call = async (pool: Pool): Promise<number> => {
        const res = await pool.request({ path: '/', method: 'GET' });
        await res.body.dump();
        return res.statusCode;
      };
      await assert.rejects(call(origins.get(`http://instance-data:${port}`)), EgressRefusedError);
      assert.equal(await call(origins.get(`http://instance-data:${port}`, ['instance-data'])), 200);
      await assert.rejects(call(origins.get(`http://metadata.goog:${port}`, ['instance-data'])), EgressRefusedError);
    } finally {
      await origins.close();
    }
  });

  it('security.allow_metadata_hosts lets exactly its host through', async () => {
    setEgressResolver(table({ 'metadata.google.internal': '169.254.169.254', 'instance-data': '127.0.0.1', 'metadata.goog': '127.0.0.1' }));
    setEgressPolicy({ blocked: [], allowed: ['metadata.goog'], allowAll: false });
    assert.equal(await get(`http://metadata.goog:${port}/`), 200);
    await refused(`http://instance-data:${port}/`);
    await refused('http://metadata.google.internal/');
    // An allowed address literal: the policy lets it through (no connection is made to it here).
    setEgressPolicy({ blocked: [], allowed: ['169.254.169.254'], allowAll: false });
    assert.equal(egressRefusal('169.254.169.254'), null);
    assert.equal(egressRefusal('0xa9fea9fe'), null, 'every spelling of the allowed address');
    assert.notEqual(egressRefusal('169.254.170.2'), null, 'but not the next metadata address');
  });

  it('security.allow_all_metadata lets every listed host through', async () => {
    setEgressResolver(table({ 'instance-data': '127.0.0.1', 'x.example': '169.254.169.254' }));
    setEgressPolicy({ blocked: [], allowed: [], allowAll: true });
    assert.equal(await get(`http://instance-data:${port}/`), 200);
    assert.equal(egressRefusal('169.254.169.254'), null);
  });

  it('security.blocked_metadata_hosts adds a host (name or address) to the denylist', async () => {
    setEgressResolver(table({ 'internal.example': '127.0.0.1', 'other.example': '10.9.8.7' }));
    setEgressPolicy({ blocked: ['internal.example', '10.9.8.7'], allowed: [], allowAll: false });
    await refused(`http://internal.example:${port}/`);
    await refused('http://other.example/');
  });
});
