// The gateway's Prometheus metric families: name, help and label names, and the key each
// series is registered under in shared memory. Main registers the series when it compiles a
// config (SlotRegistry.metricSeries(seriesKey(...))); workers count into them and render them
// at /metrics. One table, so the names the two sides use cannot drift apart.
import { PROTOCOL_NAMES, type ProtocolName } from '../model/types.js';
import { REFUSAL_REASONS, type RefusalReason } from '../protocols/refusal.js';

export interface MetricFamily {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
}

export const TRANSLATIONS_TOTAL: MetricFamily = {
  name: 'gateway_translations_total',
  help: 'Requests translated from the ingress protocol (from) to a lane of another protocol (to).',
  labelNames: ['from', 'to'],
};

export const TRANSLATIONS_REFUSED_TOTAL: MetricFamily = {
  name: 'gateway_translations_refused_total',
  help: 'Cross-protocol requests refused with a 400 rather than changed: a content part (reason content_part) or a setting (reason parameter) the lane protocol (to) cannot honour.',
  labelNames: ['from', 'to', 'reason'],
};

export const BILLING_TRUNCATED_TOTAL: MetricFamily = {
  name: 'gateway_billing_truncated_total',
  help: 'Same-protocol non-stream responses over the translate-body cap, passed through unparsed and billed zero tokens.',
  labelNames: [],
};

export const WEBHOOK_LOGS_DROPPED_TOTAL: MetricFamily = {
  name: 'gateway_webhook_logs_dropped_total',
  help: 'Request-log records shed because the webhook sink had max_inflight deliveries in flight.',
  labelNames: [],
};

export const FILE_LOGS_DROPPED_TOTAL: MetricFamily = {
  name: 'gateway_file_logs_dropped_total',
  help: 'Request-log records shed because the file sink had max_pending records queued for the disk.',
  labelNames: [],
};

/**
 * The shared-memory key of one series: the family name and its label values in the family's
 * label order, e.g. `gateway_translations_total{from="openai",to="gemini"}`. Stable for the
 * life of the process, so a series keeps its slot (and its count) across config applies.
 */
export function seriesKey(family: MetricFamily, labelValues: readonly string[] = []): string {
  if (labelValues.length !== family.labelNames.length) {
    throw new Error(`${family.name} takes ${family.labelNames.length} label values, got ${labelValues.length}`);
  }
  if (labelValues.length === 0) return family.name;
  const pairs = family.labelNames.map((label, i) => `${label}=${JSON.stringify(labelValues[i])}`);
  return `${family.name}{${pairs.join(',')}}`;
}

/** Position of each protocol in PROTOCOL_NAMES, for slot tables indexed by protocol. */
export const PROTOCOL_INDEX: Readonly<Record<ProtocolName, number>> = Object.freeze(
  Object.fromEntries(PROTOCOL_NAMES.map((name, i) => [name, i])) as Record<ProtocolName, number>,
);

export const PROTOCOL_COUNT = PROTOCOL_NAMES.length;

/** Index of the (from, to) pair in CompiledMetrics.translations: from * 6 + to. */
export function translationIndex(from: ProtocolName, to: ProtocolName): number {
  return PROTOCOL_INDEX[from] * PROTOCOL_COUNT + PROTOCOL_INDEX[to];
}

/** Index of the (from, to, reason) series in CompiledMetrics.translationsRefused. */
export function refusalIndex(from: ProtocolName, to: ProtocolName, reason: RefusalReason): number {
  return translationIndex(from, to) * REFUSAL_REASONS.length + REFUSAL_REASONS.indexOf(reason);
}
