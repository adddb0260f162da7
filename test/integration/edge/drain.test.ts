// Graceful shutdown as a load balancer sees it: while in-flight requests finish, /healthz
// answers 503 (so the balancer stops sending) and a new request gets a 503 in its own
// protocol shape, instead of the connection being refused; then the process exits 0.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rawPost, minimalRequest } from '../../helpers/clients/raw.js';
import { eventually, startStack, type Stack } from '../../helpers/clients/stack.js';

describe('draining', () => {
  let stack: Stack;
  after(async () => {
    await stack?.close();
  });

  it('answers /healthz 503 while an in-flight request finishes, then exits 0', async () => {
    stack = await startStack({ workers: 1 });
    const { mock, gateway: gw } = stack;
    const slow = minimalRequest('openai', 'pool-openai', 'slow one [mock latency_ms=2500]', false);
    const inFlight = rawPost(`${gw.url}${slow.path}`, slow.body);
    assert.ok(await eventually(() => mock.stats().inflight === 1, 5000), 'the slow request reached the upstream');

    const exit = gw.stop('SIGTERM');
    let healthz = await rawPost(`${gw.url}/healthz`, '', { method: 'GET' });
    for (let i = 0; i < 100 && healthz.status === 200; i++) {
      await new Promise((r) => setTimeout(r, 20));
      healthz = await rawPost(`${gw.url}/healthz`, '', { method: 'GET' });
    }
    assert.equal(healthz.status, 503);
    assert.equal(healthz.body.toString(), 'draining');

    const fresh = minimalRequest('anthropic', 'pool-anthropic', 'too late', false);
    const refused = await rawPost(`${gw.url}${fresh.path}`, fresh.body);
    assert.equal(refused.status, 503);
    assert.equal(refused.headers['retry-after'], '1');
    assert.equal(JSON.parse(refused.body.toString()).type, 'error', "in the caller's (anthropic) shape");

    const finished = await inFlight;
    assert.equal(finished.status, 200, 'the in-flight request completed');
    assert.equal(await exit, 0);
  });
});
