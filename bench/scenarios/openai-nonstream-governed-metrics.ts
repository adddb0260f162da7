// 1 governed, with metrics export on and 10,000 keys: openai-nonstream-governed plus a
// prometheus export, 9,999 more keys in the store (so gateway_key_* carry 10k key series, the
// cap) and /metrics scraped once a second with the bench key. Run beside
// openai-nonstream-governed; the note gives what a scrape of 10k key series costs.
import type { Scenario } from '../scenario.js';
import { BENCH_SECRET, GOVERNED_REQUEST, governGateway } from '../governed-gateway.js';
import { MetricsScraper } from '../metrics-scraper.js';

const KEYS = 10_000;
const scraper = new MetricsScraper(`Bearer ${BENCH_SECRET}`);

export const scenario: Scenario = {
  name: 'openai-nonstream-governed-metrics',
  title: 'OpenAI chat, non-stream, virtual key, 10k keys, prometheus export on and /metrics scraped every second',
  kind: 'throughput',
  request: GOVERNED_REQUEST,
  targets: ['gateway'],
  connections: 64,
  durationSecs: 5,
  expect: { bodyIncludes: '"choices"' },
  governed: true,
  gatewayConfig: (files) => {
    governGateway(files, KEYS - 1);
    scraper.attach(files);
  },
  gatewayNote: () => scraper.note(),
  reference: 'openai-nonstream-governed',
  order: 13,
};
