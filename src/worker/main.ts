// A data-plane worker thread: a uWS listener on the shared port, the request pipeline, and
// the config it was last sent. Config arrives over the parent port as a compiled snapshot; it
// is swapped in between requests (a request keeps the runtime it started with) and
// acknowledged, so the main thread knows when an apply is live everywhere.
import process from 'node:process';
import { parentPort, workerData } from 'node:worker_threads';
import { createLogger } from '../shared/log.js';
import { decodeMessage, encodeMessage, type MainToWorker } from '../shared/messages.js';
import type { CompiledConfig } from '../shared/config/compiled.js';
import { startIngress, type Ingress, type StatsPage } from './ingress.js';
import { Runtime } from './runtime.js';
import { UpstreamOrigins } from './upstream/origins.js';
import { LaneGauges } from './lane-gauges.js';
import { Metering } from './metering.js';
import { AttemptTimers } from './upstream/attempt-timers.js';
import { MetricsExposition } from './metrics/exposition.js';
import { MetricsEndpoint, type MetricsCaller } from './metrics/endpoint.js';
import { KeyTable } from './governance/key-table.js';
import { Admission } from './governance/admit.js';
import { KeyVerifier } from './auth/key-verifier.js';
import { Authenticator } from './auth/authenticate.js';
import { SigV4Verifier } from './auth/sigv4-verifier.js';
import { IdentityClient } from './auth/identity-client.js';
import { ResponseStateClient } from './responses/state-client.js';
import { OidcChain } from './auth/oidc-chain.js';
import { SharedState, workerHolder } from '../shared/sab/index.js';
import { Router } from './routing/router.js';
import { runHealthProbes } from './routing/health-probe.js';
import { anyLaneUsable, statsView } from '../shared/routing/lane-view.js';
import { CODECS } from '../shared/protocols/index.js';
import { SYSTEM_CLOCK, type PipelineDeps } from './pipeline/context.js';
import { startListing, startRequest, startStoredResponse } from './pipeline/entry.js';
import {
  answerBodyTooLarge,
  answerDraining,
  answerMethodNotAllowed,
  answerRouteNotFound,
  answerShed,
  answerUnsupportedEncoding,
} from './pipeline/edge/edge.js';
import { SHED_RETRY_AFTER_SECS, ShedState } from './overload/inflight-limit.js';
import { markShedding } from './overload/stats-overload.js';
import type { WorkerBootData } from './boot-data.js';
import { HookConnections } from './hooks/hook-connections.js';
import { RequestLogBuffer } from './hooks/request-log-buffer.js';
import { setEgressPolicy } from '../shared/egress/policy.js';
import { startRuntimeSampler } from '../shared/metrics/runtime-sampler.js';
import { idleSpin } from './loop/idle-spin.js';
import { workerTracer } from './tracing/worker-tracer.js';

const data = workerData as WorkerBootData;
const port = parentPort!;
const log = createLogger('worker');
const origins = new UpstreamOrigins();
/** Connections to external hooks, kept across applies. */
const hookConnections = new HookConnections();
// One view of shared memory per worker, attached once: its holder id owns the permits taken.
const shared = SharedState.attach(data.shared, workerHolder(data.workerId));
const gauges = new LaneGauges(shared);
const router = new Router(shared, gauges, log);
const metering = new Metering(data.workerId, port, shared, data.meteringFlushMs);
// Keys and groups as main pushes them; verified keys cached per worker.
const keyTable = new KeyTable();
const keyVerifier = new KeyVerifier();
const identityClient = new IdentityClient(port, data.workerId);
const responseState = new ResponseStateClient(port, data.workerId);
const oidcChain = new OidcChain(keyTable, identityClient);
const authenticator = new Authenticator(keyVerifier, keyTable, new SigV4Verifier(), oidcChain);
const admission = new Admission(shared, metering);
/** GET /metrics and GET /stats: open under `chain: []`, else a valid key (as a bearer or x-api-key). */
function mayRead(caller: MetricsCaller, chain: readonly string[]): boolean | Promise<boolean> {
  if (chain.length === 0) return true;
  const bearer = caller.authorization.toLowerCase().startsWith('bearer ') ? caller.authorization.slice(7).trim() : '';
  return authenticator.valid(bearer !== '' ? bearer : caller.xApiKey);
}
const metricsEndpoint = new MetricsEndpoint(new MetricsExposition(shared, keyTable), mayRead);

