// The governance gauges, read at scrape time from the governance counters in shared memory
// (src/shared/sab/governance-counters.ts), i.e. the same words admission reserves in:
// - gateway_key_spend_cents / gateway_key_tokens_total{key, group, budget_period}: each key's
//   current budget window, labelled with what it was minted with that workers hold (the spec's
//   "mint labels"), at most KEY_SERIES_CAP keys (highest spend first), the rest summed as
//   key="_other";
// - gateway_bucket_spend_cents / _budget_remaining_cents / gateway_bucket_tokens{bucket, group,
//   window[, model, tier]}: each group's limited windows (bucket = group:<name>@<window>).
//   gateway_bucket_reserved_tokens / _reserved_cents{bucket, group, window}: what the requests in
//   flight reserved there (the outstanding words admission CASes), exact across workers.
//   A group counts a metric in a window only when a limit on it is set there, so spend shows for
//   windows with a budget limit and tokens for windows with a tokens limit. The counters keep
//   tokens per window, not per model, so gateway_bucket_tokens shows one series per bucket with
//   model="" (every model) and tier="default" (the only tier the gateway bills, pricing.ts).
import type { Registry } from 'prom-client';
import { scrapedGauge } from './scraped-family.js';
import type { WorkerGroup } from '../../shared/governance/worker-state.js';
import { METRIC_BUDGET, METRIC_TOKENS } from '../../shared/governance/worker-state.js';
import { WINDOW_DAY, WINDOW_MONTH, WINDOW_NAMES, WINDOW_TOTAL, WINDOW_WEEK, windowTag } from '../../shared/governance/windows.js';
import {
  BUCKET_BUDGET_REMAINING_CENTS,
  BUCKET_RESERVED_CENTS,
  BUCKET_RESERVED_TOKENS,
  BUCKET_SPEND_CENTS,
  BUCKET_TOKENS,
  KEY_SERIES_CAP,
  KEY_SPEND_CENTS,
  KEY_TOKENS_TOTAL,
  OTHER_KEYS_LABEL,
} from '../../shared/metrics/catalog.js';
import { DEFAULT_TIER } from '../../shared/governance/pricing.js';
import {
  GOV_BUDGET_RESERVED,
  GOV_GROUP_LANE_SLOTS,
  GOV_GROUP_LANE_SLOTS_AT,
  GOV_KEY_BUDGET_TOKENS,
  GOV_SLOT_CACHE_CREATION,
  GOV_SLOT_INPUT,
  GOV_SLOT_LANE,
  GOV_SLOT_VALUES,
  GOV_TOKENS,
  GOV_TOKENS_RESERVED,
} from '../../shared/sab/layout.js';
import type { GovernanceCounters } from '../../shared/sab/governance-counters.js';
import type { CompiledConfig } from '../../shared/config/compiled.js';
import { laneId } from '../../shared/governance/lane-id.js';
import type { CardRates } from '../../shared/governance/card-rates.js';
import { groupSpend, keySpend } from '../../shared/governance/spend.js';
import { registerSampleFamily, type Sample } from './sample-family.js';
import type { SeriesSource } from './series-source.js';

const MICROS_PER_CENT = 10_000;
/** gateway_bucket_tokens' model label: the counters keep a bucket's tokens over every model. */
const ALL_MODELS = '';

/** A key's budget_period (its mint label) by the window kind of its budget. */
const BUDGET_PERIOD_NAMES: readonly string[] = (() => {
  const names: string[] = [];
  names[WINDOW_DAY] = 'daily';
  names[WINDOW_WEEK] = 'weekly';
  names[WINDOW_MONTH] = 'monthly';
  names[WINDOW_TOTAL] = 'total';
  return names;
})();

/** The worker's view of keys and groups (KeyTable). */
export interface GovernanceSource {
  forEachKey(visit: (id: string, group: string | null, slot: number, budgetWindow: number) => void): void;
  allGroups(): Iterable<WorkerGroup>;
  /** What a group's budget (a key's: its bound group's) is priced with now. */
  priceOfGroup(name: string | null): { feeMicros: number; rates: CardRates | null };
}

/** One key's two samples, kept across scrapes: its label object is handed to prom-client as
 * `sharedLabels`, whose formatted text prom-client caches per object, so a key's label string
 * is escaped and joined once rather than on every scrape (10k keys: most of a scrape's time). */
interface KeySeries {
  group: string;
  budgetWindow: number;
  spend: Sample;
  tokens: Sample;
  /** Scrape that last saw the key: series of keys gone since are dropped. */
  seen: number;
}

const NO_LABELS: Record<string, string> = Object.freeze({}) as Record<string, string>;

function keyLabels(id: string, group: string, budgetWindow: number): Record<string, string> {
  return { key: id, group, budget_period: BUDGET_PERIOD_NAMES[budgetWindow] ?? '' };
}

