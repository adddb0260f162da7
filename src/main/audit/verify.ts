// Verification of the durable audit log: every run's chain must start at seq 1 with an empty
// prev_hash, go up by one, link each entry to the previous one's hash, match its own hash, and
// hold every field inside its domain (audit-text.ts: an outcome of applied/rejected, a known
// principal form, a resource without "|"), which is what makes the "|"-joined hash unambiguous.
// The first break is named: altered (fields no longer match the hash), reordered (an entry
// stored before one it follows) or missing (a gap in seq, or the run's last entry gone).
import type { AuditEntry } from './entry.js';
import { auditHash } from './entry.js';
import { auditFieldProblem } from './audit-text.js';

export interface StoredAuditEntry extends AuditEntry {
  /** The process run that wrote it. */
  run: string;
  /** Storage order (row id). */
  position: number;
}

export interface RunHead {
  run: string;
  /** seq and hash of the run's last appended entry, kept beside the lease. */
  seq: number;
  hash: string;
}

export type VerifyResult =
  | { ok: true; entries: number; runs: number }
  | { ok: false; kind: 'altered' | 'reordered' | 'missing'; run: string; seq: number; message: string };

export function verifyAuditLog(rows: StoredAuditEntry[], heads: RunHead[]): VerifyResult {
  const byRun = new Map<string, StoredAuditEntry[]>();
  for (const row of rows) {
    let list = byRun.get(row.run);
    if (list === undefined) byRun.set(row.run, (list = []));
    list.push(row);
  }
  for (const head of heads) if (!byRun.has(head.run)) byRun.set(head.run, []);
  for (const [run, list] of byRun) {
    const broken = verifyRun(
      run,
      list,
      heads.find((h) => h.run === run),
    );
    if (broken !== null) return broken;
  }
  return { ok: true, entries: rows.length, runs: byRun.size };
}

function verifyRun(run: string, list: StoredAuditEntry[], head: RunHead | undefined): VerifyResult | null {
  const seqs = new Set(list.map((e) => e.seq));
  let expectedSeq = 1;
  let prevHash = '';
  for (const entry of list) {
    const fail = (kind: 'altered' | 'reordered' | 'missing', seq: number, message: string): VerifyResult => ({ ok: false, kind, run, seq, message });
    if (auditHash(entry) !== entry.hash) {
      return fail('altered', entry.seq, `entry seq ${entry.seq} (run ${run}, row ${entry.position}) was altered: its fields do not match its hash`);
    }
    // The hash alone cannot tell `resource=a|rejected, outcome=x` from `resource=a, outcome=rejected|x`:
    // every field must be in its domain (the writer never stores one outside it).
    const problem = auditFieldProblem(entry);
    if (problem !== null) return fail('altered', entry.seq, `entry seq ${entry.seq} (run ${run}, row ${entry.position}) was altered: ${problem}`);
    if (entry.seq !== expectedSeq) {
      if (entry.seq > expectedSeq && seqs.has(expectedSeq)) {
        return fail(
          'reordered',
          expectedSeq,
          `entry seq ${expectedSeq} (run ${run}) is stored after seq ${entry.seq} (row ${entry.position}): the log was reordered`,
        );
      }
      if (entry.seq < expectedSeq) {
        return fail(
          'reordered',
          entry.seq,
          `entry seq ${entry.seq} (run ${run}, row ${entry.position}) is stored after seq ${expectedSeq - 1}: the log was reordered`,
        );
      }
      return fail('missing', expectedSeq, `entry seq ${expectedSeq} (run ${run}) is missing: the next stored entry is seq ${entry.seq}`);
    }
    if (entry.prev_hash !== prevHash) {
      return fail('altered', entry.seq, `entry seq ${entry.seq} (run ${run}, row ${entry.position}) does not link to the entry before it (prev_hash differs)`);
    }
    prevHash = entry.hash;
    expectedSeq++;
  }
  if (head !== undefined && head.seq >= expectedSeq) {
    return {
      ok: false,
      kind: 'missing',
      run,
      seq: expectedSeq,
      message: `entry seq ${expectedSeq} (run ${run}) is missing: the run wrote up to seq ${head.seq}`,
    };
  }
  if (head !== undefined && head.seq === expectedSeq - 1 && head.seq > 0 && head.hash !== prevHash) {
    return { ok: false, kind: 'altered', run, seq: head.seq, message: `entry seq ${head.seq} (run ${run}) does not match the hash the run recorded last` };
  }
  return null;
}
