// Token counts and embeddings under governance: each is a request against the key's limits
// (a requests cap refuses the next one with 429 in the caller's shape), a count is metered as a
// request with no tokens, and embeddings are metered with their input tokens.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startMockProvider, type MockServer } from '../../../src/mock/server.js';
import { SecretWitness, startGoverned, stopGoverned, type Governed } from '../governance/harness.js';

describe('counts and embeddings are governed and metered', () => {
  let mock: MockServer;
  let g: Governed;
  const witness = new SecretWitness();

  before(async () => {
    mock = await startMockProvider({ port: 0 });
    g = await startGoverned(mock.url, witness, { workers: 1 });
  });
  after(async () => {
    await stopGoverned(g, witness);
    await mock?.close();
  });

  const count = (key: string): Promise<Response> => fetch(`${g.gw.url}/v1/messages/count_tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model: 'pool-anthropic', messages: [{ role: 'user', content: 'one two three' }] }),
  });

  it('a requests cap counts a token count as a request', async () => {
    await g.admin.ok('POST', '/groups', { name: 'two', limits: [{ metric: 'requests', window: 'day', max: 2 }] });
    const key = await g.admin.mint({ name: 'counter', group: 'two' });
    assert.equal((await count(key.secret)).status, 200);
    assert.equal((await count(key.secret)).status, 200);
    const refused = await count(key.secret);
    assert.equal(refused.status, 429);
    const body = await refused.json() as { type: string; error: { type: string } };
    assert.equal(body.type, 'error');
    assert.equal(body.error.type, 'rate_limit_error');
  });

  it('a count meters no tokens; embeddings meter their input tokens', async () => {
    const key = await g.admin.mint({ name: 'metered' });
    assert.equal((await count(key.secret)).status, 200);
    const res = await fetch(`${g.gw.url}/v1/embeddings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key.secret}` },
      body: JSON.stringify({ model: 'pool-ollama', input: ['alpha beta gamma', 'delta'] }),
    });
    assert.equal(res.status, 200);
    const served = await res.json() as { usage: { prompt_tokens: number } };
    // The mock's Ollama prompt_eval_count is the words of the inputs.
    assert.equal(served.usage.prompt_tokens, 4);
    // The workers hand metering to main every second.
    await new Promise((r) => setTimeout(r, 1_500));
    const usage = await g.admin.ok('GET', '/usage');
    const row = usage.by_key.find((r: { name: string }) => r.name === 'metered');
    assert.equal(row.requests, 2);
    assert.equal(row.tokens_input, 4);
    assert.equal(row.tokens_output, 0);
    const models = usage.by_model.map((m: { model: string }) => m.model).sort();
    assert.ok(models.includes('lane-anthropic') && models.includes('lane-ollama'), models.join(','));
  });
});
