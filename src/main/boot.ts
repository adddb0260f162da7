// Start-up order, and shutdown. Boot: load and validate the config (fail loudly with a
// one-line diagnostic), lay out shared memory, open the store, start the workers with the
// compiled config, then the admin listener. Shutdown (SIGTERM/SIGINT): stop the admin
// listener, drain the workers up to the deadline, flush usage to the store, exit 0.
import process from 'node:process';
import { HookService } from './hooks/hook-service.js';
import { RequestLogSinks } from './hooks/request-log-sinks.js';
import { readFileSync } from 'node:fs';
import { createLogger, type Logger } from '../shared/log.js';
import { DEFAULT_JOURNAL_ENTRIES, SharedState, SlotRegistry, workerHolder } from '../shared/sab/index.js';
import { bootDiagnostic, loadConfig, resolveWorkerThreads } from './config/load.js';
import { ConfigState } from './config-state.js';
import { WorkerPool } from './workers.js';
import { UsageLedger } from './usage/ledger.js';
import { openStore, peerPollIntervalMs } from './store/open.js';
import { PeerSync, hasChangeFeed } from './store/peer-sync.js';
import { ConfigShare } from './store/config-share.js';
import { GovernanceService } from './governance/service.js';
import { IdentityService } from './identity/service.js';
import { SignInFlow } from './identity/sign-in.js';
import { answerIdentityRequest } from './identity/requests.js';
import { ResponseStateService, responseStoreLimits } from './responses/response-state-service.js';
import { startAdminServer } from './admin/server.js';
import { AdminAuthFailures } from './admin/auth-failures.js';
import { AuditLog } from './audit/audit-log.js';
import { DurableAuditSink } from './audit/durable-sink.js';
import { assertPortFree } from './port-check.js';
import { TlsListener } from './tls/tls-listener.js';
import { parseListenAddress } from '../shared/config/address.js';
import { BreakerTripKeeper } from './routing/breaker-trips.js';
import { HealthScheduler } from './probes/health-scheduler.js';
import { startRuntimeSampler } from '../shared/metrics/runtime-sampler.js';
import { underCpuQuota } from './config/cpu-quota.js';
import { ensureOverlayFolder } from './config/overlay.js';
import { BreakerSettingsFollower } from './routing/breaker-settings.js';

export interface BootOptions {
  configPath: string;
  safeMode: boolean;
}

const VERSION: string = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const METERING_FLUSH_MS = 1_000;
/** Expired revocations are dropped from memory this often (an entry is a few hundred bytes). */
const REVOCATION_PRUNE_MS = 10 * 60_000;
/** Most reservation journal entries per worker (32 words each). */
const JOURNAL_ENTRIES_MAX = 16_384;

