// The routing counters kept as metric series in shared memory, so every worker (and the main
// thread's admin reads) sees the same totals: request dispositions per (pool, lane), failovers
// per (pool, reason), breaker trips per (pool, lane). The metrics issue renders them (and the
// spec's gateway_upstream_failures_total / gateway_requests_total are sums over the first).
import { seriesKey, type MetricFamily } from '../metrics/catalog.js';

const REQUEST_DISPOSITIONS_TOTAL: MetricFamily = {
  name: 'gateway_request_dispositions_total',
  help: 'Requests by how they ended (finish disposition), per pool and the lane of the last attempt ("" = no lane reached).',
  labelNames: ['pool', 'lane', 'disposition'],
};

export const FAILOVERS_TOTAL: MetricFamily = {
  name: 'gateway_failovers_total',
  help: 'Failovers to another member before the first upstream byte, by reason.',
  labelNames: ['pool', 'reason'],
};

export const BREAKER_TRIPS_TOTAL: MetricFamily = {
  name: 'gateway_breaker_trips_total',
  help: 'Closed-to-Open trips of a (pool, lane) breaker cell.',
  labelNames: ['pool', 'lane'],
};

/** Pool label of direct routes (the lane-default cell). */
export const DIRECT_POOL_LABEL = '';

export function dispositionKey(pool: string, lane: string, disposition: string): string {
  return seriesKey(REQUEST_DISPOSITIONS_TOTAL, [pool, lane, disposition]);
}

export function failoverKey(pool: string, reason: string): string {
  return seriesKey(FAILOVERS_TOTAL, [pool, reason]);
}

export function tripKey(pool: string, lane: string): string {
  return seriesKey(BREAKER_TRIPS_TOTAL, [pool, lane]);
}
