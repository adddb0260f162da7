import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { joined } from '../../../../src/worker/pipeline/relay/joined.js';
import { passthroughUsage } from '../../../../src/worker/pipeline/relay/passthrough-usage.js';
import type { LaneRuntime } from '../../../../src/worker/runtime.js';
import { openaiCodec, openaiFastPath } from '../../../../src/shared/protocols/openai/codec.js';

describe('joined', () => {
  const slab = Buffer.alloc(12, 'aaabbbbcc-dd'); // not from Buffer's shared pool
  const view = (from: number, to: number): Uint8Array => new Uint8Array(slab.buffer, slab.byteOffset + from, to - from);

  it('frames side by side in one buffer become one view over them, not a copy', () => {
    const one = joined([view(0, 3), view(3, 7), view(7, 9)]);
    assert.equal(Buffer.from(one).toString(), 'aaabbbbcc');
    assert.equal(one.buffer, slab.buffer);
    assert.equal(one.byteOffset, slab.byteOffset);
  });

  it('frames with a gap, out of order or in another buffer are concatenated', () => {
    assert.equal(Buffer.from(joined([view(0, 3), view(10, 12)])).toString(), 'aaadd');
    assert.equal(Buffer.from(joined([view(3, 7), view(0, 3)])).toString(), 'bbbbaaa');
    assert.equal(Buffer.from(joined([view(0, 3), new Uint8Array([0x78, 0x79, 0x7a])])).toString(), 'aaaxyz');
  });
});

describe('passthroughUsage', () => {
  it('reads the usage of a chat completion, and bills zero for a body it cannot read', () => {
    const body =
      '{"id":"x","choices":[],"usage":{"prompt_tokens":12,"completion_tokens":5,"total_tokens":17,"prompt_tokens_details":{"cached_tokens":2}},"service_tier":"default"}';
    assert.deepEqual(passthroughUsage(openaiCodec, body), { input: 10, output: 5, cacheRead: 2, cacheCreation: 0 });
    assert.equal(passthroughUsage(openaiCodec, '{"usage":'), null);
    assert.equal(passthroughUsage(openaiCodec, '{"choices":[]}'), null);
  });

  it("reads a lane's later bodies by the shape of its first, and what does not fit the long way", () => {
    const lane = { usageBody: null, provider: { fastPath: openaiFastPath } } as unknown as LaneRuntime;
    const body = (p: number, c: number): string =>
      `{"id":"x","choices":[],"usage":{"prompt_tokens":${p},"completion_tokens":${c},"prompt_tokens_details":{"cached_tokens":2}},"service_tier":"default"}`;
    assert.deepEqual(passthroughUsage(openaiCodec, body(12, 5), lane), { input: 10, output: 5, cacheRead: 2, cacheCreation: 0 });
    assert.notEqual(lane.usageBody, null);
    assert.deepEqual(passthroughUsage(openaiCodec, body(40, 700), lane), { input: 38, output: 700, cacheRead: 2, cacheCreation: 0 });
    assert.deepEqual(passthroughUsage(openaiCodec, body(40, 700).replace('"default"', '"flex"'), lane), {
      input: 38,
      output: 700,
      cacheRead: 2,
      cacheCreation: 0,
    });
    assert.equal(passthroughUsage(openaiCodec, '{"usage":{"prompt_tokens":01}}', lane), null);
    assert.equal(passthroughUsage(openaiCodec, '{"choices":[]}', lane), null);
  });
});
