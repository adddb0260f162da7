import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bedrockCodec } from '../../../../src/shared/protocols/bedrock/codec.js';
import { vendorStream } from './fixtures.js';
import { assertRelayedWhole } from '../relayed.js';

describe('bedrock passthrough', () => {
  it('relays every byte in whole frames and reads the metadata usage, split at every byte offset', () => {
    for (let at = 0; at <= vendorStream.length; at++) {
      const p = bedrockCodec.createPassthroughStream({});
      const a = vendorStream.subarray(0, at);
      const b = vendorStream.subarray(at);
      assertRelayedWhole(p, [a, b]);
      assert.deepEqual(p.usage(), { input: 472, output: 89, cacheRead: 300, cacheCreation: 10 });
    }
  });

  it('keeps relaying the bytes when a frame is corrupt, and only stops metering', () => {
    const bad = vendorStream.slice();
    bad[10]! ^= 0xff;
    const p = bedrockCodec.createPassthroughStream({});
    assert.equal(p.push(bad), bad);
    assert.equal(p.usage(), null);
    assert.equal(bedrockCodec.streamUsageRequested({}), true);
  });
});

describe('bedrock errors', () => {
  it('writes {"message"} with x-amzn-errortype, and 400 for quota as the spec says', () => {
    const q = bedrockCodec.encodeError('insufficient_quota', 'Budget spent');
    assert.equal(q.status, 400);
    assert.equal(q.headers['x-amzn-errortype'], 'ServiceQuotaExceededException');
    assert.deepEqual(JSON.parse(q.body), { message: 'Budget spent' });
    const r = bedrockCodec.encodeError('rate_limited', 'slow', 2);
    assert.equal(r.status, 429);
    assert.equal(r.headers['x-amzn-errortype'], 'ThrottlingException');
    assert.equal(r.headers['retry-after'], '2');
  });

  it('reads an upstream error body', () => {
    assert.equal(bedrockCodec.upstreamErrorMessage(400, { message: 'The provided model identifier is invalid.' }), 'The provided model identifier is invalid.');
    assert.equal(bedrockCodec.upstreamErrorMessage(403, { Message: 'denied' }), 'denied');
    assert.equal(bedrockCodec.upstreamErrorMessage(500, undefined), 'upstream answered HTTP 500');
  });
});
