// The durable sink's single-writer lease on a real sqlite file: the first store takes it, a
// second one on the same file is refused while the first lives, takes it once released, and
// takes at once a lease left by a process that is gone (a crash).
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { pino } from 'pino';
import { AuditLog } from '../../../src/main/audit/audit-log.js';
import { DurableAuditSink } from '../../../src/main/audit/durable-sink.js';
import { verifyAuditLog } from '../../../src/main/audit/verify.js';
import { SqliteStore } from '../../../src/main/store/sqlite.js';
import { MemoryStore } from '../../../src/main/store/memory.js';

const dir = mkdtempSync(join(tmpdir(), 'gw-audit-'));
const quiet = pino({ level: 'silent' });

describe('durable audit sink', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('one writer per store: a second sink detaches until the first releases the lease', async () => {
    const path = join(dir, 'lease.db');
    const a = new SqliteStore(path);
    const b = new SqliteStore(path);
    const sinkA = new DurableAuditSink(a, quiet);
    const sinkB = new DurableAuditSink(b, quiet);
    assert.equal(await sinkA.attach(), true);
    assert.equal(await sinkB.attach(), false);
    const logA = new AuditLog(sinkA);
    const logB = new AuditLog(sinkB);
    logA.append({ action: 'config.apply', resource: 'config', outcome: 'applied', principal: 'admin' });
    logB.append({ action: 'config.apply', resource: 'config', outcome: 'applied', principal: 'admin' });
    assert.equal((await a.readAuditLog()).rows.length, 1, 'the detached sink wrote nothing');
    await sinkA.detach();
    const sinkC = new DurableAuditSink(b, quiet);
    assert.equal(await sinkC.attach(), true, 'a released lease is free');
    new AuditLog(sinkC).append({ action: 'server.restart', resource: 'process', outcome: 'applied', principal: 'admin' });
    const { rows, heads } = await b.readAuditLog();
    assert.deepEqual(verifyAuditLog(rows, heads), { ok: true, entries: 2, runs: 2 });
    await sinkC.detach();
    await a.close();
    await b.close();
  });

  it('takes over at once a lease whose holder process is gone', async () => {
    const path = join(dir, 'stale.db');
    const store = new SqliteStore(path);
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    const deadPid = Number(gone.stdout.toString());
    const db = new Database(path);
    db.prepare('INSERT INTO audit_writer (id, owner, pid, host, expires_at_ms) VALUES (1, ?, ?, ?, ?)').run(
      'crashed-run',
      deadPid,
      hostname(),
      Date.now() + 60_000,
    );
    db.close();
    const sink = new DurableAuditSink(store, quiet);
    assert.equal(await sink.attach(), true);
    await sink.detach();
    await store.close();
  });

  it('the memory store keeps no durable log: the sink stays detached', async () => {
    const sink = new DurableAuditSink(new MemoryStore(), quiet);
    assert.equal(await sink.attach(), false);
  });
});
