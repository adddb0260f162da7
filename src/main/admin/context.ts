// What admin handlers may use: the main thread's services. Each part of the gateway adds the
// service its admin resources need as one field here.
import type { Logger } from '../../shared/log.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { ConfigState } from '../config-state.js';
import type { WorkerPool } from '../workers.js';
import type { GovernanceService } from '../governance/service.js';
import type { RoutingReads } from './routing-reads.js';
import type { IdentityService } from '../identity/service.js';
import type { HookService } from '../hooks/hook-service.js';
import type { AdminAuthFailures } from './auth-failures.js';

/** The process's graceful stop, for POST /restart (the supervisor starts it again). */
interface Lifecycle {
  /** Drains through the graceful-shutdown path and exits 0. */
  restart(): void;
  env: NodeJS.ProcessEnv;
}

export interface AdminContext {
  config: ConfigState;
  workers: WorkerPool;
  startedAtSecs: number;
  version: string;
  /** The operator token at boot, or null for the open dev posture. The guard reads the live one from `config`. */
  adminToken: string | null;
  log: Logger;
  /** Admin plane: this node's audit log (ring + durable sink) and the process's restart. */
  audit: AuditLog;
  lifecycle: Lifecycle;
  /** Keys, groups, usage and the workers' verified-key caches. */
  governance: GovernanceService;
  /** Routing's live reads (pools, /stats-like views) over the main thread's shared memory. */
  routing: RoutingReads;
  /** Identity providers: token exchange and the IdP entries of auth.admin_auth. */
  identity?: IdentityService;
  /** External hooks: live health, status and schema reads. */
  hooks: HookService;
  /** Failed admin authentication: counted per source (429 past the limit), logged and audited, coalesced. */
  authFailures: AdminAuthFailures;
}
