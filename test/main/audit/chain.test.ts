// The audit chain without a process: hashes link entry to entry, the ring is bounded and paged
// newest first, and verification names the first altered, reordered or missing entry.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { AuditLog } from '../../../src/main/audit/audit-log.js';
import { auditHash } from '../../../src/main/audit/entry.js';
import { verifyAuditLog, type StoredAuditEntry } from '../../../src/main/audit/verify.js';

function logOf(n: number): StoredAuditEntry[] {
  const log = new AuditLog(null);
  const out: StoredAuditEntry[] = [];
  for (let i = 0; i < n; i++) {
    const e = log.append(
      { action: 'config.apply', resource: 'config', outcome: i % 2 === 0 ? 'applied' : 'rejected', principal: 'admin' },
      1_700_000_000_000 + i * 1000,
    );
    out.push({ ...e, run: 'r1', position: i + 1 });
  }
  return out;
}

describe('audit chain', () => {
  it('hash = sha256(prev_hash|seq|ts|action|resource|outcome|principal); the first prev_hash is empty', () => {
    const [first, second] = logOf(2);
    assert.equal(first!.seq, 1);
    assert.equal(first!.prev_hash, '');
    const expected = createHash('sha256').update(`|1|${first!.ts}|config.apply|config|applied|admin`).digest('hex');
    assert.equal(first!.hash, expected);
    assert.equal(second!.prev_hash, first!.hash);
    assert.equal(second!.hash, auditHash(second!));
  });

  it('the ring keeps its bound and pages newest first', () => {
    const log = new AuditLog(null, 5);
    for (let i = 0; i < 12; i++) log.append({ action: 'a.b', resource: 'r', outcome: 'applied', principal: 'admin' });
    assert.equal(log.size, 5);
    const first = log.newestFirst(3);
    assert.deepEqual(
      first.items.map((e) => e.seq),
      [12, 11, 10],
    );
    assert.equal(first.more, true);
    const second = log.newestFirst(3, 10);
    assert.deepEqual(
      second.items.map((e) => e.seq),
      [9, 8],
    );
    assert.equal(second.more, false);
    assert.equal(second.items[1]!.prev_hash, '', 'the oldest retained entry, its predecessor pruned, shows an empty prev_hash');
    assert.notEqual(second.items[0]!.prev_hash, '');
  });

  it('after pruning, every entry shown (the oldest kept one too) verifies by the spec formula over chain_prev_hash (issue 46)', () => {
    const log = new AuditLog(null, 5);
    for (let i = 0; i < 12; i++) log.append({ action: 'a.b', resource: `r${i}`, outcome: 'applied', principal: 'admin' });
    const shown = log.newestFirst(100).items.reverse();
    assert.deepEqual(
      shown.map((e) => e.seq),
      [8, 9, 10, 11, 12],
    );
    for (const [i, e] of shown.entries()) {
      const expected = createHash('sha256').update(`${e.chain_prev_hash}|${e.seq}|${e.ts}|${e.action}|${e.resource}|${e.outcome}|${e.principal}`).digest('hex');
      assert.equal(e.hash, expected, `seq ${e.seq}`);
      if (i > 0) assert.equal(e.prev_hash, shown[i - 1]!.hash);
      assert.equal(e.chain_prev_hash, i === 0 ? log.oldestFirst()[0]!.prev_hash : e.prev_hash);
    }
    assert.equal(shown[0]!.prev_hash, '');
    assert.notEqual(shown[0]!.chain_prev_hash, '');
  });

  it('escapes "|" and control characters in a resource, and bounds its length (issue 46)', () => {
    const log = new AuditLog(null);
    const piped = log.append({ action: 'group.create', resource: 'group:ops|rejected\n', outcome: 'rejected', principal: 'admin' });
    assert.equal(piped.resource, 'group:ops%7Crejected%0A');
    const huge = log.append({ action: 'hook.register', resource: `hook:${'x'.repeat(7 * 1024 * 1024)}`, outcome: 'rejected', principal: 'admin' });
    assert.ok(huge.resource.length <= 256, `${huge.resource.length} chars`);
    assert.match(huge.resource, /^hook:x+\.\.\.\[\d+ more chars\]$/);
  });

  it('an intact log verifies', () => {
    const rows = logOf(6);
    const result = verifyAuditLog(rows, [{ run: 'r1', seq: 6, hash: rows[5]!.hash }]);
    assert.deepEqual(result, { ok: true, entries: 6, runs: 1 });
  });

  it('names an altered entry', () => {
    const rows = logOf(6);
    rows[2] = { ...rows[2]!, outcome: 'applied', action: 'config.rollback' };
    const result = verifyAuditLog(rows, []);
    assert.equal(result.ok, false);
    assert.equal(!result.ok && result.kind, 'altered');
    assert.equal(!result.ok && result.seq, 3);
  });

  it('names a reordered entry', () => {
    const rows = logOf(6);
    [rows[2], rows[3]] = [rows[3]!, rows[2]!];
    const result = verifyAuditLog(rows, []);
    assert.equal(!result.ok && result.kind, 'reordered');
    assert.equal(!result.ok && result.seq, 3);
  });

  it('names an entry whose fields leave their domains as altered, though its hash matches (issue 46)', () => {
    // The attack: `resource=group:ops|rejected, outcome=applied` rewritten as
    // `resource=group:ops, outcome=rejected|applied` joins to the same text, so the same hash.
    const rows = logOf(3);
    const e = rows[1]!;
    const rehash = (r: StoredAuditEntry): StoredAuditEntry => ({ ...r, hash: auditHash(r) });
    const shifted = rehash({ ...e, outcome: `x|applied` as never });
    for (const bad of [shifted, rehash({ ...e, principal: 'root' }), rehash({ ...e, outcome: 'maybe' as never }), rehash({ ...e, resource: 'a\u0000b' })]) {
      const copy = [...rows];
      copy[1] = bad;
      copy[2] = rehash({ ...copy[2]!, prev_hash: bad.hash });
      const result = verifyAuditLog(copy, []);
      assert.equal(!result.ok && result.kind, 'altered', JSON.stringify(bad));
      assert.equal(!result.ok && result.seq, 2);
    }
    assert.deepEqual(verifyAuditLog(logOf(3), []), { ok: true, entries: 3, runs: 1 });
  });

  it('names a missing entry, in the middle or at the end', () => {
    const rows = logOf(6);
    const middle = verifyAuditLog(
      rows.filter((r) => r.seq !== 4),
      [],
    );
    assert.equal(!middle.ok && middle.kind, 'missing');
    assert.equal(!middle.ok && middle.seq, 4);
    const tail = verifyAuditLog(rows.slice(0, 5), [{ run: 'r1', seq: 6, hash: rows[5]!.hash }]);
    assert.equal(!tail.ok && tail.kind, 'missing');
    assert.equal(!tail.ok && tail.seq, 6);
  });
});
