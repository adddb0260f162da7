// Same-protocol routes pass bodies through byte for byte. For each protocol, a hand-written
// body with unknown fields, odd whitespace, escapes, key order and a nested `model` goes to the
// gateway; the mock (its /mock/last-request) must receive exactly those bytes, with only the
// top-level `model` value rewritten to the lane's upstream model (gemini and bedrock name the
// model in the path, so their bodies arrive untouched and the path is rewritten instead). The
// response bytes the client gets must equal what the mock answers to a direct request with the
// body it received. (The mock's ids and timestamps are fixed per process, so that is exact.)
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ProtocolName } from '../../../src/shared/model/types.js';
import { type Stack, suiteStack } from '../../helpers/clients/stack.js';

interface Case {
  protocol: ProtocolName;
  name: string;
  /** Path on the gateway (names the pool when the protocol has the model in its path). */
  gatewayPath: string;
  /** Path the mock must see (the lane's upstream model when the model is in the path). */
  upstreamPath: string;
  /** The body the client sends, byte for byte. */
  body: string;
  /** The body the mock must receive. */
  upstreamBody: string;
}

/** Unknown fields, a nested `model` that must stay, odd spacing, escapes, number spellings. */
const EXTRAS = '"x_vendor_ext" : {"model":"keep-me","z":[1,2.50,-0.0,1e3],\t"a":null},\n  "x_flag":true';
const HELLO = 'Hello \\u00e9\\n\\"quoted\\" \\/ caf\u00e9';

/** Writes `"model": <value>` with spacing nobody would normalize to. */
function withModel(model: string, rest: string): string {
  return `{\n  ${rest},\n   "model"  :   "${model}" ,${EXTRAS}\n}\n`;
}

function modelInBody(protocol: ProtocolName, name: string, path: string, rest: string): Case {
  return {
    protocol,
    name,
    gatewayPath: path,
    upstreamPath: path,
    body: withModel(`pool-${protocol}`, rest),
    upstreamBody: withModel(`up-${protocol}`, rest),
  };
}

function modelInPath(protocol: ProtocolName, name: string, path: (model: string) => string, body: string): Case {
  return { protocol, name, gatewayPath: path(`pool-${protocol}`), upstreamPath: path(`up-${protocol}`), body, upstreamBody: body };
}

const OPENAI_MESSAGES = `"messages":[ {"role":"user",  "content":"${HELLO}"} ]`;
const GEMINI_BODY = `{ "contents" : [{"role":"user","parts":[{"text":"${HELLO}"}]}],${EXTRAS},"generationConfig":{"temperature":0.70}}\n`;
const BEDROCK_BODY = `{"messages":[{"role":"user","content":[ {"text":"${HELLO}"} ]}] ,${EXTRAS}, "inferenceConfig":{"maxTokens":64}}`;

const CASES: Case[] = [
  modelInBody('openai', 'non-stream', '/v1/chat/completions', `${OPENAI_MESSAGES}, "temperature":0.70`),
  // The client asks for usage itself, so the gateway has nothing to add to the body.
  modelInBody('openai', 'stream with include_usage', '/v1/chat/completions', `"stream":true,"stream_options":{"include_usage":true} ,${OPENAI_MESSAGES}`),
  modelInBody('responses', 'non-stream', '/v1/responses', `"input":"${HELLO}", "store":false`),
  modelInBody('responses', 'stream', '/v1/responses', `"stream":true, "input":[{"role":"user","content":"${HELLO}"}]`),
  modelInBody('anthropic', 'non-stream', '/v1/messages', `"max_tokens":64, "messages":[{"role":"user","content":"${HELLO}"}]`),
  modelInBody(
    'anthropic',
    'stream',
    '/v1/messages',
    `"messages":[{"role":"user","content":[{"type":"text","text":"${HELLO}"}]}],"stream":true,"max_tokens":64`,
  ),
  modelInPath('gemini', 'non-stream', (m) => `/v1beta/models/${m}:generateContent`, GEMINI_BODY),
  modelInPath('gemini', 'stream', (m) => `/v1beta/models/${m}:streamGenerateContent?alt=sse`, GEMINI_BODY),
  modelInPath('bedrock', 'non-stream', (m) => `/model/${m}/converse`, BEDROCK_BODY),
  modelInPath('bedrock', 'stream', (m) => `/model/${m}/converse-stream`, BEDROCK_BODY),
  modelInBody('ollama', 'non-stream', '/api/chat', `"stream":false, ${OPENAI_MESSAGES}, "options":{"temperature":0.7}`),
  // Ollama streams when `stream` is absent.
  modelInBody('ollama', 'stream (by default)', '/api/chat', `${OPENAI_MESSAGES}, "keep_alive":"5m"`),
];

