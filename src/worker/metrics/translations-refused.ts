// gateway_translations_refused_total{from,to,reason}: cross-protocol requests refused with a
// 400 rather than changed (src/shared/protocols/refusal.ts, docs/compatibility.md). Only
// series that counted something are shown: 60 label sets of zeros would say nothing.
import type { Registry } from 'prom-client';
import { scrapedCounter } from './scraped-family.js';
import { TRANSLATIONS_REFUSED_TOTAL, refusalIndex } from '../../shared/metrics/catalog.js';
import { PROTOCOL_NAMES } from '../../shared/model/types.js';
import { REFUSAL_REASONS } from '../../shared/protocols/refusal.js';
import type { SeriesSource } from './series-source.js';

export function registerTranslationsRefused(registry: Registry, source: SeriesSource): void {
  scrapedCounter(registry, TRANSLATIONS_REFUSED_TOTAL, function () {
    const slots = source.slots().translationsRefused;
    const values = source.shared.metrics;
    this.reset();
    for (const from of PROTOCOL_NAMES) {
      for (const to of PROTOCOL_NAMES) {
        for (const reason of REFUSAL_REASONS) {
          const value = values.counterValue(slots[refusalIndex(from, to, reason)]!);
          if (value > 0) this.inc({ from, to, reason }, value);
        }
      }
    }
  });
}
