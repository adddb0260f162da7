// Per-worker metering: each finished request's usage is summed per (UTC day, pool, lane), and
// per (UTC day, key, model lane) for requests made with a key (rows keyed by lease.keyId), and
// handed to the main thread (which owns the store) on an interval, so the request path never
// waits on I/O, never sends a message per request, and allocates nothing per request once a
// (pool, lane) has its row. The counters /metrics shows are bumped in shared memory at once
// (one atomic add), so every worker renders the same totals.
// Key rows belong to the flush epoch their settle ran in (src/shared/sab/settle-gate.ts): when
// main takes a cut (the epoch moves on), this worker hands over the old epoch's rows as sealed
// at its next settle or within SEAL_CHECK_MS, so main writes a cut's counters and exactly its
// usage together.
import type { MessagePort } from 'node:worker_threads';
import type { CompiledMetrics } from '../shared/config/compiled.js';
import { encodeMessage, type KeyUsageRecord, type TokenSums, type UsageRecord } from '../shared/messages.js';
import { refusalIndex, translationIndex } from '../shared/metrics/catalog.js';
import type { RefusalReason } from '../shared/protocols/refusal.js';
import type { ProtocolName, Usage } from '../shared/model/types.js';
import type { SharedState } from '../shared/sab/index.js';
import type { LaneRuntime } from './runtime.js';

const DAY_MS = 86_400_000;

/** `outer`'s map at `key`, made on its first use. */
function innerMap<K, L, V>(outer: Map<K, Map<L, V>>, key: K): Map<L, V> {
  let inner = outer.get(key);
  if (inner === undefined) {
    inner = new Map();
    outer.set(key, inner);
  }
  return inner;
}

function addTokens(row: TokenSums, usage: Usage): void {
  row.tokensInput += usage.input;
  row.tokensOutput += usage.output;
  row.tokensCacheRead += usage.cacheRead;
  row.tokensCacheCreation += usage.cacheCreation;
}
/** How often an idle worker looks whether main took a cut (its sealed rows are awaited). */
const SEAL_CHECK_MS = 50;

export class Metering {
  /** Rows of the current UTC day, by pool name then lane. */
  private rows = new Map<string, Map<LaneRuntime, UsageRecord>>();
  private rowCount = 0;
  /** Rows of the current UTC day by key id then lane name. */
  private keyRows = new Map<string, Map<string, KeyUsageRecord>>();
  private keyRowCount = 0;
  /** The flush epoch of the key rows held; -1 before the first. */
  private keyEpoch = -1;
  private lastFlushMs = 0;
  private dayMs = 0;
  private timer: NodeJS.Timeout | null = null;
  /** Series slots of the config in force; slots are stable across applies. */
  private series: CompiledMetrics | null = null;

  constructor(
    private readonly workerId: number,
    private readonly port: MessagePort,
    private readonly shared: SharedState,
    private readonly flushIntervalMs: number,
  ) {
    this.timer = setInterval(() => this.tick(), Math.min(SEAL_CHECK_MS, flushIntervalMs));
    this.timer.unref();
  }

  /** Hand rows over when main took a cut (sealing the old epoch), else once per flush interval. */
  private tick(): void {
    const epoch = this.shared.settleGate.epoch();
    if (epoch !== this.keyEpoch || Date.now() - this.lastFlushMs >= this.flushIntervalMs) this.flush();
  }

  /** Called with each applied config, before it serves a request. */
  useSeries(metrics: CompiledMetrics): void {
    this.series = metrics;
  }

  /** `nowMs`: the clock at the request's finish (Date.now()), read once for all its records. */
  record(pool: string, lane: LaneRuntime, usage: Usage | null, truncated: boolean, nowMs: number): void {
    if (truncated) this.shared.metrics.counterAdd(this.series!.billingTruncated);
    this.rollDay(nowMs);
    const byLane = innerMap(this.rows, pool);
    let row = byLane.get(lane);
    if (row === undefined) {
      row = {
        day: this.dayMs / 1000,
        pool,
        lane: lane.compiled.name,
        provider: lane.provider.compiled.name,
        tokensInput: 0,
        tokensOutput: 0,
        tokensCacheRead: 0,
        tokensCacheCreation: 0,
        requests: 0,
        truncated: 0,
      };
      byLane.set(lane, row);
      this.rowCount++;
    }
    row.requests++;
    if (truncated) row.truncated++;
    if (usage !== null) addTokens(row, usage);
  }

