// The AdmissionLease of a request admitted with a key: settled exactly once by the request's
// finish, on every path. First it counts what the request used: when anything was sent
// upstream, the request charged (+1 under every budget, the fee), and its tokens: the usage
// the upstream reported, or, for a stream the caller aborted that reported none, the estimate
// of what was relayed (the input estimate plus the relayed bytes over the protocol's stream
// bytes per token). Tokens go to every tokens limit and are ledgered per lane in every budget
// window (spend is recomputed from them at the next check, at the price in force then). A
// request that sent nothing upstream uses nothing. Then it gives back every reservation
// admission made (in that order: a check that sees the give-back also sees the usage), ends
// its in-flight count under `concurrent` limits, and meters the usage per (day, key, model).
// Usage lands in the windows current at settle; a give-back carries its reservation's window.
import type { Usage } from '../../shared/model/types.js';
import { WINDOW_MINUTE } from '../../shared/governance/windows.js';
import type { WindowClock } from '../../shared/governance/window-clock.js';
import { COST_ESTIMATORS } from '../../shared/governance/estimators.js';
import { ledgerGroupTokens, ledgerKeyTokens } from '../../shared/governance/spend.js';
import { METRIC_BUDGET, METRIC_CONCURRENT, METRIC_TOKENS, type WorkerGroup } from '../../shared/governance/worker-state.js';
import {
  GOV_BUDGET_REQUESTS,
  GOV_KEY_BUDGET_REQUESTS,
  GOV_KEY_BUDGET_TOKENS,
  GOV_KEY_MINUTE_TOKENS,
  GOV_TOKENS,
  JOURNAL_ITEMS_MAX,
  privateEntryWords,
  type JournalEntry,
  type ReservationJournal,
} from '../../shared/sab/index.js';
import type { ProtocolName } from '../../shared/model/types.js';
import type { AdmissionLease, ServedBy } from '../pipeline/admission-lease.js';
import type { Metering } from '../metering.js';
import type { AdmissionCounters } from './admission.js';
import type { AdmissionKey } from './key-table.js';
import type { Price } from './price.js';
import { releaseAll } from './reserve.js';

export class GovernanceLease implements AdmissionLease, JournalEntry {
  readonly keyId: string;
  /** The key's bound group (the first of its chain); '' when it has none. */
  readonly group: string;
  private settled = false;
  private readonly slot: number;
  private readonly budgetWindow: number;
  /** The chain and prices it was admitted under (a group change makes new ones). */
  private readonly chain: readonly WorkerGroup[];
  private readonly prices: readonly Price[];
  // JournalEntry: where this request's reservations are noted (its worker's journal entry, or
  // a private one), so settle can give them back and main can when the worker dies first.
  words: Uint32Array = NO_WORDS;
  at = 0;
  capacity = 0;
  /** The estimate reserved (tokens), for the estimate-vs-actual histogram and an abort's charge. */
  inputEstimate = 0;
  outputEstimate = 0;
  /** The usage an aborted stream is charged with when the upstream reported none (reused). */
  private relayed: Usage | null = null;
  // What settle was told, kept for a settle deferred past a flush cut (settle-gate.ts).
  private usage: Usage | null = null;
  private servedBy: ServedBy | null = null;
  private nowMs = 0;
  private sent = false;
  private relayedBytes = 0;
  private readonly journal: ReservationJournal | null;

  constructor(
    entry: AdmissionKey,
    /** Null: governance is disabled (nothing counted, nothing metered). */
    private readonly counters: AdmissionCounters | null,
    private readonly metering: Metering | null,
    private readonly clock: WindowClock,
  ) {
    this.journal = counters === null ? null : counters.journal;
    this.keyId = entry.key.id;
    this.slot = entry.key.slot;
    this.budgetWindow = entry.key.budgetWindow;
    this.chain = entry.chain;
    this.prices = entry.prices;
    this.group = entry.chain.length > 0 ? entry.chain[0]!.name : '';
  }