/** The key gauges' samples, reused from scrape to scrape. */
class KeySeriesTable {
  private readonly byId = new Map<string, KeySeries>();
  private scrape = 0;
  readonly spend: Sample[] = [];
  readonly tokens: Sample[] = [];
  private readonly shown: KeySeries[] = [];
  private readonly other: KeySeries = this.make(OTHER_KEYS_LABEL, '', -1);
  private readonly prices = new Map<string | null, { feeMicros: number; rates: CardRates | null }>();

  private make(id: string, group: string, budgetWindow: number): KeySeries {
    const shared = keyLabels(id, group, budgetWindow);
    return {
      group,
      budgetWindow,
      spend: { labels: NO_LABELS, sharedLabels: shared, value: 0 },
      tokens: { labels: NO_LABELS, sharedLabels: shared, value: 0 },
      seen: 0,
    };
  }

  /** Reads every key: all of them up to the cap, else the top spenders plus "_other". */
  read(source: SeriesSource, governance: GovernanceSource): void {
    const g = source.shared.governance;
    const nowSec = Math.floor(source.nowMs() / 1000);
    const tags: number[] = [];
    for (let kind = 0; kind < WINDOW_NAMES.length; kind++) tags.push(windowTag(kind, nowSec));
    const scrape = ++this.scrape;
    const shown = this.shown;
    shown.length = 0;
    // One price lookup per group per scrape, not per key (a million keys share a few groups).
    const prices = this.prices;
    prices.clear();
    governance.forEachKey((id, group, slot, budgetWindow) => {
      if (slot <= 0) return;
      const groupLabel = group ?? '';
      let series = this.byId.get(id);
      if (series === undefined || series.group !== groupLabel || series.budgetWindow !== budgetWindow) {
        series = this.make(id, groupLabel, budgetWindow);
        this.byId.set(id, series);
      }
      series.seen = scrape;
      const tag = tags[budgetWindow]!;
      let price = prices.get(group);
      if (price === undefined) {
        price = governance.priceOfGroup(group);
        prices.set(group, price);
      }
      series.spend.value = keySpend(g, slot, tag, price.feeMicros, price.rates) / MICROS_PER_CENT;
      series.tokens.value = g.read(g.keyIndex(slot, GOV_KEY_BUDGET_TOKENS), tag);
      shown.push(series);
    });
    if (this.byId.size > shown.length) for (const [id, series] of this.byId) if (series.seen !== scrape) this.byId.delete(id);
    if (shown.length > KEY_SERIES_CAP) {
      shown.sort((a, b) => b.spend.value - a.spend.value || b.tokens.value - a.tokens.value);
      const other = this.other;
      other.spend.value = 0;
      other.tokens.value = 0;
      for (let i = KEY_SERIES_CAP; i < shown.length; i++) {
        other.spend.value += shown[i]!.spend.value;
        other.tokens.value += shown[i]!.tokens.value;
      }
      shown.length = KEY_SERIES_CAP;
      shown.push(other);
    }
    this.spend.length = shown.length;
    this.tokens.length = shown.length;
    for (let i = 0; i < shown.length; i++) {
      this.spend[i] = shown[i]!.spend;
      this.tokens[i] = shown[i]!.tokens;
    }
  }
}

interface BucketReading {
  labels: { bucket: string; group: string; window: string };
  /** null: not counted in this window (no budget / tokens limit there). */
  spendCents: number | null;
  /** The window's tokens by model (lane), then any the lane slots could not hold under "". */
  tokens: Array<{ model: string; tokens: number }> | null;
  /** null: no budget limit on this bucket. */
  budgetRemainingCents: number | null;
  /** Outstanding reservations: tokens (null: no tokens limit here), cents (null: no budget limit). */
  reservedTokens: number | null;
  reservedCents: number | null;
}

interface WindowLimits {
  /** Smallest budget limit in micros; null = none. */
  budgetMicros: number | null;
  tokens: boolean;
}

/** Lane id -> lane name (the rate card's and the bucket's `model`), for the config in force. */
let namesFor: CompiledConfig | null = null;
const names = new Map<number, string>();
function laneNames(source: SeriesSource): Map<number, string> {
  const config = source.config();
  if (namesFor !== config) {
    names.clear();
    for (const lane of config.lanes) names.set(laneId(lane.name), lane.name);
    namesFor = config;
  }
  return names;
}

/**
 * A group window's tokens by model: each lane slot's raw tokens (budget and tokens windows keep
 * them per lane, see lease.ts), and, where a tokens limit also keeps the window's total, what
 * the slots could not hold (a seventh lane in one window) under model "".
 */
