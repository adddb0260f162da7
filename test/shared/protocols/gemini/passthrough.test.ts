import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { geminiCodec } from '../../../../src/shared/protocols/gemini/codec.js';
import { vendorStream } from './fixtures.js';
import { assertRelayedWhole } from '../relayed.js';

describe('gemini passthrough', () => {
  it('relays every byte in whole events and reads the last usageMetadata, split at every byte offset', () => {
    const data = new TextEncoder().encode(vendorStream);
    for (let at = 0; at <= data.length; at++) {
      const p = geminiCodec.createPassthroughStream({});
      const a = data.subarray(0, at);
      const b = data.subarray(at);
      assertRelayedWhole(p, [a, b]);
      assert.deepEqual(p.usage(), { input: 20, output: 60, cacheRead: 100, cacheCreation: 0, reasoning: 40 });
    }
  });

  it('has no usage before any arrives', () => {
    assert.equal(geminiCodec.createPassthroughStream({}).usage(), null);
    assert.equal(geminiCodec.streamUsageRequested({}), true);
  });
});

describe('gemini errors', () => {
  it('writes the Google error shape with the table status', () => {
    const e = geminiCodec.encodeError('insufficient_quota', 'Budget spent', 60);
    assert.equal(e.status, 429);
    assert.equal(e.headers['retry-after'], '60');
    assert.deepEqual(JSON.parse(e.body), { error: { code: 429, message: 'Budget spent', status: 'RESOURCE_EXHAUSTED' } });
    assert.deepEqual(JSON.parse(geminiCodec.encodeError('forbidden', 'no').body).error.status, 'PERMISSION_DENIED');
  });

  it('reads an upstream error body', () => {
    assert.equal(
      geminiCodec.upstreamErrorMessage(400, { error: { code: 400, message: 'API key not valid.', status: 'INVALID_ARGUMENT' } }),
      'INVALID_ARGUMENT: API key not valid.',
    );
    assert.equal(geminiCodec.upstreamErrorMessage(500, [{ error: { message: 'boom' } }]), 'boom');
    assert.equal(geminiCodec.upstreamErrorMessage(500, 'x'), 'upstream answered HTTP 500');
  });
});
