// The SigV4 signer is checked by an independent verifier written here from the AWS spec with
// node:crypto (no @smithy code), which is itself checked against AWS's published test suite.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import type { CompiledProvider } from '../../../../src/shared/config/compiled.js';
import { createUpstreamAuth, type OutgoingRequest } from '../../../../src/worker/upstream/auth/upstream-auth.js';

const AKID = 'AKIDEXAMPLE';
const SECRET = 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY';

const sha256Hex = (s: string | Uint8Array): string =>
  (typeof s === 'string' ? createHash('sha256').update(s, 'utf8') : createHash('sha256').update(s)).digest('hex');
const hmac = (key: string | Buffer, s: string): Buffer => createHmac('sha256', key).update(s, 'utf8').digest();
const rfc3986 = (s: string): string => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

interface Signed {
  method: string;
  host: string;
  path: string;
  headers: Record<string, string>;
  body: string | Uint8Array;
}

/** Recomputes the signature of a signed request from its own headers. */
function expectedSignature(r: Signed, secret: string): { signature: string; signedHeaders: string[]; scope: string } {
  const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
    r.headers.authorization ?? '',
  );
  assert.ok(m, `authorization header shape: ${r.headers.authorization}`);
  const [, , date = '', region = '', service = '', signedList = ''] = m;
  const signedHeaders = signedList.split(';');
  const amzDate = r.headers['x-amz-date'] ?? '';
  assert.match(amzDate, /^\d{8}T\d{6}Z$/);
  assert.equal(amzDate.slice(0, 8), date);

  const q = r.path.indexOf('?');
  const rawPath = q < 0 ? r.path : r.path.slice(0, q);
  const rawQuery = q < 0 ? '' : r.path.slice(q + 1);
  // Non-S3 services encode each segment of the path as sent once more (so `%3A` -> `%253A`).
  const canonicalPath = rawPath.split('/').map(rfc3986).join('/');
  const canonicalQuery = rawQuery
    .split('&')
    .filter(Boolean)
    .map((p) => {
      const [k = '', v = ''] = p.split('=');
      return [rfc3986(decodeURIComponent(k)), rfc3986(decodeURIComponent(v))];
    })
    .sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : a[1]! < b[1]! ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const headerValue = (name: string): string => {
    const v = name === 'host' ? r.host : r.headers[name];
    assert.ok(v !== undefined, `signed header ${name} is sent`);
    return v.trim().replace(/\s+/g, ' ');
  };
  const payloadHash = r.headers['x-amz-content-sha256'] ?? sha256Hex(r.body);
  const canonicalRequest = [
    r.method,
    canonicalPath,
    canonicalQuery,
    signedHeaders.map((h) => `${h}:${headerValue(h)}\n`).join(''),
    signedList,
    payloadHash,
  ].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
  return { signature: createHmac('sha256', key).update(stringToSign).digest('hex'), signedHeaders, scope };
}

const signatureOf = (authorization: string | undefined): string => authorization?.slice(authorization.lastIndexOf('=') + 1) ?? '';

test('the independent verifier reproduces the AWS SigV4 test suite (get-vanilla, get-vanilla-query-order-key-case, post-vanilla)', () => {
  const base = (path: string, method = 'GET'): Signed => ({
    method,
    host: 'example.amazonaws.com',
    path,
    body: '',
    headers: { 'x-amz-date': '20150830T123600Z', 'x-amz-content-sha256': sha256Hex('') },
  });
  const cases: Array<[Signed, string]> = [
    [base('/'), '5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31'],
    [base('/?Param2=value2&Param1=value1'), 'b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500'],
    [base('/', 'POST'), '5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b'],
  ];
  for (const [r, sig] of cases) {
    r.headers.authorization = `AWS4-HMAC-SHA256 Credential=${AKID}/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=${sig}`;
    assert.equal(expectedSignature(r, SECRET).signature, sig);
  }
});

function bedrock(sessionToken?: string): CompiledProvider {
  return {
    name: 'bedrock',
    protocol: 'bedrock',
    origin: 'https://bedrock-runtime.us-west-2.amazonaws.com',
    basePath: '',
    auth: { mode: 'sigv4', region: 'us-west-2', service: 'bedrock', accessKeyId: AKID, secretAccessKey: SECRET, ...(sessionToken ? { sessionToken } : {}) },
    headers: {},
    missingKey: false,
    allowMetadataHosts: [],
  };
}

const FIXED = new Date('2026-03-04T05:06:07.890Z');

