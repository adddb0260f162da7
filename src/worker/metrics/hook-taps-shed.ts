// gateway_hook_taps_shed_total{hook}: tap events a worker did not send to a tap hook because
// its connection was down or its queue full (a tap never delays a request, so it sheds instead).
// Every worker counts into the hook's series in shared memory; the series of the config in force
// are rendered, so a hook that left the config is no longer shown.
import type { Registry } from 'prom-client';
import { scrapedCounter } from './scraped-family.js';
import { HOOK_TAPS_SHED_TOTAL } from '../../shared/metrics/catalog.js';
import type { SeriesSource } from './series-source.js';

export function registerHookTapsShed(registry: Registry, source: SeriesSource): void {
  scrapedCounter(registry, HOOK_TAPS_SHED_TOTAL, function () {
    this.reset();
    for (const hook of source.config().hooks) {
      if (hook.tapsShedSlot >= 0) this.inc({ hook: hook.name }, source.shared.metrics.counterValue(hook.tapsShedSlot));
    }
  });
}
