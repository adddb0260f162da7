// Two gateway processes on one shared store (postgres or valkey): a key minted on A works on
// B; a DELETE on A makes B refuse by the change notification (the time it took is printed); a group
// PATCH on B applies on A; usage from both nodes sums in GET /usage on either; a budget cap
// under load split over both nodes overshoots by no more than the stated bound (budgets
// reconcile through the store on every flush), and so does a token-priced budget; a node's
// reservations in flight count on the other after a flush.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request } from 'undici';
import { startMockProvider, type MockServer } from '../../../src/mock/server.js';
import { SecretWitness, startGoverned, stopGoverned, type Governed } from '../governance/harness.js';
import { createBackend, type StoreBackend } from '../../helpers/store-backends.js';
import { verifyAuditLog } from '../../../src/main/audit/verify.js';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { inputTokens } from '../../../src/shared/governance/cost-estimate.js';
import { openaiCostEstimator } from '../../../src/shared/protocols/openai/cost-estimate.js';

/** A chat body with max_tokens 5, and the tokens admission reserves for it (input estimate + 5). */
function reservingBody(prompt: string, model = 'default'): string {
  return JSON.stringify({ model, max_tokens: 5, messages: [{ role: 'user', content: prompt }] });
}
function reserveOf(prompt: string, model = 'default'): number {
  return inputTokens(Buffer.byteLength(reservingBody(prompt, model)), { bytes: 0, parts: 0 }, openaiCostEstimator) + 5;
}

/**
 * Longer than the whole test: every change B sees came by the store's change notification, never
 * by a poll, so a change arriving at all is the handshake (no wall-clock bound is asserted; the
 * time it took is printed beside the stated bound, under 1 s with notifications).
 */
const POLL_INTERVAL_MS = 600_000;
/** How long a change may take before the test gives up: it only limits how long a broken build waits. */
const NOTIFIED_WITHIN_MS = 20_000;
const FLUSH_MS = 500;
/**
 * The stated overshoot bound (README, Stores): past a cap, the fleet admits at most what the
 * other nodes admitted in the lag before the fleet's last admission; lag = their flush interval
 * + this node's flush interval + one store round trip and the request itself (slack).
 */
const LAG_MS = 2 * FLUSH_MS + 500;

