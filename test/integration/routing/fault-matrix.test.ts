// The fault matrix: for each upstream fault, through the openai SDK, whether the request fails
// over (pool [bad, good], bad picked first), the disposition finish() records, the breaker
// effect on the bad member's cell, and what the caller sees. A second pool holds the bad lane
// alone, to show what the caller sees when there is nowhere to fail over.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { openaiSdk } from '../../helpers/clients/openai.js';
import { freePort } from '../../helpers/ports.js';
import { chatRaw, memberOf, mockProvider, poolOf, readStats, startRouting, type RoutingStack } from './routing-stack.js';

interface Row {
  name: string;
  /** x-mock-* headers of the bad provider ('connect' = a closed port instead). */
  fault: Record<string, string | number> | 'connect';
  failover: string | null;
  /** Disposition of the bad-only pool's request. */
  aloneDisposition: string;
  /** What the caller of the bad-only pool sees. */
  aloneStatus: number;
  breaker: 'short' | 'hard_down' | 'none';
  deadReason?: string;
  /** The cooldown is at least this many seconds (Retry-After as a floor). */
  cooldownAtLeastSecs?: number;
}

const ROWS: Row[] = [
  { name: '500', fault: { status: 500 }, failover: 'transient_upstream', aloneDisposition: 'transient_upstream', aloneStatus: 500, breaker: 'short' },
  { name: '502', fault: { status: 502 }, failover: 'transient_upstream', aloneDisposition: 'transient_upstream', aloneStatus: 502, breaker: 'short' },
  { name: '503', fault: { status: 503 }, failover: 'transient_upstream', aloneDisposition: 'transient_upstream', aloneStatus: 503, breaker: 'short' },
  {
    name: '429 with Retry-After',
    fault: { status: 429, retry_after: 9 },
    failover: 'transient_upstream',
    aloneDisposition: 'transient_upstream',
    aloneStatus: 429,
    breaker: 'short',
    cooldownAtLeastSecs: 8,
  },
  { name: 'connect refused', fault: 'connect', failover: 'connect', aloneDisposition: 'transient_upstream', aloneStatus: 502, breaker: 'short' },
  {
    name: 'reset before headers',
    fault: { fault: 'reset_before' },
    failover: 'transient_upstream',
    aloneDisposition: 'transient_upstream',
    aloneStatus: 502,
    breaker: 'short',
  },
  {
    name: 'attempt timeout',
    fault: { latency_ms: 3000 },
    failover: 'attempt_timeout',
    aloneDisposition: 'attempt_timeout',
    aloneStatus: 504,
    breaker: 'short',
  },
  { name: '402', fault: { status: 402 }, failover: 'hard_down', aloneDisposition: 'hard_down', aloneStatus: 402, breaker: 'hard_down', deadReason: 'billing' },
  {
    name: 'insufficient_quota',
    fault: { fault: 'insufficient_quota' },
    failover: 'hard_down',
    aloneDisposition: 'hard_down',
    aloneStatus: 429,
    breaker: 'hard_down',
    deadReason: 'billing',
  },
  { name: '401', fault: { status: 401 }, failover: null, aloneDisposition: 'hard_down', aloneStatus: 401, breaker: 'hard_down', deadReason: 'auth' },
  {
    name: 'context length',
    fault: { fault: 'context_length' },
    failover: 'context_length',
    aloneDisposition: 'context_length',
    aloneStatus: 400,
    breaker: 'none',
  },
];

const slug = (name: string): string => name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();

