// The metrics part of a compiled config: the shared-memory slot of every metric series known
// up front, and whether /metrics is mounted. Every series is registered whatever the export
// config says, so counting on the request path never depends on it and a later apply that
// adds a prometheus export shows counts from process start.
import type { CompiledMetrics, SlotAssigner } from '../../shared/config/compiled.js';
import type { DeploymentConfig } from '../../shared/config/schema/deployment.js';
import { BILLING_TRUNCATED_TOTAL, FILE_LOGS_DROPPED_TOTAL, TRANSLATIONS_REFUSED_TOTAL, TRANSLATIONS_TOTAL, WEBHOOK_LOGS_DROPPED_TOTAL, seriesKey } from '../../shared/metrics/catalog.js';
import { REFUSAL_REASONS } from '../../shared/protocols/refusal.js';
import { PROTOCOL_NAMES } from '../../shared/model/types.js';

const COUNTER = { kind: 'counter' } as const;

export function compileMetrics(config: DeploymentConfig, slots: SlotAssigner): CompiledMetrics {
  const translations: number[] = [];
  // Index from * 6 + to (translationIndex); same-protocol pairs keep their place unused.
  for (const from of PROTOCOL_NAMES) {
    for (const to of PROTOCOL_NAMES) translations.push(slots.metricSeries(seriesKey(TRANSLATIONS_TOTAL, [from, to]), COUNTER));
  }
  const translationsRefused: number[] = [];
  // Index (from * 6 + to) * reasons + reason (refusalIndex).
  for (const from of PROTOCOL_NAMES) {
    for (const to of PROTOCOL_NAMES) {
      for (const reason of REFUSAL_REASONS) translationsRefused.push(slots.metricSeries(seriesKey(TRANSLATIONS_REFUSED_TOTAL, [from, to, reason]), COUNTER));
    }
  }
  return {
    prometheus: prometheusExport(config),
    translations,
    translationsRefused,
    billingTruncated: slots.metricSeries(seriesKey(BILLING_TRUNCATED_TOTAL), COUNTER),
    webhookLogsDropped: slots.metricSeries(seriesKey(WEBHOOK_LOGS_DROPPED_TOTAL), COUNTER),
    fileLogsDropped: slots.metricSeries(seriesKey(FILE_LOGS_DROPPED_TOTAL), COUNTER),
  };
}

/** The first `module: prometheus` instance; load already checked its buffer_seconds. */
function prometheusExport(config: DeploymentConfig): CompiledMetrics['prometheus'] {
  for (const instance of Object.values(config.export ?? {})) {
    if (instance.module === 'prometheus') return { bufferSeconds: Number(instance.settings.buffer_seconds) };
  }
  return null;
}
