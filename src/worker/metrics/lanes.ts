// The lane gauges, read at scrape time from the same words and with the same functions as
// GET /stats (src/shared/routing/lane-view.ts), at one instant per scrape: per pool member
// through its (pool, lane) breaker cell, and per lane under pool "" through its lane-default
// cell (direct routes; the `lanes` of /stats). Also gateway_pool_queued (0: no queue policy).
import type { Registry } from 'prom-client';
import { scrapedGauge } from './scraped-family.js';
import type { CompiledLane } from '../../shared/config/compiled.js';
import {
  LANE_AVAILABLE,
  LANE_AVAILABLE_PERMITS,
  LANE_INFLIGHT,
  LANE_RECOVERY_HINT_MS,
  LANE_STATE,
  POOL_QUEUED,
  type MetricFamily,
} from '../../shared/metrics/catalog.js';
import { Availability, availabilityOf, recoveryHintMs } from '../../shared/routing/availability.js';
import { DIRECT_POOL_LABEL } from '../../shared/routing/series.js';
import type { SharedState } from '../../shared/sab/index.js';
import type { SeriesSource } from './series-source.js';

/** One gauge value of a (pool, lane) cell; NaN = no sample. */
type CellReader = (shared: SharedState, lane: CompiledLane, cell: number, nowMs: number) => number;

const READERS: ReadonlyArray<[MetricFamily, CellReader]> = [
  [LANE_STATE, (shared, _lane, cell) => shared.breakers.state(cell)],
  [LANE_AVAILABLE, (shared, lane, cell, nowMs) => (availabilityOf(shared, cell, lane, nowMs) === Availability.Available ? 1 : 0)],
  [LANE_RECOVERY_HINT_MS, (shared, lane, cell, nowMs) => recoveryHintMs(shared, availabilityOf(shared, cell, lane, nowMs), cell, nowMs) ?? 0],
  [LANE_INFLIGHT, (shared, lane) => shared.lanes.laneInflight(lane.slot)],
  [LANE_AVAILABLE_PERMITS, (shared, lane) => (lane.maxConcurrent === 0 ? NaN : shared.lanes.availablePermits(lane.slot, lane.maxConcurrent))],
];

export function registerLanes(registry: Registry, source: SeriesSource): void {
  for (const [family, read] of READERS) {
    scrapedGauge(registry, family, function () {
      const shared = source.shared;
      const config = source.config();
      const nowMs = source.nowMs();
      this.reset();
      const set = (pool: string, lane: CompiledLane, cell: number): void => {
        const value = read(shared, lane, cell, nowMs);
        if (!Number.isNaN(value)) this.set({ pool, lane: lane.name }, value);
      };
      for (const pool of config.pools) for (const m of pool.members) set(pool.name, config.lanes[m.lane]!, m.cellSlot);
      for (const lane of config.lanes) set(DIRECT_POOL_LABEL, lane, lane.defaultCellSlot);
    });
  }

  scrapedGauge(registry, POOL_QUEUED, function () {
    this.reset();
    for (const pool of source.config().pools) this.set({ pool: pool.name }, 0);
  });
}