test('sigv4 signs a Bedrock Converse POST: method, host, path, body hash, content-type', async () => {
  const auth = createUpstreamAuth(bedrock(), undefined, { now: () => FIXED });
  const body = JSON.stringify({ messages: [{ role: 'user', content: [{ text: 'hi  there' }] }] });
  const req: OutgoingRequest = {
    method: 'POST',
    origin: 'https://bedrock-runtime.us-west-2.amazonaws.com',
    path: '/model/anthropic.claude-3-haiku-20240307-v1:0/converse',
    headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), accept: 'application/json' },
    body,
  };
  assert.equal(await auth.apply(req), true);
  assert.equal(req.headers['x-amz-date'], '20260304T050607Z');
  assert.equal(req.headers['x-amz-content-sha256'], sha256Hex(body));
  assert.equal(req.headers['x-amz-security-token'], undefined);
  const { signature, signedHeaders, scope } = expectedSignature({ ...req, host: 'bedrock-runtime.us-west-2.amazonaws.com' }, SECRET);
  assert.equal(scope, '20260304/us-west-2/bedrock/aws4_request');
  assert.deepEqual(signedHeaders, ['content-type', 'host', 'x-amz-content-sha256', 'x-amz-date']);
  assert.equal(signatureOf(req.headers.authorization), signature);

  // Any change to what is signed changes the signature.
  const tampered = expectedSignature(
    { ...req, host: 'bedrock-runtime.us-west-2.amazonaws.com', headers: { ...req.headers, 'x-amz-content-sha256': sha256Hex(body + ' ') } },
    SECRET,
  );
  assert.notEqual(tampered.signature, signature);
});

test('sigv4 signs a body given as bytes (a same-protocol request) as it signs the same text', async () => {
  const auth = createUpstreamAuth(bedrock(), undefined, { now: () => FIXED });
  const text = JSON.stringify({ messages: [{ role: 'user', content: [{ text: 'caf\u00e9' }] }] });
  const make = (body: string | Uint8Array): OutgoingRequest => ({
    method: 'POST',
    origin: 'https://bedrock-runtime.us-west-2.amazonaws.com',
    path: '/model/m/converse',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const asText = make(text);
  const asBytes = make(Buffer.from(text));
  assert.equal(await auth.apply(asText), true);
  assert.equal(await auth.apply(asBytes), true);
  assert.equal(asBytes.headers['x-amz-content-sha256'], sha256Hex(text));
  assert.equal(asBytes.headers.authorization, asText.headers.authorization);
});

test('sigv4 signs the query and a session token, with a non-default port in host', async () => {
  const auth = createUpstreamAuth({ ...bedrock('FQoGZXIvYXdzE-session'), origin: 'http://127.0.0.1:9000' }, undefined, { now: () => FIXED });
  const req: OutgoingRequest = {
    method: 'post',
    origin: 'http://127.0.0.1:9000',
    path: '/model/m%3A1/converse-stream?b=2&a=x%20y&a=1',
    headers: { 'content-type': 'application/json', 'x-amzn-bedrock-trace': 'ENABLED' },
    body: '{}',
  };
  assert.equal(await auth.apply(req), true);
  assert.equal(req.headers['x-amz-security-token'], 'FQoGZXIvYXdzE-session');
  const { signature, signedHeaders } = expectedSignature({ ...req, method: 'POST', host: '127.0.0.1:9000' }, SECRET);
  assert.deepEqual(signedHeaders, ['content-type', 'host', 'x-amz-content-sha256', 'x-amz-date', 'x-amz-security-token', 'x-amzn-bedrock-trace']);
  assert.equal(signatureOf(req.headers.authorization), signature);
});

test('sigv4 re-signing the same request (a retry on another lane) replaces the old headers', async () => {
  let now = FIXED;
  const auth = createUpstreamAuth(bedrock(), undefined, { now: () => now });
  const req: OutgoingRequest = {
    method: 'POST',
    origin: 'https://bedrock-runtime.us-west-2.amazonaws.com',
    path: '/model/m/converse',
    headers: { 'content-type': 'application/json' },
    body: '{"a":1}',
  };
  await auth.apply(req);
  const first = req.headers.authorization;
  now = new Date(FIXED.getTime() + 61_000);
  await auth.apply(req);
  assert.equal(req.headers['x-amz-date'], '20260304T050708Z');
  assert.notEqual(req.headers.authorization, first);
  assert.equal(signatureOf(req.headers.authorization), expectedSignature({ ...req, host: 'bedrock-runtime.us-west-2.amazonaws.com' }, SECRET).signature);
});

test('sigv4 with an empty region is a clear error', () => {
  const p = bedrock();
  p.auth = { mode: 'sigv4', region: '', service: 'bedrock', accessKeyId: AKID, secretAccessKey: SECRET };
  assert.throws(() => createUpstreamAuth(p), /region is empty/);
});
