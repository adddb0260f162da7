// The AdmissionLease of a request admitted with a key: settled exactly once by the request's
// finish, on every path. It ends the request's in-flight count in each group with a
// `concurrent` limit, ledgers the raw tokens it used per lane in every budget window it counts
// in (spend is recomputed from them at the next check, at the price in force then), adds them
// to every tokens limit, and meters the usage per (day, key, model).
// Tokens land in the window current at settle (a reservation's refund would use its own).
import type { Usage } from '../../shared/model/types.js';
import { WINDOW_MINUTE } from '../../shared/governance/windows.js';
import type { WindowClock } from '../../shared/governance/window-clock.js';
import { METRIC_CONCURRENT, METRIC_TOKENS, type WorkerGroup } from '../../shared/governance/worker-state.js';
import { GOV_KEY_BUDGET_TOKENS, GOV_KEY_MINUTE_TOKENS, GOV_TOKENS, type GovernanceCounters } from '../../shared/sab/index.js';
import type { AdmissionLease, ServedBy } from '../pipeline/admission-lease.js';
import type { Metering } from '../metering.js';
import type { AdmissionKey } from './key-table.js';
import type { Price } from './price.js';

export class GovernanceLease implements AdmissionLease {
  readonly keyId: string;
  /** The key's bound group (the first of its chain); '' when it has none. */
  readonly group: string;
  private settled = false;
  private readonly slot: number;
  private readonly budgetWindow: number;
  /** The chain and prices it was admitted under (a group change makes new ones). */
  private readonly chain: readonly WorkerGroup[];
  private readonly prices: readonly Price[];

  constructor(
    entry: AdmissionKey,
    private readonly counters: GovernanceCounters | null,
    private readonly metering: Metering | null,
    private readonly clock: WindowClock,
  ) {
    this.keyId = entry.key.id;
    this.slot = entry.key.slot;
    this.budgetWindow = entry.key.budgetWindow;
    this.chain = entry.chain;
    this.prices = entry.prices;
    this.group = entry.chain.length > 0 ? entry.chain[0]!.name : '';
  }

  settle(usage: Usage | null, servedBy: ServedBy | null, _ok: boolean, nowMs: number): void {
    if (this.settled) return;
    this.settled = true;
    if (servedBy !== null && this.metering !== null) this.metering.recordKey(this.keyId, servedBy.lane, servedBy.provider, usage, nowMs);
    const c = this.counters;
    if (c === null) return; // governance disabled: nothing was reserved
    const tokens = usage === null ? 0 : usage.input + usage.output + usage.cacheRead + usage.cacheCreation;
    // Lane slots need a lane; without one (no attempt reached a lane) there were no tokens.
    const lane = tokens > 0 && servedBy !== null ? servedBy.laneId : 0;
    const tags = this.clock.at(Math.floor(nowMs / 1000));
    const chain = this.chain;
    for (let gi = 0; gi < chain.length; gi++) {
      const g = chain[gi]!;
      for (const limit of g.limits) {
        if (limit.metric === METRIC_CONCURRENT) c.leave(g.slot);
        else if (limit.metric === METRIC_TOKENS && tokens > 0) c.add(c.groupIndex(g.slot, limit.window, GOV_TOKENS), tags[limit.window]!, tokens);
        if (limit.laneTokens && lane !== 0) c.addGroupLaneTokens(g.slot, limit.window, tags[limit.window]!, lane, usage!, this.prices[gi]!.rates);
      }
    }
    if (tokens > 0) {
      const budget = tags[this.budgetWindow]!;
      c.add(c.keyIndex(this.slot, GOV_KEY_MINUTE_TOKENS), tags[WINDOW_MINUTE]!, tokens);
      c.add(c.keyIndex(this.slot, GOV_KEY_BUDGET_TOKENS), budget, tokens);
      if (lane !== 0) c.addKeyLaneTokens(this.slot, budget, lane, usage!, this.prices.length > 0 ? this.prices[0]!.rates : null);
      c.markKeyDirty(this.slot);
    }
  }
}

/** The lease of the open front door (`auth.chain: []`): nothing reserved, nothing to settle. */
export const OPEN_LEASE: AdmissionLease = {
  keyId: '',
  settle(): void {},
};
