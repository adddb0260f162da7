// gateway_webhook_logs_dropped_total and gateway_file_logs_dropped_total: request-log records
// shed by a saturated sink. The main thread counts them (it runs the sinks); workers render them.
import type { Registry } from 'prom-client';
import { scrapedCounter } from './scraped-family.js';
import { FILE_LOGS_DROPPED_TOTAL, WEBHOOK_LOGS_DROPPED_TOTAL } from '../../shared/metrics/catalog.js';
import type { SeriesSource } from './series-source.js';

export function registerLogsDropped(registry: Registry, source: SeriesSource): void {
  for (const [family, slotOf] of [
    [WEBHOOK_LOGS_DROPPED_TOTAL, () => source.slots().webhookLogsDropped],
    [FILE_LOGS_DROPPED_TOTAL, () => source.slots().fileLogsDropped],
  ] as const) {
    scrapedCounter(registry, family, function () {
      this.reset();
      this.inc(source.shared.metrics.counterValue(slotOf()));
    });
  }
}
