// A data-plane worker thread: a uWS listener on the shared port, the request pipeline, and
// the config it was last sent. Config arrives over the parent port as a compiled snapshot; it
// is swapped in between requests (a request keeps the runtime it started with) and
// acknowledged, so the main thread knows when an apply is live everywhere.
import { parentPort, workerData } from 'node:worker_threads';
import { createLogger } from '../shared/log.js';
import { decodeMessage, encodeMessage, type MainToWorker } from '../shared/messages.js';
import { startIngress, type Ingress } from './ingress.js';
import { Runtime } from './runtime.js';
import { UpstreamOrigins } from './upstream/origins.js';
import { LaneGauges } from './lane-gauges.js';
import { Metering } from './metering.js';
import { MetricsExposition } from './metrics/exposition.js';
import { MetricsEndpoint, openUnderEmptyChain } from './metrics/endpoint.js';
import { SharedState, workerHolder } from '../shared/sab/index.js';
import { handleBodyTooLarge, handleRequest, type PipelineDeps } from './pipeline/handle.js';
import { handleDraining, handleMethodNotAllowed, handleRouteNotFound, handleUnsupportedEncoding } from './pipeline/edge-errors.js';
import type { WorkerBootData } from './boot-data.js';

const data = workerData as WorkerBootData;
const port = parentPort!;
const log = createLogger('worker');
const origins = new UpstreamOrigins();
// One view of shared memory per worker, attached once: its holder id owns the permits taken.
const shared = SharedState.attach(data.shared, workerHolder(data.workerId));
const gauges = new LaneGauges(shared);
const metering = new Metering(data.workerId, port, shared, data.meteringFlushMs);
const metricsEndpoint = new MetricsEndpoint(new MetricsExposition(shared), openUnderEmptyChain);

let runtime: Runtime | null = null;
let ingress: Ingress | null = null;

const deps: PipelineDeps = {
  runtime: () => runtime!,
  gauges,
  metering,
};

async function applyConfig(msg: Extract<MainToWorker, { t: 'config' }>): Promise<void> {
  const next = new Runtime(msg.config, origins, gauges, log);
  metering.useSeries(msg.config.metrics);
  const previous = runtime;
  runtime = next;
  previous?.retire();
  if (ingress === null) {
    // Behind the TLS front the worker listens on its private unix socket, fixed for its life.
    const target = data.ingressSocket !== undefined ? { path: data.ingressSocket } : msg.config.listen;
    ingress = await startIngress(target, {
      maxBodyBytes: () => runtime!.config.limits.maxBodyBytes,
      onRequest: (req, res) => handleRequest(deps, req, res),
      onBodyTooLarge: (routeIndex, res) => handleBodyTooLarge(deps, routeIndex, res, runtime!.config.limits.maxBodyBytes),
      onNotFound: (res, method, path) => handleRouteNotFound(res, method, path),
      onMethodNotAllowed: (res, routeIndex, method, path, allow) => handleMethodNotAllowed(res, runtime!, routeIndex, method, path, allow),
      onUnsupportedEncoding: (routeIndex, params, res, encoding) => handleUnsupportedEncoding(res, runtime!, routeIndex, params, encoding),
      onDraining: (routeIndex, params, res) => handleDraining(res, runtime!, routeIndex, params),
      healthy: () => runtime!.lanes.some((lane) => gauges.usable(lane.compiled)),
      metrics: (caller) => metricsEndpoint.serve(runtime!.config, caller),
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
    runtime?.retire();
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
    case 'recycle':
      // An operator recycle ends the thread the way a crash does (exit 1), so the
      // supervisor's restart path is the one exercised.
      log.warn('worker recycled on operator request');
      exitWorker(1);
      break;
  }
});
