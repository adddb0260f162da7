// Exact tokens and budget caps on two workers, through the vendors' own SDKs: 4 x cap
// concurrent requests (all in flight at once: the mock answers after 300 ms), with and without
// max_tokens, streamed and not, same-protocol and translated. Each request reserves its
// estimate at admission; the stated bound (docs/configuration.md, "Reservations") is that what
// is admitted past a cap is at most the estimation error of the requests in flight, so zero
// when the caller sets max_tokens (or the lane's max_output_tokens or the group's
// default_output_reservation stands in) and the input estimate is not low. The figures of each
// case are printed as diagnostics (admitted, their cost, the cap).
import { after, before, describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { GoogleGenAI } from '@google/genai';
import { request } from 'undici';
import { startMockProvider, type MockServer } from '../../../src/mock/server.js';
import { parseExposition, sampleValue } from '../../helpers/prometheus.js';
import { SecretWitness, startGoverned, stopGoverned, type Governed } from './harness.js';

const INPUT = 12;
const PROMPT = 'hi';
/** Requests the cap is sized for (4 x this many are sent at once). */
const FIT = 8;
const BURST = 4 * FIT;
/** Micros a token costs on the token-priced cards (1,000 a token keeps the sums readable). */
const MICROS_PER_TOKEN = 1000;
const CARD = [
  {
    model: '*',
    tier: '*',
    input_micros_per_mtok: MICROS_PER_TOKEN * 1e6,
    output_micros_per_mtok: MICROS_PER_TOKEN * 1e6,
    cache_read_micros_per_mtok: 0,
    cache_creation_micros_per_mtok: 0,
  },
];

type Sdk = 'openai' | 'anthropic' | 'gemini';

interface Case {
  sdk: Sdk;
  /** Pool the SDK names: same protocol or translated. */
  pool: string;
  stream: boolean;
  /** The caller's output cap; undefined: none sent. */
  maxTokens?: number;
  /** Output tokens the mock answers with (its `chunks`). */
  output: number;
  metric: 'tokens' | 'budget';
  /** A group default_output_reservation. */
  defaultOutput?: number;
}

interface Outcome {
  admitted: number;
  refused: number;
  /** The reservation a refused request asked for (tokens or micros), read from its message. */
  reserve: number;
  messages: string[];
}

describe('exact tokens and budget caps under 4 x cap concurrency, two workers, through the SDKs', () => {
  let mock: MockServer;
  let g: Governed;
  const witness = new SecretWitness();
  let n = 0;

  before(async () => {
    mock = await startMockProvider({ port: 0, latency_ms: 300 });
    g = await startGoverned(mock.url, witness, {
      workers: 2,
      over: { export: { prom: { module: 'prometheus', settings: { buffer_seconds: 60 } } } },
      extraModels: {
        'lane-capped': { provider: 'mock-openai', upstream_model: 'up-capped', max_output_tokens: 40 },
      },
      extraPools: {
        'pool-capped': { members: [{ model: 'lane-capped', weight: 1 }] },
      },
    });
  });
  after(async () => {
    await stopGoverned(g, witness);
    await mock?.close();
  });

  /** One call through the SDK; resolves to the refusal message, or null when served. */
  async function call(sdk: Sdk, key: string, c: Case): Promise<string | null> {
    const text = c.output === 5 ? PROMPT : `[mock chunks=${c.output}] ${PROMPT}`;
    try {
      switch (sdk) {
        case 'openai': {
          const client = new OpenAI({ baseURL: `${g.gw.url}/v1`, apiKey: key, maxRetries: 0 });
          const body = {
            model: c.pool,
            messages: [{ role: 'user' as const, content: text }],
            ...(c.maxTokens !== undefined ? { max_tokens: c.maxTokens } : {}),
          };
          if (c.stream) {
            const stream = await client.chat.completions.create({ ...body, stream: true, stream_options: { include_usage: true } });
            for await (const _ of stream) void _;
          } else {
            await client.chat.completions.create(body);
          }
          return null;
        }
        case 'anthropic': {
          const client = new Anthropic({ baseURL: g.gw.url, apiKey: key, maxRetries: 0 });
          const body = { model: c.pool, max_tokens: c.maxTokens ?? 1024, messages: [{ role: 'user' as const, content: text }] };
          if (c.stream) await client.messages.stream(body).finalMessage();
          else await client.messages.create(body);
          return null;
        }
        case 'gemini': {
          const client = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: g.gw.url } });
          const args = { model: c.pool, contents: text, ...(c.maxTokens !== undefined ? { config: { maxOutputTokens: c.maxTokens } } : {}) };
          if (c.stream) for await (const _ of await client.models.generateContentStream(args)) void _;
          else await client.models.generateContent(args);
          return null;
        }
      }
    } catch (err) {
      const e = err as { status?: number; message?: string };
      assert.ok(e.status === 429, `refused with 429, got ${e.status}: ${e.message}`);
      return e.message ?? '';
    }
  }

  /** A group with the cap, a key in it, and BURST calls at once. */
  async function burst(c: Case, cap: number): Promise<Outcome & { group: string }> {
    const group = `exact-${++n}`;
    const limits = [{ metric: c.metric, window: 'day', max: cap }];
    await g.admin.ok('POST', '/groups', {
      name: group,
      limits,
      ...(c.metric === 'budget' ? { rate_card: CARD } : {}),
      ...(c.defaultOutput !== undefined ? { default_output_reservation: c.defaultOutput } : {}),
    });
    const key = await g.admin.mint({ name: group, group });
    const results = await Promise.all(Array.from({ length: BURST }, () => call(c.sdk, key.secret, c)));
    const messages = results.filter((r): r is string => r !== null);
    const reserve = Math.max(0, ...messages.map((m) => Number(/this request reserves (\d+)/.exec(m)?.[1] ?? 0)));
    for (const m of messages) assert.match(m, new RegExp(`group:${group}@day`));
    return { group, admitted: results.length - messages.length, refused: messages.length, reserve, messages };
  }

  /** A request's real cost (tokens, or micros on the token-priced card). */
  const costOf = (c: Case): number => (INPUT + c.output) * (c.metric === 'budget' ? MICROS_PER_TOKEN : 1);

  async function check(t: TestContext, c: Case, exact: boolean): Promise<void> {
    const cap = FIT * costOf(c);
    const out = await burst(c, cap);
    const cost = out.admitted * costOf(c);
    // The reservation includes the output cap: a refused request's reservation tells the estimate.
    assert.ok(out.refused > 0 && out.admitted > 0, `admitted ${out.admitted}, refused ${out.refused}`);
    const error = Math.max(0, costOf(c) - out.reserve);
    const bound = cap + out.admitted * error;
    t.diagnostic(
      `${c.sdk} -> ${c.pool}${c.stream ? ' stream' : ''}${c.maxTokens !== undefined ? ` max_tokens=${c.maxTokens}` : ''}: ${c.metric} cap ${cap}, each request costs ${costOf(c)} and reserved ${out.reserve}; admitted ${out.admitted} of ${BURST}, cost ${cost} (bound ${bound})`,
    );
    assert.ok(cost <= bound, `admitted cost ${cost} within the bound ${bound}`);
    if (exact) {
      assert.equal(error, 0, 'the estimate is not low');
      assert.ok(cost <= cap, `cost ${cost} <= cap ${cap}`);
    }
    // Every reservation was given back once the requests ended.
    await eventually(async () => (await reserved(out.group, c.metric)) === 0, `reservations of ${out.group} released`);
  }

  /** gateway_bucket_reserved_tokens / _cents of a group's day bucket. */
  async function reserved(group: string, metric: 'tokens' | 'budget'): Promise<number> {
    const key = await g.admin.mint({ name: `metrics-${group}-${Math.random()}` });
    const res = await request(`${g.gw.url}/metrics`, { headers: { authorization: `Bearer ${key.secret}` } });
    const families = parseExposition(await res.body.text());
    const family = metric === 'tokens' ? 'gateway_bucket_reserved_tokens' : 'gateway_bucket_reserved_cents';
    return sampleValue(families, family, { bucket: `group:${group}@day`, group, window: 'day' }) ?? -1;
  }

  async function eventually(ok: () => Promise<boolean>, what: string): Promise<void> {
    for (let i = 0; i < 50; i++) {
      if (await ok()) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.fail(`never: ${what}`);
  }

  it('tokens cap, OpenAI SDK, same protocol, with max_tokens, non-stream and stream: never past the cap', async (t) => {
    await check(t, { sdk: 'openai', pool: 'pool-openai', stream: false, maxTokens: 5, output: 5, metric: 'tokens' }, true);
    await check(t, { sdk: 'openai', pool: 'pool-openai', stream: true, maxTokens: 5, output: 5, metric: 'tokens' }, true);
  });

  it('tokens cap, translated (OpenAI SDK to an Anthropic lane, Anthropic SDK to an OpenAI lane), with max_tokens', async (t) => {
    await check(t, { sdk: 'openai', pool: 'pool-anthropic', stream: false, maxTokens: 5, output: 5, metric: 'tokens' }, true);
    await check(t, { sdk: 'anthropic', pool: 'pool-openai', stream: true, maxTokens: 5, output: 5, metric: 'tokens' }, true);
  });

  it('token-priced budget, same protocol and translated, stream and not, with max_tokens: never past the cap', async (t) => {
    await check(t, { sdk: 'anthropic', pool: 'pool-anthropic', stream: true, maxTokens: 5, output: 5, metric: 'budget' }, true);
    await check(t, { sdk: 'gemini', pool: 'pool-gemini', stream: false, maxTokens: 5, output: 5, metric: 'budget' }, true);
    await check(t, { sdk: 'gemini', pool: 'pool-openai', stream: true, maxTokens: 5, output: 5, metric: 'budget' }, true);
    await check(t, { sdk: 'openai', pool: 'pool-responses', stream: false, maxTokens: 5, output: 5, metric: 'budget' }, true);
  });

  it('without max_tokens the overshoot is at most the estimation error of the requests in flight', async (t) => {
    // 40 output tokens, none reserved: each request's estimate is low by about 40 - (input
    // estimate - 12) tokens.
    await check(t, { sdk: 'openai', pool: 'pool-openai', stream: false, output: 40, metric: 'tokens' }, false);
    await check(t, { sdk: 'gemini', pool: 'pool-anthropic', stream: true, output: 40, metric: 'budget' }, false);
  });

  it("without max_tokens, the lane's max_output_tokens or the group's default_output_reservation make it exact", async (t) => {
    await check(t, { sdk: 'openai', pool: 'pool-capped', stream: false, output: 40, metric: 'tokens' }, true);
    await check(t, { sdk: 'gemini', pool: 'pool-openai', stream: true, output: 40, metric: 'budget', defaultOutput: 40 }, true);
  });
});
