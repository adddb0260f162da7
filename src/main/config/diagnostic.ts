// The one line boot prints before exiting non-zero on a bad config.
import type { LoadResult } from './load-result.js';

export function bootDiagnostic(result: LoadResult): string {
  const [first, ...rest] = result.errors;
  const more = rest.length > 0 ? ` (and ${rest.length} more; run gateway --validate)` : '';
  return `gateway: cannot start: ${first ?? 'invalid configuration'}${more}`;
}