describe('fault matrix (openai SDK, mock provider)', () => {
  let stack: RoutingStack;
  let sdk: OpenAI;
  before(async () => {
    const closedPort = await freePort();
    stack = await startRouting((mockUrl) => {
      const providers: Record<string, unknown> = { good: mockProvider(mockUrl) };
      const models: Record<string, unknown> = { good: { provider: 'good' } };
      const pools: Record<string, unknown> = {};
      for (const row of ROWS) {
        const name = slug(row.name);
        providers[`bad-${name}`] =
          row.fault === 'connect'
            ? { protocol: 'openai', base_url: `http://127.0.0.1:${closedPort}/v1`, auth: { mode: 'none' } }
            : mockProvider(mockUrl, row.fault);
        models[`bad-${name}`] = { provider: `bad-${name}` };
        const failover = { max_hops: 3, timeout_secs: 20, attempt_timeout_secs: 1 };
        pools[`with-${name}`] = { members: [{ model: `bad-${name}` }, { model: 'good' }], failover };
        pools[`alone-${name}`] = { members: [{ model: `bad-${name}` }], failover };
      }
      return { config: { models, pools }, providers };
    });
    sdk = openaiSdk(stack.gateway.url);
  });
  after(async () => {
    await stack.close();
  });

  for (const row of ROWS) {
    it(row.name, async () => {
      const name = slug(row.name);
      const withPool = `with-${name}`;
      const alonePool = `alone-${name}`;

      // With a healthy neighbour.
      if (row.failover !== null) {
        const answer = await sdk.chat.completions.create({ model: withPool, messages: [{ role: 'user', content: 'hi' }] });
        assert.equal(answer.choices[0]?.message.content, 'The quick brown fox jumps', 'the good member answered');
      } else {
        await assert.rejects(sdk.chat.completions.create({ model: withPool, messages: [{ role: 'user', content: 'hi' }] }), (err: unknown) => {
          assert.ok(err instanceof OpenAI.APIError);
          assert.equal(err.status, row.aloneStatus, 'an auth hard-down is relayed, not failed over');
          return true;
        });
      }
      let stats = await readStats(stack.gateway);
      const pool = poolOf(stats, withPool);
      const bad = memberOf(stats, withPool, `bad-${name}`);
      if (row.failover !== null) {
        assert.equal(pool.failovers[row.failover], 1, `one failover, reason ${row.failover}: ${JSON.stringify(pool.failovers)}`);
        assert.equal(memberOf(stats, withPool, 'good').dispositions.ok, 1, 'finish(ok) on the member that served');
      } else {
        assert.deepEqual(
          Object.values(pool.failovers).reduce((a, b) => a + b, 0),
          0,
          'no failover',
        );
        assert.equal(bad.dispositions.hard_down, 1);
      }
      switch (row.breaker) {
        case 'short':
          assert.equal(bad.breaker_state, 'closed');
          assert.equal(bad.streak, 1);
          assert.ok(bad.cooldown_remaining_seconds >= (row.cooldownAtLeastSecs ?? 1), `short cooldown: ${bad.cooldown_remaining_seconds}`);
          assert.equal(bad.trip_count, 0);
          assert.equal(bad.err, 1, 'an upstream fault counts against the lane');
          break;
        case 'hard_down':
          assert.equal(bad.breaker_state, 'open');
          assert.equal(bad.dead, true);
          assert.equal(bad.dead_reason, row.deadReason);
          assert.equal(bad.trip_count, 1);
          assert.ok(bad.cooldown_remaining_seconds > 29 * 60, 'sticky 30-minute cooldown');
          assert.equal(bad.recovery_hint_ms, null);
          break;
        case 'none':
          assert.equal(bad.breaker_state, 'closed');
          assert.equal(bad.streak, 0);
          assert.equal(bad.cooldown_remaining_seconds, 0);
          assert.equal(bad.err, 0, 'a context-length error is not a lane failure');
          break;
      }

      // Alone: nowhere to fail over (for a hard-down lane, the cell of this pool is still Closed).
      const alone = await chatRaw(stack.gateway, alonePool);
      assert.equal(alone.status, row.aloneStatus, alone.body);
      stats = await readStats(stack.gateway);
      const aloneMember = memberOf(stats, alonePool, `bad-${name}`);
      assert.equal(aloneMember.dispositions[row.aloneDisposition], 1, JSON.stringify(aloneMember.dispositions));
      const finishes =
        Object.values(aloneMember.dispositions).reduce((a, b) => a + b, 0) + Object.values(poolOf(stats, alonePool).unrouted).reduce((a, b) => a + b, 0);
      assert.equal(finishes, 1, 'finish ran once');
    });
  }
});