let runtime: Runtime | null = null;
startRuntimeSampler(shared, () => runtime?.config.metrics.threads);
let ingress: Ingress | null = null;
const shedding = new ShedState();

const deps: PipelineDeps = {
  runtime: () => runtime!,
  router,
  metering,
  auth: authenticator,
  admission,
  shared,
  attemptTimers: new AttemptTimers(),
  responses: responseState,
  requestLogs: new RequestLogBuffer(data.workerId, port),
  clock: SYSTEM_CLOCK,
};

/** GET /stats: open under `auth.chain: []`; a non-empty chain needs a valid virtual key (spec). */
function statsPage(caller: MetricsCaller): StatsPage | Promise<StatsPage> {
  const allowed = mayRead(caller, runtime!.config.auth.chain);
  if (allowed === true) return statsSnapshot();
  if (allowed === false) return STATS_REFUSED;
  return allowed.then((ok) => (ok ? statsSnapshot() : STATS_REFUSED));
}

function statsSnapshot(): StatsPage {
  const now = Date.now();
  const view = statsView(shared, runtime!.config, now) as Record<string, unknown>;
  const limit = shedding.limit(runtime!.config.limits.maxInflightPerWorker);
  markShedding(view, { sheddingNow: shedding.sheddingAt(now), inflight: ingress?.inflight() ?? 0, limit, shed: shedding.shed });
  return { status: 200, contentType: 'application/json', body: JSON.stringify(view) };
}

const STATS_REFUSAL = CODECS.openai.encodeError('unauthorized', 'a valid key is required to read /stats');
const STATS_REFUSED: StatsPage = { status: STATS_REFUSAL.status, contentType: 'application/json', body: STATS_REFUSAL.body };

async function applyConfig(msg: Extract<MainToWorker, { t: 'config' }>): Promise<void> {
  // A shallow copy: msgpackr builds the config's root (21 members) key by key, past the count
  // V8 keeps as fields, so it came as a dictionary and every request read its members through
  // the generic load (seven a request, about 100 instructions each). The spread makes it fields.
  const config: CompiledConfig = { ...msg.config };
  setEgressPolicy(config.egress);
  idleSpin.configure(config.eventLoop.idleSpinUs);
  const next = new Runtime(config, origins, log, runtime, hookConnections.sync(config.hooks, shared), shared);
  keyVerifier.configure(config.auth.keyVerifyPem, config.governance.keyCacheEntries);
  oidcChain.configure(config);
  metering.useSeries(config.metrics);
  const previous = runtime;
  runtime = next;
  previous?.retire();
  if (ingress === null) {
    // Behind the TLS front the worker listens on its private unix socket, fixed for its life.
    const target = data.ingressSocket !== undefined ? { path: data.ingressSocket } : config.listen;
    ingress = await startIngress(target, {
      maxBodyBytes: () => runtime!.config.limits.maxBodyBytes,
      onRequest: (req, res) => startRequest(deps, req, res),
      onBodyTooLarge: (req, res) => answerBodyTooLarge(deps, req, res),
      onListing: (req, res) => startListing(deps, req, res),
      onStoredResponse: (req, res) => startStoredResponse(deps, req, res),
      onNotFound: (req, res, method, path) => answerRouteNotFound(deps, req, res, method, path),
      onMethodNotAllowed: (req, res, method, path, allow) => answerMethodNotAllowed(deps, req, res, method, path, allow),
      onUnsupportedEncoding: (req, res, encoding) => answerUnsupportedEncoding(deps, req, res, encoding),
      onDraining: (req, res) => answerDraining(deps, req, res),
      maxInflight: () => shedding.limit(runtime!.config.limits.maxInflightPerWorker),
      forwardsCallerCredentials: () => runtime!.config.auth.upstreamCredentials === 'passthrough',
      onShed: (req, res) => {
        shedding.record(Date.now());
        answerShed(deps, req, res, SHED_RETRY_AFTER_SECS);
      },
      healthy: () => anyLaneUsable(shared, runtime!.config, Date.now()),
      stats: (caller) => statsPage(caller),
      metrics: (caller) => metricsEndpoint.serve(runtime!.config, caller),
      authToken: (authorization, contentType, body) => identityClient.request({ kind: 'exchange', authorization, contentType, body }),
      signInPage: (query, host) => identityClient.request({ kind: 'page', query, host }),
    });
    port.postMessage(encodeMessage({ t: 'ready', workerId: data.workerId }));
  }
  port.postMessage(encodeMessage({ t: 'config-ack', workerId: data.workerId, version: msg.version }));
}

