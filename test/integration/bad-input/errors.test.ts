// Bad input gets a clear error in the ingress protocol's own shape and status, never a crash;
// a client that goes away mid-stream (or while the upstream is still thinking) makes the
// gateway cancel its upstream request.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import { ERROR_TABLE, type ErrorKind } from '../../../src/shared/errors.js';
import { PROTOCOL_NAMES, type ProtocolName } from '../../../src/shared/model/types.js';
import { minimalRequest, postAndLeaveAfter, postAndLeaveAfterFirstBytes, rawPost, type RawAnswer } from '../../helpers/clients/raw.js';
import { eventually, suiteStack } from '../../helpers/clients/stack.js';

const MAX_BODY_BYTES = 4096;
/** How long the mock may take to notice the gateway cancelled its request. */
const ABORT_SEEN_MS = 3000;

const stack = suiteStack({ workers: 1, over: { advanced: { max_body_bytes: MAX_BODY_BYTES } } });

function parseJson(a: RawAnswer): Record<string, unknown> {
  const text = a.body.toString('utf8');
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    assert.fail(`the error body is not JSON (status ${a.status}): ${text.slice(0, 300)}`);
  }
}

function header(headers: IncomingHttpHeaders, name: string): string {
  const v = headers[name];
  return Array.isArray(v) ? v.join(', ') : (v ?? '');
}

/** Asserts status and the protocol's native error shape for a gateway-made error of `kind`. */
function assertErrorShape(protocol: ProtocolName, kind: ErrorKind, a: RawAnswer): void {
  const spec = ERROR_TABLE[kind];
  const raw = a.body.toString('utf8').slice(0, 300);
  assert.equal(a.status, spec.status, `status for ${kind}; body: ${raw}`);
  assert.match(header(a.headers, 'content-type'), /^application\/json/, 'content type');
  const body = parseJson(a);
  switch (protocol) {
    case 'openai':
    case 'responses': {
      const e = body.error as Record<string, unknown>;
      assert.ok(e !== null && typeof e === 'object', `{"error":{...}} expected: ${raw}`);
      assert.equal(typeof e.message, 'string');
      assert.equal(e.type, spec.openai);
      assert.ok('param' in e && 'code' in e, `param and code present: ${raw}`);
      break;
    }
    case 'anthropic': {
      assert.equal(body.type, 'error', raw);
      const e = body.error as Record<string, unknown>;
      assert.equal(e.type, spec.anthropic);
      assert.equal(typeof e.message, 'string');
      break;
    }
    case 'gemini': {
      const e = body.error as Record<string, unknown>;
      assert.ok(e !== null && typeof e === 'object', `{"error":{...}} expected: ${raw}`);
      assert.equal(e.code, spec.status);
      assert.equal(e.status, spec.gemini);
      assert.equal(typeof e.message, 'string');
      break;
    }
    case 'bedrock':
      assert.equal(typeof body.message, 'string', raw);
      // The SDK reads the type before any `:` (AWS appends a namespace URL there).
      assert.equal(header(a.headers, 'x-amzn-errortype').split(':')[0], spec.bedrock);
      break;
    case 'ollama':
      assert.equal(typeof body.error, 'string', raw);
      assert.deepEqual(Object.keys(body), ['error']);
      break;
  }
}

function url(path: string): string {
  return stack.gateway.url + path;
}

