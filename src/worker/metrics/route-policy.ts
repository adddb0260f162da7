// The route-policy counters: gateway_route_policy_selections_total{pool, policy} and
// gateway_route_policy_rejections_total{pool, policy, status}. The router counts the built-in
// `weighted` policy; a pool's gates (src/worker/hooks/pool-gate.ts) count through
// countPolicySelection / countPolicyRejection with slots main registered for every policy they
// can decide by (gatePolicies in src/main/config/compile-metrics.ts; keys from
// routePolicyRejectionName). Every registered selection series shows, zeros included; a
// rejection series shows once it counted (a gate has a slot for each of the 100 4xx statuses).
import type { Registry } from 'prom-client';
import { scrapedCounter } from './scraped-family.js';
import type { CompiledPool } from '../../shared/config/compiled.js';
import { ROUTE_POLICY_REJECTIONS_TOTAL, ROUTE_POLICY_SELECTIONS_TOTAL, routePolicyRejectionName } from '../../shared/metrics/catalog.js';
import type { SharedState } from '../../shared/sab/index.js';
import type { SeriesSource } from './series-source.js';

export { routePolicyRejectionName };

/** One routing decision of `policy` on `pool`; false when no series is registered for it. */
export function countPolicySelection(shared: SharedState, pool: CompiledPool, policy: string): boolean {
  const slot = pool.metrics.policySelections[policy];
  if (slot === undefined) return false;
  shared.metrics.counterAdd(slot);
  return true;
}

/** One rejection by `policy` on `pool`, under the key routePolicyRejectionName(policy, status). */
export function countPolicyRejection(shared: SharedState, pool: CompiledPool, rejectionName: string): boolean {
  const slot = pool.metrics.policyRejections[rejectionName];
  if (slot === undefined) return false;
  shared.metrics.counterAdd(slot);
  return true;
}

export function registerRoutePolicy(registry: Registry, source: SeriesSource): void {
  scrapedCounter(registry, ROUTE_POLICY_SELECTIONS_TOTAL, function () {
    const values = source.shared.metrics;
    this.reset();
    for (const pool of source.config().pools) {
      for (const [policy, slot] of Object.entries(pool.metrics.policySelections)) this.inc({ pool: pool.name, policy }, values.counterValue(slot));
    }
  });

  scrapedCounter(registry, ROUTE_POLICY_REJECTIONS_TOTAL, function () {
    const values = source.shared.metrics;
    this.reset();
    for (const pool of source.config().pools) {
      for (const [name, slot] of Object.entries(pool.metrics.policyRejections)) {
        const count = values.counterValue(slot);
        if (count === 0) continue;
        const space = name.lastIndexOf(' ');
        this.inc({ pool: pool.name, policy: name.slice(0, space), status: name.slice(space + 1) }, count);
      }
    }
  });
}
