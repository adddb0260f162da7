// The AdmissionLease of a request admitted with a key: settled exactly once by the request's
// finish, on every path. It ends the request's in-flight count in each group with a
// `concurrent` limit, adds the tokens it used (and their cost at the price it was admitted
// with) to every windowed bucket it counts in, and meters the usage per (day, key, model).
// Tokens land in the window current at settle (a reservation's refund would use its own).
import type { Usage } from '../../shared/model/types.js';
import { usageCostMicros } from '../../shared/governance/pricing.js';
import { WINDOW_MINUTE } from '../../shared/governance/windows.js';
import type { WindowClock } from '../../shared/governance/window-clock.js';
import { METRIC_BUDGET, METRIC_CONCURRENT, METRIC_TOKENS, type WorkerGroup } from '../../shared/governance/worker-state.js';
import {
  GOV_KEY_BUDGET_SPEND, GOV_KEY_BUDGET_TOKENS, GOV_KEY_MINUTE_TOKENS, GOV_SPEND_MICROS, GOV_TOKENS, type GovernanceCounters,
} from '../../shared/sab/index.js';
import type { AdmissionLease, ServedBy } from '../pipeline/admission-lease.js';
import type { Metering } from '../metering.js';
import type { AdmissionKey } from './key-table.js';
import { rateFor, type Price } from './admission.js';

export class GovernanceLease implements AdmissionLease {
  readonly keyId: string;
  private settled = false;
  private readonly chain: readonly WorkerGroup[];

  constructor(
    entry: AdmissionKey,
    private readonly slot: number,
    private readonly budgetWindow: number,
    private readonly price: Price,
    private readonly counters: GovernanceCounters | null,
    private readonly metering: Metering | null,
    private readonly clock: WindowClock,
  ) {
    this.keyId = entry.key.id;
    this.chain = entry.chain;
  }

  settle(usage: Usage | null, servedBy: ServedBy | null, _ok: boolean): void {
    if (this.settled) return;
    this.settled = true;
    if (servedBy !== null && this.metering !== null) this.metering.recordKey(this.keyId, servedBy.lane, servedBy.provider, usage);
    const c = this.counters;
    if (c === null) return; // governance disabled: nothing was reserved
    const tokens = usage === null ? 0 : usage.input + usage.output + usage.cacheRead + usage.cacheCreation;
    const cost = usage === null || servedBy === null ? 0 : usageCostMicros(rateFor(this.price, servedBy.lane), usage);
    const tags = this.clock.at(Math.floor(Date.now() / 1000));
    for (const g of this.chain) {
      for (const limit of g.limits) {
        if (limit.metric === METRIC_CONCURRENT) c.leave(g.slot);
        else if (limit.metric === METRIC_TOKENS && tokens > 0) c.add(c.groupIndex(g.slot, limit.window, GOV_TOKENS), tags[limit.window]!, tokens);
        else if (limit.metric === METRIC_BUDGET && cost > 0) c.add(c.groupIndex(g.slot, limit.window, GOV_SPEND_MICROS), tags[limit.window]!, cost);
      }
    }
    if (tokens > 0) {
      const minute = tags[WINDOW_MINUTE]!;
      const budget = tags[this.budgetWindow]!;
      c.add(c.keyIndex(this.slot, GOV_KEY_MINUTE_TOKENS), minute, tokens);
      c.add(c.keyIndex(this.slot, GOV_KEY_BUDGET_TOKENS), budget, tokens);
      if (cost > 0) c.add(c.keyIndex(this.slot, GOV_KEY_BUDGET_SPEND), budget, cost);
      c.markKeyDirty(this.slot);
    }
  }
}

/** The lease of the open front door (`auth.chain: []`): nothing reserved, nothing to settle. */
export const OPEN_LEASE: AdmissionLease = {
  keyId: '',
  settle(): void {},
};
