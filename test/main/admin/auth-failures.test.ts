// Failed admin authentication (issue 46), with an injected clock: a source is refused (429
// seconds) once it failed failuresPerWindow times in a window, and only for the rest of it; the
// audit and the log are coalesced, so a flood adds a bounded number of entries per window.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Logger } from '../../../src/shared/log.js';
import { AuditLog } from '../../../src/main/audit/audit-log.js';
import { AdminAuthFailures, type AuthFailureLimits } from '../../../src/main/admin/auth-failures.js';

const LIMITS: AuthFailureLimits = { failuresPerWindow: 3, windowMs: 60_000, sourcesWrittenPerWindow: 2, sourcesTracked: 4 };
const MUTATION = { method: 'POST', path: '/api/v1/admin/keys', audit: { action: 'key.create', resource: 'key:' }, reason: 'invalid admin credential' };
const READ = { ...MUTATION, method: 'GET', audit: null };

function setup() {
  let now = 1_000_000;
  const lines: unknown[][] = [];
  const log = { warn: (...args: unknown[]) => lines.push(args) } as unknown as Logger;
  const audit = new AuditLog(null);
  const failures = new AdminAuthFailures(audit, log, () => now, LIMITS);
  return { failures, audit, lines, advance: (ms: number) => (now += ms) };
}

describe('AdminAuthFailures', () => {
  it('refuses a source past failuresPerWindow for the rest of its window, with the seconds left', () => {
    const { failures, advance } = setup();
    for (let i = 0; i < 3; i++) {
      assert.equal(failures.blockedSecs('10.0.0.1'), 0);
      failures.failed('10.0.0.1', MUTATION);
    }
    assert.equal(failures.blockedSecs('10.0.0.1'), 60);
    assert.equal(failures.blockedSecs('10.0.0.2'), 0, 'per source');
    advance(45_500);
    assert.equal(failures.blockedSecs('10.0.0.1'), 15);
    advance(14_500);
    assert.equal(failures.blockedSecs('10.0.0.1'), 0, 'the window is over');
    failures.close();
  });

  it('audits the first failure of a source at once (principal anonymous) and the rest as one summary', () => {
    const { failures, audit, lines, advance } = setup();
    for (let i = 0; i < 500; i++) failures.failed(`10.0.0.${i % 5}`, MUTATION);
    failures.failed('10.0.0.7', READ);
    const now = audit.newestFirst(100).items;
    assert.deepEqual(
      now.map((e) => [e.action, e.outcome, e.principal]),
      [
        ['key.create', 'rejected', 'anonymous'],
        ['key.create', 'rejected', 'anonymous'],
      ],
      'two sources written as they came (sourcesWrittenPerWindow), reads never audited',
    );
    assert.equal(lines.length, 2, 'and logged');
    advance(60_000);
    failures.failed('10.0.0.9', READ); // the next window begins: the last one's summary is written
    const after = audit.newestFirst(100).items;
    assert.equal(after.length, 3, '500 attempts made 3 entries');
    assert.deepEqual([after[0]!.action, after[0]!.outcome, after[0]!.principal], ['admin_auth.failures', 'rejected', 'anonymous']);
    assert.equal(after[0]!.resource, 'unauthorized:498 mutation attempts (499 in all) from 6 sources in 60 s');
    assert.equal(lines.length, 4, "the summary line, and the new window's first failure");
    failures.close();
  });

  it('tracks a bounded number of sources', () => {
    const { failures } = setup();
    for (let i = 0; i < 100; i++) failures.failed(`10.1.0.${i}`, READ);
    assert.ok((failures as unknown as { sources: Map<string, unknown> }).sources.size <= LIMITS.sourcesTracked);
    failures.close();
  });
});
