import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { anthropicCodec } from '../../../../src/shared/protocols/anthropic/codec.js';
import { vendorStream } from './fixtures.js';
import { assertRelayedWhole } from '../relayed.js';

describe('anthropic passthrough', () => {
  it('rewrites only the model in the raw body', () => {
    const raw = '{"model": "my-pool","max_tokens":10, "messages":[{"role":"user","content":"model"}],"x-unknown":{"model":"keep"}}';
    const out = anthropicCodec.passthroughBody(raw, JSON.parse(raw), 'claude-sonnet-4-5', false);
    assert.equal(out, raw.replace('"my-pool"', '"claude-sonnet-4-5"'));
  });

  it('relays every byte in whole events and reads usage, split at every byte offset', () => {
    const data = new TextEncoder().encode(vendorStream);
    for (let at = 0; at <= data.length; at += 3) {
      const p = anthropicCodec.createPassthroughStream({});
      const a = data.subarray(0, at);
      const b = data.subarray(at);
      assertRelayedWhole(p, [a, b]);
      assert.deepEqual(p.usage(), { input: 472, output: 89, cacheRead: 300, cacheCreation: 10 });
    }
  });

  it("reads usage alike through the lane's learnt shapes, stream after stream, at every split", () => {
    const data = new TextEncoder().encode(vendorStream);
    const memo = { usageEvent: null, eventShapes: null, responsesDeltas: null, chatDeltas: null, geminiText: null };
    for (let at = 0; at <= data.length; at += 7) {
      const p = anthropicCodec.createPassthroughStream({}, memo);
      assertRelayedWhole(p, [data.subarray(0, at), data.subarray(at)]);
      assert.deepEqual(p.usage(), { input: 472, output: 89, cacheRead: 300, cacheCreation: 10 });
    }
    assert.notEqual(memo.eventShapes, null);
  });

  it('has no usage before any arrives, and the input side after message_start', () => {
    const p = anthropicCodec.createPassthroughStream({});
    assert.equal(p.usage(), null);
    p.push(new TextEncoder().encode(vendorStream.slice(0, vendorStream.indexOf('event: ping'))));
    assert.deepEqual(p.usage(), { input: 472, output: 2, cacheRead: 300, cacheCreation: 10 });
  });

  it('always carries usage in its streams', () => {
    assert.equal(anthropicCodec.streamUsageRequested({}), true);
  });
});
