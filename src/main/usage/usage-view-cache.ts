// GET /usage's answer as JSON text, reused while what it is built from stays the same: the
// summary object (the sqlite store hands back the very same one while the day's per-key usage
// did not change: sqlite-usage-reads.ts), the day, the currency, and the names of the keys in
// by_key (a PATCH may rename one; checked on every read). Only as_of moves, so a dashboard
// polling an unchanged day costs the main thread a few string joins instead of building and
// serialising a thousand rows each time (the admin load must stay small beside the data plane).
import type { KeyUsageSummary } from './usage-summary.js';
import { buildUsageView } from './usage-view.js';

interface Built {
  summary: KeyUsageSummary;
  day: number;
  currency: string;
  names: Array<string | null>;
  /** The text up to as_of's value, and from the comma after it to the end. */
  head: string;
  rest: string;
}

export class UsageViewCache {
  private last: Built | null = null;

  text(day: number, summary: KeyUsageSummary, currency: string, keyName: (id: string) => string | null, nowSec: number): string {
    const last = this.last;
    if (last !== null && last.summary === summary && last.day === day && last.currency === currency && sameNames(last.names, summary, keyName)) {
      return last.head + nowSec + last.rest;
    }
    const { window, as_of: _asOf, ...rest } = buildUsageView(day, summary, currency, keyName, nowSec);
    const head = `{"window":${JSON.stringify(window)},"as_of":`;
    // The fields after as_of, in the view's order: the object's text without its opening brace.
    const restText = `,${JSON.stringify(rest).slice(1)}`;
    this.last = { summary, day, currency, names: summary.topKeys.map((k) => keyName(k.keyId)), head, rest: restText };
    return head + nowSec + restText;
  }
}

function sameNames(names: ReadonlyArray<string | null>, summary: KeyUsageSummary, keyName: (id: string) => string | null): boolean {
  const top = summary.topKeys;
  for (let i = 0; i < top.length; i++) if (keyName(top[i]!.keyId) !== names[i]) return false;
  return true;
}
