import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { anthropicCodec } from '../../../../src/shared/protocols/anthropic/codec.js';

describe('anthropic errors', () => {
  it('writes the native error shape with the table status and type', () => {
    const e = anthropicCodec.encodeError('rate_limited', 'Too many requests', 12);
    assert.equal(e.status, 429);
    assert.equal(e.headers['retry-after'], '12');
    assert.deepEqual(JSON.parse(e.body), { type: 'error', error: { type: 'rate_limit_error', message: 'Too many requests' } });
    const q = anthropicCodec.encodeError('insufficient_quota', 'Budget spent');
    assert.equal(q.status, 429);
    assert.equal(q.headers['retry-after'], undefined);
    assert.equal(JSON.parse(q.body).error.type, 'insufficient_quota');
    assert.equal(anthropicCodec.encodeError('exhausted', 'x').status, 503);
  });

  it('reads an upstream error body', () => {
    assert.equal(
      anthropicCodec.upstreamErrorMessage(529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
      'overloaded_error: Overloaded',
    );
    assert.equal(anthropicCodec.upstreamErrorMessage(502, undefined), 'upstream answered HTTP 502');
  });
});
