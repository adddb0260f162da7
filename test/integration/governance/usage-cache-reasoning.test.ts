// GET /usage after translated traffic with cache reads, cache writes and reasoning: each lane's
// row has the counts its own protocol reported, read from its own fields (cache writes where
// the lane has a field for them, else counted as input by the lane itself; reasoning tokens in
// the output, as every vendor bills them), and spend is exact integer math over those counts.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { PROTOCOL_NAMES, type ProtocolName } from '../../../src/shared/model/types.js';
import { governedSuite } from './harness.js';

const PRICES = [
  {
    model: '*',
    tier: '*',
    input_micros_per_mtok: 2_000_000,
    output_micros_per_mtok: 10_000_000,
    cache_read_micros_per_mtok: 1_000_000,
    cache_creation_micros_per_mtok: 3_000_000,
  },
];
const PROMPT = '[mock cache_read_tokens=3 cache_creation_tokens=4 reasoning=on] Hi';
/** Lanes whose usage has a cache-write count; the others count cache writes as prompt input. */
const CACHE_WRITE_FIELD: ReadonlySet<ProtocolName> = new Set(['anthropic', 'bedrock']);

describe('usage of translated traffic with cache and reasoning counts', () => {
  const g = governedSuite({ workers: 2, over: { config: { locked: false }, governance: { prices: PRICES, currency: 'EUR' } } });

  /** One non-stream request to `lane` from a caller of another protocol (Chat Completions; Anthropic for the openai lane). */
  async function ask(secret: string, lane: ProtocolName): Promise<void> {
    const viaAnthropic = lane === 'openai';
    const res = await request(`${g.gw.url}${viaAnthropic ? '/v1/messages' : '/v1/chat/completions'}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
      body: JSON.stringify({ model: `pool-${lane}`, ...(viaAnthropic ? { max_tokens: 64 } : {}), messages: [{ role: 'user', content: PROMPT }] }),
    });
    assert.equal(res.statusCode, 200, `${lane}: ${await res.body.text()}`);
    await res.body.dump().catch(() => undefined);
  }

  it('each lane row has its cache-read, cache-write and reasoning-inclusive output counts, and spend is exact', async () => {
    const key = await g.admin.mint({ name: 'cache-reasoning' });
    for (const lane of PROTOCOL_NAMES) await ask(key.secret, lane);
    await new Promise((r) => setTimeout(r, 1_500)); // the workers hand metering to main every second
    const usage = await g.admin.ok('GET', '/usage');
    for (const lane of PROTOCOL_NAMES) {
      const row = usage.by_model.find((m: { model: string }) => m.model === `lane-${lane}`);
      assert.ok(row !== undefined, `a row for lane-${lane}`);
      const writes = CACHE_WRITE_FIELD.has(lane);
      assert.equal(row.requests, 1, lane);
      assert.equal(row.tokens_input, writes ? 12 : 12 + 4, `${lane} tokens_input (uncached)`);
      // Ollama reports no cache split at all: its prompt_eval_count is what it evaluated.
      assert.equal(row.tokens_cache_read, lane === 'ollama' ? 0 : 3, `${lane} tokens_cache_read`);
      assert.equal(row.tokens_cache_creation, writes ? 4 : 0, `${lane} tokens_cache_creation`);
      assert.equal(row.tokens_output, 5 + 3, `${lane} tokens_output holds the reasoning tokens`);
      assert.equal(row.spend_micros, row.tokens_input * 2 + row.tokens_output * 10 + row.tokens_cache_read + row.tokens_cache_creation * 3, `${lane} spend`);
    }
  });
});