export async function boot(opts: BootOptions): Promise<void> {
  const log = createLogger('main');
  const loaded = await loadConfig({ configPath: opts.configPath, safeMode: opts.safeMode, purpose: 'boot' });
  if (!loaded.ok) {
    process.stderr.write(`${bootDiagnostic(loaded)}\n`);
    process.exit(1);
  }
  for (const warning of loaded.warnings) log.warn(warning);
  const config = loaded.config!;
  // A fresh clone has no var/ yet: the overlay's folder is made here (validation checked its parent is writable).
  if (loaded.overlayPath !== null) await ensureOverlayFolder(loaded.overlayPath);
  if ((config.advanced.idle_spin_us ?? 0) > 0 && underCpuQuota()) {
    log.warn({ idle_spin_us: config.advanced.idle_spin_us }, 'advanced.idle_spin_us is on under a CPU quota: the spin polls with the quota requests need');
  }

  const threads = resolveWorkerThreads(config, process.env);
  if (threads.warning !== undefined) log.warn(threads.warning);
  // One permit holder per worker plus main, so a dead worker's permits can be reclaimed.
  const shared = SharedState.create({ holders: threads.count + 1 });
  const slots = new SlotRegistry(shared);
  const state = new ConfigState(loaded, slots, opts.safeMode, (bytes) => shared.ensureBytes(bytes), log);
  // Where each worker notes its requests' governance reservations (given back if it dies):
  // room for as many requests in flight as it may hold (journal entries are committed as used).
  slots.reservationJournals(Math.min(JOURNAL_ENTRIES_MAX, Math.max(DEFAULT_JOURNAL_ENTRIES, state.compiled.limits.maxInflightPerWorker)));
  startRuntimeSampler(shared, () => state.compiled.metrics.threads);
  const breakerSettings = new BreakerSettingsFollower(shared, log);
  state.adopted = (before, after) => breakerSettings.follow(before, after);

  const store = openStore(config.store, loaded.configPath, loaded.secrets);
  // Written by the governance flush, with the counters of the same cut (counter-snapshots.ts).
  const ledger = new UsageLedger(store, log);
  const flushIntervalMs = config.governance?.flush_interval_secs !== undefined ? config.governance.flush_interval_secs * 1000 : 5_000;
  // Keys, groups, the denylist and the counters, restored before any worker serves.
  const governance = new GovernanceService(store, slots, shared, state, log);
  if (state.compiled.auth.chain.includes('keys') && governance.signer === null) {
    process.stderr.write('gateway: cannot start: auth.chain names "keys" but auth.signing_key is not a usable ed25519 private key (PKCS#8 PEM)\n');
    process.exit(1);
  }
  // Several nodes: the change version before the records are read, so the first poll skips a full re-read when nothing changed since.
  const loadedVersion = hasChangeFeed(store) ? await store.changeVersion().catch(() => -1) : -1;
  await governance.load();
  governance.ledger = ledger;
  governance.snapshots.start(flushIntervalMs);
  governance.startRevocationPrune(REVOCATION_PRUNE_MS);
  // Trip counts come back before any worker can trip a cell; they are written on the same interval.
  const trips = new BreakerTripKeeper(store, shared, slots, () => state.compiled, log);
  await trips.restore();
  trips.startFlushing(flushIntervalMs);

  const { host, port } = state.compiled.listen;
  await assertPortFree(host, port).catch((err: Error) => {
    process.stderr.write(`gateway: cannot start: ${err.message}\n`);
    process.exit(1);
  });
  // A `tls` block: the TLS front takes the data port and the workers listen behind it.
  const tlsListener = await TlsListener.open(loaded.secrets, threads.count, host, port, log).catch((err: Error) => {
    process.stderr.write(`gateway: cannot start: ${err.message}\n`);
    process.exit(1);
  });
  const workers = new WorkerPool(
    threads.count,
    shared.buffers(),
    METERING_FLUSH_MS,
    (msg) => ledger.add(msg),
    log,
    (workerId) => {
      // A dead worker's permits and probe claims would otherwise be held forever.
      const reclaimed = slots.reclaimHolder(workerHolder(workerId));
      ledger.forgetWorker(workerId);
      if (reclaimed.permits > 0 || reclaimed.probes > 0 || reclaimed.reservations > 0)
        log.warn({ worker: workerId, ...reclaimed }, 'reclaimed what a dead worker held');
    },
    tlsListener?.workerSocket ?? null,
  );
  governance.attachWorkers(workers);
  const identity = new IdentityService(governance, state, log);
  const signIn = new SignInFlow(identity, state, log);
  workers.setIdentityHandler((request) => answerIdentityRequest(identity, signIn, request));
  // The Responses API state: the limits are read per operation, so a reload changes them.
  const responseState = new ResponseStateService(store, () => responseStoreLimits(state.loaded.config?.responses_store), Date.now, log);
  workers.setResponsesHandler((op) => responseState.answer(op));
  // Request logs are written here, off the workers; drops are counted in shared memory.
  const requestLogs = new RequestLogSinks({
    webhook: (n) => shared.metrics.counterAdd(state.compiled.metrics.webhookLogsDropped, n),
    file: (n) => shared.metrics.counterAdd(state.compiled.metrics.fileLogsDropped, n),
  });
  workers.onRequestLogs = (records) => {
    requestLogs.configure(state.loaded.config, state.loaded.secrets, state.loaded.configPath);
    requestLogs.accept(records);
  };
  await workers.start(state.compiled);
  // A shared store: what another node's admin calls change reaches this node's workers.
  const peers = hasChangeFeed(store)
    ? new PeerSync(store, governance, log, peerPollIntervalMs(config.store), new ConfigShare(store, state, workers, log))
    : null;
  peers?.loadedAt(loadedVersion);
  await peers?.start();
  const health = new HealthScheduler(() => state.compiled, shared, workers, log);
  health.start();

  // One durable audit writer per store: a second process on the same store keeps its ring only.
  const auditSink = new DurableAuditSink(store, log);
  await auditSink.attach();
  const audit = new AuditLog(auditSink);
  auditSink.backlog = () => audit.oldestFirst();

  const admin = parseListenAddress(config.admin_listen);
  const startedAtSecs = Math.floor(Date.now() / 1000);
  let stop: (reason: string) => void = () => undefined;
  const lifecycle = { restart: () => stop('POST /restart'), env: process.env };
  const hooks = new HookService(() => state.compiled.hooks, opts.safeMode);
  // Webhook hooks get `configure` at boot and after each config change, as socket hooks do on connect.
  state.afterAdopt = () => hooks.configureWebhooks();
  hooks.configureWebhooks();
  const authFailures = new AdminAuthFailures(audit, log);
  const adminServer = await startAdminServer(
    {
      config: state,
      workers,
      startedAtSecs,
      version: VERSION,
      adminToken: loaded.adminToken ?? null,
      log,
      audit,
      lifecycle,
      governance,
      routing: { shared, nowMs: Date.now },
      identity,
      hooks,
      authFailures,
    },
    admin.host,
    admin.port,
  );
  log.info(
    {
      listen: `${state.compiled.listen.host}:${state.compiled.listen.port}`,
      admin_listen: `${admin.host}:${admin.port}`,
      workers: threads.count,
      store: store.module,
      safe_mode: opts.safeMode,
    },
    'gateway listening',
  );

  stop = installSignals(
    log,
    async () => {
      adminServer.close();
      authFailures.close();
      hooks.close();
      health.stop();
      // The TLS front keeps accepting while the workers drain: they answer /healthz 503 (and new
      // requests 503) so a load balancer stops sending, instead of connections being refused.
      const drainMs = (config.advanced?.shutdown_drain_secs ?? 30) * 1000;
      await workers.drain(Date.now() + drainMs);
      await requestLogs.flushed();
      tlsListener?.close();
      await peers?.stop();
      governance.stopRevocationPrune();
      // The last cut: counters and the usage the drained workers handed over, together.
      await governance.snapshots.stop();
      await trips.stop();
      await auditSink.detach();
      await state.close();
      await store.close();
    },
    () => workers.recycleOne(),
  );
}

/** Returns the graceful stop, for POST /restart (exit 0 once drained, like SIGTERM). */
function installSignals(log: Logger, shutdown: () => Promise<void>, recycle: () => void): (reason: string) => void {
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: draining in-flight requests');
    shutdown().then(
      () => {
        log.info('shutdown complete');
        process.exit(0);
      },
      (err: Error) => {
        log.error({ err: err.message }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  // Operator recycle: one worker ends as a crash would; the supervisor restarts it (also how the
  // worker-restart test kills a worker from outside).
  process.on('SIGUSR2', recycle);
  return stop;
}