export function severalNodes(module: 'postgres' | 'valkey'): void {
  describe(`two gateway processes on one ${module} store`, () => {
    let mock: MockServer;
    let backend: StoreBackend;
    let a: Governed;
    let b: Governed;
    const witness = new SecretWitness();
    const agent = new Agent({ connections: 16 });

    before(async () => {
      backend = await createBackend(module);
      mock = await startMockProvider({ port: 0 });
      const store = backend.config();
      const over = {
        store: { ...store, settings: { ...store.settings, poll_interval_ms: POLL_INTERVAL_MS } },
        governance: { flush_interval_secs: FLUSH_MS / 1000 },
        config: { locked: false },
      };
      a = await startGoverned(mock.url, witness, { workers: 1, over });
      b = await startGoverned(mock.url, witness, { workers: 1, over });
    });
    after(async () => {
      await agent.close();
      await stopGoverned(a, witness);
      await stopGoverned(b, witness);
      await mock?.close();
      await backend?.cleanup();
    });

    async function chat(g: Governed, secret: string, model = 'default'): Promise<number> {
      const res = await request(`${g.gw.url}/v1/chat/completions`, {
        method: 'POST',
        dispatcher: agent,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
        body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
      });
      await res.body.dump();
      return res.statusCode;
    }

    /** Milliseconds until `check` holds, polled every 20 ms; fails past `limitMs`. */
    async function until(what: string, limitMs: number, check: () => Promise<boolean>): Promise<number> {
      const start = performance.now();
      for (;;) {
        if (await check()) return performance.now() - start;
        if (performance.now() - start > limitMs) assert.fail(`${what}: not within ${limitMs} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
    }

    it('a key minted on A works on B; a DELETE on A makes B refuse, by notification', async () => {
      const key = await a.admin.mint({ name: 'cross-node' });
      assert.equal(await chat(a, key.secret), 200);
      const seenMs = await until('the minted key verifying on B', NOTIFIED_WITHIN_MS, async () => (await chat(b, key.secret)) === 200);
      await a.admin.ok('DELETE', `/keys/${key.id}`);
      assert.equal(await chat(a, key.secret), 401, 'A refuses at once');
      const refusedMs = await until('B refusing the revoked key', NOTIFIED_WITHIN_MS, async () => (await chat(b, key.secret)) === 401);
      console.log(
        `# ${module}: mint on A verified on B after ${seenMs.toFixed(0)} ms; revocation on A refused on B after ${refusedMs.toFixed(0)} ms (stated bound: < 1 s with notifications)`,
      );
    });

    it('a group PATCH on B applies on A', async () => {
      await a.admin.ok('POST', '/groups', { name: 'cap' });
      const key = await a.admin.mint({ name: 'capped', group: 'cap' });
      await until('the group reaching B', NOTIFIED_WITHIN_MS, async () => (await b.admin.call('GET', '/groups/cap')).status === 200);
      await b.admin.ok('PATCH', '/groups/cap', { limits: [{ metric: 'requests', window: 'day', max: 1 }] });
      await until('the PATCH reaching A', NOTIFIED_WITHIN_MS, async () => (await a.admin.ok('GET', '/groups/cap')).limits?.length === 1);
      assert.equal(await chat(a, key.secret), 200);
      assert.equal(await chat(a, key.secret), 429, 'the cap set on B applies on A');
    });

    it('a POST /config/apply on A reaches B by notification; B keeps its own listen addresses', async () => {
      const key = await a.admin.mint({ name: 'config-probe' });
      await until('the key reaching B', NOTIFIED_WITHIN_MS, async () => (await chat(b, key.secret)) === 200);
      assert.equal(await chat(b, key.secret, 'shared-pool'), 404, 'no such pool on B yet');
      const doc = parseYaml(readFileSync(a.files.configPath, 'utf8')) as Record<string, unknown>;
      const applied = { ...doc, pools: { ...(doc.pools as object), 'shared-pool': { members: [{ model: 'lane-openai', weight: 1 }] } } };
      const started = performance.now();
      await a.admin.ok('POST', '/config/apply', { config: applied });
      const localMs = performance.now() - started;
      assert.equal(await chat(a, key.secret, 'shared-pool'), 200);
      // Stated bound: the notification (< 1 s) plus B's own apply (validate, compile, every worker acks), about A's local apply time.
      const seenMs = await until('the applied pool serving on B', NOTIFIED_WITHIN_MS, async () => (await chat(b, key.secret, 'shared-pool')) === 200);
      console.log(
        `# ${module}: config apply on A took ${localMs.toFixed(0)} ms there and was live on B ${seenMs.toFixed(0)} ms after A answered (stated bound: notification < 1 s + B's own apply)`,
      );
      const versions = await b.admin.ok('GET', '/config/versions');
      assert.match(JSON.stringify(versions), /config apply from another node/);
      // A config applied on B comes back to A the same way.
      const back = { ...applied, pools: { ...(applied.pools as object), 'from-b': { members: [{ model: 'lane-openai', weight: 1 }] } } };
      const docB = parseYaml(readFileSync(b.files.configPath, 'utf8')) as Record<string, unknown>;
      await b.admin.ok('POST', '/config/apply', { config: { ...back, listen: docB.listen, admin_listen: docB.admin_listen } });
      await until('the pool applied on B serving on A', NOTIFIED_WITHIN_MS, async () => (await chat(a, key.secret, 'from-b')) === 200);
      assert.equal(await chat(a, key.secret), 200, 'A still serves on its own address');
    });

    it('usage from both nodes sums in GET /usage on either', async () => {
      const key = await a.admin.mint({ name: 'both' });
      await until('the key reaching B', NOTIFIED_WITHIN_MS, async () => (await chat(b, key.secret)) === 200);
      for (let i = 0; i < 3; i++) assert.equal(await chat(a, key.secret), 200);
      for (let i = 0; i < 4; i++) assert.equal(await chat(b, key.secret), 200);
      // 1 (the probe on B) + 3 on A + 4 on B, once both nodes flushed (metering each second, store each 0.5 s).
      const requestsOf = async (g: Governed): Promise<number> => {
        const usage = await g.admin.ok('GET', '/usage');
        return (usage.by_key as Array<{ key_id?: string; id?: string; requests: number }>)
          .filter((r) => (r.key_id ?? r.id) === key.id)
          .reduce((n, r) => n + r.requests, 0);
      };
      await until('both nodes flushing', 10_000, async () => (await requestsOf(a)) === 8 && (await requestsOf(b)) === 8);
    });

    it('a cap under concurrent load split over both nodes admits at most N x cap (per-node counters)', async () => {
      const CAP = 10;
      await a.admin.ok('POST', '/groups', { name: 'split-cap', limits: [{ metric: 'requests', window: 'day', max: CAP }] });
      const key = await a.admin.mint({ name: 'split', group: 'split-cap' });
      await until('the key reaching B', NOTIFIED_WITHIN_MS, async () => (await b.admin.call('GET', `/keys/${key.id}`)).status === 200);
      const results = await Promise.all(Array.from({ length: 60 }, (_, i) => chat(i % 2 === 0 ? a : b, key.secret)));
      const admitted = results.filter((s) => s === 200).length;
      console.log(`# ${module}: cap ${CAP} requests/day, 60 concurrent requests split over 2 nodes: ${admitted} admitted (bound: 2 x cap = ${2 * CAP})`);
      assert.ok(admitted >= CAP, `at least the cap is admitted (${admitted})`);
      assert.ok(admitted <= 2 * CAP, `no more than N x cap is admitted (${admitted})`);
      assert.equal(results.filter((s) => s !== 200 && s !== 429).length, 0);
    });

    it('a budget cap under load split over both nodes overshoots by no more than the stated bound (reconciled through the store)', async () => {
      const FEE = 1_000;
      const CAP = 20;
      const zero = {
        model: '*',
        tier: '*',
        input_micros_per_mtok: 0,
        output_micros_per_mtok: 0,
        cache_read_micros_per_mtok: 0,
        cache_creation_micros_per_mtok: 0,
      };
      await a.admin.ok('POST', '/groups', {
        name: 'fleet-budget',
        per_request_fee_micros: FEE,
        rate_card: [zero],
        limits: [{ metric: 'budget', window: 'day', max: CAP * FEE }],
      });
      const key = await a.admin.mint({ name: 'fleet', group: 'fleet-budget' });
      await until('the key reaching B', NOTIFIED_WITHIN_MS, async () => (await b.admin.call('GET', `/keys/${key.id}`)).status === 200);
      // Each node gets a request every 200 ms for 6 s: the cap is reached after a few flush intervals.
      const admitted: Array<{ node: 'a' | 'b'; start: number; end: number }> = [];
      const drive = async (node: 'a' | 'b'): Promise<void> => {
        const g = node === 'a' ? a : b;
        const until = performance.now() + 6_000;
        while (performance.now() < until) {
          const start = performance.now();
          const status = await chat(g, key.secret);
          if (status === 200) admitted.push({ node, start, end: performance.now() });
          else assert.equal(status, 429);
          await new Promise((r) => setTimeout(r, 200));
        }
      };
      await Promise.all([drive('a'), drive('b')]);
      const last = admitted.reduce((x, y) => (y.start > x.start ? y : x));
      // What the other node admitted in the lag before the fleet's last admission.
      const bound = admitted.filter((r) => r.node !== last.node && r.end >= last.start - LAG_MS && r.start <= last.end).length;
      const overshoot = admitted.length - CAP;
      const perNode = { a: admitted.filter((r) => r.node === 'a').length, b: admitted.filter((r) => r.node === 'b').length };
      console.log(
        `# ${module}: budget cap ${CAP} requests' worth, ~5 req/s per node on 2 nodes for 6 s: ${admitted.length} admitted (A ${perNode.a}, B ${perNode.b}); overshoot ${overshoot}, bound ${bound} (the other node's admissions in the ${LAG_MS} ms before the last admission); without reconciliation up to ${2 * CAP}`,
      );
      assert.ok(admitted.length >= CAP, `at least the cap is admitted (${admitted.length})`);
      assert.ok(overshoot <= bound, `overshoot ${overshoot} <= bound ${bound}`);
      assert.ok(admitted.length < 2 * CAP, `each node counted the other's spend (${admitted.length} < ${2 * CAP})`);
    });

    /** A chat whose body reserves `inputTokens(body) + 5` tokens (max_tokens 5); `prompt` may hold a mock directive. */
    async function reserving(g: Governed, secret: string, prompt: string, model = 'default'): Promise<number> {
      const res = await request(`${g.gw.url}/v1/chat/completions`, {
        method: 'POST',
        dispatcher: agent,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
        body: reservingBody(prompt, model),
      });
      await res.body.dump();
      return res.statusCode;
    }

    it('reservations in flight on one node count on the other after a flush (the fleet carries them)', async () => {
      const slow = '[mock latency_ms=6000] hi';
      const reserve = reserveOf(slow);
      await a.admin.ok('POST', '/groups', { name: 'fleet-reserved', limits: [{ metric: 'tokens', window: 'day', max: 3 * reserve }] });
      const key = await a.admin.mint({ name: 'fleet-reserved', group: 'fleet-reserved' });
      await until('the key reaching B', POLL_INTERVAL_MS + 1_000, async () => (await b.admin.call('GET', `/keys/${key.id}`)).status === 200);
      // Three slow requests on A hold the whole cap in reservations. B probes with requests the
      // upstream fails (admitted: 500 or, once the pool's breaker opens, 503; they use nothing),
      // on a pool of their own: 429 once A's reservations reached B.
      const probe = '[mock status=500] hi';
      assert.ok(51 + reserveOf(probe, 'pool-openai') <= 3 * reserve, 'after A settles a probe fits again');
      const held = Promise.all([0, 1, 2].map(() => reserving(a, key.secret, slow)));
      const seenMs = await until('B refusing while A holds the cap', 4_500, async () => (await reserving(b, key.secret, probe, 'pool-openai')) === 429);
      console.log(
        `# ${module}: A's reservations in flight refused B's requests ${seenMs.toFixed(0)} ms after they were made (bound: the flush lag, ${LAG_MS} ms)`,
      );
      assert.deepEqual(await held, [200, 200, 200]);
      // Settled on A (17 tokens each, reservations given back): once that reached B, B admits again.
      await until('B admitting again after A settled', 3_000, async () => (await reserving(b, key.secret, probe, 'pool-openai')) !== 429);
    });

    it('a token-priced budget under load split over both nodes overshoots by no more than the fleet bound', async () => {
      // Each request costs 17 tokens x 1,000 micros and reserves more (its estimate, max_tokens 5).
      const COST = 17_000;
      const CAP = 20 * COST;
      const card = {
        model: '*',
        tier: '*',
        input_micros_per_mtok: 1e9,
        output_micros_per_mtok: 1e9,
        cache_read_micros_per_mtok: 0,
        cache_creation_micros_per_mtok: 0,
      };
      await a.admin.ok('POST', '/groups', { name: 'fleet-tokens-budget', rate_card: [card], limits: [{ metric: 'budget', window: 'day', max: CAP }] });
      const key = await a.admin.mint({ name: 'fleet-tokens', group: 'fleet-tokens-budget' });
      await until('the key reaching B', POLL_INTERVAL_MS + 1_000, async () => (await b.admin.call('GET', `/keys/${key.id}`)).status === 200);
      const admitted: Array<{ node: 'a' | 'b'; start: number; end: number }> = [];
      const drive = async (node: 'a' | 'b'): Promise<void> => {
        const g = node === 'a' ? a : b;
        const stopAt = performance.now() + 6_000;
        while (performance.now() < stopAt) {
          const start = performance.now();
          const status = await reserving(g, key.secret, '[mock latency_ms=100] hi');
          if (status === 200) admitted.push({ node, start, end: performance.now() });
          else assert.equal(status, 429);
          await new Promise((r) => setTimeout(r, 150));
        }
      };
      await Promise.all([drive('a'), drive('b')]);
      const last = admitted.reduce((x, y) => (y.start > x.start ? y : x));
      const bound = admitted.filter((r) => r.node !== last.node && r.end >= last.start - LAG_MS && r.start <= last.end).length * COST;
      const spend = admitted.length * COST;
      console.log(
        `# ${module}: token-priced budget ${CAP} micros (20 requests' worth), 2 nodes for 6 s: ${admitted.length} admitted, spend ${spend}; overshoot ${Math.max(0, spend - CAP)}, fleet bound ${bound} (the other node's admissions in the ${LAG_MS} ms before the last one)`,
      );
      assert.ok(spend - CAP <= bound, `overshoot ${spend - CAP} <= bound ${bound}`);
      assert.ok(admitted.length < 40, "each node counted the other's spend and reservations");
    });

    it('one durable audit writer across the two nodes; B takes over when A is killed', async () => {
      assert.equal((await a.admin.ok('GET', '/info')).audit_durable, 'writer');
      assert.equal((await b.admin.ok('GET', '/info')).audit_durable, 'standby');
      await b.gw.waitForLog('detaches its durable sink');
      // Mutations on B while it stands by: in its ring, written to the store on takeover.
      await b.admin.ok('POST', '/groups', { name: 'audited-on-b' });
      a.gw.proc.kill('SIGKILL');
      const tookOverMs = await until('B taking over the audit writer lease', 25_000, async () => (await b.admin.ok('GET', '/info')).audit_durable === 'writer');
      console.log(
        `# ${module}: B took over the durable audit log ${tookOverMs.toFixed(0)} ms after A was killed (lease TTL 15 s; a dead holder on the same host is displaced at B's next try, every 5 s)`,
      );
      const store = backend.open();
      try {
        // B writes its backlog right after taking the lease, asynchronously: wait for it to land.
        await until('B writing its backlog', 5_000, async () => (await store.readAuditLog()).rows.some((r) => r.resource.includes('audited-on-b')));
        const log = await store.readAuditLog();
        assert.deepEqual(verifyAuditLog(log.rows, log.heads).ok, true, JSON.stringify(verifyAuditLog(log.rows, log.heads)));
        assert.ok(
          log.rows.some((r) => r.resource.includes('audited-on-b')),
          'the entry B made while standing by is in the store',
        );
        assert.equal(new Set(log.rows.map((r) => r.run)).size, 2, 'two runs wrote: A, then B');
      } finally {
        await store.close();
      }
    });
  });
}
