// 1 with metrics export on: the same request as openai-nonstream, with a prometheus export
// configured and /metrics scraped once a second by the bench itself during the row
// (bench/metrics-scraper.ts). Run beside openai-nonstream: the req/s difference is what
// counting into shared memory and rendering a scrape a second cost; the note gives the scrapes'
// own latency.
import type { Scenario } from '../scenario.js';
import { OPENAI_NONSTREAM_REQUEST } from '../request-bodies.js';
import { MetricsScraper } from '../metrics-scraper.js';

const scraper = new MetricsScraper(null);

export const scenario: Scenario = {
  name: 'openai-nonstream-metrics',
  title: 'OpenAI chat, non-stream, through a pool, prometheus export on and /metrics scraped every second',
  kind: 'throughput',
  request: OPENAI_NONSTREAM_REQUEST,
  targets: ['gateway'],
  connections: 64,
  durationSecs: 5,
  expect: { bodyIncludes: '"choices"' },
  gatewayConfig: (files) => scraper.attach(files),
  gatewayNote: () => scraper.note(),
  reference: 'openai-nonstream',
  order: 12,
};
