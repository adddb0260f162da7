// Upstream timeouts, kept by the worker's sweep (src/worker/upstream/attempt-timers.ts) rather
// than by undici: a body that goes quiet for longer than advanced.upstream_timeout_secs is cut
// (the caller's stream ends with the protocol's error event, and the lane is charged a
// mid-stream failure), while a slow stream whose gaps stay under it runs to its end however
// long it takes in all. The head's timeout (the attempt timeout) is in fault-matrix.test.ts.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openaiSdk } from '../../helpers/clients/openai.js';
import { dispositionCount, mockProvider, readStats, startRouting, type RoutingStack } from './routing-stack.js';

describe('upstream body idle timeout (openai SDK, mock provider)', () => {
  let stack: RoutingStack;
  before(async () => {
    stack = await startRouting((mockUrl) => ({
      config: {
        advanced: { upstream_timeout_secs: 1 },
        models: {
          // One chunk every 2.5 s: the body is idle for longer than the 1 s timeout.
          stalling: { provider: 'stalling' },
          // One chunk every 0.4 s for 3.6 s in all: never idle for 1 s.
          steady: { provider: 'steady' },
        },
        pools: { stalling: { members: [{ model: 'stalling' }] }, steady: { members: [{ model: 'steady' }] } },
      },
      providers: {
        stalling: mockProvider(mockUrl, { tokens_per_sec: 0.4, chunks: 5 }),
        steady: mockProvider(mockUrl, { tokens_per_sec: 2.5, chunks: 10 }),
      },
    }));
  });
  after(async () => {
    await stack.close();
  });

  it('cuts a stream whose body goes quiet for longer than the timeout', async () => {
    const sdk = openaiSdk(stack.gateway.url);
    const stream = await sdk.chat.completions.create({ model: 'stalling', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    let chunks = 0;
    await assert.rejects(async () => {
      for await (const chunk of stream) if ((chunk.choices[0]?.delta.content ?? '') !== '') chunks++;
    }, /upstream/i);
    assert.ok(chunks < 5, `the stream was cut before its end (${chunks} of 5 chunks came)`);
    const stats = await readStats(stack.gateway);
    assert.equal(dispositionCount(stats, 'stalling', 'transient_upstream'), 1, 'the lane is charged the broken stream');
  });

  it('lets a slow stream with short gaps run to its end', async () => {
    const sdk = openaiSdk(stack.gateway.url);
    const stream = await sdk.chat.completions.create({ model: 'steady', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    assert.ok(text.length > 0);
    const stats = await readStats(stack.gateway);
    assert.equal(dispositionCount(stats, 'steady', 'ok'), 1);
  });
});
