// gateway_billing_truncated_total: same-protocol non-stream responses over the translate-body
// cap, passed through unparsed and so billed zero tokens.
import { Counter, type Registry } from 'prom-client';
import { BILLING_TRUNCATED_TOTAL } from '../../shared/metrics/catalog.js';
import type { SeriesSource } from './series-source.js';

export function registerBillingTruncated(registry: Registry, source: SeriesSource): void {
  new Counter({
    name: BILLING_TRUNCATED_TOTAL.name,
    help: BILLING_TRUNCATED_TOTAL.help,
    registers: [registry],
    collect() {
      this.reset();
      this.inc(source.shared.metrics.counterValue(source.slots().billingTruncated));
    },
  });
}
