// All 36 ordered (ingress, lane) pairs, through the real gateway process, with each ingress
// spoken by its vendor's own SDK: text, a tool call round trip, finish reasons and usage, each
// non-stream and stream. Same-protocol pairs go through passthrough; the other 30 through the
// codecs. The mock is an independent witness: it renders each vendor's wire format by hand.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PROTOCOL_NAMES, type ProtocolName } from '../../../src/shared/model/types.js';
import { mockText } from '../../../src/mock/content.js';
import { clientFor, toolRoundTrip, WEATHER_TOOL, type NormalizedResult, type ProtocolClient } from '../../helpers/clients/index.js';
import { suiteStack } from '../../helpers/clients/stack.js';

const MODES = [false, true] as const;
/** Pairs of one ingress run this many at a time (one gateway, two workers, one mock). */
const CONCURRENCY = 6;
/** Protocols whose own usage carries a cache-read count (Ollama has none). */
const HAS_CACHE_FIELD: ReadonlySet<ProtocolName> = new Set(['openai', 'responses', 'anthropic', 'gemini', 'bedrock']);

const clients = new Map<ProtocolName, ProtocolClient>();
const stack = suiteStack({ workers: 2 }, (started) => {
  for (const p of PROTOCOL_NAMES) clients.set(p, clientFor(p, started.gateway.url));
});

function modeName(stream: boolean): string {
  return stream ? 'stream' : 'non-stream';
}

function assertStreamed(r: NormalizedResult, stream: boolean): void {
  // Translated event by event: several content events, not one buffered blob.
  if (stream) assert.ok(r.chunks >= 2, `expected several stream chunks, got ${r.chunks}`);
}

for (const ingress of PROTOCOL_NAMES) {
  describe(`ingress ${ingress}`, { concurrency: CONCURRENCY }, () => {
    for (const lane of PROTOCOL_NAMES) {
      for (const stream of MODES) {
        const label = `${ingress} -> ${lane} ${modeName(stream)}`;
        const model = `pool-${lane}`;

        it(`${label}: text, finish stop, usage`, async () => {
          const r = await clients.get(ingress)!.chat({ model, stream, system: 'Be brief.', messages: [{ role: 'user', text: 'Say something.' }] });
          assert.equal(r.text, mockText(5));
          assert.deepEqual(r.toolCalls, []);
          assert.equal(r.finish, 'stop');
          assert.deepEqual(r.usage, { input: 12, output: 5, cacheRead: 0 });
          assertStreamed(r, stream);
        });

        it(`${label}: tool call round trip`, async () => {
          const client = clients.get(ingress)!;
          const question = 'What is the weather in Paris?';
          const first = await client.chat({ model, stream, messages: [{ role: 'user', text: question }], tools: [WEATHER_TOOL] });
          assert.equal(first.finish, 'tool_calls', 'first leg finish');
          assert.equal(first.toolCalls.length, 1, `one tool call expected: ${JSON.stringify(first.toolCalls)}`);
          assert.equal(first.toolCalls[0]!.name, WEATHER_TOOL.name);
          assert.deepEqual(first.toolCalls[0]!.arguments, { location: 'Paris' });
          assert.equal(first.text, '');
          assert.deepEqual(first.usage, { input: 12, output: 5, cacheRead: 0 }, 'first leg usage');
          if (ingress !== 'gemini' && ingress !== 'ollama') {
            // Protocols that carry call ids must get one, whatever the lane said (or did not say).
            assert.ok(typeof first.toolCalls[0]!.id === 'string' && first.toolCalls[0]!.id !== '', `tool call id: ${String(first.toolCalls[0]!.id)}`);
          }
          const second = await client.chat({ model, stream, messages: toolRoundTrip(question, first), tools: [WEATHER_TOOL] });
          assert.equal(second.text, mockText(5), 'second leg text');
          assert.deepEqual(second.toolCalls, []);
          assert.equal(second.finish, 'stop', 'second leg finish');
          assert.deepEqual(second.usage, { input: 12, output: 5, cacheRead: 0 }, 'second leg usage');
        });

        it(`${label}: cache read tokens`, async () => {
          const r = await clients
            .get(ingress)!
            .chat({ model, stream, messages: [{ role: 'user', text: 'Cached? [mock cache_read_tokens=3 input_tokens=7]' }] });
          assert.equal(r.text, mockText(5));
          const cacheSeen = HAS_CACHE_FIELD.has(ingress) && HAS_CACHE_FIELD.has(lane);
          // An Ollama lane reports no cache split (the mock's prompt_eval_count is the uncached 7).
          // Towards an Ollama client the gateway folds cached tokens into prompt_eval_count
          // (src/shared/protocols/ollama/usage.ts encodeUsage), so no token goes unreported.
          const input = ingress === 'ollama' && HAS_CACHE_FIELD.has(lane) ? 7 + 3 : 7;
          assert.deepEqual(r.usage, { input, output: 5, cacheRead: cacheSeen ? 3 : 0 });
        });
      }
    }
  });
}

describe('the lanes were really used', () => {
  it('each protocol endpoint of the mock served every ingress (48 calls per lane)', () => {
    // Per lane: 6 ingresses x 2 modes x (1 text + 2 tool legs + 1 cache) = 48, no retries.
    const byProtocol = stack.mock.stats().requests_by_protocol;
    for (const lane of PROTOCOL_NAMES) assert.equal(byProtocol[lane], 48, `${lane}: ${JSON.stringify(byProtocol)}`);
  });
});
