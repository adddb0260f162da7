// gateway_reservation_estimate_ratio{part}: estimate over actual per settled request with a
// reservation, a histogram whose buckets and sum live in shared memory (observed by
// Metering.estimateSettled on every worker), rendered cumulative since process start, so an
// operator sees how tight the estimator is on their traffic. (The outstanding-reservation
// gauges per bucket are read with the other bucket gauges, governance.ts.)
import type { Registry } from 'prom-client';
import { RESERVATION_ESTIMATE_PARTS, RESERVATION_ESTIMATE_RATIO } from '../../shared/metrics/catalog.js';
import { registerSampleFamily, type Sample } from './sample-family.js';
import type { SeriesSource } from './series-source.js';

export function registerReservations(registry: Registry, source: SeriesSource): void {
  registerSampleFamily(registry, RESERVATION_ESTIMATE_RATIO, 'histogram', () => {
    const slots = source.slots().reservationEstimate;
    const out: Sample[] = [];
    for (const part of RESERVATION_ESTIMATE_PARTS) {
      const snap = source.shared.metrics.readHistogram(part === 'input' ? slots.input : slots.output);
      const labels = { part };
      let cumulative = 0;
      for (let i = 0; i < snap.counts.length; i++) {
        cumulative += snap.counts[i]!;
        const le = i < snap.bounds.length ? String(snap.bounds[i]) : '+Inf';
        out.push({ metricName: `${RESERVATION_ESTIMATE_RATIO.name}_bucket`, labels: { ...labels, le }, value: cumulative });
      }
      out.push({ metricName: `${RESERVATION_ESTIMATE_RATIO.name}_sum`, labels, value: snap.sum });
      out.push({ metricName: `${RESERVATION_ESTIMATE_RATIO.name}_count`, labels, value: snap.count });
    }
    return out;
  });
}
