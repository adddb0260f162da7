// GET /metrics on the data plane: mounted only when the config has a prometheus export
// (otherwise the caller gets the same 404 as any unknown path), guarded by the auth chain,
// then rendered from shared memory.
import type { CompiledConfig } from '../../shared/config/compiled.js';
import { CODECS } from '../../shared/protocols/index.js';
import type { MetricsExposition } from './exposition.js';

/** The caller's credential headers, copied out of the request before anything async. */
export interface MetricsCaller {
  authorization: string;
  xApiKey: string;
}

export interface MetricsPage {
  status: number;
  contentType: string;
  body: string;
}

/** Whether `caller` may read /metrics under the config's data-plane auth chain. */
export type MetricsAccess = (caller: MetricsCaller, chain: readonly string[]) => boolean | Promise<boolean>;

/**
 * The access rule while data-plane keys cannot be verified yet: open under `chain: []`; a
 * non-empty chain requires a valid key (spec), which nothing can vouch for, so it refuses.
 * Key auth replaces this with a verifier of the caller's key.
 */
export const openUnderEmptyChain: MetricsAccess = (_caller, chain) => chain.length === 0;

export class MetricsEndpoint {
  constructor(
    private readonly exposition: MetricsExposition,
    private readonly access: MetricsAccess,
  ) {}

  /** null when /metrics is not mounted under `config` (answer as for an unknown path). */
  serve(config: CompiledConfig, caller: MetricsCaller): Promise<MetricsPage> | null {
    if (config.metrics.prometheus === null) return null;
    return this.page(config, caller);
  }

  private async page(config: CompiledConfig, caller: MetricsCaller): Promise<MetricsPage> {
    if (!(await this.access(caller, config.auth.chain))) {
      const e = CODECS.openai.encodeError('unauthorized', 'a valid key is required to read /metrics');
      return { status: e.status, contentType: e.headers['content-type'] ?? 'application/json', body: e.body };
    }
    return { status: 200, contentType: this.exposition.contentType, body: await this.exposition.render(config) };
  }
}
