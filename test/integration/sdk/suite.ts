// The shared shape of the six SDK test files: a vendor SDK pointed at the real gateway
// completes non-stream and stream calls, text and tool call, on its own protocol's pool; and
// errors (made by the gateway, or relayed from the upstream) surface as the SDK's usual typed
// exception. Each file supplies the SDK-specific error calls and checks.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import type { ProtocolName } from '../../../src/shared/model/types.js';
import { mockText } from '../../../src/mock/content.js';
import { clientFor, toolRoundTrip, WEATHER_TOOL, type ProtocolClient } from '../../helpers/clients/index.js';
import { suiteStack } from '../../helpers/clients/stack.js';

export interface ErrorCase {
  /** Sends one request with the vendor SDK and returns what it threw (or fails when it did not). */
  call(gatewayUrl: string, model: string, prompt: string): Promise<unknown>;
  /** The SDK's typed error for an unknown model (the gateway's own 404). */
  assertNotFound(err: unknown): void;
  /** The SDK's typed error for a 429 with Retry-After (relayed, or translated from another lane). */
  assertRateLimited(err: unknown): void;
  /** The SDK's typed error for an upstream 503. */
  assertUnavailable(err: unknown): void;
}

/** The openai SDK's checks, the same for both its APIs (Chat Completions and Responses): one set of error classes, one error body. */
export const OPENAI_SDK_ERRORS: Omit<ErrorCase, 'call'> = {
  assertNotFound(err) {
    assert.ok(err instanceof OpenAI.NotFoundError, `expected NotFoundError, got ${String(err)}`);
    assert.equal(err.status, 404);
    assert.equal(err.type, 'invalid_request_error');
    assert.match(err.message, /no-such-pool/);
  },
  assertRateLimited(err) {
    assert.ok(err instanceof OpenAI.RateLimitError, `expected RateLimitError, got ${String(err)}`);
    assert.equal(err.status, 429);
    assert.equal(err.headers.get('retry-after'), '3');
  },
  assertUnavailable(err) {
    assert.ok(err instanceof OpenAI.InternalServerError, `expected InternalServerError, got ${String(err)}`);
    assert.equal(err.status, 503);
  },
};

/** A lane in another protocol, so that the error crosses a translation. */
function otherLane(protocol: ProtocolName): ProtocolName {
  return protocol === 'anthropic' ? 'openai' : 'anthropic';
}

async function thrown(p: Promise<unknown>): Promise<unknown> {
  try {
    const value = await p;
    assert.fail(`expected the SDK to throw, it returned ${JSON.stringify(value)?.slice(0, 300)}`);
  } catch (err) {
    if (err instanceof assert.AssertionError) throw err;
    return err;
  }
}

export function sdkSuite(protocol: ProtocolName, errors: ErrorCase): void {
  describe(`${protocol} SDK against the gateway`, () => {
    const stack = suiteStack({ workers: 1 });
    let client: ProtocolClient;
    const model = `pool-${protocol}`;

    before(async () => {
      client = clientFor(protocol, stack.gateway.url);
    });

    for (const stream of [false, true]) {
      const mode = stream ? 'stream' : 'non-stream';

      it(`completes a ${mode} text call`, async () => {
        let firstChunkAt = 0;
        const r = await client.chat({
          model,
          stream,
          system: 'Be brief.',
          messages: [{ role: 'user', text: 'Hello there.' }],
          onChunk: () => (firstChunkAt ||= Date.now()),
        });
        assert.equal(r.text, mockText(5));
        assert.equal(r.finish, 'stop');
        assert.deepEqual(r.usage, { input: 12, output: 5, cacheRead: 0 });
        if (stream) {
          assert.equal(r.chunks, 5, 'one SDK stream event per mock chunk');
          assert.ok(firstChunkAt > 0);
        }
      });

      it(`completes a ${mode} tool call and its round trip`, async () => {
        const question = 'Weather in Paris?';
        const first = await client.chat({ model, stream, messages: [{ role: 'user', text: question }], tools: [WEATHER_TOOL] });
        assert.equal(first.finish, 'tool_calls');
        assert.equal(first.toolCalls.length, 1);
        assert.equal(first.toolCalls[0]!.name, 'get_weather');
        assert.deepEqual(first.toolCalls[0]!.arguments, { location: 'Paris' });
        const second = await client.chat({ model, stream, messages: toolRoundTrip(question, first), tools: [WEATHER_TOOL] });
        assert.equal(second.text, mockText(5));
        assert.equal(second.finish, 'stop');
      });
    }

    it('an unknown model raises the SDK not-found error (made by the gateway)', async () => {
      const before = stack.mock.stats().requests;
      const err = await thrown(errors.call(stack.gateway.url, 'no-such-pool', 'Hello.'));
      errors.assertNotFound(err);
      assert.equal(stack.mock.stats().requests, before, 'the gateway answered without calling upstream');
    });

    it('an upstream 429 with Retry-After raises the SDK rate-limit error', async () => {
      const err = await thrown(errors.call(stack.gateway.url, model, 'Hello. [mock status=429 retry_after=3]'));
      errors.assertRateLimited(err);
    });

    it('an upstream 429 from a lane in another protocol raises the same rate-limit error', async () => {
      const err = await thrown(errors.call(stack.gateway.url, `pool-${otherLane(protocol)}`, 'Hello. [mock status=429 retry_after=3]'));
      errors.assertRateLimited(err);
    });

    it('an upstream 503 raises the SDK service-unavailable error', async () => {
      const err = await thrown(errors.call(stack.gateway.url, model, 'Hello. [mock status=503]'));
      errors.assertUnavailable(err);
    });
  });
}
