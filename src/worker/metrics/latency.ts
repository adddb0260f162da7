// The latency histograms (latency-series.ts counts them): time to first token, time per output
// token and the output rate per (ingress_protocol, pool, lane), and the upstream attempt
// duration per lane. A (protocol, pool, lane) series shows once it has counted (six protocols
// times every member and lane would be mostly zeros: 19 lines each); every lane's attempt
// duration shows, zeros included. Direct routes show under pool "".
import type { Registry } from 'prom-client';
import type { CompiledConfig, LatencySlots } from '../../shared/config/compiled.js';
import {
  OUTPUT_TOKENS_PER_SECOND,
  TIME_PER_OUTPUT_TOKEN_SECONDS,
  TIME_TO_FIRST_TOKEN_SECONDS,
  UPSTREAM_ATTEMPT_DURATION_SECONDS,
  type MetricFamily,
} from '../../shared/metrics/catalog.js';
import { PROTOCOL_NAMES } from '../../shared/model/types.js';
import { DIRECT_POOL_LABEL } from '../../shared/routing/series.js';
import { registerSampleFamily, type Sample } from './sample-family.js';
import { pushHistogramSamples } from './shared-histogram.js';
import type { SeriesSource } from './series-source.js';

/** Each (pool, lane) the config routes to with its slots: pool members, then direct routes. */
function forEachLatency(config: CompiledConfig, emit: (pool: string, lane: string, slots: LatencySlots) => void): void {
  for (const pool of config.pools) for (const m of pool.members) emit(pool.name, config.lanes[m.lane]!.name, m.latency);
  for (const lane of config.lanes) emit(DIRECT_POOL_LABEL, lane.name, lane.directLatency);
}

function registerPerLane(registry: Registry, source: SeriesSource, family: MetricFamily, pick: (slots: LatencySlots) => readonly number[]): void {
  registerSampleFamily(registry, family, 'histogram', () => {
    const out: Sample[] = [];
    const metrics = source.shared.metrics;
    forEachLatency(source.config(), (pool, lane, slots) => {
      const bySlot = pick(slots);
      for (let p = 0; p < PROTOCOL_NAMES.length; p++) {
        const snap = metrics.readHistogram(bySlot[p]!);
        if (snap.count > 0) pushHistogramSamples(out, family.name, { ingress_protocol: PROTOCOL_NAMES[p]!, pool, lane }, snap);
      }
    });
    return out;
  });
}

export function registerLatency(registry: Registry, source: SeriesSource): void {
  registerPerLane(registry, source, TIME_TO_FIRST_TOKEN_SECONDS, (s) => s.firstToken);
  registerPerLane(registry, source, TIME_PER_OUTPUT_TOKEN_SECONDS, (s) => s.perOutputToken);
  registerPerLane(registry, source, OUTPUT_TOKENS_PER_SECOND, (s) => s.tokensPerSecond);
  registerSampleFamily(registry, UPSTREAM_ATTEMPT_DURATION_SECONDS, 'histogram', () => {
    const out: Sample[] = [];
    const metrics = source.shared.metrics;
    for (const lane of source.config().lanes)
      pushHistogramSamples(out, UPSTREAM_ATTEMPT_DURATION_SECONDS.name, { lane: lane.name }, metrics.readHistogram(lane.attemptDurationSlot));
    return out;
  });
}
