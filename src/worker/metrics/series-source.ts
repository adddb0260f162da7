// What a metric family reads when /metrics is scraped: the series slots of the config in
// force and the shared memory every worker counts into. Reading is a plain atomic load per
// series, so each worker renders the same totals however the requests were spread.
import type { CompiledMetrics } from '../../shared/config/compiled.js';
import type { SharedState } from '../../shared/sab/index.js';

export interface SeriesSource {
  readonly shared: SharedState;
  /** The slots of the config in force (slots are stable across applies). */
  slots(): CompiledMetrics;
}
