// GET /usage: with 1,500 keys metered, by_key has the top 1000 by spend, by_key_truncated is
// true and total = sum(by_key) + others field by field; by_model is uncapped; a price change
// (config apply of governance.prices) re-prices the same stored tokens.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { Agent, request } from 'undici';
import { governedSuite } from './harness.js';

const FIELDS = ['tokens_input', 'tokens_output', 'tokens_cache_read', 'tokens_cache_creation', 'requests', 'spend_micros'] as const;
const PRICES = [{ model: '*', tier: '*', input_micros_per_mtok: 2_000_000, output_micros_per_mtok: 10_000_000 }];

describe('usage reads over many keys', () => {
  const g = governedSuite({ workers: 2, over: { config: { locked: false }, governance: { prices: PRICES, currency: 'EUR' } } });
  const agent = new Agent({ connections: 32 });
  after(async () => {
    await agent.close();
  });

  async function chat(key: string, model: string): Promise<void> {
    const res = await request(`${g.gw.url}/v1/chat/completions`, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
    });
    assert.equal(res.statusCode, 200);
    await res.body.dump();
  }

  it('1,500 keys: 1000 rows by spend, truncated, and total = sum(by_key) + others', async () => {
    const keys: Array<{ id: string; secret: string }> = [];
    for (let i = 0; i < 1500; i++) keys.push(await g.admin.mint({ name: `k${i}` }));
    // Key i makes 1 request, every 10th key 2 more on another lane: spends differ.
    const jobs: Array<() => Promise<void>> = [];
    keys.forEach((k, i) => {
      jobs.push(() => chat(k.secret, 'default'));
      if (i % 10 === 0)
        jobs.push(
          () => chat(k.secret, 'pool-anthropic'),
          () => chat(k.secret, 'pool-anthropic'),
        );
    });
    for (let at = 0; at < jobs.length; at += 32) await Promise.all(jobs.slice(at, at + 32).map((j) => j()));
    // The workers hand metering to main every second.
    await new Promise((r) => setTimeout(r, 1_500));
    const usage = await g.admin.ok('GET', '/usage');
    assert.equal(usage.currency, 'EUR');
    assert.equal(usage.window.end - usage.window.start, 86_400);
    assert.equal(usage.by_key.length, 1000);
    assert.equal(usage.by_key_truncated, true);
    assert.notEqual(usage.others, null);
    for (const f of FIELDS) {
      const sum = usage.by_key.reduce((s: number, r: Record<string, number>) => s + r[f]!, 0);
      assert.equal(sum + usage.others[f], usage.total[f], `total.${f} = sum(by_key) + others`);
    }
    assert.equal(usage.total.requests, 1500 + 300);
    // The 150 keys with 3 requests spend most and come first.
    assert.equal(usage.by_key[0].requests, 3);
    assert.equal(usage.by_key[149].requests, 3);
    assert.equal(usage.by_key[150].requests, 1);
    for (let i = 1; i < usage.by_key.length; i++) assert.ok(usage.by_key[i - 1].spend_micros >= usage.by_key[i].spend_micros);
    assert.match(usage.by_key[0].name, /^k\d+$/);
    // by_model: one row per (model, provider), uncapped.
    const models = usage.by_model.map((m: { model: string; provider: string }) => `${m.model}/${m.provider}`).sort();
    assert.deepEqual(models, ['lane-anthropic/mock-anthropic', 'lane-openai/mock-openai']);
    // A past day is empty.
    const past = await g.admin.ok('GET', `/usage?window=${usage.window.start - 86_400}`);
    assert.equal(past.total.requests, 0);
    assert.equal(past.by_key_truncated, false);
    assert.equal(past.others, null);
    assert.equal((await g.admin.call('GET', '/usage?window=yesterday')).status, 400);
  });

  it('a price change re-prices the same stored tokens', async () => {
    const before = await g.admin.ok('GET', '/usage');
    // 12 input and 5 output tokens per request at 2 and 10 micros per token.
    assert.equal(before.total.spend_micros, before.total.tokens_input * 2 + before.total.tokens_output * 10);
    const doc = parse(readFileSync(g.files.configPath, 'utf8')) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    doc.governance.prices = [{ model: '*', tier: '*', input_micros_per_mtok: 4_000_000, output_micros_per_mtok: 30_000_000 }];
    await g.admin.ok('POST', '/config/apply', { config: doc });
    const after = await g.admin.ok('GET', '/usage');
    assert.equal(after.total.tokens_input, before.total.tokens_input);
    assert.equal(after.total.tokens_output, before.total.tokens_output);
    assert.equal(after.total.spend_micros, before.total.tokens_input * 4 + before.total.tokens_output * 30);
  });
});
