// Main's side of the Responses API state: answers a worker's responses-req (put, get, delete,
// input items, a chain walk) from the store, on main's clock and with the live
// `responses_store` limits. The worker never waits on the store itself: it posts the op and
// awaits this answer (worker/responses/state-client.ts).
import type { Logger } from '../../shared/log.js';
import { parseDurationMs } from '../../shared/config/duration.js';
import type { Store } from '../store/store.js';
import { StoreUnavailableError } from '../store/store-unavailable.js';
import {
  CHAIN_DEPTH_MAX,
  type ResponseChain,
  type ResponseStoreLimits,
  type ResponsesOp,
  type ResponsesResult,
} from '../../shared/responses/stored-response.js';
import { inputItemsPage } from '../../shared/responses/views.js';

/** `responses_store` as the config holds it (defaults filled by the loader; a missing one is the default). */
export interface ResponsesStoreConfig {
  ttl?: string;
  max_bytes?: number;
}

const TTL_DEFAULT_MS = 30 * 86_400_000;
const MAX_BYTES_DEFAULT = 256 * 1024 * 1024;

export function responseStoreLimits(config: ResponsesStoreConfig | undefined): ResponseStoreLimits {
  return {
    ttlMs: (config?.ttl !== undefined ? parseDurationMs(config.ttl) : undefined) ?? TTL_DEFAULT_MS,
    maxBytes: config?.max_bytes ?? MAX_BYTES_DEFAULT,
  };
}

export class ResponseStateService {
  constructor(
    private readonly store: Store,
    private readonly limits: () => ResponseStoreLimits,
    private readonly nowMs: () => number,
    private readonly log: Logger,
  ) {}

  /** Never rejects: a store that cannot be reached answers `unavailable`, anything else `internal` (logged). */
  async answer(op: ResponsesOp): Promise<ResponsesResult> {
    try {
      return await this.run(op);
    } catch (err) {
      if (err instanceof StoreUnavailableError) return { ok: false, error: 'unavailable', message: err.message };
      this.log.error({ err: (err as Error).message, op: op.kind }, 'responses state operation failed');
      return { ok: false, error: 'internal', message: 'the responses state operation failed' };
    }
  }

  private async run(op: ResponsesOp): Promise<ResponsesResult> {
    const now = this.nowMs();
    switch (op.kind) {
      case 'put': {
        const { ttlMs, maxBytes } = this.limits();
        if (maxBytes <= 0) return { ok: true, kind: 'put', stored: false, reason: 'disabled' };
        // Main's clock and the live TTL decide, not the worker's.
        const record = { ...op.record, createdAtMs: now, expiresAtMs: now + ttlMs };
        const stored = await this.store.putResponse(record, maxBytes, now);
        return stored ? { ok: true, kind: 'put', stored } : { ok: true, kind: 'put', stored, reason: 'too_large' };
      }
      case 'get':
        return { ok: true, kind: 'get', record: await this.store.getResponse(op.id, op.keyId, now) };
      case 'delete':
        return { ok: true, kind: 'delete', deleted: await this.store.deleteResponse(op.id, op.keyId) };
      case 'input-items': {
        const record = await this.store.getResponse(op.id, op.keyId, now);
        return { ok: true, kind: 'input-items', page: record === null ? null : inputItemsPage(record, op.query) };
      }
      case 'chain':
        return { ok: true, kind: 'chain', chain: await this.chain(op.id, op.keyId, now) };
    }
  }

  /** `id` and the responses before it, oldest first; stops at the first one not stored, a loop, or CHAIN_DEPTH_MAX. */
  private async chain(id: string, keyId: string, now: number): Promise<ResponseChain> {
    const newestFirst = [];
    const seen = new Set<string>();
    let next: string | null = id;
    while (next !== null && newestFirst.length < CHAIN_DEPTH_MAX && !seen.has(next)) {
      seen.add(next);
      const record = await this.store.getResponse(next, keyId, now);
      if (record === null) return { records: newestFirst.reverse(), missing: next };
      newestFirst.push(record);
      next = record.previousId;
    }
    return { records: newestFirst.reverse(), missing: null };
  }
}
