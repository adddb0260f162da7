// Messages between the main thread and workers. Encoded with msgpackr and posted as bytes,
// except the SharedArrayBuffer itself, which is posted as is (it cannot be serialized).
import { Packr } from 'msgpackr';
import type { CompiledConfig } from './config/compiled.js';
import type { Usage } from './model/types.js';

export type MainToWorker =
  | { t: 'config'; version: number; config: CompiledConfig }
  | { t: 'drain'; deadlineMs: number }
  | { t: 'recycle' };

export type WorkerToMain =
  | { t: 'ready'; workerId: number }
  | { t: 'config-ack'; workerId: number; version: number }
  | { t: 'usage'; workerId: number; records: UsageRecord[] }
  | { t: 'drained'; workerId: number };

/** One metered request, batched by the worker and handed to main for persistence. */
export interface UsageRecord {
  ts: number;
  pool: string;
  lane: string;
  provider: string;
  ingress: string;
  usage: Usage;
  /** True when the response was too large to parse and was billed zero tokens. */
  truncated: boolean;
}

const packr = new Packr({ structuredClone: false, useRecords: false });

export function encodeMessage(msg: MainToWorker | WorkerToMain): Uint8Array {
  return packr.pack(msg);
}

export function decodeMessage<T extends MainToWorker | WorkerToMain>(bytes: Uint8Array): T {
  return packr.unpack(bytes) as T;
}
