// What admin handlers may use: the main thread's services. Each part of the gateway adds the
// service its admin resources need as one field here.
import type { Logger } from '../../shared/log.js';
import type { ConfigState } from '../config-state.js';
import type { WorkerPool } from '../workers.js';
import type { RoutingReads } from './routing-reads.js';

export interface AdminContext {
  config: ConfigState;
  workers: WorkerPool;
  startedAtSecs: number;
  version: string;
  /** The operator token, or null for the open dev posture (empty admin_auth chain). */
  adminToken: string | null;
  log: Logger;
  /** Routing's live reads (pools, /stats-like views) over the main thread's shared memory. */
  routing: RoutingReads;
}
