// A response of the Responses API as the gateway keeps it, so that `previous_response_id`
// works whatever lane served either turn, and `GET` / `DELETE /v1/responses/{id}` and
// `GET /v1/responses/{id}/input_items` answer for the key that created it. Shared by the store
// (main thread), the state service and the worker's client (messages.ts carries it).

export interface StoredResponse {
  /** The id the caller saw (the upstream's own on a Responses lane, else one the gateway minted). */
  id: string;
  /** The virtual key that created it ('' under an open auth chain): only it can read or delete it. */
  keyId: string;
  /** Epoch milliseconds it was stored at, and after which it is gone (responses_store.ttl). */
  createdAtMs: number;
  expiresAtMs: number;
  /** The lane and provider that served it, and the lane's protocol. */
  lane: string;
  provider: string;
  laneProtocol: string;
  /** The upstream's own response id, when the lane is a Responses lane that keeps state; else null. */
  upstreamId: string | null;
  /** The `previous_response_id` of the request that made it: the chain walks these. */
  previousId: string | null;
  /** This turn's own input items (a string input is kept as one user message item), not the history before it. */
  input: unknown[];
  /** The Response object as the caller got it: `output` holds the output items. */
  response: Record<string, unknown>;
}

/** The store's limits, from `responses_store` (read per operation: a reload may change them). */
export interface ResponseStoreLimits {
  ttlMs: number;
  /** Total bytes of stored records; 0 stores nothing. */
  maxBytes: number;
}

/** How many responses a chain walk follows at most (a chain is a conversation's turns). */
export const CHAIN_DEPTH_MAX = 256;

/** The query of `GET /v1/responses/{id}/input_items`. */
export interface InputItemsQuery {
  /** An item id: list what comes after it in `order`. */
  after?: string;
  /** 1..100, default 20. */
  limit: number;
  /** `desc` (the default) lists the last input item first. */
  order: 'asc' | 'desc';
}

/** What a worker asks main to do with the store (messages.ts `responses-req`). */
export type ResponsesOp =
  | { kind: 'put'; record: StoredResponse }
  | { kind: 'get'; id: string; keyId: string }
  | { kind: 'delete'; id: string; keyId: string }
  | { kind: 'input-items'; id: string; keyId: string; query: InputItemsQuery }
  /** The response `id` and every previous one, oldest first, up to CHAIN_DEPTH_MAX. */
  | { kind: 'chain'; id: string; keyId: string };

/** One page of input items, as OpenAI lists them. */
export interface InputItemsPage {
  data: unknown[];
  firstId: string | null;
  lastId: string | null;
  hasMore: boolean;
}

/** A chain walk: `records` oldest first; `missing` the first id of the chain that is not stored (expired, deleted, another key's), else null. */
export interface ResponseChain {
  records: StoredResponse[];
  missing: string | null;
}

/** main's answer (messages.ts `responses-res`). `unavailable`: the store could not be reached; `timeout`: main did not answer in time. */
export type ResponsesResult =
  | { ok: true; kind: 'put'; stored: boolean; reason?: 'too_large' | 'disabled' }
  | { ok: true; kind: 'get'; record: StoredResponse | null }
  | { ok: true; kind: 'delete'; deleted: boolean }
  | { ok: true; kind: 'input-items'; page: InputItemsPage | null }
  | { ok: true; kind: 'chain'; chain: ResponseChain }
  | { ok: false; error: 'unavailable' | 'timeout' | 'internal'; message: string };
