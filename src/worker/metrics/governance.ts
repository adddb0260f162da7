// The governance gauges, read at scrape time from the governance counters in shared memory
// (src/shared/sab/governance-counters.ts), i.e. the same words admission reserves in:
// - gateway_key_spend_cents / gateway_key_tokens_total{key, group}: each key's current budget
//   window, at most KEY_SERIES_CAP keys (highest spend first), the rest summed as key="_other";
// - gateway_bucket_spend_cents / _budget_remaining_cents / gateway_bucket_tokens{bucket, group,
//   window[, model, tier]}: each group's limited windows (bucket = group:<name>@<window>).
//   A group counts a metric in a window only when a limit on it is set there, so spend shows for
//   windows with a budget limit and tokens for windows with a tokens limit. The counters keep
//   tokens per window, not per (model, tier), so gateway_bucket_tokens shows one series per
//   bucket with model="" and tier="" (all models and tiers).
import { Gauge, type Registry } from 'prom-client';
import type { WorkerGroup } from '../../shared/governance/worker-state.js';
import { METRIC_BUDGET, METRIC_TOKENS } from '../../shared/governance/worker-state.js';
import { WINDOW_NAMES, windowTag } from '../../shared/governance/windows.js';
import {
  BUCKET_BUDGET_REMAINING_CENTS, BUCKET_SPEND_CENTS, BUCKET_TOKENS, KEY_SERIES_CAP, KEY_SPEND_CENTS, KEY_TOKENS_TOTAL, OTHER_KEYS_LABEL,
} from '../../shared/metrics/catalog.js';
import { GOV_KEY_BUDGET_TOKENS, GOV_TOKENS } from '../../shared/sab/layout.js';
import type { CardRates } from '../../shared/governance/card-rates.js';
import { registerSampleFamily, type Sample } from './sample-family.js';
import type { SeriesSource } from './series-source.js';

const MICROS_PER_CENT = 10_000;

/** The worker's view of keys and groups (KeyTable). */
export interface GovernanceSource {
  forEachKey(visit: (id: string, group: string | null, slot: number, budgetWindow: number) => void): void;
  allGroups(): Iterable<WorkerGroup>;
  /** What a group's budget (a key's: its bound group's) is priced with now. */
  priceOfGroup(name: string | null): { feeMicros: number; rates: CardRates | null };
}

interface KeyReading {
  id: string;
  group: string;
  spendCents: number;
  tokens: number;
}

/** The keys to show this scrape: all of them up to the cap, else the top spenders plus "_other". */
function readKeys(source: SeriesSource, governance: GovernanceSource): KeyReading[] {
  const g = source.shared.governance;
  const nowSec = Math.floor(source.nowMs() / 1000);
  const tags: number[] = [];
  for (let kind = 0; kind < WINDOW_NAMES.length; kind++) tags.push(windowTag(kind, nowSec));
  const out: KeyReading[] = [];
  // One price lookup per group per scrape, not per key (a million keys share a few groups).
  const prices = new Map<string | null, { feeMicros: number; rates: CardRates | null }>();
  governance.forEachKey((id, group, slot, budgetWindow) => {
    if (slot <= 0) return;
    const tag = tags[budgetWindow]!;
    let price = prices.get(group);
    if (price === undefined) {
      price = governance.priceOfGroup(group);
      prices.set(group, price);
    }
    out.push({
      id,
      group: group ?? '',
      spendCents: g.keySpend(slot, tag, price.feeMicros, price.rates) / MICROS_PER_CENT,
      tokens: g.read(g.keyIndex(slot, GOV_KEY_BUDGET_TOKENS), tag),
    });
  });
  if (out.length <= KEY_SERIES_CAP) return out;
  out.sort((a, b) => b.spendCents - a.spendCents || b.tokens - a.tokens);
  const other: KeyReading = { id: OTHER_KEYS_LABEL, group: '', spendCents: 0, tokens: 0 };
  for (let i = KEY_SERIES_CAP; i < out.length; i++) {
    other.spendCents += out[i]!.spendCents;
    other.tokens += out[i]!.tokens;
  }
  out.length = KEY_SERIES_CAP;
  out.push(other);
  return out;
}

interface BucketReading {
  labels: { bucket: string; group: string; window: string };
  /** null: not counted in this window (no budget / tokens limit there). */
  spendCents: number | null;
  tokens: number | null;
  /** null: no budget limit on this bucket. */
  budgetRemainingCents: number | null;
}

interface WindowLimits {
  /** Smallest budget limit in micros; null = none. */
  budgetMicros: number | null;
  tokens: boolean;
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
      const spendMicros = limits.budgetMicros === null ? null : g.groupSpend(group.slot, window, tag, price.feeMicros, price.rates);
      const name = WINDOW_NAMES[window]!;
      out.push({
        labels: { bucket: `group:${group.name}@${name}`, group: group.name, window: name },
        spendCents: spendMicros === null ? null : spendMicros / MICROS_PER_CENT,
        tokens: limits.tokens ? g.read(g.groupIndex(group.slot, window, GOV_TOKENS), tag) : null,
        budgetRemainingCents: spendMicros === null ? null : Math.max(0, limits.budgetMicros! - spendMicros) / MICROS_PER_CENT,
      });
    }
  }
  return out;
}

export function registerGovernance(registry: Registry, source: SeriesSource, governance: GovernanceSource): void {
  // One reading per scrape for each pair of families (the first family's collect reads).
  let keys: KeyReading[] = [];
  let buckets: BucketReading[] = [];

  // The key families are built as plain samples: 10k series through Gauge.set would spend
  // most of the scrape hashing label sets.
  registerSampleFamily(registry, KEY_SPEND_CENTS, 'gauge', () => {
    keys = readKeys(source, governance);
    const samples: Sample[] = new Array(keys.length);
    for (let i = 0; i < keys.length; i++) samples[i] = { labels: { key: keys[i]!.id, group: keys[i]!.group }, value: keys[i]!.spendCents };
    return samples;
  });
  registerSampleFamily(registry, KEY_TOKENS_TOTAL, 'gauge', () => {
    const samples: Sample[] = new Array(keys.length);
    for (let i = 0; i < keys.length; i++) samples[i] = { labels: { key: keys[i]!.id, group: keys[i]!.group }, value: keys[i]!.tokens };
    return samples;
  });
  new Gauge({
    name: BUCKET_SPEND_CENTS.name,
    help: BUCKET_SPEND_CENTS.help,
    labelNames: BUCKET_SPEND_CENTS.labelNames,
    registers: [registry],
    collect() {
      buckets = readBuckets(source, governance);
      this.reset();
      for (const b of buckets) if (b.spendCents !== null) this.set(b.labels, b.spendCents);
    },
  });
  new Gauge({
    name: BUCKET_BUDGET_REMAINING_CENTS.name,
    help: BUCKET_BUDGET_REMAINING_CENTS.help,
    labelNames: BUCKET_BUDGET_REMAINING_CENTS.labelNames,
    registers: [registry],
    collect() {
      this.reset();
      for (const b of buckets) if (b.budgetRemainingCents !== null) this.set(b.labels, b.budgetRemainingCents);
    },
  });
  new Gauge({
    name: BUCKET_TOKENS.name,
    help: BUCKET_TOKENS.help,
    labelNames: BUCKET_TOKENS.labelNames,
    registers: [registry],
    collect() {
      this.reset();
      for (const b of buckets) if (b.tokens !== null) this.set({ ...b.labels, model: '', tier: '' }, b.tokens);
    },
  });
}
