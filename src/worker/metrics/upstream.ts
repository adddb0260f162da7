// The routing counters routing already keeps in shared memory (src/shared/routing/series.ts),
// rendered under the spec's names:
// - gateway_upstream_attempts_total{pool, lane}: one per attempt (Router.endAttempt);
// - gateway_upstream_failures_total{pool, lane, disposition}: requests whose end was one of the
//   four failure dispositions, from the per-(pool, lane) disposition series finish() counts;
// - gateway_failovers_total{pool, reason} and gateway_breaker_trips_total{pool, lane}.
// Direct routes show under pool "". Every label set the config knows is shown, zeros included.
import type { Registry } from 'prom-client';
import { scrapedCounter } from './scraped-family.js';
import type { CompiledLane, CompiledPoolMember } from '../../shared/config/compiled.js';
import { UPSTREAM_ATTEMPTS_TOTAL, UPSTREAM_FAILURES_TOTAL } from '../../shared/metrics/catalog.js';
import { DISPOSITION_NAMES, Disposition, FAILOVER_REASON_NAMES } from '../../shared/routing/attempt-outcome.js';
import { BREAKER_TRIPS_TOTAL, DIRECT_POOL_LABEL, FAILOVERS_TOTAL } from '../../shared/routing/series.js';
import type { SeriesSource } from './series-source.js';

/** The spec's failure dispositions (what gateway_upstream_failures_total counts). */
const FAILURE_DISPOSITIONS: readonly Disposition[] = [
  Disposition.TransientUpstream,
  Disposition.AttemptTimeout,
  Disposition.HardDown,
  Disposition.ContextLength,
];

/**
 * One counter series per (pool, lane): each pool member's slot, then each lane's direct-route
 * slot under pool "" (DIRECT_POOL_LABEL). Scrape time only, so the closures are fine here.
 */
function forEachLaneSeries(
  source: SeriesSource,
  memberSlot: (member: CompiledPoolMember) => number,
  directSlot: (lane: CompiledLane) => number,
  emit: (pool: string, lane: string, value: number) => void,
): void {
  const values = source.shared.metrics;
  const config = source.config();
  for (const pool of config.pools) {
    for (const m of pool.members) emit(pool.name, config.lanes[m.lane]!.name, values.counterValue(memberSlot(m)));
  }
  for (const lane of config.lanes) emit(DIRECT_POOL_LABEL, lane.name, values.counterValue(directSlot(lane)));
}

export function registerUpstream(registry: Registry, source: SeriesSource): void {
  scrapedCounter(registry, UPSTREAM_ATTEMPTS_TOTAL, function () {
    this.reset();
    forEachLaneSeries(
      source,
      (m) => m.attemptSlot,
      (l) => l.directAttemptSlot,
      (pool, lane, value) => this.inc({ pool, lane }, value),
    );
  });

  scrapedCounter(registry, UPSTREAM_FAILURES_TOTAL, function () {
    const values = source.shared.metrics;
    const config = source.config();
    this.reset();
    const add = (pool: string, lane: string, slots: readonly number[]): void => {
      for (const d of FAILURE_DISPOSITIONS) this.inc({ pool, lane, disposition: DISPOSITION_NAMES[d] }, values.counterValue(slots[d]!));
    };
    for (const pool of config.pools) {
      for (const m of pool.members) add(pool.name, config.lanes[m.lane]!.name, m.dispositionSlots);
    }
    for (const lane of config.lanes) add(DIRECT_POOL_LABEL, lane.name, lane.directDispositionSlots);
  });

  scrapedCounter(registry, FAILOVERS_TOTAL, function () {
    const values = source.shared.metrics;
    this.reset();
    for (const pool of source.config().pools) {
      for (let r = 0; r < FAILOVER_REASON_NAMES.length; r++)
        this.inc({ pool: pool.name, reason: FAILOVER_REASON_NAMES[r]! }, values.counterValue(pool.failoverSlots[r]!));
    }
  });

  scrapedCounter(registry, BREAKER_TRIPS_TOTAL, function () {
    this.reset();
    forEachLaneSeries(
      source,
      (m) => m.tripSlot,
      (l) => l.directTripSlot,
      (pool, lane, value) => this.inc({ pool, lane }, value),
    );
  });
}
