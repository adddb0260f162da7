// The double-count guard: a usage flush whose reply is lost after the store committed it (the
// fault proxy forwards the flush and drops the answer) fails on the node, which retries the
// same batch (same id) next flush; the store skips it, so the usage is stored exactly once.
// Driven through the ledger the gateway uses, on a store reached through the proxy.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger } from '../../../src/shared/log.js';
import { UsageLedger } from '../../../src/main/usage/ledger.js';
import { PostgresStore } from '../../../src/main/store/postgres.js';
import { ValkeyStore } from '../../../src/main/store/valkey.js';
import type { Store } from '../../../src/main/store/store.js';
import { createBackend, POSTGRES_URL, VALKEY_URL, type StoreBackend } from '../../helpers/store-backends.js';
import { startFaultProxy, type FaultProxy } from '../../helpers/fault-proxy.js';
import { keyUsageRow, usageRow } from '../../helpers/usage-rows.js';

const DAY = 1_763_856_000;

/** One flush's usage: `requests` requests of 10 input tokens each, for the pool's lane and for the key. */
const usage = (requests: number) => usageRow(DAY, { tokensInput: 10 * requests, requests });
const keyUsage = (requests: number) => keyUsageRow(DAY, { tokensInput: 10 * requests, requests });

export function lostCommit(module: 'postgres' | 'valkey'): void {
  describe(`a flush whose reply is lost is counted once (${module})`, () => {
    let backend: StoreBackend;
    let proxy: FaultProxy;
    let via: Store;
    let direct: Store;

    before(async () => {
      backend = await createBackend(module);
      proxy = await startFaultProxy(module === 'postgres' ? 5432 : 6379);
      const settings = backend.config().settings;
      if (module === 'postgres') {
        via = new PostgresStore({
          url: POSTGRES_URL.replace(':5432', `:${proxy.port}`),
          schema: String(settings.schema),
          poolMax: 2,
          connectTimeoutMs: 1_000,
          statementTimeoutMs: 1_000,
        });
      } else {
        via = new ValkeyStore({
          url: VALKEY_URL.replace(':6379', `:${proxy.port}`),
          keyPrefix: String(settings.key_prefix),
          connectTimeoutMs: 1_000,
          commandTimeoutMs: 1_000,
        });
      }
      direct = backend.open();
    });
    after(async () => {
      await via?.close().catch(() => undefined);
      await direct?.close().catch(() => undefined);
      await proxy?.close();
      await backend?.cleanup();
    });

    const stored = async (): Promise<[number, number]> => [
      (await direct.usageForDay(DAY)).reduce((n, r) => n + r.requests, 0),
      (await direct.keyUsageForDay(DAY)).reduce((n, r) => n + r.requests, 0),
    ];

    it('the reply of a committed flush is dropped; the retry with the same batch id is skipped', async () => {
      const ledger = new UsageLedger(via, createLogger('test'));
      ledger.add({ t: 'usage', workerId: 0, records: [usage(1)], keyRecords: [keyUsage(1)] });
      // A loaded machine can time the first statement out (1 s): the ledger retries the same batch.
      for (let i = 0; i < 20 && (await stored()).join() !== '1,1'; i++) await ledger.flush();
      assert.deepEqual(await stored(), [1, 1]);

      ledger.add({ t: 'usage', workerId: 0, records: [usage(2)], keyRecords: [keyUsage(2)] });
      proxy.set('drop-replies');
      await ledger.flush();
      // The store committed the usage batch; the node never saw the answer. (The per-key batch
      // lands too when it reuses an open connection, as on valkey; postgres had dropped the
      // timed-out connection and cannot open a new one without replies.)
      for (let i = 0; i < 50 && (await stored())[0] !== 3; i++) await new Promise((r) => setTimeout(r, 50));
      const during = await stored();
      assert.equal(during[0], 3, 'the store committed the flush whose reply was lost');
      assert.ok(during[1] === 1 || during[1] === 3, `per-key usage ${during[1]}`);

      proxy.set('pass');
      proxy.reset();
      // Metered meanwhile: a new batch, after the retried one.
      ledger.add({ t: 'usage', workerId: 0, records: [usage(4)], keyRecords: [keyUsage(4)] });
      for (let i = 0; i < 100 && (await stored()).join() !== '7,7'; i++) {
        await ledger.flush();
        await new Promise((r) => setTimeout(r, 100));
      }
      await ledger.flush();
      assert.deepEqual(await stored(), [7, 7], '1 + 2 (once, though sent twice) + 4');
    });
  });
}
