// gateway_translations_total{from,to}: requests whose lane speaks another protocol than the
// ingress (PROTOCOLS.md). Every cross-protocol pair is shown, zeros included, so a rate over
// the first translation of a pair is not lost; same-protocol pairs never translate and show
// only if something counted them.
import type { Registry } from 'prom-client';
import { scrapedCounter } from './scraped-family.js';
import { TRANSLATIONS_TOTAL, translationIndex } from '../../shared/metrics/catalog.js';
import { PROTOCOL_NAMES } from '../../shared/model/types.js';
import type { SeriesSource } from './series-source.js';

export function registerTranslations(registry: Registry, source: SeriesSource): void {
  scrapedCounter(registry, TRANSLATIONS_TOTAL, function () {
    const slots = source.slots().translations;
    const values = source.shared.metrics;
    this.reset();
    for (const from of PROTOCOL_NAMES) {
      for (const to of PROTOCOL_NAMES) {
        const value = values.counterValue(slots[translationIndex(from, to)]!);
        if (from !== to || value > 0) this.inc({ from, to }, value);
      }
    }
  });
}
