// The store conformance suite: the same tests over every store module (memory, sqlite,
// postgres, valkey), each run on a fresh store dropped afterwards. What one module does, all do.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { hostname } from 'node:os';
import type { Store, UsageRow, KeyUsageRow, KeyRecord, GroupRecord } from '../../../src/main/store/store.js';
import { keyUsageRow, usageRow } from '../../helpers/usage-rows.js';
import { auditHash, type AuditEntry } from '../../../src/main/audit/entry.js';
import { verifyAuditLog } from '../../../src/main/audit/verify.js';
import { createBackend, type StoreBackend, type StoreModule } from '../../helpers/store-backends.js';
import { hasFleetCounters } from '../../../src/main/store/fleet-counters.js';
import { hasChangeFeed } from '../../../src/main/store/peer-sync.js';
import { summarizeKeyUsageRows } from '../../../src/main/usage/summarize-rows.js';
import { responseRow } from '../../../src/main/store/store.js';
import type { StoredResponse } from '../../../src/shared/responses/stored-response.js';

const DAY = 1_763_856_000;

function usage(pool: string, lane: string, over: Partial<UsageRow> = {}): UsageRow {
  return usageRow(DAY, { pool, lane, tokensInput: 10, tokensOutput: 5, tokensCacheRead: 1, tokensCacheCreation: 2, ...over });
}

function keyUsage(keyId: string, over: Partial<KeyUsageRow> = {}): KeyUsageRow {
  return keyUsageRow(DAY, { keyId, model: 'gpt', tokensInput: 7, tokensOutput: 3, ...over });
}

function key(id: string, over: Partial<KeyRecord> = {}): KeyRecord {
  return {
    id,
    name: `key ${id}`,
    group: null,
    allowed_pools: ['default'],
    max_budget_cents: 500,
    budget_period: 'monthly',
    rpm_limit: null,
    tpm_limit: 1000,
    enabled: true,
    created_at: 1_700_000_000,
    expires_at: 1_900_000_000,
    jti: `jti-${id}`,
    aws_access_key_id: null,
    ...over,
  };
}

function group(name: string, over: Partial<GroupRecord> = {}): GroupRecord {
  return {
    name,
    parent: null,
    enabled: true,
    per_request_fee_micros: 0,
    rate_card: [
      { model: '*', tier: '*', input_micros_per_mtok: 1, output_micros_per_mtok: 2, cache_read_micros_per_mtok: 0, cache_creation_micros_per_mtok: 0 },
    ],
    limits: [{ metric: 'requests', window: 'minute', max: 10 }],
    child_default: null,
    created_at: 1_700_000_000,
    ...over,
  } as GroupRecord;
}

const NOW_MS = 1_800_000_000_000;
const DAY_MS = 86_400_000;

function storedResponse(id: string, keyId: string, over: Partial<StoredResponse> = {}, padChars = 0): StoredResponse {
  return {
    id,
    keyId,
    createdAtMs: NOW_MS,
    expiresAtMs: NOW_MS + DAY_MS,
    lane: 'lane-anthropic',
    provider: 'anthropic',
    laneProtocol: 'anthropic',
    upstreamId: null,
    previousId: null,
    input: [{ type: 'message', role: 'user', content: 'héllo' }],
    response: { id, object: 'response', output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'x'.repeat(padChars) }] }] },
    ...over,
  };
}

function auditEntry(seq: number, prev: string): AuditEntry {
  const e = { seq, ts: 1_700_000_000 + seq, action: 'key.create', resource: `keys/k${seq}`, outcome: 'applied' as const, principal: 'admin', prev_hash: prev };
  return { ...e, hash: auditHash(e) };
}