  /** Where to note `items` reservations: a journal entry when one is free and big enough, else a
   * private one (given back by settle alike, but not by main if this worker dies: held until
   * its window ends, the safe side). */
  openEntry(items: number): void {
    if (items === 0) return;
    if (items <= JOURNAL_ITEMS_MAX && this.journal !== null && this.journal.take(this)) return;
    this.words = new Uint32Array(privateEntryWords(items));
    this.at = 0;
    this.capacity = items;
  }

  /** Admission refused after this lease was made: give its entry back (reservations already were). */
  abandon(): void {
    this.settled = true;
    this.journal?.give(this);
  }

  settle(usage: Usage | null, servedBy: ServedBy | null, _ok: boolean, nowMs: number, sent = true, relayedBytes = 0): void {
    if (this.settled) return;
    this.settled = true;
    const k = this.counters;
    if (k === null) return; // governance disabled: nothing was reserved, nothing is metered
    this.usage = usage;
    this.servedBy = servedBy;
    this.nowMs = nowMs;
    this.sent = sent;
    this.relayedBytes = relayedBytes;
    if (!this.retry()) k.deferred.push(this);
  }

  /** Settle now unless main is taking a flush cut (then false: try again right after it). */
  retry(): boolean {
    const gate = this.counters!.gate;
    if (!gate.enter()) return false;
    try {
      this.apply(gate.epoch());
    } finally {
      gate.leave();
    }
    return true;
  }

  /** The settle itself: usage counted and metered (under flush epoch `epoch`), then the give-backs. */
  private apply(epoch: number): void {
    const k = this.counters!;
    const servedBy = this.servedBy;
    const sent = this.sent;
    const nowMs = this.nowMs;
    const relayedBytes = this.relayedBytes;
    let usage = this.usage;
    const reported = sent && usage !== null;
    if (!sent) usage = null;
    else if (usage === null && relayedBytes > 0 && servedBy !== null) usage = this.relayedUsage(relayedBytes, servedBy.protocol);
    if (sent && servedBy !== null && this.metering !== null) this.metering.recordKey(this.keyId, servedBy.lane, servedBy.provider, usage, nowMs, epoch);
    const c = k.counters;
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
        else if (limit.metric === METRIC_BUDGET && sent) c.add(c.groupIndex(g.slot, limit.window, GOV_BUDGET_REQUESTS), tags[limit.window]!, 1);
        if (limit.laneTokens && lane !== 0) ledgerGroupTokens(c, g.slot, limit.window, tags[limit.window]!, lane, usage!, this.prices[gi]!.rates);
      }
    }
    const budget = tags[this.budgetWindow]!;
    // The key's requests are counted even uncapped (GET /keys/{id}/usage and the spend gauges).
    if (sent) c.add(c.keyIndex(this.slot, GOV_KEY_BUDGET_REQUESTS), budget, 1);
    if (tokens > 0) {
      c.add(c.keyIndex(this.slot, GOV_KEY_MINUTE_TOKENS), tags[WINDOW_MINUTE]!, tokens);
      c.add(c.keyIndex(this.slot, GOV_KEY_BUDGET_TOKENS), budget, tokens);
      if (lane !== 0) ledgerKeyTokens(c, this.slot, budget, lane, usage!, this.prices.length > 0 ? this.prices[0]!.rates : null);
    }
    if (sent || tokens > 0) c.markKeyDirty(this.slot);
    // Usage first, then the give-back (see reserve.ts).
    releaseAll(k.reserved, this);
    this.journal?.give(this);
    if (reported && this.capacity > 0 && this.metering !== null) {
      this.metering.estimateSettled(this.inputEstimate, usage!.input + usage!.cacheRead + usage!.cacheCreation, this.outputEstimate, usage!.output);
    }
  }

  private relayedUsage(bytes: number, protocol: ProtocolName): Usage {
    if (this.relayed === null) this.relayed = { input: 0, output: 0, cacheRead: 0, cacheCreation: 0 };
    const u = this.relayed;
    u.input = this.inputEstimate;
    u.output = Math.ceil(bytes / COST_ESTIMATORS[protocol].streamBytesPerToken);
    return u;
  }
}

const NO_WORDS = new Uint32Array(1);

/** The lease of the open front door (`auth.chain: []`): nothing reserved, nothing to settle. */
export const OPEN_LEASE: AdmissionLease = {
  keyId: '',
  settle(): void {},
};