interface Answer {
  status: number;
  contentType: string;
  body: Buffer;
}

interface MockLastRequest {
  path: string;
  query: string;
  body_base64: string;
}

async function post(url: string, body: string): Promise<Answer> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer test' }, body });
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', body: Buffer.from(await res.arrayBuffer()) };
}

async function lastRequest(stack: Stack): Promise<MockLastRequest> {
  const res = await fetch(`${stack.mock.url}/mock/last-request`);
  assert.equal(res.status, 200, 'the mock received a model request');
  return (await res.json()) as MockLastRequest;
}

function pathWithQuery(last: MockLastRequest): string {
  return last.query === '' ? last.path : `${last.path}?${last.query}`;
}

/** Shows where two byte strings first differ, for a readable failure. */
function firstDifference(a: Buffer, b: Buffer): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const around = (x: Buffer) => JSON.stringify(x.subarray(Math.max(0, i - 40), i + 40).toString('utf8'));
  return `first difference at byte ${i} (lengths ${a.length} vs ${b.length}):\n  got      ${around(a)}\n  expected ${around(b)}`;
}

function assertSameBytes(got: Buffer, expected: Buffer, what: string): void {
  assert.ok(got.equals(expected), `${what} differ: ${firstDifference(got, expected)}`);
}

const stack = suiteStack({ workers: 1 });

// Sequential: /mock/last-request is the mock's one most recent request.
describe('same-protocol passthrough is byte-identical', () => {
  for (const c of CASES) {
    it(`${c.protocol} ${c.name}`, async () => {
      const viaGateway = await post(stack.gateway.url + c.gatewayPath, c.body);
      const received = await lastRequest(stack);
      assert.equal(pathWithQuery(received), c.upstreamPath, 'upstream path');
      assertSameBytes(Buffer.from(received.body_base64, 'base64'), Buffer.from(c.upstreamBody, 'utf8'), 'request bytes at the mock');

      const direct = await post(stack.mock.url + c.upstreamPath, c.upstreamBody);
      assert.equal(direct.status, 200, `the mock accepts the body directly: ${direct.body.toString('utf8').slice(0, 300)}`);
      assert.equal(viaGateway.status, direct.status, `gateway status; body: ${viaGateway.body.toString('utf8').slice(0, 300)}`);
      assert.equal(viaGateway.contentType, direct.contentType, 'content type');
      assertSameBytes(viaGateway.body, direct.body, 'response bytes');
    });
  }

  it('openai stream without include_usage: usage requested upstream, its chunk dropped for the client', async () => {
    const rest = `"stream":true, ${OPENAI_MESSAGES}`;
    const viaGateway = await post(`${stack.gateway.url}/v1/chat/completions`, withModel('pool-openai', rest));
    const received = await lastRequest(stack);
    const upstreamBody = JSON.parse(Buffer.from(received.body_base64, 'base64').toString('utf8')) as Record<string, unknown>;
    assert.deepEqual(upstreamBody.stream_options, { include_usage: true }, 'the gateway asks upstream for usage');
    assert.equal(upstreamBody.model, 'up-openai');

    // What the mock answers the body the gateway sent, minus the usage-only chunk.
    const direct = await post(`${stack.mock.url}/v1/chat/completions`, Buffer.from(received.body_base64, 'base64').toString('utf8'));
    const events = direct.body
      .toString('utf8')
      .split('\n\n')
      .filter((e) => e !== '');
    const usageChunk = events.findIndex((e) => e.startsWith('data: {') && (JSON.parse(e.slice(6)) as { choices: unknown[] }).choices.length === 0);
    assert.ok(usageChunk > 0, 'the mock sent a usage-only chunk');
    const expected = events
      .filter((_, i) => i !== usageChunk)
      .map((e) => e + '\n\n')
      .join('');
    assert.equal(viaGateway.status, 200);
    assert.equal(viaGateway.body.toString('utf8'), expected);
  });
});