  /** One request made with key `keyId`, served by `lane` of `provider`, settled in flush epoch `epoch`. */
  recordKey(keyId: string, lane: string, provider: string, usage: Usage | null, nowMs: number, epoch: number): void {
    // Rows of an earlier epoch are sealed (handed over) before this one is added.
    if (epoch !== this.keyEpoch) {
      if (this.keyRowCount > 0) this.flush();
      this.keyEpoch = epoch;
    }
    this.rollDay(nowMs);
    const byLane = innerMap(this.keyRows, keyId);
    let row = byLane.get(lane);
    if (row === undefined) {
      row = { day: this.dayMs / 1000, keyId, model: lane, provider, tokensInput: 0, tokensOutput: 0, tokensCacheRead: 0, tokensCacheCreation: 0, requests: 0 };
      byLane.set(lane, row);
      this.keyRowCount++;
    }
    row.requests++;
    if (usage !== null) addTokens(row, usage);
  }

  /** A new UTC day: what was summed belongs to the old one. */
  private rollDay(nowMs: number): void {
    const dayMs = nowMs - (nowMs % DAY_MS);
    if (dayMs !== this.dayMs) {
      this.flush();
      this.dayMs = dayMs;
    }
  }

  translated(from: ProtocolName, to: ProtocolName): void {
    this.shared.metrics.counterAdd(this.series!.translations[translationIndex(from, to)]!);
  }

  /** A cross-protocol request refused rather than changed (gateway_translations_refused_total). */
  refused(from: ProtocolName, to: ProtocolName, reason: RefusalReason): void {
    this.shared.metrics.counterAdd(this.series!.translationsRefused[refusalIndex(from, to, reason)]!);
  }

  /** A request with a reservation ended with reported usage: how far off the estimate was
   * (gateway_reservation_estimate_ratio; a part the upstream reported 0 of is not observed). */
  estimateSettled(inputEstimate: number, inputActual: number, outputEstimate: number, outputActual: number): void {
    const slots = this.series!.reservationEstimate;
    if (inputActual > 0) this.shared.metrics.observe(slots.input, inputEstimate / inputActual);
    if (outputActual > 0) this.shared.metrics.observe(slots.output, outputEstimate / outputActual);
  }

  /** Hand the rows to main; also called at drain so nothing metered is lost on shutdown. */
  flush(): void {
    this.lastFlushMs = Date.now();
    const epoch = this.shared.settleGate.epoch();
    // Every key row of an epoch before the current one has been recorded by now (a settle reads
    // the epoch inside the gate, and a cut moves it only when no settle is inside).
    const keyEpoch = this.keyEpoch;
    this.keyEpoch = epoch;
    if (this.rowCount === 0 && this.keyRowCount === 0) {
      this.port.postMessage(encodeMessage({ t: 'usage', workerId: this.workerId, records: [], keyRecords: [], sealedThrough: epoch - 1 }));
      return;
    }
    const records: UsageRecord[] = [];
    for (const byLane of this.rows.values()) for (const row of byLane.values()) records.push(row);
    const keyRecords: KeyUsageRecord[] = [];
    for (const byLane of this.keyRows.values()) for (const row of byLane.values()) keyRecords.push(row);
    this.rows = new Map();
    this.rowCount = 0;
    this.keyRows = new Map();
    this.keyRowCount = 0;
    this.port.postMessage(encodeMessage({ t: 'usage', workerId: this.workerId, records, keyRecords, keyEpoch, sealedThrough: epoch - 1 }));
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.flush();
  }
}