/**
 * Graceful stop: the listener stays open while in-flight requests finish, answering /healthz
 * 503 (so a load balancer stops sending) and new requests 503, instead of refusing
 * connections; then it closes.
 */
async function drain(deadlineMs: number): Promise<void> {
  ingress?.startDraining();
  while (ingress !== null && ingress.inflight() > 0 && Date.now() < deadlineMs) {
    await new Promise((r) => setTimeout(r, 20));
  }
  ingress?.stopListening();
  metering.stop();
  // Spans still queued go out before the thread ends (bounded: the exporter has its own timeout).
  await Promise.race([workerTracer.flush().catch(() => undefined), new Promise((r) => setTimeout(r, 2_000))]);
  port.postMessage(encodeMessage({ t: 'drained', workerId: data.workerId }));
  exitWorker(0);
}

/**
 * Every way out of a worker comes here: uWS is closed first (a thread that ends with uWS
 * sockets open aborts the process), metering is handed to main, then the thread exits.
 * The supervisor on main restarts a worker that exits this way unless it is shutting down.
 */
let exiting = false;
function exitWorker(code: number): void {
  if (exiting) return;
  exiting = true;
  try {
    ingress?.close();
    metering.stop();
    deps.requestLogs?.flush();
    runtime?.retire();
    hookConnections.closeAll();
  } finally {
    setImmediate(() => process.exit(code));
  }
}

process.on('uncaughtException', (err) => {
  log.fatal({ err: err.message, stack: err.stack }, 'worker crashed');
  exitWorker(1);
});
process.on('unhandledRejection', (reason) => {
  log.fatal({ err: reason instanceof Error ? reason.message : String(reason) }, 'worker crashed on an unhandled rejection');
  exitWorker(1);
});

port.on('message', (bytes: Uint8Array) => {
  const msg = decodeMessage<MainToWorker>(bytes);
  switch (msg.t) {
    case 'config':
      applyConfig(msg).catch((err: Error) => {
        log.fatal({ err: err.message }, 'worker could not apply config');
        exitWorker(1);
      });
      break;
    case 'drain':
      void drain(msg.deadlineMs);
      break;
    case 'gov-state':
      keyTable.replace(msg.state);
      port.postMessage(encodeMessage({ t: 'gov-ack', workerId: data.workerId, seq: msg.seq, flushed: 0 }));
      break;
    case 'gov-update':
      keyTable.update(msg.keys, msg.removeKeys, msg.groups, msg.removeGroups);
      port.postMessage(encodeMessage({ t: 'gov-ack', workerId: data.workerId, seq: msg.seq, flushed: 0 }));
      break;
    case 'auth-cache-flush':
      port.postMessage(encodeMessage({ t: 'gov-ack', workerId: data.workerId, seq: msg.seq, flushed: keyVerifier.flush() + oidcChain.flush() }));
      break;
    case 'identity-res':
      identityClient.settle(msg.id, msg.status, msg.body, msg.headers);
      break;
    case 'responses-res':
      responseState.settle(msg.id, msg.result);
      break;
    case 'probe':
      // Probes of an older config's lane indexes are dropped: the next tick names the new ones.
      if (runtime !== null && runtime.config.version === msg.version) {
        runHealthProbes(runtime, router, gauges, msg.lanes, msg.timeoutMs, log).catch((err: Error) => log.error({ err: err.message }, 'health probes failed'));
      }
      break;
    case 'recycle':
      // An operator recycle ends the thread the way a crash does (exit 1), so the
      // supervisor's restart path is the one exercised.
      log.warn('worker recycled on operator request');
      exitWorker(1);
      break;
  }
});
