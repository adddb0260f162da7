// Governance windows: which window a moment falls in, as a small tag kept inside every counter
// word (so a counter from an older window reads as zero and a late settle cannot touch a newer
// window), and when the window ends (Retry-After). All windows are UTC.

/** Window kinds, in the order a group record lays them out. */
export const WINDOW_MINUTE = 0;
const WINDOW_HOUR = 1;
export const WINDOW_DAY = 2;
export const WINDOW_MONTH = 3;
export const WINDOW_TOTAL = 4;
/** Only a key's `budget_period: weekly` uses it (groups have no weekly limits). */
export const WINDOW_WEEK = 5;
export const WINDOW_KINDS = 6;

export type GroupWindowName = 'minute' | 'hour' | 'day' | 'month' | 'total';
export type BudgetPeriod = 'daily' | 'weekly' | 'monthly' | 'total';

const GROUP_WINDOWS: readonly GroupWindowName[] = ['minute', 'hour', 'day', 'month', 'total'];

export function groupWindowKind(name: GroupWindowName): number {
  return GROUP_WINDOWS.indexOf(name);
}

export function budgetWindowKind(period: BudgetPeriod): number {
  switch (period) {
    case 'daily':
      return WINDOW_DAY;
    case 'weekly':
      return WINDOW_WEEK;
    case 'monthly':
      return WINDOW_MONTH;
    default:
      return WINDOW_TOTAL;
  }
}

export const WINDOW_NAMES: readonly string[] = ['minute', 'hour', 'day', 'month', 'total', 'week'];

/** Tags are 16 bits; a window index is reduced mod 2^16 (minutes wrap after 45 days, far
 * longer than any counter stays untouched in a live window). */
const WINDOW_TAG_MASK = 0xffff;

// 1970-01-01 was a Thursday; weeks start on Monday (ISO), i.e. 3 days after day 4 of the epoch.
const WEEK_OFFSET_DAYS = 3;

/** The window's index since the epoch (not masked): minutes, hours, days, weeks or months. */
function windowIndex(kind: number, nowSec: number): number {
  switch (kind) {
    case WINDOW_MINUTE:
      return Math.floor(nowSec / 60);
    case WINDOW_HOUR:
      return Math.floor(nowSec / 3600);
    case WINDOW_DAY:
      return Math.floor(nowSec / 86400);
    case WINDOW_WEEK:
      return Math.floor((Math.floor(nowSec / 86400) + WEEK_OFFSET_DAYS) / 7);
    case WINDOW_MONTH: {
      const d = new Date(nowSec * 1000);
      return d.getUTCFullYear() * 12 + d.getUTCMonth();
    }
    default:
      return 0;
  }
}

export function windowTag(kind: number, nowSec: number): number {
  return windowIndex(kind, nowSec) & WINDOW_TAG_MASK;
}

/** Epoch seconds the window holding `nowSec` started (0 for `total`). */
export function windowStartSec(kind: number, nowSec: number): number {
  const i = windowIndex(kind, nowSec);
  switch (kind) {
    case WINDOW_MINUTE:
      return i * 60;
    case WINDOW_HOUR:
      return i * 3600;
    case WINDOW_DAY:
      return i * 86400;
    case WINDOW_WEEK:
      return (i * 7 - WEEK_OFFSET_DAYS) * 86400;
    case WINDOW_MONTH:
      return Date.UTC(Math.floor(i / 12), i % 12, 1) / 1000;
    default:
      return 0;
  }
}

/** Seconds until the window holding `nowSec` ends (at least 1); null for `total` (never). */
export function secondsToWindowEnd(kind: number, nowSec: number): number | null {
  if (kind === WINDOW_TOTAL) return null;
  let next: number;
  const start = windowStartSec(kind, nowSec);
  switch (kind) {
    case WINDOW_MINUTE:
      next = start + 60;
      break;
    case WINDOW_HOUR:
      next = start + 3600;
      break;
    case WINDOW_DAY:
      next = start + 86400;
      break;
    case WINDOW_WEEK:
      next = start + 7 * 86400;
      break;
    default: {
      const i = windowIndex(kind, nowSec) + 1;
      next = Date.UTC(Math.floor(i / 12), i % 12, 1) / 1000;
    }
  }
  return Math.max(1, Math.ceil(next - nowSec));
}