function tokensByModel(
  g: GovernanceCounters,
  slot: number,
  window: number,
  tag: number,
  total: boolean,
  lanes: Map<number, string>,
): Array<{ model: string; tokens: number }> {
  const out: Array<{ model: string; tokens: number }> = [];
  const slotsAt = g.groupIndex(slot, window, GOV_GROUP_LANE_SLOTS_AT);
  let sum = 0;
  for (let s = 0; s < GOV_GROUP_LANE_SLOTS; s++) {
    const at = slotsAt + s * GOV_SLOT_VALUES;
    const lane = g.read(at + GOV_SLOT_LANE, tag);
    if (lane === 0) break; // claimed first-free: the rest are free
    let tokens = 0;
    for (let f = GOV_SLOT_INPUT; f <= GOV_SLOT_CACHE_CREATION; f++) tokens += g.read(at + f, tag);
    sum += tokens;
    out.push({ model: lanes.get(lane) ?? `lane-${lane}`, tokens });
  }
  if (total) {
    const rest = g.read(g.groupIndex(slot, window, GOV_TOKENS), tag) - sum;
    if (rest > 0 || out.length === 0) out.push({ model: ALL_MODELS, tokens: Math.max(0, rest) });
  }
  return out;
}

/** Each group window a budget or tokens limit applies to. */
function readBuckets(source: SeriesSource, governance: GovernanceSource): BucketReading[] {
  const g = source.shared.governance;
  const nowSec = Math.floor(source.nowMs() / 1000);
  const out: BucketReading[] = [];
  for (const group of governance.allGroups()) {
    const windows = new Map<number, WindowLimits>();
    for (const limit of group.limits) {
      if (limit.metric !== METRIC_BUDGET && limit.metric !== METRIC_TOKENS) continue;
      const w = windows.get(limit.window) ?? { budgetMicros: null, tokens: false };
      if (limit.metric === METRIC_TOKENS) w.tokens = true;
      else if (w.budgetMicros === null || limit.max < w.budgetMicros) w.budgetMicros = limit.max;
      windows.set(limit.window, w);
    }
    const price = governance.priceOfGroup(group.name);
    for (const [window, limits] of windows) {
      const tag = windowTag(window, nowSec);
      const spendMicros = limits.budgetMicros === null ? null : groupSpend(g, group.slot, window, tag, price.feeMicros, price.rates);
      const name = WINDOW_NAMES[window]!;
      out.push({
        labels: { bucket: `group:${group.name}@${name}`, group: group.name, window: name },
        spendCents: spendMicros === null ? null : spendMicros / MICROS_PER_CENT,
        tokens: limits.tokens || limits.budgetMicros !== null ? tokensByModel(g, group.slot, window, tag, limits.tokens, laneNames(source)) : null,
        budgetRemainingCents: spendMicros === null ? null : Math.max(0, limits.budgetMicros! - spendMicros) / MICROS_PER_CENT,
        reservedTokens: limits.tokens ? source.shared.reserved.read(g.groupIndex(group.slot, window, GOV_TOKENS_RESERVED), tag) : null,
        reservedCents:
          limits.budgetMicros === null ? null : source.shared.reserved.read(g.groupIndex(group.slot, window, GOV_BUDGET_RESERVED), tag) / MICROS_PER_CENT,
      });
    }
  }
  return out;
}

export function registerGovernance(registry: Registry, source: SeriesSource, governance: GovernanceSource): void {
  // One reading per scrape for each pair of families (the first family's collect reads).
  const keys = new KeySeriesTable();
  let buckets: BucketReading[] = [];

  // The key families are built as plain samples: 10k series through Gauge.set would spend
  // most of the scrape hashing label sets.
  registerSampleFamily(registry, KEY_SPEND_CENTS, 'gauge', () => {
    keys.read(source, governance);
    return keys.spend;
  });
  registerSampleFamily(registry, KEY_TOKENS_TOTAL, 'gauge', () => keys.tokens);
  scrapedGauge(registry, BUCKET_SPEND_CENTS, function () {
    buckets = readBuckets(source, governance);
    this.reset();
    for (const b of buckets) if (b.spendCents !== null) this.set(b.labels, b.spendCents);
  });
  scrapedGauge(registry, BUCKET_BUDGET_REMAINING_CENTS, function () {
    this.reset();
    for (const b of buckets) if (b.budgetRemainingCents !== null) this.set(b.labels, b.budgetRemainingCents);
  });
  for (const family of [BUCKET_RESERVED_TOKENS, BUCKET_RESERVED_CENTS]) {
    const tokens = family === BUCKET_RESERVED_TOKENS;
    scrapedGauge(registry, family, function () {
      this.reset();
      for (const b of buckets) {
        const value = tokens ? b.reservedTokens : b.reservedCents;
        if (value !== null) this.set(b.labels, value);
      }
    });
  }
  scrapedGauge(registry, BUCKET_TOKENS, function () {
    this.reset();
    for (const b of buckets) {
      if (b.tokens !== null) for (const t of b.tokens) this.set({ ...b.labels, model: t.model, tier: DEFAULT_TIER }, t.tokens);
    }
  });
}