export function storeConformance(module: StoreModule): void {
  describe(`store conformance: ${module}`, () => {
    let backend: StoreBackend;
    let store: Store;
    const opened: Store[] = [];
    const open = (): Store => {
      const s = backend.open();
      opened.push(s);
      return s;
    };

    before(async () => {
      backend = await createBackend(module);
      store = open();
    });
    after(async () => {
      for (const s of new Set(opened)) await s.close().catch(() => undefined);
      await backend?.cleanup();
    });

    it('usage: rows add up per (day, pool, lane, provider), repeated keys in one batch included', async () => {
      await store.addUsage([
        usage('p', 'a'),
        usage('p', 'a', { truncated: 1 }),
        usage('p', 'b', { tokensInput: 0, tokensOutput: 0, requests: 0, tokensCacheRead: 0, tokensCacheCreation: 0 }),
      ]);
      await store.addUsage([usage('p', 'a', { tokensInput: 2 ** 40 }), usage('p', 'a', { day: DAY + 86_400 })]);
      await store.addUsage([]);
      const rows = await store.usageForDay(DAY);
      assert.deepEqual(rows, [
        usage('p', 'a', { tokensInput: 20 + 2 ** 40, tokensOutput: 15, tokensCacheRead: 3, tokensCacheCreation: 6, requests: 3, truncated: 1 }),
        usage('p', 'b', { tokensInput: 0, tokensOutput: 0, requests: 0, tokensCacheRead: 0, tokensCacheCreation: 0 }),
      ]);
      assert.deepEqual(await store.usageForDay(DAY + 86_400), [usage('p', 'a', { day: DAY + 86_400 })]);
      assert.deepEqual(await store.usageForDay(DAY - 86_400), []);
    });

    it('usage per key: rows add up per (day, key, model, provider)', async () => {
      await store.addKeyUsage([keyUsage('k1'), keyUsage('k1'), keyUsage('k2', { model: 'claude' })]);
      await store.addKeyUsage([keyUsage('k1', { tokensCacheRead: 4 })]);
      const rows = await store.keyUsageForDay(DAY);
      const byKey = new Map(rows.map((r) => [`${r.keyId}/${r.model}`, r]));
      assert.equal(rows.length, 2);
      assert.deepEqual(byKey.get('k1/gpt'), keyUsage('k1', { tokensInput: 21, tokensOutput: 9, tokensCacheRead: 4, requests: 3 }));
      assert.deepEqual(byKey.get('k2/claude'), keyUsage('k2', { model: 'claude' }));
      assert.deepEqual(await store.keyUsageForDay(DAY + 86_400), []);
    });

    it('flush batch ids: a batch applied before (same stream, same or lower seq) is skipped; streams are independent', async () => {
      const day = DAY + 20 * 86_400;
      await store.addUsage([usage('p', 'once', { day })], { stream: 'node-a/usage', seq: 1 });
      await store.addUsage([usage('p', 'once', { day })], { stream: 'node-a/usage', seq: 1 });
      await store.addUsage([usage('p', 'once', { day })], { stream: 'node-b/usage', seq: 1 });
      await store.addUsage([usage('p', 'once', { day })], { stream: 'node-a/usage', seq: 3 });
      await store.addUsage([usage('p', 'once', { day })], { stream: 'node-a/usage', seq: 2 });
      assert.equal((await store.usageForDay(day))[0]?.requests, 3, 'seq 1 of node-a once, seq 1 of node-b, seq 3 of node-a; seq 2 came after 3');
      await store.addKeyUsage([keyUsage('kb', { day })], { stream: 'node-a/key-usage', seq: 1 });
      await store.addKeyUsage([keyUsage('kb', { day })], { stream: 'node-a/key-usage', seq: 1 });
      assert.equal((await store.keyUsageForDay(day))[0]?.requests, 1);
    });

    it('fleet counters (shared stores): deltas add per window tag, a newer tag starts over, an older one is dropped, retries are skipped', async (t) => {
      if (!hasFleetCounters(store)) {
        assert.ok(module === 'memory' || module === 'sqlite', `${module} is a shared store: it must reconcile fleet counters`);
        t.diagnostic(`${module} is for one node: no fleet counters`);
        return;
      }
      const other = open();
      assert.ok(hasFleetCounters(other));
      const a = await store.reconcileCounters(
        { stream: 'a', seq: 1 },
        [
          { holder: 'group:g', value: 2, tag: 100, delta: 5 },
          { holder: 'key:k', value: 4, tag: 7, delta: 1_000_000 },
        ],
        0,
      );
      assert.equal(a.applied, true);
      assert.deepEqual(a.rows.map((r) => [r.holder, r.value, r.tag, r.count]).sort(), [
        ['group:g', 2, 100, 5],
        ['key:k', 4, 7, 1_000_000],
      ]);
      const b = await other.reconcileCounters({ stream: 'b', seq: 1 }, [{ holder: 'group:g', value: 2, tag: 100, delta: 3 }], a.last);
      assert.deepEqual(
        b.rows.map((r) => [r.holder, r.value, r.tag, r.count]),
        [['group:g', 2, 100, 8]],
        'only what changed since a.last',
      );
      const again = await other.reconcileCounters({ stream: 'b', seq: 1 }, [{ holder: 'group:g', value: 2, tag: 100, delta: 3 }], a.last);
      assert.equal(again.applied, false, 'a retried batch is skipped');
      assert.equal(again.rows.find((r) => r.holder === 'group:g')?.count, 8);
      const down = await store.reconcileCounters(
        { stream: 'a', seq: 2 },
        [
          { holder: 'group:g', value: 2, tag: 100, delta: -2 },
          { holder: 'key:k', value: 4, tag: 6, delta: 9 },
        ],
        b.last,
      );
      assert.deepEqual(
        down.rows.map((r) => [r.holder, r.value, r.tag, r.count]).sort(),
        [
          ['group:g', 2, 100, 6],
          ['key:k', 4, 7, 1_000_000],
        ],
        'an older window is dropped',
      );
      const roll = await store.reconcileCounters({ stream: 'a', seq: 3 }, [{ holder: 'group:g', value: 2, tag: 101, delta: 1 }], down.last);
      assert.deepEqual(
        roll.rows.map((r) => [r.holder, r.tag, r.count]),
        [['group:g', 101, 1]],
        'a newer window starts over',
      );
      const wrap = await store.reconcileCounters(
        { stream: 'a', seq: 4 },
        [
          { holder: 'group:w', value: 0, tag: 65_535, delta: 4 },
          { holder: 'group:w', value: 1, tag: 0, delta: 1 },
        ],
        roll.last,
      );
      const wrapped = await store.reconcileCounters({ stream: 'a', seq: 5 }, [{ holder: 'group:w', value: 0, tag: 0, delta: 2 }], wrap.last);
      assert.deepEqual(
        wrapped.rows.map((r) => [r.holder, r.value, r.tag, r.count]),
        [['group:w', 0, 0, 2]],
        'tag 0 is newer than 65535 (16-bit wrap)',
      );
      const all = await other.reconcileCounters({ stream: 'b', seq: 2 }, [], 0);
      assert.equal(all.rows.length, 4, 'since 0: every row');
      assert.equal(all.last, wrapped.last);
    });

    it('keys: put, replace, load; a revocation removes the key and its counters and lists the id', async () => {
      await store.putKey(key('a'));
      await store.putKey(key('b', { group: 'team', aws_access_key_id: 'AKIDEXAMPLE' }));
      await store.putKey(key('a', { name: 'renamed', enabled: false, jti: 'jti-2' }));
      await store.saveCounters([
        { holder: 'key:a', words: ['1', '2'] },
        { holder: 'key:b', words: ['3'] },
      ]);
      let gov = await store.loadGovernance();
      const keys = new Map(gov.keys.map((k) => [k.id, k]));
      assert.deepEqual(keys.get('a'), key('a', { name: 'renamed', enabled: false, jti: 'jti-2' }));
      assert.deepEqual(keys.get('b'), key('b', { group: 'team', aws_access_key_id: 'AKIDEXAMPLE' }));
      await store.revokeKey({ id: 'a', expires_at: 1_900_000_000, revoked_at: 1_800_000_000 });
      gov = await store.loadGovernance();
      assert.deepEqual(
        gov.keys.map((k) => k.id),
        ['b'],
      );
      assert.deepEqual(gov.revocations, [{ id: 'a', expires_at: 1_900_000_000, revoked_at: 1_800_000_000 }]);
      assert.deepEqual(gov.counters, [{ holder: 'key:b', words: ['3'] }]);
    });

    it('groups: put, replace, delete (with the group counters); counters replaced and deleted by holder', async () => {
      await store.putGroup(group('g1'));
      await store.putGroup(group('g2', { parent: 'g1', child_default: { rpm_limit: 5 } }));
      await store.putGroup(group('g1', { enabled: false }));
      await store.saveCounters([
        { holder: 'group:g1', words: ['9'] },
        { holder: 'group:g2', words: ['8', '7'] },
      ]);
      await store.saveCounters([{ holder: 'group:g2', words: ['6'] }]);
      let gov = await store.loadGovernance();
      const groups = new Map(gov.groups.map((g) => [g.name, g]));
      assert.deepEqual(groups.get('g1'), group('g1', { enabled: false }));
      assert.deepEqual(groups.get('g2'), group('g2', { parent: 'g1', child_default: { rpm_limit: 5 } }));
      await store.deleteGroup('g1');
      gov = await store.loadGovernance();
      assert.deepEqual(
        gov.groups.map((g) => g.name),
        ['g2'],
      );
      assert.equal(
        gov.counters.find((c) => c.holder === 'group:g1'),
        undefined,
      );
      assert.deepEqual(
        gov.counters.find((c) => c.holder === 'group:g2'),
        { holder: 'group:g2', words: ['6'] },
      );
      await store.saveCounters([{ holder: 'group:g2', words: null }]);
      assert.equal(
        (await store.loadGovernance()).counters.find((c) => c.holder === 'group:g2'),
        undefined,
      );
    });

    it('breaker trips: replaced per (pool, lane) cell', async () => {
      await store.saveBreakerTrips([
        { pool: '', lane: 'a', tripCount: 1, lastTripAt: 100 },
        { pool: 'p', lane: 'a', tripCount: 2, lastTripAt: 200 },
      ]);
      await store.saveBreakerTrips([{ pool: '', lane: 'a', tripCount: 3, lastTripAt: 300 }]);
      assert.deepEqual(await store.loadBreakerTrips(), [
        { pool: '', lane: 'a', tripCount: 3, lastTripAt: 300 },
        { pool: 'p', lane: 'a', tripCount: 2, lastTripAt: 200 },
      ]);
    });

    it('responses state: put, get and delete by key (another key gets not-found); TTL on an injected clock; a second handle sees it', async () => {
      const r1 = storedResponse('resp_1', 'key-a', { previousId: 'resp_0', upstreamId: 'up_1' });
      assert.equal(await store.putResponse(r1, 1_000_000, NOW_MS), true);
      assert.deepEqual(await store.getResponse('resp_1', 'key-a', NOW_MS), r1);
      assert.equal(await store.getResponse('resp_1', 'key-b', NOW_MS), null, "another key's read is not-found");
      assert.equal(await store.deleteResponse('resp_1', 'key-b'), false, "another key's delete removes nothing");
      assert.equal(await store.getResponse('resp_missing', 'key-a', NOW_MS), null);
      // Another node on a shared store, the same file reopened (a restart) on sqlite, the same store on memory.
      const other = open();
      assert.deepEqual(await other.getResponse('resp_1', 'key-a', NOW_MS), r1, 'seen through a second handle');
      assert.deepEqual(await store.getResponse('resp_1', 'key-a', r1.expiresAtMs - 1), r1);
      assert.equal(await store.getResponse('resp_1', 'key-a', r1.expiresAtMs), null, 'expired at its expiry on the injected clock');
      const replaced = { ...r1, response: { ...r1.response, status: 'completed' } };
      assert.equal(await other.putResponse(replaced, 1_000_000, NOW_MS), true);
      assert.deepEqual(await store.getResponse('resp_1', 'key-a', NOW_MS), replaced, 'a put replaces the record with its id');
      assert.equal(await other.deleteResponse('resp_1', 'key-a'), true);
      assert.equal(await store.getResponse('resp_1', 'key-a', NOW_MS), null);
      assert.equal(await store.deleteResponse('resp_1', 'key-a'), false, 'deleted once');
      if (module !== 'memory') {
        // A process that stored a response and exited: the next one (a restart, or another node) reads it.
        const first = open();
        await first.putResponse(storedResponse('resp_2', 'key-a'), 1_000_000, NOW_MS);
        await first.close();
        const next = open();
        assert.deepEqual(await next.getResponse('resp_2', 'key-a', NOW_MS), storedResponse('resp_2', 'key-a'), 'kept across a close and reopen');
        assert.equal(await next.deleteResponse('resp_2', 'key-a'), true);
      }
    });

    it('responses state: the size cap drops the oldest; a record over it is not stored; expired records are dropped first', async () => {
      const size = responseRow(storedResponse('cap_a', 'k', {}, 400)).bytes;
      const cap = Math.floor(size * 2.5);
      const at = (i: number): number => NOW_MS + 10 * DAY_MS + i;
      const put = (id: string, i: number, ttlMs = DAY_MS, s: typeof store = store): Promise<boolean> =>
        s.putResponse(storedResponse(id, 'k', { createdAtMs: at(i), expiresAtMs: at(i) + ttlMs }, 400), cap, at(i));
      const live = async (ids: string[], nowMs: number): Promise<string[]> => {
        const out: string[] = [];
        for (const id of ids) if ((await store.getResponse(id, 'k', nowMs)) !== null) out.push(id);
        return out;
      };
      assert.equal(await put('cap_a', 0), true);
      assert.equal(await put('cap_b', 1), true);
      assert.equal(await put('cap_c', 2, DAY_MS, open()), true);
      assert.deepEqual(await live(['cap_a', 'cap_b', 'cap_c'], at(3)), ['cap_b', 'cap_c'], 'the oldest went to make room');
      assert.equal(await put('cap_b', 3), true);
      assert.deepEqual(await live(['cap_b', 'cap_c'], at(4)), ['cap_b', 'cap_c'], 'a replaced record counts once');
      assert.equal(await store.putResponse(storedResponse('cap_big', 'k', { createdAtMs: at(5) }, 3 * size), cap, at(5)), false);
      assert.deepEqual(await live(['cap_big', 'cap_b', 'cap_c'], at(6)), ['cap_b', 'cap_c'], 'nothing changed for a record over the cap');
      assert.equal(await store.putResponse(storedResponse('cap_zero', 'k'), 0, at(6)), false, 'a cap of 0 stores nothing');
      // cap_e expires soon; at the next put it is dropped first, so cap_c (older, live) stays.
      assert.equal(await store.deleteResponse('cap_b', 'k'), true);
      assert.equal(await put('cap_e', 7, 10), true);
      assert.deepEqual(await live(['cap_c', 'cap_e'], at(8)), ['cap_c', 'cap_e']);
      assert.equal(await put('cap_f', 100), true);
      assert.deepEqual(await live(['cap_c', 'cap_e', 'cap_f'], at(101)), ['cap_c', 'cap_f']);
      for (const id of ['cap_c', 'cap_f']) assert.equal(await store.deleteResponse(id, 'k'), true);
    });

    it('a second handle on the same store (another node) sees every write', async () => {
      const other = open();
      const gov = await other.loadGovernance();
      assert.ok(gov.keys.some((k) => k.id === 'b'));
      assert.ok(gov.revocations.some((r) => r.id === 'a'));
      assert.equal((await other.usageForDay(DAY)).length, 2);
    });

    it('audit: entries in append order with each run head; one writer lease at a time', async () => {
      if (!store.durableAudit) {
        assert.equal(module, 'memory');
        assert.equal(await store.acquireAuditWriter('a', process.pid, 10_000), null);
        assert.deepEqual(await store.readAuditLog(), { rows: [], heads: [] });
        return;
      }
      const e1 = auditEntry(1, '');
      const e2 = auditEntry(2, e1.hash);
      store.appendAudit('run-1', e1);
      store.appendAudit('run-1', e2);
      const log = await store.readAuditLog();
      assert.deepEqual(
        log.rows.map((r) => [r.run, r.seq, r.hash]),
        [
          ['run-1', 1, e1.hash],
          ['run-1', 2, e2.hash],
        ],
      );
      assert.ok(log.rows[0]!.position < log.rows[1]!.position);
      assert.deepEqual(log.heads, [{ run: 'run-1', seq: 2, hash: e2.hash }]);
      assert.deepEqual(verifyAuditLog(log.rows, log.heads), { ok: true, entries: 2, runs: 1 });

      const other = open();
      assert.equal(await store.acquireAuditWriter('owner-a', process.pid, 10_000), null, 'a free lease is taken');
      assert.equal(await store.acquireAuditWriter('owner-a', process.pid, 10_000), null, 'the holder renews');
      const holder = await other.acquireAuditWriter('owner-b', process.pid, 10_000);
      assert.deepEqual(holder, { owner: 'owner-a', pid: process.pid, host: hostname() }, 'a live lease is refused and its holder named');
      await store.releaseAuditWriter('owner-b');
      assert.notEqual(await other.acquireAuditWriter('owner-b', process.pid, 10_000), null, 'only the holder releases');
      await store.releaseAuditWriter('owner-a');
      assert.equal(await other.acquireAuditWriter('owner-b', process.pid, 10_000), null, 'a released lease is free');
      // A holder on this host whose pid is gone crashed: the lease is taken at once.
      await other.releaseAuditWriter('owner-b');
      assert.equal(await other.acquireAuditWriter('owner-c', 2 ** 22 + 12_345, 10_000), null);
      assert.equal(await store.acquireAuditWriter('owner-d', process.pid, 10_000), null, 'a dead holder is displaced');
      // An expired lease is free.
      await store.releaseAuditWriter('owner-d');
      assert.equal(await store.acquireAuditWriter('owner-e', process.pid, 1), null);
      await new Promise((r) => setTimeout(r, 20));
      assert.equal(await other.acquireAuditWriter('owner-f', process.pid, 10_000), null, 'an expired lease is free');
    });

    it('change feed (shared stores): the change version moves with every change; the shared config is published and read back', async (t) => {
      if (!hasChangeFeed(store)) {
        assert.ok(module === 'memory' || module === 'sqlite', `${module} is a shared store: it must have a change feed`);
        t.diagnostic(`${module} is for one node: no change feed`);
        return;
      }
      const other = open();
      assert.ok(hasChangeFeed(other));
      const v0 = await store.changeVersion();
      await store.putGroup(group('versioned'));
      const v1 = await other.changeVersion();
      assert.notEqual(v1, v0, 'a group write moves the version');
      await store.putKey(key('versioned-key'));
      await store.revokeKey({ id: 'versioned-key', expires_at: 1_900_000_000, revoked_at: 1_700_000_000 });
      assert.notEqual(await other.changeVersion(), v1);
      assert.equal(await other.readConfig(), null);
      const seq1 = await store.publishConfig('node-a', { pools: { p: { members: [] } } });
      const seq2 = await other.publishConfig('node-b', { pools: { q: { members: [] } } });
      assert.ok(seq2 > seq1);
      assert.deepEqual(await store.readConfig(), { seq: seq2, origin: 'node-b', document: { pools: { q: { members: [] } } } });
      const v2 = await store.changeVersion();
      await store.publishConfig('node-a', {});
      assert.notEqual(await store.changeVersion(), v2, 'a config publish moves the version');
      await store.deleteGroup('versioned');
    });

    it('usage summary: priced per stored row, by (model, provider), top N keys by spend then id, cut flagged', async () => {
      const day = DAY + 10 * 86_400;
      const rows: KeyUsageRow[] = [];
      // 40 keys over two models and two providers; spends repeat so ties fall to the id order.
      for (let i = 0; i < 40; i++) {
        const keyId = `s${String(i).padStart(2, '0')}`;
        rows.push(keyUsage(keyId, { day, tokensInput: 1000 * (i % 7), tokensOutput: 333 * (i % 5), requests: 1 + (i % 3) }));
        if (i % 4 === 0)
          rows.push(
            keyUsage(keyId, {
              day,
              model: 'claude',
              provider: 'anthropic',
              tokensInput: 777,
              tokensOutput: 11,
              tokensCacheRead: 5,
              tokensCacheCreation: 9,
              requests: 2,
            }),
          );
        if (i % 6 === 0) rows.push(keyUsage(keyId, { day, model: 'claude', provider: 'bedrock', tokensInput: 3, tokensOutput: 2 ** 33, requests: 1 }));
      }
      await store.addKeyUsage(rows);
      const prices = [
        {
          model: '*',
          tier: '*',
          input_micros_per_mtok: 1_000_003,
          output_micros_per_mtok: 2_000_001,
          cache_read_micros_per_mtok: 0,
          cache_creation_micros_per_mtok: 0,
        },
        {
          model: 'claude',
          tier: 'default',
          input_micros_per_mtok: 3_000_007,
          output_micros_per_mtok: 15_000_000,
          cache_read_micros_per_mtok: 300_000,
          cache_creation_micros_per_mtok: 3_750_000,
        },
        {
          model: 'claude',
          tier: 'batch',
          input_micros_per_mtok: 1,
          output_micros_per_mtok: 1,
          cache_read_micros_per_mtok: 1,
          cache_creation_micros_per_mtok: 1,
        },
      ];
      const sorted = <T extends { model: string; provider: string }>(m: T[]): T[] =>
        [...m].sort((a, b) => `${a.model}/${a.provider}`.localeCompare(`${b.model}/${b.provider}`));
      for (const limit of [10, 40, 1000]) {
        const got = await store.keyUsageSummary(day, prices, limit);
        const want = summarizeKeyUsageRows(rows, prices, limit);
        assert.deepEqual(got.topKeys, want.topKeys, `top ${limit}`);
        assert.deepEqual(sorted(got.byModel), sorted(want.byModel));
        assert.equal(got.truncated, limit < 40);
      }
      const top = (await store.keyUsageSummary(day, prices, 10)).topKeys;
      for (let i = 1; i < top.length; i++) {
        const [a, b] = [top[i - 1]!, top[i]!];
        assert.ok(a.spendMicros > b.spendMicros || (a.spendMicros === b.spendMicros && a.keyId < b.keyId), 'spend desc, then id');
      }
      // Each stored row priced on its own: claude/anthropic at its own rate, truncated per row.
      const claude = (await store.keyUsageSummary(day, prices, 1)).byModel.find((m) => m.model === 'claude' && m.provider === 'anthropic')!;
      assert.equal(claude.spendMicros, 10n * ((777n * 3_000_007n + 11n * 15_000_000n + 5n * 300_000n + 9n * 3_750_000n) / 1_000_000n));
      assert.equal(claude.requests, 20);
      // A flush after a read shows in the next read (sqlite reuses an answer only while the
      // day's usage did not move), and a price change re-prices.
      const before = (await store.keyUsageSummary(day, prices, 5)).topKeys[0]!;
      await store.addKeyUsage([keyUsage('s99', { day, tokensInput: 10 ** 12, tokensOutput: 0, requests: 4 })]);
      const after = await store.keyUsageSummary(day, prices, 5);
      assert.equal(after.topKeys[0]!.keyId, 's99');
      assert.deepEqual(after.topKeys[1], before);
      const repriced = await store.keyUsageSummary(day, [{ ...prices[0]!, input_micros_per_mtok: 2_000_006 }], 5);
      assert.equal(repriced.topKeys[0]!.keyId, 's99');
      assert.equal(repriced.topKeys[0]!.spendMicros, 2n * after.topKeys[0]!.spendMicros);
      // No price list: tokens are free; an empty day: nothing.
      assert.ok((await store.keyUsageSummary(day, [], 5)).topKeys.every((k) => k.spendMicros === 0n));
      assert.deepEqual(await store.keyUsageSummary(day + 86_400, prices, 5), { byModel: [], topKeys: [], truncated: false });
    });

    it('a closed store refuses further calls', async () => {
      const s = module === 'memory' ? backend.open() : open();
      if (module !== 'memory') {
        await s.close();
        await assert.rejects(() => s.loadGovernance(), /closed/);
      }
    });
  });
}
