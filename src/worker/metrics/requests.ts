// gateway_requests_total{ingress_protocol, pool, outcome}: every request once, counted by
// Exchange.finish or by the pipeline's refusals (src/worker/metrics/request-series.ts). Every
// (protocol, outcome) of every pool is shown, zeros included, so rate() sees the first one.
import type { Registry } from 'prom-client';
import { scrapedCounter } from './scraped-family.js';
import type { PoolMetricSlots } from '../../shared/config/compiled.js';
import { REQUEST_OUTCOME_NAMES, REQUESTS_TOTAL, requestIndex } from '../../shared/metrics/catalog.js';
import { PROTOCOL_NAMES } from '../../shared/model/types.js';
import { DIRECT_POOL_LABEL } from '../../shared/routing/series.js';
import type { SeriesSource } from './series-source.js';

export function registerRequests(registry: Registry, source: SeriesSource): void {
  scrapedCounter(registry, REQUESTS_TOTAL, function () {
    const values = source.shared.metrics;
    this.reset();
    const add = (pool: string, slots: PoolMetricSlots): void => {
      for (let p = 0; p < PROTOCOL_NAMES.length; p++) {
        for (let o = 0; o < REQUEST_OUTCOME_NAMES.length; o++) {
          this.inc(
            { ingress_protocol: PROTOCOL_NAMES[p]!, pool, outcome: REQUEST_OUTCOME_NAMES[o]! },
            values.counterValue(slots.requests[requestIndex(p, o)]!),
          );
        }
      }
    };
    for (const pool of source.config().pools) add(pool.name, pool.metrics);
    add(DIRECT_POOL_LABEL, source.slots().direct);
  });
}
