// Usage the workers meter reaches the sqlite store: everything on a graceful stop, and on a
// crash everything older than one flush interval (plus the workers' one-second batching).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { request } from 'undici';
import { startStack, suiteMock } from '../helpers/clients/stack.js';

interface Row {
  pool: string;
  lane: string;
  requests: number;
  tokensInput: number;
  tokensOutput: number;
}

function readUsage(dbPath: string): Row[] {
  const db = new Database(dbPath, { fileMustExist: true });
  try {
    return db
      .prepare('SELECT pool, lane, requests, tokens_input AS tokensInput, tokens_output AS tokensOutput FROM usage_daily ORDER BY pool, lane')
      .all() as Row[];
  } finally {
    db.close();
  }
}

async function send(url: string, path: string, body: unknown): Promise<void> {
  const res = await request(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.equal(res.statusCode, 200, await res.body.text());
  await res.body.dump();
}

describe('usage reaches the sqlite store', () => {
  const mock = suiteMock();

  /** A gateway on the sqlite store (flushed every second) and the path of its database. */
  async function start(workers: number) {
    const { gateway, files } = await startStack({
      mockServer: mock,
      workers,
      over: { store: { module: 'sqlite', settings: { path: 'state/gw.db' } }, governance: { flush_interval_secs: 1 } },
    });
    return { gw: gateway, f: { dbPath: join(files.dir, 'state', 'gw.db') } };
  }

  it('all of it on a graceful stop, summed per (pool, lane)', async () => {
    const { gw, f } = await start(2);
    for (let i = 0; i < 6; i++) await send(gw.url, '/v1/chat/completions', { model: 'default', messages: [{ role: 'user', content: 'hi' }] });
    for (let i = 0; i < 4; i++) await send(gw.url, '/v1/messages', { model: 'pool-openai', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(await gw.stop(), 0);
    assert.deepEqual(readUsage(f.dbPath), [
      { pool: 'default', lane: 'lane-openai', requests: 6, tokensInput: 6 * 12, tokensOutput: 6 * 5 },
      { pool: 'pool-openai', lane: 'lane-openai', requests: 4, tokensInput: 4 * 12, tokensOutput: 4 * 5 },
    ]);
  });

  it('on a crash, what is older than the flush interval', async () => {
    const { gw, f } = await start(1);
    for (let i = 0; i < 5; i++) await send(gw.url, '/v1/chat/completions', { model: 'default', messages: [{ role: 'user', content: 'hi' }] });
    // Worker batching (1 s) + the store flush interval (1 s), with room to spare.
    await new Promise((r) => setTimeout(r, 3_000));
    await gw.stop('SIGKILL');
    assert.deepEqual(readUsage(f.dbPath), [{ pool: 'default', lane: 'lane-openai', requests: 5, tokensInput: 60, tokensOutput: 25 }]);
  });
});
