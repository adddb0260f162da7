// What a metric family reads when /metrics is scraped: the config in force (its series slots,
// pools and lanes) and the shared memory every worker counts into. Reading is a plain atomic
// load per series, so each worker renders the same totals however the requests were spread.
import type { CompiledConfig, CompiledMetrics } from '../../shared/config/compiled.js';
import type { SharedState } from '../../shared/sab/index.js';

export interface SeriesSource {
  readonly shared: SharedState;
  /** The slots of the config in force (slots are stable across applies). */
  slots(): CompiledMetrics;
  /** The config in force: pools and lanes give the label values of their series. */
  config(): CompiledConfig;
  /** Epoch ms of this scrape: every time-dependent gauge of one render is read at this instant. */
  nowMs(): number;
}
