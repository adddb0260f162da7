// Failed admin authentication, recorded and slowed. A 401 on a mutation is an attempt at one, so
// it is audited (principal `anonymous`: there is no other to name), and every 401 is logged; a
// source address that fails too often in a window gets 429 `rate_limited` with Retry-After for
// the rest of it, whatever it sends (a valid token too: answering it would tell a guesser which
// guess was right). Both the audit and the log are coalesced per window: the first failure of
// each source (up to a few sources) is written as it happens, the rest are counted and written
// as one summary when the window ends, so a flood of wrong tokens adds a bounded number of
// entries a minute and cannot flush the 10,000-entry ring (7,500 wrong tokens were once
// answered at full speed and left no trace).
import type { Logger } from '../../shared/log.js';
import type { AuditLog } from '../audit/audit-log.js';

export interface AuthFailureLimits {
  /** Failures a source may have in one window before it is refused with 429. */
  failuresPerWindow: number;
  windowMs: number;
  /** Sources whose first failure of a window is written as it happens; later ones only count. */
  sourcesWrittenPerWindow: number;
  /** Sources tracked at once (a spray from many addresses must not grow memory without bound). */
  sourcesTracked: number;
}

const DEFAULT_AUTH_FAILURE_LIMITS: AuthFailureLimits = {
  failuresPerWindow: 10,
  windowMs: 60_000,
  sourcesWrittenPerWindow: 16,
  sourcesTracked: 10_000,
};

/** What was refused: for the audit entry when it is a mutation (an audited route). */
export interface FailedAttempt {
  method: string;
  path: string;
  /** The route's audit action and resource; null for a read. */
  audit: { action: string; resource: string } | null;
  reason: string;
}

interface SourceWindow {
  startMs: number;
  failures: number;
}

export class AdminAuthFailures {
  private readonly sources = new Map<string, SourceWindow>();
  /** The coalescing window (one for every source): what it wrote, what it only counted. */
  private windowStartMs = -Infinity;
  private written = new Set<string>();
  private countedFailures = 0;
  private countedMutations = 0;
  private countedSources = new Set<string>();
  private flushTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly audit: AuditLog,
    private readonly log: Logger,
    private readonly nowMs: () => number = Date.now,
    private readonly limits: AuthFailureLimits = DEFAULT_AUTH_FAILURE_LIMITS,
  ) {}

  /** Seconds `source` must still wait (429 Retry-After), or 0 when it may try. */
  blockedSecs(source: string): number {
    const w = this.sources.get(source);
    if (w === undefined) return 0;
    const left = w.startMs + this.limits.windowMs - this.nowMs();
    if (left <= 0) {
      this.sources.delete(source);
      return 0;
    }
    return w.failures >= this.limits.failuresPerWindow ? Math.ceil(left / 1000) : 0;
  }

  /** A 401: counted against the source, logged and (for a mutation) audited, coalesced. */
  failed(source: string, attempt: FailedAttempt): void {
    const now = this.nowMs();
    let w = this.sources.get(source);
    if (w === undefined || now - w.startMs >= this.limits.windowMs) {
      if (w === undefined && this.sources.size >= this.limits.sourcesTracked) this.prune(now);
      w = { startMs: now, failures: 0 };
      this.sources.set(source, w);
    }
    w.failures++;
    this.note(source, attempt, now);
  }

  /** A 429 for a blocked source: not a credential check, but still an attempt (coalesced like one). */
  refused(source: string, attempt: FailedAttempt): void {
    this.note(source, { ...attempt, reason: 'rate limited' }, this.nowMs());
  }

  close(): void {
    if (this.flushTimer !== null) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    this.flush();
  }

  private note(source: string, attempt: FailedAttempt, now: number): void {
    if (now - this.windowStartMs >= this.limits.windowMs) {
      this.flush();
      this.windowStartMs = now;
      this.flushTimer = setTimeout(() => {
        this.flushTimer = null;
        this.flush();
      }, this.limits.windowMs);
      this.flushTimer.unref();
    }
    if (!this.written.has(source) && this.written.size < this.limits.sourcesWrittenPerWindow) {
      this.written.add(source);
      this.log.warn(
        { source, method: attempt.method, path: attempt.path, reason: attempt.reason },
        'admin: authentication failed (further failures this minute are counted and summarised)',
      );
      if (attempt.audit !== null) this.audit.append({ ...attempt.audit, outcome: 'rejected', principal: 'anonymous' });
      return;
    }
    this.countedFailures++;
    this.countedSources.add(source);
    if (attempt.audit !== null) this.countedMutations++;
  }

  /** The window's summary: one log line and, when mutations were among them, one audit entry. */
  private flush(): void {
    if (this.countedFailures > 0) {
      const windowSecs = Math.round(this.limits.windowMs / 1000);
      this.log.warn(
        { failures: this.countedFailures, mutations: this.countedMutations, sources: this.countedSources.size, window_secs: windowSecs },
        'admin: more failed authentications in the last window (summary)',
      );
      if (this.countedMutations > 0) {
        this.audit.append({
          action: 'admin_auth.failures',
          resource: `unauthorized:${this.countedMutations} mutation attempts (${this.countedFailures} in all) from ${this.countedSources.size} sources in ${windowSecs} s`,
          outcome: 'rejected',
          principal: 'anonymous',
        });
      }
    }
    this.written = new Set();
    this.countedFailures = 0;
    this.countedMutations = 0;
    this.countedSources = new Set();
  }

  /** Drops windows that are over; if every tracked source is still in its window, the oldest. */
  private prune(now: number): void {
    for (const [source, w] of this.sources) if (now - w.startMs >= this.limits.windowMs) this.sources.delete(source);
    if (this.sources.size < this.limits.sourcesTracked) return;
    const oldest = this.sources.keys().next();
    if (oldest.done !== true) this.sources.delete(oldest.value);
  }
}
