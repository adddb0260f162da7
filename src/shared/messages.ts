// Messages between the main thread and workers. Encoded with msgpackr and posted as bytes,
// except the SharedArrayBuffer itself, which is posted as is (it cannot be serialized).
import { Packr } from 'msgpackr';
import type { CompiledConfig } from './config/compiled.js';
import type { GovernanceSnapshot, WorkerGroup, WorkerKey } from './governance/worker-state.js';
import type { ResponsesOp, ResponsesResult } from './responses/stored-response.js';

export type MainToWorker =
  | { t: 'config'; version: number; config: CompiledConfig }
  | { t: 'drain'; deadlineMs: number }
  | { t: 'recycle' }
  // --- governance: acknowledged with gov-ack carrying the same seq ---
  | { t: 'gov-state'; seq: number; state: GovernanceSnapshot }
  | { t: 'gov-update'; seq: number; keys: WorkerKey[]; removeKeys: string[]; groups: WorkerGroup[]; removeGroups: string[] }
  | { t: 'auth-cache-flush'; seq: number }
  /** Health probing (routing): probe these lanes (indexes in the config of `version`) now. */
  | { t: 'probe'; version: number; lanes: number[]; timeoutMs: number }
  /** Identity: main's answer to an identity-req with the same id. */
  | { t: 'identity-res'; id: number; status: number; body: string; headers?: Record<string, string> }
  /** Responses state: main's answer to a responses-req with the same id. */
  | { t: 'responses-res'; id: number; result: ResponsesResult };

export type WorkerToMain =
  | { t: 'ready'; workerId: number }
  | { t: 'config-ack'; workerId: number; version: number }
  /**
   * Metered usage. `keyEpoch`: the flush epoch every key record was settled in (settle-gate.ts);
   * `sealedThrough`: every key record of an epoch up to it has now been sent by this worker.
   */
  | { t: 'usage'; workerId: number; records: UsageRecord[]; keyRecords?: KeyUsageRecord[]; keyEpoch?: number; sealedThrough?: number }
  | { t: 'gov-ack'; workerId: number; seq: number; flushed: number }
  | { t: 'drained'; workerId: number }
  /** Identity: a request only main can answer (it mints and stores), answered by identity-res. */
  | { t: 'identity-req'; workerId: number; id: number; request: IdentityRequest }
  /** Request-log records of finished requests, batched; the main thread writes them to the sinks. */
  | { t: 'request-logs'; workerId: number; records: RequestLogRecord[] }
  /** Responses state: a store operation (the worker never touches the store), answered by responses-res. */
  | { t: 'responses-req'; workerId: number; id: number; op: ResponsesOp };

/**
 * `exchange`: POST /auth/token as the caller sent it (main verifies the token). `provision`: an
 * IdP token the worker verified under auth.chain names an identity whose key is not there yet.
 */
export type IdentityRequest =
  | { kind: 'exchange'; authorization: string; body: string; contentType: string }
  | { kind: 'page'; query: string; host: string }
  | { kind: 'provision'; provider: string; sub: string; groups: string[] };

/** One finished request, as the request-log sinks write it (no secret; the prompt only when opted in). */
export interface RequestLogRecord {
  /** Epoch milliseconds of the finish. */
  ts: number;
  request_id: string;
  key_id: string;
  protocol: string;
  model: string;
  stream: boolean;
  /** '' for a direct route. */
  pool: string;
  /** The lane of the last attempt ('' when none was reached). */
  lane: string;
  provider: string;
  /** The last upstream HTTP status (0 when no upstream answered). */
  status: number;
  disposition: string;
  attempts: number;
  duration_ms: number;
  tokens_input: number | null;
  tokens_output: number | null;
  tokens_cache_read: number | null;
  prompt?: unknown;
}

/**
 * Usage of one (UTC day, pool, lane), summed by a worker since its last flush. Workers sum
 * before sending, so a batch is a handful of rows however many requests it covers.
 */
export interface UsageRecord extends TokenSums {
  /** Epoch seconds of the UTC day's start. */
  day: number;
  pool: string;
  lane: string;
  provider: string;
  requests: number;
  /** Responses too large to parse, billed zero tokens. */
  truncated: number;
}

/** Usage of one (UTC day, key, model lane, provider), summed by a worker since its last flush. */
export interface KeyUsageRecord extends TokenSums {
  day: number;
  keyId: string;
  model: string;
  provider: string;
  requests: number;
}

/** The tokens a usage row sums. */
export interface TokenSums {
  tokensInput: number;
  tokensOutput: number;
  tokensCacheRead: number;
  tokensCacheCreation: number;
}

const packr = new Packr({ structuredClone: false, useRecords: false });

export function encodeMessage(msg: MainToWorker | WorkerToMain): Uint8Array {
  const packed = packr.pack(msg);
  // pack() answers a view into packr's reused buffer, which keeps the size of the largest
  // message ever packed (MBs after a 100k-key gov-state), and postMessage clones a view's whole
  // buffer: without this copy every later message, a one-key gov-update included, would carry MBs.
  return packed.byteLength === packed.buffer.byteLength ? packed : new Uint8Array(packed);
}

export function decodeMessage<T extends MainToWorker | WorkerToMain>(bytes: Uint8Array): T {
  return packr.unpack(bytes) as T;
}
