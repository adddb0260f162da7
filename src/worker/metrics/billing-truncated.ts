// gateway_billing_truncated_total: same-protocol non-stream responses over the translate-body
// cap, passed through unparsed and so billed zero tokens.
import type { Registry } from 'prom-client';
import { scrapedCounter } from './scraped-family.js';
import { BILLING_TRUNCATED_TOTAL } from '../../shared/metrics/catalog.js';
import type { SeriesSource } from './series-source.js';

export function registerBillingTruncated(registry: Registry, source: SeriesSource): void {
  scrapedCounter(registry, BILLING_TRUNCATED_TOTAL, function () {
    this.reset();
    this.inc(source.shared.metrics.counterValue(source.slots().billingTruncated));
  });
}
