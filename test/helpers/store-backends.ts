// The four store modules as test backends: each test gets a fresh sqlite file, a fresh
// postgres schema or a fresh valkey key prefix, dropped by cleanup(). A shared service that
// is down fails the test with a message naming it: no store test is ever skipped.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import pg from 'pg';
import { Redis } from 'iovalkey';
import type { Store } from '../../src/main/store/store.js';
import { MemoryStore } from '../../src/main/store/memory.js';
import { SqliteStore } from '../../src/main/store/sqlite.js';
import { PostgresStore } from '../../src/main/store/postgres.js';
import { ValkeyStore } from '../../src/main/store/valkey.js';

export const POSTGRES_URL = process.env.GATEWAY_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const VALKEY_URL = process.env.GATEWAY_TEST_VALKEY_URL ?? 'redis://127.0.0.1:6379';

export type StoreModule = 'memory' | 'sqlite' | 'postgres' | 'valkey';

export interface StoreBackend {
  module: StoreModule;
  /** Another handle on the same store (a second node); memory has only one. */
  open(): Store;
  /** The `store:` block of a gateway config on this backend. */
  config(): { module: StoreModule; settings: Record<string, unknown> };
  cleanup(): Promise<void>;
}

async function assertReachable(host: string, port: number, what: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(2_000, () => socket.destroy(new Error('timed out')));
    socket.once('connect', () => {
      socket.end();
      resolve();
    });
    socket.once('error', (err) =>
      reject(
        new Error(
          `${what} is not reachable at ${host}:${port} (${err.message}); the store tests need it running (scripts/test-prereqs.mjs starts it when it can)`,
        ),
      ),
    );
  });
}

export async function createBackend(module: StoreModule): Promise<StoreBackend> {
  const suffix = randomBytes(5).toString('hex');
  switch (module) {
    case 'memory': {
      const store = new MemoryStore();
      return { module, open: () => store, config: () => ({ module, settings: {} }), cleanup: async () => undefined };
    }
    case 'sqlite': {
      const dir = mkdtempSync(join(tmpdir(), 'gw-store-'));
      const path = join(dir, 'store.db');
      return {
        module,
        open: () => new SqliteStore(path),
        config: () => ({ module, settings: { path } }),
        cleanup: async () => rmSync(dir, { recursive: true, force: true }),
      };
    }
    case 'postgres': {
      await assertReachable('127.0.0.1', 5432, 'PostgreSQL');
      const schema = `gw_test_${suffix}`;
      const settings = { url: POSTGRES_URL, schema, poolMax: 4, connectTimeoutMs: 3_000, statementTimeoutMs: 5_000 };
      return {
        module,
        open: () => new PostgresStore(settings),
        config: () => ({ module, settings: { url: POSTGRES_URL, schema, pool_max: 4 } }),
        cleanup: async () => {
          const client = new pg.Client({ connectionString: POSTGRES_URL });
          await client.connect();
          try {
            await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
          } finally {
            await client.end();
          }
        },
      };
    }
    case 'valkey': {
      await assertReachable('127.0.0.1', 6379, 'the Redis-protocol server (valkey)');
      const keyPrefix = `gw-test-${suffix}:`;
      const settings = { url: VALKEY_URL, keyPrefix, connectTimeoutMs: 3_000, commandTimeoutMs: 5_000 };
      return {
        module,
        open: () => new ValkeyStore(settings),
        config: () => ({ module, settings: { url: VALKEY_URL, key_prefix: keyPrefix } }),
        cleanup: async () => {
          const client = new Redis(VALKEY_URL);
          try {
            let cursor = '0';
            do {
              const [next, keys] = await client.scan(cursor, 'MATCH', `${keyPrefix}*`, 'COUNT', 500);
              if (keys.length > 0) await client.del(...keys);
              cursor = next;
            } while (cursor !== '0');
          } finally {
            client.disconnect();
          }
        },
      };
    }
  }
}
