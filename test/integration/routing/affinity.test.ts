// Session affinity by the `affinity` header: the same value goes to the same usable member
// while it stays usable, moves when that member cools down, and comes back after.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startMockProvider, type MockServer } from '../../../src/mock/server.js';
import { chatRaw, mockProvider, startRouting, type RoutingStack } from './routing-stack.js';

describe('session affinity', () => {
  let mock: MockServer;
  let stack: RoutingStack;
  before(async () => {
    mock = await startMockProvider({ port: 0 });
    stack = await startRouting(
      (mockUrl) => ({
        providers: { plain: mockProvider(mockUrl) },
        config: {
          models: {
            a: { provider: 'plain', upstream_model: 'up-a' },
            b: { provider: 'plain', upstream_model: 'up-b' },
            c: { provider: 'plain', upstream_model: 'up-c' },
          },
          pools: { sticky: { members: [{ model: 'a' }, { model: 'b' }, { model: 'c' }], failover: { max_hops: 0 } } },
        },
      }),
      { workers: 2, mock },
    );
  });
  after(async () => {
    await stack.close();
    await mock?.close();
  });

  async function servedBy(affinity: string, prompt = 'hi'): Promise<string> {
    const answer = await chatRaw(stack.gateway, 'sticky', prompt, { affinity });
    assert.equal(answer.status, 200, answer.body);
    return mock.stats().last_request!.model!;
  }

  it('the same value stays on one member; different values spread', async () => {
    const first = await servedBy('session-1');
    for (let i = 0; i < 12; i++) assert.equal(await servedBy('session-1'), first);
    const seen = new Set<string>();
    for (let i = 0; i < 30; i++) seen.add(await servedBy(`user-${i}`));
    assert.ok(seen.size >= 2, `30 values all went to ${[...seen]}`);
  });

  it('moves while its member cools down, and comes back', async () => {
    const home = await servedBy('session-2');
    const failed = await chatRaw(stack.gateway, 'sticky', 'x [mock status=500]', { affinity: 'session-2' });
    assert.equal(failed.status, 500, 'max_hops 0: the failure is relayed');
    const away = await servedBy('session-2');
    assert.notEqual(away, home, 'a member in its cooldown is not used while others are');
    assert.equal(await servedBy('session-2'), away, 'and the value stays on its second choice');
    await new Promise((r) => setTimeout(r, 1_300)); // the 1 s short cooldown runs out
    assert.equal(await servedBy('session-2'), home);
  });
});