describe("bad input gets the protocol's own error", () => {
  for (const protocol of PROTOCOL_NAMES) {
    describe(protocol, () => {
      it('malformed JSON -> 400', async () => {
        const { path, body } = minimalRequest(protocol, `pool-${protocol}`, 'hi', false);
        const a = await rawPost(url(path), body.slice(0, body.length - 7) + ',,]');
        assertErrorShape(protocol, 'invalid_json', a);
      });

      it('unknown model -> 404, the upstream not called', async () => {
        const before = stack.mock.stats().requests;
        const { path, body } = minimalRequest(protocol, 'no-such-pool', 'hi', false);
        const a = await rawPost(url(path), body);
        assertErrorShape(protocol, 'model_not_found', a);
        assert.match(a.body.toString('utf8'), /no-such-pool/, 'the message names the model');
        assert.equal(stack.mock.stats().requests, before);
      });

      it('a body over advanced.max_body_bytes -> 413', async () => {
        const { path } = minimalRequest(protocol, `pool-${protocol}`, 'hi', false);
        const big = minimalRequest(protocol, `pool-${protocol}`, 'x'.repeat(MAX_BODY_BYTES), false).body;
        const a = await rawPost(url(path), big);
        assertErrorShape(protocol, 'body_too_large', a);
      });

      // Ollama ignores the content type (its docs' curl examples send a form type): so does the gateway on its routes.
      it(protocol === 'ollama' ? 'a wrong content type is ignored, as Ollama does' : 'a wrong content type -> 415', async () => {
        const { path, body } = minimalRequest(protocol, `pool-${protocol}`, 'hi', false);
        const a = await rawPost(url(path), body, { headers: { 'content-type': 'text/plain' } });
        if (protocol === 'ollama') assert.equal(a.status, 200, a.body.toString('utf8'));
        else assertErrorShape(protocol, 'unsupported_media_type', a);
      });
    });
  }

  it('a chunked body (no content-length) over the cap -> 413', async () => {
    const piece = 'x'.repeat(1500);
    const a = await rawPost(url('/v1/messages'), '', {
      chunks: [`{"model":"pool-anthropic","max_tokens":64,"messages":[{"role":"user","content":"`, piece, piece, piece, '"}]}'],
    });
    assertErrorShape('anthropic', 'body_too_large', a);
  });

  it('an unknown route -> 404 (openai shape: no protocol is implied)', async () => {
    const a = await rawPost(url('/v1/no/such/route'), '{}');
    assertErrorShape('openai', 'route_not_found', a);
    const g = await rawPost(url('/v1/chat/completions'), '', { method: 'GET' });
    assertErrorShape('openai', 'method_not_allowed', g); // a known path: 405 (test/integration/edge/http-edge.test.ts)
  });

  it('an unknown gemini method -> 404 in gemini shape', async () => {
    const a = await rawPost(url('/v1beta/models/pool-gemini:generateAnswer'), '{"contents":[]}');
    assertErrorShape('gemini', 'route_not_found', a);
  });

  it('a body that is JSON but not an object -> 400', async () => {
    const a = await rawPost(url('/v1/messages'), '[1,2,3]');
    assertErrorShape('anthropic', 'invalid_request', a);
    // Read by members (a named route) and parsed whole (a direct route) alike, whatever the value.
    for (const path of ['/v1/chat/completions', '/default']) {
      for (const body of ['1', '2', '3', 'true', 'null', '"model"', '[{"model":"default"}]', ' 0 ']) {
        assertErrorShape('openai', 'invalid_request', await rawPost(url(path), body));
      }
      for (const body of ['', '{', '{"model":"default",}', '{"model":"default"} 1', '\ufeff{}']) {
        assertErrorShape('openai', 'invalid_json', await rawPost(url(path), body));
      }
    }
  });

  it('the gateway still serves after all of the above', async () => {
    const { path, body } = minimalRequest('openai', 'pool-openai', 'hi', false);
    const a = await rawPost(url(path), body);
    assert.equal(a.status, 200, a.body.toString('utf8'));
  });
});

describe('a client that goes away cancels the upstream request', () => {
  const LONG_STREAM = 'Go on. [mock chunks=400 tokens_per_sec=20]';

  async function assertUpstreamAborted(leave: () => Promise<unknown>): Promise<void> {
    const abortedBefore = stack.mock.stats().aborted;
    await leave();
    const seen = await eventually(() => stack.mock.stats().aborted > abortedBefore, ABORT_SEEN_MS);
    assert.ok(seen, `the mock saw no abort within ${ABORT_SEEN_MS} ms: ${JSON.stringify(stack.mock.stats())}`);
    assert.ok(await eventually(() => stack.mock.stats().inflight === 0, ABORT_SEEN_MS), 'nothing left in flight at the mock');
  }

  for (const ingress of PROTOCOL_NAMES) {
    it(`${ingress}: mid-stream, passthrough`, async () => {
      const { path, body } = minimalRequest(ingress, `pool-${ingress}`, LONG_STREAM, true);
      await assertUpstreamAborted(async () => {
        const { status } = await postAndLeaveAfterFirstBytes(url(path), body);
        assert.equal(status, 200);
      });
    });
  }

  it('openai -> anthropic: mid-stream, translated', async () => {
    const { path, body } = minimalRequest('openai', 'pool-anthropic', LONG_STREAM, true);
    await assertUpstreamAborted(() => postAndLeaveAfterFirstBytes(url(path), body));
  });

  it('bedrock -> gemini: while the upstream has not answered yet', async () => {
    const { path, body } = minimalRequest('bedrock', 'pool-gemini', 'Think. [mock fault=hang]', true);
    await assertUpstreamAborted(async () => {
      // Give the gateway time to dispatch upstream before leaving.
      const seenUpstream = stack.mock.stats().requests;
      const leaving = postAndLeaveAfter(url(path), body, 300);
      assert.ok(await eventually(() => stack.mock.stats().requests > seenUpstream, 2000), 'the request reached the mock');
      await leaving;
    });
  });
});
